"""The ladders' part of the rounds services: group ladders and the ladder of tables.

Responsible for:

- `ladder_options`: checking a ladder phase's options when the phase is created (the rule
  that cannot work is refused with a message that names it), and keeping them in
  ``Phase.settings["ladder"]``: a group ladder's ``groups`` (level groups, A the top),
  ``cycle_rounds`` (k), ``cycles`` (C), ``move_by`` (``wins`` or ``place``) and ``moves``; a
  table ladder's ``swap`` (the top and bottom sides that win or lose twice in a row swap a
  player; players alone only) and its rounds (``rounds_planned``).
- `ladder_draw_round`: drawing round ``n`` of a ladder phase (inside the caller's transaction,
  with the phase locked), through tournaments.draw.ladder and tournaments.draw.table_ladder.

  Group ladder: round 1 draws the level groups (the field ranked by seed, then lots; stored
  as the phase's Group rows A, B, … with their members) and every round plays round ``r`` of
  its cycle inside each group (a resting pair has no match, as in a liguilla). The first round
  of each later cycle first moves the pairs (`ladder_moves`) and updates the groups' members.
  Table ladder: round 1 seats the field best first (seed, then lots; players alone by lot, in
  partnerships of two taken in that order), table 1 at the top; each later round reads the
  previous round's tables in table order and their winners (a Mus francés table: its
  finishing order) and moves them (`table_ladder_next`). A side that rests (the bench) has no
  match; which sides rest is kept in ``Phase.settings["ladder_bench"]`` (round → sides).
- `ladder_finish`: when a group ladder finishes after a whole cycle, that cycle's moves are
  made too: the final groups are then the phase's Group rows, with their members, for a later
  phase to take "the entrants of group k".

The history of a group ladder is kept in ``Phase.settings["ladder_state"]``: ``cycles``, a list
of ``{"groups": [[entry ids in ladder order] per group], "up": [...], "down": [...]}`` (the
groups a cycle was played in, and the moves made after it), and ``final`` (the groups after
the last cycle's moves, once the phase finished).

Must not: lock, check permissions or states, audit or queue (services/rounds.py does, and
calls this module at its hooks), or decide a move (tournaments.draw does).

Terms: escalera de grupos (group ladder), ascenso / descenso (moving up / down a group), ciclo
(cycle), sube y baja (table ladder), mesa (table; 1 the top), banquillo (bench).
"""

from __future__ import annotations

from collections.abc import Sequence

