"""Round robin (liguilla): splitting a field into groups, and each group's schedule.

Responsible for:

- `round_robin_groups`: groups of a chosen size (or a chosen number of groups), sizes differing
  by at most one. Entrants are ranked (seed, rating, lot) and dealt in *pots* of one entrant per
  group, snake-wise: pot 1 left to right (A, B, C, …), pot 2 right to left, and so on, so the
  strongest are spread evenly. Club-mates are then kept in different groups whenever the field
  allows it (a club with no more entrants than there are groups never has two in one group; a
  bigger club has at most ⌈members / groups⌉ in any group), by swapping entrants of the same
  pot between groups, so the snake's balance of strength is kept.
- `round_robin_schedule`: every entrant of a group meets every other exactly once, by the circle
  (Berger) method: one entrant stays put and the others rotate; with an odd group a rest
  (a bye) takes the empty place, one entrant resting each round.

Must not: import Django, touch storage, or draw lots except through the ``rng`` passed in.

Terms: *liguilla* is a small league where everybody meets everybody; a *pot* is the set of
entrants of similar strength dealt one to each group; *snake* seeding alternates the dealing
direction.

How clubs are kept apart: the entrants are the edges of a bipartite multigraph between pots and
clubs, and groups are its edge colours. A pot has at most one entrant per group and, after
splitting a big club into chunks of ``groups`` members, so has a club: that is a proper edge
colouring, which by König's theorem always exists with ``groups`` colours. Starting from the
snake, each entrant that clashes with a club-mate is recoloured along an alternating path (a
chain of same-pot swaps), the constructive step of König's proof.
"""

from __future__ import annotations

import math
import string
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.draw.base import DrawError, Entrant, Lot, Pairing, initial_order, make_rng
from tournaments.draw.base import validate_entrants as _validate
from tournaments.draw.reasons import Reason

__all__ = ["Group", "group_name", "round_robin_groups", "round_robin_schedule"]


@dataclass(frozen=True)
class Group:
    """A round-robin group: ``entrant_ids`` in pot order (the strongest first)."""

    name: str
    entrant_ids: tuple[int, ...]


def group_name(index: int) -> str:
    """A, B, …, Z, AA, AB, … for index 0, 1, …"""
    letters = string.ascii_uppercase
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = letters[rest] + name
    return name


def round_robin_groups(
    entrants: Sequence[Entrant],
    *,
    rng: Lot,
    group_size: int | None = None,
    groups: int | None = None,
    separate_clubs: bool = True,
) -> tuple[Group, ...]:
    """Split ``entrants`` into groups; give exactly one of ``group_size`` (largest group) or
    ``groups`` (how many). Groups are named A, B, C, …"""
    entrants = _validate(entrants)
    n = len(entrants)
    if (group_size is None) == (groups is None):
        raise TypeError("give exactly one of group_size or groups")
    if group_size is not None:
        if group_size < 2:
            raise DrawError(
                "A group needs at least 2 entrants; the group size is {group_size}.",
                code="group_size_too_small",
                group_size=group_size,
            )
        groups = math.ceil(n / group_size)
    if groups < 1:
        raise DrawError(
            "Choose at least one group, not {groups}.", code="groups_too_few", groups=groups
        )
    if n < 2 * groups:
        raise DrawError(
            "{entrants} entrants cannot fill {groups} groups of at least 2; choose fewer groups "
            "or larger ones.",
            code="groups_too_many",
            entrants=n,
            groups=groups,
        )
    ranked = initial_order(entrants, make_rng(rng))
    colour = [_snake(k, groups) for k in range(n)]
    if separate_clubs:
        colour = _separate_clubs(ranked, colour, groups)
    members: list[list[int]] = [[] for _ in range(groups)]
    for k, entrant in enumerate(ranked):
        members[colour[k]].append(entrant.id)
    return tuple(Group(group_name(g), tuple(ids)) for g, ids in enumerate(members))


def _snake(rank: int, groups: int) -> int:
    pot, place = divmod(rank, groups)
    return place if pot % 2 == 0 else groups - 1 - place


