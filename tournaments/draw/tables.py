"""Table numbers for a round: the top match on table 1, pinned entrants on their tables.

Responsible for: `assign_tables`, which gives each match of a round (byes have no table) a
table from 1 to T. Matches with a pinned entrant (a pareja that needs a particular table, e.g.
wheelchair access) get that table; the others fill the free tables in table order, so the best
match takes the lowest free table — table 1 unless a pin holds it.

Must not: import Django, touch storage, or change who meets whom.

Terms: a *pin* maps an entrant id to the table it must sit at; *table order* is the order of
the draw (``Pairing.table_order``, 1 = best match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.draw.base import DrawError, Pairing

__all__ = ["assign_tables"]


def assign_tables(
    pairings: Sequence[Pairing],
    *,
    pins: Mapping[int, int] | None = None,
    tables: int | None = None,
) -> tuple[Pairing, ...]:
    """``pairings`` in table order, each with ``table`` set (``None`` for a bye).

    ``tables``: how many tables the venue has (default: one per match). Pins of entrants not
    playing this round (absent, or with the bye) are ignored. Raises `DrawError` if there are
    more matches than tables, a pin names a table that does not exist, two entrants of one match
    are pinned to different tables, or two matches are pinned to the same table.
    """
    pins = pins or {}
    ordered = sorted(pairings, key=lambda p: p.table_order)
    matches = [p for p in ordered if not p.is_bye]
    count = len(matches) if tables is None else tables
    if len(matches) > count:
        raise DrawError(
            "This round has {matches} matches but only {tables} tables; add tables or split "
            "the round into sessions.",
            code="tables_too_few",
            matches=len(matches),
            tables=count,
        )
    taken: dict[int, Pairing] = {}
    table_of: dict[int, int] = {}  # index in matches -> table
    for k, p in enumerate(matches):
        wanted = {pins[e] for e in p.entrant_ids if e in pins}
        if len(wanted) > 1:
            a, b = sorted(wanted)
            raise DrawError(
                "Entrants {a} and {b} meet this round but are pinned to tables {table_a} and "
                "{table_b}; unpin one of them for this round.",
                code="tables_pin_conflict",
                a=p.a_id,
                b=p.b_id,
                table_a=a,
                table_b=b,
            )
        if not wanted:
            continue
        (table,) = wanted
        if not 1 <= table <= count:
            raise DrawError(
                "An entrant of the match {a} v {b} is pinned to table {table}, but the tables "
                "are numbered 1 to {tables}.",
                code="tables_pin_missing",
                a=p.a_id,
                b=p.b_id,
                table=table,
                tables=count,
            )
        if table in taken:
            other = taken[table]
            raise DrawError(
                "The matches {a1} v {b1} and {a2} v {b2} both have an entrant pinned to table "
                "{table}; move one of the pins.",
                code="tables_pin_clash",
                a1=other.a_id,
                b1=other.b_id,
                a2=p.a_id,
                b2=p.b_id,
                table=table,
            )
        taken[table] = p
        table_of[k] = table
    free = iter(t for t in range(1, count + 1) if t not in taken)
    result = []
    for k, p in enumerate(matches):
        result.append(p.with_table(table_of[k] if k in table_of else next(free)))
    result += [p.with_table(None) for p in ordered if p.is_bye]
    return tuple(sorted(result, key=lambda p: p.table_order))
