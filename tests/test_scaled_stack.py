"""The scaled layout (``scripts/prod --scaled``): two web nodes behind HAProxy, PgBouncer in
transaction mode in front of PostgreSQL, two Celery workers and one beat, on one machine.

- Through PgBouncer in transaction mode, the processes' setting (``DATABASE_POOLED=true``:
  no prepared statements, no server-side cursors) works where psycopg's prepared statements
  (``DATABASE_PREPARED=true``) fail: PgBouncer 1.18 cannot keep them.
- The stack: every program running, one beat; the web and worker processes reach PostgreSQL
  through PgBouncer, which needs fewer server connections than it has clients; what one node
  learns the other knows (a session logged in on one is served by the other; a table-link
  throttle counted on one holds on the other; a login lock-out too); a dead node costs the
  phones nothing (the balancer sends its requests to the other); with every node unready
  (Redis down) the balancer still serves.
- The small scaled soak (``benchmarks/soak.py --small --scaled``): a Swiss round and a
  knockout of 4 through the load balancer while a web node, a worker, PgBouncer and Redis are
  killed; nothing lost, doubled or changed.

CI only: PostgreSQL, ``redis-server``, and Debian's ``haproxy`` and ``pgbouncer`` (.ci/run
installs them). Each stack has its own database, Redis and ports, removed in ``finally``.
Bounded by work; the waits are bounds against a hang (the stack starts in 50 s here, loaded).
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest
from django.db import connection

from tests.test_soak import (
    BOUND_SECONDS,
    STOP_SECONDS,
    _database_exists,
    _leave_nothing_behind,
    _processes_of,
    _start,
    _stop,
)

BASE_DIR = Path(__file__).resolve().parents[1]
PATH = f"{os.environ.get('PATH', '')}:/usr/sbin:/usr/local/sbin"

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _program(name: str) -> str:
    found = shutil.which(name, path=PATH)
    if found is None:
        pytest.fail(f"the scaled layout needs {name} (.ci/run installs Debian's package)")
    return found


def _load_stack():
    spec = importlib.util.spec_from_file_location(
        "amarrako_stack", BASE_DIR / "benchmarks" / "stack.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- PgBouncer in transaction mode and the database settings ----------------------------------

# Three threads, each with its connection (Django's are per thread), run the same queries in
# turn through a PgBouncer whose pool has one server connection: each transaction of each
# client lands on it. Each query runs more than five times per connection (psycopg prepares a
# statement at its fifth run), in and out of transactions, with a row lock and an iterator.
POOLED_WORK = """
import threading
import django
django.setup()
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections, transaction

print("options", settings.DATABASES["default"].get("OPTIONS", {}),
      settings.DATABASES["default"].get("DISABLE_SERVER_SIDE_CURSORS"), flush=True)
turns = threading.Barrier(3)
failures = []

def client(n):
    try:
        for i in range(8):
            turns.wait(timeout=30)
            list(User.objects.filter(username=f"nobody-{n}-{i}"))
            with transaction.atomic():
                list(User.objects.select_for_update().filter(pk=-n))
            list(User.objects.filter(pk__gt=0).iterator(chunk_size=10))
    except Exception as error:
        failures.append(f"{type(error).__name__}: {error}")
        turns.abort()
    finally:
        connections.close_all()

