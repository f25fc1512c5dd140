"""A web process's warm-up (config/warmup.py): gunicorn runs it in each worker before its first
request, so that no phone waits for what Django builds lazily; a database that is down then
costs the warm-up its SQL, never the worker."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from config import warmup
from tournaments.selectors import prepared
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
