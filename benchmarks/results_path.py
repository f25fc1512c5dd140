"""The cost of one phone's requests, in process: a table read, a submission and a confirmation
through the table link's API, each against the bare insert-one-row view; prints milliseconds,
queries and the CPU ratio per request, asserts nothing.

What ``benchmarks/load.py`` measures from outside (latency under 200 phones) is this cost
multiplied by the queue in front of it; this script measures the cost itself, without a
server, a network or other phones, so a change to the result path can be judged in seconds:

- ``GET /api/v1/table/<token>``, ``POST …/result`` (pareja A's games) and
  ``POST …/result/confirm`` (pareja B), each for every table of a round of a ``--pairs``-pair
  Swiss: median and p95 wall time, the median CPU time of this process (the web process's
  share: Django, DRF, the engine, the driver; what other programs on the machine do to the
  wall time does not change it much), and the number of SQL queries;
- ``POST /bench/insert`` (config/benchmark.py, the floor ``benchmarks/load.py`` measures the
  API against: parse a small JSON body, insert one row in a transaction, answer JSON), sent
  right after each API request through the same middleware, so that both face the same
  machine at the same moment. The last column, ``bare ÷ API``, is the bare view's CPU per
  request over the API request's: the share of the bare view's requests/s the API could serve
  on the same cores if the web process's CPU were the only limit (issue 12's goal: ≥ 0.5). The
  machine's other load stretches both sides alike, so this ratio moves much less than wall
  times do;
- on PostgreSQL on this machine, ``DB CPU``: the mean CPU time the database backend serving the
  connection spent on the request (``/proc/<pid>/schedstat``; parsing, planning and running
  its statements), and ``with DB``, the ratio with it added on both sides: in the burst, the
  web processes and PostgreSQL share the same cores, so this is the ratio to compare with
  ``benchmarks/load.py``'s;
- the same with ``--profile``: cProfile's top functions by cumulative CPU time for each kind, and
  the CPU time of each package (Django's ORM, DRF, psycopg, the engine…);
- with ``--sql``: the SQL of the first request of each kind;
- with ``--middleware``: what each middleware costs a table read and ``GET /healthz`` (the CPU
  per request with all of them, minus the CPU without that one, measured in pairs; a tenth of
  a millisecond either way is noise).

Queries are counted by a wrapper around the database cursor (not by Django's debug cursor,
which would add its own cost to every query of the timed request). ``CACHE_URL`` (e.g.
``redis://127.0.0.1:6379/7``) puts the table-link throttle's counter in Redis, as production
does; without it the counter is in this process's memory.

The follow-up tasks a confirmation queues (standings, ratings, webhooks) are not run in the
phone's request (in production the worker runs them): they are counted, then run afterwards in
this process, one after the other as one worker would after the round's burst, for the worker's
CPU per result.

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
import logging
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
os.environ["BENCHMARK_VIEWS"] = "true"  # mounts /bench/insert (config/urls.py)
os.environ.setdefault("DEBUG", "false")  # as production: no debug cursor, no debug pages
os.environ.setdefault("SECRET_KEY", "results-path-benchmark")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import warnings  # noqa: E402

import django  # noqa: E402  (needs the path and settings above)

# whitenoise's "No directory at staticfiles/" (collectstatic is a deployment's step; no static
# file is served here)
warnings.filterwarnings("ignore", message="No directory at")

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from soak import random_games  # noqa: E402

import config.queue  # noqa: E402

SEED = 20_261_125
queued: Counter = Counter()
sent: list[tuple[str, dict]] = []


def no_tasks(task_name: str, kwargs: dict) -> None:
    """Counts what a request would queue instead of running it in the request (kept, to run
    as the worker would afterwards: worker_share)."""
    queued[task_name] += 1
    sent.append((task_name, dict(kwargs)))


def worker_share() -> None:
    """The worker's CPU per confirmed result: each ``tournaments.result_confirmed`` the round's
    confirmations queued, run in this process in the order sent (standings, bracket, the
    round's completion, ratings, webhooks), as one worker would after the burst: the first
    refreshes the phase's standings, the rest find them fresh already (coalescing)."""
    from config.celery import app

    counter = QueryCounter()
    rows = []
    logging.disable(logging.INFO)  # each task logs what it did: not the figures
    for name, kwargs in sent:
        if name != "tournaments.result_confirmed":
            continue
        counter.count = 0
        with connection.execute_wrapper(counter):
            started = time.process_time()
            app.tasks[name].apply(kwargs=kwargs)
            rows.append(((time.process_time() - started) * 1000, counter.count))
    if not rows:
        return
    cpu = [c for c, _ in rows]
    print(
        f"worker, per result_confirmed task ({len(rows)}): median {statistics.median(cpu):.2f} ms "
        f"CPU, {Counter(q for _, q in rows).most_common(1)[0][0]} queries; first "
        f"{cpu[0]:.1f} ms ({rows[0][1]} queries, the standings refresh); all of them "
        f"{sum(cpu):.0f} ms, {sum(cpu) / len(rows):.2f} ms per result"
    )


class Api:
    def __init__(self, client: Client, prefix: str = "/api/v1/") -> None:
        self.client = client
        self.prefix = prefix

    def call(self, method: str, path: str, body=None, headers=None) -> tuple[int, object]:
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()}
        send = getattr(self.client, method.lower())
        if body is None:
            answer = send(self.prefix + path, **extra)
        else:
            answer = send(
                self.prefix + path, data=json.dumps(body), content_type="application/json", **extra
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


class QueryCounter:
    """Counts the queries of a request, keeping their SQL when asked (connection.execute_wrapper:
    the timed request pays one function call per query, not the debug cursor's bookkeeping)."""

    def __init__(self) -> None:
        self.count = 0
        self.sql: list[str] | None = None

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        if self.sql is not None:
            self.sql.append(sql)
        return execute(sql, params, many, context)


class BackendCpu:
    """The CPU time the PostgreSQL backend serving this process's connection has used, in ms
    (``/proc/<pid>/schedstat``: nanoseconds, not the 10-ms ticks of ``/proc/<pid>/stat``), so
    that a request's cost counts the database's share too: in the burst, the web processes and
    PostgreSQL share the same cores. Zero where it cannot be read (SQLite, another machine)."""

    def __init__(self) -> None:
        self.path: Path | None = None
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                path = Path(f"/proc/{cursor.fetchone()[0]}/schedstat")
            self.path = path if os.access(path, os.R_OK) else None

    def __call__(self) -> float:
        if self.path is None:
            return 0.0
        return int(self.path.read_text().split()[0]) / 1e6


KINDS = ("read", "submit", "confirm")
Figures = dict[str, list[tuple[float, float, int, float]]]


def measure(tables, profile: bool, show_sql: bool) -> tuple[Figures, Figures]:
    """Every table's read, submission, read and confirmation, each followed by one bare insert.

    Returns the API's figures and the bare view's, per kind: (wall ms, CPU ms, queries, the
    database backend's CPU ms).
    """
    figures: Figures = {kind: [] for kind in KINDS}
    bare: Figures = {kind: [] for kind in KINDS}
    profiles = {kind: cProfile.Profile(time.process_time) for kind in figures}  # CPU, not wall
    phone, floor = Api(Client()), Api(Client(), prefix="/")
    counter = QueryCounter()
    backend = BackendCpu()
    sql_shown: set[str] = set()

    def timed(api: Api, method, path, body, headers, prof=None):
        counter.count = 0
        counter.sql = [] if show_sql else None
        with connection.execute_wrapper(counter):
            if prof is not None:
                prof.enable()
            db = backend()
            started, cpu = time.perf_counter(), time.process_time()
            status, answer = api.call(method, path, body, headers)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            db = backend() - db
            if prof is not None:
                prof.disable()
        return status, answer, (seconds * 1000, cpu * 1000, counter.count, db)

    def one(kind: str, method: str, path: str, body=None, headers=None) -> object:
        status, answer, row = timed(phone, method, path, body, headers,
                                    profiles[kind] if profile else None)  # fmt: skip
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        figures[kind].append(row)
        if show_sql and kind not in sql_shown:
            sql_shown.add(kind)
            print(f"\n--- SQL: {kind} ({len(counter.sql)} queries) ---")
            for number, sql in enumerate(counter.sql, start=1):
                print(f"{number:>3}. {sql}")
        status, _, row = timed(floor, "POST", "bench/insert",
                               {"client": len(bare[kind]), "games": [[40, 12]]}, None)  # fmt: skip
        if status != 201:
            raise RuntimeError(f"POST bench/insert: {status}")
        bare[kind].append(row)
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
            print(f"--- profile: {kind}, own time by package ---")
            print(by_package(prof))
    return figures, bare


PACKAGES = (
    ("django/db", "django ORM and driver glue"),
    ("rest_framework", "DRF"),
    ("django/", "django (the rest)"),
    ("psycopg", "psycopg"),
    ("sqlite3", "sqlite3"),
    ("/scoring/", "scoring (engine)"),
    ("/tournaments/", "tournaments"),
    ("/config/", "config"),
    ("/clubs/", "clubs"),
    ("json", "json"),
)


def by_package(prof: cProfile.Profile) -> str:
    """cProfile's own time (tottime) summed per package: where a request's CPU goes."""
    totals: Counter = Counter()
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in (
        pstats.Stats(prof).stats.items()  # type: ignore[attr-defined]
    ):
        label = next((lab for key, lab in PACKAGES if key in filename), "other")
        totals[label] += tottime
    whole = sum(totals.values()) or 1
    return "\n".join(
        f"  {label:<28}{seconds * 1000:>8.0f} ms {100 * seconds / whole:>4.0f} %"
        for label, seconds in totals.most_common()
    )


def report(figures: Figures, bare: Figures) -> None:
    print(
        f"{'request':<16}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'CPU ms':>9}{'queries':>9}"
        f"{'DB CPU ms':>11}{'bare CPU ms':>13}{'bare ÷ API':>12}{'with DB':>9}"
    )
    for kind, rows in figures.items():
        times = sorted(t for t, _, _, _ in rows)
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        cpu = statistics.median(c for _, c, _, _ in rows)
        db = statistics.mean(d for _, _, _, d in rows)
        queries = Counter(q for _, _, q, _ in rows).most_common(1)[0][0]
        bare_cpu = statistics.median(c for _, c, _, _ in bare[kind])
        bare_db = statistics.mean(d for _, _, _, d in bare[kind])
        print(
            f"{kind:<16}{len(rows):>5}{statistics.median(times):>11.1f}{p95:>9.1f}{cpu:>9.2f}"
            f"{queries:>9}{db:>11.2f}{bare_cpu:>13.2f}{bare_cpu / cpu:>12.2f}"
            f"{(bare_cpu + bare_db) / (cpu + db):>9.2f}"
        )
    every = [row for kind in KINDS for row in bare[kind]]
    print(
        f"{'bare insert':<16}{len(every):>5}{statistics.median(t for t, _, _, _ in every):>11.1f}"
        f"{'':>9}{statistics.median(c for _, c, _, _ in every):>9.2f}"
        f"{Counter(q for _, _, q, _ in every).most_common(1)[0][0]:>9}"
        f"{statistics.mean(d for _, _, _, d in every):>11.2f}"
    )
    print("CPU: median of this process's CPU time per request (the web process's share); DB CPU:")
    print("the mean CPU of the PostgreSQL backend serving it (0 where it cannot be read);")
    print("bare ÷ API: the bare insert's CPU (sent right after each request) over the API's;")
    print("with DB: the same with the database's CPU added on both sides (in the burst they share")
    print("the cores).")
    print("queued per round (run by the worker in production):", dict(queued))


def middleware_costs(token: str, repeat: int = 200) -> None:
    """Each middleware's CPU per request: a table read (``GET /api/v1/table/<token>``) and
    ``GET /healthz`` with the whole MIDDLEWARE list, then without each one in turn."""
    from django.test import override_settings

    def cpu(path: str) -> float:
        client = Client()
        client.get(path)  # warm: the handler is built once per settings
        started = time.process_time()
        for _ in range(repeat):
            client.get(path)
        return (time.process_time() - started) / repeat * 1000

    paths = (f"/api/v1/table/{token}", "/healthz")
    with override_settings(MIDDLEWARE=list(settings.MIDDLEWARE)):  # measured alike
        whole = {p: cpu(p) for p in paths}
    print(f"\n{'middleware':<48}{'table read ms':>15}{'/healthz ms':>13}")
    print(f"{'(all of them: CPU per request)':<48}{whole[paths[0]]:>15.3f}{whole[paths[1]]:>13.3f}")
    for name in settings.MIDDLEWARE:
        others = [m for m in settings.MIDDLEWARE if m != name]
        try:
            # paired: the whole list measured again right before, so that a drift of the
            # machine's speed over the run does not land on one middleware
            with override_settings(MIDDLEWARE=list(settings.MIDDLEWARE)):
                before = {p: cpu(p) for p in paths}
            with override_settings(MIDDLEWARE=others):
                saved = {p: before[p] - cpu(p) for p in paths}
        except Exception:  # another middleware needs it (sessions for authentication)
            print(f"{name:<48}{'(needed by another)':>28}")
            continue
        print(f"{name:<48}{saved[paths[0]]:>15.3f}{saved[paths[1]]:>13.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--sql", action="store_true", help="print each kind's first SQL")
    parser.add_argument(
        "--middleware", action="store_true", help="print each middleware's CPU per request"
    )
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
        if args.middleware:  # before the results: a table's read changes nothing
            middleware_costs(tables[0][0])
        report(*measure(tables, args.profile, args.sql))
        worker_share()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
