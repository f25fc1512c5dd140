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
from datetime import datetime

from celery import shared_task
from django.db import OperationalError, connection

from clubs.models import PlayerMerge
from config.live import live_publish, live_publish_above
from tournaments.models import FrancesTable, Match, Phase, Round, Tournament
from tournaments.selectors.rounds import ELIMINATION_FORMATS
from tournaments.services import field as field_services
from tournaments.services import identity as identity_services
from tournaments.services import reconcile as reconcile_services
from tournaments.services import results as results_services
from tournaments.services import rounds as rounds_services
from tournaments.services import standings as standings_services

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
def standings_refresh(phase_id: int, queued_at: str | None = None) -> int | None:
    """Recompute and store a phase's standings; returns the number of rows written, or None
    when a refresh that started after ``queued_at`` already holds what queued this one."""
    since = datetime.fromisoformat(queued_at) if queued_at else None
    # the service reads the phase itself, under its lock (0 rows when it no longer exists)
    rows = standings_services.standings_refresh(phase=Phase(pk=phase_id), queued_after=since)
    if rows is None:
        log.info("standings of phase %s already fresh since %s", phase_id, queued_at)
    else:
        log.info("standings of phase %s refreshed: %s rows", phase_id, rows)
    return rows


@shared_task(name="tournaments.bracket_advance", **RETRY)
def bracket_advance(phase_id: int) -> int:
    """Create the bracket matches whose two pairs are now known; returns how many."""
    phase = Phase.objects.filter(pk=phase_id).first()
    created = rounds_services.bracket_advance(phase=phase) if phase else 0
    log.info("bracket of phase %s advanced: %s matches created", phase_id, created)
    return created


@shared_task(name="tournaments.round_completion_check", **RETRY)
def round_completion_check(round_id: int) -> bool:
    """Notify the organizer once every match of the round is confirmed (once)."""
    # the service reads the round itself, with its counts, in one query
    notified = results_services.round_completion_notify(round=Round(pk=round_id))
    log.info("round %s completion checked: notified=%s", round_id, notified)
    return notified


@shared_task(name="tournaments.round_pairings_email", **RETRY)
def round_pairings_email(round_id: int) -> int:
    """E-mail a published round's pairings and tables to players with an address."""
    rnd = Round.objects.filter(pk=round_id).first()
    sent = rounds_services.round_pairings_email(round=rnd) if rnd else 0
    log.info("round %s pairings e-mailed to %s players", round_id, sent)
    return sent


