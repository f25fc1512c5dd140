"""Reads of standings: computing them from confirmed matches, and reading the stored snapshots.

Responsible for:

- `standings_compute`: a phase's standings (one table per liguilla group, or one for the whole
  phase) as scoring.standings computes them from the confirmed matches of its published or
  closed rounds, with the tournament's tiebreak order and, when it has one, its points table
  ("2 puntos por partida ganada": `points_table`; then the standings rank by points first and
  each row carries its ``points``). Used by the standings_refresh service
  (which stores them) and by the draw (Swiss and a tres ceros ranking, qualifiers of a
  knockout), never per request.
- Elimination phases (single and double elimination, a tres ceros: `PLACED_FORMATS`) rank by
  placing first, by the rules of tournaments.draw.placing (its docstring has them, with what a
  running phase shows): the champion first, then how far each pair got; the rows keep their
  shape, and ``separated_by`` is ``"placing"`` for a row put below the one above by how far it
  got. This module only adapts: it hands the stored bracket (Phase.bracket) and the confirmed
  bracket results, or the a tres ceros rounds, to that pure module. In an a tres ceros the pairs
  still in keep their tiebreak order among themselves, so the next round is paired as before.
- `individual_rows`: the standings of players who entered alone (individual tournaments, Mus
  francés), stored by standings_refresh in the same snapshot rows.
- `standings_for_phase`: the read path; it only reads StandingsSnapshot rows (one query), and
  returns an empty list while no snapshot exists yet (no round published or no result
  confirmed since the phase began). `standings_cached`: the same, built into an answer once
  per change of the snapshots and kept in the cache (the public readers' path).

Must not: write, or recompute on a read request.

Cost: `standings_compute` reads plain values (values_list of only the columns it uses), never
model instances of matches or pairs: at 1,024 pairs and 4,608 matches building those objects
was a large share of a refresh. Its query count is fixed: the matches, the groups (and, for a
liguilla, their members), the pairs.

How matches count (scoring.standings has the rules): a match counts once confirmed, with the
winner, juegos and piedras recorded on it; ``kind`` says played, forfeit, bye or double loss
(both pairs lose, no winner; a loss for each in every table here). A bye
(descanso) counts as a match won with the format's full score in juegos and no piedras (the
draw records it so). Matches of draft rounds are left out: a draft is not yet public.

Terms: clasificación (standings), desempate (tiebreak), pareja, juego, piedras, liguilla,
Buchholz.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.core.cache import cache

from scoring.standings import Entry as StandingEntry
from scoring.standings import MatchRecord, PointsTable, StandingRow, Tiebreak, standings
from tournaments.draw import DrawError, Entrant, Result
from tournaments.draw.ladder import ladder_rank
from tournaments.draw.placing import bracket_placings, lives_placings, rank_by_placing
from tournaments.models import (
    Entry,
    FrancesTable,
    Group,
    IndividualEntry,
    Match,
    Phase,
    Round,
    StandingsSnapshot,
    Tournament,
)
from tournaments.selectors.ladders import table_ladder_order
from tournaments.selectors.rounds import bracket_from_json, round_rules

#: how long a built answer stays in the cache when nothing changes (its key changes with them)
STANDINGS_CACHE_SECONDS = 600

log = logging.getLogger(__name__)

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
    """The order the phase's standings rank by: the tournament's tiebreaks (or the format's
    default), after its points when it has a points table (`points_table`)."""
    chosen = phase.tournament.tiebreaks
    default = DEFAULT_TIEBREAKS.get(phase.format, DEFAULT_TIEBREAKS[None])
    order = tuple(chosen) if chosen else tuple(default)
    if points_table(phase.tournament) is not None and Tiebreak.POINTS.value not in order:
        order = (Tiebreak.POINTS.value, *order)
    return order


def points_table(tournament: Tournament) -> PointsTable | None:
    """The tournament's points table ("2 puntos por partida ganada…"), None without one: its
    standings then count matches won, and their rows have no ``points``."""
    if tournament.points_win is None:
        return None
    return PointsTable(
        win=tournament.points_win,
        loss=tournament.points_loss,
        walkover_loss=tournament.points_walkover_loss,
    )


@dataclass(frozen=True, slots=True)
class StandingsEntry:
    """What a row shows of its pair, read as plain values (no model instances: a 1,024-pair
    Swiss would build some 5,000 of them per refresh). ``name`` and ``players`` are the texts
    of ``str(Pair)`` and ``str(Player)``; a trio's ``players`` are its three."""

    id: int
    seed: int | None
    status: str
    name: str
    players: tuple[str, ...]
    club: str | None

    @property
    def pair(self) -> str:
        """The pair's name, as ``str(entry.pair)`` gives it on an Entry."""
        return self.name

    @property
    def withdrawn(self) -> bool:
        return self.status == Entry.Status.WITHDRAWN


