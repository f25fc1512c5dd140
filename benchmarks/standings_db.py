"""Standings on the database: the refresh task's service and the standings API; prints figures,
asserts nothing.

What it measures, on a Swiss phase of 9 rounds with random results:

- ``standings_refresh`` (tournaments/services/standings.py) at 1,024 pairs (4,608 matches): the
  read of the confirmed matches, scoring.standings and the snapshot's write; target < 300 ms;
- the same standings computed by ``scoring.standings.standings`` alone, on the same values, to
  see what the database adds;
- the number of queries (and the time) of ``GET /api/v1/phases/<id>/standings`` at 64, 256 and
  1,024 pairs: the read path only reads the snapshot, so the count must not grow;
- the same for the public standings page, the tournament's page and the TV view's content (the
  HTML a venue's screen and the spectators' phones reload).

Run it from the repository root, on SQLite (an in-memory database)::

    .venv/bin/python benchmarks/standings_db.py

or on PostgreSQL, as CI runs the tests::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/standings_db.py

It never touches the configured database: Django's test database machinery creates
``test_<NAME>`` (here ``test_amarrako_bench``) next to it, migrates it, and drops it at the end,
even after an error (SQLite: in memory). It takes about a minute on a 2-core machine, most of
it migrating the database.

The fields are built with ``bulk_create`` rather than through the services: results entered
one by one through match_result_submit would take minutes, and what is measured here starts
after the results are stored. The rows are those the services write: confirmed matches with
winner, juegos and piedras, in closed rounds.

Terms: clasificación (standings), pareja, juego, piedras, ronda, suizo (Swiss).
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

from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from clubs.models import Club, Pair, Player  # noqa: E402
from scoring.standings import Entry as StandingEntry  # noqa: E402
from scoring.standings import MatchRecord, standings  # noqa: E402
from tournaments.models import Entry, Match, Phase, Round, Tournament  # noqa: E402
from tournaments.selectors.standings import standings_compute, tiebreak_order  # noqa: E402
from tournaments.services.standings import standings_refresh  # noqa: E402

ROUNDS = 9
SIZES = (64, 256, 1024)
RUNS = 7
SEED = 20_260_707
GAMES_TO_WIN = 3  # "8 reyes a 40": three juegos of 40 piedras win the vaca and the match
TARGET = 40


def build_swiss(pairs: int, rounds: int, rng: random.Random) -> Phase:
    """A running public tournament with a Swiss phase of ``rounds`` closed rounds: each round
    pairs neighbours by matches won, and every match is confirmed with juegos and piedras."""
    club = Club.objects.create(name=f"Peña {pairs}", slug=f"pena-bench-{pairs}")
    players = Player.objects.bulk_create(
        Player(first_name=f"Jugador{n}", last_name=f"Peña{pairs}") for n in range(2 * pairs)
    )
    Player.clubs.through.objects.bulk_create(
        Player.clubs.through(player_id=p.pk, club_id=club.pk) for p in players
    )
    pair_rows = Pair.objects.bulk_create(
        Pair(player_one=players[2 * n], player_two=players[2 * n + 1], club=club)
        for n in range(pairs)
    )
    tournament = Tournament.objects.create(
        club=club,
        name=f"Suizo de {pairs} parejas",
        slug=f"suizo-{pairs}",
        starts_on=dt.date(2026, 7, 7),
        status=Tournament.Status.RUNNING,
        is_public=True,
        preset_name="8 reyes a 40",
    )
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            pair=pair,
            status=Entry.Status.CHECKED_IN,
            seed=n + 1 if n < pairs // 4 else None,
        )
        for n, pair in enumerate(pair_rows)
    )
    phase = Phase.objects.create(
        tournament=tournament,
        order=1,
        name="Suizo",
        format=Phase.Format.SWISS,
        status=Phase.Status.RUNNING,
        rounds_planned=rounds,
    )
    wins = {e.pk: 0 for e in entries}
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(phase=phase, number=number, status=Round.Status.CLOSED)
        ladder = sorted(wins, key=lambda e: (-wins[e], rng.random()))
        matches = []
        for table, (a, b) in enumerate(zip(ladder[::2], ladder[1::2], strict=True), start=1):
            winner = a if rng.random() < 0.5 else b
            wins[winner] += 1
            matches.append(_confirmed(rnd, table, a, b, winner, rng))
        Match.objects.bulk_create(matches)
    return phase


def _confirmed(rnd: Round, table: int, a: int, b: int, winner: int, rng: random.Random) -> Match:
    games_lost = rng.randrange(GAMES_TO_WIN)
    games = [(TARGET, rng.randrange(TARGET))] * GAMES_TO_WIN
    games += [(rng.randrange(TARGET), TARGET)] * games_lost
    won = sum(g[0] for g in games)
    lost = sum(g[1] for g in games)
    a_won = winner == a
    return Match(
        round=rnd,
        table_number=table,
        entry_a_id=a,
        entry_b_id=b,
        status=Match.Status.CONFIRMED,
        winner_id=winner,
        games_a=GAMES_TO_WIN if a_won else games_lost,
        games_b=games_lost if a_won else GAMES_TO_WIN,
        vacas_a=1 if a_won else 0,
        vacas_b=0 if a_won else 1,
        stones_a=won if a_won else lost,
        stones_b=lost if a_won else won,
    )


def timed(function, runs: int = RUNS) -> tuple[float, float]:
    """Median and minimum wall time of ``function()`` over ``runs`` runs, in milliseconds."""
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings), min(timings)


def pure_inputs(phase: Phase) -> tuple[list[StandingEntry], list[MatchRecord], tuple]:
    """The values standings_compute hands to scoring.standings, read once."""
    (table,) = standings_compute(phase=phase)
    entries = [
        StandingEntry(pair=pk, seed=entry.seed, name=str(entry.pair))
        for pk, entry in sorted(table.entries.items())
    ]
    rows = Match.objects.filter(round__phase=phase, status=Match.Status.CONFIRMED).values_list(
        "entry_a_id",
        "entry_b_id",
        "winner_id",
        "games_a",
        "games_b",
        "stones_a",
        "stones_b",
        "kind",
    )
    records = [MatchRecord(*row) for row in rows]
    return entries, records, tiebreak_order(phase)


def main() -> None:
    setup_test_environment()
    database = connection.settings_dict["NAME"]
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor} database {connection.settings_dict['NAME']} (created and "
            f"migrated in {time.perf_counter() - started:.1f} s; dropped at the end); "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"dropped the benchmark database; {database} was not touched")


def run() -> None:
    rng = random.Random(SEED)
    client = Client()
    phases = {}
    for pairs in SIZES:
        started = time.perf_counter()
        phases[pairs] = build_swiss(pairs, ROUNDS, rng)
        matches = Match.objects.filter(round__phase=phases[pairs]).count()
        print(
            f"built {pairs:>5} pairs x {ROUNDS} rounds = {matches:>5} matches "
            f"in {time.perf_counter() - started:.1f} s (bulk_create)"
        )

    print(f"\nstandings of the {SIZES[-1]}-pair Swiss, median of {RUNS} runs (min):")
    phase = phases[SIZES[-1]]
    refresh = timed(lambda: standings_refresh(phase=phase))
    compute = timed(lambda: standings_compute(phase=phase))
    entries, records, order = pure_inputs(phase)
    pure = timed(lambda: standings(entries, records, order))
    verdict = "within" if refresh[0] < 300 else "OVER"
    print(f"  standings_refresh (read, compute, write)  {refresh[0]:8.1f} ms ({refresh[1]:.1f})")
    print(f"    of which standings_compute (read+pure)  {compute[0]:8.1f} ms ({compute[1]:.1f})")
    print(f"    of which scoring.standings alone        {pure[0]:8.1f} ms ({pure[1]:.1f})")
    print(f"  target < 300 ms for the refresh: {verdict}")

    print("\nGET /api/v1/phases/<id>/standings (anonymous, public tournament):")
    for pairs in SIZES:
        phase = phases[pairs]
        standings_refresh(phase=phase)
        path = f"/api/v1/phases/{phase.id}/standings"
        # A request starts by emptying the query log (Django's request_started signal); empty
        # it first, or the capture's starting point lies beyond the log's end.
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200, response.content[:300]
        rows = len(response.json()["groups"][0]["rows"])
        median, fastest = timed(lambda path=path: client.get(path), runs=5)
        print(
            f"  {pairs:>5} pairs: {len(queries):>2} queries, {rows:>5} rows, "
            f"{median:7.1f} ms ({fastest:.1f})"
        )

    for name, label in (("web:public-standings", "the public standings page"),
                        ("web:tournament", "the tournament's page (the round, compact standings)"),
                        ("web:public-screen-fragment", "the TV view's content")):  # fmt: skip
        print(f"\n{label} (anonymous, server-rendered HTML):")
        for pairs in SIZES:
            tournament = phases[pairs].tournament
            path = reverse(name, args=[tournament.club.slug, tournament.slug])
            reset_queries()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path)
            assert response.status_code == 200, response.content[:300]
            median, fastest = timed(lambda path=path: client.get(path), runs=5)
            print(
                f"  {pairs:>5} pairs: {len(queries):>2} queries, {len(response.content) // 1024:>5}"
                f" KB, {median:7.1f} ms ({fastest:.1f})"
            )


if __name__ == "__main__":
    main()
