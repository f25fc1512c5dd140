"""Writes of a peña's webhooks: registering and removing them, recording an event for each
webhook that hears it, and delivering one attempt.

Responsible for:

- ``webhook_create`` / ``webhook_delete`` (organizers of the peña): a URL (http or https) and
  the events it hears; the secret is made here and shown once, in the create's answer;
- ``webhook_event_record``: called by the services and tasks where an event happens (in their
  transaction, or in the task that follows the commit): one WebhookDelivery row per webhook that
  hears it — the outbox, written with the event itself — and its delivery queued after the
  commit (``config.queue.enqueue_on_commit``), so no request ever waits for a receiver. The
  event's id makes it idempotent: a task run twice records it once per webhook;
- ``webhook_deliver_attempt``: one POST of a pending delivery, signed (clubs.webhooks.signing),
  with a short timeout and no redirects, to the address its name resolved to when it was
  checked (not to a second lookup: DNS rebinding; TLS still checks the certificate against the
  name; no HTTP proxy is used), its outcome written to the delivery log; it answers
  how long to wait before the next attempt (exponential backoff, ``retry_delay``), or None
  once delivered or given up after ``MAX_ATTEMPTS``. The task (tournaments.tasks
  ``webhook_deliver``) schedules that retry;
- ``webhook_redeliver``: an organizer sends a failed (or pending) delivery again, at once;
- ``webhook_deliveries_due``: the pending deliveries whose task was lost (the broker down at
  the commit, a scheduled retry gone with a restarted broker), for a periodic sweep.

No row is locked while a receiver is waited for: the attempt reads the row, POSTs, then writes
the outcome in a short transaction. A delivery may thus arrive twice (a worker killed after
the POST, before writing); receivers tell them apart by ``X-Amarrako-Delivery``.

Must not: decide what an event says (the tournaments' services build it), or be imported by
the pure signing module.

Terms: peña (club), webhook, entrega (delivery).
"""

from __future__ import annotations

import datetime as dt
import http.client
import ipaddress
import json
import logging
import socket
import ssl
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs import roles
from clubs.models import Club, Webhook, WebhookDelivery
from clubs.webhooks.signing import new_secret, signature_header
from config.errors import Conflict, Invalid
from config.queue import enqueue_on_commit

log = logging.getLogger(__name__)

User = AbstractBaseUser | AnonymousUser | None

#: the first attempt and up to six retries, 5 s … about 1 h after it (5·3ⁿ s)
MAX_ATTEMPTS = 7
#: seconds to connect and to wait for the answer: a dead receiver costs the worker this, once
TIMEOUT_SECONDS = 5
MAX_WEBHOOKS_PER_CLUB = 10
DELIVER_TASK = "clubs.webhook_deliver"
USER_AGENT = "Amarrako-Webhooks/1"


def retry_delay(attempts: int) -> int:
    """Seconds to wait after ``attempts`` failed attempts: 5, 15, 45, 135, 405, 1215."""
    return 5 * 3 ** (attempts - 1)


# --- Registering -------------------------------------------------------------------------------


def _url(value: Any) -> str:
    url = value.strip() if isinstance(value, str) else ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(url) > 500:
        raise Invalid(
            "A webhook's URL is an http:// or https:// address of at most 500 characters, "
            "not '{url}'.",
            code="webhook_url",
            url=str(value)[:80],
        )
    if _private_address(parts.hostname):
        raise Invalid(
            "A webhook cannot point to {host}: it is an address of this server's own network.",
            code="webhook_url_private",
            host=parts.hostname[:80],
        )
    return url


def _private_address(host: str) -> bool:
    """Whether ``host`` is, or resolves to, a loopback, private, link-local or reserved
    address — the server's own network, which a peña's webhook must not reach (unless
    WEBHOOKS_ALLOW_PRIVATE, for a venue's own network and for tests). A name that does not
    resolve now is not refused: its deliveries fail and are retried."""
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return False
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global:
            return True
    return False


def _events(value: Iterable[str] | None) -> list[str]:
    if not value:
        return list(Webhook.Event.values)
    unknown = [str(v)[:40] for v in value if v not in Webhook.Event.values]
    if unknown:
        raise Invalid(
            "Unknown webhook event '{event}'; the events are {events}.",
            code="webhook_event_unknown",
            event=unknown[0],
            events=list(Webhook.Event.values),
        )
    return [e for e in Webhook.Event.values if e in value]