@dataclass(frozen=True)
class GroupStandings:
    """The standings of one liguilla group, or of the whole phase (``group`` None).

    ``rows`` are in their final order. In an elimination phase (see `PLACED_FORMATS`) they are
    ranked by placing first (tournaments.draw.placing): their ``rank`` and ``separated_by`` are
    the placing's, and ``separated_by`` may be the string ``"placing"`` besides a Tiebreak.
    """

    group: Group | None
    rows: tuple[StandingRow, ...]
    entries: dict[int, StandingsEntry]
    #: computed with the tournament's points table: the rows carry their ``points``
    scored: bool = False
    #: a group ladder's last moves into this group: entry id → "up" (came up from the group
    #: below) or "down" (came down from the group above); None for any other phase
    moves: dict[int, str] | None = None


#: the formats whose final standings rank by placing (how far a pair got), not matches won
PLACED_FORMATS = (
    Phase.Format.SINGLE_ELIMINATION,
    Phase.Format.DOUBLE_ELIMINATION,
    Phase.Format.LIVES,
)

# Column order of the match values read by standings_compute (values_list: tuples are cheaper
# than dicts at 4,608 matches).
_MATCH_COLUMNS = (
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
    "round__number",
    "bracket_key",
)
_GROUP, _A, _B, _STATUS, _KIND, _WINNER, _GA, _GB, _SA, _SB, _ROUND, _KEY = range(12)

_ENTRY_COLUMNS = (
    "id",
    "seed",
    "status",
    "pair__name",
    "pair__player_one__first_name",
    "pair__player_one__last_name",
    "pair__player_two__first_name",
    "pair__player_two__last_name",
    "pair__club__name",
    "player_three__first_name",
    "player_three__last_name",
)


def _entry(row: tuple) -> StandingsEntry:
    pk, seed, status, name, first_one, last_one, first_two, last_two, club, *three = row
    # The same text as Player.__str__ and Pair.__str__, without building the models.
    players = (f"{first_one} {last_one}".strip(), f"{first_two} {last_two}".strip())
    if three[0] is not None:  # a trio's third player (a trio's pair is named by all three)
        players += (f"{three[0]} {three[1]}".strip(),)
    return StandingsEntry(
        id=pk,
        seed=seed,
        status=status,
        name=name or f"{players[0]} / {players[1]}",
        players=players,
        club=club,
    )


def standings_compute(*, phase: Phase) -> list[GroupStandings]:
    """The phase's standings from its confirmed matches (see the module docstring).

    A phase with liguilla groups gives one table per group (ordered by name) over the group's
    entries; any other phase one table over every pair that has a match in a published round.
    Three or four queries whatever the number of pairs, all of plain values. Raises
    scoring.standings.StandingsError for a bad tiebreak order.
    """
    order = tiebreak_order(phase)
    matches = list(
        Match.objects.filter(round__phase=phase)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list(*_MATCH_COLUMNS)
        .order_by("round__number", "id")
    )
    if phase.format in LADDER_FORMATS:
        return _ladder(phase, matches, order)
    groups = list(Group.objects.filter(phase=phase).order_by("name"))
    members: dict[int, list[int]] = {g.id: [] for g in groups}
    if groups:
        for group_id, entry_id in Group.entries.through.objects.filter(
            group__phase=phase
        ).values_list("group_id", "entry_id"):
            members[group_id].append(entry_id)
        entry_ids = {e for ids in members.values() for e in ids}
    else:
        entry_ids = {m[k] for m in matches for k in (_A, _B) if m[k] is not None}
    by_id = {
        row[0]: _entry(row)
        for row in Entry.objects.filter(pk__in=entry_ids).values_list(*_ENTRY_COLUMNS)
    }
    points = points_table(phase.tournament)
    if not groups:
        table = _one(None, sorted(by_id), matches, by_id, order, points)
        return [_placed(phase, table, matches)]
    result = []
    for group in groups:
        in_group = [m for m in matches if m[_GROUP] == group.id]
        table = _one(group, sorted(members[group.id]), in_group, by_id, order, points)
        # an a tres ceros in each group is placed inside its group
        result.append(_placed(phase, table, in_group))
    return result


