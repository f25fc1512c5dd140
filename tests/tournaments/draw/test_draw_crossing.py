"""Groups then knockout: the crossing of group qualifiers into a seeded bracket."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, Side, first_round, knockout_from_groups


def standings(groups, size=4):
    return [[100 * (g + 1) + place for place in range(1, size + 1)] for g in range(groups)]


def round_one(bracket):
    return [
        (m.a.entrant_id, m.b.entrant_id)
        for m in sorted(bracket.matches, key=lambda m: m.position)
        if m.side is Side.WINNERS and m.round == 1
    ]


def meeting_round(bracket, x, y):
    lines = [e for pair in round_one(bracket) for e in pair]
    return (lines.index(x) ^ lines.index(y)).bit_length()


def test_two_groups_cross_1a_2b_and_1b_2a():
    bracket = knockout_from_groups(standings(2), qualifiers=2)
    assert round_one(bracket) == [(101, 202), (201, 102)]
    assert [p.describe() for p in first_round(bracket)] == ["1A v 2B", "1B v 2A"]


def test_four_groups_cross_so_group_mates_meet_only_in_the_final():
    bracket = knockout_from_groups(standings(4), qualifiers=2)
    assert round_one(bracket) == [(101, 202), (301, 402), (201, 102), (401, 302)]
    labels = dict(zip(bracket.draw_order, bracket.labels, strict=True))
    assert [f"{labels[a]}–{labels[b]}" for a, b in round_one(bracket)] == [
        "1A–2B",
        "1C–2D",
        "1B–2A",
        "1D–2C",
    ]


@pytest.mark.parametrize("groups", [2, 4, 8, 16])
def test_classic_crossing_keeps_group_mates_apart_until_the_final(groups):
    bracket = knockout_from_groups(standings(groups), qualifiers=2)
    final = bracket.size.bit_length() - 1
    for g in range(groups):
        assert meeting_round(bracket, 100 * (g + 1) + 1, 100 * (g + 1) + 2) == final


@settings(max_examples=60)
@given(groups=st.integers(1, 12), qualifiers=st.integers(1, 4), third=st.booleans())
def test_any_shape_seeds_winners_first_and_separates_group_mates(groups, qualifiers, third):
    assume(2 <= groups * qualifiers <= 256)
    third = third and groups * qualifiers >= 4
    bracket = knockout_from_groups(standings(groups), qualifiers=qualifiers, third_place=third)
    qualified = {100 * (g + 1) + p for g in range(groups) for p in range(1, qualifiers + 1)}
    lines = [e for pair in round_one(bracket) for e in pair]
    assert sorted(e for e in lines if e is not None) == sorted(qualified)
    # Byes go to the best finishing positions first.
    with_bye = [a for a, b in round_one(bracket) if b is None]
    without = [e for e in lines if e is not None and e not in with_bye]
    if with_bye and without:
        assert max(e % 100 for e in with_bye) <= min(e % 100 for e in without)
    # Group-mates never meet in the first round when there are at least two groups.
    if groups >= 2:
        for a, b in round_one(bracket):
            assert b is None or a // 100 != b // 100
    # With two qualifiers per group, group-mates are in different halves.
    if qualifiers == 2 and groups >= 2:
        final = bracket.size.bit_length() - 1
        for g in range(1, groups + 1):
            assert meeting_round(bracket, 100 * g + 1, 100 * g + 2) == final


def test_three_groups_of_two_qualifiers_give_byes_to_two_winners():
    bracket = knockout_from_groups(standings(3), qualifiers=2, third_place=True)
    descriptions = [p.describe() for p in first_round(bracket)]
    assert descriptions[-2:] == ["bye for 1A", "bye for 1B"]
    assert "1C v 2A" in descriptions


def test_impossible_crossings_are_draw_errors():
    with pytest.raises(DrawError) as error:
        knockout_from_groups([[1, 2], [3]], qualifiers=2)
    assert error.value.code == "crossing_group_short"
    with pytest.raises(DrawError) as error:
        knockout_from_groups([[1, 2], [2, 3]], qualifiers=2)
    assert error.value.code == "crossing_duplicate"
    with pytest.raises(DrawError) as error:
        knockout_from_groups([[1, 2]], qualifiers=1)
    assert error.value.code == "crossing_too_few"