def webhook_create(
    *, user: User, club: Club, url: str, events: Iterable[str] | None = None
) -> Webhook:
    """Register a webhook for the peña; its secret is in the returned row (show it once)."""
    roles.require_organizer(user, club)
    url, chosen = _url(url), _events(events)
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        count = Webhook.objects.filter(club=locked).count()
        if count >= MAX_WEBHOOKS_PER_CLUB:
            raise Conflict(
                "{club_name} has {limit} webhooks already, the most a peña may have; remove "
                "one first.",
                code="webhook_limit",
                club_name=club.name,
                limit=MAX_WEBHOOKS_PER_CLUB,
            )
        return Webhook.objects.create(
            club=locked, url=url, events=chosen, secret=new_secret(), created_by=user
        )


def webhook_delete(*, user: User, webhook: Webhook) -> None:
    """Remove a webhook and its delivery log; nothing more is sent to it. Deleting one that is
    gone already is not an error (a retried request)."""
    roles.require_organizer(user, webhook.club)
    Webhook.objects.filter(pk=webhook.pk).delete()


# --- Events --------------------------------------------------------------------------------------


def webhooks_any(*, club_id: int) -> bool:
    """Whether the peña has an active webhook at all (one EXISTS query): the worker asks this
    first after each result, and a peña without one costs nothing more."""
    return Webhook.objects.filter(club_id=club_id, is_active=True).exists()


def webhooks_hearing(*, club_id: int, event: str) -> list[Webhook]:
    """The peña's active webhooks that hear ``event`` (one query; usually none)."""
    hooks = Webhook.objects.filter(club_id=club_id, is_active=True)
    return [h for h in hooks if event in h.events]


def webhook_event_record(
    *,
    club_id: int,
    event: str,
    event_id: str,
    data: dict[str, Any],
    hooks: list[Webhook] | None = None,
) -> int:
    """Record ``event`` for each webhook of the peña that hears it and queue each delivery
    after the commit; returns how many deliveries were recorded (0 for an event recorded
    before). ``hooks``: the result of ``webhooks_hearing`` when the caller has it."""
    if hooks is None:
        hooks = webhooks_hearing(club_id=club_id, event=event)
    if not hooks:
        return 0
    recorded = 0
    with transaction.atomic():
        for hook in hooks:
            payload = {
                "id": event_id,
                "event": event,
                "created_at": timezone.now().isoformat(),
                "data": data,
            }
            try:
                with transaction.atomic():
                    delivery = WebhookDelivery.objects.create(
                        webhook=hook, event=event, event_id=event_id, payload=payload
                    )
            except IntegrityError:
                continue  # this event was recorded for this webhook before
            enqueue_on_commit(DELIVER_TASK, delivery_id=delivery.pk)
            recorded += 1
    return recorded