#: the ladders: their standings are the ladder's order (see `_ladder`)
LADDER_FORMATS = (Phase.Format.GROUP_LADDER, Phase.Format.TABLE_LADDER)


def _whole(phase: Phase, matches: list[tuple], order: tuple[str, ...]) -> GroupStandings:
    """One table over every pair with a match in the phase or in one of its groups."""
    entry_ids = {m[k] for m in matches for k in (_A, _B) if m[k] is not None}
    entry_ids |= set(
        Group.entries.through.objects.filter(group__phase=phase).values_list("entry_id", flat=True)
    )
    by_id = {
        row[0]: _entry(row)
        for row in Entry.objects.filter(pk__in=entry_ids).values_list(*_ENTRY_COLUMNS)
    }
    return _one(None, sorted(by_id), matches, by_id, order, points_table(phase.tournament))


def overall_order(*, phase: Phase) -> list[int]:
    """Every pair of the phase best first by its tiebreaks over all its confirmed matches,
    whatever its groups (a group ladder breaks ties with it)."""
    matches = list(
        Match.objects.filter(round__phase=phase)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list(*_MATCH_COLUMNS)
        .order_by("round__number", "id")
    )
    return [row.pair for row in _whole(phase, matches, tiebreak_order(phase)).rows]


def _ladder(phase: Phase, matches: list[tuple], order: tuple[str, ...]) -> list[GroupStandings]:
    """A ladder's standings: the table ladder's table order (one table), or the group
    ladder's groups top first, each in ladder order — during a cycle by the cycle's results
    (tournaments.draw.ladder.ladder_rank), once finished the final groups after the last
    moves. The counts on each row (played, won, juegos, piedras) are over the whole phase."""
    whole = _whole(phase, matches, order)
    if phase.format == Phase.Format.TABLE_LADDER:
        sides = table_ladder_order(phase)
        if sides is None:
            return [whole]
        return [_in_order(whole, None, [side[0] for side in sides], None)]
    state = (phase.settings or {}).get("ladder_state") or {}
    cycles = state.get("cycles") or []
    if not cycles:
        return [whole]
    groups = {g.name: g for g in Group.objects.filter(phase=phase)}
    names = sorted(groups)
    overall = [row.pair for row in whole.rows]
    final = state.get("final")
    if final is not None:
        ranked, last = final, cycles[-1]
    else:
        k = phase.settings["ladder"]["cycle_rounds"]
        first = (len(cycles) - 1) * k + 1
        results = [
            Result(round=m[_ROUND], a_id=m[_A], b_id=m[_B], winner_id=m[_WINNER])
            for m in matches
            if m[_ROUND] >= first
            and m[_STATUS] == Match.Status.CONFIRMED
            and m[_A] is not None
            and m[_B] is not None
        ]
        ranked = [ladder_rank(g, results, overall) for g in cycles[-1]["groups"]]
        last = cycles[-2] if len(cycles) > 1 else {"up": [], "down": []}
    moved = dict.fromkeys(last.get("up", []), "up") | dict.fromkeys(last.get("down", []), "down")
    return [
        _in_order(whole, groups[name], ids, {pk: moved[pk] for pk in ids if pk in moved})
        for name, ids in zip(names, ranked, strict=False)
    ]


def _in_order(
    whole: GroupStandings, group: Group | None, ids: list[int], moves: dict[int, str] | None
) -> GroupStandings:
    """The rows of ``ids`` from ``whole``, ranked 1, 2, … in that order."""
    by_pair = {row.pair: row for row in whole.rows}
    rows = tuple(
        replace(by_pair[pk], rank=n, separated_by=None)
        for n, pk in enumerate((pk for pk in ids if pk in by_pair), start=1)
    )
    entries = {row.pair: whole.entries[row.pair] for row in rows}
    return GroupStandings(group, rows, entries, whole.scored, moves)


