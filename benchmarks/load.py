"""The load: result submission and confirmation through the table links against the production
stack, at 50 and 200 concurrent phones, side by side with a bare Django view that inserts one
row under the same load; prints the figures, asserts nothing.

Run it from the repository root (PostgreSQL on 127.0.0.1:5432 and ``redis-server`` installed;
it uses a database and a Redis of its own, see benchmarks/stack.py)::

    .venv/bin/python benchmarks/load.py                      # 50 and 200 phones, ~4 minutes
    .venv/bin/python benchmarks/load.py --phones 200 --rounds 3

The stack is ``scripts/prod`` with its defaults (gunicorn 2 × cores + 1 processes × 4
threads, a Celery worker of 2 processes, beat) and ``BENCHMARK_VIEWS=true``. For each number of
phones P it plays ``--rounds`` Swiss rounds of a P-pair tournament (P / 2 tables, two phones
each). Each round has two phases, one after the other, and each faces the same load:

- **API phase** (what a real round costs): the organizer draws and publishes, then every phone
  starts at once, as at the start of a round (the worst case): pareja A reads its table
  (``GET /api/v1/table/<token>``) and submits the games (``POST …/result``); pareja B reads
  the table, and reads it again every second until A's games are there, then confirms
  (``POST …/result/confirm``). Every confirmation queues its follow-up tasks (the phase's
  standings, ratings, webhooks, the round's completion), which the Celery worker runs on the
  same two cores while the phones play: that is work each result costs, so it stays in this
  phase. The phase ends when the last phone has its answer; then the script waits until the
  public standings show every result of the round (the worker's share done), and the
  organizer closes the round.
- **Bare phase** (the floor): as many clients, in the same shape: for each table a client "A"
  sends ``GET /healthz`` then ``POST /bench/insert`` (config/benchmark.py: parse JSON, insert
  one row in a transaction, answer JSON), and a client "B" sends ``GET /healthz``, again every
  second until its A has inserted, then ``POST /bench/insert``. The bare view queues nothing:
  the worker has no task of its own here (the API phase's are done by then).

In both phases ``--readers`` public readers (a venue TV, spectators' phones) read the phase's
standings in a loop (``GET /api/v1/phases/<id>/standings``), and each read notes when a
confirmed result first shows, which gives the time from a confirmation's answer to the public
standings showing it. The figures to quote are the ratios API : bare of writes per second and
of requests per second (each phase's count over the time from its first request to its last
answer).

Latencies are measured in the client (a thread per phone, one keep-alive connection each,
stdlib http.client), so they include the client's own queueing on this same 2-core machine.
It prints the load average before and after each level: figures taken while something else
runs on the machine (another test suite) are not the stack's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soak import random_games  # noqa: E402
from stack import Down, Http, Organizer, Stack  # noqa: E402

# Pareja B's phone reloads the table this often until pareja A's games are there (the table
# page's own refresh). A 50 ms poll made the reads, not the writes, the load: 45 requests/s,
# 0.4 s per table read at 50 phones.
POLL_SECONDS = 1.0


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


def summary(values: list[float]) -> str:
    return f"p50 {pct(values, 50):6.0f}  p95 {pct(values, 95):6.0f}  p99 {pct(values, 99):6.0f} ms"


class Run:
    """What one level of phones measured."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.submit: list[float] = []
        self.confirm: list[float] = []
        self.reads: list[float] = []
        self.standings: list[float] = []
        self.to_standings: list[float] = []
        self.errors = 0
        self.requests = 0
        self.writes = 0
        self.busy = 0.0  # seconds during which the phones were playing
        self.confirmed_at: dict[int, tuple[float, set]] = {}  # match -> (time, its 2 entries)


def phone_a(base: str, run: Run, token: str, games: list) -> None:
    http = Http(base, timeout=60)
    try:
        answer = http.request("GET", f"/api/v1/table/{token}")
        version = answer.body["match"]["version"]
        body = {"side": "a", "version": version, "games": games}
        sent = http.request("POST", f"/api/v1/table/{token}/result", body,
                            {"Idempotency-Key": f"a-{token}"})  # fmt: skip
        with run.lock:
            run.requests += 2
            run.writes += 1
            run.reads.append(answer.seconds)
            run.submit.append(sent.seconds)
            run.errors += sent.status != 200
    except Down:
        with run.lock:
            run.errors += 1
    finally:
        http.close()


