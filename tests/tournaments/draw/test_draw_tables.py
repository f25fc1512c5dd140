"""Table numbers: the top match on table 1, pinned entrants on their tables."""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError, Pairing, assign_tables


def round_of(*pairs):
    return [Pairing(n, a, b) for n, (a, b) in enumerate(pairs, start=1)]


def tables(result):
    return [(p.a_id, p.table) for p in result]


def test_table_order_without_pins():
    result = assign_tables(round_of((1, 2), (3, 4), (5, 6), (7, None)))
    assert tables(result) == [(1, 1), (3, 2), (5, 3), (7, None)]


def test_pinned_entrant_keeps_its_table_and_the_top_match_takes_the_lowest_free():
    result = assign_tables(round_of((1, 2), (3, 4), (5, 6)), pins={6: 1, 99: 2})
    assert tables(result) == [(1, 2), (3, 3), (5, 1)]
    result = assign_tables(round_of((1, 2), (3, 4)), pins={4: 5}, tables=6)
    assert tables(result) == [(1, 1), (3, 5)]


def test_a_pin_on_a_bye_is_ignored():
    result = assign_tables(round_of((1, 2), (3, None)), pins={3: 1})
    assert tables(result) == [(1, 1), (3, None)]


@pytest.mark.parametrize(
    ("pairs", "pins", "count", "code"),
    [
        (((1, 2), (3, 4)), {1: 1, 2: 2}, None, "tables_pin_conflict"),
        (((1, 2), (3, 4)), {1: 1, 3: 1}, None, "tables_pin_clash"),
        (((1, 2), (3, 4)), {1: 3}, None, "tables_pin_missing"),
        (((1, 2), (3, 4), (5, 6)), {}, 2, "tables_too_few"),
    ],
)
def test_impossible_tables_are_draw_errors(pairs, pins, count, code):
    with pytest.raises(DrawError) as error:
        assign_tables(round_of(*pairs), pins=pins, tables=count)
    assert error.value.code == code
    assert error.value.message.endswith(".")
