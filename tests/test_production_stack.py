"""The production stack (``make prod``: gunicorn, a Celery worker and beat under supervisord)
starts with one command against PostgreSQL and Redis, answers /readyz, and comes back by
itself when its web server or its worker is killed. CI only: it needs both services."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
DATABASE = "amarrako_prodstack_test"

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _wait(what: str, check, seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"{what} within {seconds} s; the stack's log ends:\n{log.read_text()[-3000:]}")


@pytest.fixture
def stack(tmp_path, django_db_setup):
    admin = "postgres://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    port = _free_port()
    run_dir = tmp_path / "run"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12",
        "SECRET_KEY": "test-only-secret-key-for-the-production-stack",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "false",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "WORKER_CONCURRENCY": "1",
        "AMARRAKO_RUN_DIR": str(run_dir),
    }
    env.pop("CELERY_RESULT_BACKEND", None)
    log = tmp_path / "stack.log"
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

    try:
        yield f"http://127.0.0.1:{port}", ctl, log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def _pid(ctl, program: str) -> int:
    return int(ctl("pid", program).strip() or 0)


def _niceness(pid: int) -> int:
    """A process's nice value (the 19th field of /proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


@pytest.mark.timeout(150)
def test_the_stack_starts_with_one_command_and_comes_back_when_killed(stack):
    url, ctl, log = stack

    _wait("/readyz answers 200", lambda: _get(f"{url}/readyz")[0] == 200, 60, log)
    _wait("the worker says it is ready", lambda: "ready." in log.read_text(), 30, log)
    _wait(
        "supervisord reports web, worker and beat RUNNING",
        lambda: ctl("status").count("RUNNING") == 3,
        30,
        log,
    )
    worker_lines = [line for line in log.read_text().splitlines() if "celery@" in line]
    assert any(
        json.loads(line)["message"].endswith("ready.") for line in worker_lines if line[:1] == "{"
    )

    # Each gunicorn worker built its URL patterns, catalogues and the link's SQL before its
    # first phone (config/warmup.py), with the database: nothing was left to the first request.
    warm = [json.loads(line) for line in log.read_text().splitlines()
            if line[:1] == "{" and '"config.warmup"' in line]  # fmt: skip
    assert warm and all(line["message"].startswith("warm-up done") for line in warm), warm
    assert all("(4 request threads ready, broker connected)" in line["message"] for line in warm)

    # The phones first: the worker runs at a lower CPU priority than the web server.
    assert _niceness(_pid(ctl, "worker")) == 10
    assert _niceness(_pid(ctl, "web")) == 0

    for program in ("worker", "web"):
        old = _pid(ctl, program)
        os.kill(old, signal.SIGKILL)
        _wait(
            f"supervisord restarts the {program}",
            lambda p=program, o=old: _pid(ctl, p) not in (0, o) and "RUNNING" in ctl("status", p),
            40,
            log,
        )
    _wait("/readyz answers 200 again", lambda: _get(f"{url}/readyz")[0] == 200, 40, log)
    assert "exited: worker (terminated by SIGKILL" in log.read_text()
