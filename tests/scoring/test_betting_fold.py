"""Two pairs and each player for themself share one betting (scoring/betting.py): with two
players, individual Mus bets exactly as two pairs do. Against the model's betting
(tests/scoring/forms_model.py), which is written from the rules, not from the engine."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.betting import parse_action, resolve, resolve_individual
from scoring.errors import BettingError
from tests.scoring import forms_model as model
from tests.scoring.strategies import hypothesis_picker


@st.composite
def two_player_bettings(draw):
    min_envite = draw(st.integers(1, 3))
    actions, ending = model.individual_bets(hypothesis_picker(draw), (0, 1), min_envite, 40)
    return tuple(parse_action(a) for a in actions), ending, min_envite


@given(two_player_bettings())
def test_two_players_bet_as_two_pairs(case):
    actions, ending, min_envite = case
    pairs = resolve(actions, lance="grande", speakers=(0, 1), min_envite=min_envite)
    alone = resolve_individual(actions, lance="grande", speakers=(0, 1), min_envite=min_envite)
    assert pairs.outcome.value == alone.outcome.value == ending.outcome
    assert pairs.stones == alone.stones
    if ending.outcome == "no_querido":
        assert pairs.side == alone.seat == ending.side
        assert alone.stones == ending.stones
    elif ending.outcome == "querido":
        assert alone.players == (0, 1)
        assert alone.stones == ending.stones


@given(two_player_bettings(), st.integers(0, 10), st.sampled_from(("quiero", "paso", "2 más")))
def test_a_broken_betting_is_refused_by_both(case, where, extra):
    """An action added anywhere either still makes a betting both accept alike, or both
    refuse it."""
    actions, _ending, min_envite = case
    where = min(where, len(actions))
    broken = (*actions[:where], parse_action(extra), *actions[where:])
    answers = []
    for resolver in (resolve, resolve_individual):
        try:
            found = resolver(broken, lance="grande", speakers=(0, 1), min_envite=min_envite)
            answers.append((found.outcome, found.stones))
        except BettingError:
            answers.append("refused")
    assert answers[0] == answers[1]