from config.errors import Invalid
from tournaments import draw_manager
from tournaments.draw import DrawError, Pairing, Result, frances_table_sizes, initial_order
from tournaments.draw.base import make_rng
from tournaments.draw.ladder import (
    LadderRule,
    ladder_check,
    ladder_groups,
    ladder_moves,
    ladder_round,
)
from tournaments.draw.roundrobin import group_name
from tournaments.draw.table_ladder import (
    Side,
    TableLadder,
    table_ladder_next,
    table_ladder_pairings,
    table_ladder_start,
)
from tournaments.models import (
    Entry,
    FrancesSeat,
    FrancesTable,
    Group,
    IndividualEntry,
    Match,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.ladders import round_tables
from tournaments.selectors.standings import overall_order

GROUP_LADDER = Phase.Format.GROUP_LADDER
TABLE_LADDER = Phase.Format.TABLE_LADDER
#: the ladder formats; both count their rounds like a Swiss (``rounds_planned``)
LADDER_FORMATS = (GROUP_LADDER, TABLE_LADDER)

#: the options each ladder reads (anything else given is refused)
_OPTIONS = {
    GROUP_LADDER: ("groups", "cycle_rounds", "cycles", "move_by", "moves"),
    TABLE_LADDER: ("swap",),
}


def is_ladder(phase: Phase) -> bool:
    return phase.format in LADDER_FORMATS


# --- Options ---------------------------------------------------------------------------------


def ladder_options(
    *, tournament: Tournament, format: str, ladder: dict | None, rounds_planned: int | None
) -> tuple[dict, int]:
    """The ladder's options checked, and the phase's ``rounds_planned`` (a group ladder's
    k × C). Invalid or DrawError naming what cannot work."""
    options = dict(ladder or {})
    unread = sorted(set(options) - set(_OPTIONS[format]))
    if unread:
        raise Invalid(
            "A phase of format {format} does not read {option} (only {formats}); leave it out.",
            code="phase_option_unread",
            format=format,
            option=unread[0],
            formats=[str(format)],
        )
    if format == TABLE_LADDER:
        if rounds_planned is None or rounds_planned < 1:
            raise Invalid(
                "A table ladder (sube y baja) needs the number of rounds to play (at least 1).",
                code="phase_ladder_rounds",
            )
        swap = bool(options.get("swap", False))
        if swap and tournament.entrant_kind != Tournament.EntrantKind.INDIVIDUALS:
            raise Invalid(
                "Only players who entered alone can swap a player between the top and the "
                "bottom tables; a pair or a trio registered together keeps its players. Turn "
                "the swap off.",
                code="phase_ladder_swap",
            )
        return {"swap": swap}, rounds_planned
    numbers = {}
    for name in ("groups", "cycle_rounds", "cycles"):
        value = options.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise Invalid(
                "A group ladder needs {option}: a whole number from 1 (groups: from 2).",
                code="phase_ladder_option",
                option=name,
            )
        numbers[name] = value
    move_by = options.get("move_by") or "wins"
    moves = options.get("moves")
    if moves is not None and (not isinstance(moves, int) or isinstance(moves, bool)):
        raise Invalid(
            "A group ladder needs {option}: a whole number from 1 (groups: from 2).",
            code="phase_ladder_option",
            option="moves",
        )
    # the field may still grow while registration is open: its size is checked once the
    # tournament is running, and again when the ladder is drawn
    running = tournament.status == Tournament.Status.RUNNING
    ladder_check(
        entrants=len(draw_manager.playing_entries(tournament)) if running else None,
        groups=numbers["groups"],
        rule=LadderRule(move_by, moves),
    )
    settings = {**numbers, "move_by": move_by, "moves": moves}
    return settings, numbers["cycle_rounds"] * numbers["cycles"]


def _rule(phase: Phase) -> LadderRule:
    options = (phase.settings or {}).get("ladder", {})
    return LadderRule(options.get("move_by") or "wins", options.get("moves"))


# --- Drawing ---------------------------------------------------------------------------------


def ladder_draw_round(phase: Phase, number: int) -> Round:
    """Draw round ``number`` of the ladder ``phase`` (see the module docstring)."""
    if phase.format == GROUP_LADDER:
        return _group_round(phase, number)
    return _table_round(phase, number)


def _group_round(phase: Phase, number: int) -> Round:
    options = phase.settings["ladder"]
    k = options["cycle_rounds"]
    cycle, cycle_round = divmod(number - 1, k)
    cycle_round += 1
    state = dict((phase.settings or {}).get("ladder_state") or {"cycles": []})
    cycles = list(state["cycles"])
    if number == 1:
        # the pairs the plan's entrants rules chose (seeded by their order), else every pair
        draw_manager.keep_entrants(phase)
        entrants = draw_manager.phase_entrants(phase)
        rule = _rule(phase)
        ladder_check(entrants=len(entrants), groups=options["groups"], rule=rule)
        groups = ladder_groups(
            entrants,
            groups=options["groups"],
            rng=draw_manager.lot_seed(phase, 1),
            rule=rule,
        )
        cycles = [{"groups": [list(g) for g in groups], "up": [], "down": []}]
        for g, members in enumerate(groups):
            row = Group.objects.create(phase=phase, name=group_name(g))
            row.entries.set(members)
    elif cycle_round == 1 and len(cycles) == cycle:
        cycles = _move(phase, cycles)
    groups = [tuple(g) for g in cycles[-1]["groups"]]
    _save_state(phase, {**state, "cycles": cycles})
    withdrawn = set(
        Entry.objects.filter(
            tournament=phase.tournament_id, status=Entry.Status.WITHDRAWN
        ).values_list("id", flat=True)
    )
    past = [
        (r.a_id, r.b_id)
        for r in draw_manager.history(phase, before=cycle * k + 1)
        if r.b_id is not None
    ]
    pairings = ladder_round(
        groups,
        cycle_round=cycle_round,
        cycle_rounds=k,
        rng=draw_manager.lot_seed(phase, cycle * k + 1),
        past=past,
    )
    rows = {g.name: g for g in Group.objects.filter(phase=phase)}
    group_of = {pk: group_name(n) for n, members in enumerate(groups) for pk in members}
    planned = []
    for p in pairings:
        if p.is_bye or p.a_id in withdrawn or p.b_id in withdrawn:
            continue
        planned.append(
            draw_manager.Planned(
                Pairing(len(planned) + 1, p.a_id, p.b_id, p.reasons), rows[group_of[p.a_id]]
            )
        )
    return draw_manager.save_round(phase, number, planned)


def _cycle_results(phase: Phase, cycle: int, k: int) -> list[Result]:
    first, last = cycle * k + 1, (cycle + 1) * k
    return [
        r
        for r in draw_manager.history(phase, before=last + 1)
        if first <= r.round <= last and r.b_id is not None
    ]


def _move(phase: Phase, cycles: list[dict]) -> list[dict]:
    """``cycles`` with the moves after the last one made and the next cycle's groups added;
    the Group rows' members follow."""
    k = phase.settings["ladder"]["cycle_rounds"]
    done = len(cycles) - 1
    groups = [tuple(g) for g in cycles[-1]["groups"]]
    moved = ladder_moves(
        groups, _cycle_results(phase, done, k), _rule(phase), order=overall_order(phase=phase)
    )
    cycles = [
        *cycles[:-1],
        {**cycles[-1], "up": list(moved.up), "down": list(moved.down)},
        {"groups": [list(g) for g in moved.groups], "up": [], "down": []},
    ]
    _set_members(phase, moved.groups)
    return cycles


def _set_members(phase: Phase, groups: Sequence[Sequence[int]]) -> None:
    rows = {g.name: g for g in Group.objects.filter(phase=phase)}
    for n, members in enumerate(groups):
        rows[group_name(n)].entries.set(members)


def _save_state(phase: Phase, state: dict) -> None:
    phase.settings = {**(phase.settings or {}), "ladder_state": state}
    phase.save(update_fields=["settings"])


def ladder_finish(phase: Phase) -> None:
    """At the end of a group ladder whose last cycle was played whole: its moves, and the
    final groups as the phase's groups. A ladder stopped inside a cycle keeps its groups."""
    if phase.format != GROUP_LADDER:
        return
    state = dict((phase.settings or {}).get("ladder_state") or {})
    cycles = list(state.get("cycles") or [])
    k = phase.settings["ladder"]["cycle_rounds"]
    played = Round.objects.filter(phase=phase).count()
    if not cycles or played != len(cycles) * k or state.get("final") is not None:
        return
    cycles = _move(phase, cycles)
    final = cycles.pop()["groups"]
    _save_state(phase, {**state, "cycles": cycles, "final": final})


# --- Table ladder ----------------------------------------------------------------------------


def _table_round(phase: Phase, number: int) -> Round:
    tournament = phase.tournament
    kind = tournament.entrant_kind
    swap = bool((phase.settings or {}).get("ladder", {}).get("swap"))
    bench_by_round = dict((phase.settings or {}).get("ladder_bench") or {})
    if number == 1:
        sides = _first_sides(phase)
        ladder = table_ladder_start(sides, sizes=_sizes(tournament, len(sides), sides))
    else:
        tables, finishes = round_tables(phase, number - 1)
        bench = tuple(tuple(s) for s in bench_by_round.get(str(number - 1), []))
        previous = None
        if number > 2:
            _, previous = round_tables(phase, number - 2)
        ladder = table_ladder_next(
            TableLadder(tables, bench), finishes, previous=previous, swap=swap
        ).ladder
        if kind not in draw_manager.ALONE:
            ladder = _without_withdrawn(phase, ladder)
    bench_by_round[str(number)] = [list(s) for s in ladder.bench]
    phase.settings = {**(phase.settings or {}), "ladder_bench": bench_by_round}
    phase.save(update_fields=["settings"])
    if kind == Tournament.EntrantKind.FRANCES:
        return _save_frances(phase, number, ladder)
    if kind == Tournament.EntrantKind.INDIVIDUALS:
        return _save_partnerships(phase, number, ladder)
    planned = [draw_manager.Planned(p) for p in table_ladder_pairings(ladder)]
    return draw_manager.save_round(phase, number, planned)


def _without_withdrawn(phase: Phase, ladder: TableLadder) -> TableLadder:
    """A pair (or trio) that withdrew leaves the ladder: the sides below it move up a seat,
    in the ladder's order (tables top first, then the bench)."""
    withdrawn = set(
        Entry.objects.filter(
            tournament=phase.tournament_id, status=Entry.Status.WITHDRAWN
        ).values_list("id", flat=True)
    )
    sides = [side for table in ladder.tables for side in table] + list(ladder.bench)
    if not any(side[0] in withdrawn for side in sides):
        return ladder
    kept = [side for side in sides if side[0] not in withdrawn]
    return table_ladder_start(kept, sizes=_sizes(phase.tournament, len(kept), kept))


def _first_sides(phase: Phase) -> list[Side]:
    tournament = phase.tournament
    rng = make_rng(draw_manager.lot_seed(phase, 1))
    if tournament.entrant_kind in draw_manager.ALONE:
        players = [p.id for p in draw_manager.playing_individuals(tournament)]
        rng.shuffle(players)
        if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
            return [(p,) for p in players]
        if len(players) % 2:
            raise DrawError(
                "A table ladder of players alone plays in partnerships of two: {players} "
                "players leave one without a partner. Add or withdraw a player.",
                code="table_ladder_players_odd",
                players=len(players),
            )
        return [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    draw_manager.keep_entrants(phase)
    entrants = draw_manager.phase_entrants(phase)
    return [(e.id,) for e in initial_order(entrants, rng)]


def _sizes(tournament: Tournament, count: int, sides: Sequence[Side]) -> list[int]:
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        sizes = frances_table_sizes(count, tournament.frances_table_size)
    else:
        sizes = [2] * (count // 2)
    limit = tournament.tables_available or 0
    if limit and len(sizes) > limit:
        sizes = sizes[:limit]
    if not sizes:
        raise DrawError(
            "A table ladder needs at least one table of two sides; it has {sides} to seat.",
            code="table_ladder_too_few",
            sides=len(sides),
        )
    return sizes


def _save_partnerships(phase: Phase, number: int, ladder: TableLadder) -> Round:
    tournament = phase.tournament
    player_of = {p.id: p.player_id for p in draw_manager.playing_individuals(tournament)}
    player_of.update(
        IndividualEntry.objects.filter(tournament=tournament).values_list("id", "player_id")
    )
    rnd = Round.objects.create(phase=phase, number=number, status=Round.Status.DRAFT)
    Match.objects.bulk_create(
        Match(
            round=rnd,
            table_number=t,
            entry_a=draw_manager.partnership(tournament, [player_of[pk] for pk in a]),
            entry_b=draw_manager.partnership(tournament, [player_of[pk] for pk in b]),
            reasons=[{"code": "table_ladder", "params": {"table": t}}],
        )
        for t, (a, b) in enumerate(ladder.tables, start=1)
    )
    return rnd


def _save_frances(phase: Phase, number: int, ladder: TableLadder) -> Round:
    rnd = Round.objects.create(phase=phase, number=number, status=Round.Status.DRAFT)
    for t, table in enumerate(ladder.tables, start=1):
        row = FrancesTable.objects.create(
            round=rnd,
            table_number=t,
            reasons=[
                {"code": "table_ladder", "params": {"table": t}},
                {"code": "frances_table", "params": {"size": len(table)}},
            ],
        )
        FrancesSeat.objects.bulk_create(
            FrancesSeat(table=row, entry_id=pk, seat=seat)
            for seat, (pk,) in enumerate(table, start=1)
        )
    return rnd
