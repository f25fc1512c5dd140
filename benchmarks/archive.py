"""Export and import of a peña's archive on the database; prints figures, asserts nothing but
that the imported standings are the exported ones.

What it measures, on the 1,024-pair, 9-round Swiss of benchmarks/standings_db.py (4,608
confirmed matches, 2,048 players; built with bulk_create, so without submissions or hands):

- the export (tournaments.selectors.archive: every row read, in a fixed number of queries) and
  its JSON text, with the archive's size;
- the import into an emptied database (tournaments.services.archive.archive_import, one
  transaction, standings recomputed), and whether the standings match.

Run it from the repository root, on SQLite (in memory) or PostgreSQL as standings_db.py says::

    .venv/bin/python benchmarks/archive.py
    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/archive.py

Like standings_db.py, it works in a test database that it creates and drops.

Terms: peña, archivo (archive), clasificación (standings).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import standings_db  # noqa: E402  (sets up Django as this script needs)
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.models import Club, Pair, Player  # noqa: E402
from tournaments.archive import archive_dumps  # noqa: E402
from tournaments.models import Match, Phase, StandingsSnapshot, Tournament  # noqa: E402
from tournaments.selectors.archive import club_archive  # noqa: E402
from tournaments.services.archive import archive_import  # noqa: E402
from tournaments.services.standings import standings_refresh  # noqa: E402

PAIRS = 1024


def rows_by_name(phase: Phase) -> list[tuple]:
    rows = StandingsSnapshot.objects.get(phase=phase).rows
    return [(r["rank"], r["name"], r["won"], r["buchholz"], r["separated_by"]) for r in rows]


def run() -> None:
    started = time.perf_counter()
    phase = standings_db.build_swiss(PAIRS, standings_db.ROUNDS, random.Random(standings_db.SEED))
    standings_refresh(phase=phase)
    before = rows_by_name(phase)
    matches = Match.objects.count()
    print(f"built {PAIRS} pairs, {matches} matches in {time.perf_counter() - started:.1f} s")

    club = Club.objects.get()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        archive = club_archive(club=club)
        exported = time.perf_counter() - started
    started = time.perf_counter()
    text = archive_dumps(archive)
    dumped = time.perf_counter() - started
    print(
        f"export: {exported:.2f} s, {len(queries)} queries; JSON text {dumped:.2f} s, "
        f"{len(text.encode()) / 1e6:.1f} MB"
    )

    Match.objects.all().delete()
    Phase.objects.all().delete()
    Tournament.objects.all().delete()
    Pair.objects.all().delete()
    Player.objects.all().delete()
    club.delete()
    user = get_user_model().objects.create_user(username="importa")
    started = time.perf_counter()
    result = archive_import(raw=text.encode(), actor=user)
    imported = time.perf_counter() - started
    after = rows_by_name(Phase.objects.get(tournament=result.tournaments[0]))
    print(
        f"import: {imported:.2f} s ({result.players_created} players, {result.pairs_created} "
        f"pairs, {Match.objects.count()} matches); standings equal: {after == before}"
    )


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