def _one(
    group: Group | None,
    ids: list[int],
    matches: list[tuple],
    by_id: dict[int, StandingsEntry],
    order: tuple[str, ...],
    points: PointsTable | None = None,
) -> GroupStandings:
    pairs = [StandingEntry(pair=i, seed=by_id[i].seed, name=by_id[i].name) for i in ids]
    confirmed = Match.Status.CONFIRMED
    records = [
        MatchRecord(
            pair_a=m[_A],
            pair_b=m[_B],
            winner=m[_WINNER],
            games_a=m[_GA],
            games_b=m[_GB],
            stones_a=m[_SA],
            stones_b=m[_SB],
            kind=m[_KIND],
        )
        for m in matches
        if m[_STATUS] == confirmed and m[_A] is not None
    ]
    rows = standings(pairs, records, order, points=points)
    return GroupStandings(group, rows, {i: by_id[i] for i in ids}, points is not None)


# --- Elimination phases: placing first --------------------------------------------------------


def _placed(phase: Phase, table: GroupStandings, matches: list[tuple]) -> GroupStandings:
    """``table`` ranked by placing (tournaments.draw.placing) for the formats of
    `PLACED_FORMATS`; any other table as it is. A bracket whose stored results contradict it
    (a correction not yet sorted out) keeps the tiebreak standings, with a warning in the log,
    until the organizer fixes the results."""
    if phase.format not in PLACED_FORMATS or not table.rows:
        return table
    if phase.format == Phase.Format.LIVES:
        placings = lives_placings(
            [Entrant(id=i, seed=e.seed) for i, e in table.entries.items()],
            _lives_history(matches),
            lives=phase.lives,
            withdrawn={i for i, e in table.entries.items() if e.withdrawn},
        )
    elif phase.bracket:
        winners = {
            m[_KEY]: m[_WINNER]
            for m in matches
            if m[_KEY]
            and m[_STATUS] == Match.Status.CONFIRMED
            and m[_KIND] != Match.Kind.BYE
            and m[_WINNER] is not None
        }
        try:
            placings = bracket_placings(bracket_from_json(phase.bracket), winners)
        except DrawError as error:
            log.warning("standings of phase %s ranked by tiebreaks only: %s", phase.id, error)
            return table
    else:
        return table
    by_pair = {row.pair: row for row in table.rows}
    rows = tuple(
        replace(by_pair[p.entrant_id], rank=p.rank, separated_by=p.separated_by)
        for p in rank_by_placing(placings, table.rows)
    )
    return GroupStandings(table.group, rows, table.entries, table.scored)


def _lives_history(matches: list[tuple]) -> list[Result]:
    """The decided matches and byes of an a tres ceros, as tournaments.draw results."""
    return [
        Result(round=m[_ROUND], a_id=m[_A], b_id=m[_B], winner_id=m[_WINNER])
        for m in matches
        if m[_STATUS] == Match.Status.CONFIRMED and m[_A] is not None and m[_WINNER] is not None
    ]


def rows_to_json(result: GroupStandings) -> list[dict]:
    """Rows as stored in a snapshot: everything the read path shows, so it needs no join."""
    out = []
    entries = result.entries
    for row in result.rows:
        entry = entries[row.pair]
        separated_by = row.separated_by
        out.append(
            {
                "rank": row.rank,
                "entry_id": row.pair,
                "name": row.name,
                "players": list(entry.players),
                "club": entry.club,
                "seed": entry.seed,
                "withdrawn": entry.withdrawn,
                "played": row.played,
                "won": row.won,
                "lost": row.lost,
                "games_won": row.games_won,
                "games_lost": row.games_lost,
                "game_difference": row.games_won - row.games_lost,
                "stones_won": row.stones_won,
                "stones_lost": row.stones_lost,
                "stone_difference": row.stones_won - row.stones_lost,
                "buchholz": row.buchholz,
                "tiebreaks": [
                    {"tiebreak": str(t), "value": list(v) if isinstance(v, tuple) else v}
                    for t, v in row.tiebreaks
                ],
                "separated_by": None if separated_by is None else str(separated_by),
                # the points table's points, only with one ("2 puntos por partida ganada")
                **({"points": row.points} if result.scored else {}),
                # a group ladder's last move into the group: "up", "down" or "stayed"
                **(
                    {"ladder_move": result.moves.get(row.pair, "stayed")}
                    if result.moves is not None
                    else {}
                ),
            }
        )
    return out


