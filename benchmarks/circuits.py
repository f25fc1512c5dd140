"""Circuits: building a circuit's ranking, and its public pages; prints figures, asserts nothing.

What it measures, on a circuit of 12 finished tournaments whose fields are drawn at random from
5,000 pairs (10,000 players), 1,000 pairs each:

- the pure core (``seasons.circuits.ranking``: final places, points, best 5, tiebreaks) on the
  inputs read from the database, CPU time;
- ``circuit_ranking_refresh`` (seasons/circuits/services.py): read the tournaments' standings
  snapshots and players, rank, delete and write the ranking rows; wall time and its queries
  (a fixed number: the inputs are four queries whatever the size, the rows written in batches);
- the public ranking page (``/circuitos/<slug>/``) and the API's ranking
  (``/api/v1/circuits/<id>/ranking``), first and a middle page, at 100, 1,000 and 10,000
  players: queries (must not grow), time and size (< 60 KB for a phone);
- an interpeña's public page at 4 and 16 boards: queries and size.

Run it from the repository root, on SQLite (in memory) with no variables, or on PostgreSQL::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/circuits.py

It never touches the configured database: Django's test machinery creates ``test_<NAME>``,
migrates it and drops it at the end, even after an error. The fields and snapshots are stored
with ``bulk_create`` (what the standings task writes); the time measured starts after.

Terms: circuito, puesto (place), pareja, interpeñas, tablero (board).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402  (needs the path and settings above)

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.models import Club, Membership, Pair, Player  # noqa: E402
from seasons.circuits.models import Circuit, CircuitTournament  # noqa: E402
from seasons.circuits.ranking import circuit_ranking  # noqa: E402
from seasons.circuits.selectors import circuit_ranking_inputs  # noqa: E402
from seasons.circuits.services import circuit_ranking_refresh  # noqa: E402
from seasons.interpenas.services import interpena_create, interpena_lineup_set  # noqa: E402
from tournaments.models import Entry, Phase, StandingsSnapshot, Tournament  # noqa: E402

SEED = 20_260_725
TOURNAMENTS = 12
FIELD = 1000
SIZES = (50, 500, 5000)  # pairs: 100, 1,000 and 10,000 players


def build(pairs_count: int, rng: random.Random) -> Circuit:
    club = Club.objects.create(name=f"Peña {pairs_count}", slug=f"pena-circuit-{pairs_count}")
    players = Player.objects.bulk_create(
        Player(first_name=f"Jugador{n}", last_name=f"C{pairs_count}")
        for n in range(2 * pairs_count)
    )
    pairs = Pair.objects.bulk_create(
        Pair(player_one=players[2 * i], player_two=players[2 * i + 1], club=club)
        for i in range(pairs_count)
    )
    circuit = Circuit.objects.create(
        name=f"Circuito {pairs_count}", slug=f"circuito-{pairs_count}", best_results=5
    )
    circuit.clubs.add(club)
    field = min(FIELD, pairs_count)
    for number in range(TOURNAMENTS):
        tournament = Tournament.objects.create(
            club=club,
            name=f"Torneo {number}",
            slug=f"torneo-{pairs_count}-{number}",
            starts_on=dt.date(2026, 5, 1) + dt.timedelta(days=7 * number),
            status=Tournament.Status.FINISHED,
        )
        phase = Phase.objects.create(
            tournament=tournament, order=1, name="Suizo", format=Phase.Format.SWISS
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, pair=pair) for pair in rng.sample(pairs, field)
        )
        StandingsSnapshot.objects.create(
            phase=phase,
            rows=[{"rank": i + 1, "entry_id": e.pk} for i, e in enumerate(entries)],
        )
        CircuitTournament.objects.create(circuit=circuit, tournament=tournament)
    return circuit


def refresh(circuit: Circuit) -> None:
    inputs = circuit_ranking_inputs(circuit=circuit)
    cpu = time.process_time()
    rows = circuit_ranking(
        inputs,
        points_table=circuit.points_table,
        participation=circuit.participation_points,
        best_results=circuit.best_results,
        tiebreaks=circuit.tiebreaks,
    )
    core = time.process_time() - cpu
    times, cpus, counts = [], [], []
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            written = circuit_ranking_refresh(circuit=circuit)
            times.append(time.perf_counter() - started)
            cpus.append(time.process_time() - cpu)
        counts.append(len(queries.captured_queries))
    print(
        f"ranking of {len(rows):,} players from {TOURNAMENTS} tournaments: core "
        f"{core * 1000:.0f} ms CPU; circuit_ranking_refresh {statistics.median(times):.2f} s "
        f"wall, {statistics.median(cpus):.2f} s CPU of this process (medians of 3), "
        f"{counts[0]} queries ({written:,} rows written)"
    )


def pages(circuit: Circuit) -> None:
    client = Client()
    players = circuit.ranking_rows.count()
    middle = max(1, players // 200)
    for label, url in (
        ("page, first", f"/circuitos/{circuit.slug}/"),
        ("page, middle", f"/circuitos/{circuit.slug}/?pagina={middle}"),
        ("API, first", f"/api/v1/circuits/{circuit.pk}/ranking"),
        ("API, middle", f"/api/v1/circuits/{circuit.pk}/ranking?page={middle}"),
    ):
        times = []
        for _ in range(7):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url, HTTP_HOST="localhost")
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, response.status_code
        print(
            f"  {players:>6,} players, {label:<12}: {len(queries.captured_queries)} queries, "
            f"{statistics.median(times) * 1000:.0f} ms median of 7, "
            f"{len(response.content) / 1024:.1f} KB"
        )


def interpena_page(boards: int) -> None:
    user = get_user_model().objects.create(username=f"bench-{boards}", is_superuser=True)
    home = Club.objects.create(name=f"Local {boards}", slug=f"local-{boards}")
    away = Club.objects.create(name=f"Visitante {boards}", slug=f"visitante-{boards}")
    for club in (home, away):
        Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    interpena = interpena_create(
        actor=user, home_club=home, away_club_id=away.pk, played_on=dt.date(2026, 12, 5),
        boards=boards,
    )  # fmt: skip
    for side, club in (("home", home), ("away", away)):
        players = Player.objects.bulk_create(
            Player(first_name=f"J{n}", last_name=club.name) for n in range(2 * boards)
        )
        pairs = Pair.objects.bulk_create(
            Pair(player_one=players[2 * i], player_two=players[2 * i + 1], club=club)
            for i in range(boards)
        )
        interpena = interpena_lineup_set(
            actor=user, interpena=interpena, side=side, pair_ids=[p.pk for p in pairs]
        )
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/interpenas/{interpena.pk}/", HTTP_HOST="localhost")
    assert response.status_code == 200
    print(
        f"  interpeña of {boards:>2} boards, public page: {len(queries.captured_queries)} "
        f"queries, {len(response.content) / 1024:.1f} KB"
    )


def main() -> None:
    setup_test_environment()
    name = connection.settings_dict["NAME"]
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor} database {connection.settings_dict['NAME']} (created and "
            f"migrated in {time.perf_counter() - started:.1f} s; dropped at the end); "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        rng = random.Random(SEED)
        for size in SIZES:
            circuit = build(size, rng)
            refresh(circuit)
            pages(circuit)
        for boards in (4, 16):
            interpena_page(boards)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"dropped the benchmark database; {name} was not touched")


if __name__ == "__main__":
    main()
