"""The production stack for the soak and the load benchmarks: started, faulted, stopped.

Responsible for: ``Stack`` — a PostgreSQL database of its own (dropped and created), a
``redis-server`` of its own on a free port (so the machine's Redis is never stopped), and
``scripts/prod`` (gunicorn, a Celery worker and beat under supervisord) against both, with the
faults a soak needs: SIGKILL the worker, stop Redis and start it again (empty: what it held is
lost), kill the web server. ``Stack(scaled=True)`` is ``scripts/prod --scaled`` instead: web
nodes behind HAProxy (``base`` is the balancer's address, ``node_base(n)`` a node's own),
PgBouncer, several workers and one beat, each on free ports; its faults hit one web node or
one worker, and it can kill PgBouncer; ``lb_servers()`` and ``pgbouncer()`` read what the
balancer and the pooler report. ``Http``, a small keep-alive HTTP client for one simulated
phone (stdlib only: no HTTP library is in the lock), and ``Organizer``, the desk's calls
through the API with a token, each retried while the stack is restarting.

Must not: check anything (the soak does) or time anything (the load does).

Both scripts run from the repository root with the project's virtual environment; they need
PostgreSQL on 127.0.0.1:5432 (user postgres) and ``redis-server`` on the PATH.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
# Bounds against a hang, not measurements: far above what each step takes on a slow, loaded
# machine (the stack's start, migrations included, took 20-35 s here and 71 s on a loaded
# one; a restarted process is up in under 10 s), so that only a stuck stack trips them.
START_PATIENCE = 600.0
RESTART_PATIENCE = 180.0
POSTGRES = os.environ.get("SOAK_POSTGRES", "postgres://postgres@127.0.0.1:5432")
USER, PASSWORD = "soak", "soak-organizer-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports (the scaled layout's web nodes)."""
    for _ in range(200):
        first = free_port()
        if first + count > 65535:
            continue
        with contextlib.ExitStack() as held:
            try:
                for port in range(first, first + count):
                    s = held.enter_context(socket.socket())
                    s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return first
    raise RuntimeError(f"no {count} consecutive free ports")


def kill_session(sid: int) -> None:
    """SIGKILL every process left in session ``sid`` (scripts/prod starts one; supervisord puts
    each program in a process group of its own, but they stay in its session)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                os.kill(int(stat.parent.name), signal.SIGKILL)


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(child) for child in found.split()]


class Down(Exception):
    """The server did not answer (refused, reset, timed out): the phone tries again."""


@dataclass
class Answer:
    status: int
    headers: dict
    body: object
    seconds: float


class Http:
    """One phone's connection: keep-alive, reopened after any error."""

    def __init__(self, base: str, timeout: float = 15.0) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port, self.timeout = host, int(port), timeout
        self.conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> Answer:
        data = json.dumps(body).encode() if body is not None else None
        sent = {"Accept-Language": "en", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        for attempt in (1, 2):
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=sent)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                # A kept-alive connection the server closed meanwhile: open a new one once.
                if (
                    reused
                    and attempt == 1
                    and isinstance(
                        error,
                        http.client.RemoteDisconnected | BrokenPipeError | ConnectionResetError,
                    )
                ):
                    continue
                raise Down(f"{type(error).__name__}: {error}") from error
            seconds = time.perf_counter() - start
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode(errors="replace")[:200]
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          parsed, seconds)  # fmt: skip
        raise AssertionError("unreachable")


class Organizer:
    """The organizer's desk through the API (token), patient while the stack restarts."""

    def __init__(self, base: str, patience: float = 180.0) -> None:
        self.http = Http(base, timeout=60)
        self.patience = patience
        self.token = ""

    def call(self, method: str, path: str, body=None, expect=(200, 201), keyed=False) -> object:
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        if keyed:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        deadline = time.monotonic() + self.patience
        while True:
            try:
                answer = self.http.request(method, "/api/v1/" + path, body, headers)
                if answer.status < 500:
                    break
            except Down:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{method} {path}: no answer within {self.patience} s")
            time.sleep(0.5)
        if answer.status not in expect:
            raise RuntimeError(f"{method} {path}: {answer.status} {answer.body}")
        return answer.body

    def login(self) -> None:
        self.token = self.call("POST", "auth/token", {"username": USER, "password": PASSWORD})[
            "token"
        ]


