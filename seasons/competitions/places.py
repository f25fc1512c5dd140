"""Final places of a finished tournament, as a pure function: its phases' standings in, each
pair's place out. Circuits earn points by it; championships qualify by it.

Responsible for: ``final_places``: the last phase places its pairs first, in its standings'
order; then each earlier phase places the pairs it has that a later one did not (those who did
not go on), after all of those. In a phase of several liguilla groups, the pairs of the same
rank in different groups share a place (every group's third is placed alike), as do pairs of
equal rank in one table (an elimination's pairs who went out in the same round).
``places_in_order``: the same pairs in the order they are placed, a shared place broken by
the order the standings list them (the first table first), so that a cut ("the first three")
is the same on every run.

Must not: import Django or anything of the project (import-linter's ``pure-cores``); read
the clock or draw lots: the same input always gives the same places.

Terms: puesto (place), pareja (pair), fase (phase), liguilla (group).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PhaseTable:
    """One table of standings: (rank, pair id) rows; a phase has one, or one per group."""

    rows: tuple[tuple[int, int], ...]


def final_places(phases: Sequence[Sequence[PhaseTable]]) -> dict[int, int]:
    """pair id → final place, from the phases in their order (see the module docstring)."""
    placed: dict[int, int] = {}
    next_place = 1
    for tables in reversed(phases):
        best: dict[int, int] = {}
        for table in tables:
            for rank, pair in table.rows:
                if pair not in placed:
                    best[pair] = min(rank, best.get(pair, rank))
        ranks = sorted(best.values())
        for pair, rank in best.items():
            # standard competition places among the pairs this phase places: 1, 2, 2, 4
            placed[pair] = next_place + _count_below(ranks, rank)
        next_place += len(best)
    return placed


def places_in_order(phases: Sequence[Sequence[PhaseTable]]) -> list[tuple[int, int]]:
    """(pair id, final place) from the first place down; pairs sharing a place keep the order
    in which the last phase that placed them lists them (its tables in order, each table's
    rows in order)."""
    places = final_places(phases)
    listed: dict[int, int] = {}
    for tables in reversed(phases):
        for table in tables:
            for _, pair in table.rows:
                listed.setdefault(pair, len(listed))
    return sorted(places.items(), key=lambda item: (item[1], listed[item[0]], item[0]))


def _count_below(ranks: list[int], rank: int) -> int:
    low, high = 0, len(ranks)
    while low < high:
        mid = (low + high) // 2
        if ranks[mid] < rank:
            low = mid + 1
        else:
            high = mid
    return low
