"""Test plumbing shared by every layer of tests/.

Services. Under CI=true the settings point at PostgreSQL and Redis on localhost, and a test
marked `postgres`, `redis` or `celery_worker` fails when its service is not there: CI must not
pass by quietly skipping. Without CI (a laptop) those tests are skipped, and the run ends with a
line that says how many and why.

Celery. Tests run tasks eagerly, in-process, whatever the settings say, so that a test behaves
the same on a laptop and in CI. A test that takes the `celery_worker` fixture instead sends its
tasks through Redis to a real `celery -A config worker` process, which reads the same test
database (test_<NAME>) as the test; rows must be committed (`transactional_db`) to be seen.
"""

import ctypes
import dataclasses
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from hypothesis import settings as hypothesis_settings

from config import celery_app

BASE_DIR = Path(__file__).resolve().parent.parent

SERVICE_MARKERS = {
    "postgres": "PostgreSQL",
    "redis": "Redis",
    "celery_worker": "a Celery worker",
}
SERVICE_SKIP_REASON = "needs {services}; run with CI=true to include it"

# The live push's fixtures (stream_server, live_push).
pytest_plugins = ["tests.live_support"]

# Tests and their worker use their own Redis database, so that a run never sends messages to
# (or takes them from) a developer's `make worker` on the configured one.
TEST_BROKER_DB = 5
# Hang guards, not budgets: a test goes on as soon as the worker answers; a machine three times
# slower and busy with other work must still fit in them.
WORKER_START_TIMEOUT = 180
WORKER_IDLE_TIMEOUT = 180

hypothesis_settings.register_profile("ci", deadline=None, print_blob=True, database=None)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if settings.CI else "dev")


def pytest_configure(config: pytest.Config) -> None:
    # Factories hash a password for every user; the real hasher is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The webhook tests' receivers are local servers (tests/clubs/test_webhooks.py turns the
    # guard back on to test it).
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    # The live push is off (the pages keep their polling) except in the tests that switch it
    # on, on the test broker's Redis (tests/live_support.py): under CI the configured broker is
    # the machine's database 0, whose channels other runs would hear.
    settings.LIVE_REDIS_URL = ""
    # Here, before any test: even an eager .delay() opens (and caches) a producer pool on the
    # configured broker, so the broker cannot be switched later in the session.
    celery_app.conf.broker_url = celery_app.conf.result_backend = _test_broker_url()
    # Celery reads CELERY_BROKER_URL and CELERY_RESULT_BACKEND from the environment before its
    # configuration, so a developer's exported broker would win over the test broker (and over
    # a test that points the app at another one). The settings have read them already.
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(name, None)


def _test_broker_url() -> str:
    if os.environ.get("CELERY_TEST_BROKER_URL"):
        return os.environ["CELERY_TEST_BROKER_URL"]
    broker_url = settings.CELERY_BROKER_URL
    if broker_url.startswith(("redis://", "rediss://")):
        return urlsplit(broker_url)._replace(path=f"/{TEST_BROKER_DB}").geturl()
    return broker_url