# --- Delivering ----------------------------------------------------------------------------------


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to ``address``, the one that was checked: ``host`` (the URL's name) is only the
    Host header. Resolving the name again to connect would let a name that answered a public
    address to the check answer a private one now (DNS rebinding)."""

    def __init__(self, host: str, port: int | None, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to ``address``, the one that was checked; the certificate is checked against
    ``host``, the URL's name (and sent as SNI), as for any HTTPS request."""

    def __init__(self, host: str, port: int | None, *, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def _address_to_reach(host: str, port: int) -> tuple[str | None, str]:
    """(the address to connect to, why there is none): the name is resolved once, here, and
    refused if any of its addresses is the server's own network (WEBHOOKS_ALLOW_PRIVATE aside);
    the delivery then connects to the address checked, never to a second answer."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        return None, f"{type(error).__name__}: {error}"[:200]
    addresses = [info[4][0] for info in infos]
    if not addresses:
        return None, "the name has no address"
    if not settings.WEBHOOKS_ALLOW_PRIVATE and any(
        not ipaddress.ip_address(a.split("%")[0]).is_global for a in addresses
    ):
        return None, "refused: the address is in the server's own network"
    return addresses[0], ""


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """POST and return (HTTP status or None, what went wrong or ""). No redirect is followed:
    a redirect is an answer like any other non-2xx, not delivered."""
    parts = urlsplit(url)
    https = parts.scheme == "https"
    try:
        port = parts.port or (443 if https else 80)
    except ValueError:
        return None, "the URL's port is not a number from 0 to 65535"
    address, why = _address_to_reach(parts.hostname or "", port)
    if address is None:
        return None, why
    connection_class = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
    connection = connection_class(parts.hostname, port, address=address, timeout=TIMEOUT_SECONDS)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target, body=body, headers=headers)
        response = connection.getresponse()
        response.read(1024)
        status = response.status
    except (OSError, http.client.HTTPException) as error:  # refused, timeouts, TLS, bad lines
        return None, f"{type(error).__name__}: {error}"[:200]
    finally:
        connection.close()
    return status, "" if 200 <= status < 300 else f"HTTP {status}"


def webhook_deliver_attempt(
    *, delivery: WebhookDelivery, now: dt.datetime | None = None
) -> int | None:
    """One attempt of a pending delivery; returns the seconds to wait before the next one, or
    None when there is none to make (delivered, given up, gone or not pending). The row is read
    again: another attempt may have finished it in between."""
    delivery = (
        WebhookDelivery.objects.select_related("webhook")
        .filter(pk=delivery.pk, status=WebhookDelivery.Status.PENDING)
        .first()
    )
    if delivery is None or not delivery.webhook.is_active:
        return None
    hook = delivery.webhook
    body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
    now = now or timezone.now()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Amarrako-Event": delivery.event,
        "X-Amarrako-Delivery": str(delivery.pk),
        "X-Amarrako-Signature": signature_header(hook.secret, int(now.timestamp()), body),
    }
    status, error = _post(hook.url, body, headers)
    ok = status is not None and 200 <= status < 300
    attempts = delivery.attempts + 1
    done = timezone.now()
    values: dict[str, Any] = {
        "attempts": attempts,
        "last_status_code": status,
        "last_error": "" if ok else error,
        "last_attempt_at": done,
        "next_attempt_at": None,
    }
    retry_in = None
    if ok:
        values.update(status=WebhookDelivery.Status.DELIVERED, delivered_at=done)
    elif attempts >= MAX_ATTEMPTS:
        values.update(status=WebhookDelivery.Status.FAILED)
    else:
        retry_in = retry_delay(attempts)
        values.update(next_attempt_at=done + dt.timedelta(seconds=retry_in))
    WebhookDelivery.objects.filter(pk=delivery.pk).update(**values)
    log.log(
        logging.INFO if ok else logging.WARNING,
        "webhook delivery %s (%s to %s), attempt %s: %s",
        delivery.pk,
        delivery.event,
        hook.url,
        attempts,
        "delivered"
        if ok
        else f"failed ({error}); retry in {retry_in}s"
        if retry_in
        else "given up",
    )
    return retry_in


#: how late a pending delivery may be before the sweep sends it again (its task was lost)
SWEEP_GRACE_SECONDS = 60
SWEEP_BATCH = 500


def webhook_deliveries_due(*, now: dt.datetime | None = None) -> list[int]:
    """The pending deliveries whose task was lost — never attempted a minute after they were
    recorded (the broker was down at the commit), or a retry a minute overdue (a broker
    restarted without its scheduled messages) — oldest first, at most SWEEP_BATCH. Periodic
    work (tournaments.tasks ``webhooks_sweep``) queues them again."""
    late = (now or timezone.now()) - dt.timedelta(seconds=SWEEP_GRACE_SECONDS)
    pending = WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING, webhook__is_active=True
    )
    never = pending.filter(attempts=0, last_attempt_at=None, created_at__lte=late)
    overdue = pending.filter(next_attempt_at__lte=late)
    return list(
        (never | overdue).order_by("created_at", "id").values_list("pk", flat=True)[:SWEEP_BATCH]
    )


def webhook_redeliver(*, user: User, delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a delivery again, now (its attempts start over). Organizers of its peña."""
    roles.require_organizer(user, delivery.webhook.club)
    with transaction.atomic():
        delivery = WebhookDelivery.objects.select_for_update().get(pk=delivery.pk)
        delivery.status = WebhookDelivery.Status.PENDING
        delivery.attempts = 0
        delivery.next_attempt_at = None
        delivery.save(update_fields=["status", "attempts", "next_attempt_at"])
        enqueue_on_commit(DELIVER_TASK, delivery_id=delivery.pk)
    return delivery
