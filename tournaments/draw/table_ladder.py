"""A ladder of tables ("sube y baja", king of the table): tables ranked 1…N, winners move up.

Responsible for:

- `table_ladder_start`: the first round's tables from the field best first: table 1 takes the
  first sides, table 2 the next…; what does not fill a table rests on the bench.
- `table_ladder_next`: the next round's tables from each table's finishing order. At every
  table the first (the winner) moves up a table and the last (the loser) moves down a table;
  the winner of table 1 stays on it and so does the loser of the last table — unless sides
  rest on the bench: then that loser goes to the bench and the side that rested longest takes
  its place. Any side between the first and the last (a Mus francés table of more than two)
  stays. So each table keeps its size, and nobody leaves the ladder.
- The swap (an option): when the same side wins table 1 twice in a row and the same side loses
  the last table twice in a row, the two swap their second players (players alone only: a
  side of one entry, a registered pair, never swaps).
- `table_ladder_order`: the standings are the table order: table 1's sides in their finishing
  order, then table 2's…, then the bench.

A *side* is a tuple of ids: one entry (a registered pair or trio), the two players of a
partnership (players alone), or one player (a Mus francés table).

Must not: import Django, touch storage, or draw lots.

Terms: *sube y baja* (the table ladder), *mesa* (table; 1 is the top), *banquillo* (the bench:
sides resting this round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.draw.base import DrawError, Pairing
from tournaments.draw.reasons import Reason

__all__ = [
    "Side",
    "TableLadder",
    "TableLadderStep",
    "table_ladder_order",
    "table_ladder_pairings",
    "table_ladder_start",
    "table_ladder_next",
]

Side = tuple[int, ...]


@dataclass(frozen=True)
class TableLadder:
    """The tables of a round, table 1 first, each its sides in seat order; the bench."""

    tables: tuple[tuple[Side, ...], ...]
    bench: tuple[Side, ...] = ()


@dataclass(frozen=True)
class TableLadderStep:
    """The next round's ladder; the sides that moved up and down; the swap made, if any (the
    two new sides)."""

    ladder: TableLadder
    up: tuple[Side, ...]
    down: tuple[Side, ...]
    swapped: tuple[Side, Side] | None = None


def table_ladder_start(sides: Sequence[Side], *, sizes: Sequence[int]) -> TableLadder:
    """Table ``t`` seats ``sizes[t-1]`` sides, taken from ``sides`` best first; the rest rest."""
    if len(sizes) < 1 or any(s < 2 for s in sizes):
        raise DrawError(
            "A table ladder needs at least one table of two sides; it has {sides} to seat.",
            code="table_ladder_too_few",
            sides=len(sides),
        )
    seen: set[int] = set()
    for side in sides:
        if not side or seen & set(side):
            raise ValueError("every id must be on exactly one side")
        seen |= set(side)
    if sum(sizes) > len(sides):
        raise DrawError(
            "A table ladder of {tables} tables needs {needed} to seat; it has {sides}.",
            code="table_ladder_too_few_sides",
            tables=len(sizes),
            needed=sum(sizes),
            sides=len(sides),
        )
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(tuple(s) for s in sides[start : start + size]))
        start += size
    return TableLadder(tuple(tables), tuple(tuple(s) for s in sides[start:]))


def table_ladder_next(
    ladder: TableLadder,
    finishes: Sequence[Sequence[Side]],
    *,
    previous: Sequence[Sequence[Side]] | None = None,
    swap: bool = False,
) -> TableLadderStep:
    """The next round's ladder. ``finishes[t]`` is table ``t + 1``'s sides in finishing order
    (winner first); ``previous`` the same for the round before (for the swap)."""
    tables = ladder.tables
    n = len(tables)
    if len(finishes) != n:
        raise ValueError("one finishing order per table")
    for t, (table, finish) in enumerate(zip(tables, finishes, strict=True)):
        if sorted(finish) != sorted(table):
            raise ValueError(f"table {t + 1}'s finishing order is not its sides")
    bench = list(ladder.bench)
    new: list[list[Side]] = [[] for _ in range(n)]
    up: list[Side] = []
    down: list[Side] = []
    for t, finish in enumerate(finishes):
        first, last, middle = finish[0], finish[-1], list(finish[1:-1])
        if t == 0:
            new[0].append(first)
        else:
            new[t - 1].append(first)
            up.append(first)
        new[t].extend(middle)
        if t < n - 1:
            new[t + 1].append(last)
            down.append(last)
        elif bench:
            bench.append(last)
            down.append(last)
            new[t].append(bench.pop(0))
            up.append(new[t][-1])
        else:
            new[t].append(last)
    swapped = None
    if swap and previous is not None and len(previous) == n:
        top, bottom = finishes[0][0], finishes[-1][-1]
        again = previous[0][0] == top and previous[-1][-1] == bottom
        if again and top != bottom and len(top) >= 2 and len(bottom) >= 2:
            new_top = (top[0], *bottom[1:])
            new_bottom = (bottom[0], *top[1:])
            swapped = (new_top, new_bottom)
            new = [[_replace(s, top, new_top, bottom, new_bottom) for s in row] for row in new]
            bench = [_replace(s, top, new_top, bottom, new_bottom) for s in bench]
    return TableLadderStep(
        TableLadder(tuple(tuple(row) for row in new), tuple(bench)),
        tuple(up),
        tuple(down),
        swapped,
    )


def _replace(side: Side, top: Side, new_top: Side, bottom: Side, new_bottom: Side) -> Side:
    if side == top:
        return new_top
    if side == bottom:
        return new_bottom
    return side


def table_ladder_order(
    finishes: Sequence[Sequence[Side]], bench: Sequence[Side] = ()
) -> list[Side]:
    """The standings: table 1 in finishing order, then table 2…, then the bench."""
    return [side for finish in finishes for side in finish] + list(bench)


def table_ladder_pairings(ladder: TableLadder) -> tuple[Pairing, ...]:
    """A ladder of two-side tables of one entry each (pairs, trios) as the round's pairings,
    table 1 first (the bench rests: it has no pairing)."""
    out = []
    for t, table in enumerate(ladder.tables, start=1):
        (a,), (b,) = table
        out.append(Pairing(t, a, b, (Reason("table_ladder", {"table": t}),)))
    return tuple(out)