@dataclass
class Stack:
    """The production stack on its own database and its own Redis."""

    database: str
    redis_db: int = 12
    web_concurrency: int | None = None
    web_threads: int | None = None
    worker_concurrency: int = 2
    reconcile_seconds: int = 30
    extra_env: dict = field(default_factory=dict)
    # scripts/prod --scaled: web nodes behind HAProxy, PgBouncer, ``workers`` workers of
    # ``worker_concurrency`` processes each, one beat
    scaled: bool = False
    web_nodes: int = 2
    workers: int = 2
    live_nodes: int = 2

    def __post_init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=f"{self.database}-"))
        self.port = free_port()
        self.redis_port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.live_port = free_port()  # the live push's uvicorn (one-server layout)
        conf = "supervisord-scaled.conf" if self.scaled else "supervisord.conf"
        self.conf = ROOT / "deploy" / conf
        # web, live, worker, beat; scaled: the web nodes, the live nodes, the workers, beat, the
        # balancer and PgBouncer
        self.programs = self.web_nodes + self.live_nodes + self.workers + 3 if self.scaled else 4
        self.database_url = f"{POSTGRES}/{self.database}"
        self.log_path = self.dir / "stack.log"
        self.redis_process: subprocess.Popen | None = None
        self.process: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/{self.redis_db}",
            "SECRET_KEY": "soak-only-secret-key-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_COOKIES": "false",
            "BIND": f"127.0.0.1:{self.port}",
            "LIVE_BIND": f"127.0.0.1:{self.live_port}",
            "WORKER_CONCURRENCY": str(self.worker_concurrency),
            "RECONCILE_SECONDS": str(self.reconcile_seconds),
            "AMARRAKO_RUN_DIR": str(self.dir / "run"),
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        for name in ("CELERY_RESULT_BACKEND", "CI", "CELERY_TEST_BROKER_URL"):
            self.env.pop(name, None)
        if self.scaled:
            self.node_port = free_ports(self.web_nodes)
            self.pgbouncer_port = free_port()
            self.env.update(
                WEB_NODES=str(self.web_nodes),
                WEB_NODE_PORT=str(self.node_port),
                LIVE_NODES=str(self.live_nodes),
                LIVE_NODE_PORT=str(free_ports(self.live_nodes)),
                WORKERS=str(self.workers),
                PGBOUNCER_PORT=str(self.pgbouncer_port),
            )
        if self.web_concurrency:
            self.env["WEB_CONCURRENCY"] = str(self.web_concurrency)
        if self.web_threads:
            self.env["WEB_THREADS"] = str(self.web_threads)

    # --- start and stop ---------------------------------------------------------------------

    def _admin(self):
        return psycopg.connect(f"{POSTGRES}/postgres", autocommit=True)

    def start(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.database}"')
        self.redis_start()
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                [str(ROOT / "scripts" / "prod"), *(["--scaled"] if self.scaled else [])],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait("/readyz answers 200", lambda: self.ready(), START_PATIENCE)
        self.wait(
            f"all {self.programs} programs RUNNING",
            lambda: self.ctl("status").count("RUNNING") == self.programs,
            RESTART_PATIENCE,
        )
        workers = self.workers if self.scaled else 1
        self.wait(
            "the workers are ready",
            lambda: self.log().count("ready.") >= workers,
            RESTART_PATIENCE,
        )
        if self.scaled:
            for node in range(1, self.web_nodes + 1):
                self.wait(f"node {node} ready", lambda n=node: self.ready(n), RESTART_PATIENCE)
            self.wait("the balancer sees every node ready", self.lb_all_up, RESTART_PATIENCE)
        subprocess.run(
            [str(ROOT / ".venv/bin/python"), "manage.py", "createsuperuser", "--noinput",
             "--username", USER, "--email", "soak@example.org"],
            cwd=ROOT, env={**self.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
                           "DJANGO_ENV": "production"},
            check=True, capture_output=True,
        )  # fmt: skip

    def stop(self, drop: bool = True) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                # supervisord lets a task finish (the worker's stopwaitsecs, 60 s)
                self.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process is not None:
            kill_session(self.process.pid)  # what a killed supervisord left running
        self.redis_stop()
        if drop:
            with contextlib.suppress(psycopg.Error), self._admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    def __enter__(self) -> Stack:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop(drop=os.environ.get("SOAK_KEEP_DATABASE") != "1")

    # --- looking at it ----------------------------------------------------------------------

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def node_base(self, node: int) -> str:
        """A web node's own address (scaled), past the balancer."""
        return f"http://127.0.0.1:{self.node_port + node - 1}"

    def ready(self, node: int | None = None) -> bool:
        """/readyz answers 200: through the balancer (or the one server), or from ``node``."""
        base = self.base if node is None else self.node_base(node)
        http = Http(base, timeout=3)
        try:
            return http.request("GET", "/readyz").status == 200
        except Down:
            return False
        finally:
            http.close()

    def wait(self, what: str, check, seconds: float) -> float:
        """Wait until ``check()`` is true; returns the seconds it took."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            with contextlib.suppress(OSError, Down):
                if check():
                    return time.monotonic() - start
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(
                    f"not {what}: scripts/prod exited ({self.process.returncode}); the log "
                    f"ends:\n{self.log()[-3000:]}"
                )
            time.sleep(0.2)
        raise RuntimeError(f"not {what} within {seconds} s; the log ends:\n{self.log()[-3000:]}")

    def ctl(self, *args: str) -> str:
        command = [str(ROOT / ".venv/bin/supervisorctl"), "-c", str(self.conf)]
        return subprocess.run(
            [*command, *args], env=self.env, capture_output=True, text=True, timeout=30
        ).stdout

    def pid(self, program: str) -> int:
        text = self.ctl("pid", program).strip()
        return int(text) if text.isdigit() else 0

    # --- faults -----------------------------------------------------------------------------

    def program(self, kind: str, number: int = 1) -> str:
        """supervisord's name of a program: ``web`` or, scaled, ``web:web2``."""
        return f"{kind}:{kind}{number}" if self.scaled and kind in ("web", "worker") else kind

    def restarted(self, program: str, old: int) -> bool:
        return self.pid(program) not in (0, old) and "RUNNING" in self.ctl("status", program)

    def kill_worker(self, number: int = 1) -> None:
        """SIGKILL a worker's main process and its pool (supervisord starts a new one)."""
        program = self.program("worker", number)
        old = self.pid(program)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(os.getpgid(old), signal.SIGKILL)
        self.wait(f"{program} restarted", lambda: self.restarted(program, old), RESTART_PATIENCE)

    def kill_web(self, node: int = 1) -> None:
        """SIGKILL gunicorn's master and its workers (scaled: of web node ``node``), as a crash
        would: the requests they held get no answer (the balancer sends a read or a keyed
        write again to another node), the phones retry; supervisord starts a new server."""
        old = self.pid(self.program("web", node))
        for pid in [old, *children(old)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def wait_web(self, node: int = 1) -> float:
        """Seconds until the server (scaled: node ``node``, and the balancer's check of it)
        answers /readyz again."""
        if not self.scaled:
            return self.wait("the web server answers again", self.ready, RESTART_PATIENCE)
        return self.wait(
            f"web node {node} is ready again and back in the balancer",
            lambda: self.ready(node) and self.lb_servers()["ready"][f"web{node}"] == "UP",
            RESTART_PATIENCE,
        )

    def kill_pgbouncer(self) -> int:
        """SIGKILL PgBouncer (scaled), as a crash would: every client connection and every
        transaction in flight is cut (PostgreSQL rolls those back); supervisord starts it
        again (wait_pgbouncer). Returns the pid supervisord knew it by."""
        wrapper = self.pid("pgbouncer")
        for pid in children(wrapper):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return wrapper

    def wait_pgbouncer(self, old: int) -> float:
        def back() -> bool:
            if not self.restarted("pgbouncer", old):
                return False
            with socket.create_connection(("127.0.0.1", self.pgbouncer_port), timeout=1):
                return True

        return self.wait("PgBouncer is back", back, RESTART_PATIENCE)

    # --- what the balancer and the pooler report (scaled) ------------------------------------

    def haproxy(self, command: str) -> str:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.dir / "run" / "haproxy.sock"))
            s.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def lb_stats(self) -> list[dict]:
        """HAProxy's ``show stat``: a dict per frontend, backend and server."""
        lines = self.haproxy("show stat").splitlines()
        names = lines[0].lstrip("# ").split(",")
        return [dict(zip(names, line.split(","), strict=False)) for line in lines[1:] if line]

    def lb_servers(self) -> dict[str, dict[str, str]]:
        """Each backend's servers and their state: ``{"ready": {"web1": "UP", …}, …}``."""
        servers: dict[str, dict[str, str]] = {}
        for row in self.lb_stats():
            if row["svname"] not in ("FRONTEND", "BACKEND"):
                servers.setdefault(row["pxname"], {})[row["svname"]] = row["status"]
        return servers

    def lb_all_up(self) -> bool:
        return all(state == "UP" for state in self.lb_servers()["ready"].values())

    def lb_served(self) -> dict[str, int]:
        """Requests each web node was sent by the balancer (both backends), by node name."""
        served: Counter = Counter()
        for row in self.lb_stats():
            if row["svname"].startswith("web"):
                served[row["svname"]] += int(row["stot"] or 0)
        return dict(served)

    def pgbouncer(self, command: str) -> list[dict]:
        """A command of PgBouncer's admin console (``SHOW POOLS``…), its rows as dicts."""
        user = urlsplit(POSTGRES).username or "postgres"
        with psycopg.connect(
            host="127.0.0.1", port=self.pgbouncer_port, dbname="pgbouncer", user=user,
            autocommit=True, cursor_factory=psycopg.ClientCursor,  # the console: simple queries
        ) as conn:  # fmt: skip
            cursor = conn.execute(command)
            names = [c.name for c in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def redis_start(self) -> None:
        self.redis_process = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=self.env,  # names the run's database: what is left of a run can be found
        )  # fmt: skip
        deadline = time.monotonic() + 60  # ~50 ms here
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5),
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def redis_stop(self) -> None:
        """SIGKILL Redis: what it held (queued tasks, unacknowledged ones) is lost."""
        if self.redis_process is not None and self.redis_process.poll() is None:
            self.redis_process.kill()
            self.redis_process.wait()
        self.redis_process = None
