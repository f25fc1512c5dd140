"""An error a trio reads names a trío, never a pareja: the result flow's (own_submission), the
engine's on the games entered (winner_contradicts_stones, both_at_target) and on a hand's
betting (out_of_turn), in English (the default) and in Spanish, through the table's link. The
same errors in a match of pairs still say pareja."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

A_WINS = [{"stones": [40, 20]}, {"stones": [40, 10]}]
SIX_NONE = ["none"] * 6
#: mano's side bets and then names itself again instead of letting the other side answer
OUT_OF_TURN = {
    "bets": {"grande": ["envido", "mano: quiero"]},
    "declarations": {
        "pares": SIX_NONE,
        "juego": SIX_NONE,
        "punto": [30, 29, 28, 27, 26, 25],
        "winners": {"grande": "mano", "chica": "postre"},
    },
}


def _match(kind: str) -> Match:
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, entrant_kind=kind)
    return MatchFactory(round__phase__tournament=tournament)


@pytest.fixture
def trios_match():
    return _match(Tournament.EntrantKind.TRIOS)


@pytest.fixture
def pairs_match():
    return _match(Tournament.EntrantKind.PAIRS)


def _post(match: Match, action: str, data: dict, key: str, language: str) -> dict:
    path = reverse(f"api:tournaments:results-table-{action}", kwargs={"token": match.token})
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(path, data, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert 400 <= response.status_code < 500, response.json()
    return response.json()["error"]


def _own_submission(match: Match, language: str) -> dict:
    """Trío (or pareja) A enters the result, then tries to confirm it itself."""
    if match.status != Match.Status.SUBMITTED:
        path = reverse("api:tournaments:results-table-submit", kwargs={"token": match.token})
        sent = APIClient().post(
            path, {"side": "a", "version": 0, "games": A_WINS}, format="json",
            HTTP_IDEMPOTENCY_KEY="a-sends",
        )  # fmt: skip
        assert sent.status_code == 200, sent.json()
        match.refresh_from_db()
    return _post(match, "confirm", {"side": "a", "version": 1}, f"a-{language}", language)


def test_a_trio_confirming_its_own_result_reads_trio_in_english_and_trio_in_spanish(trios_match):
    english = _own_submission(trios_match, "en")
    assert english["code"] == "own_submission"
    assert english["message"] == "This result was entered by trio A; trio B has to confirm it."
    spanish = _own_submission(trios_match, "es")
    assert (
        spanish["message"] == "Este resultado lo envió el trío A: tiene que confirmarlo el trío B."
    )
    assert spanish["params"] == english["params"] == {"side": "A", "other": "B", "team": "trio"}


def test_a_pair_confirming_its_own_result_still_reads_pareja(pairs_match):
    english = _own_submission(pairs_match, "en")
    assert english["message"] == "This result was entered by pareja A; pareja B has to confirm it."
    spanish = _own_submission(pairs_match, "es")
    assert spanish["message"] == (
        "Este resultado lo envió la pareja A: tiene que confirmarlo la pareja B."
    )
    assert english["params"]["team"] == "pareja"


@pytest.mark.parametrize(
    ("kind", "english", "spanish"),
    [
        (
            Tournament.EntrantKind.TRIOS,
            "Game 1: trio B is given as the winner, but the stones 40-20 say trio A won.",
            "Juego 1: el ganador anotado es el trío B, pero con 40-20 ganó el trío A. Corrige "
            "el ganador o las piedras.",
        ),
        (
            Tournament.EntrantKind.PAIRS,
            "Game 1: pareja B is given as the winner, but the stones 40-20 say pareja A won.",
            "Juego 1: el ganador anotado es la pareja B, pero con 40-20 ganó la pareja A. "
            "Corrige el ganador o las piedras.",
        ),
    ],
)
def test_the_engine_names_the_teams_of_the_match_s_form(kind, english, spanish):
    match = _match(kind)
    games = [{"stones": [40, 20], "winner": "B"}, *A_WINS[1:]]
    data = {"side": "a", "version": 0, "games": games}
    en = _post(match, "submit", data, "k-en", "en")
    assert (en["code"], en["message"]) == ("winner_contradicts_stones", english)
    assert _post(match, "submit", data, "k-es", "es")["message"] == spanish
    both = {"side": "a", "version": 0, "games": [{"stones": [40, 41]}]}
    word = "los dos tríos" if kind == Tournament.EntrantKind.TRIOS else "las dos parejas"
    assert _post(match, "submit", both, "b-es", "es")["message"].startswith(
        f"Juego 1: {word} tienen 40 o más (40-41)."
    )


def test_a_trios_hand_bet_out_of_turn_names_the_trio(trios_match):
    data = {"hand": OUT_OF_TURN, "version": 0}
    english = _post(trios_match, "hand-add", data, "h-en", "en")
    assert english["code"] == "out_of_turn"
    assert "after trio mano bet, trio postre answers" in english["message"]
    assert "pareja" not in english["message"] and "pair" not in english["message"]
    spanish = _post(trios_match, "hand-add", data, "h-es", "es")["message"]
    assert "después de que envide el trío mano, contesta el trío postre" in spanish


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_side_left_out_is_asked_for_without_naming_a_pair(trios_match, language):
    """The link's side errors speak to any table: a trio is not told to say which pair it is."""
    data = {"side": "organizer", "version": 0, "games": A_WINS}  # not a side of the table
    error = _post(trios_match, "submit", data, "no-side", language)

    assert error["code"] == "side_required"
    assert "pair" not in error["message"] and "pareja" not in error["message"]
