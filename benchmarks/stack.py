"""The production stack for the soak and the load benchmarks: started, faulted, stopped.

Responsible for: ``Stack`` — a PostgreSQL database of its own (dropped and created), a
``redis-server`` of its own on a free port (so the machine's Redis is never stopped), and
``scripts/prod`` (gunicorn, a Celery worker and beat under supervisord) against both, with the
faults a soak needs: SIGKILL the worker, stop Redis and start it again (empty: what it held is
lost), kill the web server. ``Http``, a small keep-alive HTTP client for one simulated phone
(stdlib only: no HTTP library is in the lock), and ``Organizer``, the desk's calls through
the API with a token, each retried while the stack is restarting.

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
from dataclasses import dataclass, field
from pathlib import Path

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


def kill_session(sid: int) -> None:
    """SIGKILL every process left in session ``sid`` (scripts/prod starts one; supervisord puts
    each program in a process group of its own, but they stay in its session)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                os.kill(int(stat.parent.name), signal.SIGKILL)


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

    def __post_init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=f"{self.database}-"))
        self.port = free_port()
        self.redis_port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
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
            "WORKER_CONCURRENCY": str(self.worker_concurrency),
            "RECONCILE_SECONDS": str(self.reconcile_seconds),
            "AMARRAKO_RUN_DIR": str(self.dir / "run"),
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        for name in ("CELERY_RESULT_BACKEND", "CI", "CELERY_TEST_BROKER_URL"):
            self.env.pop(name, None)
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
                [str(ROOT / "scripts" / "prod")],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait("/readyz answers 200", lambda: self.ready(), START_PATIENCE)
        self.wait(
            "web, worker and beat RUNNING",
            lambda: self.ctl("status").count("RUNNING") == 3,
            RESTART_PATIENCE,
        )
        self.wait("the worker is ready", lambda: "ready." in self.log(), RESTART_PATIENCE)
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

    def ready(self) -> bool:
        try:
            return Http(self.base, timeout=3).request("GET", "/readyz").status == 200
        except Down:
            return False

    def wait(self, what: str, check, seconds: float) -> float:
        """Wait until ``check()`` is true; returns the seconds it took."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            with contextlib.suppress(OSError, Down):
                if check():
                    return time.monotonic() - start
            time.sleep(0.2)
        raise RuntimeError(f"not {what} within {seconds} s; the log ends:\n{self.log()[-3000:]}")

    def ctl(self, *args: str) -> str:
        command = [
            str(ROOT / ".venv/bin/supervisorctl"),
            "-c",
            str(ROOT / "deploy/supervisord.conf"),
        ]
        return subprocess.run(
            [*command, *args], env=self.env, capture_output=True, text=True, timeout=30
        ).stdout

    def pid(self, program: str) -> int:
        text = self.ctl("pid", program).strip()
        return int(text) if text.isdigit() else 0

    # --- faults -----------------------------------------------------------------------------

    def kill_worker(self) -> None:
        """SIGKILL the worker's main process and its pool (supervisord starts a new one)."""
        old = self.pid("worker")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(os.getpgid(old), signal.SIGKILL)
        self.wait(
            "the worker restarted",
            lambda: (
                self.pid("worker") not in (0, old) and "RUNNING" in self.ctl("status", "worker")
            ),
            RESTART_PATIENCE,
        )

    def kill_web(self) -> None:
        """SIGKILL gunicorn's master and its workers, as a crash would: the requests they held
        get no answer, the phones retry; supervisord starts a new server."""
        old = self.pid("web")
        children = subprocess.run(
            ["pgrep", "-P", str(old)], capture_output=True, text=True
        ).stdout.split()
        for pid in [old, *map(int, children)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def wait_web(self) -> float:
        return self.wait("the web server answers again", self.ready, RESTART_PATIENCE)

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
