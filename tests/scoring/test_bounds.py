"""Nothing impossible is stored, and nothing legal refused: the bound on a game's stones.

A bet has no ceiling in the sources (004 «Note»: a bet far above the game, accepted, is played
out; 001: a raise refused leaves the bet before it, whatever its size), so a hand may end a game
far past its target: "envido 28, órdago, no quiero" leaves a deje of 28 in a game to 10 too.
What bounds a game's stones is what one stone count can pay: the winner had at most the target
less one before the count that won it (001, 004: the first to reach the target wins there and
then), and a count pays at most a bet, which the engine records up to MAX_BET stones (four
digits, like every number said in a bet). So a game ends at target - 1 + MAX_BET at the most —
10,038 at 40 — whether entered as its final stones or hand by hand, and the same check refuses
both. Past target + 10 a score is possible but rare: a phone asks "¿seguro?".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    BettingError,
    DeclarationError,
    GameEntry,
    GameEntryError,
    MatchState,
    RuleSet,
    apply_hand,
    check_game_stones,
    game_stones_unusual,
    hand_from_json,
    record_games,
    run,
    score_hand,
)
from scoring.betting import MAX_BET
from tests.scoring.spanish import check_spanish
from tests.scoring.strategies import rule_sets

EIGHT = RuleSet()
# mano R-R-C-1 has the best grande (see test_errors.DEAL); nobody has the tío Perete
DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]


def grande(*actions: str) -> dict:
    return {"cards": DEAL, "bets": {"grande": list(actions)}}


def test_the_issue_s_record_is_accepted_by_its_bets_by_its_lance_points_and_as_stones():
    # target 10, 3-1: mano (pareja A) says envido 28, postre (B) órdago, mano no quiero: the
    # deje is the bet before the órdago, 28 (001's deje), counted at once (004): B ends at 29
    rules = {"stones_per_game": 10}
    bets = grande("envido 28", "órdago", "no quiero")
    done = run({"rules": rules, "start": {"A": 3, "B": 1}, "hands": [bets]})
    assert done["match"]["games"][0]["stones"] == {"A": 3, "B": 29}
    assert done["hands"][0]["counted"] == [
        {"lance": "grande", "pair": "postre", "stones": 28, "kind": "deje"}
    ]
    sheet = {
        "lances": {
            "grande": {"to": "postre", "how": "deje", "stones": 28},
            "chica": {"to": "mano", "how": "paso"},
            "juego": {"to": "mano", "how": "paso", "bonus": 2},
        }
    }
    paper = run({"rules": rules, "start": {"A": 3, "B": 1}, "hands": [sheet]})
    assert paper["match"]["games"][0]["stones"] == {"A": 3, "B": 29}
    entered = run({"rules": rules, "games": [{"stones": {"A": 3, "B": 29}}]})
    assert entered["match"]["games"][0]["winner"] == "B"


def test_the_limits_of_a_game():
    assert MAX_BET == 9999
    assert EIGHT.max_game_stones == 39 + 9999 == 10_038
    assert RuleSet(stones_per_game=30).max_game_stones == 10_028
    assert EIGHT.usual_game_stones == 50
    assert RuleSet(stones_per_game=10).usual_game_stones == 20


@pytest.mark.parametrize("won", [40, 50, 79, 80, 140, 10_038])
def test_possible_winners_are_accepted(won):
    state = record_games(EIGHT, [GameEntry((won, 39))])
    assert state.games[0].stones == (won, 39)


@pytest.mark.parametrize("won", [10_039, 2_147_483_648, 10**30])
def test_a_winner_past_the_limit_is_refused_and_the_message_names_it(won):
    with pytest.raises(GameEntryError) as raised:
        record_games(EIGHT, [GameEntry((10, won))])
    error = raised.value
    assert error.code == "stones_above_limit"
    assert error.params["limit"] == 10_038 and error.params["bet"] == MAX_BET
    assert "10038 at the most: 39 before the stones that won it" in str(error)
    check_spanish(error)


def test_a_hand_reaches_the_limit_and_a_bet_goes_no_further():
    at_39 = replace(MatchState.start(EIGHT), stones=(39, 0))
    _, outcome = apply_hand(at_39, hand_from_json(grande(f"envido {MAX_BET}", "quiero"), EIGHT))
    assert outcome.game.stones == (10_038, 0)
    record_games(EIGHT, [GameEntry((10_038, 0))])  # the same final stones, as stones
    with pytest.raises(BettingError) as raised:
        score_hand(EIGHT, hand_from_json(grande(f"envido {MAX_BET}", "1 más", "no quiero"), EIGHT))
    assert raised.value.code == "bet_above_limit"
    assert raised.value.params == {"lance": "grande", "stones": 10_000, "most": 9999}
    check_spanish(raised.value)


@pytest.mark.parametrize("how", ["deje", "querido"])
def test_lance_points_past_the_largest_bet_are_refused(how):
    sheet = {
        "lances": {
            "grande": {"to": "postre", "how": how, "stones": MAX_BET + 1},
            "chica": {"to": "mano", "how": "paso"},
            "juego": {"to": "mano", "how": "paso", "bonus": 2},
        }
    }
    with pytest.raises(DeclarationError) as raised:
        run({"hand": sheet})
    assert raised.value.code == "lance_stones_above_limit"
    check_spanish(raised.value)
    sheet["lances"]["grande"]["stones"] = MAX_BET
    assert run({"hand": sheet})["hand"]["stones"]["postre"] == MAX_BET


def test_totals_alone_cannot_end_a_game_past_what_one_count_pays():
    # totals do not say the order of the count: 20,000 stones cannot be one count's
    with pytest.raises(GameEntryError) as raised:
        run({"start": {"A": 39, "B": 0}, "hands": [{"totals": {"mano": 20_000, "postre": 0}}]})
    assert raised.value.code == "stones_above_limit"
    with pytest.raises(DeclarationError) as raised:
        run({"hand": {"totals": {"mano": 4 * MAX_BET + 13, "postre": 0}}})
    assert raised.value.code == "total_too_many"
    assert raised.value.params["most"] == 4 * MAX_BET + 12


@pytest.mark.parametrize(
    ("stones", "unusual"), [((40, 39), False), ((50, 0), False), ((0, 51), True), ((79, 3), True)]
)
def test_a_winner_far_past_the_target_is_unusual(stones, unusual):
    assert game_stones_unusual(EIGHT, stones) is unusual


@given(
    rules=rule_sets(),
    start=st.integers(0, 99),
    bet=st.integers(1, MAX_BET),
    refused=st.booleans(),
)
def test_whatever_a_bet_ends_a_game_with_is_accepted_by_both_doors(rules, start, bet, refused):
    """A deje or an accepted bet of any size the betting can say ends the game where the count
    says, and the same final stones entered as a game are accepted too: one bound for both."""
    bet = max(bet, rules.min_envite)
    start = min(start, rules.stones_per_game - 1)
    # mano (pareja A) bets, postre raises by one and mano refuses: postre's deje is the bet
    # before the raise (001); or postre accepts the bet and mano's R-R-C-1 wins it at the count
    actions = (f"envido {bet}", "1 más", "no quiero") if refused else (f"envido {bet}", "quiero")
    if refused and bet == MAX_BET:
        return  # the raise would pass what can be recorded
    request = {
        "rules": rules.as_dict(),
        "start": {"A": start, "B": start} if refused else {"A": start, "B": 0},
        "hands": [grande(*actions)],
    }
    result = run(request)
    if refused and not rules.dejes:  # sin deje: the refused bet gives nothing
        return
    games = result["match"]["games"]
    total = start + bet
    if total < rules.stones_per_game:
        return
    won = games[0]["stones"]["B" if refused else "A"]
    assert won == total <= rules.max_game_stones
    state = record_games(rules, [GameEntry((won, 0) if not refused else (start, won))])
    assert state.games[0].stones[1 if refused else 0] == won


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
    assert target < rules.usual_game_stones <= rules.max_game_stones == target - 1 + MAX_BET
