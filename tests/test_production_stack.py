"""The production stack (``make prod``: gunicorn, a Celery worker and beat under supervisord)
starts with one command against PostgreSQL and Redis, answers /readyz, writes a log whose every
line is one JSON object with its time in UTC and its request id, and comes back by itself when
its worker or its web server is killed: a SIGKILLed gunicorn master serves again within
seconds, however many phones were connected. CI only: it needs PostgreSQL and ``redis-server``.

Each run has a database of its own (``amarrako_prodstack_<pid>_<random>``) and a
``redis-server`` of its own on a free port (the machine's Redis is never touched), both
removed in ``finally`` whatever happens.

Time: the waits are generous bounds against a hang, not measurements (this machine: the stack
is up in 20–35 s, migrations included; a restarted worker or web server in under 10 s); the one
timing the test asserts is the web server's outage after its master is killed, bounded by what
the stack's own first start of gunicorn took (so a slow machine is measured against itself).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 10.0) -> tuple[int, bytes, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def _wait(what: str, check, seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if check():
                return
        time.sleep(0.2)
    pytest.fail(f"{what} within {seconds} s; the stack's log ends:\n{log.read_text()[-3000:]}")


def _alive(pid: int) -> bool:
    """Running, not a zombie nobody has reaped yet (an orphan's parent may be a container's
    init that never reaps)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _kill_session(sid: int) -> None:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[3]) == sid:
                os.kill(int(stat.parent.name), signal.SIGKILL)


@pytest.fixture
def stack(tmp_path, django_db_setup):
    if shutil.which("redis-server") is None:
        pytest.fail("the stack test starts its own redis-server, which is not on the PATH")
    database = f"amarrako_prodstack_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    port, redis_port, live_port = _free_port(), _free_port(), _free_port()
    run_dir = tmp_path / "run"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis_port}/0",
        "SECRET_KEY": "test-only-secret-key-for-the-production-stack",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "false",
        "BIND": f"127.0.0.1:{port}",
        "LIVE_BIND": f"127.0.0.1:{live_port}",
        "WEB_CONCURRENCY": "2",
        "WORKER_CONCURRENCY": "1",
        "AMARRAKO_RUN_DIR": str(run_dir),
    }
    for name in ("CELERY_RESULT_BACKEND", "CACHE_URL", "WORKER_NICE", "LOG_FORMAT"):
        env.pop(name, None)
    log = tmp_path / "stack.log"
    redis = process = None
    try:
        redis = subprocess.Popen(
            ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        # As `make prod > stack.log` does: a file the shell opened for writing, not appending.
        with log.open("wb") as out:
            process = subprocess.Popen(
                [str(BASE_DIR / "scripts" / "prod")],
                cwd=BASE_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def ctl(*args: str) -> str:
            command = [str(BASE_DIR / ".venv" / "bin" / "supervisorctl")]
            command += ["-c", str(BASE_DIR / "deploy" / "supervisord.conf"), *args]
            return subprocess.run(command, env=env, capture_output=True, text=True).stdout

        yield f"http://127.0.0.1:{port}", ctl, log
    finally:
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=120)  # supervisord waits up to 60 s for a task to finish
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            _kill_session(process.pid)  # what a killed supervisord left (each program has a
            # process group of its own, but stays in the session scripts/prod started)
        if redis is not None:
            redis.kill()
            redis.wait()
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def _pid(ctl, program: str) -> int:
    text = ctl("pid", program).strip()
    return int(text) if text.isdigit() else 0


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(child) for child in found.split()]


def _niceness(pid: int) -> int:
    """A process's nice value (the 19th field of /proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


def _lines(log: Path) -> list[dict]:
    """Every line of the log, each of which must be one JSON object."""
    lines = log.read_text().split("\n")
    assert lines[-1] == "", "the log ends in the middle of a line"
    records = []
    for number, line in enumerate(lines[:-1], start=1):
        try:
            records.append(json.loads(line))
        except ValueError:
            pytest.fail(f"line {number} of the stack's log is not one JSON object: {line!r}")
    return records


def _moment(record: dict) -> dt.datetime:
    return dt.datetime.fromisoformat(record["time"])


class Phones:
    """Phones on keep-alive connections, each reading its table about twice a second, as a
    round's phones do while the web server is killed."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url.removeprefix("http://"), count
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.phone, daemon=True) for _ in range(count)]

    def phone(self) -> None:
        import http.client

        host, port = self.url.split(":")
        conn = None
        while not self.stop.is_set():
            try:
                conn = conn or http.client.HTTPConnection(host, int(port), timeout=10)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
            except (OSError, http.client.HTTPException):
                conn = None
            self.stop.wait(0.5)

    def __enter__(self) -> Phones:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=15)


