"""The organizer's page of a peña's webhooks and their delivery log, in Spanish and English."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership, Webhook, WebhookDelivery
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_with_log():
    club = ClubFactory(name="Peña Txoko", slug="pena-txoko")
    organizer = UserFactory(username="organizadora")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    hook = Webhook.objects.create(
        club=club,
        url="https://mus.example.org/avisos",
        secret="whsec_s",
        events=["round.published"],
    )
    WebhookDelivery.objects.create(
        webhook=hook,
        event="round.published",
        event_id="round.published:1",
        payload={},
        status="delivered",
        attempts=1,
        last_status_code=200,
    )
    WebhookDelivery.objects.create(
        webhook=hook,
        event="round.published",
        event_id="round.published:2",
        payload={},
        attempts=2,
        last_status_code=503,
        last_error="HTTP 503",
        next_attempt_at=timezone.now(),
    )
    return club, organizer


def test_the_organizer_reads_the_log(client, club_with_log):
    club, organizer = club_with_log
    client.force_login(organizer)
    response = client.get(reverse("web:organizer-webhooks", args=[club.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "https://mus.example.org/avisos" in html and "whsec_s" not in html
    assert "Registro de entregas" in html and "ronda publicada" in html
    assert "2 intentos" in html and "HTTP 503" in html and "siguiente intento a las" in html
    assert "entregado" in html and "pendiente" in html


def test_the_page_in_english(client, club_with_log):
    club, organizer = club_with_log
    client.force_login(organizer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("web:organizer-webhooks", args=[club.slug])).content.decode()
    assert "Delivery log" in html and "round published" in html
    assert "2 attempts" in html and "1 attempt" in html and "next attempt at" in html
    assert "delivered" in html


def test_only_the_peñas_organizers_read_it(client, club_with_log):
    club, _ = club_with_log
    client.force_login(UserFactory(username="otro"))
    assert client.get(reverse("web:organizer-webhooks", args=[club.slug])).status_code == 403
    assert client.get(reverse("web:organizer-webhooks", args=["no-such"])).status_code == 404
