"""Registration of a whole field: a pasted list and a CSV file through the API; prints figures,
asserts nothing.

What it measures, for 100 and 1,000 pairs, each way a field is registered:

- ``POST /api/v1/tournaments/<id>/entries/paste`` (one pair a line, every tenth with its team
  name, "Los de la Txantrea 7: Ana Uno / Bea Dos");
- ``POST /api/v1/tournaments/<id>/entrants/import`` with the CSV file (multipart: licence,
  players, peña, team name; semicolons), first with ``preview=true`` then for real;
- the same file again into a second tournament of the same peña, where every player is found
  (by licence) and every pair exists: what a federation's next tournament costs;

each with its server time (the request through Django's test client, in the process: no
network) and its number of queries, which must not grow with the number of lines. The target:
1,000 pairs in under 5 s. ``max_pairs`` is 90 % of the field, so the last tenth waits.

Before the list was registered in bulk (each line read the peña's players and wrote its rows
on its own, about 15 queries a line), the same paste took, on PostgreSQL on the same 2-core
machine: 100 pairs 2.1 s and 1,519 queries, 1,000 pairs 25.5 s and about 15,000 queries (850
pairs took 85 s on the development server and hit the web worker's 30 s timeout).

Run it from the repository root, on PostgreSQL (what the target is about)::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/registration.py

or on SQLite (an in-memory database; Django splits a bulk insert every 999 parameters there, so
the count grows by a few queries per hundred rows)::

    .venv/bin/python benchmarks/registration.py

It never touches the configured database: Django's test database machinery creates
``test_<NAME>`` next to it, migrates it, and drops it at the end, even after an error. It takes
under a minute, most of it migrating the database.

Terms: pareja (pair), peña, licencia (a federation's licence number), lista de espera.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402  (needs the path and settings above)

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.models import Club, Membership  # noqa: E402
from tournaments.models import Entry, Tournament  # noqa: E402

SIZES = (100, 1000)
TARGET_SECONDS = 5.0


def pair_lines(count: int) -> list[tuple[str, str, str, str, str]]:
    """(licence one, name one, licence two, name two, team) of ``count`` pairs."""
    rows = []
    for n in range(count):
        team = f"Los de la Txantrea {n}" if n % 10 == 0 else ""
        rows.append((f"NA-{2 * n:05d}", f"Ana{n} Uno", f"NA-{2 * n + 1:05d}", f"Bea{n} Dos", team))
    return rows


def paste_text(rows) -> str:
    return "\n".join(
        f"{team}: {one} / {two}" if team else f"{one} / {two}" for _, one, _, two, team in rows
    )


def csv_bytes(rows, club: Club) -> bytes:
    lines = ["licencia;jugadores;peña;equipo"]
    for lic_one, one, lic_two, two, team in rows:
        lines.append(f"{lic_one} / {lic_two};{one} / {two};{club.name};{team}")
    return ("\ufeff" + "\n".join(lines) + "\n").encode()


def new_tournament(club: Club, name: str, pairs: int) -> Tournament:
    return Tournament.objects.create(
        club=club,
        name=name,
        slug=name.lower().replace(" ", "-"),
        starts_on="2026-12-12",
        status=Tournament.Status.REGISTRATION,
        max_pairs=pairs - pairs // 10,
    )


def measure(client: Client, path: str, **post) -> tuple[float, int, dict]:
    # A request starts by emptying the query log (request_started): empty it first, or the
    # capture's starting point lies beyond the log's end.
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.post(path, **post)
        elapsed = time.perf_counter() - started
    assert response.status_code in (200, 201), response.content[:500]
    return elapsed, len(queries), response.json()


def run() -> None:
    user = get_user_model().objects.create_user("federacion", password="x")
    client = Client()
    client.force_login(user)
    # One small paste first: Django's first request loads the URLconf and the views.
    warm = new_peña(user, "Peña de calentamiento", "calentamiento")
    measure(
        client,
        f"/api/v1/tournaments/{new_tournament(warm, 'Calentamiento', 10).pk}/entries/paste",
        data={"text": paste_text(pair_lines(2))},
        content_type="application/json",
    )
    print(f"{'':44} {'pairs':>6} {'server time':>12} {'queries':>8}  result")
    slowest = 0.0
    for size in SIZES:
        rows = pair_lines(size)

        def report(label: str, seconds: float, queries: int, result: str, size=size) -> None:
            nonlocal slowest
            slowest = max(slowest, seconds)
            print(f"{label:44} {size:>6} {seconds:>10.2f} s {queries:>8}  {result}")

        pasted = new_peña(user, f"Peña del pegado {size}", f"pegado-{size}")
        t = new_tournament(pasted, f"Pegado {size}", size)
        seconds, queries, body = measure(
            client,
            f"/api/v1/tournaments/{t.pk}/entries/paste",
            data={"text": paste_text(rows)},
            content_type="application/json",
        )
        report(
            "paste (every player new)",
            seconds,
            queries,
            f"{body['registered']} registered, {body['waiting']} waiting",
        )

        federation = new_peña(user, f"Federación {size}", f"federacion-{size}")
        csv_tournament = new_tournament(federation, f"CSV {size}", size)
        for label, preview in (
            ("CSV preview (every player new)", True),
            ("CSV import (every player new)", False),
        ):
            upload = SimpleUploadedFile("campo.csv", csv_bytes(rows, federation), "text/csv")
            seconds, queries, body = measure(
                client,
                f"/api/v1/tournaments/{csv_tournament.pk}/entrants/import",
                data={"file": upload, "preview": "true" if preview else "false"},
            )
            report(
                label,
                seconds,
                queries,
                f"{body['new_players']} new players, {body['new_pairs']} new pairs, "
                f"{body['registered']} registered, {body['waiting']} waiting",
            )

        again = new_tournament(federation, f"CSV otra vez {size}", size)
        upload = SimpleUploadedFile("campo.csv", csv_bytes(rows, federation), "text/csv")
        seconds, queries, body = measure(
            client, f"/api/v1/tournaments/{again.pk}/entrants/import", data={"file": upload}
        )
        report(
            "CSV import again (all found by licence)",
            seconds,
            queries,
            f"{body['matched_players']} players found, {body['new_pairs']} new pairs, "
            f"{body['registered']} registered",
        )
        assert Entry.objects.filter(tournament=again).count() == size
    verdict = "within" if slowest < TARGET_SECONDS else "OVER"
    print(f"\nslowest: {slowest:.2f} s; target < {TARGET_SECONDS:.0f} s for 1,000 pairs: {verdict}")


def new_peña(user, name: str, slug: str) -> Club:
    club = Club.objects.create(name=name, slug=slug)
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


def main() -> None:
    setup_test_environment()
    database = connection.settings_dict["NAME"]
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor} database {connection.settings_dict['NAME']} (created and "
            f"migrated in {time.perf_counter() - started:.1f} s; dropped at the end); "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n"
        )
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"dropped the benchmark database; {database} was not touched")


if __name__ == "__main__":
    main()
