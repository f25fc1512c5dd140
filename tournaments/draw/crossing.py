"""Groups then knockout: crossing the qualifiers of a group stage into a seeded bracket.

Responsible for: turning final group standings (entrant ids in order, per group) and the
number of qualifiers per group into a single-elimination `Bracket` in which group-mates meet as
late as possible, winners meet runners-up of another group first, and group winners take any
byes.

- Two qualifiers per group, with 2, 4, 8, … groups: the classic crossing (as in the football
  World Cup): the top half holds 1A–2B, 1C–2D, 1E–2F, …, the bottom half 1B–2A, 1D–2C, 1F–2E,
  …, so the two qualifiers of a group can only meet in the final.
- Any other shape: qualifiers are seeded by finishing position (every group winner above every
  runner-up, …; within a position, by group order) and placed tier by tier on the standard
  seed lines, each tier choosing its lines by a min-cost assignment that pushes a qualifier's
  meeting with its group-mates as late as possible (a meeting one round earlier always costs
  more than any number of later ones), and otherwise keeps the seeding order.

Must not: import Django or touch storage. It uses no randomness: the standings decide.

Terms: *1A* is the winner of group A, *2B* the runner-up of group B; a *tier* is all the
qualifiers with the same finishing position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tournaments.draw.base import DrawError
from tournaments.draw.bracket import (
    Bracket,
    bracket_size,
    check_field_size,
    knockout_from_lines,
    seed_lines,
)
from tournaments.draw.matching import cheapest_assignment
from tournaments.draw.roundrobin import group_name

__all__ = ["knockout_from_groups"]


def knockout_from_groups(
    standings: Sequence[Sequence[int]],
    *,
    qualifiers: int,
    third_place: bool = False,
    group_names: Sequence[str] | None = None,
) -> Bracket:
    """The knockout bracket for the top ``qualifiers`` of each group.

    ``standings[g]`` lists group g's entrant ids, first place first; groups are named A, B, …
    unless ``group_names`` says otherwise. The bracket's ``labels`` read ``1A``, ``2B``, ….
    """
    if group_names is None:
        names = [group_name(g) for g in range(len(standings))]
    else:
        names = list(group_names)
    _validate(standings, qualifiers, names)
    groups = len(standings)
    tiers = [[standings[g][t] for g in range(groups)] for t in range(qualifiers)]
    order = [e for tier in tiers for e in tier]
    label_of = {
        standings[g][t]: f"{t + 1}{names[g]}" for g in range(groups) for t in range(qualifiers)
    }
    check_field_size(len(order))
    if third_place and len(order) < 4:
        raise DrawError(
            "A third-place match needs at least 4 entrants; this bracket has {entrants}. "
            "Turn the third-place match off.",
            code="third_place_too_few",
            entrants=len(order),
        )
    if qualifiers == 2 and groups >= 2 and groups & (groups - 1) == 0:
        lines: list[int | None] = []
        for half in (0, 1):
            for i in range(0, groups, 2):
                winner, runner_up = (i, i + 1) if half == 0 else (i + 1, i)
                lines += [standings[winner][0], standings[runner_up][1]]
    else:
        lines = _tiered_lines(standings, qualifiers)
    return knockout_from_lines(
        lines,
        draw_order=order,
        seeded=len(order),
        third_place=third_place,
        labels=[label_of[e] for e in order],
    )


def _validate(standings: Sequence[Sequence[int]], qualifiers: int, names: Sequence[str]) -> None:
    if len(names) != len(standings):
        raise DrawError(
            "There are {groups} groups but {names} group names.",
            code="crossing_names",
            groups=len(standings),
            names=len(names),
        )
    if qualifiers < 1:
        raise DrawError("At least one entrant per group must qualify.", code="crossing_qualifiers")
    for name, group in zip(names, standings, strict=True):
        if len(group) < qualifiers:
            raise DrawError(
                (
                    "Group {group} has {count} entrant but {qualifiers} qualify from each "
                    "group; qualify fewer per group.",
                    "Group {group} has {count} entrants but {qualifiers} qualify from each "
                    "group; qualify fewer per group.",
                ),
                code="crossing_group_short",
                group=name,
                count=len(group),
                qualifiers=qualifiers,
            )
    seen: set[int] = set()
    for group in standings:
        for e in group:
            if e in seen:
                raise DrawError(
                    "Entrant {entrant} is in more than one group's standings.",
                    code="crossing_duplicate",
                    entrant=e,
                )
            seen.add(e)
    if len(standings) * qualifiers < 2:
        raise DrawError(
            "A knockout needs at least 2 qualifiers; qualify more per group.",
            code="crossing_too_few",
        )


def _tiered_lines(standings: Sequence[Sequence[int]], qualifiers: int) -> list[int | None]:
    groups = len(standings)
    total = groups * qualifiers
    size = bracket_size(total)
    rounds = size.bit_length() - 1
    line_of_seed = {s: i for i, s in enumerate(seed_lines(size))}
    # Cost of meeting a group-mate in round r: base^(rounds - r); base > mates per entrant, so
    # one earlier meeting outweighs any number of later ones.
    base = float(qualifiers + 1)
    placed: dict[int, list[int]] = {g: [] for g in range(groups)}  # group -> lines taken
    lines: list[int | None] = [None] * size
    for t in range(qualifiers):
        seeds = [t * groups + k + 1 for k in range(groups)]
        cost = np.zeros((groups, groups))
        for g in range(groups):
            for k, s in enumerate(seeds):
                line = line_of_seed[s]
                meet = [(line ^ other).bit_length() for other in placed[g]]
                cost[g, k] = sum(base ** (rounds - r) for r in meet) + 1e-6 * abs(g - k)
        for g, k in cheapest_assignment(cost):
            line = line_of_seed[seeds[k]]
            lines[line] = standings[g][t]
            placed[g].append(line)
    return lines
