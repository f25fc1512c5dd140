"""The demo's league of peñas, loaded by ``manage.py demo`` after seasons.circuits.demo (its
second peña plays it) through the same services the pages and the API call.

Responsible for:

- two more peñas owned by the demo's organizer, "Peña Gares" (Puente la Reina) and "Peña
  Erreka" (Tafalla), with 4 players in 2 pairs each;
- "Liga de peñas de Navarra" (2026-27) of Peña Txoko, Peña Lizarra and those two: a single
  round robin of three Sundays, two boards a fixture, half played: jornada 1's two fixtures
  confirmed by both captains, jornada 2's first fixture with its boards confirmed and waiting
  for the captains, its second fixture opened and its line-ups fielded, jornada 3 still to
  open;
- ``team_demo_delete``: those rows, for ``--reset`` (before the interpeñas and peñas they
  hold).

Must not: write a row a service could write (the exception is the deletion).

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), capitán.
"""

from __future__ import annotations

import datetime as dt
import random

from clubs.demo import club_demo_delete
from clubs.models import Club, Pair
from clubs.services import club_create, pair_create, player_create
from seasons.interpenas.models import Interpena
from seasons.interpenas.result import signature
from seasons.interpenas.selectors import interpena_result
from seasons.interpenas.services import (
    interpena_board_confirm,
    interpena_board_submit,
    interpena_lineup_set,
    interpena_team_confirm,
)
from seasons.leagues.models import TeamFixture, TeamLeague
from seasons.leagues.teams import services as team_services
from tournaments.demo import demo_games, tournaments_demo_delete
from tournaments.models import Match, Tournament

TEAM_LEAGUE_NAME = "Liga de peñas de Navarra"
SEED = 20261004
PEÑAS = (
    (
        "Peña Gares",
        "pena-gares",
        "Puente la Reina",
        (("Koldo", "Zabala"), ("Maite", "Irigoyen"), ("Fermín", "Azcona"), ("Edurne", "Goñi")),
    ),
    (
        "Peña Erreka",
        "pena-erreka",
        "Tafalla",
        (("Patxi", "Elizalde"), ("Amaia", "Urra"), ("Javier", "Arbizu"), ("Itziar", "Oroz")),
    ),
)
SUNDAYS = (dt.date(2026, 10, 4), dt.date(2026, 11, 8), dt.date(2026, 12, 13))


def team_demo_load(
    *, user, club: Club, second: Club, pairs: list[Pair], second_pairs: list[Pair], log=print
) -> TeamLeague:
    rng = random.Random(SEED)
    teams = {club.pk: pairs[:2], second.pk: second_pairs[2:4]}
    clubs = [club, second]
    for name, slug, town, people in PEÑAS:
        peña = club_create(user=user, name=name, slug=slug, town=town, region="Navarra")
        players = [
            player_create(user=user, club=peña, first_name=first, last_name=last)
            for first, last in people
        ]
        teams[peña.pk] = [
            pair_create(
                user=user, club=peña, player_one_id=players[i].pk, player_two_id=players[i + 1].pk
            )
            for i in (0, 2)
        ]
        clubs.append(peña)
    league = team_services.team_league_create(
        club=club,
        actor=user,
        name=TEAM_LEAGUE_NAME,
        season="2026-27",
        club_ids=[c.pk for c in clubs],
        dates=list(SUNDAYS),
        boards=2,
        preset="8 reyes a 40",
    )
    fixtures = list(
        TeamFixture.objects.filter(jornada__league=league).order_by("jornada__number", "number")
    )
    for index, fixture in enumerate(fixtures[:4]):
        fixture = team_services.team_fixture_open(league=league, fixture_id=fixture.pk, actor=user)
        interpena = fixture.interpena
        for side, club_id in (("home", fixture.home_club_id), ("away", fixture.away_club_id)):
            interpena = interpena_lineup_set(
                actor=user,
                interpena=interpena,
                side=side,
                pair_ids=[p.pk for p in teams[club_id]],
            )
        if index == 3:
            continue  # fielded, its boards still to play
        for board in (1, 2):
            match = Match.objects.get(round=interpena.round, table_number=board)
            answer = interpena_board_submit(
                actor=user,
                interpena=interpena,
                board=board,
                side="home",
                payload={"games": demo_games(rng, winner=rng.choice("ab"))},
                idempotency_key=f"demo-tl-{fixture.pk}-{board}-home",
                version=match.version,
            )
            interpena_board_confirm(
                actor=user,
                interpena=interpena,
                board=board,
                side="away",
                idempotency_key=f"demo-tl-{fixture.pk}-{board}-away",
                version=answer.match.version,
            )
        if index == 2:
            continue  # the boards confirmed, the captains not yet
        _result, boards = interpena_result(interpena=interpena)
        for side in ("home", "away"):
            interpena_team_confirm(
                actor=user, interpena=interpena, side=side, result_version=signature(boards)
            )
    log(
        f"{TEAM_LEAGUE_NAME}: four peñas, jornada 1 confirmed, jornada 2 half played, "
        "jornada 3 to open."
    )
    return league


def team_demo_delete() -> None:
    """Delete the demo's league of peñas, its interpeñas and its two extra peñas."""
    leagues = TeamLeague.objects.filter(name=TEAM_LEAGUE_NAME)
    interpenas = Interpena.objects.filter(team_fixture__jornada__league__in=leagues)
    tournaments = list(interpenas.values_list("tournament_id", flat=True))
    leagues.delete()
    Interpena.objects.filter(tournament_id__in=tournaments).delete()
    extra = Club.objects.filter(slug__in=[slug for _n, slug, _t, _p in PEÑAS])
    tournaments += list(Tournament.objects.filter(club__in=extra).values_list("pk", flat=True))
    tournaments_demo_delete(tournaments)
    for peña in extra:
        club_demo_delete(peña)
