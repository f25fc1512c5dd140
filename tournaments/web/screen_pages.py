"""How the venue's TV splits a round's mesas over its pages.

Responsible for: `split_evenly`, the sizes of the pages the big screen shows one after the
other when a round has more mesas than one screenful: as few pages as the capacity allows, the
mesas spread evenly over them (sizes differ by one at most, the larger pages first), and never
one mesa alone on a page — 13 mesas at 12 a page are 7 + 6, not 12 + 1. `pages_of` cuts a list
by those sizes. Plain values in and out: no Django, no database.

Must not: decide how many mesas fit on a screen (tournaments.web.public's
``SCREEN_TABLES_PER_PAGE``, measured at 1920×1080 by tests/browser/test_browser_tv.py) or the
order of the mesas (the round's, by number).

Terms: mesa (table), ronda (round), pantalla (the venue's TV).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def split_evenly(count: int, capacity: int) -> list[int]:
    """The sizes of the pages for ``count`` mesas at most ``capacity`` a page.

    Fewest pages first; then even sizes. A page never holds one mesa alone unless there is only
    one mesa: with a capacity of 2, three mesas share one page (the one case a page holds more
    than its capacity, by one)."""
    if count < 0 or capacity < 1:
        raise ValueError("count must be >= 0 and capacity >= 1")
    if count == 0:
        return []
    pages = -(-count // capacity)  # ceil
    while pages > 1 and count // pages < 2:
        pages -= 1
    base, extra = divmod(count, pages)
    return [base + 1] * extra + [base] * (pages - extra)


def pages_of(items: Sequence[T], capacity: int) -> list[list[T]]:
    """``items`` cut into the pages `split_evenly` gives, in order."""
    pages, start = [], 0
    for size in split_evenly(len(items), capacity):
        pages.append(list(items[start : start + size]))
        start += size
    return pages
