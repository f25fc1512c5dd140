"""The soak, small: the production stack (``scripts/prod``) on its own database and its own
``redis-server``, 8 pairs through the table links (a Swiss round and a knockout of 4), the
Celery worker SIGKILLed mid-round and Redis killed (its queue lost) while a knockout stage's
last result goes in; then, from the database, every result stored once and as sent, every round
closed and announced, the standings served as computed. ``benchmarks/soak.py --small`` does it
all and exits 1 on any failed check; the full soak is ``benchmarks/soak.py`` (README, Figures).

CI only: it needs PostgreSQL and ``redis-server`` (it never stops the machine's Redis).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[1]
BOUND_SECONDS = 90

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.mark.timeout(BOUND_SECONDS + 30)
def test_a_small_soak_loses_doubles_and_changes_no_result(django_db_setup):
    if shutil.which("redis-server") is None:
        pytest.fail("the soak starts its own redis-server, which is not on the PATH")
    command = [sys.executable, str(BASE_DIR / "benchmarks" / "soak.py"), "--small"]
    command += ["--database", f"amarrako_soak_ci_{os.getpid()}"]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CI")}
    try:
        run = subprocess.run(
            command,
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=BOUND_SECONDS,
        )
    except subprocess.TimeoutExpired as expired:
        out = (expired.stdout or b"")[-3000:]
        pytest.fail(f"the small soak took more than {BOUND_SECONDS} s:\n{out!r}")
    lines = [line for line in run.stdout.splitlines() if line.startswith("SOAK ")]
    assert lines, f"no figures; exit {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    figures = json.loads(lines[-1].removeprefix("SOAK "))
    assert figures["failures"] == [], run.stdout[-3000:]
    assert run.returncode == 0
    # Everything it claims was exercised: both faults, the retries, a stage made by beat.
    assert [what for what, _ in figures["faults"]] == ["worker", "redis"]
    assert figures["worker_restarts"] >= 1 and figures["replays"] >= 1
    assert figures["matches"] == 4 + 3 and figures["rounds_closed"] == 1 + 2
    assert figures["server_errors"] == 0 and figures["standings_after_last_fault_s"] <= 60
