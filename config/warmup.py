"""A web process's first request, made before the first phone's: gunicorn calls ``warm()`` in
each worker once it has loaded the application and before it accepts connections
(deploy/gunicorn.conf.py, ``post_worker_init``).

Responsible for: what Django and our code build lazily on the first request of a process, so
that no phone waits for it: the URL patterns (importing every view module), each language's
translation catalogue, and the compiled SQL of the table link's hot reads and writes
(tournaments.selectors.prepared, compiled once per process). A new worker (at start, and each
time gunicorn replaces one after ``max_requests``) answered its first request in about 300 ms
instead of 10.

Must not: fail the worker. A database that is down at that moment leaves the SQL to be
compiled by the first request that needs it (which then fails or succeeds as any request
would); every step is best effort and says in the log what it could not do.
"""

from __future__ import annotations

import contextlib
import logging
import time

from django.conf import settings
from django.db import connections
from django.urls import Resolver404, get_resolver
from django.utils import translation

log = logging.getLogger(__name__)

#: Paths whose resolution imports every URL module (and so every view) of the site.
_PATHS = ("/api/v1/table/warm", "/mesa/warm/", "/")


def warm() -> float:
    """Build the lazy parts of a process; returns the seconds it took."""
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
    seconds = time.monotonic() - started
    log.info("warm-up done in %.0f ms", seconds * 1000)
    return seconds
