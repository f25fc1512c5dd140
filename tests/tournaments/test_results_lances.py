"""Hands written as an anotador writes them, the score a game starts from, and the house rule
"a forgotten stone is lost once the deck is cut" (source 004), through the hands service."""

from __future__ import annotations

import pytest

from config.errors import Conflict, Invalid
from scoring import ScoringError
from tests.factories import MatchFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Match, Tournament
from tournaments.services import results as svc

pytestmark = pytest.mark.django_db

#: grande deje 1 to mano; chica 5 querido to postre; pares: postre duples and par (4); juego:
#: mano 31 and 33 (5): the issue's example of a paper anotador
LANCES = {
    "lances": {
        "grande": {"to": "mano", "how": "deje", "stones": 1},
        "chica": {"to": "postre", "how": "querido", "stones": 5},
        "pares": {"to": "postre", "how": "paso", "bonus": 4},
        "juego": {"to": "mano", "how": "paso", "bonus": 5},
    }
}


@pytest.fixture
def tournament():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    MembershipFactory(club=tournament.club, user=UserFactory(username="organizer"))
    return tournament


@pytest.fixture
def match(tournament):
    return MatchFactory(round__phase__tournament=tournament)


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def add_hand(match, hand, key):
    return svc.match_hand_add(
        match=match, hand=hand, idempotency_key=key, version=fresh(match).version, via="link"
    )


def undo(match):
    return svc.match_hand_undo(match=match, version=fresh(match).version, via="link")


def test_a_hand_written_as_lance_points_is_scored(match):
    answer = add_hand(match, LANCES, "h1")
    assert answer.hand["score"]["stones"] == {"mano": 6, "postre": 9}
    assert answer.running["state"]["stones"] == {"A": 6, "B": 9}


def test_totals_typed_alone_are_accepted_and_impossible_ones_refused(match):
    answer = add_hand(match, {"totals": {"mano": 7, "postre": 3}}, "h1")
    assert answer.running["state"]["stones"] == {"A": 7, "B": 3}
    with pytest.raises(ScoringError) as error:
        add_hand(match, {"totals": {"mano": 1, "postre": 0}}, "h2")
    assert error.value.code == "totals_too_few"
    assert error.value.message.startswith("Hand 2: ")
    assert match.hands.count() == 1


def test_a_bonus_that_contradicts_the_cards_is_refused_and_nothing_stored(match):
    hand = {
        **LANCES,
        "cards": ["Ro Rc 7e 1b", "Rb Re 1o 1c", "Co Cc 6e 7o", "So 7c 7b 4c"],
    }
    with pytest.raises(ScoringError) as error:
        add_hand(match, hand, "h1")
    # pares agrees (duples and a par: 4); juego does not: only mano's partner has juego, 33
    assert error.value.code == "bonus_contradicts"
    assert "claims 5 for juego but holds a juego other than 31 and nothing else: 2" in (
        error.value.message
    )
    assert not match.hands.exists() and fresh(match).version == 0


def test_a_game_starts_from_a_score_written_on_paper(match):
    answer = add_hand(match, {**LANCES, "start": {"A": 12, "B": 20}}, "h1")
    assert answer.running["state"]["stones"] == {"A": 18, "B": 29}


@pytest.mark.parametrize(
    ("start", "code"),
    [
        ({"A": 40, "B": 0}, "start_at_target"),
        ({"A": -1, "B": 0}, "start_stones_value"),
        ({"A": 1.5, "B": 0}, "start_stones_value"),
    ],
)
def test_an_impossible_start_score_is_refused(match, start, code):
    with pytest.raises(ScoringError) as error:
        add_hand(match, {**LANCES, "start": start}, "h1")
    assert error.value.code == code
    assert not match.hands.exists()


def test_the_start_score_comes_with_the_first_hand_only(match):
    add_hand(match, LANCES, "h1")
    with pytest.raises(Invalid) as error:
        add_hand(match, {**LANCES, "start": {"A": 1, "B": 1}}, "h2")
    assert error.value.code == "start_not_first_hand"


def test_a_hand_is_corrected_freely_without_the_house_rule(match):
    add_hand(match, LANCES, "h1")
    add_hand(match, LANCES, "h2")
    undo(match)
    undo(match)
    assert not match.hands.exists()


def test_a_forgotten_stone_is_lost_once_the_next_hand_is_entered(tournament, match):
    tournament.forgotten_stones_lost = True
    tournament.save()
    add_hand(match, LANCES, "h1")
    undo(match)  # hand 1, the last entered: still correctable
    add_hand(match, LANCES, "h1b")
    add_hand(match, LANCES, "h2")
    undo(match)  # hand 2 was the last entered
    with pytest.raises(Conflict) as error:
        undo(match)  # hand 1: hand 2 had been entered after it
    assert error.value.code == "hand_past_cut"
    assert match.hands.count() == 1
