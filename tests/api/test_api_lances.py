"""Hands written as lance points or totals, and the start score, through the REST API: the
table's link and the organizer's desk answer a bad figure with a clear 400 and store nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import MatchFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LANCES = {
    "lances": {
        "grande": {"to": "mano", "how": "deje", "stones": 1},
        "chica": {"to": "postre", "how": "querido", "stones": 5},
        "pares": {"to": "postre", "how": "paso", "bonus": 4},
        "juego": {"to": "mano", "how": "paso", "bonus": 5},
    }
}


@pytest.fixture
def client():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def organizer():
    return UserFactory(username="organizer")


@pytest.fixture
def match(organizer):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    MembershipFactory(club=tournament.club, user=organizer)
    return MatchFactory(round__phase__tournament=tournament)


def table_add(match) -> str:
    return reverse("api:tournaments:results-table-hand-add", kwargs={"token": match.token})


def desk_add(match) -> str:
    return reverse("api:tournaments:results-hand-add", kwargs={"match_id": match.pk})


def post(client, path, data, key):
    return client.post(path, data, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_the_table_enters_a_hand_as_lance_points(client, match):
    response = post(client, table_add(match), {"hand": LANCES, "version": 0}, "h1")
    assert response.status_code == 200
    assert response.json()["running"]["state"]["stones"] == {"A": 6, "B": 9}


def test_an_impossible_deje_is_a_400_with_a_clear_body(client, match):
    # no refused bet leaves 0 (a deje of a game or more can be: docs/rules.md, «Betting»)
    hand = {"lances": {**LANCES["lances"], "grande": {"to": "mano", "how": "deje", "stones": 0}}}
    response = post(client, table_add(match), {"hand": hand, "version": 0}, "h1")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "deje_impossible"
    assert error["message"].startswith("Hand 1: A deje of 0 in grande cannot be")
    assert error["params"]["stones"] == 0
    assert not match.hands.exists()


def test_the_message_follows_accept_language(match):
    spanish = APIClient(HTTP_ACCEPT_LANGUAGE="es")
    hand = {"totals": {"mano": 1, "postre": 0}}
    response = post(spanish, table_add(match), {"hand": hand, "version": 0}, "h1")
    assert response.status_code == 400
    assert "Una mano da al menos 3 piedras" in response.json()["error"]["message"]


def test_the_organizer_enters_totals_and_a_start_score(client, organizer, match):
    client.force_login(organizer)
    hand = {"totals": {"mano": 7, "postre": 3}, "start": {"A": 12, "B": 20}}
    response = post(client, desk_add(match), {"hand": hand, "version": 0}, "h1")
    assert response.status_code == 200
    assert response.json()["running"]["state"]["stones"] == {"A": 19, "B": 23}


def test_a_start_score_at_the_target_is_a_400(client, organizer, match):
    client.force_login(organizer)
    hand = {**LANCES, "start": {"A": 40, "B": 0}}
    response = post(client, desk_add(match), {"hand": hand, "version": 0}, "h1")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "start_at_target"
    assert not match.hands.exists()
