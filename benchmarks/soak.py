"""The soak: a Saturday of phones against the production stack while it is faulted; checks that
no result is lost, doubled or wrong, and prints the figures.

Run it from the repository root (PostgreSQL on 127.0.0.1:5432 and ``redis-server`` installed;
it never touches the machine's Redis nor any database but its own)::

    .venv/bin/python benchmarks/soak.py                 # 200 pairs, 10 Swiss rounds, top 16 KO
    .venv/bin/python benchmarks/soak.py --small         # 8 pairs, what tests/test_soak.py runs
    .venv/bin/python benchmarks/soak.py --scaled        # the same on scripts/prod --scaled
    .venv/bin/python benchmarks/soak.py --scaled --small  # what tests/test_scaled_stack.py runs

What it does (benchmarks/stack.py starts the stack):

1. the production stack (``scripts/prod``: gunicorn, Celery worker and beat under supervisord)
   on a database of its own (``amarrako_soak``, dropped and created) and a ``redis-server`` of
   its own on a free port;
2. the organizer, through the API with a token: a peña, a tournament, the pairs pasted, a
   Swiss phase, then a knockout of the best (``single_elimination`` from the Swiss);
3. each round: the organizer draws and publishes it and reads each match's table link; two
   phones per table (threads, one keep-alive connection each) play it through the link: pareja
   A submits the games, pareja B waits for them and confirms; at 10 % of tables both phones
   submit the same games at once; 20 % of the writes that got an answer are sent again with the
   same Idempotency-Key (a phone that lost the answer) and must get the same answer, marked as
   a replay; a write that got no answer (server down) or a 5xx is sent again, same key, until
   it gets one. The organizer closes the round once every match is confirmed; in the knockout
   it waits for the next stage to appear by itself;
4. faults, at set points of set rounds (``FAULTS``): SIGKILL of the Celery worker, Redis
   killed (its queue lost) and started again after ``--outage`` seconds, the web server
   killed; in the knockout, Redis is down while a stage's last result goes in (its follow-up
   task is lost: beat's reconciliation must create the next stage) and the web server is
   killed during the last results of the next stage;
5. the checks, from the database: every match confirmed once (one ``result_confirmed`` audit
   entry) with the games its phones sent; every submission stored once (the stored keys are
   exactly those the phones got an answer for); every round closed with its "round complete"
   notification; the served standings (``GET /api/v1/phases/<id>/standings``) equal to the
   standings computed from the confirmed results (``standings_compute``, and a tally of what
   the phones sent), within 60 s of the end of the last fault.

``--scaled``: the same day on the scaled layout (``scripts/prod --scaled``: two web nodes
behind HAProxy, PgBouncer, two workers, one beat); the phones and the organizer talk to the
load balancer only. Its faults hit one web node (the other keeps serving; the balancer sends a
request the dead node held again to the other when that is harmless: a read, a write with an
Idempotency-Key), one of the two workers, Redis, and PgBouncer (SIGKILLed: every database
connection of every process is cut, transactions in flight are rolled back, and the requests
that needed the database meanwhile are answered 500 and sent again by the phones; those are
counted apart, ``outage_5xx``, and any other 5xx fails the run). It checks too that both nodes
served the phones (HAProxy's counts, ``served_by_node``).

It prints the figures and one JSON line (``SOAK {...}``), and exits 1 when a check fails.
Beat reconciles every ``--reconcile`` seconds (30 here; production's default is 60).

SIGTERM (or Ctrl-C) stops it cleanly: the stack, its ``redis-server`` and its database are
removed before it exits (tests/test_soak.py relies on it when its bound runs out).

Its waits are bounds against a hang, far above what the work takes on a slow machine, except
one, which is a claim checked: the standings served as computed within ``STANDINGS_DEADLINE``
(60 s) of the end of the last fault (the README's figure; beat reconciles every 5 s in the
small soak, and they took under 10 s here).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import threading
import time
import traceback
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stack import ROOT, Down, Http, Organizer, Stack  # noqa: E402

STANDINGS_DEADLINE = 60.0
LAST = 1.0  # a fault's share meaning "while the round's last result goes in"
# A phone gives up a write after this long without an answer: a bound against a hang (the
# longest outage the soak makes is Redis's, 30 s; a killed web server is back in seconds).
PHONE_PATIENCE = 240.0
# The knockout's next stage appears by itself (the worker, or beat's reconciliation after the
# Redis outage): seconds, here; this is a bound against a hang.
NEXT_STAGE_PATIENCE = 300.0


# --- What the phones send and what they saw ----------------------------------------------------


@dataclass
class Record:
    """Everything the phones observed; appended to from many threads under ``lock``."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)
    no_answer: int = 0
    server_errors: list = field(default_factory=list)
    unexpected: list = field(default_factory=list)
    replays: int = 0
    replay_mismatch: list = field(default_factory=list)
    stale: int = 0
    stored_keys: dict = field(default_factory=lambda: defaultdict(set))  # match -> keys
    expected: dict = field(default_factory=dict)  # match -> [(winner, a, b), ...]
    faults: list = field(default_factory=list)  # (what, started, ended)
    stages: list = field(default_factory=list)  # seconds until a knockout's next stage

    def note(self, kind: str, answer) -> None:
        with self.lock:
            self.latencies[kind].append(answer.seconds)
            self.statuses[answer.status] += 1
            if answer.status >= 500:
                self.server_errors.append(
                    (kind, answer.status, str(answer.body)[:200], time.time())
                )

    def errors_outside(self, kinds: tuple[str, ...], grace: float) -> tuple[list, int]:
        """The 5xx answers not explained by a fault of ``kinds`` (sent between its start and
        ``grace`` seconds after its end), and how many were."""
        windows = [(s, e + grace) for what, s, e in self.faults if what in kinds]
        inside = [x for x in self.server_errors if any(s <= x[3] <= e for s, e in windows)]
        return [x[:3] for x in self.server_errors if x not in inside], len(inside)


