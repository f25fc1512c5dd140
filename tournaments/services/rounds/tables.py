"""The organizer's changes to a round before it starts: swap two pairs, swap two tables, move
a match to a free table; each kept in the audit trail, players told again if the round is
published.

Must not: draw, publish or close a round.
"""

from __future__ import annotations

from django.db import transaction

from config.errors import Conflict, Invalid
from tournaments import draw_manager
from tournaments.models import (
    Entry,
    Match,
    Phase,
    Round,
)
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
)
from tournaments.services.base import MAX_TABLES
from tournaments.services.rounds.common import (
    User,
    _after_commit_email,
    _after_commit_standings,
    _audit,
    _lock_round,
    _require_organizer,
    _round_closed,
    _sides,
    _table_match_unknown,
)

# --- Changes before a round starts ------------------------------------------------------------


def _changeable_matches(rnd: Round) -> list[Match]:
    """The round's matches, locked; Conflict once the round is closed or a match started."""
    if rnd.status == Round.Status.CLOSED:
        raise _round_closed(rnd)
    matches = list(
        Match.objects.select_for_update(of=("self",))
        .filter(round=rnd)
        .select_related("entry_a__pair", "entry_b__pair")
        .order_by("id")
    )
    started = [
        m
        for m in matches
        if m.kind != Match.Kind.BYE
        and (m.status != Match.Status.PENDING or m.started_at is not None)
    ]
    if started:
        raise Conflict(
            (
                "Round {round} has started (table {tables}); pairs and tables can no longer "
                "be changed.",
                "Round {round} has started (tables {tables}); pairs and tables can no longer "
                "be changed.",
            ),
            code="round_started",
            count=len(started),
            round=rnd.number,
            tables=[m.table_number for m in started],
        )
    return matches


def round_entries_swap(*, round: Round, actor: User, entry_id: int, other_entry_id: int) -> Round:
    """Swap two pairs between two matches of a round that has not started.

    A pair swapped into a bye gets the bye. Liguilla rounds follow the group schedule and
    cannot be swapped; in a bracket only first-round pairs can be (the bracket is updated).
    Table pins are not re-applied: swap tables too if a pinned pair moved.
    """
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        phase = rnd.phase
        _require_organizer(actor, phase.tournament)
        matches = _changeable_matches(rnd)
        if phase.format == Phase.Format.ROUND_ROBIN:
            raise Conflict(
                "Liguilla rounds follow the group schedule; swap tables instead of pairs.",
                code="swap_round_robin",
            )
        if phase.format in ELIMINATION_FORMATS and rnd.number != 1:
            raise Conflict(
                "Only first-round pairs of a bracket can be swapped; later matches are filled "
                "by the results.",
                code="swap_bracket_later_round",
            )
        first = _match_of(matches, entry_id, rnd)
        second = _match_of(matches, other_entry_id, rnd)
        if first.pk == second.pk:
            raise Invalid(
                "Both pairs play the same match; choose pairs of two different matches.",
                code="swap_same_match",
            )
        entries = {
            e.id: e for m in (first, second) for e in (m.entry_a, m.entry_b) if e is not None
        }
        params = {
            "entry": str(entries[entry_id].pair),
            "other": str(entries[other_entry_id].pair),
            "entry_id": entry_id,
            "other_id": other_entry_id,
        }
        for match, other, leaving, coming in (
            (first, second, entry_id, other_entry_id),
            (second, first, other_entry_id, entry_id),
        ):
            old = _sides(match)
            if match.entry_a_id == leaving:
                match.entry_a_id = coming
            else:
                match.entry_b_id = coming
            if match.kind == Match.Kind.BYE:
                match.winner_id = coming
            match.reasons = [{"code": "organizer_swap", "params": params}]
            match.save(update_fields=["entry_a", "entry_b", "winner", "reasons", "updated_at"])
            _audit(
                phase.tournament,
                "match_entries_swapped",
                actor,
                match=match,
                old=old,
                # the other end of the swap, so the trail reads "mesa 2 ↔ mesa 3"
                new={
                    **_sides(match),
                    "swapped_with": _swap_end(other, entries[leaving], entries[coming]),
                },
            )
        if phase.format in ELIMINATION_FORMATS:
            phase.bracket = draw_manager.bracket_swap_entrants(
                phase.bracket, entry_id, other_entry_id
            )
            phase.save(update_fields=["bracket"])
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
            _after_commit_standings(phase.id)
    return rnd


