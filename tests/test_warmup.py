"""A web process's warm-up (config/warmup.py): gunicorn runs it in each worker before its first
request, so that no phone waits for what Django builds lazily; a database that is down then
costs the warm-up its SQL, never the worker."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError, connection, connections

from config import warmup
from tournaments.selectors import prepared, results
from tournaments.selectors.results import _TABLE_READ

pytestmark = pytest.mark.django_db


def test_the_table_link_s_queries_are_compiled_before_the_first_phone(monkeypatch):
    for query in list(prepared._ALL):  # as in a new process
        monkeypatch.setattr(query, "compiled", None)

    warmup.warm()

    assert _TABLE_READ.compiled is not None
    assert all(query.compiled is not None for query in prepared._ALL)
    assert len(prepared._ALL) >= 10  # the link's reads and writes (a lost registration shows)


def test_a_database_that_is_down_costs_the_warm_up_its_sql_not_the_worker(monkeypatch, caplog):
    def down() -> int:
        raise OperationalError("connection refused")

    monkeypatch.setattr(prepared, "compile_all", down)

    assert warmup.warm() >= 0
    assert "could not compile" in caplog.text
    connection.ensure_connection()  # the test's own connection is usable again


def test_every_request_thread_starts_with_its_connection_open_and_the_reads_run(monkeypatch):
    # A phone's first request on a new gunicorn thread waited for a new PostgreSQL connection
    # to load its catalogue and plan the table link's queries: the warm-up does it first.
    seen = []
    real = results.warm_table_link

    def spy() -> None:
        real()
        seen.append((threading.get_ident(), connections["default"].connection is not None))
        connections.close_all()  # the test database is dropped at the end: no connection left

    monkeypatch.setattr(results, "warm_table_link", spy)
    with ThreadPoolExecutor(4) as pool:
        ready = warmup.warm_threads(pool, 4)

    assert ready == 4
    assert len({ident for ident, _ in seen}) == 4  # one per thread of the pool
    assert all(opened for _, opened in seen)


def test_the_broker_connection_is_made_before_the_first_confirmation(monkeypatch, caplog):
    from contextlib import contextmanager

    from celery import current_app

    calls = []

    class Connection:
        def ensure_connection(self, max_retries):
            calls.append(max_retries)

    class Producer:
        connection = Connection()

        def maybe_declare(self, queue):
            calls.append(queue.name)

    @contextmanager
    def producer():
        yield Producer()

    monkeypatch.setattr(current_app, "producer_or_acquire", producer)
    caplog.set_level("INFO", logger="config.warmup")
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False  # as with a broker (production)
    try:
        warmup.warm()
    finally:
        current_app.conf.task_always_eager = eager

    assert calls == [1, "celery"]  # connected, then the tasks' queue declared
    assert "broker connected" in caplog.text


@pytest.mark.redis
def test_a_thread_s_first_task_after_the_warm_up_declares_nothing_and_loads_nothing(monkeypatch):
    # The first confirmations of a cold stack answered in 80-100 ms, not 10: their task was the
    # process's first (the tasks imported, the queue declared on the broker, a round trip) and
    # the thread's first (its result backend found among the installed packages' entry points).
    from celery import current_app

    monkeypatch.setattr(results, "warm_table_link", connections.close_all)
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False  # as with a broker (production)
    try:
        built = _first_task_after_the_warm_up(monkeypatch)
    finally:
        current_app.conf.task_always_eager = eager

    assert built == []


def _first_task_after_the_warm_up(monkeypatch) -> list[str]:
    """What a warmed thread's first task still builds (nothing, once the warm-up did it)."""
    from celery import current_app
    from celery.app import backends
    from kombu import Queue

    with ThreadPoolExecutor(2) as pool:
        worker = type("Worker", (), {"tpool": pool, "cfg": type("Cfg", (), {"threads": 2})()})
        warmup.warm(worker)
        built = []
        for owner, name, what in ((Queue, "declare", "queue declared"),
                                  (backends, "by_url", "backend loaded")):  # fmt: skip
            monkeypatch.setattr(owner, name, _noting(getattr(owner, name), what, built))
        meet = threading.Barrier(2)

        def first_task_of_this_thread() -> None:
            meet.wait(5)
            assert current_app.backend is not None

        for job in [pool.submit(first_task_of_this_thread) for _ in range(2)]:
            job.result(timeout=10)
        with current_app.producer_or_acquire() as producer:
            for queue in current_app.amqp.queues.values():
                producer.maybe_declare(queue)
    return built


def _noting(real, what: str, notes: list[str]):
    def noted(*args, **kwargs):
        notes.append(what)
        return real(*args, **kwargs)

    return noted