def _separate_clubs(ranked: Sequence[Entrant], colour: list[int], groups: int) -> list[int]:
    """Recolour (re-group) entrants within their pot so no virtual club has a colour twice."""
    colour = list(colour)
    pot = [k // groups for k in range(len(ranked))]
    # A club bigger than the number of groups is split, in rank order, into chunks of that size.
    seen: dict[str, int] = {}
    club: list[tuple[str, int] | None] = []
    for e in ranked:
        if e.club is None:
            club.append(None)
            continue
        club.append((e.club, seen.get(e.club, 0) // groups))
        seen[e.club] = seen.get(e.club, 0) + 1
    at_pot: dict[tuple[int, int], int] = {}  # (pot, colour) -> entrant
    at_club: dict[tuple[tuple[str, int], int], int] = {}  # (club, colour) -> entrant
    clashing = []
    for k in range(len(ranked)):
        at_pot[pot[k], colour[k]] = k
        if club[k] is None:
            continue
        if (club[k], colour[k]) in at_club:
            clashing.append(k)
            del at_pot[pot[k], colour[k]]
        else:
            at_club[club[k], colour[k]] = k

    def place(k: int, c: int) -> None:
        colour[k] = c
        at_pot[pot[k], c] = k
        if club[k] is not None:
            at_club[club[k], c] = k

    def lift(k: int) -> None:
        del at_pot[pot[k], colour[k]]
        if club[k] is not None:
            del at_club[club[k], colour[k]]

    for k in clashing:
        free_club = [c for c in range(groups) if (club[k], c) not in at_club]
        free_pot = [c for c in range(groups) if (pot[k], c) not in at_pot]
        both = [c for c in free_pot if c in free_club]
        if both:
            # Prefer the group nearest the snake's choice.
            place(k, min(both, key=lambda c: abs(c - colour[k])))
            continue
        a, b = free_club[0], free_pot[0]
        # Alternating a/b path from pot[k]: swap a and b along it; then a is free at both ends.
        path = []
        current = at_pot.get((pot[k], a))
        while current is not None:
            path.append(current)
            if club[current] is None:
                break
            nxt = at_club.get((club[current], b))
            if nxt is None:
                break
            path.append(nxt)
            current = at_pot.get((pot[nxt], a))
        for e in path:
            lift(e)
        for e in path:
            place(e, b if colour[e] == a else a)
        place(k, a)
    return colour


def round_robin_schedule(group: Group) -> tuple[tuple[Pairing, ...], ...]:
    """Every round of the group's round robin; each round lists its matches, then the rest.

    n entrants play n−1 rounds (n rounds if n is odd, one resting each round). Each entrant
    alternates between slot ``a`` and slot ``b`` as far as the circle method allows.
    """
    ids: list[int | None] = list(group.entrant_ids)
    if len(ids) < 2:
        raise DrawError(
            (
                "Group {group} has {count} entrant; a round robin needs at least 2.",
                "Group {group} has {count} entrants; a round robin needs at least 2.",
            ),
            code="group_too_small",
            group=group.name,
            count=len(ids),
        )
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    rounds = n - 1
    schedule = []
    for r in range(rounds):
        matches: list[tuple[int, int | None]] = []
        rest = None
        for i in range(n // 2):
            a, b = ids[i], ids[n - 1 - i]
            if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
                a, b = b, a
            if a is None or b is None:
                rest = a if b is None else b
            else:
                matches.append((a, b))
        info = {"group": group.name, "round": r + 1, "rounds": rounds}
        pairings = [
            Pairing(t, a, b, (Reason("round_robin", info),))
            for t, (a, b) in enumerate(matches, start=1)
        ]
        if rest is not None:
            pairings.append(
                Pairing(
                    len(pairings) + 1,
                    rest,
                    None,
                    (
                        Reason("round_robin", info),
                        Reason("round_robin_rest", {"group": group.name}),
                    ),
                )
            )
        schedule.append(tuple(pairings))
        ids = [ids[0], ids[-1], *ids[1:-1]]  # the circle turns; the first entrant stays put
    return tuple(schedule)
