"""An individual league's night: partners and opponents drawn among the players who came.

Responsible for: `draw_night`, which splits the players present into parejas and the parejas
into matches, avoiding (first) a partner a player already had this season and (then) an
opponent met before, and choosing who rests (descansa) when the number present is not a
multiple of four: those who rested least, by lot among equals.

The interface is deliberately small — player ids, the season's past partnerships and
oppositions, the rests so far and a seed in; matches of two pairs and the resting players out —
so that the individual championship's draw in tournaments.draw (an individual form of a
tournament) can replace the search below without the league changing.

How: a fixed number of seeded shuffles, each paired greedily (a player takes the first one
after them they have not partnered, and a pair the first pair with the fewest oppositions
met), scored ``100 × partner repeats + opponent repeats``; the best is kept, the first found
on a tie. It is not optimal, but with a season of 20 nights and 40 players it finds a draw
without a repeated partner whenever the greedy search can reach one; a repeat it cannot avoid
is allowed (a night is never refused because everybody has met).

Must not: import Django, read the clock, or draw lots but from the seed passed in.

Terms: pareja (pair), compañero (partner), rival (opponent), descanso (a rest), jornada.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.draw import DrawError

ATTEMPTS = 64
PARTNER_WEIGHT = 100


@dataclass(frozen=True)
class NightMatch:
    pair_a: tuple[int, int]
    pair_b: tuple[int, int]


@dataclass(frozen=True)
class Night:
    matches: tuple[NightMatch, ...]
    resting: tuple[int, ...]
    partner_repeats: int = 0
    opponent_repeats: int = 0


def history_of(
    matches: Iterable[tuple[Sequence[int], Sequence[int]]],
) -> tuple[Counter, Counter]:
    """(partnerships, oppositions) counted over past matches given as (side a, side b)."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for a, b in matches:
        for side in (a, b):
            if len(side) == 2:
                partners[frozenset(side)] += 1
        for x in a:
            for y in b:
                opponents[frozenset((x, y))] += 1
    return partners, opponents


def draw_night(
    players: Sequence[int],
    *,
    partners: Mapping[frozenset, int] | None = None,
    opponents: Mapping[frozenset, int] | None = None,
    rests: Mapping[int, int] | None = None,
    seed: int = 0,
) -> Night:
    partners = partners or {}
    opponents = opponents or {}
    rests = rests or {}
    present = sorted(set(players))
    if len(present) < 4:
        raise DrawError(
            (
                "{count} player came; an individual jornada needs at least 4.",
                "{count} players came; an individual jornada needs at least 4.",
            ),
            code="individual_too_few",
            count=len(present),
        )
    rng = random.Random(seed)
    lots = {p: rng.random() for p in present}
    by_rest = sorted(present, key=lambda p: (rests.get(p, 0), lots[p]))
    resting = tuple(sorted(by_rest[: len(present) % 4]))
    playing = [p for p in present if p not in resting]
    best: Night | None = None
    best_cost = None
    for _ in range(ATTEMPTS):
        order = list(playing)
        rng.shuffle(order)
        pairs = _pairs(order, partners)
        matches = _matches(pairs, opponents)
        p_rep = sum(
            1 for m in matches for pair in (m.pair_a, m.pair_b) if partners.get(frozenset(pair))
        )
        o_rep = sum(
            1
            for m in matches
            for x in m.pair_a
            for y in m.pair_b
            if opponents.get(frozenset((x, y)))
        )
        cost = PARTNER_WEIGHT * p_rep + o_rep
        if best_cost is None or cost < best_cost:
            best_cost = cost
            best = Night(tuple(matches), resting, p_rep, o_rep)
            if cost == 0:
                break
    assert best is not None
    return best


def _pairs(order: list[int], partners: Mapping[frozenset, int]) -> list[tuple[int, int]]:
    left = list(order)
    pairs = []
    while left:
        first = left.pop(0)
        pick = next((p for p in left if not partners.get(frozenset((first, p)))), left[0])
        left.remove(pick)
        pairs.append((first, pick))
    return pairs


def _met(a: tuple[int, int], b: tuple[int, int], opponents: Mapping[frozenset, int]) -> int:
    return sum(opponents.get(frozenset((x, y)), 0) for x in a for y in b)


def _matches(pairs: list[tuple[int, int]], opponents: Mapping[frozenset, int]) -> list[NightMatch]:
    left = list(pairs)
    out = []
    while left:
        first = left.pop(0)
        pick = min(left, key=lambda other: _met(first, other, opponents))
        left.remove(pick)
        out.append(NightMatch(first, pick))
    return out
