"""Webhook deliveries on a real Celery worker (another process, through Redis), as in
production: a result is confirmed and answered while the receiver is still holding its answer,
and a failed delivery is tried again by the worker after its backoff.

Needs CI=true (PostgreSQL, Redis and the worker the ``celery_worker`` fixture starts).
"""

from __future__ import annotations

import pytest

from clubs.models import WebhookDelivery
from clubs.webhooks.services import webhook_create
from tests.clubs.webhook_receiver import receiver
from tests.tournaments.test_tasks_worker import published_round, wait_for
from tournaments.models import Match
from tournaments.services.results import match_result_submit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def confirm(match: Match, organizer) -> Match:
    return match_result_submit(
        match=match,
        side="organizer",
        payload={"games": [{"stones": [40, 12]}, {"stones": [40, 31]}]},
        idempotency_key=f"hook-{match.pk}",
        version=match.version,
        via="api",
        actor=organizer,
    ).match


def test_a_hung_receiver_does_not_hold_up_the_result(celery_worker):
    tournament, organizer, rnd, _ = published_round("hung")
    match = rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number").first()
    with receiver() as server:
        server.hold = server.arrived  # hold every answer once a delivery has arrived
        webhook_create(
            user=organizer, club=tournament.club, url=server.url, events=["result.confirmed"]
        )
        # The result is stored and answered; the worker then sends the event.
        assert confirm(match, organizer).status == Match.Status.CONFIRMED
        wait_for(server.arrived.is_set, what="deliver the event", worker=celery_worker)
        # The receiver has not answered yet: the result was answered without waiting for it.
        delivery = WebhookDelivery.objects.get()
        assert delivery.status == "pending" and delivery.attempts == 0
        server.release.set()
        wait_for(
            lambda: WebhookDelivery.objects.filter(status="delivered").exists(),
            what="record the delivery",
            worker=celery_worker,
        )
    assert server.received[0].json["data"]["match"]["id"] == match.pk


def test_the_worker_tries_a_failed_delivery_again_after_its_backoff(celery_worker):
    tournament, organizer, rnd, _ = published_round("retry")
    match = rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number").first()
    with receiver() as server:
        server.statuses = [502]
        webhook_create(
            user=organizer, club=tournament.club, url=server.url, events=["result.confirmed"]
        )
        confirm(match, organizer)
        delivery = wait_for(
            lambda: WebhookDelivery.objects.filter(status="delivered").first(),
            what="deliver after one retry (5 s)",
            worker=celery_worker,
        )
        assert (delivery.attempts, delivery.last_status_code) == (2, 200)
        assert len(server.received) == 2
    log = celery_worker.log_path.read_text()
    assert f"webhook delivery {delivery.pk} (result.confirmed" in log
    assert "retry in 5s" in log