def standings_cached(
    *, phase: Phase, build: Callable[[list[dict]], Any], variant: str = "api"
) -> Any:
    """``build(standings_for_phase(phase))``, kept in the cache until the phase's snapshots change.
    ``variant`` names what ``build`` makes (the API's answer; the public page's HTML in one
    language…) and anything else it reads that may change while the snapshots do not.

    A venue's TV and the spectators' phones read the same standings over and over while they
    change once per refresh: each read asks only for the snapshots' ids, groups and times (no
    rows), and builds the answer (the 200 rows of a big Swiss through a serializer) only when
    those changed. A refresh always moves ``computed_at``, so the key moves with every change
    of the rows; a group renamed moves it too. One query while the answer is kept, two when
    it is built. A cache that cannot be reached (Redis down) costs the build, never the read.
    """
    stamp = list(
        StandingsSnapshot.objects.filter(phase=phase)
        .order_by("id")
        .values_list("id", "computed_at", "group__name")
    )
    if not stamp:
        return build([])
    digest = hashlib.sha1(repr((variant, stamp)).encode(), usedforsecurity=False).hexdigest()
    key = f"standings:{phase.pk}:{digest}"
    try:
        built = cache.get(key)
    except Exception:  # the cache down (Redis): the standings are still read, only not kept
        log.warning("standings: the cache is unreachable; building the answer", exc_info=True)
        return build(standings_for_phase(phase=phase))
    if built is None:
        built = build(standings_for_phase(phase=phase))
        try:
            cache.set(key, built, STANDINGS_CACHE_SECONDS)
        except Exception:
            log.warning("standings: the cache is unreachable; not kept", exc_info=True)
    return built


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


# --- Players alone: individual tournaments and Mus francés ----------------------------------


