"""The field as the bases size it (tournaments.draw.entries): the cut when registration closes,
who drops out, and the match format chosen by the number of entries. Worked examples from real
bases, every refusal, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError
from tournaments.draw.entries import (
    Cut,
    Registered,
    entrants_dropped,
    field_cut,
    field_sizes_clean,
    format_for_entries,
    format_rules,
)


def test_twelve_or_sixteen_pairs_between_the_two_the_last_drop_out():
    # Bases: "12 o 16 parejas; entre 12 y 16, se quedan fuera las últimas inscritas"
    assert field_cut(14, minimum=None, sizes=[12, 16]) == Cut(kept=12, dropped=2)
    assert field_cut(16, minimum=None, sizes=[12, 16]) == Cut(kept=16, dropped=0)
    assert field_cut(19, minimum=None, sizes=[12, 16]) == Cut(kept=16, dropped=3)
    assert field_cut(10, minimum=None, sizes=[12, 16]) == Cut(
        10, 0, short=True, needed=12, reason="size"
    )


def test_a_minimum_below_which_the_tournament_does_not_start():
    assert field_cut(7, minimum=8, sizes=[]) == Cut(7, 0, short=True, needed=8, reason="minimum")
    assert field_cut(8, minimum=8, sizes=[]) == Cut(8, 0)


def test_the_last_registered_drop_out_and_absent_ones_first_once_the_roll_is_called():
    field = [Registered(id=i, order=i) for i in range(1, 7)]
    assert entrants_dropped(field, 4) == [6, 5]
    # the roll was called: 2 and 6 are not here; they go before anybody present
    called = [Registered(id=i, order=i, present=i not in (2, 6)) for i in range(1, 7)]
    assert entrants_dropped(called, 3) == [6, 2, 5]
    assert entrants_dropped(field, 6) == []


def test_the_format_by_entries_best_of_three_with_sixteen_or_more_else_first_to_four():
    rules = format_rules(
        [
            {"from": 16, "rules": {"games_per_vaca": 2}},
            {"from": 0, "rules": {"games_per_vaca": 4}},
        ]
    )
    assert [r["from"] for r in rules] == [0, 16]
    assert format_for_entries(rules, 20) == {"games_per_vaca": 2}
    assert format_for_entries(rules, 16) == {"games_per_vaca": 2}
    assert format_for_entries(rules, 15) == {"games_per_vaca": 4}
    only_big = format_rules([{"from": 16, "rules": {"games_per_vaca": 2}}])
    assert format_for_entries(only_big, 8) is None  # the tournament's own format stands


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ({"from": 16}, "format_rules_shape"),
        ([{"from": 16}], "format_rule_keys"),
        ([{"from": -1, "rules": {"games_per_vaca": 2}}], "format_rule_from"),
        ([{"from": True, "rules": {"games_per_vaca": 2}}], "format_rule_from"),
        ([{"from": 16, "rules": {"kings": 4}}], "format_rule_options"),
        ([{"from": 16, "rules": {}}], "format_rule_options"),
        (
            [
                {"from": 8, "rules": {"games_per_vaca": 2}},
                {"from": 8, "rules": {"games_per_vaca": 3}},
            ],
            "format_rules_twice",
        ),
    ],
)
def test_a_wrong_format_by_entries_is_refused(value, code):
    with pytest.raises(DrawError) as caught:
        format_rules(value)
    assert caught.value.code == code


@pytest.mark.parametrize("value", [[1], [12, 12], "12, 16", [12.0], list(range(2, 20))])
def test_wrong_field_sizes_are_refused(value):
    with pytest.raises(DrawError) as caught:
        field_sizes_clean(value)
    assert caught.value.code == "field_sizes"


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 80),
    st.none() | st.integers(2, 40),
    st.lists(st.integers(2, 64), unique=True, max_size=4),
)
def test_the_cut_keeps_the_largest_allowed_size_and_conserves_the_field(count, minimum, sizes):
    cut = field_cut(count, minimum=minimum, sizes=sizes)
    assert cut.kept + cut.dropped == count
    if cut.short:
        assert cut.dropped == 0 and cut.needed > count
        return
    assert minimum is None or cut.kept >= minimum
    playable = [s for s in sizes if minimum is None or s >= minimum]
    if playable:
        assert cut.kept in playable
        assert not [s for s in playable if cut.kept < s <= count]  # none larger fits
    else:
        assert cut.dropped == 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.booleans()), unique_by=lambda t: t[0], max_size=12),
    st.integers(0, 14),
)
def test_the_dropped_are_the_right_ones(field, keep):
    entrants = [
        Registered(id=100 + i, order=order, present=present)
        for i, (order, present) in enumerate(field)
    ]
    dropped = entrants_dropped(entrants, keep)
    assert len(dropped) == max(len(entrants) - keep, 0)
    assert len(set(dropped)) == len(dropped)
    kept = [e for e in entrants if e.id not in dropped]
    out = [e for e in entrants if e.id in dropped]
    roll_called = any(e.present for e in entrants)
    for gone in out:
        for stays in kept:
            if roll_called and gone.present != stays.present:
                assert stays.present  # an absent one never stays while a present one drops
            else:
                assert gone.order > stays.order  # among equals, the last registered drop
