"""Probes for a load balancer or a supervisor: ``/healthz`` and ``/readyz``.

``/healthz`` answers 200 while the process can answer at all (no database, no broker): a
failing one means restart the process. ``/readyz`` answers 200 only when the database and,
where tasks are queued to a broker, the broker answer within a second; 503 names what is down,
so traffic goes elsewhere until it is back. Neither needs a login nor says anything secret.

``/readyz`` also reports the live push's Redis (``live``: ok, off or down) without failing on
it: the pages work without the push (they poll), so a node that cannot push is still ready. The
ASGI server's own probe is ``/live/readyz`` (tournaments/web/live.py): 503 while its streams
cannot be fed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.live import live_on, live_ping


@never_cache
@require_GET
def healthz(request):
    return JsonResponse({"status": "ok"})


def _database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not ready"
        return type(exc).__name__
    return None


def _broker() -> str | None:
    if not settings.CELERY_BROKER_URL:
        return None  # tasks run in-process: there is no broker to wait for
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=1)
    except Exception as exc:  # kombu, redis and socket errors alike
        return type(exc).__name__
    return None


@never_cache
@require_GET
def readyz(request):
    checks = {"database": _database(), "broker": _broker()}
    down = {name: error for name, error in checks.items() if error}
    body = {
        "status": "down" if down else "ok",
        "checks": {name: ("down: " + error if error else "ok") for name, error in checks.items()},
    }
    live = live_ping()
    body["checks"]["live"] = "off" if not live_on() else "down: " + live if live else "ok"
    return JsonResponse(body, status=503 if down else 200)
