"""A federation's Saturday on the production stack: a championship's qualifiers in many centres
at once, then its final fed from them; the same load against the bare insert view in the same
run, side by side; prints the figures, asserts nothing.

Run it from the repository root (PostgreSQL on 127.0.0.1:5432, ``redis-server``, and for the
scaled layout Debian's ``haproxy`` and ``pgbouncer``; it uses a database and a Redis of its own,
see benchmarks/stack.py)::

    .venv/bin/python benchmarks/federation.py                 # 80 centres, 3 rounds at 8 results/s
    .venv/bin/python benchmarks/federation.py --rounds 2 --rate 3  # 40 min on a busy 2-core machine
    .venv/bin/python benchmarks/federation.py --centres 8     # a quick check, ~3 minutes

**The day.** A championship of ``--centres`` centres (peñas, bars), each running its
qualifier at the same time: a Swiss of ``--rounds`` rounds with an even number of pairs drawn
between ``--min-pairs`` and ``--max-pairs`` (8–24: about 16 on average, 1,280 pairs for 80
centres), one phone per pair; per centre ``--tvs`` TVs reading the public standings every
``--tv-pause`` s and ``--spectators`` spectators' phones every ``--spectator-pause`` s; per
centre its organizer, drawing and publishing each round and printing the tables' links
(``GET matches/<id>/history``), all centres at once. That is about 1,700 phones for 80 centres
(printed at the start).

**A round.** The 80 organizers draw at once (their draw's p50 / p99 is printed). Then the
round's results arrive: the tables of every centre finish at random moments, a Poisson
process of ``--rate`` results per second across the whole championship (8 by default: the
peak docs/deploy.md reckons for 80 venues; 640 tables take 80 s). At its table's moment pareja
A reads the table and submits the games (a quick entry), pareja B reads the table, again a
second after each answer until A's result is there, and confirms. A share ``--by-hand`` of the
tables (a tenth by default) keeps the anotador instead: pareja A's phone enters the match hand
by hand (``POST …/hands``, each hand's totals only, as a paper anotador writes them; about ten
hands a match), the hands spread evenly over the ``--hand-span`` seconds (60) before its
table's moment, then sends ``{"hands": "recorded"}`` as the result. That squeezes a match's
hands, which a real anotador sends over three quarters of an hour, into a minute: the hands'
rate (printed) is some thirty times a real Saturday's for the same share, a worst case. The
round ends when every result shows in its centre's public standings; then each organizer
closes the round.

**The bare view, same load.** After each round of the API, the same moments again against
``POST /bench/insert`` (config/benchmark.py: parse JSON, insert one row, answer; mounted by
``BENCHMARK_VIEWS=true``): per table a client A (``GET /healthz``, then an insert; a by-hand
table's A an insert at each of the moments its API hands were sent, as many) and a client B
(``GET /healthz`` every second until A has inserted, then an insert), with the same readers
reading. Its figures are the floor: what the stack costs with none of the service's work.

**The final.** When the last round is closed, every organizer finishes its phase and its
tournament (all at once). The championship's tasks move the qualified pairs (one per 8 that
played, at least one) into the final; the championship's organizer watches its desk
(``GET championships/<id>`` every ``--desk-pause`` s) until every qualifier's pairs are
registered in the final, then starts the final and draws its knockout. Printed: the time from
the last qualifier's end (its answer) to the pairs all in the final, and to the final's first
round drawn and published.

**Figures.** Submission and confirmation p50 / p95 / p99 (API and bare side by side), a hand's
entry, a table read, a standings read; the time from a confirmation's answer to the public
standings showing it — measured by ``--probes`` probe readers (one per centre on the first
centres, reading every ``--probe-pause`` s: the figure, within that pause) and as the TVs and
spectators see it (their own reload pause included); errors (every answer that is not the
expected one, every request without an answer: must be 0); the stack's CPU per confirmed
result, its memory and its connections (``Footprint``, benchmarks/load.py), for the API's
rounds and for the bare view's. Latencies are counted from when a request was due (no
coordinated omission); the client's own CPU and its lag are printed, and the load average
before and after each phase: on a machine shared with other work the figures are not the
stack's alone.

``--layout scaled`` (default) is ``scripts/prod --scaled``: ``--web-nodes`` gunicorn servers
behind HAProxy, PgBouncer in transaction mode, ``--workers`` Celery workers of one process,
beat; ``--layout one`` is ``scripts/prod``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import (  # noqa: E402
    POLL_SECONDS,
    Footprint,
    Paced,
    arrivals,
    due,
    pct,
    summary,
    until,
)
from soak import random_games  # noqa: E402
from stack import Down, Http, Organizer, Stack  # noqa: E402

# A pareja B that still sees no result this long after pareja A's phone is done (answered or
# failed) gives up (counted as an error); it waits as long as A is still sending its hands.
PATIENCE = 60.0
# Hands a by-hand match takes, about (games of 40 won in three or four hands of ~20 stones).
HANDS_GUESS = 10


class Day(Paced):
    """What one phase of the day measured (the API's rounds or the bare view's)."""

    def __init__(self, rate: float) -> None:
        super().__init__(rate)
        self.hands: list[float] = []
        self.probe: list[float] = []  # confirmation → standings, by the probe readers
        self.seen: list[float] = []  # … by the TVs and spectators
        self.by_hand_results = 0
        self.spans: list[float] = []
        self.loads: list[tuple[float, float]] = []
        self.cpu = 0.0

    def error(self, what: str) -> None:
        with self.lock:
            self.errors += 1
            if self.errors <= 10:
                print(f"  error: {what}", flush=True)


@dataclass(eq=False)
class Centre:
    number: int
    pairs: int
    tournament: int = 0
    phase: int = 0
    round_id: int = 0
    tables: list = field(default_factory=list)  # (match id, token, games, entries)
    lock: threading.Lock = field(default_factory=threading.Lock)
    unseen_probe: dict = field(default_factory=dict)  # match → (confirmed at, its entries)
    unseen_public: dict = field(default_factory=dict)
    probed: bool = False


class Desk(Organizer):
    """An organizer whose every call is timed and whose 5xx and failures count as errors."""

    def __init__(self, base: str, token: str, day: dict) -> None:
        super().__init__(base)
        self.token, self.day = token, day

    def call(self, method, path, body=None, expect=(200, 201), keyed=False):
        headers = {"Authorization": f"Token {self.token}"}
        if keyed:
            headers["Idempotency-Key"] = os.urandom(16).hex()
        try:
            answer = self.http.request(method, "/api/v1/" + path, body, headers)
        except Down as error:
            self.day["now"].error(f"{method} {path}: no answer ({error})")
            raise
        if answer.status not in expect:
            self.day["now"].error(f"{method} {path}: {answer.status} {str(answer.body)[:300]}")
            raise RuntimeError(f"{method} {path}: {answer.status} {answer.body}")
        self.seconds = answer.seconds
        return answer.body


# --- setting the championship up ---------------------------------------------------------------


def set_up(base: str, token: str, centres: list[Centre], day: dict, rounds: int) -> dict:
    """The championship, its centres' peñas, qualifiers (running, pairs registered, a Swiss
    phase each) and its final (open for registration)."""
    org = Desk(base, token, day)
    home = org.call("POST", "clubs/create", {"name": "Federación de Mus", "town": "Iruña"})
    champ = org.call(
        "POST",
        "championships/create",
        {"club_id": home["id"], "name": "Campeonato de Mus", "member_changes": 1},
    )
    cid = champ["id"]
    champ = org.call(
        "POST",
        f"championships/{cid}/stages/add",
        {
            "kind": "qualifiers",
            "name": "Clasificatorias",
            "quota_rule": "proportional",
            "quota_number": 8,
            "quota_minimum": 1,
        },
    )
    qualifiers = champ["stages"][0]["id"]
    champ = org.call("POST", f"championships/{cid}/stages/add", {"kind": "final", "name": "Final"})
    final_stage = champ["stages"][1]["id"]
    final = org.call(
        "POST",
        "tournaments/create",
        {
            "club": home["slug"],
            "name": "Final del campeonato",
            "starts_on": "2026-07-11",
            "preset": "8 reyes a 40",
        },
    )
    org.call("POST", f"tournaments/{final['id']}/status", {"status": "registration"})
    org.call(
        "POST",
        f"championships/{cid}/tournaments/add",
        {"stage_id": final_stage, "tournament_id": final["id"]},
    )

    def centre_up(centre: Centre) -> None:
        desk = Desk(base, token, day)
        n = centre.number
        club = desk.call("POST", "clubs/create", {"name": f"Peña Centro {n}", "town": "Iruña"})
        desk.call("POST", f"championships/{cid}/centres/add", {"club_id": club["id"]})
        tid = desk.call(
            "POST",
            "tournaments/create",
            {
                "club": club["slug"],
                "name": f"Clasificatoria {n}",
                "starts_on": "2026-07-04",
                "preset": "8 reyes a 40",
            },
        )["id"]
        desk.call("POST", f"tournaments/{tid}/status", {"status": "registration"})
        desk.call(
            "POST",
            f"championships/{cid}/tournaments/add",
            {"stage_id": qualifiers, "tournament_id": tid},
        )
        text = "\n".join(
            f"Uno{n}x{p} Centro{n} / Dos{n}x{p} Centro{n}" for p in range(centre.pairs)
        )
        desk.call("POST", f"tournaments/{tid}/entries/paste", {"text": text})
        desk.call("POST", f"tournaments/{tid}/status", {"status": "running"})
        phase = desk.call(
            "POST",
            f"tournaments/{tid}/phases/create",
            {"name": "Suizo", "format": "swiss", "rounds_planned": rounds},
        )
        centre.tournament, centre.phase = tid, phase["id"]
        desk.http.close()

    with ThreadPoolExecutor(4) as pool:  # the set-up is not measured: gently
        list(pool.map(centre_up, centres))
    org.http.close()
    return {"id": cid, "final": final["id"]}


# --- the organizers ----------------------------------------------------------------------------


def draw_all(base: str, token: str, centres: list[Centre], day: dict, seed: int) -> list[float]:
    """Every centre's organizer draws and publishes its next round at once and reads its
    tables' links; returns each draw's seconds (generate + publish)."""
    took: list[float] = []

    def one(centre: Centre) -> None:
        rng = random.Random(seed * 1000 + centre.number)
        desk = Desk(base, token, day)
        start = time.monotonic()
        rnd = desk.call("POST", f"phases/{centre.phase}/rounds/generate")
        desk.call("POST", f"rounds/{rnd['id']}/publish")
        took.append(time.monotonic() - start)
        rules = desk.call("GET", f"phases/{centre.phase}")["rules"]
        centre.round_id, centre.tables = rnd["id"], []
        for m in rnd["matches"]:
            if m["kind"] == "bye":
                continue
            token_ = desk.call("GET", f"matches/{m['id']}/history")["token"]
            entries = {m["entry_a"]["id"], m["entry_b"]["id"]}
            centre.tables.append((m["id"], token_, random_games(rng, rules), entries))
        desk.http.close()

    with ThreadPoolExecutor(len(centres)) as pool:
        list(pool.map(one, centres))
    return took


def close_all(base: str, token: str, centres: list[Centre], day: dict) -> list[Centre]:
    """Every organizer closes its round; returns the centres that could not (an error each,
    counted by the desk), which play no further."""
    failed: list[Centre] = []

    def one(centre: Centre) -> None:
        desk = Desk(base, token, day)
        try:
            desk.call("POST", f"rounds/{centre.round_id}/close")
        except (RuntimeError, Down):
            failed.append(centre)
        desk.http.close()

    with ThreadPoolExecutor(len(centres)) as pool:
        list(pool.map(one, centres))
    return failed


# --- the phones --------------------------------------------------------------------------------


def hand_totals(rng: random.Random, running: dict, target: int) -> dict:
    """A hand as a paper anotador writes it, its totals only: one pair's good hand, the other
    pair's few stones kept below the target (both reaching it needs the hand lance by lance)."""
    state = running["state"]
    stones, mano = state["stones"], state.get("next_mano") or "A1"
    won = rng.choice("AB")
    lost = "B" if won == "A" else "A"
    big = rng.randint(10, 25)
    small = min(rng.randint(1, 5), max(0, target - 1 - stones[lost]))
    mano_won = mano[0] == won
    return {"totals": {"mano": big if mano_won else small, "postre": small if mano_won else big}}