def random_games(rng: random.Random, rules: dict) -> list[dict]:
    """A finished match: games to ``stones_per_game``, the loser of each with fewer stones."""
    target = rules["stones_per_game"]
    needed = rules["games_per_vaca"] * rules["vacas_per_match"]
    won = {"a": 0, "b": 0}
    games = []
    while max(won.values()) < needed:
        winner = rng.choice("ab")
        won[winner] += 1
        loser = rng.randint(0, target - 1)
        games.append({"stones": [target, loser] if winner == "a" else [loser, target]})
    return games


def games_key(games: list[dict]) -> list[tuple]:
    return [("A" if a > b else "B", a, b) for a, b in (g["stones"] for g in games)]


class Phone:
    """One pair's phone at one table, talking to the table's link only."""

    def __init__(self, base: str, record: Record, rng: random.Random, table: Table, side: str):
        self.http = Http(base)
        self.record, self.rng, self.table, self.side = record, rng, table, side
        self.path = f"/api/v1/table/{table.token}"

    def get(self) -> dict:
        deadline = time.monotonic() + PHONE_PATIENCE
        while True:
            try:
                answer = self.http.request("GET", self.path)
                self.record.note("table_read", answer)
                if answer.status == 200:
                    return answer.body["match"]
            except Down:
                with self.record.lock:
                    self.record.no_answer += 1
            if time.monotonic() > deadline:
                raise RuntimeError(f"table {self.table.match_id}: no read in {PHONE_PATIENCE} s")
            time.sleep(0.5 + self.rng.random())

    def write(self, action: str, body: dict) -> dict | None:
        """Send until answered; a 409 stale_version reloads and resends with the same key.
        Returns the answer's match, or None when the match was confirmed meanwhile."""
        key = f"{self.side}-{uuid.uuid4().hex}"
        path = f"{self.path}/{action}"
        kind = "submit" if action == "result" else "confirm"
        deadline = time.monotonic() + PHONE_PATIENCE
        while time.monotonic() < deadline:
            try:
                answer = self.http.request("POST", path, body, {"Idempotency-Key": key})
            except Down:
                with self.record.lock:
                    self.record.no_answer += 1
                time.sleep(0.5 + self.rng.random())
                continue
            self.record.note(kind, answer)
            if answer.status >= 500:
                time.sleep(0.5 + self.rng.random())
                continue
            if answer.status == 200:
                with self.record.lock:
                    self.record.stored_keys[self.table.match_id].add(key)
                if self.rng.random() < 0.2:
                    self.replay(path, body, key, answer)
                return answer.body["match"]
            code = (answer.body or {}).get("error", {}).get("code") if isinstance(
                answer.body, dict) else None  # fmt: skip
            if answer.status == 409 and code == "stale_version":
                with self.record.lock:
                    self.record.stale += 1
                match = self.get()
                if match["status"] == "confirmed":
                    return None
                body = {**body, "version": match["version"]}
                continue
            with self.record.lock:
                self.record.unexpected.append(
                    (self.table.match_id, kind, answer.status, answer.body)
                )
            return None
        raise RuntimeError(f"table {self.table.match_id}: {kind} unanswered for {PHONE_PATIENCE} s")

    def replay(self, path: str, body: dict, key: str, first) -> None:
        """The phone lost the answer and sends the same request again."""
        while True:
            try:
                again = self.http.request("POST", path, body, {"Idempotency-Key": key})
            except Down:
                time.sleep(0.5)
                continue
            self.record.note("replay", again)
            if again.status >= 500:
                time.sleep(0.5)
                continue
            break
        same = (
            again.status == 200
            and again.headers.get("idempotent-replayed") == "true"
            and again.body["submission"]["id"] == first.body["submission"]["id"]
        )
        with self.record.lock:
            self.record.replays += 1
            if not same:
                self.record.replay_mismatch.append((self.table.match_id, again.status, again.body))