def individual_rows(*, phase: Phase) -> list[dict]:
    """The standings of a phase of players who entered alone, as snapshot rows (the keys of
    `rows_to_json`, ``entry_id`` being the IndividualEntry's id, plus ``points`` and
    ``rests``).

    Individual tournament: each player is credited with what their drawn partnership won in
    each confirmed match (juegos and piedras for and against, the match won or lost); a rest
    counts like a bye, a match won with the format's full score in juegos and no piedras.
    Order: juegos won, then piedras difference, then piedras won, then matches won; ``points``
    are the juegos won. Mus francés: a table of n players gives its k-th place n − k placing
    points (the last none); order: placing points, then first places, then tables played.
    Players level on every key share a rank. Three queries whatever the field.
    """
    tournament = phase.tournament
    people = list(
        IndividualEntry.objects.filter(tournament=tournament)
        .values_list("id", "player_id", "status", "player__first_name", "player__last_name")
        .order_by("id")
    )
    by_player = {player: pk for pk, player, *_ in people}
    stats = {
        pk: {
            "played": 0,
            "won": 0,
            "lost": 0,
            "games_won": 0,
            "games_lost": 0,
            "stones_won": 0,
            "stones_lost": 0,
            "points": 0,
            "rests": 0,
        }
        for pk, *_ in people
    }
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        tables = FrancesTable.objects.filter(
            round__phase=phase, status=Match.Status.CONFIRMED
        ).exclude(round__status=Round.Status.DRAFT)
        for order in tables.values_list("order", flat=True):
            size = len(order or [])
            for place, pk in enumerate(order or [], start=1):
                if pk in stats:
                    s = stats[pk]
                    s["played"] += 1
                    s["points"] += size - place
                    s["won" if place == 1 else "lost"] += 1
        key = lambda s: (-s["points"], -s["won"], -s["played"])  # noqa: E731
    else:
        matches = (
            Match.objects.filter(round__phase=phase, status=Match.Status.CONFIRMED)
            .exclude(round__status=Round.Status.DRAFT)
            .exclude(entry_a=None)
            .values_list(
                "entry_a__pair__player_one_id",
                "entry_a__pair__player_two_id",
                "entry_b__pair__player_one_id",
                "entry_b__pair__player_two_id",
                "winner_id",
                "entry_a_id",
                "games_a",
                "games_b",
                "stones_a",
                "stones_b",
            )
        )
        for a1, a2, b1, b2, winner, entry_a, ga, gb, sa, sb in matches:
            for players, won, gw, gl, sw, sl in (
                ((a1, a2), winner == entry_a, ga, gb, sa, sb),
                ((b1, b2), winner is not None and winner != entry_a, gb, ga, sb, sa),
            ):
                for player in players:
                    pk = by_player.get(player)
                    if pk is None:
                        continue
                    s = stats[pk]
                    s["played"] += 1
                    s["won" if won else "lost"] += 1
                    s["games_won"] += gw
                    s["games_lost"] += gl
                    s["stones_won"] += sw
                    s["stones_lost"] += sl
        published = set(
            Round.objects.filter(phase=phase)
            .exclude(status=Round.Status.DRAFT)
            .values_list("number", flat=True)
        )
        for number, ids in (phase.settings or {}).get("rests", {}).items():
            if int(number) not in published:
                continue
            rules = round_rules(phase, int(number))  # a rest wins the round's full length
            full = rules.games_per_vaca * rules.vacas_per_match
            for pk in ids:
                if pk in stats:
                    s = stats[pk]
                    s["rests"] += 1
                    s["played"] += 1
                    s["won"] += 1
                    s["games_won"] += full
        for s in stats.values():
            s["points"] = s["games_won"]
        key = lambda s: (  # noqa: E731
            -s["games_won"],
            -(s["stones_won"] - s["stones_lost"]),
            -s["stones_won"],
            -s["won"],
        )
    if phase.format == Phase.Format.TABLE_LADDER:
        return _table_ladder_rows(phase, stats, people)
    names = {pk: f"{first} {last}".strip() for pk, _, _, first, last in people}
    statuses = {pk: status for pk, _, status, _, _ in people}
    ordered = sorted(stats, key=lambda pk: (key(stats[pk]), names[pk].casefold(), pk))
    rows, rank, previous = [], 0, None
    for n, pk in enumerate(ordered, start=1):
        s = stats[pk]
        if key(s) != previous:
            rank, previous = n, key(s)
        rows.append(
            {
                "rank": rank,
                "entry_id": pk,
                "name": names[pk],
                "players": [names[pk]],
                "club": None,
                "seed": None,
                "withdrawn": statuses[pk] == Entry.Status.WITHDRAWN,
                **s,
                "game_difference": s["games_won"] - s["games_lost"],
                "stone_difference": s["stones_won"] - s["stones_lost"],
                "buchholz": 0,
                "tiebreaks": [],
                "separated_by": None,
            }
        )
    return rows


def _table_ladder_rows(phase: Phase, stats: dict[int, dict], people: list[tuple]) -> list[dict]:
    """A table ladder of players alone ranks by the table order: the players of one side (a
    partnership) share its rank; players not seated yet follow, by name."""
    names = {pk: f"{first} {last}".strip() for pk, _, _, first, last in people}
    statuses = {pk: status for pk, _, status, _, _ in people}
    sides = table_ladder_order(phase) or []
    placed = {pk for side in sides for pk in side}
    rest = sorted((pk for pk in stats if pk not in placed), key=lambda pk: names[pk].casefold())
    rows, n = [], 0
    for side in [*sides, *[(pk,) for pk in rest]]:
        rank = n + 1
        for pk in side:
            if pk not in stats:
                continue
            n += 1
            s = stats[pk]
            rows.append(
                {
                    "rank": rank,
                    "entry_id": pk,
                    "name": names[pk],
                    "players": [names[pk]],
                    "club": None,
                    "seed": None,
                    "withdrawn": statuses[pk] == Entry.Status.WITHDRAWN,
                    **s,
                    "game_difference": s["games_won"] - s["games_lost"],
                    "stone_difference": s["stones_won"] - s["stones_lost"],
                    "buchholz": 0,
                    "tiebreaks": [],
                    "separated_by": None,
                }
            )
    return rows