# --- Service markers --------------------------------------------------------------------------


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests that read the shared demo run together, after pytest-django has put the tests
    that roll back first and those that commit after them: at the end of the first kind, where
    the built-in presets are still there (a committing test empties the database, migrations'
    rows included). The demo is loaded when the first of them starts and deleted when the last
    ends (pytest_runtest_teardown), so no other test ever finds its rows."""
    _shared_demo_together(items)
    for item in items:
        # Taking the fixture is enough to need the worker and its broker.
        if "celery_worker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.celery_worker)
            item.add_marker(pytest.mark.redis)
        if settings.CI:
            continue
        needs = [
            name for marker, name in SERVICE_MARKERS.items() if item.get_closest_marker(marker)
        ]
        if needs:
            reason = SERVICE_SKIP_REASON.format(services=" and ".join(needs))
            item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if any(marker in report.keywords for marker in SERVICE_MARKERS)
        and "run with CI=true" in str(report.longrepr)
    ]
    if not skipped:
        return
    needed = sorted(
        {SERVICE_MARKERS[m] for report in skipped for m in SERVICE_MARKERS if m in report.keywords}
    )
    noun = "test" if len(skipped) == 1 else "tests"
    terminalreporter.write_line(
        f"Skipped {len(skipped)} {noun} that need {'/'.join(needed)} because CI is not true; "
        "run with CI=true to include them",
        yellow=True,
        bold=True,
    )


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty in-process cache: a built standings answer or a
    table-link counter one test left must not answer for the next (ids repeat across tests)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from config.security import forget_misses

    if isinstance(caches["default"], LocMemCache):  # never flush a shared Redis
        caches["default"].clear()
    forget_misses()  # the throttle's memo of the counts the cache held


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's default language, whatever a request before it activated
    (the active language is per thread, and a request leaves its own behind)."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def _services_present(request: pytest.FixtureRequest) -> None:
    """Under CI, fail (never skip) a test whose service is missing."""
    node = request.node
    if node.get_closest_marker("postgres"):
        from django.db import connection

        request.getfixturevalue("django_db_setup")  # connects: errors if PostgreSQL is down

        if connection.vendor != "postgresql":
            pytest.fail(
                f"marked postgres but the database is {connection.vendor}; "
                "check DATABASE_URL (CI=true defaults to PostgreSQL on 127.0.0.1:5432)"
            )
    if node.get_closest_marker("redis") or node.get_closest_marker("celery_worker"):
        _redis_or_fail(celery_app.conf.broker_url)


def _redis_or_fail(url: str) -> None:
    if not url.startswith(("redis://", "rediss://")):
        pytest.fail(f"needs Redis but the Celery broker is {url!r} (see CELERY_BROKER_URL)")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis at {_without_password(url)} is unreachable: {error}")


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
    return parts.geturl()


# --- Celery -----------------------------------------------------------------------------------


@pytest.fixture(autouse=True, scope="session")
def _celery_eager() -> Iterator[None]:
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@dataclasses.dataclass(frozen=True)
class CeleryWorker:
    process: subprocess.Popen
    nodename: str
    broker_url: str
    database_url: str
    log_path: Path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, tmp_path_factory) -> Iterator[CeleryWorker]:
    """A real `celery -A config worker` on the test broker and the test database.

    Session-scoped: one worker for the run, started after pytest-django created the test
    database and stopped before it is dropped (fixtures tear down in reverse order).
    """
    broker_url = celery_app.conf.broker_url  # the test broker, see pytest_configure
    _redis_or_fail(broker_url)
    redis.Redis.from_url(broker_url).flushdb()  # leftovers of an interrupted run

    database_url = _test_database_url()

    nodename = f"amarrako-test-{os.getpid()}@{socket.gethostname()}"
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": broker_url,
        "WEBHOOKS_ALLOW_PRIVATE": "true",
        "PYTHONUNBUFFERED": "1",
    }
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool", "solo", "--concurrency", "1",
        "--without-heartbeat", "--without-gossip", "--without-mingle",
        "--hostname", nodename, "--loglevel", "INFO",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )
    worker = CeleryWorker(process, nodename, broker_url, database_url, log_path)
    try:
        _wait_until_ready(worker)
        yield worker
    finally:
        _stop(worker)


@pytest.fixture
def celery_worker(transactional_db, celery_worker_process: CeleryWorker) -> Iterator[CeleryWorker]:
    """Send this test's `.delay()` calls to the real worker instead of running them eagerly.

    At the end it waits until the worker has run every task the test queued, before the test
    database is flushed (it takes ``transactional_db``, so its teardown runs before the flush).
    A test waits only for the task it checks: ``round_publish`` queues the pairings e-mail and
    then a standings refresh, and a flush's TRUNCATE of every table, run while that refresh held
    the phase's row lock and wanted the snapshot table, deadlocked (DeadlockDetected, issue 12).
    """
    conf = celery_app.conf
    conf.task_always_eager = False
    try:
        yield celery_worker_process
    finally:
        conf.task_always_eager = True
        _wait_until_idle(celery_worker_process)


def _test_database_url() -> str:
    """DATABASE_URL with the database name pytest-django gave the test database."""
    from django.db import connection

    if connection.vendor == "sqlite":
        pytest.fail("the Celery worker cannot share a SQLite test database; use PostgreSQL")
    test_name = connection.settings_dict["NAME"]
    return urlsplit(settings.DATABASE_URL)._replace(path=f"/{test_name}").geturl()


def _die_with_parent() -> None:
    """Runs in the child before exec: if pytest is killed outright, the worker gets SIGTERM."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _wait_until_ready(worker: CeleryWorker) -> None:
    deadline = time.monotonic() + WORKER_START_TIMEOUT
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            pytest.fail(
                f"the Celery worker exited with code {worker.process.returncode}:\n"
                f"{worker.log_tail()}"
            )
        if celery_app.control.ping(destination=[worker.nodename], timeout=0.5):
            return
    _stop(worker)
    pytest.fail(
        f"the Celery worker did not answer a ping within {WORKER_START_TIMEOUT} s:\n"
        f"{worker.log_tail()}"
    )