threads = [threading.Thread(target=client, args=(n,)) for n in (1, 2, 3)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("failures", failures[:1], flush=True)
"""


@pytest.fixture
def pgbouncer(tmp_path, django_db_setup):
    """PgBouncer as the scaled layout configures it (deploy/scaled.py), in front of the test
    database, with a pool of one server connection; yields the URL the processes would use."""
    executable = _program("pgbouncer")
    database = connection.settings_dict["NAME"]  # the test database
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        "AMARRAKO_RUN_DIR": str(tmp_path),
        "PGBOUNCER_PORT": str(_free_port()),
        "PGBOUNCER_POOL_SIZE": "1",
        "PGBOUNCER_RESERVE_POOL_SIZE": "0",
    }
    rendered = subprocess.run(
        [sys.executable, str(BASE_DIR / "deploy" / "scaled.py"), "render"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    pooled = rendered.stdout.strip()
    log = tmp_path / "pgbouncer.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [executable, str(tmp_path / "pgbouncer.ini")], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60  # a bound against a hang; ~10 ms here
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", int(env["PGBOUNCER_PORT"])), 1).close()
                break
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield pooled
    finally:
        process.kill()
        process.wait()


def _through(pooled: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    result = subprocess.run(
        [sys.executable, "-c", POOLED_WORK],
        cwd=BASE_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": pooled, **env},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.splitlines()


@pytest.mark.django_db  # the test database exists (its tables are read through PgBouncer)
def test_through_pgbouncer_the_pooled_setting_works_where_prepared_statements_fail(pgbouncer):
    pooled = _through(pgbouncer, DATABASE_POOLED="true")
    assert pooled == ["options {} True", "failures []"]

    # What DATABASE_POOLED turns off, and why: psycopg's prepared statements of one client
    # meet another's on PgBouncer's one server connection.
    prepared = _through(pgbouncer, DATABASE_POOLED="true", DATABASE_PREPARED="true")
    assert prepared[0] == "options {'server_side_binding': True, 'prepare_threshold': 5} True"
    assert re.search(r"prepared statement \\?\"_pg3_\d+\\?\" (already|does not) exist", prepared[1])


# --- The small scaled soak (before the stack below: one stack at a time) ----------------------


@pytest.mark.timeout(BOUND_SECONDS + STOP_SECONDS + 60)
def test_a_small_scaled_soak_loses_doubles_and_changes_no_result(django_db_setup, tmp_path):
    for name in ("haproxy", "pgbouncer"):
        _program(name)
    database = f"amarrako_soak_ci_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    out = tmp_path / "soak.out"
    process = _start(database, out, "--scaled", env={"PATH": PATH})
    try:
        try:
            process.wait(timeout=BOUND_SECONDS)
        except subprocess.TimeoutExpired:
            stopped = _stop(process)
            pytest.fail(
                f"the small scaled soak ran for more than {BOUND_SECONDS} s (it takes about a "
                f"minute) and was stopped (exit {stopped}):\n{out.read_text()[-3000:]}"
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
    # Every fault hit, and each came back: a web node, PgBouncer, a worker, Redis.
    assert sorted(what for what, _ in figures["faults"]) == ["pgbouncer", "redis", "web", "worker"]
    assert figures["web_restarts"] >= 1 and figures["worker_restarts"] >= 1
    assert figures["pgbouncer_restarts"] >= 1 and figures["replays"] >= 1
    assert figures["matches"] == 8 + 3 and figures["rounds_closed"] == 1 + 2
    assert figures["server_errors"] == 0 and figures["standings_after_last_fault_s"] <= 60
    assert all(figures["served_by_node"].get(node) for node in ("web1", "web2"))


# --- The scaled stack -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scaled():
    for name in ("haproxy", "pgbouncer"):
        _program(name)
    if shutil.which("redis-server") is None:
        pytest.fail("the stack test starts its own redis-server, which is not on the PATH")
    stack_module = _load_stack()
    database = f"amarrako_scaled_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    stack = stack_module.Stack(
        database=database, scaled=True, web_nodes=2, workers=2, web_concurrency=1,
        worker_concurrency=1, extra_env={"PATH": PATH},
    )  # fmt: skip
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
        shutil.rmtree(stack.dir, ignore_errors=True)


def _request(base: str, method: str, path: str, body=None, headers=None, form=False):
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    sent = dict(headers or {})
    if body is not None:
        if form:
            data = urlencode(body).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
    else:
        data = None
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, response.read(), response
    finally:
        conn.close()


def _cookies(response) -> dict[str, str]:
    found = {}
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            found[name] = rest.split(";", 1)[0]
    return found


def test_every_program_runs_one_beat_and_the_database_through_pgbouncer(scaled):
    status = scaled.ctl("status")
    for program in ("web:web1", "web:web2", "live:live1", "live:live2", "worker:worker1",
                    "worker:worker2", "beat", "lb", "pgbouncer"):  # fmt: skip
        assert re.search(rf"^{re.escape(program)}\s+RUNNING", status, re.M), status
    commands = [
        Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        for pid in _processes_of(scaled.database)
        if Path(f"/proc/{pid}/cmdline").exists()
    ]
    beats = [c for c in commands if any(p.endswith(b"celery") for p in c) and b"beat" in c]
    assert len(beats) == 1, beats
    log = scaled.log()
    assert "worker1@" in log and "worker2@" in log  # two workers, each of its own name
    # HAProxy's and PgBouncer's lines are the stack's, one JSON object each (stacklog.py run).
    records = [json.loads(line) for line in log.splitlines()]
    assert "pgbouncer" in {r["logger"] for r in records}

    # Every web and worker process holds its client connections to PgBouncer, and PostgreSQL
    # serves the stack's database to PgBouncer alone: each backend's client is one of
    # PgBouncer's server connections.
    clients = [c for c in scaled.pgbouncer("SHOW CLIENTS") if c["database"] == scaled.database]
    servers = [s for s in scaled.pgbouncer("SHOW SERVERS") if s["database"] == scaled.database]
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        ports = c.execute(
            "SELECT client_port FROM pg_stat_activity WHERE datname = %s", [scaled.database]
        ).fetchall()
    print(f"\nPgBouncer: {len(clients)} client connections, {len(servers)} server connections; "
          f"PostgreSQL: {len(ports)} backends for the stack's database")  # fmt: skip
    assert len(clients) >= 2  # both nodes' request threads (warmed up: each has one open)
    assert ports and {port for (port,) in ports} <= {s["local_port"] for s in servers}
    assert len(servers) <= 20 + 5  # PGBOUNCER_POOL_SIZE and its reserve


def test_a_session_logged_in_on_one_node_is_served_by_the_other(scaled):
    one, two = scaled.node_base(1), scaled.node_base(2)
    status, page, response = _request(one, "GET", "/accounts/login/")
    assert status == 200
    csrf = _cookies(response)["csrftoken"]
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
    status, _, response = _request(
        one, "POST", "/accounts/login/",
        {"username": "soak", "password": "soak-organizer-password",
         "csrfmiddlewaretoken": token},
        {"Cookie": f"csrftoken={csrf}"}, form=True,
    )  # fmt: skip
    assert status == 302, "the login on node 1 failed"
    session = _cookies(response)["sessionid"]

    status, page, _ = _request(
        two, "GET", "/organizador/", headers={"Cookie": f"sessionid={session}"}
    )
    # not sent to the login page: logged in there too (the organizer's pages, with "Salir")
    assert status == 200 and b'action="/accounts/logout/"' in page, page[-2000:]
    status, _, response = _request(two, "GET", "/organizador/")
    assert status == 302 and "/accounts/login/" in response.getheader("Location")


def test_a_table_link_throttle_counted_on_one_node_holds_on_the_other(scaled):
    one, two = scaled.node_base(1), scaled.node_base(2)
    guesser = {"X-Forwarded-For": "203.0.113.20"}  # the nodes trust 127.0.0.1 as a proxy
    for n in range(30):  # TABLE_LINK_MISSES
        status, _, _ = _request(one, "GET", f"/api/v1/table/guess{n:03d}", headers=guesser)
        assert status == 404
    status, body, _ = _request(two, "GET", "/api/v1/table/guess-on-two", headers=guesser)
    assert status == 429 and json.loads(body)["error"]["code"] == "table_link_guessing"
    status, _, _ = _request(
        two, "GET", "/api/v1/table/guess-on-two", headers={"X-Forwarded-For": "203.0.113.21"}
    )
    assert status == 404  # another address is not held back


def test_a_login_lock_out_counted_on_one_node_holds_on_the_other(scaled):
    one, two = scaled.node_base(1), scaled.node_base(2)
    address = {"X-Forwarded-For": "203.0.113.30"}
    wrong = {"username": "soak", "password": "not-the-password"}
    statuses = [
        _request(one, "POST", "/api/v1/auth/token", wrong, address)[0]
        for _ in range(10)  # LOGIN_FAILURE_LIMIT: the tenth locks the user out from there
    ]
    assert statuses == [400] * 9 + [429]
    right = {"username": "soak", "password": "soak-organizer-password"}
    status, body, _ = _request(two, "POST", "/api/v1/auth/token", right, address)
    assert status == 429 and json.loads(body)["error"]["code"] == "login_locked"
    other = {"X-Forwarded-For": "203.0.113.31"}
    assert _request(two, "POST", "/api/v1/auth/token", right, other)[0] == 200


class Readers:
    """Phones reading the home page through the balancer, back to back, counting answers."""

    def __init__(self, base: str, count: int) -> None:
        self.base, self.stop = base, threading.Event()
        self.statuses: list[int] = []
        self.threads = [threading.Thread(target=self.read, daemon=True) for _ in range(count)]

    def read(self) -> None:
        while not self.stop.is_set():
            try:
                status = _request(self.base, "GET", "/")[0]
            except OSError as error:
                status = f"{type(error).__name__}"
            self.statuses.append(status)

    def __enter__(self) -> Readers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=90)


def test_a_dead_node_costs_the_phones_nothing(scaled):
    with Readers(scaled.base, 6) as readers:
        time.sleep(1)
        scaled.kill_web(1)
        back = scaled.wait_web(1)  # node 1 restarted, ready, and UP again in the balancer
        time.sleep(1)
    print(f"\nnode 1 back in the balancer {back:.1f} s after it was killed; "
          f"{len(readers.statuses)} reads through the balancer meanwhile")  # fmt: skip
    assert readers.statuses and set(readers.statuses) == {200}, sorted(
        {str(s) for s in readers.statuses}
    )
    assert "exited: web1 (terminated by SIGKILL" in scaled.log()


def test_with_every_node_unready_the_balancer_still_serves(scaled):
    # Redis down: /readyz answers 503 on both nodes (a shared service, not a node, is down)
    scaled.redis_stop()
    try:
        scaled.wait(
            "the balancer sees no node ready",
            lambda: set(scaled.lb_servers()["ready"].values()) == {"DOWN"},
            120,
        )
        status, _, _ = _request(scaled.base, "GET", "/")
        assert status == 200  # served by the nodes that are alive, not refused with 503
    finally:
        scaled.redis_start()
    scaled.wait("every node ready again", scaled.lb_all_up, 120)
