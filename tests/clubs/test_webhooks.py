"""A peña's webhooks: registered by an organizer, told of results confirmed, rounds published and
tournaments finished, each delivery signed and recorded in a log the organizer reads; a
receiver that fails is tried again later with a growing wait, and a dead one never fails (or,
with a worker, holds up) a result. Receivers are local HTTP servers in a thread.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import socket
import ssl
import time

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Club, Webhook, WebhookDelivery
from clubs.webhooks.services import MAX_ATTEMPTS, retry_delay, webhook_deliver_attempt
from clubs.webhooks.signing import signature_header, signature_valid
from tests.api.test_api_full_tournament import (
    Api,
    add_phase,
    open_tournament,
    play_round,
)
from tests.clubs.webhook_receiver import closed_port_url, receiver
from tests.factories import UserFactory
from tournaments import tasks
from tournaments.models import Match

API = "/api/v1/"


# --- The signature, pure ----------------------------------------------------------------------


def test_a_signature_is_the_hmac_of_the_time_and_the_body():
    body = b'{"event":"round.published"}'
    header = signature_header("whsec_x", 1_780_000_000, body)
    expected = hmac.new(b"whsec_x", b"1780000000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1780000000,v1={expected}"
    assert signature_valid("whsec_x", header, body, now=1_780_000_100)


@pytest.mark.parametrize(
    ("secret", "body", "now", "why"),
    [
        ("whsec_y", b"{}", 1_780_000_000, "another secret"),
        ("whsec_x", b'{"a":1}', 1_780_000_000, "another body"),
        ("whsec_x", b"{}", 1_780_000_000 + 301, "replayed later"),
        ("whsec_x", b"{}", 1_780_000_000 - 301, "from the future"),
    ],
)
def test_a_signature_does_not_fit(secret, body, now, why):
    header = signature_header("whsec_x", 1_780_000_000, b"{}")
    assert not signature_valid(secret, header, body, now=now), why


def test_a_malformed_signature_header_is_refused():
    for header in ("", "v1=abc", "t=soon,v1=abc", "t=1780000000"):
        assert not signature_valid("whsec_x", header, b"{}", now=1_780_000_000)


def test_the_backoff_grows_threefold():
    assert [retry_delay(n) for n in range(1, MAX_ATTEMPTS)] == [5, 15, 45, 135, 405, 1215]


# --- Through the API --------------------------------------------------------------------------


@pytest.fixture
def desk(db, django_capture_on_commit_callbacks) -> Api:
    client = APIClient()
    client.force_login(UserFactory(username="organizadora"))
    return Api(client, django_capture_on_commit_callbacks)


@pytest.fixture
def table(db, django_capture_on_commit_callbacks) -> Api:
    return Api(APIClient(), django_capture_on_commit_callbacks)


def register(desk: Api, club_id: int, url: str, events=None) -> dict:
    body = {"url": url} if events is None else {"url": url, "events": events}
    return desk.post(f"clubs/{club_id}/webhooks/create", body, status=201)


def test_an_organizer_registers_a_webhook_and_gets_its_secret_once(desk):
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)
    hook = register(desk, club["id"], "https://example.org/mus")
    assert hook["secret"].startswith("whsec_") and len(hook["secret"]) > 40
    assert hook["events"] == [
        "result.confirmed",
        "round.published",
        "tournament.finished",
        "championship.qualified",
    ]
    listed = desk.get(f"clubs/{club['id']}/webhooks")
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]

    assert desk.post(f"clubs/{club['id']}/webhooks/create", {"url": "ftp://x"}, status=400)[
        "error"
    ]["code"] == ("webhook_url")
    error = desk.post(
        f"clubs/{club['id']}/webhooks/create",
        {"url": "https://example.org", "events": ["match.lost"]},
        status=400,
    )["error"]
    assert (error["code"], error["params"]["event"]) == ("webhook_event_unknown", "match.lost")

    stranger = APIClient()
    stranger.force_login(UserFactory(username="otro"))
    for response in (
        stranger.get(f"{API}clubs/{club['id']}/webhooks"),
        stranger.post(f"{API}clubs/{club['id']}/webhooks/create", {"url": "https://e.org"}),
        stranger.get(f"{API}clubs/{club['id']}/webhooks/{hook['id']}/deliveries"),
    ):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "not_organizer"

    response = desk.client.post(f"{API}clubs/{club['id']}/webhooks/{hook['id']}/delete")
    assert response.status_code == 204
    assert desk.get(f"clubs/{club['id']}/webhooks") == []
    error = desk.get(f"clubs/{club['id']}/webhooks/{hook['id']}/deliveries", status=404)
    assert error["error"]["code"] == "webhook_not_found"


def test_each_event_is_delivered_signed_and_logged(desk, table):
    with receiver() as server:
        tournament = open_tournament(desk)
        club_id = Club.objects.get().id
        hook = register(desk, club_id, server.url)
        phase = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=1)
        rnd = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
        play_round(desk, table, rnd)  # publishes, then both pairs of each table enter it
        desk.post(f"tournaments/{tournament['id']}/status", {"status": "finished"})

        assert server.events() == ["round.published"] + ["result.confirmed"] * 4 + [
            "tournament.finished"
        ]
        for delivery in server.received:
            headers = delivery.headers
            assert headers["Content-Type"] == "application/json"
            assert headers["X-Amarrako-Event"] == delivery.json["event"]
            assert signature_valid(
                hook["secret"], headers["X-Amarrako-Signature"], delivery.body, time.time()
            )
        published = server.received[0].json
        assert published["id"] == f"round.published:{rnd['id']}"
        assert published["data"]["tournament"]["slug"] == tournament["slug"]
        assert len(published["data"]["round"]["matches"]) == 4
        result = server.received[1].json["data"]["match"]
        assert sum(result["games"]) >= 3 and result["winner_entry_id"] in (
            result["pair_a"]["entry_id"],
            result["pair_b"]["entry_id"],
        )

    log = desk.get(f"clubs/{club_id}/webhooks/{hook['id']}/deliveries")
    assert len(log) == 6
    assert {(d["status"], d["attempts"], d["last_status_code"]) for d in log} == {
        ("delivered", 1, 200)
    }
    assert log[0]["event"] == "tournament.finished"  # newest first


def test_the_same_event_twice_is_delivered_once(desk, table):
    with receiver() as server:
        tournament = open_tournament(desk)
        register(desk, Club.objects.get().id, server.url, ["result.confirmed"])
        phase = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=1)
        rnd = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
        play_round(desk, table, rnd)
        assert server.events() == ["result.confirmed"] * 4
        match = Match.objects.filter(status=Match.Status.CONFIRMED).first()
        # The chain runs again (a retried task, the reconciliation): nothing new is sent.
        with desk.capture(execute=True):
            tasks.result_confirmed(match.id)
        assert server.events() == ["result.confirmed"] * 4
        assert WebhookDelivery.objects.count() == 4


def test_a_failing_receiver_is_tried_again_later_then_given_up(desk, monkeypatch):
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)
    scheduled = []
    monkeypatch.setattr(
        tasks.webhook_deliver, "apply_async", lambda **kw: scheduled.append(kw["countdown"])
    )
    with receiver() as server:
        server.statuses = [500] * MAX_ATTEMPTS
        hook = register(desk, club["id"], server.url)
        delivery = WebhookDelivery.objects.create(
            webhook_id=hook["id"], event="round.published", event_id="e1", payload={"a": 1}
        )
        started = timezone.now()
        # As the worker runs it: each failure schedules the next attempt, later each time.
        for _ in range(MAX_ATTEMPTS):
            tasks.webhook_deliver(delivery.id)
        assert len(server.received) == MAX_ATTEMPTS
    assert scheduled == [5, 15, 45, 135, 405, 1215]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
        "failed",
        MAX_ATTEMPTS,
        500,
    )
    assert delivery.last_error == "HTTP 500" and delivery.next_attempt_at is None
    assert delivery.last_attempt_at >= started
    # Given up: another run sends nothing.
    assert tasks.webhook_deliver(delivery.id) is None


def test_a_retry_that_succeeds_and_a_redelivery_by_the_organizer(desk):
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)
    with receiver() as server:
        server.statuses = [503]
        hook = register(desk, club["id"], server.url)
        delivery = WebhookDelivery.objects.create(
            webhook_id=hook["id"], event="round.published", event_id="e1", payload={"a": 1}
        )
        now = timezone.now()
        assert webhook_deliver_attempt(delivery=delivery, now=now) == 5
        delivery.refresh_from_db()
        assert delivery.status == "pending" and delivery.last_status_code == 503
        assert delivery.next_attempt_at - delivery.last_attempt_at == dt.timedelta(seconds=5)
        assert webhook_deliver_attempt(delivery=delivery) is None
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts) == ("delivered", 2)

        again = desk.post(f"clubs/{club['id']}/webhook-deliveries/{delivery.id}/redeliver")
        assert (again["status"], again["attempts"]) == ("pending", 0)  # queued
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts) == ("delivered", 1)  # then sent
        assert len(server.received) == 3
        assert {r.headers["X-Amarrako-Delivery"] for r in server.received} == {str(delivery.id)}
    error = desk.post(f"clubs/{club['id']}/webhook-deliveries/999999/redeliver", status=404)
    assert error["error"]["code"] == "webhook_delivery_not_found"


def test_a_dead_receiver_never_fails_a_result(desk, table):
    tournament = open_tournament(desk)
    club_id = Club.objects.get().id
    hook = register(desk, club_id, closed_port_url(), ["result.confirmed"])
    phase = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=1)
    rnd = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
    play_round(desk, table, rnd)  # every answer 200, as the helper checks
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == 4
    log = desk.get(f"clubs/{club_id}/webhooks/{hook['id']}/deliveries")
    assert len(log) == 4
    assert all(d["status"] == "pending" and d["last_status_code"] is None for d in log)
    assert all(d["last_error"] and d["next_attempt_at"] for d in log)


def test_a_webhook_hears_only_its_events_and_other_peñas_hear_nothing(desk, table):
    with receiver() as mine, receiver() as theirs:
        tournament = open_tournament(desk)
        register(desk, Club.objects.get().id, mine.url, ["tournament.finished"])
        other = desk.post("clubs/create", {"name": "Peña Otra"}, status=201)
        register(desk, other["id"], theirs.url)
        phase = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=1)
        rnd = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
        play_round(desk, table, rnd)
        desk.post(f"tournaments/{tournament['id']}/status", {"status": "finished"})
        assert mine.events() == ["tournament.finished"]
        assert theirs.events() == []
    assert Webhook.objects.count() == 2


def test_the_sweep_sends_what_a_lost_task_left_pending(desk, monkeypatch):
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)
    with receiver() as server:
        hook = register(desk, club["id"], server.url)
        old = timezone.now() - dt.timedelta(minutes=5)

        def delivery(event_id: str, **values) -> WebhookDelivery:
            row = WebhookDelivery.objects.create(
                webhook_id=hook["id"], event="round.published", event_id=event_id, payload={}
            )
            WebhookDelivery.objects.filter(pk=row.pk).update(created_at=old, **values)
            return row

        never = delivery("never-sent")  # the broker was down when it was recorded
        overdue = delivery("overdue", attempts=1, last_attempt_at=old, next_attempt_at=old)
        delivery("waiting", attempts=1, last_attempt_at=old, next_attempt_at=timezone.now())
        delivery("done", status="delivered", attempts=1, last_attempt_at=old)
        fresh = WebhookDelivery.objects.create(
            webhook_id=hook["id"], event="round.published", event_id="fresh", payload={}
        )
        assert tasks.webhooks_sweep() == 2
        assert {r.path for r in server.received} == {"/hooks/amarrako"}
        assert sorted(r.headers["X-Amarrako-Delivery"] for r in server.received) == sorted(
            [str(never.pk), str(overdue.pk)]
        )
    assert WebhookDelivery.objects.get(pk=fresh.pk).attempts == 0  # its own task is coming
    assert tasks.webhooks_sweep() == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/x",
        "http://10.1.2.3/hook",
        "http://[::1]/x",
        "http://169.254.169.254/",
    ],
)
def test_a_webhook_cannot_reach_the_servers_own_network(desk, settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)

    error = desk.post(f"clubs/{club['id']}/webhooks/create", {"url": url}, status=400)["error"]

    assert error["code"] == "webhook_url_private"


def _connections(monkeypatch) -> list:
    """Every address a connection is opened to, none of them opened."""
    opened = []

    def connect(address, *args, **kwargs):
        opened.append(address)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket, "create_connection", connect)
    return opened


def test_a_delivery_to_an_address_that_became_private_is_refused_not_sent(settings, monkeypatch):
    from clubs.webhooks import services

    settings.WEBHOOKS_ALLOW_PRIVATE = False
    opened = _connections(monkeypatch)

    status, why = services._post("http://127.0.0.1:9/x", b"{}", {})

    assert (status, opened) == (None, [])
    assert "own network" in why


PUBLIC = "93.184.215.14"


def _rebinding(monkeypatch) -> list:
    """A name that answers a public address to the first lookup and the loopback after it (DNS
    rebinding); the lookups made are listed."""
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        lookups.append(host)
        address = PUBLIC if len(lookups) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_delivery_connects_to_the_address_it_checked_not_to_a_second_lookup(
    settings, monkeypatch, scheme
):
    """The check resolved the name, then the delivery resolved it again to connect: a name
    answering a public address first and the server's own network next was delivered there."""
    from clubs.webhooks import services

    settings.WEBHOOKS_ALLOW_PRIVATE = False
    lookups = _rebinding(monkeypatch)
    opened = _connections(monkeypatch)

    status, why = services._post(f"{scheme}://hook.example/x", b"{}", {})

    assert lookups == ["hook.example"]
    assert opened == [(PUBLIC, 443 if scheme == "https" else 80)]
    assert status is None and "no network in this test" in why


def test_https_is_checked_against_the_name_not_the_address(monkeypatch):
    """Connecting to the checked address must not cost the certificate check: TLS is given the
    URL's name (SNI and the certificate's name), with verification on."""
    from clubs.webhooks import services

    monkeypatch.setattr(
        services,
        "_address_to_reach",
        lambda host, port: (PUBLIC, ""),  # noqa: ARG005
    )
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: socket.socket())
    wrapped = []

    def wrap_socket(context, sock, server_hostname=None, **kwargs):
        wrapped.append((server_hostname, context.verify_mode, context.check_hostname))
        sock.close()
        raise ssl.SSLCertVerificationError("test: certificate refused")

    monkeypatch.setattr(ssl.SSLContext, "wrap_socket", wrap_socket)

    status, why = services._post("https://hook.example/x", b"{}", {})

    assert wrapped == [("hook.example", ssl.CERT_REQUIRED, True)]
    assert status is None and "certificate" in why