def api_table(
    base: str,
    run: Day,
    centre: Centre,
    table: tuple,
    at: float,
    by_hand: bool,
    hand_span: float,
    rng: random.Random,
    hands_sent: list,
) -> list[threading.Thread]:
    """The two phones of a table that finishes at ``at``."""
    match_id, token, games, entries = table
    path = f"/api/v1/table/{token}"
    a_done: list[float] = []  # when pareja A's phone was done: B's patience counts from there

    def quick(http: Http) -> None:
        answer, read, done = due(http, at, "GET", path)
        body = {"side": "a", "version": answer.body["match"]["version"], "games": games}
        sent, submit, done = due(
            http, done, "POST", f"{path}/result", body, {"Idempotency-Key": f"a-{token}"}
        )
        run.answered(done)
        with run.lock:
            run.requests += 2
            run.writes += 1
            run.reads.append(read)
            run.submit.append(submit)
        if sent.status != 200:
            run.error(f"submission {sent.status} {str(sent.body)[:200]}")

    def hands(http: Http) -> None:
        start = max(run.start, at - hand_span)
        gap = max(0.25, (at - start) / HANDS_GUESS)
        answer, read, done = due(http, start, "GET", path)
        with run.lock:
            run.requests += 1
            run.reads.append(read)
        version, finished, number, moment = answer.body["match"]["version"], False, 0, start
        running, target = answer.body["running"], answer.body["rules"]["stones_per_game"]
        if not running["state"].get("next_mano"):
            running = {"state": {**running["state"], "next_mano": answer.body["first_mano"]}}
        while not finished:
            moment = max(moment + gap, done) if number else done
            until(moment)
            number += 1
            added, seconds, done = due(
                http,
                moment,
                "POST",
                f"{path}/hands",
                {"version": version, "hand": hand_totals(rng, running, target)},
                {"Idempotency-Key": f"h{number}-{token}"},
            )
            with run.lock:
                run.requests += 1
                run.writes += 1
                run.hands.append(seconds)
            if added.status not in (200, 201):
                run.error(f"hand {added.status} {str(added.body)[:200]}")
                return
            hands_sent.append(moment - run.start)
            version, running = added.body["match"]["version"], added.body["running"]
            finished = running["state"]["finished"]
        since = max(at, done)
        until(since)
        body = {"side": "a", "version": version, "hands": "recorded"}
        sent, submit, done = due(
            http, since, "POST", f"{path}/result", body, {"Idempotency-Key": f"a-{token}"}
        )
        run.answered(done)
        with run.lock:
            run.requests += 1
            run.writes += 1
            run.submit.append(submit)
            run.by_hand_results += 1
        if sent.status != 200:
            run.error(f"submission (hands) {sent.status} {str(sent.body)[:200]}")

    def a() -> None:
        until(max(run.start, at - hand_span) if by_hand else at)
        http = Http(base, timeout=60)
        try:
            if not by_hand:
                run.lag.append(time.monotonic() - at)
            (hands if by_hand else quick)(http)
        except Down as error:
            run.error(f"pareja A: {error}")
        finally:
            a_done.append(time.monotonic())
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
                if a_done and done - a_done[0] > PATIENCE:
                    raise Down(f"no result at table {match_id} {PATIENCE} s after A was done")
                since = done + POLL_SECONDS
                until(since)
            body = {"side": "b", "version": answer.body["match"]["version"]}
            sent, confirm, done = due(
                http,
                done,
                "POST",
                f"{path}/result/confirm",
                body,
                {"Idempotency-Key": f"b-{token}"},
            )
            run.answered(done)
            with run.lock:
                run.requests += 1
                run.writes += 1
                run.confirm.append(confirm)
            if sent.status != 200:
                run.error(f"confirmation {sent.status} {str(sent.body)[:200]}")
                return
            with centre.lock:
                centre.unseen_public[match_id] = (done, entries)
                if centre.probed:
                    centre.unseen_probe[match_id] = (done, entries)
        except Down as error:
            run.error(f"pareja B: {error}")
        finally:
            http.close()

    return [threading.Thread(target=a), threading.Thread(target=b)]


