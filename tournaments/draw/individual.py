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
(an individual table's cost is that of its best split into two partnerships), in three steps,
each keeping the best draw found so far:

1. *Local search.* From the top of the standings, the best-placed player left takes the table
   of the players just below that costs least (repeats, then spread), looking further down
   while every table in reach repeats. Then, while it lowers the cost, the players of two
   tables are shared out again the best way (every way; only a player of each swapped for
   tables of six in fields above 128): each table with a repeat against the `WINDOW`
   nearest, then against all; then the spread of the tables it touched.
2. *Exact search*, when the draw repeats (and always on fields of up to `EXACT_SPREAD`
   players, to make the spread exact too), on fields of up to `EXACT_PLAYERS` players whose
   possible tables number at most `EXACT_GROUPS`, within `EXACT_WORK`. A *Lagrangian floor*
   first: with a multiplier per player for "each player at exactly one table", the
   multipliers plus the cheapest choice of as many tables of each size as the round has,
   each priced at its cost less its players' multipliers, is no more than the cost of any
   draw; the subgradient method raises it, and every `_HEURISTIC` rounds a draw is read off
   the multipliers (the tables of least reduced cost that share nobody, then the local
   search) and kept if it is better. The floor is the linear-programming bound of the
   partition, which in practice proves the best draw least outright. Otherwise the tables a
   cheaper draw cannot hold are dropped (a table's reduced cost above the gap between the
   floor and the best draw), and a branch and bound runs over the tables kept: the
   best-placed player left starts the next table, the same floor over the tables that fit
   among the players left cuts a branch (or there are too few of them), and each set of
   players left that is solved or proved costly is remembered.
3. *Floors of the whole field* otherwise: each player sits with at least one partner and two
   opponents (table-mates for Mus francés) among the others, and each repeat is counted
   from both of its players, so the repeats are at least half the sum of each player's
   cheapest choices; and a draw's partnerships are a perfect matching, so it repeats at
   least one per pair of players that the largest matching of new partnerships leaves out.

So the repeats are *proved* least when the exact search ends within its work, or the draw
reaches a floor, or it has no repeat; only then does a table's reason say no draw has fewer
(``partners_again``, ``opponents_again``, ``tablemates_again``); otherwise it says only that
the draw found none with fewer (the ``…_best_found`` codes). The tests compare the draws with
a brute force over every partition (up to 12 players) and with an integer program over every
table (16–20); `benchmarks/draw.py` prints the time, and how many draws of fields of 16–24
players played over many rounds are above the least (none) and proved least.

Must not: import Django, read the clock, or use randomness but the ``rng`` seed passed in.

Terms: compañero (partner), rival (opponent), descanso (a rest: no table this round), mesa
(table), mus francés (individual Mus with chips, 3–6 players a table); a *repeat* is a
partner, opponent or table-mate met before, counted once per earlier meeting.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import numpy as np

from tournaments.draw.base import DrawError, make_rng
from tournaments.draw.matching import maximum_matching
from tournaments.draw.reasons import Reason

__all__ = [
    "EXACT_SPREAD",
    "EXACT_WORK",
    "FRANCES_SIZES",
    "IndividualDraw",
    "IndividualTable",
    "PastTable",
    "frances_table_sizes",
    "pair_individuals",
    "seat_frances",
]

#: the exact search's budget for one draw, in groups weighed (about a second)
EXACT_WORK = 600_000
#: the exact search works on fields of at most this many players …
EXACT_PLAYERS = 64
#: … whose possible groups are at most this many
EXACT_GROUPS = 250_000
#: the subgradient method's rounds, how many without progress halve its step, and how often a
#: draw is read off its multipliers
_ITERATIONS = 300
_STALL = 10
_HEURISTIC = 25
#: the margin of the floating-point floors: costs are whole numbers
_EPSILON = 1e-6
#: fields of at most this many players are searched exactly on the spread too
EXACT_SPREAD = 16
#: the local search first shares out the players of groups at most this many groups apart
WINDOW = 8
#: table sizes a Mus francés table may have
FRANCES_SIZES = range(3, 7)


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
    #: whether no draw has fewer partner (table-mate) repeats
    partners_proved: bool = True
    #: whether no draw with as few partner repeats has fewer opponent repeats
    opponents_proved: bool = True


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


def _by_place(counts: Mapping[tuple[int, int], int], place: Mapping[int, int]) -> list[dict]:
    """``counts`` of pairs of ids as, for each place, {other place: count} (counts above 0)."""
    met: list[dict[int, int]] = [{} for _ in place]
    for (x, y), c in counts.items():
        if c and x in place and y in place:
            met[place[x]][place[y]] = c
            met[place[y]][place[x]] = c
    return met


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


# --- Partitions into groups -------------------------------------------------------------------


class _Problem:
    """Players 0 … n−1 (0 the best placed) to be split into groups of ``sizes``.

    A group is a sorted tuple of players; its *repeats* are one integer that packs the levels
    of priority (`units`: the weight of each level). Subclasses say what a group repeats and
    each player's share of the floor."""

    units: tuple[int, ...] = (1,)

    def __init__(self, n: int, sizes: Sequence[int]) -> None:
        self.n = n
        self.sizes = tuple(sorted(sizes))
        self._cache: dict[tuple[int, ...], int] = {}

    def repeats(self, g: tuple[int, ...]) -> int:
        c = self._cache.get(g)
        if c is None:
            c = self._cache[g] = self._repeats(g)
        return c

    def _repeats(self, g: tuple[int, ...]) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def shares(self, x: int, mask: int, left: int, smallest: int) -> tuple[int, ...]:
        """Player x's share of the floor of each level, among the ``left`` players of
        ``mask`` (x included) when the smallest group left has ``smallest`` seats."""
        raise NotImplementedError  # pragma: no cover - abstract

    def levels(self, repeats: int) -> tuple[int, ...]:
        """``repeats`` unpacked into its levels."""
        values = []
        for unit in self.units:
            values.append(repeats // unit)
            repeats %= unit
        return tuple(values)


class _Met:
    """How many times each player met each other one (only the counts above 0)."""

    def __init__(self, met: list[dict[int, int]]) -> None:
        self.counts = met
        self.masks = [sum(1 << y for y in m) for m in met]

    def get(self, x: int, y: int) -> int:
        return self.counts[x].get(y, 0)

    def dense(self, n: int) -> np.ndarray:
        """The counts as an n × n array."""
        out = np.zeros((n, n), dtype=np.int64)
        for x, m in enumerate(self.counts):
            for y, c in m.items():
                out[x, y] = c
        return out

    def smallest(self, x: int, mask: int, others: int, k: int) -> int:
        """The sum of x's ``k`` smallest counts over the ``others`` players of ``mask`` but
        x (those it never met count 0)."""
        zeros = others - (self.masks[x] & mask).bit_count()
        if zeros >= k:
            return 0
        counted = sorted(c for y, c in self.counts[x].items() if mask >> y & 1)
        return sum(counted[: k - zeros])


class _Tables(_Problem):
    """An individual round: tables of four, each split into two partnerships."""

    def __init__(self, n: int, partners: list[dict], opponents: list[dict]) -> None:
        super().__init__(n, [4] * (n // 4))
        self.partners = _Met(partners)
        self.opponents = _Met(opponents)
        most = max((max(m.values(), default=0) for m in opponents), default=0)
        # opponent repeats of any draw stay below this: a partner repeat outweighs them all
        self.units = (n * most + 1, 1)

    def split(self, g: tuple[int, ...]) -> tuple[int, tuple[int, int], tuple[int, int]]:
        """The best of the three ways to make two partnerships of a table of four."""
        w, x, y, z = g
        p, o = self.partners.counts, self.opponents.counts
        best = None
        for a, b in (((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))):
            partners = p[a[0]].get(a[1], 0) + p[b[0]].get(b[1], 0)
            oa, ob = o[a[0]], o[a[1]]
            opponents = oa.get(b[0], 0) + oa.get(b[1], 0) + ob.get(b[0], 0) + ob.get(b[1], 0)
            c = partners * self.units[0] + opponents
            if best is None or c < best[0]:
                best = (c, a, b)
        return best

    def _repeats(self, g: tuple[int, ...]) -> int:
        return self.split(g)[0]

    def column_repeats(self, members: np.ndarray) -> np.ndarray:
        """The repeats of each row of ``members`` (an array of tables of four), as `split`."""
        p, o = self.partners.dense(self.n), self.opponents.dense(self.n)
        w, x, y, z = members.T
        best = None
        for (a1, a2), (b1, b2) in (((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))):
            c = (p[a1, a2] + p[b1, b2]) * self.units[0]
            c = c + o[a1, b1] + o[a1, b2] + o[a2, b1] + o[a2, b2]
            best = c if best is None else np.minimum(best, c)
        return best

    def shares(self, x: int, mask: int, left: int, smallest: int) -> tuple[int, ...]:
        return (
            self.partners.smallest(x, mask, left - 1, 1),
            self.opponents.smallest(x, mask, left - 1, 2),
        )


class _Seats(_Problem):
    """A Mus francés round: tables of 3 to 6; a repeat is two players who shared a table."""

    def __init__(self, n: int, sizes: Sequence[int], met: list[dict]) -> None:
        super().__init__(n, sizes)
        self.met = _Met(met)

    def _repeats(self, g: tuple[int, ...]) -> int:
        met = self.met.counts
        return sum(met[x].get(y, 0) for x, y in combinations(g, 2))

    def column_repeats(self, members: np.ndarray) -> np.ndarray:
        """The repeats of each row of ``members`` (an array of tables)."""
        met = self.met.dense(self.n)
        total = 0
        for a, b in combinations(range(members.shape[1]), 2):
            total = total + met[members[:, a], members[:, b]]
        return total

    def shares(self, x: int, mask: int, left: int, smallest: int) -> tuple[int, ...]:
        return (self.met.smallest(x, mask, left - 1, smallest - 1),)


def _spread(g: tuple[int, ...]) -> int:
    return g[-1] - g[0]


class _OutOfWork(Exception):
    """The exact search did as much work as it may."""


class _Exact:
    """The exact search (see the module docstring) on the repeats and, with ``spread``, the
    spread: a Lagrangian floor over every possible group, then a branch and bound over the
    groups that floor leaves, remembering each set of players left that it has solved (its
    least cost) or proved to cost at least some amount."""

    def __init__(self, problem: _Problem, *, spread: bool, work: int) -> None:
        self.p = problem
        self.spread = spread
        self.unit = problem.n * problem.n + 1 if spread else 1  # above any draw's spread
        self.work = work
        self.best: tuple[int, list[tuple[int, ...]]] = (0, [])
        self.solved: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...], int]] = {}
        self.at_least: dict[tuple[int, tuple[int, ...]], int] = {}

    def cost(self, g: tuple[int, ...]) -> int:
        return self.p.repeats(g) * self.unit + (_spread(g) if self.spread else 0)

    def run(self, groups: list[tuple[int, ...]]) -> bool:
        """Search for a draw cheaper than ``groups``; `best` is then the best draw found.
        True when the search ended: no draw is cheaper than `best`."""
        p = self.p
        self.best = (sum(self.cost(g) for g in groups), list(groups))
        count = Counter(p.sizes)
        if p.n > EXACT_PLAYERS or sum(comb(p.n, s) for s in count) > EXACT_GROUPS:
            return False
        # Every possible group of each size, and its cost.
        columns = {}
        for size in count:
            members = np.array(list(combinations(range(p.n), size)), dtype=np.int64)
            cost = p.column_repeats(members) * self.unit
            if self.spread:
                cost = cost + members[:, -1] - members[:, 0]
            columns[size] = (members, cost.astype(np.float64), cost)
        self.work -= sum(len(c[0]) for c in columns.values()) // 20
        try:
            lam = self._lagrange(columns, count)
            if lam is None:
                return True
            self._keep(columns, count, lam)
            self._search((1 << p.n) - 1, p.sizes, self.best[0], 0, [])
        except _OutOfWork:
            return False
        return True

    # --- The Lagrangian floor ------------------------------------------------------------------

    def _lagrange(self, columns: dict, count: Counter):
        """Multipliers (one per player) whose Lagrangian floor is as high as the subgradient
        method gets it, or None when that floor proves the best draw least.

        Relaxing "each player in exactly one group" with a multiplier per player, the cheapest
        choice of as many groups of each size as the draw has is a floor of every draw, for
        any multipliers: the sum of the multipliers plus the groups of least *reduced cost*
        (the group's cost less its players' multipliers). A choice that covers every player
        once is itself a draw, and the least."""
        n = self.p.n
        lam = np.zeros(n)
        best, best_lam = -np.inf, lam
        step, stall = 2.0, 0
        size = sum(len(c[0]) for c in columns.values())
        for iteration in range(_ITERATIONS):
            self._spend(size // 50 + 1)
            value, chosen = lam.sum(), []
            for s, (members, cost, _) in columns.items():
                reduced = cost - lam[members].sum(axis=1)
                k = count[s]
                pick = np.argpartition(reduced, k - 1)[:k] if k < len(reduced) else np.arange(k)
                value += reduced[pick].sum()
                chosen.append(members[pick])
            if value > best + 1e-9:
                best, best_lam, stall = value, lam, 0
            else:
                stall += 1
            if best > self.best[0] - 1 + _EPSILON:
                return None
            covered = np.bincount(np.concatenate([c.ravel() for c in chosen]), minlength=n)
            gradient = 1.0 - covered
            norm = float((gradient * gradient).sum())
            if norm == 0:  # a draw, and the least: cheaper than the best one?
                groups = [tuple(int(v) for v in g) for c in chosen for g in c]
                total = sum(self.cost(g) for g in groups)
                if total < self.best[0]:
                    self.best = (total, groups)
                return None
            if stall >= _STALL:
                step, stall = step / 2, 0
                if step < 1e-3:
                    break
            if iteration % _HEURISTIC == _HEURISTIC - 1:
                self._draw_from(columns, count, lam)
                if best > self.best[0] - 1 + _EPSILON:
                    return None
            lam = lam + step * max(self.best[0] - value, 1.0) / norm * gradient
        self._draw_from(columns, count, best_lam)
        if best > self.best[0] - 1 + _EPSILON:
            return None
        return best_lam

    def _draw_from(self, columns: dict, count: Counter, lam) -> None:
        """A draw read off the multipliers, kept if it beats the best: the groups of least
        reduced cost that share nobody, the players left seated in place order, then the
        local search."""
        reduced, sizes, rows = [], [], []
        for s, (members, cost, _) in columns.items():
            reduced.append(cost - lam[members].sum(axis=1))
            sizes.append(np.full(len(members), s))
            rows.append(np.arange(len(members)))
        reduced, sizes, rows = np.concatenate(reduced), np.concatenate(sizes), np.concatenate(rows)
        self._spend(len(reduced) // 10)
        left, used, groups = Counter(count), 0, []
        for j in np.argsort(reduced, kind="stable").tolist():
            s = int(sizes[j])
            if not left[s]:
                continue
            g = tuple(int(v) for v in columns[s][0][rows[j]])
            gmask = sum(1 << v for v in g)
            if gmask & used:
                continue
            groups.append(g)
            used |= gmask
            left[s] -= 1
            if not +left:
                break
        rest = [v for v in range(self.p.n) if not used >> v & 1]
        for s in sorted(left.elements(), reverse=True):
            groups.append(tuple(rest[:s]))
            rest = rest[s:]
        groups = _improve(self.p, groups)
        total = sum(self.cost(g) for g in groups)
        if total < self.best[0]:
            self.best = (total, groups)

    def _keep(self, columns: dict, count: Counter, lam) -> None:
        """Keep the groups a draw cheaper than the best could hold: in such a draw, a group's
        reduced cost takes the place of at most the most costly of the cheapest choice."""
        floor, kth = lam.sum(), {}
        for s, (members, cost, _) in columns.items():
            reduced = cost - lam[members].sum(axis=1)
            k = count[s]
            part = np.partition(reduced, k - 1) if k < len(reduced) else np.sort(reduced)
            floor += part[:k].sum()
            kth[s] = part[k - 1]
        keep_members, keep_reduced, keep_cost, keep_size = [], [], [], []
        for s, (members, cost, exact) in columns.items():
            reduced = cost - lam[members].sum(axis=1)
            ok = floor - kth[s] + reduced <= self.best[0] - 1 + _EPSILON
            keep_members += [tuple(int(v) for v in g) for g in members[ok]]
            keep_reduced.append(reduced[ok])
            keep_cost += [int(c) for c in exact[ok]]
            keep_size.append(np.full(int(ok.sum()), s))
        self.lam = lam
        self.groups = keep_members
        self.costs = keep_cost
        self.reduced = np.concatenate(keep_reduced)
        self.size = np.concatenate(keep_size)
        self.masks = np.array([sum(1 << v for v in g) for g in keep_members], dtype=np.uint64)
        by_first: dict[int, list[int]] = {}
        for j, g in enumerate(keep_members):
            by_first.setdefault(g[0], []).append(j)
        self.by_first = {v: np.array(js, dtype=np.int64) for v, js in by_first.items()}
        self._spend(len(keep_members))

    # --- Branch and bound -----------------------------------------------------------------------

    def _spend(self, amount: int) -> None:
        self.work -= amount
        if self.work < 0:
            raise _OutOfWork

    def _search(
        self, mask: int, sizes: tuple[int, ...], limit: int, spent: int, path: list
    ) -> int | None:
        """The least cost of a split of the players in ``mask`` into ``sizes`` if below
        ``limit``, else None."""
        if not mask:
            return 0 if limit > 0 else None
        key = (mask, sizes)
        done = self.solved.get(key)
        if done is not None:
            return done[0] if done[0] < limit else None
        if self.at_least.get(key, -1) >= limit:
            return None
        self._spend(len(self.groups) // 50 + 10)
        # The Lagrangian floor of the players left, over the groups kept that they can fill.
        inside = (self.masks & np.uint64(~mask & ((1 << self.p.n) - 1))) == 0
        members = [v for v in range(self.p.n) if mask >> v & 1]
        floor = float(self.lam[members].sum())
        kth = {}
        for s, k in Counter(sizes).items():
            reduced = self.reduced[inside & (self.size == s)]
            if len(reduced) < k:  # the players left cannot be seated: no cheaper draw here
                self.at_least[key] = limit
                return None
            part = np.partition(reduced, k - 1) if k < len(reduced) else np.sort(reduced)
            floor += float(part[:k].sum())
            kth[s] = float(part[k - 1])
        if floor > limit - 1 + _EPSILON:
            self.at_least[key] = max(self.at_least.get(key, -1), math.ceil(floor - _EPSILON))
            return None
        first = members[0]
        chosen = self.by_first.get(first)
        if chosen is None:
            self.at_least[key] = limit
            return None
        chosen = chosen[inside[chosen]]
        candidates = []
        for j in chosen.tolist():
            s = int(self.size[j])
            if s not in kth:
                continue
            bound = floor - kth[s] + float(self.reduced[j])
            if bound <= limit - 1 + _EPSILON:
                candidates.append((bound, j))
        self._spend(len(candidates))
        candidates.sort()
        best = None
        for bound, j in candidates:
            cap = limit if best is None else best
            if bound > cap - 1 + _EPSILON:
                break
            g, c = self.groups[j], self.costs[j]
            left = list(sizes)
            left.remove(len(g))
            gmask = 0
            for v in g:
                gmask |= 1 << v
            sub = self._search(mask & ~gmask, tuple(left), cap - c, spent + c, [*path, g])
            if sub is not None:
                best = c + sub
                self.solved[key] = (best, g, gmask)
                if spent + best < self.best[0]:
                    self.best = (spent + best, [*path, *self._rebuild(mask, sizes)])
        if best is None:
            self.at_least[key] = max(self.at_least.get(key, -1), limit)
        return best

    def _rebuild(self, mask: int, sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
        groups = []
        while mask:
            _, g, gmask = self.solved[mask, sizes]
            groups.append(g)
            left = list(sizes)
            left.remove(len(g))
            mask, sizes = mask & ~gmask, tuple(left)
        return groups


def _greedy(problem: _Problem) -> list[tuple[int, ...]]:
    """A first draw: from the top of the standings, the best-placed player left with the
    table of the players just below it that costs least (repeats, then spread), looking
    further down while every table in reach repeats. Tables of five or six are filled a
    player at a time (the one below who repeats least with those seated), which is cheaper
    than weighing every table in reach."""
    unit = problem.n * problem.n + 1
    left = list(range(problem.n))
    groups = []
    for size in reversed(problem.sizes):  # larger groups first, as frances_table_sizes lists
        first = left[0]
        if size > 4:
            table = [first]
            reach = left[1 : 1 + 3 * size]
            while len(table) < size:
                table.append(
                    min(
                        (v for v in reach if v not in table),
                        key=lambda v: (problem.repeats(tuple(sorted((*table, v)))), v),
                    )
                )
            best = (0, tuple(sorted(table)))
        else:
            reach = size + 3
            while True:
                best = None
                for others in combinations(left[1 : 1 + reach], size - 1):
                    g = (first, *others)
                    c = problem.repeats(g) * unit + others[-1] - first
                    if best is None or c < best[0]:
                        best = (c, g)
                if best[0] < unit or reach >= len(left) - 1 or reach >= 2 * size + 4:
                    break
                reach = 2 * size + 4
        groups.append(best[1])
        taken = set(best[1])
        left = [v for v in left if v not in taken]
    return groups


def _improve(problem: _Problem, groups: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Local search: share out the players of two groups again, the best way (`splits`),
    while that lowers the repeats (then the spread): first each group with a repeat against
    the `WINDOW` nearest groups, then against every group; then the spread of the groups a
    move touched, against their nearest ones."""
    unit = problem.n * problem.n + 1
    groups = list(groups)

    def cost(g: tuple[int, ...]) -> int:
        return problem.repeats(g) * unit + _spread(g)

    costs = [cost(g) for g in groups]

    def splits(gi: tuple[int, ...], gj: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """The ways to seat the players of two groups at groups of their sizes, as the first
        group: every way (35 for two of four, 126 for two of five, 462 for two of six), but
        only a player of each swapped for tables of six in fields above 128 (every way there
        took seconds for 1,024 players)."""
        if (len(gi) > 5 or len(gj) > 5) and problem.n > 128:
            for x in gi:
                for y in gj:
                    yield tuple(sorted(y if v == x else v for v in gi))
            return
        pool = tuple(sorted(gi + gj))
        if len(gi) == len(gj):  # the first player's group is enough: the other is the rest
            for chosen in combinations(pool[1:], len(gi) - 1):
                yield pool[:1] + chosen
        else:
            yield from combinations(pool, len(gi))

    def reshare(i: int, j: int) -> bool:
        """The best way to seat the players of groups i and j at two groups of their sizes."""
        gi, gj = groups[i], groups[j]
        pool = tuple(sorted(gi + gj))
        now = costs[i] + costs[j]
        found = None
        for a in splits(gi, gj):
            taken = set(a)
            b = tuple(v for v in pool if v not in taken)
            ca, cb = cost(a), cost(b)
            if ca + cb < now:
                now, found = ca + cb, (a, b, ca, cb)
        if found is None:
            return False
        groups[i], groups[j], costs[i], costs[j] = found
        return True

    k = len(groups)
    touched: set[int] = set()

    def nearest(i: int, count: int) -> Iterator[int]:
        """The other groups by distance in the list (which starts in place order)."""
        for d in range(1, min(count, k) + 1):
            for j in (i - d, i + d):
                if 0 <= j < k:
                    yield j

    def sweep(count: int) -> bool:
        """Each group with a repeat against its ``count`` nearest groups; True if one moved."""
        moved = False
        for i in range(k):
            if costs[i] < unit:
                continue
            for j in nearest(i, count):
                if reshare(i, j):
                    moved = True
                    touched.update((i, j))
                    if costs[i] < unit:
                        break
        return moved

    while sweep(WINDOW) or sweep(k):
        pass
    # The spread of the groups a move touched, against their nearest groups.
    todo = sorted(touched)
    while todo:
        i = todo.pop()
        for j in nearest(i, 2):
            if reshare(i, j):
                todo += [v for v in (i, j) if v not in todo]
    order = sorted(range(k), key=lambda i: groups[i][0])
    return [groups[i] for i in order]


def _partition(
    problem: _Problem, *, work: int, matched: Callable[[int], bool] | None = None
) -> tuple[list[tuple[int, ...]], tuple[bool, ...]]:
    """The groups of the least cost found, best-placed group first, and for each level of
    the repeats whether no draw has fewer (given the levels before it)."""
    groups = _improve(problem, _greedy(problem))
    count = len(problem.units)
    if problem.n <= EXACT_SPREAD:
        search = _Exact(problem, spread=True, work=work)
        ended = search.run(groups)
        groups = sorted(search.best[1], key=lambda g: g[0])
        if ended:
            return groups, (True,) * count
        work = search.work if search.work > 0 else 0
    repeats = sum(problem.repeats(g) for g in groups)
    if not repeats:
        return groups, (True,) * count
    search = _Exact(problem, spread=False, work=work)
    if search.run(groups):
        found = search.best[1]
        if sum(problem.repeats(g) for g in found) < repeats:
            groups = _improve(problem, found)
        return groups, (True,) * count
    if sum(problem.repeats(g) for g in search.best[1]) < repeats:
        groups = _improve(problem, search.best[1])
    return groups, _proved(problem, groups, matched)


def _proved(
    problem: _Problem, groups: list[tuple[int, ...]], matched: Callable[[int], bool] | None
) -> tuple[bool, ...]:
    """Which levels of the draw's repeats the floor of the whole field proves least."""
    everyone = (1 << problem.n) - 1
    shares = [problem.shares(v, everyone, problem.n, problem.sizes[0]) for v in range(problem.n)]
    totals = [sum(level) for level in zip(*shares, strict=True)]
    floors = [-(-t // 2) for t in totals]
    got = problem.levels(sum(problem.repeats(g) for g in groups))
    proved = []
    for level, (value, floor) in enumerate(zip(got, floors, strict=True)):
        ok = value <= floor or (level == 0 and matched is not None and matched(value))
        # a later level is only proved least among draws as good on the earlier ones, which
        # the floor (over every draw) covers whatever the earlier levels are
        proved.append(ok)
    return tuple(proved)


# --- Individual tournaments -------------------------------------------------------------------


def pair_individuals(
    players: Sequence[int],
    past: Sequence[PastTable] = (),
    *,
    rng: int,
    standings: Sequence[int] | None = None,
    rests: Mapping[int, int] | None = None,
    tables: int | None = None,
    work: int = EXACT_WORK,
) -> IndividualDraw:
    """One round of an individual tournament (see the module docstring for the order of
    priority). ``players``: the ids of who plays; ``past``: the tables of earlier rounds;
    ``standings``: ids best first (None in round one: lots); ``rests``: rests so far per id;
    ``tables``: the tables available (None: no limit); ``work``: the exact search's budget."""
    ids = _check_players(players, 4)
    _check_tables(len(ids) // 4, tables)
    order = _order(ids, standings, rng)
    rested = set(_choose_rests(order, len(ids) % 4, rests or {}))
    playing = [p for p in order if p not in rested]
    place = {p: n for n, p in enumerate(playing)}
    hist = _History(past)
    partners = _by_place(hist.partners, place)
    problem = _Tables(len(playing), partners, _by_place(hist.opponents, place))

    def matched(repeats: int) -> bool:
        """Whether every draw repeats at least ``repeats`` partnerships: a draw's
        partnerships are a perfect matching, so it repeats at least one per pair of players
        that the largest matching of new partnerships leaves out."""
        n = problem.n
        mate = maximum_matching(
            n,
            lambda v: (u for u in range(n) if u != v and u not in partners[v]),
            [-1] * n,
            range(n),
        )
        return repeats <= sum(1 for m in mate if m == -1) // 2

    groups, proved = _partition(problem, work=work, matched=matched)
    partners_proved, opponents_proved = proved
    result, p_total, o_total = [], 0, 0
    for n, g in enumerate(groups, start=1):
        _, a, b = problem.split(g)
        if b[0] < a[0]:
            a, b = b, a
        p_times = partners[a[0]].get(a[1], 0) + partners[b[0]].get(b[1], 0)
        o_times = sum(problem.opponents.get(x, y) for x in a for y in b)
        p_total += p_times
        o_total += o_times
        reasons = _individual_reasons(p_times, o_times, partners_proved, opponents_proved)
        result.append(
            IndividualTable(
                n, (playing[a[0]], playing[a[1]]), (playing[b[0]], playing[b[1]]), reasons
            )
        )
    return IndividualDraw(
        tuple(result),
        tuple(p for p in order if p in rested),
        p_total,
        o_total,
        partners_proved,
        opponents_proved,
    )


def _individual_reasons(
    partners: int, opponents: int, partners_proved: bool, opponents_proved: bool
) -> tuple[Reason, ...]:
    reasons = []
    if partners:
        reasons.append(
            Reason(
                "partners_again" if partners_proved else "partners_again_best_found",
                {"times": partners},
            )
        )
    if opponents:
        reasons.append(
            Reason(
                "opponents_again" if opponents_proved else "opponents_again_best_found",
                {"times": opponents},
            )
        )
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


# --- Mus francés ------------------------------------------------------------------------------


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
    work: int = EXACT_WORK,
) -> IndividualDraw:
    """One round of Mus francés tables of ``size`` (see the module docstring); ``tables``: the
    tables available (None: no limit); ``work``: the exact search's budget."""
    ids = _check_players(players, 3)
    sizes = frances_table_sizes(len(ids), size)
    _check_tables(len(sizes), tables)
    order = _order(ids, standings, rng)
    place = {p: n for n, p in enumerate(order)}
    problem = _Seats(len(order), sizes, _by_place(_History(past).partners, place))
    groups, (proved,) = _partition(problem, work=work)
    result, met_total = [], 0
    for n, g in enumerate(groups, start=1):
        met = problem.repeats(g)
        met_total += met
        reasons = [Reason("frances_table", {"size": len(g)})]
        if met:
            reasons.append(
                Reason(
                    "tablemates_again" if proved else "tablemates_again_best_found",
                    {"times": met},
                )
            )
        result.append(IndividualTable(n, tuple(order[v] for v in g), (), tuple(reasons)))
    return IndividualDraw(tuple(result), (), met_total, 0, proved, True)
