"""The load: result submission and confirmation through the table links against the production
stack, side by side with a bare Django view that inserts one row under the same load, in two
models: **the burst** (every phone of a round sends at the same instant, at 50 and 200 phones:
the worst case) and **the paced model** (200 phones whose tables finish at random moments, at
a rising rate of results per second: what a Saturday's phones do); prints the figures,
asserts nothing.

Run it from the repository root (PostgreSQL on 127.0.0.1:5432 and ``redis-server`` installed;
it uses a database and a Redis of its own, see benchmarks/stack.py)::

    .venv/bin/python benchmarks/load.py             # both models, ~10 minutes (quiet machine)
    .venv/bin/python benchmarks/load.py --phones 200 --rounds 3 --paced-phones 0  # burst only
    .venv/bin/python benchmarks/load.py --phones --rates 0.5 1  # paced only

The stack is ``scripts/prod`` with its defaults (gunicorn 2 × cores + 1 processes × 4
threads, a Celery worker of 2 processes, beat) and ``BENCHMARK_VIEWS=true``.

``--layout scaled`` points the phones at the load balancer of ``scripts/prod --scaled``
instead (``--web-nodes`` gunicorn servers of one node's share of the processes each, behind
HAProxy; PgBouncer in transaction mode; ``--workers`` Celery workers of one process; beat);
``--layout both`` measures the one-server stack and then the scaled one in the same run, with
the same plan, and ends with their p50 and p99 side by side::

    .venv/bin/python benchmarks/load.py --layout both --phones 200 --rounds 2 --rates 2 4 8 16

After each layout it prints the stack's footprint (``Footprint``): for each kind of process
(gunicorn's master and workers, the Celery workers, beat, HAProxy, PgBouncer, Redis, the
PostgreSQL backends serving the stack's database) how many there are, their memory (PSS:
shared pages split between the processes sharing them) and the CPU they spent during the
measured run, per confirmed result too; PgBouncer's client and server connections and its
memory, Redis's memory and clients. docs/deploy.md ("A federation's Saturday") quotes them.

**The burst** (``--phones``, ``--rounds``). For each number of phones P it plays ``--rounds``
Swiss rounds of a P-pair tournament (P / 2 tables, two phones each). Each round has two
phases, one after the other, and each faces the same load:

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

The burst's figures to quote are the ratios API : bare of writes per second and of requests
per second (each phase's count over the time from its first request to its last answer).
With 200 requests arriving at one instant on two cores, even the bare view's p99 is hundreds
of milliseconds: the burst measures throughput, not the latency a phone sees on a Saturday.

**The paced model** (``--paced-phones``, 200 by default; ``--rates``, 1 2 4 8 16 32 64 by
default). A real round's results do not arrive at one instant but over minutes, as tables
finish. A Swiss tournament of that many pairs plays, for each rate R (results per second,
tried upwards), one round whose tables finish at random moments, a Poisson process of R
tables per second (exponential gaps, seeded): at its table's moment pareja A reads the table
and submits at once; pareja B reads it, again a second after each answer until A's games are
there, and confirms at once; the worker runs the follow-up tasks meanwhile, as in the burst.
Then the bare view in the same shape at the same moments (A: ``/healthz``, then an insert; B:
``/healthz`` every second until its A has inserted, then its own insert). Per rate it prints
submission and confirmation p50 / p95 / p99 (the bare view's two inserts together, then the
p99 of A's and of B's, which the goal is checked on as the API's submission and confirmation), the
requests per second achieved and confirmation → public standings. The API's rates stop after
the first at which the submission or the confirmation p99 reaches 100 ms (the issue's goal)
or a request fails; the bare view's likewise, so it goes on alone at the higher rates
(``--all-rates``: both play every rate, to compare layouts rate by rate). The
figure to quote is the highest rate at which each stays under 100 ms with no error (a lower
bound within one step of the rates: 2× apart by default) and the ratio of the two, a second
view of the issue's goal that the API sustain at least half the bare view's writes; and how
long a 120-pair round's 60 results take to arrive at the API's rate. A figure below the first
rate tried shows as "below R/s (none of the rates tried)": run again with lower ``--rates``
(the script says which). A rate costs about 2 × tables / R seconds (API and bare), 200 s at
1 result/s for 100 tables: the whole default run takes about 10 minutes on a quiet machine
(the burst 3, the 1/s step 3 of them), more when other work shares the cores.

The paced client is open-loop: a thread per phone, started before its table's moment, and
every latency counted from when the request was due (the table's moment, or the answer it
follows, or one second after B's previous answer), not from when the client got round to
sending it, so a client that falls behind adds to the latencies instead of hiding them (no
coordinated omission). Per phase it prints the client's own CPU (every thread of this
process, the readers' too) and how late the phones started ("lag"), marked BEHIND when its
p99 passes 10 ms: with the client's CPU low, the machine (other processes on the same cores),
not the client's own work, held it back.

In both models ``--readers`` public readers (a venue TV, spectators' phones) read the
standings of the phase being played in a loop (``GET /api/v1/phases/<id>/standings``; back to
back, or ``--reader-pause`` seconds apart), and each read notes when a confirmed result first
shows, which gives the time from a confirmation's answer to the public standings showing it.
Back to back, the readers are closed-loop (each reads again as soon as it has its answer) and
a 200-pair phase's standings cost the web server more than a table's request, so they keep
much of the two cores busy whatever the rate of results: the paced figures with them are
those of phones beside a busy server. A venue's TV reloads every 20 s and the organizer's
board every 15 s: the paced model's readers wait ``--paced-reader-pause`` seconds (20 by
default) between reads, closer to a Saturday (then the time from a confirmation to the public
standings includes up to that pause, the readers' own delay); the burst's read back to back
(``--reader-pause``, 0 by default), its worst case kept. ``--paced-reader-pause 0`` gives the
paced phones beside greedy readers: closed-loop, they take whatever CPU the phones leave
(even with the standings' answer kept in the cache, four of them read ~150 times a second).

Latencies are measured in the client (a thread per phone, one keep-alive connection each,
stdlib http.client), so they include the client's own queueing on this same 2-core machine.
It prints the load average before and after each level and rate: figures taken while
something else runs on the machine (another test suite) are not the stack's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import psycopg  # noqa: E402
from soak import random_games  # noqa: E402
from stack import POSTGRES, Down, Http, Organizer, Stack  # noqa: E402

# --- the stack's footprint: processes, memory, CPU ---------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu(pid: int) -> float:
    """CPU seconds the process has used (user and system)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / TICKS


