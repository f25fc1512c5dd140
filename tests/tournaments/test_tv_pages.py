"""The TV's pages of mesas (tournaments.web.screen_pages): as few pages as fit, even sizes,
never one mesa alone on a page."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.web.screen_pages import pages_of, split_evenly


@pytest.mark.parametrize(
    ("count", "capacity", "sizes"),
    [
        (0, 12, []),
        (1, 12, [1]),
        (12, 12, [12]),
        (13, 12, [7, 6]),  # not 12 + 1
        (25, 12, [9, 8, 8]),  # not 12 + 12 + 1
        (24, 12, [12, 12]),
        (3, 2, [3]),  # two pages would leave one alone
        (5, 2, [3, 2]),
    ],
)
def test_worked_examples(count, capacity, sizes):
    assert split_evenly(count, capacity) == sizes


@given(st.integers(0, 500), st.integers(2, 40))
def test_every_mesa_once_few_even_pages_none_alone(count, capacity):
    sizes = split_evenly(count, capacity)
    assert sum(sizes) == count
    if count > 1:
        assert min(sizes) >= 2  # never one mesa alone on a page
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True)
        assert max(sizes) <= max(capacity, 3)
        # as few pages as the capacity allows (one fewer only to avoid a lone mesa)
        assert len(sizes) in (-(-count // capacity), -(-count // capacity) - 1)


@given(st.lists(st.integers(), max_size=60), st.integers(2, 20))
def test_pages_keep_the_order(items, capacity):
    pages = pages_of(items, capacity)
    assert [x for page in pages for x in page] == items


def test_nonsense_is_refused():
    with pytest.raises(ValueError):
        split_evenly(-1, 12)
    with pytest.raises(ValueError):
        split_evenly(3, 0)
