"""The soak, small: the production stack (``scripts/prod``) on its own database and its own
``redis-server``, 8 pairs through the table links (a Swiss round and a knockout of 4), the
Celery worker SIGKILLed mid-round and Redis killed (its queue lost) while a knockout stage's
last result goes in; then, from the database, every result stored once and as sent, every round
closed and announced, the standings served as computed. ``benchmarks/soak.py --small`` does it
all and exits 1 on any failed check; the full soak is ``benchmarks/soak.py`` (README, Figures).

Bounded by its work (8 pairs, 7 matches, two faults), not by a clock: ``BOUND_SECONDS`` only
stops a hung run, far above what it takes (about a minute here, 71 s for the stack's start alone
on a loaded machine). A run stopped by it gets SIGTERM, on which the soak removes its stack,
its ``redis-server`` and its database; whatever is left after that is killed and dropped here.

CI only: it needs PostgreSQL and ``redis-server`` (it never stops the machine's Redis).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
BOUND_SECONDS = 900  # a hung run's end; ~60 s here
STOP_SECONDS = 180  # the soak's own stop: supervisord lets a task finish (60 s), then the rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # gone meanwhile
        return b""


def _processes_of(database: str) -> list[int]:
    """The processes of a soak run: its stack's and its redis-server, whose environment names
    the run's database (unique to the run). Never PostgreSQL's: a backend serving the database
    names it in its command line, not in its environment."""
    needle = database.encode()
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and needle in _read(entry / "environ")
    ]


def _database_exists(database: str) -> bool:
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database])
        return found.fetchone() is not None


def _leave_nothing_behind(process: subprocess.Popen, database: str) -> None:
    """What a soak that did not stop by itself left: killed, and its database dropped."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for pid in _processes_of(database):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def _start(database: str, out: Path, *args: str, env: dict | None = None) -> subprocess.Popen:
    """``benchmarks/soak.py --small`` with ``args`` (tests/test_scaled_stack.py: --scaled)."""
    if shutil.which("redis-server") is None:
        pytest.fail("the soak starts its own redis-server, which is not on the PATH")
    command = [sys.executable, str(BASE_DIR / "benchmarks" / "soak.py"), "--small", *args]
    command += ["--database", database]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CI")} | (env or {})
    with out.open("wb") as sink:
        return subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen) -> int | None:
    """SIGTERM, as a bound does; the soak's exit status, None if it did not stop."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        return None


@pytest.mark.timeout(BOUND_SECONDS + STOP_SECONDS + 60)
def test_a_small_soak_loses_doubles_and_changes_no_result(django_db_setup, tmp_path):
    database = f"amarrako_soak_ci_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    out = tmp_path / "soak.out"
    process = _start(database, out)
    try:
        try:
            process.wait(timeout=BOUND_SECONDS)
        except subprocess.TimeoutExpired:
            stopped = _stop(process)
            pytest.fail(
                f"the small soak ran for more than {BOUND_SECONDS} s (it takes about a minute) "
                f"and was stopped (exit {stopped}):\n{out.read_text()[-3000:]}"
            )
        stdout = out.read_text()
        left = _processes_of(database)
        dropped = not _database_exists(database)
    finally:
        _leave_nothing_behind(process, database)
    lines = [line for line in stdout.splitlines() if line.startswith("SOAK ")]
    assert lines, f"no figures; exit {process.returncode}:\n{stdout[-3000:]}"
    figures = json.loads(lines[-1].removeprefix("SOAK "))
    assert figures["failures"] == [], stdout[-3000:]
    assert process.returncode == 0
    assert left == [] and dropped, "the soak left processes or its database behind"
    # Everything it claims was exercised: both faults, the retries, a stage made by beat.
    assert [what for what, _ in figures["faults"]] == ["worker", "redis"]
    assert figures["worker_restarts"] >= 1 and figures["replays"] >= 1
    assert figures["matches"] == 4 + 3 and figures["rounds_closed"] == 1 + 2
    assert figures["server_errors"] == 0 and figures["standings_after_last_fault_s"] <= 60


@pytest.mark.timeout(STOP_SECONDS + 300)
def test_a_soak_stopped_by_its_bound_leaves_nothing_behind(django_db_setup, tmp_path):
    # A run stopped by a bound (SIGTERM) once left its redis-server and its database behind.
    database = f"amarrako_soak_ci_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    process = _start(database, tmp_path / "soak.out")
    try:
        # Stopped while its stack starts: its redis-server, database and supervisord are up.
        deadline = time.monotonic() + 240  # a bound against a hang; ~5 s here
        while not any(
            b"supervisord" in _read(Path(f"/proc/{pid}/cmdline")) for pid in _processes_of(database)
        ):
            assert process.poll() is None, (tmp_path / "soak.out").read_text()[-3000:]
            assert time.monotonic() < deadline, "the soak's stack never started"
            time.sleep(0.2)
        status = _stop(process)
        left = _processes_of(database)
        dropped = not _database_exists(database)
    finally:
        _leave_nothing_behind(process, database)

    assert status == 128 + signal.SIGTERM, (tmp_path / "soak.out").read_text()[-3000:]
    assert left == [], "processes of the soak left running"
    assert dropped, "the soak's database left behind"
