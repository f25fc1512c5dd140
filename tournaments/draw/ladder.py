"""Group ladders (ascensos y descensos): level groups, their cycles and the moves between them.

Responsible for:

- `ladder_groups`: the first level groups: the field ranked (seed, rating, lot) and cut in
  order, the strongest in group A (the top level), sizes differing by at most one (the larger
  groups on top).
- `ladder_round`: round ``r`` of a cycle of ``k`` rounds inside every group: each group plays
  the first ``k`` rounds of a round robin of its members (circle method), so nobody meets the
  same pair twice inside a cycle while ``k`` does not exceed the group's round robin (n − 1
  rounds, n for an odd group); past that the round robin starts again. Among a few orders of
  the circle (drawn by lot, the same for every round of the cycle) the one that repeats the
  fewest pairings of earlier cycles is kept. With an odd group one pair rests each round.
- `ladder_rank`: a group's members by the cycle's results: matches won minus lost, then won,
  then the order handed in (the phase's standings), then their place in the group.
- `ladder_moves`: after a cycle, who goes up a group and who goes down, and the new groups.
  Rule ``wins``: a pair that won every match it played in the cycle goes up, one that lost
  every match goes down; rule ``place``: the first ``moves`` of each group go up and the last
  ``moves`` go down. The groups keep their sizes: at each border between two groups as many
  pairs go down as come up — with rule ``wins`` the larger of the two numbers, the other side
  filled by place (the last of the group above makes room for a pair that won everything
  below, the first of the group below takes the place of one that lost everything above), at
  most ``moves`` when it is given. The top group has nobody above it and the bottom group
  nobody below.

A new group lists, in ladder order, the pairs that came down from above, those that stayed
(in their order), then those that came up from below: the ladder's order read top to bottom
is its standings.

Must not: import Django, touch storage, or draw lots except through the ``rng`` passed in.

Terms: *nivel* (a level group; A is the top), *ciclo* (k rounds played inside the groups),
*ascenso* (moving up a group), *descenso* (moving down).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.draw.base import DrawError, Entrant, Lot, Pairing, Result, initial_order, make_rng
from tournaments.draw.base import validate_entrants as _validate
from tournaments.draw.reasons import Reason
from tournaments.draw.roundrobin import Group, group_name, round_robin_schedule

__all__ = [
    "MOVE_BY",
    "LadderMoves",
    "LadderRule",
    "ladder_check",
    "ladder_groups",
    "ladder_moves",
    "ladder_rank",
    "ladder_round",
]

#: how pairs move between groups after a cycle
MOVE_BY = ("wins", "place")

#: how many orders of the circle are tried per group and cycle
_TRIES = 12


@dataclass(frozen=True)
class LadderRule:
    """``move_by``: ``"wins"`` or ``"place"``; ``moves``: rule place, how many go up and down
    at each border (1 when None); rule wins, at most how many (None: every one that
    qualifies, as far as the groups' sizes allow)."""

    move_by: str = "wins"
    moves: int | None = None


@dataclass(frozen=True)
class LadderMoves:
    """The groups after a cycle (top first, each in ladder order) and who moved."""

    groups: tuple[tuple[int, ...], ...]
    up: tuple[int, ...]
    down: tuple[int, ...]


def ladder_check(*, entrants: int | None, groups: int, rule: LadderRule) -> None:
    """DrawError naming the rule a field of ``entrants`` pairs breaks in ``groups`` groups
    (``entrants`` None: the field is not known yet; only the rule itself is checked)."""
    if groups < 2:
        raise DrawError(
            "A group ladder needs at least 2 level groups, not {groups}.",
            code="ladder_groups_too_few",
            groups=groups,
        )
    if entrants is not None and entrants < 2 * groups:
        raise DrawError(
            "A group ladder of {groups} groups needs at least 2 pairs in each group "
            "({needed} pairs); it has {entrants}. Choose fewer groups.",
            code="ladder_groups_too_many",
            groups=groups,
            needed=2 * groups,
            entrants=entrants,
        )
    if rule.move_by not in MOVE_BY:
        raise DrawError(
            "Unknown ladder rule '{rule}'; choose one of {rules}.",
            code="ladder_rule",
            rule=str(rule.move_by)[:40],
            rules=list(MOVE_BY),
        )
    if rule.moves is not None and rule.moves < 1:
        raise DrawError(
            "At least one pair must move at each border of the ladder, not {moves}.",
            code="ladder_moves_too_few",
            moves=rule.moves,
        )
    if entrants is None:
        return
    smallest = entrants // groups
    if rule.move_by == "place" and 2 * (rule.moves or 1) > smallest:
        raise DrawError(
            "With {moves} pairs up and {moves} down, a middle group needs at least {needed} "
            "pairs; the smallest of {groups} groups of {entrants} pairs has {smallest}. Move "
            "fewer pairs or choose fewer groups.",
            code="ladder_moves_too_many",
            moves=rule.moves or 1,
            needed=2 * (rule.moves or 1),
            groups=groups,
            entrants=entrants,
            smallest=smallest,
        )


def ladder_groups(
    entrants: Sequence[Entrant], *, groups: int, rng: Lot, rule: LadderRule | None = None
) -> tuple[tuple[int, ...], ...]:
    """The first level groups (top first), each strongest first; see the module docstring."""
    entrants = _validate(entrants)
    ladder_check(entrants=len(entrants), groups=groups, rule=rule or LadderRule())
    ranked = [e.id for e in initial_order(entrants, make_rng(rng))]
    size, extra = divmod(len(ranked), groups)
    out, start = [], 0
    for g in range(groups):
        end = start + size + (1 if g < extra else 0)
        out.append(tuple(ranked[start:end]))
        start = end
    return tuple(out)


def ladder_round(
    groups: Sequence[Sequence[int]],
    *,
    cycle_round: int,
    cycle_rounds: int,
    rng: Lot,
    past: Iterable[tuple[int, int]] = (),
) -> tuple[Pairing, ...]:
    """Round ``cycle_round`` (1…``cycle_rounds``) of the cycle inside each group: group A's
    matches first (table order), then B's…; a resting pair is a pairing without ``b_id``.
    ``rng`` must be the same for every round of one cycle; ``past`` lists the pairings of the
    earlier cycles (either order), whose repeats the cycle's order avoids where it can."""
    if not 1 <= cycle_round <= cycle_rounds:
        raise ValueError("cycle_round must be within the cycle")
    met = {frozenset(p) for p in past}
    lots = make_rng(rng)
    out: list[Pairing] = []
    for g, members in enumerate(groups):
        name = group_name(g)
        schedule = _cycle_schedule(name, members, cycle_rounds, lots, met)
        rnd = schedule[(cycle_round - 1) % len(schedule)]
        info = {"group": name, "round": cycle_round, "rounds": cycle_rounds}
        for p in rnd:
            reasons = (Reason("round_robin", info),)
            if p.is_bye:
                reasons += (Reason("round_robin_rest", {"group": name}),)
            out.append(Pairing(len(out) + 1, p.a_id, p.b_id, reasons))
    return tuple(out)


def _cycle_schedule(
    name: str, members: Sequence[int], k: int, lots, met: set[frozenset[int]]
) -> tuple[tuple[Pairing, ...], ...]:
    best, best_cost = None, None
    for attempt in range(_TRIES):
        order = list(members)
        if attempt:
            lots.shuffle(order)
        schedule = round_robin_schedule(Group(name, tuple(order)))
        played = [schedule[r % len(schedule)] for r in range(k)]
        cost = sum(
            1 for rnd in played for p in rnd if not p.is_bye and frozenset((p.a_id, p.b_id)) in met
        )
        if best_cost is None or cost < best_cost:
            best, best_cost = schedule, cost
        if cost == 0:
            break
    assert best is not None
    return best


def _record(results: Iterable[Result]) -> dict[int, list[int]]:
    """Won and lost per entrant over decided matches (a rest is neither)."""
    out: dict[int, list[int]] = {}
    for r in results:
        if r.b_id is None or r.winner_id is None:
            continue
        for side in (r.a_id, r.b_id):
            row = out.setdefault(side, [0, 0])
            row[0 if side == r.winner_id else 1] += 1
    return out


def ladder_rank(
    members: Sequence[int], results: Iterable[Result], order: Sequence[int] | None = None
) -> list[int]:
    """``members`` best first by the cycle's ``results`` (see the module docstring)."""
    record = _record(results)
    at = {pk: n for n, pk in enumerate(order or ())}
    place = {pk: n for n, pk in enumerate(members)}

    def key(pk: int) -> tuple:
        won, lost = record.get(pk, (0, 0))
        return (-(won - lost), -won, at.get(pk, len(at)), place[pk])

    return sorted(members, key=key)


def ladder_moves(
    groups: Sequence[Sequence[int]],
    results: Iterable[Result],
    rule: LadderRule,
    order: Sequence[int] | None = None,
) -> LadderMoves:
    """Who goes up and down after a cycle whose decided matches are ``results``; see the
    module docstring. ``order`` (the phase's standings, best first) breaks ties."""
    results = list(results)
    record = _record(results)
    ranked = [ladder_rank(g, results, order) for g in groups]
    n = len(groups)
    if n < 2:
        return LadderMoves(tuple(tuple(r) for r in ranked), (), ())

    def wins_all(pk: int) -> bool:
        won, lost = record.get(pk, (0, 0))
        return won > 0 and lost == 0

    def lost_all(pk: int) -> bool:
        won, lost = record.get(pk, (0, 0))
        return lost > 0 and won == 0

    # border b lies between group b and group b + 1
    if rule.move_by == "place":
        counts = [rule.moves or 1] * (n - 1)
    else:
        counts = []
        for b in range(n - 1):
            down = sum(1 for pk in ranked[b] if lost_all(pk))
            up = sum(1 for pk in ranked[b + 1] if wins_all(pk))
            wanted = max(down, up)
            if rule.moves is not None:
                wanted = min(wanted, rule.moves)
            counts.append(wanted)
    # each border takes at most what both its groups can give; a group gives c_above + c_below
    for b in range(n - 1):
        counts[b] = min(counts[b], len(ranked[b]), len(ranked[b + 1]))
    changed = True
    while changed:
        changed = False
        for g in range(n):
            above = counts[g - 1] if g > 0 else 0
            below = counts[g] if g < n - 1 else 0
            if above + below > len(ranked[g]):
                if g > 0 and (above >= below or g == n - 1):
                    counts[g - 1] -= 1
                else:
                    counts[g] -= 1
                changed = True
    ups: list[list[int]] = [[] for _ in range(n)]
    downs: list[list[int]] = [[] for _ in range(n)]
    for g in range(n):
        members = ranked[g]
        if g > 0 and counts[g - 1]:
            first = [pk for pk in members if wins_all(pk)] if rule.move_by == "wins" else []
            pool = first + [pk for pk in members if pk not in first]
            ups[g] = pool[: counts[g - 1]]
        if g < n - 1 and counts[g]:
            left = [pk for pk in reversed(members) if pk not in ups[g]]
            last = [pk for pk in left if lost_all(pk)] if rule.move_by == "wins" else []
            pool = last + [pk for pk in left if pk not in last]
            downs[g] = pool[: counts[g]]
    new = []
    for g in range(n):
        moving = set(ups[g]) | set(downs[g])
        came_down = [pk for pk in ranked[g - 1] if pk in downs[g - 1]] if g > 0 else []
        stayed = [pk for pk in ranked[g] if pk not in moving]
        came_up = [pk for pk in ranked[g + 1] if pk in ups[g + 1]] if g < n - 1 else []
        new.append(tuple(came_down + stayed + came_up))
    return LadderMoves(
        tuple(new),
        tuple(pk for g in ups for pk in g),
        tuple(pk for g in downs for pk in g),
    )