def _outage_after_killing_the_master(url: str, ctl, log: Path) -> float:
    """SIGKILL gunicorn's master alone, as a crash would, with phones connected; the seconds
    until a request sent once every process of the old server is gone is answered 200."""
    master = _pid(ctl, "web")
    workers = _children(master)
    assert workers, "gunicorn's master has no workers"
    with Phones(url, 12):
        time.sleep(2)  # every phone has its connection open
        killed = time.monotonic()
        os.kill(master, signal.SIGKILL)
        while time.monotonic() - killed < 180:  # a bound against a hang; 62–69 s were seen
            if any(_alive(pid) for pid in [master, *workers]):
                time.sleep(0.05)
                continue
            with contextlib.suppress(OSError):
                if _get(f"{url}/healthz", timeout=30)[0] == 200:
                    return time.monotonic() - killed
            time.sleep(0.1)
    pytest.fail(f"the web server did not come back; the log ends:\n{log.read_text()[-3000:]}")


def _first_start_of_gunicorn(records: list[dict]) -> float:
    """Seconds from supervisord's first spawn of the web server to its last worker's warm-up:
    what a start of gunicorn costs on this machine, under a start's load (the worker and beat
    start beside it)."""
    spawned = next(r for r in records if r["message"].startswith("spawned: 'web'"))
    warm = [r for r in records if r["logger"] == "config.warmup"]
    return (_moment(warm[1]) - _moment(spawned)).total_seconds()


@pytest.mark.timeout(900)  # a hang guard: ~60 s here, the waits below bound every step
def test_the_stack_starts_with_one_command_logs_json_and_comes_back_when_killed(stack):
    url, ctl, log = stack

    _wait("/readyz answers 200", lambda: _get(f"{url}/readyz")[0] == 200, 300, log)
    _wait("the worker says it is ready", lambda: "ready." in log.read_text(), 120, log)
    _wait(
        "supervisord reports web, live, worker and beat RUNNING",
        lambda: ctl("status").count("RUNNING") == 4,
        120,
        log,
    )

    # Requests whose paths would break a line built by formatting a string.
    newline = _get(f"{url}/x%0Ay")
    quote = _get(f"{url}/a%22b%5Cc")
    assert newline[0] == quote[0] == 404
    # gunicorn writes a request's access line after its answer: it may reach the log later.
    _wait(
        "both requests are in the access log",
        lambda: (
            quote[2]["X-Request-ID"] in log.read_text()
            and newline[2]["X-Request-ID"] in log.read_text()
        ),
        60,
        log,
    )

    records = _lines(log)
    # One clock: UTC, ISO 8601 with its offset; and every line says its request ("-": none).
    assert all(r["time"].endswith("+00:00") and _moment(r) for r in records)
    assert all("request_id" in r for r in records)
    loggers = {r["logger"] for r in records}
    assert {"supervisord", "manage.migrate", "gunicorn.error", "gunicorn.access"} <= loggers
    assert {"celery.apps.worker", "celery.beat", "django.request", "config.warmup"} <= loggers
    access = {r["path"]: r for r in records if r["logger"] == "gunicorn.access"}
    assert access["/x\ny"]["request_id"] == newline[2]["X-Request-ID"]
    assert access['/a"b\\c']["status"] == 404
    not_found = [r for r in records if r["logger"] == "django.request"]
    assert newline[2]["X-Request-ID"] in {r["request_id"] for r in not_found}
    assert any(r["message"].endswith("ready.") for r in records if "celery@" in r["message"])

    # Each gunicorn worker built its URL patterns, catalogues and the link's SQL before its
    # first phone (config/warmup.py), with the database: nothing was left to the first request.
    warm = [r for r in records if r["logger"] == "config.warmup"]
    assert warm and all(r["message"].startswith("warm-up done") for r in warm), warm
    assert all("(4 request threads ready, broker connected)" in r["message"] for r in warm)

    # No nice by default: a lower priority starved a restarted worker on a busy machine.
    assert _niceness(_pid(ctl, "worker")) == 0
    assert _niceness(_pid(ctl, "web")) == 0

    old = _pid(ctl, "worker")
    os.killpg(old, signal.SIGKILL)  # the worker and its pool, as the OOM killer would
    _wait(
        "supervisord restarts the worker",
        lambda: _pid(ctl, "worker") not in (0, old) and "RUNNING" in ctl("status", "worker"),
        120,
        log,
    )

    first_start = _first_start_of_gunicorn(_lines(log))
    outage = _outage_after_killing_the_master(url, ctl, log)
    print(f"\nweb server back {outage:.1f} s after its master was killed "
          f"(its first start took {first_start:.1f} s)")  # fmt: skip
    # Back within what a start of gunicorn costs here, and 5 s for supervisord to see the
    # exit and start it (the orphaned workers held the port for a minute before).
    assert outage <= first_start + 5, (outage, first_start)
    _wait("/readyz answers 200 again", lambda: _get(f"{url}/readyz")[0] == 200, 120, log)
    text = log.read_text()
    assert "Connection in use" not in text
    assert "exited: worker (terminated by SIGKILL" in text
    assert "exited: web (terminated by SIGKILL" in text
    _lines(log)  # still one JSON object per line, the restarts' lines included