def bare_table(base: str, run: Day, at: float, n: int, hands: list) -> list[threading.Thread]:
    """The bare view in a table's shape: A inserts a row at each of its API hands' moments
    (``hands``, from the phase's start), then at ``at`` reads ``/healthz`` and inserts; B reads
    ``/healthz`` at ``at``, every second until A has inserted, then inserts."""
    inserted = threading.Event()

    def insert(http: Http, since: float, into: list[float]) -> float:
        sent, seconds, done = due(
            http, since, "POST", "/bench/insert", {"client": n, "games": [[40, 12]]}
        )
        run.answered(done)
        with run.lock:
            run.requests += 1
            run.writes += 1
            into.append(seconds)
        if sent.status != 201:
            run.error(f"bare insert {sent.status}")
        return done

    def a() -> None:
        http = Http(base, timeout=60)
        try:
            since = at
            for moment in hands:  # as late as the API's were, if they were
                until(run.start + moment)
                since = max(at, insert(http, run.start + moment, run.hands))
            until(since)
            if not hands:
                run.lag.append(time.monotonic() - at)
            _, read, done = due(http, since, "GET", "/healthz")
            with run.lock:
                run.requests += 1
                run.reads.append(read)
            insert(http, done, run.submit)
        except Down as error:
            run.error(f"bare A: {error}")
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
        except Down as error:
            run.error(f"bare B: {error}")
        finally:
            http.close()

    return [threading.Thread(target=a), threading.Thread(target=b)]