def _swap_end(other: Match, left: Entry | None = None, came: Entry | None = None) -> dict:
    """The other match of a swap as the audit trail keeps it: its table (None for a bye) and
    id; for a swap of pairs, the pair that left for it and the pair that came from it."""
    end: dict = {"table": other.table_number, "match": other.id}
    if left is not None and came is not None:
        end.update(left=str(left.pair), came=str(came.pair))
    return end


def _match_of(matches: list[Match], entry_id: int, rnd: Round) -> Match:
    for m in matches:
        if entry_id in (m.entry_a_id, m.entry_b_id):
            return m
    raise Invalid(
        "Pair {entry} does not play in round {round}.",
        code="swap_entry_not_in_round",
        entry=entry_id,
        round=rnd.number,
    )


def round_tables_swap(*, round: Round, actor: User, match_id: int, other_match_id: int) -> Round:
    """Swap the tables of two matches of a round that has not started."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        matches = {m.id: m for m in _changeable_matches(rnd)}
        pair = []
        for ident in (match_id, other_match_id):
            match = matches.get(ident)
            if match is None or match.kind == Match.Kind.BYE:
                raise _table_match_unknown(ident, rnd)
            pair.append(match)
        first, second = pair
        if first.pk == second.pk:
            raise Invalid("Choose two different matches.", code="table_same_match")
        old_first, old_second = _sides(first), _sides(second)
        tables = first.table_number, second.table_number
        # One table per round is a constraint checked at once: free the first table meanwhile.
        first.table_number = None
        first.save(update_fields=["table_number", "updated_at"])
        second.table_number = tables[0]
        second.save(update_fields=["table_number", "updated_at"])
        first.table_number = tables[1]
        first.save(update_fields=["table_number", "updated_at"])
        tournament = rnd.phase.tournament
        for match, old, other in ((first, old_first, second), (second, old_second, first)):
            _audit(
                tournament,
                "match_tables_swapped",
                actor,
                match=match,
                old=old,
                new={**_sides(match), "swapped_with": _swap_end(other)},
            )
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
    return rnd


def match_table_move(*, round: Round, actor: User, match_id: int, table_number: int) -> Match:
    """Move a match of a round that has not started to a free table."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        tournament = rnd.phase.tournament
        _require_organizer(actor, tournament)
        matches = _changeable_matches(rnd)
        match = next((m for m in matches if m.id == match_id), None)
        if match is None or match.kind == Match.Kind.BYE:
            raise _table_match_unknown(match_id, rnd)
        last = tournament.tables_available or MAX_TABLES
        if not 1 <= table_number <= last:
            raise Invalid(
                "Table {table} does not exist; tables are numbered from 1 to {last}.",
                code="table_out_of_range",
                table=table_number,
                last=last,
            )
        if match.table_number == table_number:
            return match
        holder = next((m for m in matches if m.table_number == table_number), None)
        if holder is not None:
            raise Conflict(
                "Table {table} is taken by another match of round {round}; swap the two tables "
                "instead.",
                code="table_taken",
                table=table_number,
                round=rnd.number,
                match=holder.id,
            )
        old = _sides(match)
        match.table_number = table_number
        match.save(update_fields=["table_number", "updated_at"])
        _audit(tournament, "match_table_moved", actor, match=match, old=old, new=_sides(match))
        if rnd.status == Round.Status.PUBLISHED:
            _after_commit_email(rnd.id)
    return match
