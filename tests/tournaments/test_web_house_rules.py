"""The house rules a tournament plays are said in words on its public page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def page_of(client, tournament: Tournament) -> str:
    url = reverse("web:tournament", args=[tournament.club.slug, tournament.slug])
    return client.get(url).content.decode()


def test_the_house_rules_are_listed_only_when_played(client):
    plain = TournamentFactory(status=Tournament.Status.RUNNING, is_public=True)
    assert "tío Perete" not in page_of(client, plain)
    house = TournamentFactory(
        status=Tournament.Status.RUNNING,
        is_public=True,
        real_31="sota_of_suit",
        real_31_suit="oros",
        tio_perete=True,
        forgotten_stones_lost=True,
    )
    page = page_of(client, house)
    assert "sota de un palo y tres sietes" in page and "sota de oros" in page
    assert "el tío Perete (4-5-6-7) vale una piedra" in page
    assert "piedra olvidada, piedra perdida al cortar" in page
