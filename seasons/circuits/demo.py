"""The demo's circuit: three small tournaments of two peñas ranked together, loaded by
``manage.py demo`` (seasons/management/commands/demo.py) through the same services the pages
and the API call.

Responsible for:

- a second peña, "Peña Lizarra" (Estella), owned by the demo's organizer, with 8 players in
  4 pairs;
- "Circuito de Navarra 2026" of both peñas: three tournaments of eight pairs (two of Peña
  Txoko, one of Peña Lizarra), each a Swiss of two rounds played through the tables' links and
  finished, points 100, 80, 65, 55, 50, 45, 40, 36 (participation 5), the best two results
  counting;
- ``circuit_demo_finish``, run after the commit as the tasks would: the standings and the
  circuit's ranking;
- ``circuit_demo_delete``: the rows above, for ``--reset`` (after the interpeñas', which hold
  pairs of the second peña).

The second peña and its pairs are the interpeña's away side too (seasons/interpenas/demo.py),
played with the same random generator (``CircuitDemo.rng``).

Must not: write a row a service could write (the exceptions: the draw seeds, fixed so that the
demo is the same on every machine, and the deletion).

Terms: circuito, pareja, suizo (Swiss), peña, puesto (place).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from clubs.demo import club_demo_delete
from clubs.models import Club, Pair
from clubs.services import club_create, pair_create, player_create
from seasons.circuits.models import Circuit
from seasons.circuits.services import (
    circuit_club_add,
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from tournaments.demo import demo_games, tournaments_demo_delete
from tournaments.models import Match, Phase, Tournament
from tournaments.services.registration import entry_check_in, entry_register
from tournaments.services.results import match_result_submit
from tournaments.services.rounds import (
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_create, tournament_status_change

SECOND_SLUG = "pena-lizarra"
SECOND_NAME = "Peña Lizarra"
CIRCUIT_SLUG = "circuito-de-navarra-2026"
CIRCUIT_NAME = "Circuito de Navarra 2026"
SEED = 20260725
STOPS = (
    # (name, slug, date, of the second peña?)
    ("Torneo de la Virgen del Puy", "virgen-del-puy", dt.date(2026, 5, 25), True),
    ("Torneo de Santiago", "santiago", dt.date(2026, 7, 25), False),
    ("Torneo de San Saturnino", "san-saturnino", dt.date(2026, 11, 29), False),
)
SECOND_PLAYERS = (
    ("Iosu", "Remírez"),
    ("Nekane", "Lana"),
    ("Tomás", "Ganuza"),
    ("Yolanda", "Garín"),
    ("Jokin", "Echeverría"),
    ("Sara", "Lasa"),
    ("Raúl", "Osés"),
    ("Inés", "Munárriz"),
)


@dataclass
class CircuitDemo:
    circuit: Circuit
    second: Club
    second_pairs: list[Pair]
    phases: list[Phase]
    rng: random.Random


def circuit_demo_load(*, user, club: Club, pairs: list[Pair], log=print) -> CircuitDemo:
    rng = random.Random(SEED)
    second = club_create(
        user=user, name=SECOND_NAME, slug=SECOND_SLUG, town="Estella-Lizarra", region="Navarra"
    )
    players = [
        player_create(user=user, club=second, first_name=first, last_name=last)
        for first, last in SECOND_PLAYERS
    ]
    second_pairs = [
        pair_create(
            user=user, club=second, player_one_id=players[i].pk, player_two_id=players[i + 1].pk
        )
        for i in range(0, len(players), 2)
    ]
    circuit = circuit_create(
        actor=user,
        club=club,
        name=CIRCUIT_NAME,
        slug=CIRCUIT_SLUG,
        region="Navarra",
        season="2026",
        points_table=[100, 80, 65, 55, 50, 45, 40, 36],
        participation_points=5,
        best_results=2,
    )
    circuit_club_add(actor=user, circuit=circuit, club_id=second.pk)
    regulars = pairs[:8]  # some pairs play every stop, as in a real circuit
    phases = []
    for number, (name, slug, day, of_second) in enumerate(STOPS):
        host = second if of_second else club
        field = regulars[:4] + rng.sample(regulars[4:] + pairs[8:16], 2) + second_pairs[:2]
        if of_second:
            field = regulars[:4] + second_pairs
        phase = _stop(user, host, name, slug, day, field, rng, seed=SEED + number)
        circuit_tournament_add(actor=user, circuit=circuit, tournament_id=phase.tournament_id)
        phases.append(phase)
    log(f"{CIRCUIT_NAME}: {len(STOPS)} tournaments of eight pairs played and finished.")
    return CircuitDemo(circuit, second, second_pairs, phases, rng)


def _stop(user, club, name, slug, day, field, rng, *, seed) -> Phase:
    tournament = tournament_create(
        club_slug=club.slug,
        actor=user,
        name=name,
        slug=slug,
        starts_on=day,
        ends_on=day,
        tables_available=4,
        preset="8 reyes a 40",
        via="demo",
    )
    Tournament.objects.filter(pk=tournament.pk).update(draw_seed=seed)  # the same draws
    tournament_status_change(tournament=tournament, actor=user, status="registration", via="demo")
    entries = [
        entry_register(tournament=tournament, pair_id=p.pk, actor=user, via="demo") for p in field
    ]
    tournament_status_change(tournament=tournament, actor=user, status="running", via="demo")
    for entry in entries:
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=user, via="demo")
    phase = phase_create(
        tournament=tournament,
        actor=user,
        name="Suizo a dos rondas",
        format=Phase.Format.SWISS,
        rounds_planned=2,
    )
    for _ in range(2):
        rnd = round_publish(round=round_draw_generate(phase=phase, actor=user), actor=user)
        for match in Match.objects.filter(round=rnd).exclude(kind=Match.Kind.BYE):
            games = demo_games(rng, winner=rng.choice("ab"))
            first = match_result_submit(
                match=match,
                side="a",
                payload={"games": games},
                idempotency_key=f"demo-c-{match.pk}-a",
                version=0,
                via="link",
            )
            match_result_submit(
                match=match,
                side="b",
                payload={"games": games},
                idempotency_key=f"demo-c-{match.pk}-b",
                version=first.match.version,
                via="link",
            )
        round_close(round=rnd, actor=user)
    phase_finish(phase=phase, actor=user)
    tournament.refresh_from_db()
    tournament_status_change(tournament=tournament, actor=user, status="finished", via="demo")
    return phase


def circuit_demo_finish(demo: CircuitDemo) -> int:
    """After the commit, as the tasks would: the stops' standings, then the circuit's ranking."""
    for phase in demo.phases:
        standings_refresh(phase=phase)
    return circuit_ranking_refresh(circuit=demo.circuit)


def circuit_demo_delete() -> None:
    """Delete the demo's circuit, its stops and the second peña (after the interpeñas', whose
    container tournaments hold the second peña's pairs)."""
    second = Club.objects.filter(slug=SECOND_SLUG).first()
    circuits = Circuit.objects.filter(slug=CIRCUIT_SLUG)
    # its stops hold pairs of both peñas (an entry protects its pair): they go first
    tournaments = list(circuits.values_list("stops__tournament_id", flat=True))
    tournaments = [t for t in tournaments if t is not None]
    circuits.delete()
    if second is not None:
        tournaments += list(Tournament.objects.filter(club=second).values_list("pk", flat=True))
    tournaments_demo_delete(tournaments)
    if second is not None:
        club_demo_delete(second)