@shared_task(name="tournaments.entries_dropped_email", **RETRY)
def entries_dropped_email(tournament_id: int) -> int:
    """Tell the players of the entries dropped when registration closed (the bases' field)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    sent = field_services.entries_dropped_email(tournament=tournament) if tournament else 0
    log.info("tournament %s: %s dropped players e-mailed", tournament_id, sent)
    return sent


@shared_task(name="tournaments.result_confirmed", **RETRY)
def result_confirmed(match_id: int, queued_at: str | None = None) -> None:
    """Everything that follows a confirmed (or corrected) result, in order. ``queued_at`` (when
    the web process sent it, after its commit) lets a burst of results share one standings
    refresh (services.standings, "Coalescing")."""
    match = Match.objects.select_related("round__phase__tournament").filter(pk=match_id).first()
    if match is None:
        return
    phase = match.round.phase
    standings_refresh(phase.id, queued_at)
    if phase.format in ELIMINATION_FORMATS:  # a Swiss or league phase has no bracket to advance
        bracket_advance(phase.id)
    live_publish(tournament_id=phase.tournament_id, kind="standings", public=True, phase=phase.id)
    live_publish_above(tournament_id=phase.tournament_id, kind="standings")  # leagues…
    round_completion_check(match.round_id)
    result_confirmed.app.tasks["ratings.match_sync"].delay(match_id=match_id)  # ratings
    _circuits_changed(phase.tournament)
    _championships_changed(phase.tournament)
    webhooks_result_confirmed(match_id, club_id=phase.tournament.club_id)


@shared_task(name="tournaments.frances_result_confirmed", **RETRY)
def frances_result_confirmed(table_id: int, queued_at: str | None = None) -> None:
    """What follows a Mus francés table's confirmed (or corrected) finishing order, as
    ``result_confirmed`` for a match: the standings (coalesced), the round's completion, the
    circuits' ranking when one holds the tournament, and the peña's webhooks. (A francés phase
    is Swiss-style: no bracket; the players' ratings are of pair matches.)"""
    table = FrancesTable.objects.select_related("round__phase__tournament").filter(pk=table_id)
    table = table.first()
    if table is None:
        return
    standings_refresh(table.round.phase_id, queued_at)
    live_publish(
        tournament_id=table.round.phase.tournament_id,
        kind="standings",
        public=True,
        phase=table.round.phase_id,
    )
    live_publish_above(tournament_id=table.round.phase.tournament_id, kind="standings")
    round_completion_check(table.round_id)
    _circuits_changed(table.round.phase.tournament)
    webhooks_frances_result_confirmed(table_id, club_id=table.round.phase.tournament.club_id)


def _circuits_changed(tournament: Tournament) -> bool:
    """Queue ``circuits.tournament_changed`` only when it can change a ranking: a circuit ranks
    final placings, so only a result of a *finished* tournament that is a circuit's stop (a
    correction after the end) moves it; the tournament's end queues its own refresh
    (services.tournaments). On the hot path of a Saturday (results of a running tournament,
    in a circuit or not) this costs no query and queues nothing. The circuits app sits above
    tournaments (no import): its stops are read through the reverse relation the ORM gives
    (``circuit_stops``)."""
    if tournament.status != Tournament.Status.FINISHED or not tournament.circuit_stops.exists():
        return False
    circuits = result_confirmed.app.tasks["circuits.tournament_changed"]
    circuits.delay(tournament_id=tournament.pk)
    return True


def _championships_changed(tournament: Tournament) -> bool:
    """Queue ``championships.tournament_changed`` only when a result can move who qualified: a
    championship's stage flows its qualified pairs on when its tournament is finished, so only
    a correction of a *finished* tournament that is a championship's stage (reverse relation
    ``championship_stops``; seasons.championships sits above this app) is sent; the
    tournament's end queues its own (services.tournaments). A running tournament's results
    cost no query and queue nothing."""
    if (
        tournament.status != Tournament.Status.FINISHED
        or not tournament.championship_stops.exists()
    ):
        return False
    championships = result_confirmed.app.tasks["championships.tournament_changed"]
    championships.delay(tournament_id=tournament.pk)
    return True


@shared_task(name="tournaments.reconcile", **RETRY)
def reconcile() -> dict:
    """Beat's periodic repair: redo what a lost task left undone (see services.reconcile)."""
    done = reconcile_services.reconcile_pending()
    done["merges"] = identity_services.players_merged_reconcile()
    if any(done.values()):
        log.warning("reconciliation repaired what a lost task left undone: %s", done)
    return done


@shared_task(name="tournaments.players_merged", **RETRY)
def players_merged(merge_id: int, version: int) -> int:
    """After two player rows were made one person (or that was undone): compute again the
    standings of the tournaments they play in, which name them."""
    merge = PlayerMerge.objects.filter(pk=merge_id).first()
    if merge is None:
        return 0
    refreshed = identity_services.players_merged_follow_up(merge=merge, version=version)
    log.info(
        "merge %s (version %s): standings of %s phases refreshed", merge_id, version, refreshed
    )
    return refreshed


@shared_task(name="tournaments.webhooks_result_confirmed", **RETRY)
def webhooks_result_confirmed(match_id: int, club_id: int | None = None) -> int:
    """Record the ``result.confirmed`` event for the peña's webhooks; each delivery is its own
    task, queued after this one commits (a receiver never holds up the chain above).
    ``club_id`` (the match's peña, when the caller knows it): a peña without an active webhook
    costs one EXISTS query and nothing more."""
    from clubs.webhooks.services import webhooks_any
    from tournaments.services.webhooks import webhooks_result_confirmed as record

    if club_id is not None and not webhooks_any(club_id=club_id):
        return 0
    match = Match.objects.filter(pk=match_id).first()
    recorded = record(match=match) if match else 0
    if recorded:
        log.info("match %s: result.confirmed recorded for %s webhooks", match_id, recorded)
    return recorded


@shared_task(name="tournaments.webhooks_frances_result_confirmed", **RETRY)
def webhooks_frances_result_confirmed(table_id: int, club_id: int | None = None) -> int:
    """Record ``result.confirmed`` of a Mus francés table for the peña's webhooks (``club_id``:
    as ``webhooks_result_confirmed``)."""
    from clubs.webhooks.services import webhooks_any
    from tournaments.services.webhooks import webhooks_frances_result_confirmed as record

    if club_id is not None and not webhooks_any(club_id=club_id):
        return 0
    table = FrancesTable.objects.filter(pk=table_id).first()
    recorded = record(table=table) if table else 0
    if recorded:
        log.info("francés table %s: result.confirmed recorded for %s webhooks", table_id, recorded)
    return recorded


@shared_task(name="clubs.webhook_deliver", bind=True, **RETRY)
def webhook_deliver(self, delivery_id: int) -> int | None:
    """One attempt of a webhook delivery; a failed one is tried again later, with exponential
    backoff (clubs.webhooks.services.retry_delay), up to its MAX_ATTEMPTS. Run eagerly (no
    broker: a laptop), the retry is not scheduled: the delivery stays pending in the log, where
    the organizer can send it again."""
    from clubs.models import WebhookDelivery
    from clubs.webhooks.services import webhook_deliver_attempt

    delivery = WebhookDelivery.objects.filter(pk=delivery_id).first()
    retry_in = webhook_deliver_attempt(delivery=delivery) if delivery else None
    if retry_in is not None and not self.request.is_eager:
        webhook_deliver.apply_async(kwargs={"delivery_id": delivery_id}, countdown=retry_in)
    return retry_in


@shared_task(name="clubs.webhooks_sweep", **RETRY)
def webhooks_sweep() -> int:
    """Periodic: queue again the webhook deliveries whose task was lost (see
    clubs.webhooks.services.webhook_deliveries_due); returns how many."""
    from clubs.webhooks.services import webhook_deliveries_due

    due = webhook_deliveries_due()
    for delivery_id in due:
        webhook_deliver.delay(delivery_id=delivery_id)
    if due:
        log.warning("webhook sweep: %s deliveries whose task was lost queued again", len(due))
    return len(due)