def phone_b(base: str, run: Run, token: str, match_id: int, entries: set) -> None:
    http = Http(base, timeout=60)
    try:
        while True:
            answer = http.request("GET", f"/api/v1/table/{token}")
            with run.lock:
                run.requests += 1
                run.reads.append(answer.seconds)
            if answer.body["match"]["status"] == "submitted":
                break
            time.sleep(POLL_SECONDS)
        body = {"side": "b", "version": answer.body["match"]["version"]}
        sent = http.request("POST", f"/api/v1/table/{token}/result/confirm", body,
                            {"Idempotency-Key": f"b-{token}"})  # fmt: skip
        done = time.monotonic()
        with run.lock:
            run.requests += 1
            run.writes += 1
            run.confirm.append(sent.seconds)
            run.errors += sent.status != 200
            if sent.status == 200:
                run.confirmed_at[match_id] = (done, entries)
    except Down:
        with run.lock:
            run.errors += 1
    finally:
        http.close()


def reader(base: str, run: Run, phase_id: int, stop: threading.Event, played: dict) -> None:
    """Reads the public standings in a loop, in both phases (``played["now"]`` is the phase's
    Run, where the read's time goes); notes when each confirmed result first shows."""
    http = Http(base, timeout=60)
    while not stop.is_set():
        try:
            answer = http.request("GET", f"/api/v1/phases/{phase_id}/standings")
        except Down:
            continue
        seen = time.monotonic()
        rows = {r["entry_id"]: r["played"] for g in answer.body["groups"] for r in g["rows"]}
        now = played["now"]
        with now.lock:
            now.standings.append(answer.seconds)
        with run.lock:
            for match_id, (at, entries) in list(run.confirmed_at.items()):
                if all(rows.get(e, 0) >= played["round"] for e in entries):
                    run.to_standings.append(seen - at)
                    del run.confirmed_at[match_id]
    http.close()


def play_level(
    stack: Stack, org: Organizer, phones: int, rounds: int, readers: int, bare: Run
) -> Run:
    rng = random.Random(phones)
    club = org.call("POST", "clubs/create", {"name": f"Peña Carga {phones}", "town": "Iruña"})
    tid = org.call("POST", "tournaments/create", {
        "club": club["slug"], "name": f"Carga {phones}", "starts_on": "2026-07-07",
        "preset": "8 reyes a 40"})["id"]  # fmt: skip
    org.call("POST", f"tournaments/{tid}/status", {"status": "registration"})
    text = "\n".join(f"Uno{n} Carga{n} / Dos{n} Carga{n}" for n in range(phones))
    org.call("POST", f"tournaments/{tid}/entries/paste", {"text": text})
    org.call("POST", f"tournaments/{tid}/status", {"status": "running"})
    phase = org.call("POST", f"tournaments/{tid}/phases/create",
                     {"name": "Suizo", "format": "swiss", "rounds_planned": rounds})  # fmt: skip
    run, stop = Run(), threading.Event()
    played = {"round": 0, "now": run}  # the phase the readers' reads count for
    watchers = [
        threading.Thread(target=reader, args=(stack.base, run, phase["id"], stop, played))
        for _ in range(readers)
    ]
    for number in range(1, rounds + 1):
        rnd = org.call("POST", f"phases/{phase['id']}/rounds/generate")
        org.call("POST", f"rounds/{rnd['id']}/publish")
        tables = []
        for m in rnd["matches"]:
            if m["kind"] == "bye":
                continue
            token = org.call("GET", f"matches/{m['id']}/history")["token"]
            entries = {m["entry_a"]["id"], m["entry_b"]["id"]}
            tables.append((m["id"], token, random_games(rng, phase["rules"]), entries))
        played["round"], played["now"] = number, run
        if number == 1:
            for watcher in watchers:
                watcher.start()
        start = time.monotonic()
        with ThreadPoolExecutor(2 * len(tables)) as pool:
            for match_id, token, games, entries in tables:
                pool.submit(phone_a, stack.base, run, token, games)
                pool.submit(phone_b, stack.base, run, token, match_id, entries)
        run.busy += time.monotonic() - start
        deadline = time.monotonic() + 60
        while run.confirmed_at and time.monotonic() < deadline:
            time.sleep(0.1)  # the readers see the round's last results before the next round
        org.call("POST", f"rounds/{rnd['id']}/close")
        # The floor right after, in the same shape, with the same readers reading.
        played["now"] = bare
        bare_round(stack, bare, len(tables))
    stop.set()
    for watcher in watchers:
        watcher.join()
    return run


