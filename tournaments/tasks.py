"""Celery tasks of the tournaments app.

A task takes ids, loads what it needs and calls a service; it holds no rule, is idempotent
(running it twice changes nothing more), retries a bounded number of times when a row is
locked, and logs what it did. Services queue them with ``transaction.on_commit``, never while a
row is locked. ``ping`` and ``db_roundtrip`` are infrastructure probes: tests use them to prove
that a real worker runs and reads the same database as the code that queued the task.
"""

from __future__ import annotations

import logging
import socket

from celery import shared_task
from django.db import OperationalError, connection

log = logging.getLogger(__name__)

RETRY = {"autoretry_for": (OperationalError,), "max_retries": 5, "retry_backoff": True}


@shared_task(name="amarrako.ping", ignore_result=False)
def ping() -> dict:
    return {"pong": True, "worker": socket.gethostname()}


@shared_task(name="amarrako.db_roundtrip", ignore_result=False)
def db_roundtrip(value: str) -> str:
    """Echo `value` through the worker's database connection; return the database vendor."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s", [value])
        (echoed,) = cursor.fetchone()
    if echoed != value:
        raise RuntimeError(f"database echoed {echoed!r} for {value!r}")
    return connection.vendor


@shared_task(name="tournaments.standings_refresh", **RETRY)
def standings_refresh(phase_id: int) -> int:
    """Recompute and store a phase's standings; returns the number of rows written."""
    from tournaments.services.standings import standings_refresh as refresh

    rows = refresh(phase_id=phase_id)
    log.info("standings of phase %s refreshed: %s rows", phase_id, rows)
    return rows


@shared_task(name="tournaments.bracket_advance", **RETRY)
def bracket_advance(phase_id: int) -> int:
    """Create the bracket matches whose two pairs are now known; returns how many."""
    from tournaments.services.rounds import bracket_advance as advance

    created = advance(phase_id=phase_id)
    log.info("bracket of phase %s advanced: %s matches created", phase_id, created)
    return created


@shared_task(name="tournaments.round_completion_check", **RETRY)
def round_completion_check(round_id: int) -> bool:
    """Notify the organizer once every match of the round is confirmed (once)."""
    from tournaments.services.results import round_completion_notify

    notified = round_completion_notify(round_id=round_id)
    log.info("round %s completion checked: notified=%s", round_id, notified)
    return notified


@shared_task(name="tournaments.round_pairings_email", **RETRY)
def round_pairings_email(round_id: int) -> int:
    """E-mail a published round's pairings and tables to players with an address."""
    from tournaments.services.rounds import round_pairings_email as send

    sent = send(round_id=round_id)
    log.info("round %s pairings e-mailed to %s players", round_id, sent)
    return sent


@shared_task(name="tournaments.result_confirmed", **RETRY)
def result_confirmed(match_id: int) -> None:
    """Everything that follows a confirmed (or corrected) result, in order."""
    from tournaments.models import Match

    match = Match.objects.select_related("round").get(pk=match_id)
    standings_refresh(match.round.phase_id)
    bracket_advance(match.round.phase_id)
    round_completion_check(match.round_id)
    result_confirmed.app.tasks["clubs.ratings_match_sync"].delay(match_id=match_id)  # ratings


@shared_task(name="tournaments.reconcile", **RETRY)
def reconcile() -> dict:
    """Beat's periodic repair: redo what a lost task left undone (see services.reconcile)."""
    from tournaments.services.reconcile import reconcile_pending

    done = reconcile_pending()
    if any(done.values()):
        log.warning("reconciliation repaired what a lost task left undone: %s", done)
    return done