@dataclass
class Table:
    match_id: int
    token: str
    games: list
    together: bool  # both phones submit at once

    def play(self, base: str, record: Record, rng: random.Random, start: float) -> None:
        a = Phone(base, record, random.Random(rng.random()), self, "a")
        b = Phone(base, record, random.Random(rng.random()), self, "b")
        time.sleep(start)
        if self.together:
            barrier = threading.Barrier(2)

            def both(phone: Phone) -> None:
                version = phone.get()["version"]
                barrier.wait()
                phone.write("result", {"side": phone.side, "version": version, "games": self.games})

            with ThreadPoolExecutor(2) as pool:
                list(pool.map(both, (a, b)))
        else:
            version = a.get()["version"]
            a.write("result", {"side": "a", "version": version, "games": self.games})
            deadline = time.monotonic() + PHONE_PATIENCE
            while time.monotonic() < deadline:
                match = b.get()
                if match["status"] not in ("pending", "in_progress"):
                    break
                time.sleep(0.3)
            if match["status"] != "confirmed":
                b.write("result/confirm", {"side": "b", "version": match["version"]})
        a.http.close()
        b.http.close()


# --- Faults -----------------------------------------------------------------------------------


class Faults:
    """Runs one fault in its own thread when a round's confirmed results reach a share."""

    def __init__(self, stack: Stack, record: Record, outage: float) -> None:
        self.stack, self.record, self.outage = stack, record, outage
        self.threads: list[threading.Thread] = []
        self.hits = Counter()  # scaled: the web node or worker hit next takes turns

    def run(self, what: str, injected: threading.Event | None = None) -> None:
        """Start the fault; ``injected`` is set once it has hit (the process is dead)."""
        injected = injected or threading.Event()

        def go() -> None:
            started = time.time()
            print(f"  fault: {what}", flush=True)
            number = 1
            if self.stack.scaled and what in ("web", "worker"):
                count = self.stack.web_nodes if what == "web" else self.stack.workers
                number = 1 + self.hits[what] % count
                self.hits[what] += 1
            if what == "worker":
                self.stack.kill_worker(number)
                injected.set()
            elif what == "redis":
                self.stack.redis_stop()
                injected.set()
                time.sleep(self.outage)
                self.stack.redis_start()
            elif what == "web":
                self.stack.kill_web(number)
                injected.set()
                self.stack.wait_web(number)
            elif what == "pgbouncer":
                old = self.stack.kill_pgbouncer()
                injected.set()
                self.stack.wait_pgbouncer(old)
            ended = time.time()
            with self.record.lock:
                self.record.faults.append((what, started, ended))

        thread = threading.Thread(target=go, daemon=True)
        thread.start()
        self.threads.append(thread)

    def join(self) -> None:
        for thread in self.threads:
            thread.join()


