"""Reads of standings: computing them from confirmed matches, and reading the stored snapshots.

Responsible for:

- `standings_compute`: a phase's standings (one table per liguilla group, or one for the whole
  phase) as scoring.standings computes them from the confirmed matches of its published or
  closed rounds, with the tournament's tiebreak order. Used by the standings_refresh service
  (which stores them) and by the draw (Swiss ranking, group qualifiers), never per request.
- `standings_for_phase`: the read path; it only reads StandingsSnapshot rows (one query), and
  returns an empty list while no snapshot exists yet (no round published or no result
  confirmed since the phase began).

Must not: write, or recompute on a read request.

How matches count (scoring.standings has the rules): a match counts once confirmed, with the
winner, juegos and piedras recorded on it; ``kind`` says played, forfeit or bye. A bye
(descanso) counts as a match won with the format's full score in juegos and no piedras (the
draw records it so). Matches of draft rounds are left out: a draft is not yet public.

Terms: clasificación (standings), desempate (tiebreak), pareja, juego, piedras, liguilla,
Buchholz.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.standings import Entry as StandingEntry
from scoring.standings import MatchRecord, StandingRow, Tiebreak, standings
from tournaments.models import Entry, Group, Match, Phase, Round, StandingsSnapshot

#: tiebreak order when the tournament chose none; head-to-head decides first in a liguilla
#: (everybody met), Buchholz in a Swiss (not everybody met).
DEFAULT_TIEBREAKS = {
    Phase.Format.SWISS: (
        Tiebreak.MATCHES_WON,
        Tiebreak.BUCHHOLZ,
        Tiebreak.GAME_DIFFERENCE,
        Tiebreak.STONE_DIFFERENCE,
        Tiebreak.LOTS,
    ),
    None: (
        Tiebreak.MATCHES_WON,
        Tiebreak.HEAD_TO_HEAD,
        Tiebreak.GAME_DIFFERENCE,
        Tiebreak.STONE_DIFFERENCE,
        Tiebreak.LOTS,
    ),
}


def tiebreak_order(phase: Phase) -> tuple[str, ...]:
    chosen = phase.tournament.tiebreaks
    if chosen:
        return tuple(chosen)
    return tuple(DEFAULT_TIEBREAKS.get(phase.format, DEFAULT_TIEBREAKS[None]))


@dataclass(frozen=True)
class GroupStandings:
    """The standings of one liguilla group, or of the whole phase (``group`` None)."""

    group: Group | None
    rows: tuple[StandingRow, ...]
    entries: dict[int, Entry]


_ENTRY_RELATED = ("pair__player_one", "pair__player_two", "pair__club")


def standings_compute(*, phase: Phase) -> list[GroupStandings]:
    """The phase's standings from its confirmed matches (see the module docstring).

    A phase with liguilla groups gives one table per group (ordered by name) over the group's
    entries; any other phase one table over every pair that has a match in a published round.
    Raises scoring.standings.StandingsError for a bad tiebreak order.
    """
    order = tiebreak_order(phase)
    matches = list(
        Match.objects.filter(round__phase=phase)
        .exclude(round__status=Round.Status.DRAFT)
        .values(
            "group_id",
            "entry_a_id",
            "entry_b_id",
            "status",
            "kind",
            "winner_id",
            "games_a",
            "games_b",
            "stones_a",
            "stones_b",
        )
        .order_by("round__number", "id")
    )
    groups = list(Group.objects.filter(phase=phase).order_by("name").prefetch_related("entries"))
    if groups:
        entry_ids = {e.id for g in groups for e in g.entries.all()}
    else:
        entry_ids = {m[k] for m in matches for k in ("entry_a_id", "entry_b_id") if m[k]}
    entries = Entry.objects.filter(pk__in=entry_ids).select_related(*_ENTRY_RELATED)
    by_id = {e.id: e for e in entries}
    if not groups:
        return [_one(None, sorted(by_id), matches, by_id, order)]
    result = []
    for group in groups:
        ids = sorted(e.id for e in group.entries.all())
        in_group = [m for m in matches if m["group_id"] == group.id]
        result.append(_one(group, ids, in_group, by_id, order))
    return result


def _one(
    group: Group | None,
    ids: list[int],
    matches: list[dict],
    by_id: dict[int, Entry],
    order: tuple[str, ...],
) -> GroupStandings:
    pairs = [StandingEntry(pair=i, seed=by_id[i].seed, name=str(by_id[i].pair)) for i in ids]
    records = [
        MatchRecord(
            pair_a=m["entry_a_id"],
            pair_b=m["entry_b_id"],
            winner=m["winner_id"],
            games_a=m["games_a"],
            games_b=m["games_b"],
            stones_a=m["stones_a"],
            stones_b=m["stones_b"],
            kind=m["kind"],
        )
        for m in matches
        if m["status"] == Match.Status.CONFIRMED and m["entry_a_id"] is not None
    ]
    rows = standings(pairs, records, order)
    return GroupStandings(group, rows, {i: by_id[i] for i in ids})


def rows_to_json(result: GroupStandings) -> list[dict]:
    """Rows as stored in a snapshot: everything the read path shows, so it needs no join."""
    out = []
    for row in result.rows:
        entry = result.entries[row.pair]
        pair = entry.pair
        out.append(
            {
                "rank": row.rank,
                "entry_id": row.pair,
                "name": row.name,
                "players": [str(pair.player_one), str(pair.player_two)],
                "club": pair.club.name if pair.club_id else None,
                "seed": entry.seed,
                "withdrawn": entry.status == Entry.Status.WITHDRAWN,
                "played": row.played,
                "won": row.won,
                "lost": row.lost,
                "games_won": row.games_won,
                "games_lost": row.games_lost,
                "game_difference": row.game_difference,
                "stones_won": row.stones_won,
                "stones_lost": row.stones_lost,
                "stone_difference": row.stone_difference,
                "buchholz": row.buchholz,
                "tiebreaks": [
                    {"tiebreak": t.value, "value": list(v) if isinstance(v, tuple) else v}
                    for t, v in row.tiebreaks
                ],
                "separated_by": row.separated_by.value if row.separated_by else None,
            }
        )
    return out


def standings_for_phase(*, phase: Phase) -> list[dict]:
    """The stored standings of the phase: ``[{"group", "computed_at", "rows"}]``, groups by
    name (the whole phase has group None). One query; empty until the first snapshot."""
    snapshots = StandingsSnapshot.objects.filter(phase=phase).select_related("group")
    result = [
        {
            "group": s.group.name if s.group_id else None,
            "computed_at": s.computed_at,
            "rows": s.rows,
        }
        for s in snapshots
    ]
    return sorted(result, key=lambda g: (g["group"] is not None, g["group"] or ""))
