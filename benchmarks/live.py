"""The live push under load: spectators' streams and the phones of a round, against the
production stack (``scripts/prod``: gunicorn, the live push's uvicorn, a worker, beat, on a
database and a Redis of their own: benchmarks/stack.py); prints the figures, asserts nothing.

    .venv/bin/python benchmarks/live.py                       # 2,000 spectators, 200 phones
    .venv/bin/python benchmarks/live.py --spectators 200 --phones 40 --broadcasts 10  # short

In order, on one tournament of ``--phones`` pairs (a table's two phones each):

1. **Phones without spectators**: round 1, every phone at once (benchmarks/load.py's burst:
   pareja A reads its table and submits, pareja B reads it every second until A's games are
   there, then confirms): the submissions' and confirmations' p50/p99.
2. ``--spectators`` streams open on the tournament's public stream (``/live/torneos/…``),
   asyncio clients in this process: the uvicorn process's memory (RSS) before and after, per
   idle stream.
3. **Broadcasts**: ``--broadcasts`` events published one every 200 ms (``config.live``'s own
   script, from this process): publish → each stream's arrival, p50/p99 over every (stream,
   event), and the uvicorn process's CPU per broadcast.
4. **Phones with the spectators connected**: round 2, the same burst: submissions and
   confirmations p50/p99 side by side with round 1, and each confirmation → its
   ``result_confirmed`` event at every spectator (from the moment pareja B sent it).
5. **A node killed**: uvicorn is SIGKILLed, ``--broadcasts`` events are published while it is
   down, supervisord starts it again, every stream reconnects with its Last-Event-ID: seconds
   from the kill until every spectator has every missed event.

Each spectator, like static/js/live.js, fetches its page again after an event (the public
standings, ``X-Amarrako-Live: 1``, 100–800 ms later, one fetch for a burst) from gunicorn:
the figures count those fetches, their p50/p99 and errors, and "confirmation → every screen
updated" is until each spectator's page was fetched again after the event (config/live_pages.py
renders it once per event). ``--no-refetch`` leaves them out (the streams alone).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from load import Run, draw, pct, phone_a, summary  # noqa: E402
from stack import Down, Http, Organizer, Stack, children  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def uvicorn_pid(stack: Stack) -> int:
    """The uvicorn process (supervisord's ``live`` is deploy/stacklog.py running it)."""
    wrapper = stack.pid("live")
    for pid in children(wrapper):
        if b"uvicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
            return pid
    return wrapper


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Spectators:
    """``count`` SSE clients in a thread of their own (one asyncio loop), reconnecting with
    their Last-Event-ID as a browser does; each notes when each event id reached it."""

    def __init__(self, port: int, path: str, count: int, page: tuple[int, str] | None) -> None:
        self.port, self.path, self.count = port, path, count
        self.page = page  # (gunicorn's port, the page's path) fetched again after an event
        self.fetch_ms: list[float] = []
        self.fetch_errors = 0
        self.updated: dict[int, list[float]] = {}  # event id -> when a page showed it
        self.waiting: list[list[int]] = [[] for _ in range(count)]
        self.arrivals: dict[int, list[float]] = {}  # event id -> arrival times
        self.matches: dict[int, int] = {}  # match id of a result_confirmed -> event id
        self.last: list[int | None] = [None] * count
        self.open = 0
        self.loop = asyncio.new_event_loop()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        with contextlib.suppress(asyncio.CancelledError):
            self.loop.run_until_complete(self._all())

    async def _all(self) -> None:
        await asyncio.gather(*(self._one(n) for n in range(self.count)))

    async def _one(self, n: int) -> None:
        await asyncio.sleep(n * 0.002)  # not all in one millisecond
        while not self.stop.is_set():
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                last = self.last[n]
                head = f"GET {self.path} HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                head += f"Last-Event-ID: {last}\r\n" if last is not None else ""
                writer.write((head + "\r\n").encode())
                status = await reader.readline()
                if b" 200 " not in status:
                    raise ConnectionError(status)
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass
                self.open += 1
                try:
                    await self._read(n, reader)
                finally:
                    self.open -= 1
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(2.0 + random.random())  # EventSource's retry: 2000

    async def _read(self, n: int, reader) -> None:
        event: dict = {}
        while not self.stop.is_set():
            line = await reader.readline()
            if not line:
                return
            line = line.rstrip(b"\n")
            if line.startswith(b"id: "):
                event["id"] = int(line[4:])
            elif line.startswith(b"data: "):
                event.update(json.loads(line[6:]))
            elif not line and "id" in event:
                now = time.monotonic()
                self.last[n] = event["id"]
                self.arrivals.setdefault(event["id"], []).append(now)
                if event.get("kind") == "result_confirmed":
                    self.matches[event["match"]] = event["id"]
                if self.page is not None:
                    if not self.waiting[n]:
                        self.loop.create_task(self._refetch(n))
                    self.waiting[n].append(event["id"])
                event = {}

    async def _refetch(self, n: int) -> None:
        """live.js's fetch of the page after an event (a burst makes one)."""
        await asyncio.sleep(0.1 + random.random() * 0.7)
        port, path = self.page
        ids, self.waiting[n] = self.waiting[n], []
        ids = ids or []
        started = time.monotonic()
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(
                f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Amarrako-Live: 1\r\n\r\n".encode()
            )
            status = await reader.readline()
            await reader.read()
            if b" 200 " not in status:
                raise ConnectionError(status)
            now = time.monotonic()
            self.fetch_ms.append(now - started)  # seconds, as summary() takes them
            for seq in ids:
                self.updated.setdefault(seq, []).append(now)
        except (OSError, ConnectionError):
            self.fetch_errors += 1
        finally:
            if writer is not None:
                writer.close()

    def close(self) -> None:
        self.stop.set()
        for task in asyncio.all_tasks(self.loop):
            self.loop.call_soon_threadsafe(task.cancel)
        self.thread.join(10)


def phone_b(base: str, run: Run, token: str, match_id: int, sent_at: dict) -> None:
    """Pareja B as in benchmarks/load.py, noting when it sent its confirmation."""
    http = Http(base, timeout=60)
    try:
        while True:
            answer = http.request("GET", f"/api/v1/table/{token}")
            if answer.body["match"]["status"] == "submitted":
                break
            time.sleep(1.0)
        body = {"side": "b", "version": answer.body["match"]["version"]}
        sent_at[match_id] = time.monotonic()
        sent = http.request("POST", f"/api/v1/table/{token}/result/confirm", body,
                            {"Idempotency-Key": f"b-{token}"})  # fmt: skip
        with run.lock:
            run.confirm.append(sent.seconds)
            run.errors += sent.status != 200
    except Down:
        with run.lock:
            run.errors += 1
    finally:
        http.close()


def play_round(stack: Stack, org: Organizer, phase: dict, rng, sent_at: dict) -> Run:
    rnd, tables = draw(org, phase, rng)
    run = Run()
    with ThreadPoolExecutor(max_workers=2 * len(tables)) as pool:
        for match_id, token, games, _entries in tables:
            pool.submit(phone_a, stack.base, run, token, games)
            pool.submit(phone_b, stack.base, run, token, match_id, sent_at)
    # every confirmation's follow-ups done before the round closes
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            org.call("POST", f"rounds/{rnd['id']}/close")
            break
        except Exception:
            time.sleep(1)
    return run


def publisher(stack: Stack):
    """config.live's publish, run from this process on the stack's Redis."""
    os.environ.update({k: v for k, v in stack.env.items() if k != "PATH"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from config import live

    return live


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--broadcasts", type=int, default=30)
    parser.add_argument("--no-refetch", action="store_true", help="the streams alone")
    args = parser.parse_args()
    rng = random.Random(25)

    with Stack(
        database=f"amarrako_live_{os.getpid()}",
        extra_env={"LIVE_MAX_STREAMS": str(args.spectators + 1000), "LIVE_HEARTBEAT": "15"},
    ) as stack:
        org = Organizer(stack.base)
        org.login()
        club = org.call("POST", "clubs/create", {"name": "Peña En Vivo", "town": "Iruña"})
        t = org.call("POST", "tournaments/create", {
            "club": club["slug"], "name": "En vivo", "starts_on": "2026-07-07",
            "preset": "8 reyes a 40"})  # fmt: skip
        org.call("POST", f"tournaments/{t['id']}/status", {"status": "registration"})
        text = "\n".join(f"Uno{n} Vivo{n} / Dos{n} Vivo{n}" for n in range(args.phones))
        org.call("POST", f"tournaments/{t['id']}/entries/paste", {"text": text})
        org.call("POST", f"tournaments/{t['id']}/status", {"status": "running"})
        phase = org.call("POST", f"tournaments/{t['id']}/phases/create",
                         {"name": "Suizo", "format": "swiss", "rounds_planned": 3})  # fmt: skip
        path = f"/live/torneos/{club['slug']}/{t['slug']}/"
        live = publisher(stack)
        uvicorn = uvicorn_pid(stack)
        tables = args.phones // 2

        print(f"Live push: {args.spectators} spectators, {args.phones} phones ({tables} tables)")
        alone = play_round(stack, org, phase, rng, {})
        print(f"  phones alone         submit {summary(alone.submit)}  confirm "
              f"{summary(alone.confirm)}  errors {alone.errors}")  # fmt: skip

        before = rss_mb(uvicorn)
        page = None
        if not args.no_refetch:
            web_port = int(stack.base.rstrip("/").rsplit(":", 1)[1].split("/")[0])
            page = (web_port, f"/torneos/{club['slug']}/{t['slug']}/clasificacion/")
        crowd = Spectators(stack.live_port, path, args.spectators, page)
        crowd.start()
        deadline = time.monotonic() + 120
        while crowd.open < args.spectators and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)
        after = rss_mb(uvicorn)
        print(f"  {crowd.open} streams open: uvicorn RSS {before:.1f} → {after:.1f} MB, "
              f"{1024 * (after - before) / max(crowd.open, 1):.1f} kB per idle stream")  # fmt: skip

        sent: dict[int, float] = {}
        cpu = cpu_seconds(uvicorn)
        for n in range(args.broadcasts):
            seq = live._publish(t["id"], json.dumps({"kind": "bench", "public": True, "n": n}))
            sent[seq] = time.monotonic()
            time.sleep(0.2)
        time.sleep(1.5)
        spent = cpu_seconds(uvicorn) - cpu
        lags = [a - sent[s] for s in sent for a in crowd.arrivals.get(s, [])]
        reached = sum(len(crowd.arrivals.get(s, [])) for s in sent)
        print(f"  broadcast → every stream  {summary(lags)}  "
              f"({reached}/{len(sent) * crowd.open} arrivals); uvicorn CPU "
              f"{1000 * spent / max(len(sent), 1):.1f} ms per broadcast")  # fmt: skip

        confirmed_at: dict[int, float] = {}
        busy = play_round(stack, org, phase, rng, confirmed_at)
        print(f"  phones + spectators  submit {summary(busy.submit)}  confirm "
              f"{summary(busy.confirm)}  errors {busy.errors}")  # fmt: skip
        time.sleep(2)
        to_screens = [
            a - confirmed_at[m]
            for m, seq in crowd.matches.items()
            if m in confirmed_at
            for a in crowd.arrivals.get(seq, [])
        ]
        print(f"  confirmation sent → result_confirmed at every spectator {summary(to_screens)} "
              f"({len(to_screens)} arrivals of {len(confirmed_at)} × {crowd.open})")  # fmt: skip
        updated = [
            a - confirmed_at[m]
            for m, seq in crowd.matches.items()
            if m in confirmed_at
            for a in crowd.updated.get(seq, [])
        ]
        if page is not None:
            print(f"  confirmation sent → every spectator's page fetched again {summary(updated)} "
                  f"({len(updated)} pages); the spectators' fetches {summary(crowd.fetch_ms)} "
                  f"({len(crowd.fetch_ms)} fetches, {crowd.fetch_errors} errors)")  # fmt: skip
        print(f"  side by side, p99 ms: submit {pct(alone.submit, 99):.0f} alone / "
              f"{pct(busy.submit, 99):.0f} with spectators; confirm {pct(alone.confirm, 99):.0f}"
              f" / {pct(busy.confirm, 99):.0f}")  # fmt: skip

        # a node killed: events published while it is down reach everybody once it is back
        killed = time.monotonic()
        os.kill(uvicorn, signal.SIGKILL)  # its wrapper exits with it; supervisord starts both
        missed = [
            live._publish(t["id"], json.dumps({"kind": "bench", "public": True, "down": n}))
            for n in range(args.broadcasts)
        ]
        deadline = killed + 300
        while time.monotonic() < deadline:
            if all(len(crowd.arrivals.get(s, [])) >= args.spectators for s in missed):
                break
            time.sleep(0.2)
        back = time.monotonic() - killed
        caught = sum(
            1 for n in range(args.spectators) if (crowd.last[n] or 0) >= max(missed, default=0)
        )
        print(
            f"  uvicorn killed: {caught}/{args.spectators} spectators caught up with "
            f"{len(missed)} missed events {back:.1f} s after the kill (restart included)"
        )
        crowd.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
