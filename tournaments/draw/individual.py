"""Draws of players who enter alone: an individual championship and Mus francés tables.

Responsible for:

- `pair_individuals`: one round of an individual tournament. The players who play are split
  into tables of four, and each table into two partnerships (pairs made for the round), so
  that, in this order of priority:

  1. the fewest partners play together again (times partnered before, summed);
  2. the fewest opponents meet again (times each two players of a table faced each other
     before, summed over the four crossings of a table);
  3. the tables are the least spread in the standings (the sum, over tables, of the distance
     in places between a table's best and worst player), so players with similar records
     meet — in round one the order is a draw of lots, so the tables are drawn by lot.

  When the number of players is not a multiple of four, the remainder rests (``rests``): the
  players with the fewest rests so far, the lowest in the standings among them, and lots after
  that — a rest is decided before the tables, as a bye is in a Swiss.

- `seat_frances`: one round of Mus francés tables. The players are seated at tables of the
  chosen size (3–6; `frances_table_sizes` says how a field that is not a multiple of it is
  split), so that the fewest players share a table again, then with the least spread in the
  standings, as above.

How: both are a partition of the players into groups of given sizes with a cost per group
(an individual table's cost is that of its best split into two partnerships). Fields up to
`EXACT_LIMIT` players are searched exhaustively (branch and bound: the least cost is found,
the tests compare it with a brute force over every partition). Larger fields start from the
standings order cut into consecutive groups and improve it by swapping two players of nearby
groups (within `WINDOW` groups of each other) while a swap lowers the total; this finds a draw
without repeats whenever the history leaves many (the usual case: a few rounds of a field of
dozens), but is not proved least, and `benchmarks/draw.py` prints its time and repeats. Only
groups with a repeat are searched: the consecutive cut already has the least spread.

Must not: import Django, read the clock, or use randomness but the ``rng`` seed passed in.

Terms: compañero (partner), rival (opponent), descanso (a rest: no table this round), mesa
(table), mus francés (individual Mus with chips, 3–6 players a table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.draw.base import DrawError, make_rng
from tournaments.draw.reasons import Reason

__all__ = [
    "EXACT_LIMIT",
    "FRANCES_SIZES",
    "IndividualDraw",
    "IndividualTable",
    "PastTable",
    "frances_table_sizes",
    "pair_individuals",
    "seat_frances",
]

#: fields of at most this many players (after the rests) are searched exhaustively
EXACT_LIMIT = 12
#: the local search swaps players of groups at most this many groups apart
WINDOW = 8
#: table sizes a Mus francés table may have
FRANCES_SIZES = range(3, 7)

# Weights that make the cost lexicographic: a repeat partner outweighs any number of repeat
# opponents, which outweigh any spread (the spread of a draw is below 10**7 up to 10**6 players
# a table; the repeats of a draw below 10**5).
_PARTNER = 10**13
_OPPONENT = 10**7


@dataclass(frozen=True)
class PastTable:
    """A table of an earlier round: partnerships ``a`` and ``b`` (individual tournaments), or
    the players of a Mus francés table in ``a`` (``b`` empty)."""

    a: tuple[int, ...]
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class IndividualTable:
    """A table of the round: partnership ``a`` (the better placed player first) against
    partnership ``b``; for Mus francés, the players in ``a`` and ``b`` empty."""

    table_order: int
    a: tuple[int, ...]
    b: tuple[int, ...] = ()
    reasons: tuple[Reason, ...] = field(default=())

    @property
    def players(self) -> tuple[int, ...]:
        return self.a + self.b


@dataclass(frozen=True)
class IndividualDraw:
    tables: tuple[IndividualTable, ...]
    rests: tuple[int, ...]
    #: times partners (individual) or table-mates (francés) of this draw had played together
    partner_repeats: int
    #: times opponents of this draw had met before (individual only)
    opponent_repeats: int


class _History:
    def __init__(self, past: Sequence[PastTable]) -> None:
        self.partners: Counter[tuple[int, int]] = Counter()
        self.opponents: Counter[tuple[int, int]] = Counter()
        for t in past:
            for side in (t.a, t.b):
                for x, y in combinations(side, 2):
                    self.partners[_key(x, y)] += 1
            for x in t.a:
                for y in t.b:
                    self.opponents[_key(x, y)] += 1


def _key(x: int, y: int) -> tuple[int, int]:
    return (x, y) if x < y else (y, x)


# --- The field --------------------------------------------------------------------------------


def _check_players(players: Sequence[int], minimum: int) -> list[int]:
    ids = list(players)
    seen: set[int] = set()
    for p in ids:
        if p in seen:
            raise DrawError(
                "Player {player} is in the draw twice; each player takes one place.",
                code="draw_player_twice",
                player=p,
            )
        seen.add(p)
    if len(ids) < minimum:
        raise DrawError(
            "The draw needs at least {minimum} players; there are {count}.",
            code="draw_too_few_players",
            minimum=minimum,
            count=len(ids),
        )
    return ids


def _check_tables(needed: int, available: int | None) -> None:
    if available and needed > available:
        raise DrawError(
            "This round has {matches} matches but only {tables} tables; add tables or split "
            "the round into sessions.",
            code="tables_too_few",
            matches=needed,
            tables=available,
        )


def _order(players: list[int], standings: Sequence[int] | None, rng_seed: int) -> list[int]:
    """The players best first: by the standings given, the others after them by lot."""
    rng = make_rng(rng_seed)
    lot = list(players)
    rng.shuffle(lot)
    if not standings:
        return lot
    place = {p: n for n, p in enumerate(standings)}
    return sorted(lot, key=lambda p: (place.get(p, len(place)),))


# --- Partitions into groups ---------------------------------------------------------------------


def _partition(
    order: list[int], sizes: list[int], cost, *, exact_limit: int
) -> tuple[list[list[int]], int]:
    """Groups of ``sizes`` over ``order`` (best first) of least total ``cost`` (exact up to
    ``exact_limit`` players, local search above). Groups come best first."""
    if len(order) <= exact_limit:
        groups, total = _exact(order, sizes, cost)
    else:
        groups, total = _local(order, sizes, cost)
    place = {p: n for n, p in enumerate(order)}
    groups = [sorted(g, key=place.__getitem__) for g in groups]
    groups.sort(key=lambda g: place[g[0]])
    return groups, total


def _exact(order: list[int], sizes: list[int], cost) -> tuple[list[list[int]], int]:
    """Branch and bound over every partition: the first player left starts the next group, of
    each size still to place (sizes that are equal are tried once)."""
    best: list = [None, None]
    # A first bound: the standings order cut in sequence.
    start, cut = 0, []
    for s in sizes:
        cut.append(order[start : start + s])
        start += s
    best[0], best[1] = sum(cost(tuple(g)) for g in cut), cut

    def search(left: list[int], sizes_left: Counter, groups: list, total: int) -> None:
        if not left:
            if total < best[0]:
                best[0], best[1] = total, [list(g) for g in groups]
            return
        first, rest = left[0], left[1:]
        for size in sorted(sizes_left):
            if not sizes_left[size]:
                continue
            sizes_left[size] -= 1
            for others in combinations(rest, size - 1):
                g = (first, *others)
                c = total + cost(g)
                if c < best[0]:
                    taken = set(others)
                    groups.append(g)
                    search([p for p in rest if p not in taken], sizes_left, groups, c)
                    groups.pop()
            sizes_left[size] += 1

    search(list(order), Counter(sizes), [], 0)
    return best[1], best[0]


def _local(order: list[int], sizes: list[int], cost) -> tuple[list[list[int]], int]:
    groups: list[list[int]] = []
    start = 0
    for s in sizes:
        groups.append(order[start : start + s])
        start += s
    costs = [cost(tuple(g)) for g in groups]
    improved = True
    while improved:
        improved = False
        for i in range(len(groups)):
            if costs[i] < _OPPONENT:  # no repeat: consecutive players already spread least
                continue
            for j in range(max(0, i - WINDOW), min(len(groups), i + WINDOW + 1)):
                if j == i:
                    continue
                if _best_swap(groups, costs, i, j, cost):
                    improved = True
                if costs[i] < _OPPONENT:
                    break
    return groups, sum(costs)


def _best_swap(groups, costs, i: int, j: int, cost) -> bool:
    """Swap the pair of players of groups i and j that lowers their cost most, if one does."""
    gi, gj = groups[i], groups[j]
    now = costs[i] + costs[j]
    found = None
    for x in range(len(gi)):
        for y in range(len(gj)):
            ni = (*gi[:x], gj[y], *gi[x + 1 :])
            nj = (*gj[:y], gi[x], *gj[y + 1 :])
            ci, cj = cost(ni), cost(nj)
            if ci + cj < now:
                now, found = ci + cj, (ni, nj, ci, cj)
    if found is None:
        return False
    groups[i], groups[j] = list(found[0]), list(found[1])
    costs[i], costs[j] = found[2], found[3]
    return True


# --- Individual tournaments -----------------------------------------------------------------


def pair_individuals(
    players: Sequence[int],
    past: Sequence[PastTable] = (),
    *,
    rng: int,
    standings: Sequence[int] | None = None,
    rests: Mapping[int, int] | None = None,
    tables: int | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> IndividualDraw:
    """One round of an individual tournament (see the module docstring for the order of
    priority). ``players``: the ids of who plays; ``past``: the tables of earlier rounds;
    ``standings``: ids best first (None in round one: lots); ``rests``: rests so far per id;
    ``tables``: the tables available (None: no limit)."""
    ids = _check_players(players, 4)
    _check_tables(len(ids) // 4, tables)
    order = _order(ids, standings, rng)
    rested = _choose_rests(order, len(ids) % 4, rests or {})
    playing = [p for p in order if p not in set(rested)]
    place = {p: n for n, p in enumerate(playing)}
    hist = _History(past)

    def split(g: tuple[int, ...]) -> tuple[int, tuple[int, int], tuple[int, int]]:
        """The best of the three ways to make two partnerships of a table of four."""
        w, x, y, z = g
        best = None
        for a, b in (((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))):
            c = _split_cost(a, b, hist)
            if best is None or c < best[0]:
                best = (c, a, b)
        return best

    cache: dict[tuple[int, ...], int] = {}

    def cost(g: tuple[int, ...]) -> int:
        key = tuple(sorted(g))
        c = cache.get(key)
        if c is None:
            spread = max(place[p] for p in g) - min(place[p] for p in g)
            c = cache[key] = split(key)[0] + spread
        return c

    groups, _ = _partition(playing, [4] * (len(playing) // 4), cost, exact_limit=exact_limit)
    tables, partners, opponents = [], 0, 0
    for n, g in enumerate(groups, start=1):
        _, a, b = split(tuple(sorted(g)))
        a, b = (tuple(sorted(a, key=place.__getitem__)), tuple(sorted(b, key=place.__getitem__)))
        if place[b[0]] < place[a[0]]:
            a, b = b, a
        p_times = hist.partners[_key(*a)] + hist.partners[_key(*b)]
        o_times = sum(hist.opponents[_key(x, y)] for x in a for y in b)
        partners += p_times
        opponents += o_times
        tables.append(IndividualTable(n, a, b, _individual_reasons(p_times, o_times)))
    return IndividualDraw(tuple(tables), tuple(rested), partners, opponents)


def _split_cost(a: tuple[int, int], b: tuple[int, int], hist: _History) -> int:
    partners = hist.partners[_key(*a)] + hist.partners[_key(*b)]
    opponents = sum(hist.opponents[_key(x, y)] for x in a for y in b)
    return partners * _PARTNER + opponents * _OPPONENT


def _individual_reasons(partners: int, opponents: int) -> tuple[Reason, ...]:
    reasons = []
    if partners:
        reasons.append(Reason("partners_again", {"times": partners}))
    if opponents:
        reasons.append(Reason("opponents_again", {"times": opponents}))
    if not reasons:
        reasons.append(Reason("new_partners_and_opponents"))
    return tuple(reasons)


def _choose_rests(order: list[int], count: int, rests: Mapping[int, int]) -> list[int]:
    """``count`` players to rest: the fewest rests so far, then the lowest placed."""
    if not count:
        return []
    place = {p: n for n, p in enumerate(order)}
    chosen = sorted(order, key=lambda p: (rests.get(p, 0), -place[p]))[:count]
    return sorted(chosen, key=place.__getitem__)


# --- Mus francés --------------------------------------------------------------------------------


def frances_table_sizes(players: int, size: int) -> list[int]:
    """How ``players`` sit at tables of about ``size`` (3–6): as many tables as ``size`` makes
    (rounding up), the players spread as evenly as possible, larger tables first; when that
    leaves a table below 3, one table fewer (rounding down). 7 players at tables of 3 sit at
    4 + 3, 5 at tables of 4 at one table of 5, 13 at tables of 6 at 5 + 4 + 4."""
    if size not in FRANCES_SIZES:
        raise DrawError(
            "A Mus francés table seats 3 to 6 players, not {size}.",
            code="frances_table_size",
            size=size,
        )
    if players < 3:
        raise DrawError(
            "The draw needs at least {minimum} players; there are {count}.",
            code="draw_too_few_players",
            minimum=3,
            count=players,
        )
    for tables in (-(-players // size), max(1, players // size)):
        base, extra = divmod(players, tables)
        sizes = [base + 1] * extra + [base] * (tables - extra)
        if sizes[-1] >= 3 and sizes[0] <= 6:
            return sizes
    raise AssertionError("unreachable: one of the two splits fits 3 to 6")  # pragma: no cover


def seat_frances(
    players: Sequence[int],
    past: Sequence[PastTable] = (),
    *,
    size: int,
    rng: int,
    standings: Sequence[int] | None = None,
    tables: int | None = None,
    exact_limit: int = EXACT_LIMIT,
) -> IndividualDraw:
    """One round of Mus francés tables of ``size`` (see the module docstring); ``tables``: the
    tables available (None: no limit)."""
    ids = _check_players(players, 3)
    sizes = frances_table_sizes(len(ids), size)
    _check_tables(len(sizes), tables)
    order = _order(ids, standings, rng)
    place = {p: n for n, p in enumerate(order)}
    hist = _History(past)

    def cost(g: tuple[int, ...]) -> int:
        met = sum(hist.partners[_key(x, y)] for x, y in combinations(g, 2))
        return met * _PARTNER + max(place[p] for p in g) - min(place[p] for p in g)

    groups, _ = _partition(order, sizes, cost, exact_limit=exact_limit)
    tables, met_total = [], 0
    for n, g in enumerate(groups, start=1):
        met = sum(hist.partners[_key(x, y)] for x, y in combinations(g, 2))
        met_total += met
        reasons = [Reason("frances_table", {"size": len(g)})]
        if met:
            reasons.append(Reason("tablemates_again", {"times": met}))
        tables.append(IndividualTable(n, tuple(g), (), tuple(reasons)))
    return IndividualDraw(tuple(tables), (), met_total, 0)
