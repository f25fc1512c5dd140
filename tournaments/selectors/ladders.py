"""Reads of the ladders: a table ladder's tables as they were played, and its order.

Responsible for: `round_tables` (a round's tables in table order, each its sides in seat
order and in finishing order: a pair's match, a partnership of players alone, a Mus francés
table) and `table_ladder_order` (the standings of a table ladder: the table order of its last
published round). The ladders' writes are tournaments/services/ladders.py.

Must not: write.

Terms: sube y baja (table ladder), mesa, banquillo (bench), side (one entry, the two players
of a partnership, or one player of a Mus francés table).
"""

from __future__ import annotations

from tournaments.draw.table_ladder import Side
from tournaments.models import (
    Entry,
    FrancesSeat,
    FrancesTable,
    IndividualEntry,
    Match,
    Phase,
    Round,
    Tournament,
)

__all__ = ["round_tables", "table_ladder_order"]


def round_tables(
    phase: Phase, number: int
) -> tuple[tuple[tuple[Side, ...], ...], list[tuple[Side, ...]]]:
    """The tables of round ``number`` in table order (seat order) and their finishing orders
    (a match without a winner keeps its seat order)."""
    kind = phase.tournament.entrant_kind
    if kind == Tournament.EntrantKind.FRANCES:
        tables, finishes = [], []
        rows = FrancesTable.objects.filter(round__phase=phase, round__number=number).order_by(
            "table_number"
        )
        seats: dict[int, list[int]] = {}
        for table_id, entry_id in (
            FrancesSeat.objects.filter(table__in=rows)
            .order_by("seat")
            .values_list("table_id", "entry_id")
        ):
            seats.setdefault(table_id, []).append(entry_id)
        for row in rows:
            table = tuple((pk,) for pk in seats.get(row.id, []))
            order = [pk for pk in (row.order or []) if (pk,) in table]
            finish = tuple((pk,) for pk in order) if len(order) == len(table) else table
            tables.append(table)
            finishes.append(finish)
        return tuple(tables), finishes
    matches = (
        Match.objects.filter(round__phase=phase, round__number=number)
        .exclude(entry_a=None)
        .exclude(entry_b=None)
        .select_related("entry_a__pair", "entry_b__pair")
        .order_by("table_number", "id")
    )
    by_player = {}
    if kind == Tournament.EntrantKind.INDIVIDUALS:
        by_player = dict(
            IndividualEntry.objects.filter(tournament=phase.tournament).values_list(
                "player_id", "id"
            )
        )
    tables, finishes = [], []
    for m in matches:
        a, b = _side(m.entry_a, by_player), _side(m.entry_b, by_player)
        tables.append((a, b))
        finishes.append((b, a) if m.winner_id == m.entry_b_id else (a, b))
    return tuple(tables), finishes


def _side(entry: Entry, by_player: dict[int, int]) -> Side:
    if not by_player:
        return (entry.id,)
    return (by_player[entry.pair.player_one_id], by_player[entry.pair.player_two_id])


def table_ladder_order(phase: Phase) -> list[Side] | None:
    """The standings of a table ladder: the sides of its last published round in table
    order, each table in its finishing order, then the bench; None before any round."""
    number = (
        Round.objects.filter(phase=phase)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    if number is None:
        return None
    _, finishes = round_tables(phase, number)
    bench = (phase.settings or {}).get("ladder_bench", {}).get(str(number), [])
    return [side for finish in finishes for side in finish] + [tuple(s) for s in bench]
