"""Nothing impossible is stored and nothing legal refused, through the API: a game's stones are
bounded by the engine's one check (scoring.check_game_stones: the target less one, and what one
stone count can pay, the largest bet recorded — a game to 40 ends 10,038 at the most: a bet has
no ceiling in the rulebooks), never by a database column. The 2,147,483,648-stone result is a
400 on submission, so the match is never stuck on a confirmation that cannot be stored; a rare
but possible score (a big deje at the end of a game) is accepted."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import MatchFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import HandEntry, Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


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


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:{name}", kwargs=kwargs)


def post(client, path, data, key, **headers):
    return client.post(path, data, format="json", HTTP_IDEMPOTENCY_KEY=key, **headers)


def submit(client, match, games, key="a-1", **headers):
    path = url("results-table-submit", token=match.token)
    return post(client, path, {"side": "a", "version": 0, "games": games}, key, **headers)


@pytest.mark.parametrize("won", [10_039, 2_147_483_648, 10**40])
def test_a_winner_past_the_limit_is_a_400_that_names_it(client, match, won):
    response = submit(client, match, [{"stones": [won, 3]}, {"stones": [40, 10]}])

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "stones_above_limit"
    assert error["params"]["limit"] == 10_038 and error["params"]["target"] == 40
    assert error["params"]["bet"] == 9999
    assert "10038 at the most" in error["message"]
    assert not ResultSubmission.objects.exists()
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and match.version == 0


def test_the_limit_in_spanish(client, match):
    response = submit(client, match, [{"stones": [14_000, 10]}], HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert "como mucho con 10038" in response.json()["error"]["message"]


def test_after_a_refusal_the_match_is_entered_and_confirmed(client, match):
    assert submit(client, match, [{"stones": [2_147_483_648, 3]}]).status_code == 400
    # a big deje or accepted envite at the end: rare, possible, accepted (a bet has no
    # ceiling: 004 «Note»), past twice the target too
    rare = [{"stones": [79, 39]}, {"stones": [140, 10]}]
    assert submit(client, match, rare, "a-2").status_code == 200
    path = url("results-table-confirm", token=match.token)
    confirmed = post(client, path, {"side": "b", "version": 1}, "b-1")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["match"]["stones"] == {"a": 219, "b": 49}


def test_the_organizer_is_held_to_the_same_limit(client, match, organizer):
    client.force_login(organizer)
    path = url("results-submit", match_id=match.pk)
    response = post(client, path, {"version": 0, "games": [{"stones": [20_000, 0]}] * 2}, "o-1")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "stones_above_limit"
    legal = post(client, path, {"version": 0, "games": [{"stones": [200, 0]}] * 2}, "o-2")
    assert legal.status_code == 200, legal.json()


CARDS = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]


def test_a_big_deje_that_wins_the_game_is_stored(client, match):
    # mano (A) envido 90, postre (B) órdago, mano no quiero: B's deje is the bet before the
    # órdago, 90 (001), counted at once (004): the game ends 0-90, past twice the target less
    # one (79), which was refused before
    hand = {"cards": CARDS, "bets": {"grande": ["envido 90", "órdago", "no quiero"]}}
    path = url("results-table-hand-add", token=match.token)
    response = post(client, path, {"hand": hand, "version": 0}, "h-1")
    assert response.status_code == 200, response.json()
    counted = response.json()["hand"]
    assert counted["stones"] == {"A": 0, "B": 90} and counted["game_winner"] == "B"
    assert HandEntry.objects.count() == 1


def test_a_bet_past_what_can_be_recorded_is_refused_and_not_stored(client, match):
    hand = {"cards": CARDS, "bets": {"grande": ["envido 9999", "5 más", "quiero"]}}
    path = url("results-table-hand-add", token=match.token)
    response = post(client, path, {"hand": hand, "version": 0}, "h-1")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bet_above_limit" and error["params"]["hand"] == 1
    assert error["params"]["most"] == 9999 and error["params"]["stones"] == 10_004
    assert not HandEntry.objects.exists()
