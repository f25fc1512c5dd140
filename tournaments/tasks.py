"""Celery tasks of the tournaments app.

A task takes ids, loads what it needs and calls a service; it holds no rule. The two tasks here
are infrastructure probes: tests use them to prove that a real worker is running and that it
reads the same database as the code that queued the task.
"""

import socket

from celery import shared_task
from django.db import connection


@shared_task(name="amarrako.ping")
def ping() -> dict:
    return {"pong": True, "worker": socket.gethostname()}


@shared_task(name="amarrako.db_roundtrip")
def db_roundtrip(value: str) -> str:
    """Echo `value` through the worker's database connection; return the database vendor."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s", [value])
        (echoed,) = cursor.fetchone()
    if echoed != value:
        raise RuntimeError(f"database echoed {echoed!r} for {value!r}")
    return connection.vendor
