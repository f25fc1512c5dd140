"""The whole demo, floor by floor: what ``manage.py demo`` loads for a first look.

Responsible for: calling each floor's part of the demo in the order the floors are built, with
one random generator, so that the demo is the same on every machine:

1. clubs/demo.py: the organizer ``organizador`` / ``amarrako``, "Peña Txoko" (Pamplona), its
   64 players and 32 pairs;
2. tournaments/demo.py: "Torneo de San Fermín" half-way through (a Swiss of five rounds, two
   played, the third half played, a knockout of the top 8 defined);
3. seasons/leagues/demo.py: "Liga de los jueves", two divisions, two jornadas and a half played;
4. seasons/circuits/demo.py: a second peña and "Circuito de Navarra 2026", three small
   tournaments played and ranked;
5. seasons/interpenas/demo.py: an interpeña between the two peñas, half played;
6. seasons/leagues/teams/demo.py: a league of peñas of four peñas;
7. seasons/championships/demo.py: a championship with qualifiers in three peñas (a third peña
   joins), quotas and eligibility rules, and its final played to its champion;
8. tournaments/demo.py again: "Torneo de San Juan", a four-stage plan (a Swiss for everybody,
   groups by level, a final per group and a Cuadro B, two prizes) in its final phases; last,
   with its own random generator, so the parts above are as they were without it;
9. after the commit (``demo_finish``), what the tasks would do: the standings, the circuit's
   ranking, and the players' ratings (seasons/ratings).

``demo_delete`` deletes it all again, from the top floor down.

Must not: load anything itself (each floor's module does, through its services).

Terms: peña, torneo, liga, circuito, interpeñas, liga de peñas, campeonato, valoración
(rating).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubs.demo import club_demo_delete, club_demo_load, demo_organizer, demo_organizer_delete
from clubs.models import Club, Pair
from seasons.championships.demo import (
    ChampionshipDemo,
    championship_demo_delete,
    championship_demo_load,
)
from seasons.circuits.demo import (
    SECOND_SLUG,
    CircuitDemo,
    circuit_demo_delete,
    circuit_demo_finish,
    circuit_demo_load,
)
from seasons.interpenas.demo import interpena_demo_delete, interpena_demo_load
from seasons.leagues.demo import league_demo_delete, league_demo_load
from seasons.leagues.models import League
from seasons.leagues.teams.demo import team_demo_delete, team_demo_load
from seasons.ratings.services import ratings_rebuild
from tournaments.demo import (
    TablePlayer,
    TournamentDemo,
    plan_demo_load,
    tournament_demo_finish,
    tournament_demo_load,
    tournaments_demo_delete,
)
from tournaments.models import Tournament

SEED = 20260707  # of every random choice of the demo's peña, tournament and league


@dataclass
class Loaded:
    """What the demo loaded: enough to print the way in and to count in tests."""

    club: Club
    tournament: TournamentDemo
    league: League
    circuits: CircuitDemo
    championship: ChampionshipDemo
    plan: Tournament


def demo_load(*, log=print) -> Loaded:
    """Every floor's part, in order (inside the caller's transaction)."""
    rng = random.Random(SEED)
    user = demo_organizer(log=log)
    club, pairs = club_demo_load(user=user, rng=rng, log=log)
    player = TablePlayer(rng)
    tournament = tournament_demo_load(user=user, club=club, pairs=pairs, player=player, log=log)
    league = league_demo_load(user=user, club=club, pairs=pairs, player=player, log=log)
    circuits = circuit_demo_load(user=user, club=club, pairs=pairs, log=log)
    interpena_demo_load(
        user=user,
        home=club,
        away=circuits.second,
        home_pairs=pairs[16:20],
        away_pairs=circuits.second_pairs,
        rng=circuits.rng,
        log=log,
    )
    team_demo_load(
        user=user,
        club=club,
        second=circuits.second,
        pairs=pairs,
        second_pairs=list(Pair.objects.filter(club=circuits.second).order_by("pk")),
        log=log,
    )
    championship = championship_demo_load(
        user=user,
        club=club,
        pairs=pairs,
        second=circuits.second,
        second_pairs=circuits.second_pairs,
        log=log,
    )
    plan = plan_demo_load(user=user, club=club, pairs=pairs, log=log)
    return Loaded(club, tournament, league, circuits, championship, plan)


def demo_finish(loaded: Loaded) -> int:
    """After the commit, as the tasks would (the demo's tasks are not waited for): the Swiss'
    standings, the circuit's stops and ranking, the players' ratings and the peña's ranking.
    Returns the rows of the Swiss' standings."""
    rows = tournament_demo_finish(loaded.tournament)
    circuit_demo_finish(loaded.circuits)
    ratings_rebuild()
    return rows


def demo_delete(club: Club) -> None:
    """Delete the demo from the top floor down: no service deletes tournaments, pairs or
    peñas, and each floor's rows protect what they are built on (a league's divisions their
    tournaments, an interpeña's boards their matches, an entry its pair)."""
    league_demo_delete(club)
    team_demo_delete()  # the league of peñas: it holds interpeñas and two more peñas
    interpena_demo_delete(SECOND_SLUG)
    championship_demo_delete()  # its qualifiers hold pairs of the circuit's second peña
    circuit_demo_delete()  # the circuit, its stops and the second peña
    tournaments_demo_delete(Tournament.objects.filter(club=club).values_list("pk", flat=True))
    club_demo_delete(club)
    demo_organizer_delete()
