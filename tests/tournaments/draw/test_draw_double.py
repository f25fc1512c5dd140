"""Double elimination: random results through the generated structure; nobody is out before a
second defeat, and there is one champion."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawError,
    Entrant,
    Side,
    advance,
    bracket_pairings,
    champion,
    double_elimination,
)


def play_out(bracket, seed, whole_rounds=True):
    rng = random.Random(seed)
    winners: dict[str, int] = {}
    losses: Counter[int] = Counter()
    last_loss_stage: dict[int, int] = {}
    while ready := advance(bracket, winners, whole_rounds=whole_rounds):
        playing = [e for m in ready for e in m.entrant_ids]
        assert len(playing) == len(set(playing))  # nobody plays twice at once
        for m in ready:
            a, b = m.entrant_ids
            assert losses[a] < 2 and losses[b] < 2  # nobody plays after a second defeat
            winners[m.id] = winner = rng.choice((a, b))
            loser = b if winner == a else a
            losses[loser] += 1
            last_loss_stage[loser] = m.stage
    return winners, losses


@settings(max_examples=60)
@given(
    n=st.integers(2, 64),
    seed=st.integers(0, 10**6),
    seeds=st.integers(0, 64),
    whole_rounds=st.booleans(),
)
def test_out_after_exactly_two_losses_and_one_champion(n, seed, seeds, whole_rounds):
    entrants = [Entrant(i, seed=i if i <= seeds else None) for i in range(1, n + 1)]
    bracket = double_elimination(entrants, rng=seed)
    winners, losses = play_out(bracket, seed, whole_rounds)
    won = champion(bracket, winners)
    assert won is not None
    assert losses[won] <= 1
    assert all(losses[e] == 2 for e in range(1, n + 1) if e != won)
    assert sum(losses.values()) in (2 * n - 2, 2 * n - 1)  # 2n−1 when the reset is played


@settings(max_examples=40)
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6))
def test_without_reset_the_grand_final_decides(n, seed):
    bracket = double_elimination(
        [Entrant(i, seed=i) for i in range(1, n + 1)], rng=seed, reset=False
    )
    winners, losses = play_out(bracket, seed)
    won = champion(bracket, winners)
    assert won is not None and losses[won] <= 1
    others = [losses[e] for e in range(1, n + 1) if e != won]
    assert set(others) <= {1, 2}
    assert others.count(1) <= 1  # only the winners' champion, if it lost the grand final


@pytest.mark.parametrize("n", range(2, 70))
def test_structure_every_listed_match_after_round_one_is_real(n):
    bracket = double_elimination([Entrant(i, seed=i) for i in range(1, n + 1)], rng=0)
    ids = [m.id for m in bracket.matches]
    assert len(ids) == len(set(ids))
    for m in bracket.matches:
        for slot in (m.a, m.b):
            if slot.source:
                assert ids.index(slot.source) < ids.index(m.id)  # feeders listed first
        if not (m.side is Side.WINNERS and m.round == 1):
            assert not m.is_bye
        if m.side is Side.LOSERS:
            assert m.stage > 1
    losers = [m for m in bracket.matches if m.side is Side.LOSERS]
    assert len(losers) == max(n - 2, 0)  # every entrant but two loses once in the winners'


def test_two_entrants_get_a_second_chance_in_the_grand_final():
    bracket = double_elimination([Entrant(1, seed=1), Entrant(2, seed=2)], rng=0)
    assert [m.id for m in bracket.matches] == ["W1-1", "GF1", "GF2"]
    gf1 = bracket.match("GF1")
    assert (gf1.a.winner_of, gf1.b.loser_of) == ("W1-1", "W1-1")
    ready = advance(bracket, {"W1-1": 2})
    assert [(m.id, m.entrant_ids) for m in ready] == [("GF1", (2, 1))]
    assert champion(bracket, {"W1-1": 2, "GF1": 2}) == 2  # no reset needed
    with pytest.raises(DrawError) as error:
        advance(bracket, {"W1-1": 2, "GF1": 2, "GF2": 1})
    assert error.value.code == "bracket_not_played"
    ready = advance(bracket, {"W1-1": 2, "GF1": 1})
    assert [(m.id, m.entrant_ids) for m in ready] == [("GF2", (1, 2))]
    assert bracket_pairings(bracket, ready)[0].describe() == (
        "grand final reset: the losers' bracket champion won the first"
    )
    assert champion(bracket, {"W1-1": 2, "GF1": 1}) is None
    assert champion(bracket, {"W1-1": 2, "GF1": 1, "GF2": 2}) == 2


def test_eight_entrants_losers_bracket_shape():
    bracket = double_elimination([Entrant(i, seed=i) for i in range(1, 9)], rng=0)
    losers = {m.id: (m.a.source, m.b.source) for m in bracket.matches if m.side is Side.LOSERS}
    assert losers == {
        "L1-1": ("W1-1", "W1-2"),
        "L1-2": ("W1-3", "W1-4"),
        "L2-1": ("L1-1", "W2-2"),  # drop-ins cross over, away from recent opponents
        "L2-2": ("L1-2", "W2-1"),
        "L3-1": ("L2-1", "L2-2"),
        "L4-1": ("L3-1", "W3-1"),
    }
    gf1 = bracket.match("GF1")
    assert (gf1.a.winner_of, gf1.b.winner_of) == ("W3-1", "L4-1")


def test_same_seed_same_bracket():
    entrants = [Entrant(i) for i in range(1, 20)]
    assert double_elimination(entrants, rng=4) == double_elimination(entrants[::-1], rng=4)


@pytest.mark.parametrize("seed", range(5))
def test_any_int_ids_work_including_zero_and_negative(seed):
    entrants = [Entrant(i) for i in range(-6, 5)]
    bracket = double_elimination(entrants, rng=seed)
    winners, losses = play_out(bracket, seed)
    won = champion(bracket, winners)
    assert won in range(-6, 5)
    assert all(losses[e.id] == 2 for e in entrants if e.id != won)