def bare_round(stack: Stack, run: Run, tables: int) -> None:
    """The bare phase of a round: per table a client A (a GET, then the insert) and a client B
    (a GET, again every POLL_SECONDS until its A has inserted, then the insert), all at once."""
    inserted = [threading.Event() for _ in range(tables)]

    def insert(http: Http, n: int) -> None:
        sent = http.request("POST", "/bench/insert", {"client": n, "games": [[40, 12]]})
        with run.lock:
            run.requests += 1
            run.writes += 1
            run.submit.append(sent.seconds)
            run.errors += sent.status != 201

    def read(http: Http) -> None:
        got = http.request("GET", "/healthz")
        with run.lock:
            run.requests += 1
            run.reads.append(got.seconds)

    def client_a(n: int) -> None:
        http = Http(stack.base, timeout=60)
        try:
            read(http)
            insert(http, n)
            inserted[n].set()
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            inserted[n].set()
            http.close()

    def client_b(n: int) -> None:
        http = Http(stack.base, timeout=60)
        try:
            while True:
                read(http)
                if inserted[n].is_set():
                    break
                time.sleep(POLL_SECONDS)
            insert(http, tables + n)
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            http.close()

    start = time.monotonic()
    with ThreadPoolExecutor(2 * tables) as pool:
        for n in range(tables):
            pool.submit(client_a, n)
            pool.submit(client_b, n)
    run.busy += time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--rounds", type=int, default=4, help="Swiss rounds per level")
    parser.add_argument("--readers", type=int, default=4, help="public standings readers")
    parser.add_argument("--database", default="amarrako_load")
    args = parser.parse_args()
    stack = Stack(database=args.database, extra_env={"BENCHMARK_VIEWS": "true"})
    with stack:
        org = Organizer(stack.base)
        org.login()
        print(
            f"stack at {stack.base}: gunicorn {stack.env.get('WEB_CONCURRENCY', '2 × cores + 1')}"
            f" processes × {stack.env.get('WEB_THREADS', '4')} threads; log {stack.log_path}"
        )
        results = []
        for phones in args.phones:
            bare = Run()
            load_before = os.getloadavg()[0]
            api = play_level(stack, org, phones, args.rounds, args.readers, bare)
            results.append((phones, api, bare, load_before, os.getloadavg()[0]))
            print(f"{phones} phones done", flush=True)
    print()
    for phones, api, bare, load_before, load_after in results:
        api_wps, bare_wps = api.writes / api.busy, bare.writes / bare.busy
        print(
            f"== {phones} concurrent phones, {args.rounds} rounds ({api.writes} API writes, "
            f"{bare.writes} bare writes); load average {load_before:.1f} before, "
            f"{load_after:.1f} after, on {os.cpu_count()} cores"
        )
        print(f"  result submission       {summary(api.submit)}")
        print(f"  result confirmation     {summary(api.confirm)}")
        print(f"  table read              {summary(api.reads)}")
        print(f"  bare insert-one-row     {summary(bare.submit)}")
        print(f"  bare read (/healthz)    {summary(bare.reads)}")
        print(f"  public standings read   {summary(api.standings)}  ({len(api.standings)} reads "
              f"in the API phase; bare phase: {summary(bare.standings)}, "
              f"{len(bare.standings)} reads)")  # fmt: skip
        print(f"  confirmation → public standings  {summary(api.to_standings)}  "
              f"(max {max(api.to_standings, default=float('nan')) * 1000:.0f} ms, "
              f"{len(api.to_standings)} results)")  # fmt: skip
        print(
            f"  writes/s: API {api_wps:.0f}, bare {bare_wps:.0f}, ratio {api_wps / bare_wps:.2f}"
            f"; requests/s: API {api.requests / api.busy:.0f}, "
            f"bare {bare.requests / bare.busy:.0f}; errors: API {api.errors}, bare {bare.errors}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
