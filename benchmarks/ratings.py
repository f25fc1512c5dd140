"""Ratings: rating 100,000 matches from scratch, and the peña's ranking page at 10,000 players;
prints figures, asserts nothing.

What it measures:

- the pure core (``seasons.ratings.rate.rate``, OpenSkill's Plackett-Luce) over 100,000 matches of
  10,000 players (pairs drawn at random each match, one forfeit in twenty), CPU time on one
  core; goal < 10 s;
- the same 100,000 matches rated from scratch on the database (``ratings_rebuild(resync=False)``:
  read the matches, rate, delete and write the 400,000 rating entries, rebuild the ranking rows),
  wall time and this process's CPU time (the database's own work is in the wall time only),
  the middle match left out;
- a late confirmation half-way through the season: the middle match stored and re-rated from
  (``_rerate_from`` with its players, as ``rating_tournament_match_sync`` does), so only the
  later matches its players' ratings reach are re-rated — with players drawn at random from
  10,000, that becomes most of the season within a few thousand matches; a peña's players,
  who meet each other, reach fewer;
- every match from half-way re-rated (``_rerate_from`` the middle key without players: what a
  rebuild from there does, and what a late confirmation cost before it re-rated only what it
  reaches);
- the peña's ranking page (``/penas/<slug>/ranking/``) with its 10,000 players: the number of
  queries and the time to build the first page and a middle page, by rating and by points.

Run it from the repository root, on PostgreSQL (what the figures in the README are)::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/ratings.py

or on SQLite (in memory) with no variables. ``--matches N`` changes the season's size. It never
touches the configured database: Django's test machinery creates ``test_<NAME>``, migrates it
and drops it at the end, even after an error.

The matches are stored with ``bulk_create`` (they are what the source adapters write); the
time measured starts after they are stored.

Terms: valoración (rating), puntos (points ranking), peña, abandono (a forfeit lost).
"""

from __future__ import annotations

import argparse
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

from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.models import Club, Player  # noqa: E402
from seasons.ratings import rate  # noqa: E402
from seasons.ratings.models import RatedMatch, RatingEntry  # noqa: E402
from seasons.ratings.services import _locked, _rerate_from, order_key, ratings_rebuild  # noqa: E402

PLAYERS = 10_000
SEED = 20_261_125
START = dt.datetime(2026, 1, 1, 18, tzinfo=dt.UTC)


def season(matches: int, rng: random.Random) -> list[tuple]:
    """(played_at, side a, side b, outcome, forfeit) of ``matches`` matches, in order."""
    rows = []
    for n in range(matches):
        four = rng.sample(range(PLAYERS), 4)
        outcome = "a" if rng.random() < 0.5 else "b"
        rows.append((START + dt.timedelta(minutes=n), four[:2], four[2:], outcome, n % 20 == 7))
    return rows


def core(rows: list[tuple]) -> None:
    records = [
        rate.MatchRecord(
            key=f"{n:09d}",
            side_a=tuple(a),
            side_b=tuple(b),
            outcome=rate.Outcome(outcome),
            forfeit=forfeit,
        )
        for n, (_, a, b, outcome, forfeit) in enumerate(rows)
    ]
    times = []
    for _ in range(3):
        started = time.process_time()
        run = rate.rate(records)
        times.append(time.process_time() - started)
    print(
        f"pure core: {len(records):,} matches rated in {statistics.median(times):.2f} s CPU "
        f"(median of 3; {len(run.history):,} history rows; goal < 10 s)"
    )


def rated(club: Club, ids: list[int], n: int, row: tuple) -> RatedMatch:
    when, a, b, outcome, forfeit = row
    source = RatedMatch.Source.TOURNAMENT
    return RatedMatch(
        source=source,
        source_id=n + 1,
        club=club,
        order_key=order_key(when, source, n + 1),
        played_at=when,
        event="Liga del benchmark",
        stage=f"J{n // 1000 + 1}",
        players_a=[ids[p] for p in a],
        players_b=[ids[p] for p in b],
        outcome=outcome,
        forfeit=forfeit,
    )


def store(rows: list[tuple], late: int) -> tuple[Club, list[int]]:
    """The season's rated matches but the ``late`` one; returns the peña and the player ids."""
    club = Club.objects.create(name="Peña del benchmark", slug="pena-bench-ratings")
    players = Player.objects.bulk_create(
        (Player(first_name=f"Jugador{n}", last_name=f"Apellido{n % 97}") for n in range(PLAYERS)),
        batch_size=2000,
    )
    ids = [p.pk for p in players]
    RatedMatch.objects.bulk_create(
        (rated(club, ids, n, row) for n, row in enumerate(rows) if n != late), batch_size=2000
    )
    return club, ids


def database(rows: list[tuple]) -> Club:
    late = len(rows) // 2
    started = time.perf_counter()
    club, ids = store(rows, late)
    print(
        f"stored {len(rows) - 1:,} rated matches of {PLAYERS:,} players in "
        f"{time.perf_counter() - started:.1f} s (not part of the figures; the middle one is "
        f"confirmed late, below)"
    )
    started, cpu = time.perf_counter(), time.process_time()
    rated_count = ratings_rebuild(resync=False)
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    entries = RatingEntry.objects.count()
    print(
        f"database, from scratch: {rated_count:,} matches rated and {entries:,} entries written "
        f"in {took:.1f} s wall, {cpu:.1f} s CPU of this process ({connection.vendor}; goal < 10 s; "
        f"load average {os.getloadavg()[0]:.1f})"
    )
    match = rated(club, ids, late, rows[late])
    after = RatedMatch.objects.filter(order_key__gt=match.order_key).count()
    started, cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        _locked()
        match.save()
        rerated = _rerate_from(match.order_key, {*match.players_a, *match.players_b}, match.pk)
    print(
        f"database, a late confirmation half-way: {rerated:,} matches re-rated (itself and "
        f"{rerated - 1:,} of the {after:,} after it) in {time.perf_counter() - started:.1f} s "
        f"wall, {time.process_time() - cpu:.1f} s CPU"
    )
    started, cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        _locked()
        rerated = _rerate_from(match.order_key)
    print(
        f"database, every match from half-way: {rerated:,} matches re-rated in "
        f"{time.perf_counter() - started:.1f} s wall, {time.process_time() - cpu:.1f} s CPU"
    )
    return club


def ranking_page(club: Club) -> None:
    client = Client()
    players = club.ranking_rows.count()
    for label, query in (
        ("first page by rating", ""),
        ("page 50 by rating", "?pagina=50"),
        ("first page by points", "?orden=puntos"),
    ):
        url = f"/penas/{club.slug}/ranking/{query}"
        times = []
        for _ in range(7):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(url, HTTP_HOST="localhost")
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, response.status_code
        print(
            f"ranking page of {players:,} players, {label}: {len(queries.captured_queries)} "
            f"queries, {statistics.median(times) * 1000:.0f} ms median of 7, "
            f"{len(response.content) / 1000:.0f} KB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    args = parser.parse_args()
    rows = season(args.matches, random.Random(SEED))
    core(rows)
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
        club = database(rows)
        ranking_page(club)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"dropped the benchmark database; {name} was not touched")


if __name__ == "__main__":
    main()