def play_round(
    org: Organizer,
    stack: Stack,
    record: Record,
    rng: random.Random,
    round_id: int,
    rules: dict,
    faults: Faults,
    plan: list[tuple[float, str]],
    spread: float,
) -> int:
    """Publish the round, play every table through the phones with the planned faults; returns
    the number of tables."""
    rnd = org.call("GET", f"rounds/{round_id}")
    if rnd["status"] == "draft":
        org.call("POST", f"rounds/{round_id}/publish")
    matches = [m for m in rnd["matches"] if m["kind"] != "bye" and m["status"] != "confirmed"]
    tables = []
    for m in matches:
        token = org.call("GET", f"matches/{m['id']}/history")["token"]
        games = random_games(rng, rules)
        record.expected[m["id"]] = {"games": games_key(games), "a": m["entry_a"]["id"],
                                    "b": m["entry_b"]["id"]}  # fmt: skip
        tables.append(Table(m["id"], token, games, together=rng.random() < 0.1))
    done = [0]
    pending = sorted((share, what) for share, what in plan if share < LAST)
    # A fault planned at LAST hits while the round's last table is being played: that table
    # waits until the others are done and the fault has hit, then its phones send.
    last_fault = next((what for share, what in plan if share >= LAST), None)
    held = tables.pop() if last_fault and tables else None
    lock = threading.Lock()

    def one(table: Table) -> None:
        table.play(stack.base, record, rng, rng.random() * spread)
        with lock:
            done[0] += 1
            while pending and done[0] >= pending[0][0] * len(tables):
                faults.run(pending.pop(0)[1])

    with ThreadPoolExecutor(max(1, len(tables))) as pool:
        list(pool.map(one, tables))
    if held is not None:
        injected = threading.Event()
        faults.run(last_fault, injected)
        injected.wait(PHONE_PATIENCE)  # the fault has hit once its process is dead: at once
        held.play(stack.base, record, rng, 0)
        tables.append(held)
    org.call("POST", f"rounds/{round_id}/close")
    return len(tables)


# --- Checks -----------------------------------------------------------------------------------


