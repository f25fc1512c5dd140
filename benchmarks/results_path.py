"""The cost of one phone's requests, in process: a table read, a submission and a confirmation
through the table link's API; prints milliseconds and queries per request, asserts nothing.

What ``benchmarks/load.py`` measures from outside (latency under 200 phones) is this cost
multiplied by the queue in front of it; this script measures the cost itself, without a
server, a network or other phones, so a change to the result path can be judged in seconds:

- ``GET /api/v1/table/<token>``, ``POST …/result`` (pareja A's games) and
  ``POST …/result/confirm`` (pareja B), each for every table of a round of a ``--pairs``-pair
  Swiss: median and p95 wall time, the median CPU time of this process (the web process's
  share: Django, DRF, the engine, the driver; what other programs on the machine do to the
  wall time does not change it much), and the number of SQL queries;
- the same with ``--profile``: cProfile's top functions by cumulative time for each kind.

The follow-up tasks a confirmation queues (standings, ratings, webhooks) are counted, not run:
in production they run in the worker, not in the phone's request.

Run it from the repository root, on SQLite (in memory)::

    .venv/bin/python benchmarks/results_path.py

or on PostgreSQL, as production runs::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/results_path.py --pairs 128

It never touches the configured database: Django's test database machinery creates
``test_<NAME>`` next to it, migrates it, and drops it at the end.

Terms: mesa (table), pareja, juego, piedras, ronda.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402  (needs the path and settings above)

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from soak import random_games  # noqa: E402

import config.queue  # noqa: E402

SEED = 20_261_125
queued: Counter = Counter()


def no_tasks(task_name: str, kwargs: dict) -> None:
    """Counts what a request would queue instead of running it in the request."""
    queued[task_name] += 1


class Api:
    def __init__(self, client: Client) -> None:
        self.client = client

    def call(self, method: str, path: str, body=None, headers=None) -> tuple[int, object]:
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()}
        send = getattr(self.client, method.lower())
        if body is None:
            answer = send("/api/v1/" + path, **extra)
        else:
            answer = send(
                "/api/v1/" + path, data=json.dumps(body), content_type="application/json", **extra
            )
        return answer.status_code, answer.json() if answer.content else None

    def ok(self, method: str, path: str, body=None) -> object:
        status, answer = self.call(method, path, body)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer


def setup_round(pairs: int) -> tuple[list[tuple[str, list]], dict]:
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    organizer = Client()
    organizer.force_login(user)
    api = Api(organizer)
    club = api.ok("POST", "clubs/create", {"name": "Peña Banco", "town": "Iruña"})
    tid = api.ok(
        "POST",
        "tournaments/create",
        {"club": club["slug"], "name": "Banco", "starts_on": "2026-07-07",
         "preset": "8 reyes a 40"},
    )["id"]  # fmt: skip
    api.ok("POST", f"tournaments/{tid}/status", {"status": "registration"})
    text = "\n".join(f"Uno{n} Banco{n} / Dos{n} Banco{n}" for n in range(pairs))
    api.ok("POST", f"tournaments/{tid}/entries/paste", {"text": text})
    api.ok("POST", f"tournaments/{tid}/status", {"status": "running"})
    phase = api.ok(
        "POST", f"tournaments/{tid}/phases/create",
        {"name": "Suizo", "format": "swiss", "rounds_planned": 3},
    )  # fmt: skip
    rnd = api.ok("POST", f"phases/{phase['id']}/rounds/generate")
    api.ok("POST", f"rounds/{rnd['id']}/publish")
    rng = random.Random(SEED)
    tables = []
    for match in rnd["matches"]:
        if match["kind"] == "bye":
            continue
        token = api.ok("GET", f"matches/{match['id']}/history")["token"]
        tables.append((token, random_games(rng, phase["rules"])))
    return tables, phase


def measure(tables, profile: bool) -> dict[str, list[tuple[float, float, int]]]:
    figures: dict[str, list[tuple[float, float, int]]] = {"read": [], "submit": [], "confirm": []}
    profiles = {kind: cProfile.Profile() for kind in figures}
    phone = Api(Client())

    def one(kind: str, method: str, path: str, body=None, headers=None) -> object:
        with CaptureQueriesContext(connection) as queries:
            if profile:
                profiles[kind].enable()
            started, cpu = time.perf_counter(), time.process_time()
            status, answer = phone.call(method, path, body, headers)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            if profile:
                profiles[kind].disable()
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        figures[kind].append((seconds * 1000, cpu * 1000, len(queries)))
        return answer

    for token, games in tables:
        table = one("read", "GET", f"table/{token}")
        version = table["match"]["version"]
        one("submit", "POST", f"table/{token}/result",
            {"side": "a", "version": version, "games": games},
            {"Idempotency-Key": f"a-{token}"})  # fmt: skip
        table = one("read", "GET", f"table/{token}")
        one("confirm", "POST", f"table/{token}/result/confirm",
            {"side": "b", "version": table["match"]["version"]},
            {"Idempotency-Key": f"b-{token}"})  # fmt: skip
    if profile:
        for kind, prof in profiles.items():
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(
                r"(tournaments|config|scoring|clubs)|rest_framework/(views|serializers|renderers|parsers)|compiler.py|psycopg",
                40,
            )
            print(f"\n--- profile: {kind} ---")
            print(out.getvalue())
    return figures


def report(figures: dict[str, list[tuple[float, float, int]]]) -> None:
    print(
        f"{'request':<10}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'CPU ms (this process)':>23}"
        f"{'queries':>9}"
    )
    for kind, rows in figures.items():
        times = sorted(t for t, _, _ in rows)
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        cpu = statistics.median(c for _, c, _ in rows)
        queries = Counter(q for _, _, q in rows).most_common(1)[0][0]
        print(
            f"{kind:<10}{len(rows):>5}{statistics.median(times):>11.1f}{p95:>9.1f}{cpu:>23.1f}"
            f"{queries:>9}"
        )
    print("queued per round (run by the worker in production):", dict(queued))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args()
    setup_test_environment()
    config.queue._send = no_tasks  # enqueue_on_commit sends through it on commit
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor}, {args.pairs} pairs ({args.pairs // 2} tables); load average "
            f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        tables, _phase = setup_round(args.pairs)
        report(measure(tables, args.profile))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
