"""Individual and Mus francés draws (tournaments.draw.individual) against brute-force oracles."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError
from tournaments.draw.individual import (
    PastTable,
    frances_table_sizes,
    pair_individuals,
    seat_frances,
)


def key(x, y):
    return (min(x, y), max(x, y))


def counts(past):
    partners, opponents = Counter(), Counter()
    for t in past:
        for side in (t.a, t.b):
            for x, y in combinations(side, 2):
                partners[key(x, y)] += 1
        for x in t.a:
            for y in t.b:
                opponents[key(x, y)] += 1
    return partners, opponents


def tables_of_four(players):
    """Every way to seat ``players`` at tables of two partnerships (brute force)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        others = [p for p in rest if p != partner]
        for x, y in combinations(others, 2):
            remaining = [p for p in others if p not in (x, y)]
            for tail in tables_of_four(remaining):
                yield [((first, partner), (x, y)), *tail]


def least_repeats(players, past):
    partners, opponents = counts(past)
    return min(
        (
            sum(partners[key(*a)] + partners[key(*b)] for a, b in draw),
            sum(opponents[key(x, y)] for a, b in draw for x in a for y in b),
        )
        for draw in tables_of_four(list(players))
    )


def random_past(draw_players, rounds, seed):
    past = []
    for r in range(rounds):
        d = pair_individuals(draw_players, [], rng=seed * 100 + r)
        past += [PastTable(t.a, t.b) for t in d.tables]
    return past


def check_draw(players, draw):
    seated = [p for t in draw.tables for p in t.players] + list(draw.rests)
    assert sorted(seated) == sorted(players)
    assert all(len(t.a) == 2 and len(t.b) == 2 for t in draw.tables)
    assert len(draw.rests) == len(players) % 4


def test_first_round_seats_everybody_once_and_the_remainder_rests():
    players = list(range(1, 11))
    draw = pair_individuals(players, rng=7)
    check_draw(players, draw)
    assert len(draw.tables) == 2 and len(draw.rests) == 2
    assert draw.partner_repeats == draw.opponent_repeats == 0
    assert all(t.reasons[0].code == "new_partners_and_opponents" for t in draw.tables)


def test_the_same_seed_gives_the_same_draw():
    players = list(range(1, 21))
    assert pair_individuals(players, rng=3) == pair_individuals(players, rng=3)


def test_rests_go_to_the_fewest_rests_then_the_lowest_placed():
    players = list(range(1, 7))
    standings = [1, 2, 3, 4, 5, 6]
    draw = pair_individuals(players, rng=1, standings=standings)
    assert draw.rests == (5, 6)
    draw = pair_individuals(players, rng=1, standings=standings, rests={5: 1, 6: 1})
    assert draw.rests == (3, 4)


@settings(max_examples=40, deadline=None)
@given(
    n=st.sampled_from([4, 8]),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_the_draw_has_the_least_repeats_a_brute_force_finds(n, rounds, seed):
    players = list(range(1, n + 1))
    past = random_past(players, rounds, seed)
    draw = pair_individuals(players, past, rng=seed)
    check_draw(players, draw)
    assert (draw.partner_repeats, draw.opponent_repeats) == least_repeats(players, past)


@pytest.mark.parametrize("seed", range(3))
def test_twelve_players_exactly_least(seed):
    players = list(range(1, 13))
    past = random_past(players, 3, seed)
    draw = pair_individuals(players, past, rng=seed)
    assert (draw.partner_repeats, draw.opponent_repeats) == least_repeats(players, past)


def test_a_field_of_forty_plays_five_rounds_without_repeat_partners():
    players = list(range(1, 41))
    past = []
    for r in range(1, 6):
        draw = pair_individuals(players, past, rng=r, standings=players)
        check_draw(players, draw)
        assert draw.partner_repeats == 0
        past += [PastTable(t.a, t.b) for t in draw.tables]


def test_bad_fields_are_draw_errors():
    with pytest.raises(DrawError) as error:
        pair_individuals([1, 2, 3], rng=1)
    assert error.value.code == "draw_too_few_players"
    with pytest.raises(DrawError) as error:
        pair_individuals([1, 2, 3, 3, 4], rng=1)
    assert error.value.code == "draw_player_twice"


# --- Mus francés ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (8, 4, [4, 4]),
        (7, 3, [4, 3]),
        (5, 4, [5]),
        (13, 6, [5, 4, 4]),
        (3, 6, [3]),
        (11, 3, [4, 4, 3]),
    ],
)
def test_table_sizes(players, size, sizes):
    assert frances_table_sizes(players, size) == sizes


@given(players=st.integers(min_value=3, max_value=200), size=st.integers(min_value=3, max_value=6))
def test_table_sizes_always_fit(players, size):
    sizes = frances_table_sizes(players, size)
    assert sum(sizes) == players
    assert all(3 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1


def test_a_table_of_seven_is_refused():
    with pytest.raises(DrawError) as error:
        seat_frances(list(range(10)), size=7, rng=1)
    assert error.value.code == "frances_table_size"


def groupings(players, size):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for tail in groupings(left, size):
            yield [(first, *others), *tail]


@settings(max_examples=30, deadline=None)
@given(rounds=st.integers(min_value=1, max_value=3), seed=st.integers(min_value=0, max_value=9999))
def test_frances_seats_the_fewest_players_together_again(rounds, seed):
    players = list(range(1, 10))
    past = []
    for r in range(rounds):
        d = seat_frances(players, [], size=3, rng=seed + r)
        past += [PastTable(t.a) for t in d.tables]
    partners, _ = counts(past)
    least = min(
        sum(partners[key(x, y)] for g in draw for x, y in combinations(g, 2))
        for draw in groupings(players, 3)
    )
    draw = seat_frances(players, past, size=3, rng=seed)
    assert sorted(p for t in draw.tables for p in t.players) == players
    assert draw.partner_repeats == least


def test_too_few_tables_is_a_draw_error():
    with pytest.raises(DrawError) as error:
        pair_individuals(list(range(12)), rng=1, tables=2)
    assert error.value.code == "tables_too_few"
    with pytest.raises(DrawError) as error:
        seat_frances(list(range(12)), size=4, rng=1, tables=2)
    assert error.value.code == "tables_too_few"
    assert len(seat_frances(list(range(12)), size=4, rng=1, tables=3).tables) == 3