def play(run: Day, times: list[float], phones) -> None:
    """One phase: ``phones(at, n)`` gives the threads of the n-th table, finishing at ``at``
    seconds from the phase's start; a thread per phone, started before its moment."""
    load, cpu = os.getloadavg()[0], time.process_time()
    run.start = time.monotonic() + 2.0  # two seconds to start the threads
    threads = [t for n, at in enumerate(times) for t in phones(run.start + at, n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run.spans.append(run.span())
    run.end = 0.0
    run.loads.append((load, os.getloadavg()[0]))
    run.cpu += time.process_time() - cpu


# --- the readers -------------------------------------------------------------------------------


def reader(
    base: str,
    centre: Centre,
    day: dict,
    stop: threading.Event,
    pause: float,
    probe: bool,
    rng: random.Random,
) -> None:
    """Reads the centre's public standings every ``pause`` s (the first read at a random
    moment within it); notes when each confirmed result first shows."""
    http = Http(base, timeout=60)
    unseen = centre.unseen_probe if probe else centre.unseen_public
    if stop.wait(rng.uniform(0, pause)):
        return
    while True:
        run: Day = day["now"]
        try:
            answer = http.request("GET", f"/api/v1/phases/{centre.phase}/standings")
        except Down as error:
            run.error(f"standings read: {error}")
            if stop.wait(pause):
                break
            continue
        seen = time.monotonic()
        with run.lock:
            run.standings.append(answer.seconds)
            run.requests += 1
        if answer.status != 200:
            run.error(f"standings read {answer.status}")
        else:
            rows = {r["entry_id"]: r["played"] for g in answer.body["groups"] for r in g["rows"]}
            api: Day = day["api"]
            with centre.lock:
                for match_id, (at, entries) in list(unseen.items()):
                    if all(rows.get(e, 0) >= day["round"] for e in entries):
                        with api.lock:
                            (api.probe if probe else api.seen).append(seen - at)
                        del unseen[match_id]
        if stop.wait(pause):
            break
    http.close()


# --- the final ---------------------------------------------------------------------------------


def finish_and_final(
    base: str, token: str, centres: list[Centre], champ: dict, day: dict, desk_pause: float
) -> dict:
    """Every organizer finishes its qualifier at once; the championship's organizer waits for
    the qualified pairs in the final and draws it. Returns the moments, from the last end."""
    ends: list[float] = []

    def finish(centre: Centre) -> None:
        desk = Desk(base, token, day)
        desk.call("POST", f"phases/{centre.phase}/finish")
        desk.call("POST", f"tournaments/{centre.tournament}/status", {"status": "finished"})
        ends.append(time.monotonic())
        desk.http.close()

    with ThreadPoolExecutor(len(centres)) as pool:
        list(pool.map(finish, centres))
    last = max(ends)
    org = Desk(base, token, day)
    deadline = last + 600
    while True:
        board = org.call("GET", f"championships/{champ['id']}")
        ours = {c.tournament for c in centres}  # those that played to the end
        stops = [s for s in board["stages"][0]["tournaments"] if s["tournament_id"] in ours]
        quota = sum(s["quota"] or 0 for s in stops)
        placed = sum(1 for s in stops for q in s["qualified"] if q["next_entry_id"])
        if all(s["flowed_at"] for s in stops) and quota and placed == quota:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"the final has {placed} of {quota} qualified pairs after 600 s")
        time.sleep(desk_pause)
    flowed = time.monotonic()
    final = champ["final"]
    org.call("POST", f"tournaments/{final}/status", {"status": "running"})
    phase = org.call(
        "POST",
        f"tournaments/{final}/phases/create",
        {"name": "Eliminatoria", "format": "single_elimination"},
    )
    rnd = org.call("POST", f"phases/{phase['id']}/rounds/generate")
    org.call("POST", f"rounds/{rnd['id']}/publish")
    drawn = time.monotonic()
    org.http.close()
    return {
        "pairs": quota,
        "spread": last - min(ends),
        "flowed": flowed - last,
        "drawn": drawn - last,
        "matches": len(rnd["matches"]),
    }


# --- the day -----------------------------------------------------------------------------------


def measure(args) -> dict:
    rng = random.Random(args.seed)
    lo, hi = (args.min_pairs + 1) // 2, args.max_pairs // 2
    centres = [Centre(n, 2 * rng.randint(lo, hi)) for n in range(1, args.centres + 1)]
    for centre in centres[: args.probes]:
        centre.probed = True
    pairs = sum(c.pairs for c in centres)
    readers = args.tvs + args.spectators
    phones = pairs + len(centres) * (readers + 1)
    print(
        f"== the day: {len(centres)} centres, {pairs} pairs ({min(c.pairs for c in centres)}–"
        f"{max(c.pairs for c in centres)} a centre), {args.rounds} Swiss rounds; phones: {pairs} "
        f"at the tables, {len(centres) * args.tvs} TVs, {len(centres) * args.spectators} "
        f"spectators, {len(centres)} organizers, {phones} in all; {args.rate:g} results/s, "
        f"{100 * args.by_hand:.0f} % of the tables hand by hand; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    scaled = args.layout == "scaled"
    stack = Stack(
        database=args.database,
        extra_env={"BENCHMARK_VIEWS": "true"},
        scaled=scaled,
        web_nodes=args.web_nodes,
        workers=args.workers,
        worker_concurrency=1 if scaled else 2,
    )
    api, bare = Day(args.rate), Day(args.rate)
    day = {"now": api, "api": api, "round": 0}
    with stack:
        print(f"== stack at {stack.base} ({args.layout}); log {stack.log_path}", flush=True)
        login = Organizer(stack.base)
        login.login()
        token = login.token
        started = time.monotonic()
        champ = set_up(stack.base, token, centres, day, args.rounds)
        print(f"set up in {time.monotonic() - started:.0f} s", flush=True)
        stop = threading.Event()
        watchers = []
        for centre in centres:
            pauses = [args.tv_pause] * args.tvs + [args.spectator_pause] * args.spectators
            for n, pause in enumerate(pauses):
                watchers.append(
                    threading.Thread(
                        target=reader,
                        args=(
                            stack.base,
                            centre,
                            day,
                            stop,
                            pause,
                            False,
                            random.Random(centre.number * 100 + n),
                        ),
                    )
                )
            if centre.probed:
                watchers.append(
                    threading.Thread(
                        target=reader,
                        args=(
                            stack.base,
                            centre,
                            day,
                            stop,
                            args.probe_pause,
                            True,
                            random.Random(centre.number),
                        ),
                    )
                )
        for watcher in watchers:
            watcher.start()
        api_cpu, bare_cpu = Footprint(stack), Footprint(stack)
        draws: list[float] = []
        playing = list(centres)
        draw_walls: list[float] = []
        try:
            for number in range(1, args.rounds + 1):
                day["now"] = api
                start = time.monotonic()
                draws += draw_all(stack.base, token, playing, day, args.seed + number)
                draw_walls.append(time.monotonic() - start)
                tables = [(c, t) for c in playing for t in c.tables]
                random.Random(number).shuffle(tables)
                times = arrivals(args.rate, len(tables), args.seed + number)
                by_hand = [rng.random() < args.by_hand for _ in tables]
                hands: list[list[float]] = [[] for _ in tables]
                day["round"] = number
                api.tables += len(tables)
                api_cpu.begin()
                play(
                    api,
                    times,
                    lambda at, n, t=tables, h=hands, b=by_hand, r=number: api_table(
                        stack.base,
                        api,
                        t[n][0],
                        t[n][1],
                        at,
                        b[n],
                        args.hand_span,
                        random.Random(r * 100_000 + n),
                        h[n],
                    ),
                )
                deadline = time.monotonic() + 3 * max(args.tv_pause, args.spectator_pause)
                while time.monotonic() < deadline and any(
                    c.unseen_public or c.unseen_probe for c in centres
                ):
                    time.sleep(0.2)  # every result is in the public standings
                api_cpu.end()
                missing = sum(len(c.unseen_public) for c in playing)
                if missing:
                    api.error(f"round {number}: {missing} results not in the standings")
                out = close_all(stack.base, token, playing, day)
                playing = [c for c in playing if c not in out]
                print(
                    f"round {number}: API played ({len(tables)} tables, "
                    f"{sum(by_hand)} by hand), load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                day["now"] = bare
                bare.tables += len(tables)
                bare_cpu.begin()
                play(bare, times, lambda at, n, h=hands: bare_table(stack.base, bare, at, n, h[n]))
                bare_cpu.end()
                print(
                    f"round {number}: bare played, load average {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
            day["now"] = api
            final = finish_and_final(stack.base, token, playing, champ, day, args.desk_pause)
        finally:
            stop.set()
            for watcher in watchers:
                watcher.join()
        confirmed = len(api.confirm)
        footprints = {
            "API rounds (from the first phone to the last result in the standings)": (
                api_cpu.report(confirmed)
            ),
            "bare view's rounds (per B insert: a table's second write)": bare_cpu.report(
                len(bare.confirm)
            ),
        }
        served = stack.lb_served() if scaled else None
    return {
        "centres": centres,
        "pairs": pairs,
        "phones": phones,
        "api": api,
        "bare": bare,
        "draws": draws,
        "draw_walls": draw_walls,
        "final": final,
        "footprints": footprints,
        "served": served,
        "dropped": len(centres) - len(playing),
    }


def report(args, m: dict) -> None:
    api, bare = m["api"], m["bare"]
    cells = ((api, "API"), (bare, "bare"))
    print(
        f"\n######## a federation's Saturday: {len(m['centres'])} centres, {m['pairs']} pairs, "
        f"{m['phones']} phones; {args.layout} layout; {args.rate:g} results/s; "
        f"{api.tables} tables in {args.rounds} rounds"
    )
    loads = [x for run in (api, bare) for pair in run.loads for x in pair]
    print(
        f"  load average during the phases {min(loads):.1f}–{max(loads):.1f} on "
        f"{os.cpu_count()} cores (above ~{os.cpu_count()}: the machine was shared)"
    )
    print(f"  {'':26} {'API (p50 / p95 / p99 ms)':>34} | bare view")
    rows = (
        ("result submission", "submit"),
        ("result confirmation", "confirm"),
        ("hand entry (by hand)", "hands"),
        ("table read", "reads"),
        ("standings read", "standings"),
    )

    def cell(values: list[float]) -> str:
        if not values:
            return "-"
        return f"{pct(values, 50):5.0f} / {pct(values, 95):5.0f} / {pct(values, 99):5.0f}"

    for name, attr in rows:
        print(f"  {name:26} {cell(getattr(api, attr)):>34} | {cell(getattr(bare, attr))}")
    for run, name in cells:
        span = sum(run.spans) or 1e-9
        print(
            f"  {name:4}: {len(run.confirm)} results ({run.by_hand_results} by hand), "
            f"{len(run.hands)} hands ({len(run.hands) / span:.1f}/s), {run.writes} writes, "
            f"{run.requests} requests over "
            f"{span:.0f} s of play ({run.writes / span:.1f} writes/s); errors {run.errors}; "
            f"client CPU {100 * run.cpu / span:.0f} % of a core, lag p99 "
            f"{pct(run.lag, 99):.0f} ms"
        )
    print(
        f"  confirmation → public standings, probes every {args.probe_pause:g} s on "
        f"{min(args.probes, len(m['centres']))} centres: {summary(api.probe)} "
        f"({len(api.probe)} results)"
    )
    print(
        f"  confirmation → public standings, as the TVs and spectators see it (their reload "
        f"included): {summary(api.seen)} ({len(api.seen)} results)"
    )
    walls = ", ".join(f"{w:.1f}" for w in m["draw_walls"])
    print(
        f"  the organizers' draws, {len(m['centres'])} at once: {summary(m['draws'])}; "
        f"all of them in {walls} s per round"
    )
    f = m["final"]
    print(
        f"  the final: {f['pairs']} qualified pairs; the qualifiers ended within "
        f"{f['spread']:.1f} s of each other; from the last one's end: all pairs in the final "
        f"{f['flowed']:.1f} s, its first round ({f['matches']} matches) drawn and published "
        f"{f['drawn']:.1f} s"
    )
    print(
        f"  errors: {api.errors + bare.errors} (API {api.errors}, bare {bare.errors}); "
        f"centres that could not close a round and stopped: {m['dropped']}"
    )
    for what, lines in m["footprints"].items():
        print(f"== footprint over the {what}")
        for line in lines:
            print(line)
    if m["served"] is not None:
        print(f"  requests the balancer sent each node: {m['served']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add = parser.add_argument
    add("--centres", type=int, default=80, help="qualifiers at once")
    add("--min-pairs", type=int, default=8)
    add("--max-pairs", type=int, default=24)
    add("--rounds", type=int, default=3, help="Swiss rounds of each qualifier")
    add("--rate", type=float, default=8.0, help="results per second, the whole championship")
    add("--by-hand", type=float, default=0.1, help="share of the tables entered hand by hand")
    add(
        "--hand-span",
        type=float,
        default=60.0,
        help="seconds over which a by-hand table's hands are sent, before its moment",
    )
    add("--tvs", type=int, default=1, help="TVs per centre")
    add("--tv-pause", type=float, default=20.0)
    add("--spectators", type=int, default=3, help="spectators' phones per centre")
    add("--spectator-pause", type=float, default=30.0)
    add("--probes", type=int, default=8, help="centres with a probe reader")
    add("--probe-pause", type=float, default=1.0)
    add("--desk-pause", type=float, default=0.5, help="the final's organizer's desk reloads")
    add("--layout", choices=("one", "scaled"), default="scaled")
    add("--web-nodes", type=int, default=2)
    add("--workers", type=int, default=2)
    add("--seed", type=int, default=2026)
    add("--database", default="amarrako_federation")
    args = parser.parse_args()
    report(args, measure(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
