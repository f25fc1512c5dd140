"""Nothing impossible is stored: the one bound on a game's stones (scoring.check_game_stones).

A game ends when a pair reaches the target (sources 001, 004: the first to get there wins, and
the count stops); the loser is below it, and the winner had at most target - 1 before the last
lance counted, on which a table bets at most a whole game (a bigger bet is legal but pointless:
an órdago wins for the same risk). So a game to 40 ends 79 at the most, whether entered as its
final stones or hand by hand, and the same check refuses both. Past target + 10 a score is
possible but rare: a phone asks "¿seguro?".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    GameEntry,
    GameEntryError,
    MatchState,
    RuleSet,
    apply_hand,
    check_game_stones,
    game_stones_unusual,
    hand_from_json,
    record_games,
)
from tests.scoring.spanish import check_spanish
from tests.scoring.strategies import rule_sets

EIGHT = RuleSet()
# mano R-R-C-1 has the best grande (see test_errors.DEAL)
DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]


def grande(bet: int) -> dict:
    return {"cards": DEAL, "bets": {"grande": [f"envido {bet}", "quiero"]}}


def test_the_limits_of_a_game_to_40():
    assert EIGHT.max_game_stones == 79
    assert EIGHT.usual_game_stones == 50
    assert RuleSet(stones_per_game=30).max_game_stones == 59
    assert RuleSet(stones_per_game=10).usual_game_stones == 19  # never above the limit


@pytest.mark.parametrize("won", [40, 50, 64, 79])
def test_possible_winners_are_accepted(won):
    state = record_games(EIGHT, [GameEntry((won, 39))])
    assert state.games[0].stones == (won, 39)


@pytest.mark.parametrize("won", [80, 140, 2_147_483_648, 10**30])
def test_a_winner_past_the_limit_is_refused_and_the_message_names_it(won):
    with pytest.raises(GameEntryError) as raised:
        record_games(EIGHT, [GameEntry((10, won))])
    error = raised.value
    assert error.code == "stones_above_limit"
    assert error.params["limit"] == 79
    assert "79" in str(error)
    check_spanish(error)


def test_a_hand_reaches_the_limit_and_no_further():
    at_39 = replace(MatchState.start(EIGHT), stones=(39, 0))
    _, outcome = apply_hand(at_39, hand_from_json(grande(40), EIGHT))
    assert outcome.game.stones == (79, 0)
    with pytest.raises(GameEntryError) as raised:
        apply_hand(at_39, hand_from_json(grande(41), EIGHT))
    assert raised.value.code == "stones_above_limit"
    assert raised.value.params["value"] == 80


@pytest.mark.parametrize(
    ("stones", "unusual"), [((40, 39), False), ((50, 0), False), ((0, 51), True), ((79, 3), True)]
)
def test_a_winner_far_past_the_target_is_unusual(stones, unusual):
    assert game_stones_unusual(EIGHT, stones) is unusual


@given(rules=rule_sets(), stones=st.integers(0, 10**6))
def test_one_bound_for_every_rule_set(rules, stones):
    target = rules.stones_per_game
    if stones <= rules.max_game_stones:
        check_game_stones(rules, stones, game=1)
        if stones >= target:
            record_games(rules, [GameEntry((stones, target - 1))])
    else:
        with pytest.raises(GameEntryError):
            record_games(rules, [GameEntry((stones, 0))])
    assert rules.stones_per_game < rules.usual_game_stones <= rules.max_game_stones < 2 * target