def _pss(pid: int) -> float:
    """The process's proportional memory in MB (its shared pages split among their users)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _kind(pid: int) -> str | None:
    """What a process of the stack is, by its command line and its parent's."""
    args = [a.decode(errors="replace") for a in
            Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]  # fmt: skip
    text = " ".join(args)
    parent = int(_stat(pid)[1])
    if "gunicorn" in text:
        parent_text = Path(f"/proc/{parent}/cmdline").read_bytes().decode(errors="replace")
        return "gunicorn worker" if "gunicorn" in parent_text else "gunicorn master"
    if "celery" in text:
        if " beat" in text:
            return "celery beat"
        parent_text = Path(f"/proc/{parent}/cmdline").read_bytes().decode(errors="replace")
        return "celery pool" if "celery" in parent_text else "celery worker (main)"
    program = Path(args[0].split()[0]).name if args else ""  # Redis retitles itself
    for name in ("haproxy", "pgbouncer", "redis-server", "supervisord"):
        if program == name:
            return name
    if "stacklog.py" in text:
        return "supervisord" if " supervisord " in f" {text} " else "stacklog wrapper"
    return None


class Footprint:
    """The stack's processes: the CPU they spend between ``begin()`` and ``end()`` (added up
    over every such span), their memory and connections when ``report()`` is called."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.start: dict[int, tuple[str, float]] = {}
        self.spent: dict[str, float] = {}

    def begin(self) -> None:
        self.start = self.cpu()

    def end(self) -> None:
        """Add the CPU spent since ``begin()`` (a process that died meanwhile is not counted;
        one born meanwhile from zero)."""
        for _pid, (kind, seconds) in self.cpu().items():
            before = self.start.get(_pid)
            spent = seconds - (before[1] if before and before[0] == kind else 0.0)
            self.spent[kind] = self.spent.get(kind, 0.0) + spent

    def pids(self) -> dict[int, str]:
        found: dict[int, str] = {}
        sid = self.stack.process.pid
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            pid = int(entry.name)
            try:
                mine = int(_stat(pid)[3]) == sid or (
                    self.stack.redis_process and pid == self.stack.redis_process.pid
                )
                kind = _kind(pid) if mine else None
            except (OSError, ValueError, IndexError):
                continue
            if kind:
                found[pid] = kind
        for pid in self.backends():
            found[pid] = "postgres backend"
        return found

    def backends(self) -> list[int]:
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [self.stack.database],
            ).fetchall()
        return [pid for (pid,) in rows]

    def cpu(self) -> dict[int, tuple[str, float]]:
        sample = {}
        for pid, kind in self.pids().items():
            with contextlib.suppress(OSError, ValueError, IndexError):
                sample[pid] = (kind, _cpu(pid))
        return sample

    def report(self, results: int) -> list[str]:
        """Lines: per kind of process, count, memory now and the CPU spent (``end()``)."""
        kinds: dict[str, dict] = {}
        for pid, kind in self.pids().items():
            row = kinds.setdefault(kind, {"count": 0, "pss": 0.0, "cpu": 0.0})
            row["count"] += 1
            with contextlib.suppress(OSError):
                row["pss"] += _pss(pid)
        for kind, seconds in self.spent.items():
            kinds.setdefault(kind, {"count": 0, "pss": 0.0, "cpu": 0.0})["cpu"] = seconds
        lines = []
        total_cpu = sum(row["cpu"] for row in kinds.values())
        for kind, row in sorted(kinds.items()):
            per = f", {1000 * row['cpu'] / results:5.1f} ms per result" if results else ""
            lines.append(
                f"  {kind:22} {row['count']:3} × {row['pss'] / max(1, row['count']):6.1f} MB PSS "
                f"(total {row['pss']:6.0f} MB); CPU {row['cpu']:7.1f} s{per}"
            )
        if results:
            lines.append(
                f"  all of it: {total_cpu:.1f} s of CPU for {results} confirmed results, "
                f"{1000 * total_cpu / results:.0f} ms per result"
            )
        if self.stack.scaled:
            pools = [p for p in self.stack.pgbouncer("SHOW POOLS")
                     if p["database"] == self.stack.database]  # fmt: skip
            clients = sum(p["cl_active"] + p["cl_waiting"] for p in pools)
            servers = sum(p["sv_active"] + p["sv_idle"] + p["sv_used"] for p in pools)
            mem = {m["name"]: m for m in self.stack.pgbouncer("SHOW MEM")}
            cache = ", ".join(
                f"{name} {mem[name]['size']} B × {mem[name]['used']}"
                for name in ("client_cache", "server_cache", "iobuf_cache")
                if name in mem
            )
            lines.append(
                f"  PgBouncer: {clients} client connections, {servers} server connections "
                f"(SHOW MEM: {cache})"
            )
        info = self.redis_info()
        lines.append(
            f"  Redis: used_memory {info.get('used_memory_human', '?')}, rss "
            f"{int(info.get('used_memory_rss', 0)) / 2**20:.1f} MB, "
            f"{info.get('connected_clients', '?')} clients"
        )
        return lines

    def idle_clients(self, count: int) -> str:
        """PgBouncer's memory for ``count`` more client connections, idle (as a web thread's
        between two requests): opened, measured, closed."""
        pid = next(p for p, kind in self.pids().items() if kind == "pgbouncer")

        def rss() -> float:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
            return 0.0

        before = rss()
        user = urlsplit(POSTGRES).username or "postgres"
        with contextlib.ExitStack() as held:
            for _ in range(count):
                held.enter_context(psycopg.connect(
                    host="127.0.0.1", port=self.stack.pgbouncer_port,
                    dbname=self.stack.database, user=user, autocommit=True,
                ))  # fmt: skip
            after = rss()
        return (
            f"  PgBouncer with {count} more idle client connections: RSS {before:.1f} → "
            f"{after:.1f} MB, {1024 * (after - before) / count:.1f} kB per client connection"
        )

    def redis_info(self) -> dict[str, str]:
        import socket

        with socket.create_connection(("127.0.0.1", self.stack.redis_port), timeout=5) as s:
            s.sendall(b"INFO\r\n")
            data = b""
            while not data.endswith(b"\r\n\r\n") and b"# Keyspace" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return dict(line.split(":", 1) for line in data.decode().splitlines() if ":" in line)


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


def reader(base: str, phase_id: int, stop: threading.Event, played: dict, pause: float) -> None:
    """Reads the public standings in a loop, in both phases (``played["now"]`` is the phase's
    Run, where the read's time goes), ``pause`` seconds between one answer and the next read;
    notes when each confirmed result of ``played["results"]`` (a Run) first shows."""
    http = Http(base, timeout=60)
    while not stop.wait(pause):
        try:
            answer = http.request("GET", f"/api/v1/phases/{phase_id}/standings")
        except Down:
            continue
        seen = time.monotonic()
        rows = {r["entry_id"]: r["played"] for g in answer.body["groups"] for r in g["rows"]}
        now, run = played["now"], played["results"]
        with now.lock:
            now.standings.append(answer.seconds)
        with run.lock:
            for match_id, (at, entries) in list(run.confirmed_at.items()):
                if all(rows.get(e, 0) >= played["round"] for e in entries):
                    run.to_standings.append(seen - at)
                    del run.confirmed_at[match_id]
    http.close()


def swiss(org: Organizer, name: str, pairs: int, rounds: int) -> dict:
    """A running tournament of ``pairs`` pairs and its Swiss phase of ``rounds`` rounds."""
    club = org.call("POST", "clubs/create", {"name": f"Peña {name}", "town": "Iruña"})
    tid = org.call("POST", "tournaments/create", {
        "club": club["slug"], "name": name, "starts_on": "2026-07-07",
        "preset": "8 reyes a 40"})["id"]  # fmt: skip
    org.call("POST", f"tournaments/{tid}/status", {"status": "registration"})
    text = "\n".join(f"Uno{n} Carga{n} / Dos{n} Carga{n}" for n in range(pairs))
    org.call("POST", f"tournaments/{tid}/entries/paste", {"text": text})
    org.call("POST", f"tournaments/{tid}/status", {"status": "running"})
    return org.call("POST", f"tournaments/{tid}/phases/create",
                    {"name": "Suizo", "format": "swiss", "rounds_planned": rounds})  # fmt: skip


def draw(org: Organizer, phase: dict, rng: random.Random) -> tuple[dict, list]:
    """The phase's next round, drawn and published, and its tables: (match id, table token,
    the games pareja A will send, the two entries) for every match but a bye."""
    rnd = org.call("POST", f"phases/{phase['id']}/rounds/generate")
    org.call("POST", f"rounds/{rnd['id']}/publish")
    tables = []
    for m in rnd["matches"]:
        if m["kind"] == "bye":
            continue
        token = org.call("GET", f"matches/{m['id']}/history")["token"]
        entries = {m["entry_a"]["id"], m["entry_b"]["id"]}
        tables.append((m["id"], token, random_games(rng, phase["rules"]), entries))
    return rnd, tables


def play_level(
    stack: Stack, org: Organizer, phones: int, rounds: int, readers: tuple[int, float], bare: Run
) -> Run:
    rng = random.Random(phones)
    phase = swiss(org, f"Carga {phones}", phones, rounds)
    run, stop = Run(), threading.Event()
    played = {"round": 0, "now": run, "results": run}  # the phase the readers' reads count for
    watchers = [
        threading.Thread(target=reader, args=(stack.base, phase["id"], stop, played, readers[1]))
        for _ in range(readers[0])
    ]
    for number in range(1, rounds + 1):
        rnd, tables = draw(org, phase, rng)
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


# --- the paced model: results arriving over minutes, as tables finish ---------------------------

# The goal for a submission's and a confirmation's p99, in seconds.
GOAL = 0.100
# The paced model's rates by default, in results (tables finishing) per second.
RATES = (1, 2, 4, 8, 16, 32, 64)
# A pareja B that still sees no submission after this long gives up (counted as an error).
PATIENCE = 60.0


class Paced(Run):
    """What one paced phase (the API's or the bare view's, at one rate) measured. Every
    latency runs from the moment the request was due (a table's arrival, or the answer it
    follows), not from when the client managed to send it."""

    def __init__(self, rate: float) -> None:
        super().__init__()
        self.rate = rate
        self.lag: list[float] = []  # how late each phone started after its table's arrival
        self.start = 0.0  # the phase's clock: its arrivals count from here
        self.end = 0.0  # its last answer
        self.load = (0.0, 0.0)
        self.tables = 0
        self.client_cpu = 0.0  # the client's CPU seconds (every thread of this process)

    def answered(self, at: float) -> None:
        with self.lock:
            self.end = max(self.end, at)

    def span(self) -> float:
        return max(self.end - self.start, 1e-9)

    def writes_p99(self) -> float:
        return max(pct(self.submit, 99), pct(self.confirm, 99)) / 1000

    def passes(self) -> bool:
        return not self.errors and self.writes_p99() < GOAL


def arrivals(rate: float, tables: int, seed: int) -> list[float]:
    """When each table finishes, in seconds from the phase's start: a Poisson process of
    ``rate`` tables per second (exponential gaps), the same for the same seed."""
    rng, at, times = random.Random(seed), 0.0, []
    for _ in range(tables):
        at += rng.expovariate(rate)
        times.append(at)
    return times


def until(at: float) -> None:
    delay = at - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def due(http: Http, since: float, method: str, path: str, body=None, headers=None):
    """One request due at ``since``: its answer, the seconds from ``since`` to the answer (the
    client's own delay in sending counts), and when the answer came."""
    answer = http.request(method, path, body, headers)
    done = time.monotonic()
    return answer, done - since, done


def paced_phones(base: str, run: Paced, at: float, table: tuple) -> list[threading.Thread]:
    """The two phones of one table that finishes at ``at``: A reads the table and submits at
    once; B reads it then, again a second after each answer until A's games are there, and
    confirms at once."""
    match_id, token, games, entries = table
    path = f"/api/v1/table/{token}"

    def a() -> None:
        until(at)
        http = Http(base, timeout=60)
        try:
            run.lag.append(time.monotonic() - at)
            answer, read, done = due(http, at, "GET", path)
            body = {"side": "a", "version": answer.body["match"]["version"], "games": games}
            sent, submit, done = due(http, done, "POST", f"{path}/result", body,
                                     {"Idempotency-Key": f"a-{token}"})  # fmt: skip
            run.answered(done)
            with run.lock:
                run.requests += 2
                run.writes += 1
                run.reads.append(read)
                run.submit.append(submit)
                run.errors += sent.status != 200
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            http.close()

    def b() -> None:
        until(at)
        http = Http(base, timeout=60)
        try:
            run.lag.append(time.monotonic() - at)
            since = at
            while True:
                answer, read, done = due(http, since, "GET", path)
                with run.lock:
                    run.requests += 1
                    run.reads.append(read)
                if answer.body["match"]["status"] == "submitted":
                    break
                if done - at > PATIENCE:
                    raise Down(f"no submission at table {match_id} after {PATIENCE} s")
                since = done + POLL_SECONDS
                until(since)
            body = {"side": "b", "version": answer.body["match"]["version"]}
            sent, confirm, done = due(http, done, "POST", f"{path}/result/confirm", body,
                                      {"Idempotency-Key": f"b-{token}"})  # fmt: skip
            run.answered(done)
            with run.lock:
                run.requests += 1
                run.writes += 1
                run.confirm.append(confirm)
                run.errors += sent.status != 200
                if sent.status == 200:
                    run.confirmed_at[match_id] = (done, entries)
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            http.close()

    return [threading.Thread(target=a), threading.Thread(target=b)]


def api_table(base: str, run: Paced, tables: list, at: float, n: int) -> list[threading.Thread]:
    return paced_phones(base, run, at, tables[n])


def paced_bare(base: str, run: Paced, at: float, n: int) -> list[threading.Thread]:
    """The bare view in the same shape: client A sends ``GET /healthz`` and then
    ``POST /bench/insert`` at ``at``; client B sends ``GET /healthz`` then, again a second after
    each answer until its A has inserted, then ``POST /bench/insert``. A's insert counts as
    the submission, B's as the confirmation."""
    inserted = threading.Event()

    def insert(http: Http, since: float, into: list[float]) -> None:
        sent, seconds, done = due(http, since, "POST", "/bench/insert",
                                  {"client": n, "games": [[40, 12]]})  # fmt: skip
        run.answered(done)
        with run.lock:
            run.requests += 1
            run.writes += 1
            into.append(seconds)
            run.errors += sent.status != 201

    def a() -> None:
        until(at)
        http = Http(base, timeout=60)
        try:
            run.lag.append(time.monotonic() - at)
            _, read, done = due(http, at, "GET", "/healthz")
            with run.lock:
                run.requests += 1
                run.reads.append(read)
            insert(http, done, run.submit)
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            inserted.set()
            http.close()

    def b() -> None:
        until(at)
        http = Http(base, timeout=60)
        try:
            run.lag.append(time.monotonic() - at)
            since = at
            while True:
                _, read, done = due(http, since, "GET", "/healthz")
                with run.lock:
                    run.requests += 1
                    run.reads.append(read)
                if inserted.is_set():
                    break
                since = done + POLL_SECONDS
                until(since)
            insert(http, done, run.confirm)
        except Down:
            with run.lock:
                run.errors += 1
        finally:
            http.close()

    return [threading.Thread(target=a), threading.Thread(target=b)]


def paced_phase(run: Paced, seed: int, phones) -> None:
    """Plays one paced phase: ``phones(at, n)`` gives the threads of the n-th table, which
    finishes at ``at``. A thread per phone, started before its table's arrival, so the client
    has always a thread ready; what delay it has left shows in ``run.lag``."""
    load, cpu = os.getloadavg()[0], time.process_time()
    times = arrivals(run.rate, run.tables, seed)
    run.start = time.monotonic() + 1.0  # a second to start the threads
    threads = [t for n, at in enumerate(times) for t in phones(run.start + at, n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run.busy = run.span()
    run.load = (load, os.getloadavg()[0])
    run.client_cpu = time.process_time() - cpu


def play_paced(
    stack: Stack,
    org: Organizer,
    phones: int,
    rates: list[float],
    readers: tuple[int, float],
    footprint: Footprint | None = None,
    all_rates: bool = False,
) -> list[tuple[float, Paced | None, Paced | None]]:
    """For each rate in turn, one Swiss round of ``phones`` / 2 tables whose results arrive at
    that rate (the API phase), then the bare view in the same shape at the same moments, each
    under the same standings readers. The API's rates stop after the first whose submission
    or confirmation p99 reaches GOAL or that has an error; the bare view's likewise."""
    rng = random.Random(phones + 1)
    phase = swiss(org, f"Ritmo {phones}", phones, len(rates))
    stop = threading.Event()
    played: dict = {"round": 0, "now": Paced(0), "results": Paced(0)}
    watchers = [
        threading.Thread(target=reader, args=(stack.base, phase["id"], stop, played, readers[1]))
        for _ in range(readers[0])
    ]
    for watcher in watchers:
        watcher.start()
    time.sleep(2)  # the readers' first reads warm the web processes up
    results: list[tuple[float, Paced | None, Paced | None]] = []
    api_on = bare_on = True
    try:
        for number, rate in enumerate(rates, start=1):
            if not (api_on or bare_on):
                break
            api = bare = None
            seed = phones * 1000 + number
            if api_on:
                rnd, tables = draw(org, phase, rng)
                api = Paced(rate)
                api.tables = len(tables)
                played["round"] = played["round"] + 1
                played["now"] = played["results"] = api
                if footprint:
                    footprint.begin()
                paced_phase(api, seed, partial(api_table, stack.base, api, tables))
                deadline = time.monotonic() + 60
                while api.confirmed_at and time.monotonic() < deadline:
                    time.sleep(0.1)  # the readers see the round's last results
                if footprint:
                    footprint.end()  # the worker's tasks are done: the standings show them
                org.call("POST", f"rounds/{rnd['id']}/close")
                api_on = api.passes() or all_rates
            if bare_on:
                bare = Paced(rate)
                bare.tables = phones // 2
                played["now"] = bare
                paced_phase(bare, seed, partial(paced_bare, stack.base, bare))
                bare_on = bare.passes() or all_rates
            results.append((rate, api, bare))
            print(f"paced {rate:g} results/s done", flush=True)
    finally:
        stop.set()
        for watcher in watchers:
            watcher.join()
    return results


def lag_note(run: Paced) -> str:
    late = pct(run.lag, 99)
    note = f"p99 {late:.0f} ms, max {max(run.lag, default=0) * 1000:.0f} ms"
    return note + (" (BEHIND: counted in the latencies)" if late > 10 else "")


def report_paced(phones: int, readers: tuple[int, float], results: list) -> None:
    print(
        f"== paced: {phones} phones ({phones // 2} tables) per rate, each table finishing at a "
        f"random moment (Poisson arrivals at the rate); {readers[0]} standings readers "
        f"({f'{readers[1]:g} s between reads' if readers[1] else 'back to back'}); "
        f"p99 goal {GOAL * 1000:.0f} ms"
    )
    best = {"api": None, "bare": None}
    for rate, api, bare in results:
        runs = [r for r in (api, bare) if r is not None]
        loads = f"{min(r.load[0] for r in runs):.1f}–{max(r.load[1] for r in runs):.1f}"
        print(f"  -- {rate:g} results/s (load average {loads} on {os.cpu_count()} cores)")
        if api is not None:
            print(f"  result submission       {summary(api.submit)}")
            print(f"  result confirmation     {summary(api.confirm)}")
            print(f"  table read              {summary(api.reads)}")
        if bare is not None:
            print(
                f"  bare insert-one-row     {summary(bare.submit + bare.confirm)}  (p99 of A's "
                f"{pct(bare.submit, 99):.0f} ms, of B's {pct(bare.confirm, 99):.0f} ms)"
            )
        for name, run in (("API", api), ("bare", bare)):
            if run is None:
                continue
            print(
                f"  {name:4}: {run.requests / run.span():5.1f} requests/s, "
                f"{run.writes / run.span():4.1f} writes/s over {run.span():.0f} s; "
                f"{run.errors} errors; standings read p99 {pct(run.standings, 99):.0f} ms "
                f"({len(run.standings)} reads); "
                f"client: CPU {100 * run.client_cpu / run.span():.0f} % of a core, "
                f"lag {lag_note(run)}"
            )
            if run.passes():
                best[name.lower()] = rate
        if api is not None:
            print(f"  confirmation → public standings  {summary(api.to_standings)}  "
                  f"(max {max(api.to_standings, default=float('nan')) * 1000:.0f} ms, "
                  f"{len(api.to_standings)} results)")  # fmt: skip

    # A kind whose last phase passed stopped at the highest rate tried, not at its limit.
    last = {
        k: [r[i] for r in results if r[i] is not None][-1:] for k, i in (("api", 1), ("bare", 2))
    }
    open_ = {k: bool(runs) and runs[0].passes() for k, runs in last.items()}

    def said(kind: str) -> str:
        if best[kind] is None:
            return f"below {results[0][0]:g}/s (none of the rates tried)" if results else "-"
        return f"{best[kind]:g}/s" + (" or more (the highest tried)" if open_[kind] else "")

    ratio = ""
    if best["api"] and best["bare"] and not open_["api"]:
        ratio = f", ratio {'≤ ' if open_['bare'] else ''}{best['api'] / best['bare']:.2f}"
    print(
        f"  highest rate with submission and confirmation p99 < {GOAL * 1000:.0f} ms and no "
        f"error: API {said('api')}, bare view {said('bare')}{ratio}"
    )
    if best["api"]:
        print(
            f"  at {best['api']:g} results/s a 120-pair round's 60 results arrive over "
            f"{60 / best['api']:.0f} s"
        )
    if results and best["api"] is None:
        print(f"  (lower rates: --phones --rates {results[0][0] / 4:g} {results[0][0] / 2:g})")


def measure(args, layout: str) -> dict:
    """Start the layout's stack, run the plan against it, return what it measured."""
    readers = (args.readers, args.reader_pause)
    scaled = layout == "scaled"
    stack = Stack(
        database=args.database + ("_scaled" if scaled else ""),
        extra_env={"BENCHMARK_VIEWS": "true"},
        scaled=scaled,
        web_nodes=args.web_nodes,
        workers=args.workers,
        worker_concurrency=1 if scaled else 2,
    )
    with stack:
        org = Organizer(stack.base)
        org.login()
        if scaled:
            shape = (f"{args.web_nodes} web nodes behind HAProxy, each gunicorn "
                     f"{stack.env.get('WEB_CONCURRENCY', 'one node’s share of 2 × cores + 1')} "
                     f"processes × {stack.env.get('WEB_THREADS', '4')} threads; PgBouncer; "
                     f"{args.workers} Celery workers of 1 process; beat")  # fmt: skip
        else:
            shape = (f"gunicorn {stack.env.get('WEB_CONCURRENCY', '2 × cores + 1')} processes × "
                     f"{stack.env.get('WEB_THREADS', '4')} threads; a Celery worker of 2 "
                     f"processes; beat")  # fmt: skip
        print(f"== {layout}: stack at {stack.base}: {shape}; log {stack.log_path}", flush=True)
        footprint = Footprint(stack)
        footprint.begin()
        results = []
        for phones in args.phones:
            bare = Run()
            load_before = os.getloadavg()[0]
            api = play_level(stack, org, phones, args.rounds, readers, bare)
            results.append((phones, api, bare, load_before, os.getloadavg()[0]))
            print(f"{layout}: {phones} phones done", flush=True)
        footprint.end()
        usage = {}
        if results:
            confirmed = sum(len(api.confirm) for _, api, *_ in results)
            usage["the burst (readers back to back, the bare phase included)"] = footprint.report(
                confirmed
            )
        paced = []
        if args.paced_phones:
            footprint = Footprint(stack)
            paced_readers = (args.readers, args.paced_reader_pause)
            paced = play_paced(stack, org, args.paced_phones, sorted(args.rates), paced_readers,
                               footprint, args.all_rates)  # fmt: skip
            confirmed = sum(len(api.confirm) for _, api, _ in paced if api is not None)
            usage["the paced model's API phases (a Saturday's shape; from each phase's start "
                  "to its standings shown)"] = footprint.report(confirmed)  # fmt: skip
        served = stack.lb_served() if scaled else None
        if scaled and args.idle_clients:
            usage.setdefault("the stack at rest", []).append(
                Footprint(stack).idle_clients(args.idle_clients)
            )
    return {"layout": layout, "shape": shape, "results": results, "paced": paced,
            "footprint": usage, "served": served}  # fmt: skip


def report(args, measured: dict) -> None:
    results, paced = measured["results"], measured["paced"]
    print(f"\n######## {measured['layout']}: {measured['shape']}")
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
    if paced:
        report_paced(args.paced_phones, (args.readers, args.paced_reader_pause), paced)
    for phase, lines in measured["footprint"].items():
        print(f"== footprint ({measured['layout']}) over {phase}")
        for line in lines:
            print(line)
    if measured["served"] is not None:
        print(f"  requests the balancer sent each node: {measured['served']}")


def side_by_side(one: dict, scaled: dict) -> None:
    """p50 / p99 of each measure, one-server and scaled, in ms."""

    def cell(values: list[float]) -> str:
        return f"{pct(values, 50):5.0f} / {pct(values, 99):5.0f}" if values else "    -"

    print("\n######## side by side: p50 / p99 in ms (one server | scaled)")
    for (phones, a, *_), (_, b, *_) in zip(one["results"], scaled["results"], strict=True):
        print(f"  burst, {phones} phones")
        for name, attr in (("submission", "submit"), ("confirmation", "confirm"),
                           ("table read", "reads"), ("standings read", "standings")):  # fmt: skip
            print(f"    {name:16} {cell(getattr(a, attr)):>14} | {cell(getattr(b, attr)):>14}")
        print(f"    {'writes/s':16} {a.writes / a.busy:14.0f} | {b.writes / b.busy:14.0f}")
    by_rate = {rate: api for rate, api, _ in scaled["paced"]}
    for rate, a, _ in one["paced"]:
        b = by_rate.get(rate)
        if a is None and b is None:
            continue
        print(f"  paced, {rate:g} results/s")
        for name, attr in (("submission", "submit"), ("confirmation", "confirm"),
                           ("table read", "reads")):  # fmt: skip
            left = cell(getattr(a, attr)) if a else "not run"
            right = cell(getattr(b, attr)) if b else "not run"
            print(f"    {name:16} {left:>14} | {right:>14}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, nargs="*", default=[50, 200],
                        help="levels of the burst (none: no burst)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=4, help="Swiss rounds per burst level")
    parser.add_argument("--readers", type=int, default=4, help="public standings readers")
    parser.add_argument("--reader-pause", type=float, default=0.0,
                        help="seconds a reader waits between reads (0: back to back)")  # fmt: skip
    parser.add_argument("--paced-reader-pause", type=float, default=20.0,
                        help="the paced model's readers' pause (a venue TV's reload)")  # fmt: skip
    parser.add_argument("--paced-phones", type=int, default=200,
                        help="phones of the paced model (0: none)")  # fmt: skip
    parser.add_argument("--rates", type=float, nargs="+", default=list(RATES),
                        help="results per second of the paced model, tried upwards")  # fmt: skip
    parser.add_argument("--layout", choices=("one", "scaled", "both"), default="one",
                        help="one server (make prod), the scaled stack's load balancer "
                             "(scripts/prod --scaled), or both, one after the other")  # fmt: skip
    parser.add_argument("--web-nodes", type=int, default=2, help="scaled: web nodes")
    parser.add_argument("--workers", type=int, default=2, help="scaled: Celery workers")
    parser.add_argument("--all-rates", action="store_true",
                        help="play every rate, past the first that misses the goal (to compare "
                             "layouts rate by rate)")  # fmt: skip
    parser.add_argument("--idle-clients", type=int, default=0,
                        help="scaled: PgBouncer's memory for this many more clients")  # fmt: skip
    parser.add_argument("--database", default="amarrako_load")
    args = parser.parse_args()
    layouts = ["one", "scaled"] if args.layout == "both" else [args.layout]
    measured = [measure(args, layout) for layout in layouts]
    for one in measured:
        report(args, one)
    if len(measured) == 2:
        side_by_side(*measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())
