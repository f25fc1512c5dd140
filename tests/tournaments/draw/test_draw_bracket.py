"""Single elimination: seed placement for every field from 2 to 256, byes, playing forward."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawError,
    Entrant,
    Reason,
    Side,
    advance,
    bracket_pairings,
    champion,
    first_round,
    resolve,
    seed_lines,
    single_elimination,
)
from tournaments.draw.bracket import bracket_size


def seeded(n):
    return [Entrant(i, seed=i) for i in range(1, n + 1)]


def round_one_lines(bracket):
    """Entrant (or None for a bye) on each first-round line, top to bottom."""
    matches = sorted(
        (m for m in bracket.matches if m.side is Side.WINNERS and m.round == 1),
        key=lambda m: m.position,
    )
    return [slot.entrant_id for m in matches for slot in (m.a, m.b)]


def play_out(bracket, seed):
    """Random winners until nothing is left to play; returns (winners, losses per entrant)."""
    rng = random.Random(seed)
    winners: dict[str, int] = {}
    losses: dict[int, int] = {}
    while ready := advance(bracket, winners):
        playing = [e for m in ready for e in m.entrant_ids]
        assert len(playing) == len(set(playing))  # nobody is in two ready matches
        for m in ready:
            a, b = m.entrant_ids
            winner = rng.choice((a, b))
            winners[m.id] = winner
            loser = b if winner == a else a
            losses[loser] = losses.get(loser, 0) + 1
    return winners, losses


def test_seed_lines_examples():
    assert seed_lines(2) == (1, 2)
    assert seed_lines(4) == (1, 4, 2, 3)
    assert seed_lines(8) == (1, 8, 4, 5, 3, 6, 2, 7)
    assert seed_lines(16)[:4] == (1, 16, 8, 9)
    assert seed_lines(16) == (1, 16, 8, 9, 5, 12, 4, 13, 3, 14, 6, 11, 7, 10, 2, 15)


def test_every_field_from_2_to_256_is_placed_by_seed():
    for n in range(2, 257):
        bracket = single_elimination(seeded(n), rng=0)
        size = bracket_size(n)
        assert bracket.size == size and size // 2 < n <= size
        lines = round_one_lines(bracket)
        placed = [e for e in lines if e is not None]
        assert sorted(placed) == list(range(1, n + 1))  # every entrant exactly once
        line = {e: i for i, e in enumerate(lines) if e is not None}
        # Seeds 1..2^j sit in different blocks of size/2^j: 1 and 2 in different halves, the
        # top 4 in different quarters, … so they can only meet that late.
        j = 1
        while 2**j <= min(n, size):
            block = size // 2**j
            blocks = [line[s] // block for s in range(1, 2**j + 1) if s <= n]
            assert len(set(blocks)) == len(blocks), (n, j)
            j += 1
        # First round: seed s meets size+1-s; missing seeds are byes, so byes go to the top.
        for i in range(0, size, 2):
            top, bottom = lines[i], lines[i + 1]
            assert top is not None
            if bottom is None:
                assert top <= size - n
            else:
                assert top + bottom == size + 1 and top < bottom
        byes = [lines[i] for i in range(0, size, 2) if lines[i + 1] is None]
        assert sorted(byes) == list(range(1, size - n + 1))


def test_eight_entrants_worked_example():
    bracket = single_elimination(seeded(8), rng=0)
    pairs = [(m.a.entrant_id, m.b.entrant_id) for m in bracket.matches if m.round == 1]
    assert pairs == [(1, 8), (4, 5), (3, 6), (2, 7)]  # bracket order, top to bottom
    semis = [(m.a.winner_of, m.b.winner_of) for m in bracket.matches if m.round == 2]
    assert semis == [("W1-1", "W1-2"), ("W1-3", "W1-4")]
    final = bracket.match("W3-1")
    assert (final.a.winner_of, final.b.winner_of) == ("W2-1", "W2-2")
    tables = first_round(bracket)
    assert [(p.a_id, p.b_id) for p in tables] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert tables[0].reasons == (Reason("seeded", {"seed": 1, "opponent_seed": 8}),)
    assert tables[0].match_id == "W1-1"


def test_five_entrants_give_byes_to_seeds_one_to_three():
    bracket = single_elimination(seeded(5), rng=0)
    pairings = first_round(bracket)
    assert [(p.a_id, p.b_id) for p in pairings] == [(4, 5), (1, None), (2, None), (3, None)]
    assert pairings[1].describe() == "bye for seed 1: 5 entrants in a bracket of 8"
    ready = advance(bracket, {})
    assert [m.id for m in ready] == ["W1-2"]
    ready = advance(bracket, {"W1-2": 5})
    assert [(m.id, m.entrant_ids) for m in ready] == [("W2-1", (1, 5)), ("W2-2", (3, 2))]
    assert [p.describe() for p in bracket_pairings(bracket, ready)] == [
        "winner of W1-1, winner of W1-2",
        "winner of W1-3, winner of W1-4",
    ]


@settings(max_examples=60)
@given(
    n=st.integers(2, 256),
    seeds=st.integers(0, 256),
    seed=st.integers(0, 10**6),
    third=st.booleans(),
)
def test_playing_forward_gives_one_champion_and_one_loss_each(n, seeds, seed, third):
    entrants = [Entrant(i, seed=i if i <= seeds else None) for i in range(1, n + 1)]
    third = third and n >= 4
    bracket = single_elimination(entrants, rng=seed, third_place=third)
    winners, _ = play_out(bracket, seed)
    won = champion(bracket, winners)
    losses = Counter()
    for m in resolve(bracket, winners):
        if m.side is Side.WINNERS and not m.is_bye:
            a, b = m.entrant_ids
            losses[b if winners[m.id] == a else a] += 1
    assert won is not None and won not in losses
    assert sorted(losses) == sorted(set(range(1, n + 1)) - {won})  # everybody else lost once
    assert set(losses.values()) == {1}
    assert ("3P" in winners) == third


def test_unseeded_entrants_are_placed_by_lot_deterministically():
    entrants = [Entrant(1, seed=1), Entrant(2, seed=2)] + [Entrant(i) for i in range(3, 17)]
    one = single_elimination(entrants, rng=7)
    assert single_elimination(list(reversed(entrants)), rng=7) == one
    assert one.draw_order[:2] == (1, 2) and one.seeded == 2
    lots = {single_elimination(entrants, rng=s).draw_order for s in range(6)}
    assert len(lots) > 1
    reasons = {r.code for p in first_round(one) for r in p.reasons}
    assert reasons <= {"seeded_v_drawn", "drawn_by_lot"}


def test_third_place_match_takes_the_losing_semi_finalists():
    bracket = single_elimination(seeded(4), rng=0, third_place=True)
    winners = {"W1-1": 1, "W1-2": 3}
    ready = advance(bracket, winners)
    assert [(m.id, m.entrant_ids) for m in ready] == [("W2-1", (1, 3)), ("3P", (4, 2))]
    assert bracket_pairings(bracket, ready)[1].describe() == (
        "third-place match, loser of W1-1, loser of W1-2"
    )
    assert champion(bracket, {**winners, "W2-1": 3}) == 3


@pytest.mark.parametrize(
    ("winners", "code"),
    [
        ({"W1-1": 7}, "bracket_wrong_winner"),
        ({"W2-1": 1}, "bracket_not_ready"),
        ({"X9": 1}, "bracket_unknown_match"),
    ],
)
def test_impossible_results_are_draw_errors(winners, code):
    bracket = single_elimination(seeded(4), rng=0)
    with pytest.raises(DrawError) as error:
        advance(bracket, winners)
    assert error.value.code == code


def test_a_bye_has_no_result_to_record():
    bracket = single_elimination(seeded(3), rng=0)
    assert advance(bracket, {"W1-1": 1}) == advance(bracket, {})  # the bye winner: harmless
    with pytest.raises(DrawError) as error:
        advance(bracket, {"W1-1": 3})
    assert error.value.code == "bracket_not_played"


def test_field_limits_are_draw_errors():
    with pytest.raises(DrawError) as error:
        single_elimination(seeded(257), rng=0)
    assert error.value.code == "bracket_too_many"
    with pytest.raises(DrawError) as error:
        single_elimination(seeded(3), rng=0, third_place=True)
    assert error.value.code == "third_place_too_few"
    with pytest.raises(DrawError) as error:
        single_elimination(seeded(1), rng=0)
    assert error.value.code == "too_few_entrants"