def _broker_backlog(client: redis.Redis) -> int:
    """Messages of the task queue not yet acknowledged: waiting in its lists (one per priority)
    or delivered to the worker and not acknowledged (tasks are acks_late: until they ran)."""
    queue = celery_app.conf.task_default_queue.encode()
    waiting = sum(
        client.llen(key)
        for key in client.scan_iter(match=queue + b"*")
        if key == queue or key.startswith(queue + b"\x06\x16")
    )
    return waiting + client.hlen("unacked")


def _wait_until_idle(worker: CeleryWorker) -> None:
    """Return once the worker has run and acknowledged every task queued so far.

    Redis holds the truth: the queue's lists and the ``unacked`` hash of delivered messages.
    A message moves from one to the other in two steps, so idleness must be seen a few times
    in a row. A task retried later is a new message the worker holds unacknowledged: waited for.
    """
    client = redis.Redis.from_url(worker.broker_url)
    deadline = time.monotonic() + WORKER_IDLE_TIMEOUT
    idle_seen = 0
    while idle_seen < 3:
        if time.monotonic() > deadline:
            pytest.fail(
                f"the Celery worker still had {_broker_backlog(client)} tasks after "
                f"{WORKER_IDLE_TIMEOUT} s:\n{worker.log_tail()}"
            )
        idle_seen = idle_seen + 1 if _broker_backlog(client) == 0 else 0
        time.sleep(0.05)


def _stop(worker: CeleryWorker) -> None:
    if worker.process.poll() is not None:
        return
    worker.process.terminate()  # warm shutdown: finishes the task at hand
    try:
        worker.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        worker.process.wait()


# --- The demo, loaded once ------------------------------------------------------------------


def _transactional(item: pytest.Item) -> bool:
    """As pytest-django sorts them: a test that commits (and empties the database after)."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(
        (marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
        or "transactional_db" in fixtures
        or "live_server" in fixtures
    )


def _reads_demo(item: pytest.Item) -> bool:
    return "shared_demo" in getattr(item, "fixturenames", ())


def _shared_demo_together(items: list[pytest.Item]) -> None:
    readers = [item for item in items if _reads_demo(item)]
    if not readers:
        return
    others = [item for item in items if not _reads_demo(item)]
    at = next((n for n, item in enumerate(others) if _transactional(item)), len(others))
    items[:] = others[:at] + readers + others[at:]


_DEMO: dict = {}


@pytest.fixture(scope="session")
def _shared_demo_loaded(django_db_setup, django_db_blocker) -> dict:
    """Loads the demo the first time a test asks for it. Session-scoped so that pytest sets it
    up before the test's own transaction begins (fixtures are set up by scope): the demo is
    committed, not rolled back with the first test that reads it."""
    if "club" not in _DEMO:
        from django.core.management import call_command
        from django.db import connection, transaction

        from clubs.demo import CLUB_SLUG
        from clubs.models import Club

        with django_db_blocker.unblock():
            with transaction.atomic():
                call_command("demo", verbosity=0)
                connection.run_on_commit.clear()
            _DEMO.update(club=Club.objects.get(slug=CLUB_SLUG), blocker=django_db_blocker)
    return _DEMO


@pytest.fixture
def shared_demo(_shared_demo_loaded):
    """``manage.py demo`` loaded once for every test that only reads it (the demo takes seconds
    to load; a test that changes it, or tests the command itself, loads its own). Its tests run
    one after the other (pytest_collection_modifyitems) and must not be transactional (a
    transactional test empties the database at its end); what a test writes rolls back with
    its transaction. The tasks the demo's writes queue on commit are dropped: the demo does
    what they would itself. Returns the demo's peña."""
    return _shared_demo_loaded["club"]


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if "club" in _DEMO and (nextitem is None or not _reads_demo(nextitem)):
        from seasons.demo import demo_delete

        with _DEMO["blocker"].unblock():
            demo_delete(_DEMO["club"])
        _DEMO.clear()
