"""A web process's first request, made before the first phone's: gunicorn calls ``warm()`` in
each worker once it has loaded the application and before it accepts connections
(deploy/gunicorn.conf.py, ``post_worker_init``).

Responsible for: what Django and our code build lazily on the first request of a process, so
that no phone waits for it: the URL patterns (importing every view module), each language's
translation catalogue, the compiled SQL of the table link's hot reads and writes
(tournaments.selectors.prepared, compiled once per process), the Celery producer's connection
to the broker with the tasks registered and their queue declared, and each request thread with
its database connection open, those reads run once (a new PostgreSQL connection loads its
catalogue and plans each query on first use) and its result backend built. A
new worker (at start, and each time gunicorn replaces one after ``max_requests``) answered its
first request in about 300 ms instead of 10; with all this, in about 25.

Must not: fail the worker. A database that is down at that moment leaves the SQL to be
compiled by the first request that needs it (which then fails or succeeds as any request
would); every step is best effort and says in the log what it could not do.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.urls import Resolver404, get_resolver
from django.utils import translation

log = logging.getLogger(__name__)

#: Paths whose resolution imports every URL module (and so every view) of the site.
_PATHS = ("/api/v1/table/warm", "/mesa/warm/", "/")


def warm(worker=None) -> float:
    """Build the lazy parts of a process; returns the seconds it took. ``worker``: gunicorn's
    threaded worker, whose request threads are then started and warmed too."""
    started = time.monotonic()
    resolver = get_resolver()
    for path in _PATHS:
        with contextlib.suppress(Resolver404):
            resolver.resolve(path)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Mesa")
    try:
        from tournaments.selectors.prepared import compile_all

        compile_all()
    except Exception:  # a database that is down: the first request compiles instead
        log.warning("warm-up: could not compile the table link's queries", exc_info=True)
    finally:
        connections.close_all()  # this thread serves no request: its connection would idle
    broker = _broker()
    ready = 0
    pool = getattr(worker, "tpool", None)
    if pool is not None:
        try:
            ready = warm_threads(pool, int(getattr(worker.cfg, "threads", 1) or 1))
        except Exception:  # a thread that hangs: the requests start it as before
            log.warning("warm-up: the request threads did not all start", exc_info=True)
    seconds = time.monotonic() - started
    log.info(
        "warm-up done in %.0f ms (%d request threads ready, broker %s)",
        seconds * 1000,
        ready,
        broker,
    )
    return seconds


def _broker() -> str:
    """Make the process's first task cost what its hundredth does: connect the Celery producer
    pool to the broker, register the tasks (Celery imports every app's tasks module on the
    first one sent) and declare their queues on that connection (a round trip to Redis each).
    A confirmation's first task in a new process waited ~75 ms for all this, and the first
    confirmations of a cold stack answered in 80-100 ms instead of 10. The pool is the
    process's: every thread's tasks go through the connection made here (each thread's own
    part is ``_task_sender``). Eager tasks (no broker) need none."""
    from celery import current_app

    if current_app.conf.task_always_eager:
        return "not used"
    try:
        current_app.finalize(auto=True)
        with current_app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
            for queue in current_app.amqp.queues.values():
                producer.maybe_declare(queue)
    except Exception:  # the broker down: the first task connects (or fails as it would)
        log.warning("warm-up: the broker is unreachable", exc_info=True)
        return "unreachable"
    return "connected"


def _task_sender() -> None:
    """A request thread's part of sending a task: Celery keeps a result backend per thread (even
    the disabled one, which nothing reads), found through the installed packages' entry points
    on the thread's first task (~7 ms of CPU, more while other threads compete)."""
    from celery import current_app

    if not current_app.conf.task_always_eager:
        current_app.backend  # noqa: B018  (the property builds and keeps the thread's backend)


def warm_threads(pool, threads: int, timeout: float = 10.0) -> int:
    """Start every request thread of ``pool`` (gunicorn's gthread pool) now, each opening its
    database connection and running the table link's reads once (a phone's first request on a
    new thread waited for a new PostgreSQL connection to load its catalogue and plan each
    query), and building its part of sending a task (``_task_sender``).
    Returns how many threads warmed; a database that is down leaves the rest to the requests."""
    from tournaments.selectors.results import warm_table_link

    meet = threading.Barrier(threads)  # each job waits for the others: one job per thread

    def one() -> bool:
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait(timeout)
        try:
            _task_sender()
            warm_table_link()
            return True
        except Exception:  # the database down: the first request connects instead
            log.warning("warm-up: a request thread could not reach the database", exc_info=True)
            connections.close_all()
            return False

    jobs = [pool.submit(one) for _ in range(threads)]
    return sum(1 for job in jobs if job.result(timeout=timeout * 2))
