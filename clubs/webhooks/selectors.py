"""Reads of a peña's webhooks and their delivery log, for its organizers only.

Responsible for: the webhooks of a peña, one webhook or one delivery from an id in a URL (with
the permission check: an organizer of the peña; anybody else gets Forbidden, and an id of
another peña NotFound), and the delivery log, newest first, in two queries whatever its length.

Must not: write, or show a webhook's secret (only its create answer does).

Terms: peña (club), webhook, entrega (delivery).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubs import roles
from clubs.models import Club, Webhook, WebhookDelivery
from config.errors import NotFound

User = AbstractBaseUser | AnonymousUser | None

#: the delivery log shows this many, newest first
LOG_LENGTH = 100


def webhooks_for_club(*, user: User, club: Club) -> QuerySet[Webhook]:
    roles.require_organizer(user, club)
    return Webhook.objects.filter(club=club).order_by("id")


def webhook_get(*, user: User, club: Club, webhook_id: int) -> Webhook:
    roles.require_organizer(user, club)
    webhook = Webhook.objects.select_related("club").filter(club=club, pk=webhook_id).first()
    if webhook is None:
        raise NotFound(
            "This peña has no webhook {webhook_id}.",
            code="webhook_not_found",
            webhook_id=webhook_id,
        )
    return webhook


def delivery_get(*, user: User, club: Club, delivery_id: int) -> WebhookDelivery:
    roles.require_organizer(user, club)
    delivery = (
        WebhookDelivery.objects.select_related("webhook__club")
        .filter(webhook__club=club, pk=delivery_id)
        .first()
    )
    if delivery is None:
        raise NotFound(
            "This peña has no webhook delivery {delivery_id}.",
            code="webhook_delivery_not_found",
            delivery_id=delivery_id,
        )
    return delivery


def deliveries_for_club(
    *, user: User, club: Club, webhook: Webhook | None = None, limit: int = LOG_LENGTH
) -> list[WebhookDelivery]:
    """The newest deliveries of the peña's webhooks (or of one), with their webhook."""
    roles.require_organizer(user, club)
    rows = WebhookDelivery.objects.filter(webhook__club=club).select_related("webhook")
    if webhook is not None:
        rows = rows.filter(webhook=webhook)
    return list(rows.order_by("-created_at", "-id")[:limit])