def django_setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for name in ("CELERY_BROKER_URL", "CI"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


COMPARED = ("entry_id", "rank", "played", "won", "lost", "games_won", "games_lost",
            "stones_won", "stones_lost", "buchholz", "separated_by")  # fmt: skip


def served_rows(org: Organizer, phase_id: int) -> list[dict]:
    groups = org.call("GET", f"phases/{phase_id}/standings")["groups"]
    return [{k: row[k] for k in COMPARED} for g in groups for row in g["rows"]]


def computed_rows(phase_id: int) -> list[dict]:
    from tournaments.models import Phase
    from tournaments.selectors.standings import rows_to_json, standings_compute

    phase = Phase.objects.get(pk=phase_id)
    return [{k: r[k] for k in COMPARED} for t in standings_compute(phase=phase)
            for r in rows_to_json(t)]  # fmt: skip


def tally(record: Record, match_ids: set[int]) -> dict[int, tuple]:
    """Each pair's played, won, games and stones from what the phones sent."""
    rows: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for match_id in match_ids:
        expected = record.expected[match_id]
        games = expected["games"]
        a_games = sum(1 for w, _, _ in games if w == "A")
        b_games = len(games) - a_games
        a_stones, b_stones = sum(g[1] for g in games), sum(g[2] for g in games)
        for entry, won, gw, gl, sw, sl in (
            (expected["a"], a_games > b_games, a_games, b_games, a_stones, b_stones),
            (expected["b"], b_games > a_games, b_games, a_games, b_stones, a_stones),
        ):
            row = rows[entry]
            for i, v in enumerate((1, int(won), gw, gl, sw, sl)):
                row[i] += v
    return {entry: tuple(row) for entry, row in rows.items()}


def check(org: Organizer, record: Record, tournament_id: int, phases: list[int]) -> dict:
    from tournaments.models import AuditEntry, Match, Notification, ResultSubmission, Round

    failures: list[str] = []
    matches = list(
        Match.objects.filter(round__phase__tournament_id=tournament_id)
        .exclude(kind="bye")
        .select_related("round")
    )
    confirmations = Counter(
        AuditEntry.objects.filter(
            tournament_id=tournament_id, action="result_confirmed"
        ).values_list("match_id", flat=True)
    )
    keys = defaultdict(list)
    for match_id, key in ResultSubmission.objects.filter(
        match__round__phase__tournament_id=tournament_id
    ).values_list("match_id", "idempotency_key"):
        keys[match_id].append(key)
    for match in matches:
        expected = record.expected.get(match.pk)
        if expected is None:
            failures.append(f"match {match.pk} was never played by the phones")
            continue
        if match.status != Match.Status.CONFIRMED:
            failures.append(f"match {match.pk} is {match.status}")
            continue
        stored = [(g["winner"], g["stones"]["A"], g["stones"]["B"]) for g in match.result["games"]]
        if stored != [tuple(g) for g in expected["games"]]:
            failures.append(f"match {match.pk}: stored {stored} but the phones sent {expected}")
        if confirmations[match.pk] != 1:
            failures.append(f"match {match.pk} confirmed {confirmations[match.pk]} times")
        if (
            len(keys[match.pk]) != len(set(keys[match.pk]))
            or set(keys[match.pk]) != (record.stored_keys[match.pk])
        ):
            failures.append(
                f"match {match.pk}: stored keys {sorted(keys[match.pk])} but the phones were "
                f"answered for {sorted(record.stored_keys[match.pk])}"
            )
    rounds = list(Round.objects.filter(phase__tournament_id=tournament_id))
    open_rounds = [r.pk for r in rounds if r.status != Round.Status.CLOSED]
    if open_rounds:
        failures.append(f"rounds not closed: {open_rounds}")

    # Standings and notifications: within STANDINGS_DEADLINE of the end of the last fault.
    last_fault = max((ended for _, _, ended in record.faults), default=time.time())
    by_phase = defaultdict(set)
    for match in matches:
        by_phase[match.round.phase_id].add(match.pk)
    converged_at = None
    while True:
        problems = []
        for phase_id in phases:
            served = served_rows(org, phase_id)
            if served != computed_rows(phase_id):
                problems.append(f"phase {phase_id}: served standings differ from the computed")
            expected = tally(record, by_phase[phase_id])
            mine = {r["entry_id"]: r for r in served}
            for entry, (played, won, gw, gl, sw, sl) in expected.items():
                row = mine.get(entry)
                if row is None or (row["played"], row["won"], row["games_won"], row["games_lost"],
                                   row["stones_won"], row["stones_lost"]) != (
                                       played, won, gw, gl, sw, sl):  # fmt: skip
                    problems.append(f"phase {phase_id}: entry {entry} served {row}")
                    break
        notified = set(
            Notification.objects.filter(
                tournament_id=tournament_id, kind="round_complete"
            ).values_list("key", flat=True)
        )
        missing = [r.pk for r in rounds if f"round-complete:{r.pk}" not in notified]
        if missing:
            problems.append(f"rounds without their 'round complete' notification: {missing}")
        if not problems:
            converged_at = time.time()
            break
        if time.time() - last_fault > STANDINGS_DEADLINE:
            failures.extend(problems)
            break
        time.sleep(1)
    return {
        "failures": failures,
        "matches": len(matches),
        "rounds_closed": len(rounds),
        "submissions": sum(len(v) for v in keys.values()),
        "standings_after_last_fault_s": (
            None if converged_at is None else round(max(0.0, converged_at - last_fault), 1)
        ),
    }


# --- The day ----------------------------------------------------------------------------------

# (share of the round's tables confirmed, fault) per round; "ko1" is the knockout's first stage.
FAULTS = {
    2: [(0.5, "worker")],
    3: [(0.3, "redis")],
    5: [(0.5, "web")],
    8: [(0.4, "worker"), (0.7, "web")],
    "ko1": [(LAST, "redis")],  # the stage's last result goes in with Redis down
    "ko2": [(LAST, "web")],  # the web server is down while the stage's last result goes in
}
SMALL_FAULTS = {1: [(0.5, "worker")], "ko1": [(LAST, "redis")]}
# The scaled layout's: one web node (the other serves), one of two workers, PgBouncer, Redis.
SCALED_FAULTS = {
    2: [(0.5, "worker")],
    3: [(0.3, "redis")],
    4: [(0.5, "pgbouncer")],
    5: [(0.5, "web")],
    7: [(0.3, "web"), (0.6, "pgbouncer")],
    8: [(0.4, "worker"), (0.7, "web")],
    "ko1": [(LAST, "redis")],
    "ko2": [(LAST, "pgbouncer")],
}
SMALL_SCALED_FAULTS = {
    1: [(0.25, "web"), (0.5, "pgbouncer"), (0.75, "worker")],
    "ko1": [(LAST, "redis")],
}
# Seconds after PgBouncer is back within which a request can still fail on a connection it cut
# (a thread's next request notices and reconnects: CONN_HEALTH_CHECKS).
PGBOUNCER_GRACE = 5.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="8 pairs, 1 Swiss round, a 4-pair KO")
    parser.add_argument("--scaled", action="store_true",
                        help="scripts/prod --scaled: 2 web nodes behind HAProxy, PgBouncer, "
                             "2 workers, beat (--small: 16 pairs)")  # fmt: skip
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--knockout", type=int, default=16, help="pairs in the knockout")
    parser.add_argument("--outage", type=float, default=30.0, help="seconds Redis stays down")
    parser.add_argument("--reconcile", type=int, default=30, help="beat's RECONCILE_SECONDS")
    parser.add_argument(
        "--spread", type=float, default=20.0, help="seconds over which tables start"
    )
    parser.add_argument("--database", default="amarrako_soak")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    faults_plan = SCALED_FAULTS if args.scaled else FAULTS
    if args.small:
        # scaled: three faults in the Swiss round, so 8 tables, with phones in flight for each
        args.pairs, args.rounds, args.knockout = (16 if args.scaled else 8), 1, 4
        args.outage, args.spread, args.reconcile = min(args.outage, 5.0), 2.0, 5
        faults_plan = SMALL_SCALED_FAULTS if args.scaled else SMALL_FAULTS
    rng = random.Random(args.seed)
    record = Record()
    began = time.time()
    if args.scaled:
        # one web process per node per core's share; two workers of one process, as the
        # one-server soak's one worker of two
        stack = Stack(database=args.database, reconcile_seconds=args.reconcile, scaled=True,
                      web_nodes=2, workers=2, worker_concurrency=1)  # fmt: skip
    else:
        stack = Stack(database=args.database, reconcile_seconds=args.reconcile,
                      worker_concurrency=2)  # fmt: skip
    with stack:
        print(f"stack up in {time.time() - began:.0f} s at {stack.base} (log {stack.log_path})")
        org = Organizer(stack.base)
        org.login()
        club = org.call("POST", "clubs/create", {"name": "Peña Soak", "town": "Iruña"})
        tournament = org.call("POST", "tournaments/create", {
            "club": club["slug"], "name": "Soak", "starts_on": "2026-07-07",
            "preset": "8 reyes a 40"})  # fmt: skip
        tid = tournament["id"]
        org.call("POST", f"tournaments/{tid}/status", {"status": "registration"})
        text = "\n".join(f"Uno{n} Soak{n} / Dos{n} Soak{n}" for n in range(args.pairs))
        org.call("POST", f"tournaments/{tid}/entries/paste", {"text": text})
        org.call("POST", f"tournaments/{tid}/status", {"status": "running"})
        swiss = org.call(
            "POST",
            f"tournaments/{tid}/phases/create",
            {"name": "Suizo", "format": "swiss", "rounds_planned": args.rounds},
        )
        rules = swiss["rules"]
        faults = Faults(stack, record, args.outage)
        tables = 0
        for number in range(1, args.rounds + 1):
            t0 = time.time()
            rnd = org.call("POST", f"phases/{swiss['id']}/rounds/generate")
            tables += play_round(org, stack, record, rng, rnd["id"], rules, faults,
                                 faults_plan.get(number, []), args.spread)  # fmt: skip
            print(f"Swiss round {number}: {time.time() - t0:.0f} s", flush=True)
        knockout = org.call("POST", f"tournaments/{tid}/phases/create", {
            "name": "Eliminatoria", "format": "single_elimination", "source_id": swiss["id"],
            "qualifiers_per_group": args.knockout})  # fmt: skip
        rnd = org.call("POST", f"phases/{swiss['id']}/advance")
        stage = 1
        while rnd is not None:
            t0 = time.time()
            tables += play_round(org, stack, record, rng, rnd["id"], rules, faults,
                                 faults_plan.get(f"ko{stage}", []), 0.5)  # fmt: skip
            print(f"knockout stage {stage}: {time.time() - t0:.0f} s", flush=True)
            bracket = org.call("GET", f"phases/{knockout['id']}/bracket")
            if bracket.get("champion_id"):
                break
            t0 = time.time()
            rnd = None
            while rnd is None and time.time() - t0 < NEXT_STAGE_PATIENCE:
                drafts = [r for r in org.call("GET", f"phases/{knockout['id']}")["rounds"]
                          if r["status"] == "draft"]  # fmt: skip
                rnd = drafts[0] if drafts else None
                time.sleep(0.2 if rnd is None else 0)
            if rnd is None:
                print("the knockout's next stage never appeared", flush=True)
                break
            record.stages.append(round(time.time() - t0, 1))
            stage += 1
        faults.join()
        django_setup(stack.database_url)
        result = check(org, record, tid, [swiss["id"], knockout["id"]])
        if not (org.call("GET", f"phases/{knockout['id']}/bracket").get("champion_id")):
            result["failures"].append("the knockout has no champion")
        log = stack.log()
        figures = {
            "pairs": args.pairs,
            "swiss_rounds": args.rounds,
            "tables_played": tables,
            "requests": sum(record.statuses.values()),
            "no_answer": record.no_answer,
            "status_counts": dict(sorted(record.statuses.items())),
            "server_errors": len(record.server_errors),
            "stale_version_409": record.stale,
            "replays": record.replays,
            "replay_mismatches": len(record.replay_mismatch),
            "unexpected_answers": len(record.unexpected),
            "faults": [(w, round(e - s, 1)) for w, s, e in record.faults],
            "next_stage_seconds": record.stages,
            "worker_restarts": log.count("exited: worker"),
            "web_restarts": log.count("exited: web"),
            "pgbouncer_restarts": log.count("exited: pgbouncer"),
            "reconcile_repairs": log.count("reconciliation repaired"),
            "lost_task_logs": log.count("could not queue"),
            "worker_crash_lines": log.count("Unrecoverable error"),
            "latency_ms": {
                kind: {f"p{p}": round(percentile(v, p)) for p in (50, 95, 99)}
                for kind, v in sorted(record.latencies.items())
            },
            "minutes": round((time.time() - began) / 60, 1),
            **result,
        }
        # A request that needed the database while PgBouncer was down could only fail; the
        # phone sent it again (the checks above say nothing was lost or doubled meanwhile).
        errors, figures["outage_5xx"] = record.errors_outside(("pgbouncer",), PGBOUNCER_GRACE)
        figures["server_errors"] = len(errors)
        if errors:
            figures["failures"].append(f"5xx answers: {errors[:5]}")
        if args.scaled:
            figures["served_by_node"] = stack.lb_served()
            served = figures["served_by_node"]
            if len(served) < 2 or not all(served.values()):
                figures["failures"].append(f"a web node served nothing: {served}")
        if record.unexpected:
            figures["failures"].append(f"unexpected answers: {record.unexpected[:5]}")
        if record.replay_mismatch:
            figures["failures"].append(f"replays that differ: {record.replay_mismatch[:5]}")
    for name, value in figures.items():
        if name != "failures":
            print(f"{name:>30}: {value}")
    for failure in figures["failures"]:
        print(f"FAILED: {failure}")
    print("SOAK " + json.dumps(figures, default=str), flush=True)
    return 1 if figures["failures"] else 0


def _terminate(signum, _frame) -> None:
    """SIGTERM: leave through ``with stack`` (which stops the stack, its redis-server, and drops
    its database), once: a second SIGTERM during that is ignored."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    try:
        code = main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # the stack is cleaned up by then (with stack); say what happened
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    # Not sys.exit: phone threads still retrying against the stack just stopped would keep the
    # process alive for PHONE_PATIENCE; everything of the stack is already cleaned up.
    os._exit(code)
