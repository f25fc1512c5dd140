"""Swiss pairing, and "elimination after N lost matches" (a tres ceros) built on it.

Responsible for: the next round of a Swiss phase (`pair_swiss`) or of an elimination-after-N-
losses phase (`pair_lives`), from the entrants still playing and the results so far. The draw
is optimal: of all the ways to pair the round, it takes one that comes first by these rules,
in priority order (each one only decides among the draws the rules before it leave):

1. Everybody plays exactly once; with an odd field exactly one entrant has a bye.
2. No second bye while another entrant has had fewer: the bye goes to an entrant with the
   fewest byes, even when a bye to someone else would avoid a rematch (a bye is a free win;
   a rematch is only a repeated match). Such a rematch says so (``rematch_keeps_byes_even``).
3. The fewest rematches. A rematch is only drawn when no draw that keeps rule 2 avoids it
   (``rematch_unavoidable`` when not even a second bye would avoid it).
4. The narrowest *widest pairing*: the largest score difference (wins; for `pair_lives`,
   losses) of any pairing as small as possible, a bye counting as a pairing with the lowest
   score in the field. Where floating one group down at each odd cut is possible, the leader
   does not meet the last, even when that costs the same total difference.
5. The fewest pairings that wide.
6. The least total score difference: the sum over the pairings (the bye as in rule 4; so the
   bye goes to the bottom unless that costs more elsewhere).
7. The bye to the lowest-ranked entrant the rules above allow (``lowest_ranked_eligible``;
   otherwise ``bye_avoids_rematch`` or ``bye_avoids_score_gap`` says why it moved up).
8. Then, as tie-breaks: pairs that met fewer times, club-mates apart during the first
   ``separate_clubs_rounds`` rounds, and the Dutch ideal: inside a score group the top half
   meets the bottom half in order (1st v (n/2+1)th, …), a floater is the lowest of its group
   and meets the top of the next one.

Rules 4–6 are how Swiss rules weigh floats: the widest first, then how many are that wide (the
FIDE Dutch system compares the pairings' differences from the widest down), then the total.
Rules 1–7 are exact (a brute-force test over every draw of fields up to 12 entrants, and exact
matchings of whole fields up to 40, check them); rule 8 is best effort where the draw is built
by score groups (below).

How (and why it is fast): the draw is a minimum-cost perfect matching of a general graph (the
entrants, plus a bye vertex of the lowest score joined to the entrants with the fewest byes;
the cost of a pairing packs the rules into one integer, rematches first). Edmonds' weighted
matching (networkx) solves it exactly but in O(n³): 64 entrants in 0.1 s, 1,024 in minutes.
Rules 4–6 are not a sum over pairings, but once the widest gap D is known they are: a draw
with every pairing at most D apart minimises (pairings D apart, total), and a pairing wider
than D is forbidden. So the field is cut where the matching is known in advance:

- A cut between two neighbouring score groups with an odd number of entrants above it must be
  crossed by at least one pairing, one with an even number by none or at least two; a pairing
  across several groups counts each cut it crosses at its width (the score difference). Hence
  the *floors* of a run of groups: no draw pairs everybody within less than its widest odd
  cut (nor gives the bye less than the gap of the lowest eligible entrant); the total is at
  least the sum over its cuts of each width times the fewest pairings across it (the cut's
  parity, or more: as many as a maximum matching of the smaller side leaves out of it); the
  least of these, one across each odd cut, is the *bound*. With no pairing wider than D, a
  pairing across a cut D wide crosses nothing else, so at least as many pairings are D apart
  as must cross such cuts, and at least half of those a maximum matching of the pairings
  less than D apart leaves out (the pairings rematches force wide). The floors' matchings
  give up (and count nothing) after looking at `_WORK` pairings.
- The even cuts split the groups into *blocks*. Each block is drawn by the Dutch construction
  (score groups from the top, the lowest-ranked surplus floating down, each group split into
  halves and paired by a min-cost assignment, ``scipy.optimize.linear_sum_assignment``, and a
  general unweighted matching (Edmonds) where the halves cannot avoid a rematch). A block's
  least widest gap (among its draws with the fewest rematches) is the construction's when it
  has no rematch and reaches the floor, otherwise found by bisection over the gaps, a matching
  deciding each (an unweighted one when the block can avoid every rematch). The round's cap D
  is the largest of the blocks'. Each block is then drawn under D: the construction if it has
  no rematch, none wider than D and reaches the floors (the parities' first, the matchings'
  only if needed), the exact matching (pairings at most D apart) otherwise.
- Why drawing the blocks apart loses nothing: a draw better than theirs has fewer rematches;
  or as many and a narrower widest pairing (so none D apart, where the blocks' draws have at
  least one); or the same widest and fewer pairings D apart, or as many and a smaller total.
  Either way it is better in (rematches, pairings wider than D, pairings D apart, total),
  which is a sum over the blocks, on each of which the blocks' draws are the least; so it is
  better on some run of neighbouring blocks it pairs across. It crosses each even cut between
  them at least twice: if one is wider than D it has pairings wider than D; otherwise it has
  at least the run's floors of pairings D apart and of the total, counting two pairings
  across each crossed cut, and at least the fewest rematches of the run (an unweighted
  maximum matching, needed only when the run's draws have a rematch, and not at all when
  everybody in the run may meet at least half of it: Dirac's condition then gives a
  rematch-free draw). If no run's separate draws are worse than that, they are optimal;
  otherwise the smallest such run is merged into one block (its construction now proved by
  the better of the two floors), the cap is found again and the check repeats. Runs are
  tried smallest first, so a big one is only weighed when no smaller one is worse.

In big fields the blocks' constructions reach their floors and nothing is merged: 1,024
entrants in about 0.01 s, 4,096 in about 0.05–0.1 s a round through round 16 (CPU time,
`benchmarks/draw.py`). The exact matching runs on the parts that need it, which in practice
are the late rounds of small fields (16–65 entrants after up to 20 rounds: under 0.1 s a
round there). Fields with far more rounds than a Swiss plays are the slow case, as the rigid
top groups can pull whole neighbouring blocks into the exact matching (256 entrants after 13
rounds: up to about 1 s).

Table order: higher score groups first, then by ranking; table 1 is the best match. The bye is
listed last.

Must not: import Django, touch storage, or use randomness other than the ``rng`` passed in (it
only draws lots between entrants nothing else separates, when no ``standings`` are given).

Terms: *record* "3–1" is wins–losses in the phase, a bye counting as a win; *score group* is all
entrants with the same number of wins (for a tres ceros, the same number of losses — a cero is
a lost match, three ceros and you are out); *ranking* is the order in ``standings`` if given,
otherwise by seed, rating, then lot; to *float* is to be paired outside one's own group; a
*rematch* is a pairing of two entrants already paired in this phase (even if that match was
voided); a *cut* is the boundary between two neighbouring score groups, *odd* or *even* by the
number of entrants (the bye's vertex included) above it; a *block* is a run of score groups
between even cuts.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import NamedTuple

import numpy as np

from tournaments.draw.base import (
    DrawError,
    Entrant,
    Lot,
    Pairing,
    Result,
    initial_order,
    make_rng,
    validate_entrants,
)
from tournaments.draw.matching import (
    cheapest_assignment,
    cheapest_perfect_matching,
    maximum_matching,
)
from tournaments.draw.reasons import Reason

__all__ = ["Record", "lives_left", "next_round", "pair_lives", "pair_swiss", "records"]


@dataclass(frozen=True)
class Record:
    """An entrant's results so far in the phase. ``opponents`` has one item per pairing."""

    entrant_id: int
    wins: int = 0
    losses: int = 0
    byes: int = 0
    opponents: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.wins}–{self.losses}"


def next_round(history: Sequence[Result]) -> int:
    """The number of the round to draw: one after the last round in ``history``."""
    return max((r.round for r in history), default=0) + 1


def records(entrants: Sequence[Entrant], history: Sequence[Result]) -> dict[int, Record]:
    """Each entrant's `Record` from ``history``; results of other ids (withdrawn) are only
    counted as opponents met."""
    wins: Counter[int] = Counter()
    losses: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    opponents: dict[int, list[int]] = {e.id: [] for e in entrants}
    seen: set[tuple[int, int]] = set()
    for r in history:
        if r.a_id == r.b_id:
            raise DrawError(
                "Entrant {entrant} is paired with itself in round {round}.",
                code="history_self",
                entrant=r.a_id,
                round=r.round,
            )
        for who in (r.a_id, r.b_id):
            if who is None:
                continue
            if (r.round, who) in seen:
                raise DrawError(
                    "Entrant {entrant} appears twice in round {round}; correct the results of "
                    "that round.",
                    code="history_twice_in_round",
                    entrant=who,
                    round=r.round,
                )
            seen.add((r.round, who))
        if r.b_id is None:
            if r.winner_id not in (None, r.a_id):
                raise DrawError(
                    "Entrant {entrant} had a bye in round {round}, so the winner cannot be "
                    "{winner}.",
                    code="history_bye_winner",
                    entrant=r.a_id,
                    round=r.round,
                    winner=r.winner_id,
                )
            byes[r.a_id] += 1
            wins[r.a_id] += 1
            continue
        if r.winner_id is not None and r.winner_id not in (r.a_id, r.b_id):
            raise DrawError(
                "Round {round}: entrant {winner} did not play in the match between {a} and "
                "{b}; the winner must be one of them.",
                code="history_winner",
                round=r.round,
                winner=r.winner_id,
                a=r.a_id,
                b=r.b_id,
            )
        for me, other in ((r.a_id, r.b_id), (r.b_id, r.a_id)):
            if me in opponents:
                opponents[me].append(other)
        if r.winner_id is not None:
            wins[r.winner_id] += 1
            losses[r.b_id if r.winner_id == r.a_id else r.a_id] += 1
    return {
        e.id: Record(e.id, wins[e.id], losses[e.id], byes[e.id], tuple(opponents[e.id]))
        for e in entrants
    }


def pair_swiss(
    entrants: Sequence[Entrant],
    history: Sequence[Result],
    *,
    rng: Lot,
    standings: Sequence[int] | None = None,
    separate_clubs_rounds: int = 0,
) -> tuple[Pairing, ...]:
    """Pair the next Swiss round (see the module docstring for the rules).

    ``entrants``: those still playing (withdrawn entrants left out; their results may stay in
    ``history``). ``standings``: entrant ids best first, to rank entrants within a score group
    (e.g. by Buchholz); without it, by seed, rating, then lot. ``separate_clubs_rounds``: keep
    club-mates apart in rounds 1 to K.
    """
    entrants = validate_entrants(entrants)
    clubs = next_round(history) <= separate_clubs_rounds
    return _pair(entrants, records(entrants, history), _SWISS, rng, standings, clubs)


def lives_left(
    entrants: Sequence[Entrant], history: Sequence[Result], *, lives: int = 3
) -> dict[int, int]:
    """Matches each entrant can still lose before being out (0: out)."""
    return {i: max(lives - r.losses, 0) for i, r in records(entrants, history).items()}


def pair_lives(
    entrants: Sequence[Entrant],
    history: Sequence[Result],
    *,
    lives: int = 3,
    rng: Lot,
    standings: Sequence[int] | None = None,
    separate_clubs_rounds: int = 0,
) -> tuple[Pairing, ...]:
    """Pair the next round of an elimination after ``lives`` lost matches (a tres ceros: 3).

    Entrants with ``lives`` losses are out and left unpaired; the others are paired like a
    Swiss round whose score groups are the numbers of losses. Raises `DrawError` once fewer
    than two are left: the phase is over.
    """
    if lives < 1:
        raise DrawError(
            "Entrants must be allowed at least one lost match, not {lives}.",
            code="lives_too_few",
            lives=lives,
        )
    entrants = validate_entrants(entrants)
    recs = records(entrants, history)
    alive = [e for e in entrants if recs[e.id].losses < lives]
    if len(alive) < 2:
        raise DrawError(
            (
                "Only {count} entrant has fewer than {lives} losses: the phase is over.",
                "Only {count} entrants have fewer than {lives} losses: the phase is over.",
            ),
            code="lives_over",
            count=len(alive),
            lives=lives,
        )
    clubs = next_round(history) <= separate_clubs_rounds
    return _pair(alive, recs, _LIVES, rng, standings, clubs)


# --- The pairer -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scheme:
    """How a format groups entrants and words the group part of a pairing's reasons."""

    group: Callable[[Record], int]  # higher is a better group
    same: Callable[[Record], Reason]
    across: Callable[[Record, Record], Reason]


_SWISS = _Scheme(
    group=lambda r: r.wins,
    same=lambda r: Reason("same_score", {"score": r.label}),
    across=lambda hi, lo: Reason("float_down", {"score": hi.label, "opponent_score": lo.label}),
)
_LIVES = _Scheme(
    group=lambda r: -r.losses,
    same=lambda r: Reason("same_losses", {"losses": r.losses}),
    across=lambda hi, lo: Reason("loss_float", {"losses": hi.losses, "opponent_losses": lo.losses}),
)

Pair = tuple[int, int]

#: a matching for a floor looks at most at this many pairings (then the floor does without it)
_WORK = 100_000


class _Part(NamedTuple):
    """The draw of a block of score groups: its pairs, its bye (or None), the number of
    rematches, and how many of its pairings have each score gap (the bye counted as a pairing
    with the lowest score)."""

    pairs: list[Pair]
    bye: int | None
    rematches: int
    gaps: Counter[int]

    @property
    def widest(self) -> int:
        return max(self.gaps, default=0)

    @property
    def difference(self) -> int:
        return sum(gap * count for gap, count in self.gaps.items())

    def at(self, cap: int) -> int:
        """The pairings ``cap`` apart (none counted at 0: every pairing is then in a group)."""
        return self.gaps[cap] if cap else 0

    def cost(self, cap: int) -> tuple[int, int, int]:
        """What a draw whose pairings are all at most ``cap`` apart minimises, in order:
        rematches, pairings ``cap`` apart, total score difference."""
        return (self.rematches, self.at(cap), self.difference)


class _TooMuch(Exception):
    """A floor's matching looked at more pairings than it may."""


class _Block:
    """A run of score groups ``first`` … ``end`` − 1 drawn on its own, and what is known of
    its draws: the construction's, the least widest gap, the best draw under each cap."""

    def __init__(self, first: int, end: int) -> None:
        self.first, self.end = first, end
        self.built: _Part | None = None
        self.tried = False
        self.widest: int | None = None
        self.parts: dict[int, _Part] = {}
        #: cap -> a floor of (rematches, pairings at the cap, difference) of its draws whose
        #: pairings are all at most cap apart, from the draws of the blocks merged into it
        self.floors: dict[int, tuple[int, int, int]] = {}


def _pair(
    entrants: Sequence[Entrant],
    recs: Mapping[int, Record],
    scheme: _Scheme,
    rng: Lot,
    standings: Sequence[int] | None,
    clubs: bool,
) -> tuple[Pairing, ...]:
    ranked = _rank(entrants, recs, scheme, rng, standings)
    pairer = _Pairer(ranked, recs, scheme, clubs)
    pairs, bye = pairer.run()
    return pairer.pairings(pairs, bye)


def _rank(
    entrants: Sequence[Entrant],
    recs: Mapping[int, Record],
    scheme: _Scheme,
    rng: Lot,
    standings: Sequence[int] | None,
) -> list[Entrant]:
    if standings is None:
        base = initial_order(entrants, make_rng(rng))
    else:
        place = {entrant_id: i for i, entrant_id in enumerate(standings)}
        missing = sorted(e.id for e in entrants if e.id not in place)
        if missing:
            raise DrawError(
                (
                    "The standings do not list entrant {entrants}; rank every entrant that is "
                    "to be paired.",
                    "The standings do not list entrants {entrants}; rank every entrant that is "
                    "to be paired.",
                ),
                code="standings_missing",
                count=len(missing),
                entrants=missing,
            )
        base = sorted(entrants, key=lambda e: place[e.id])
    return sorted(base, key=lambda e: -scheme.group(recs[e.id]))  # stable: keeps the ranking


class _Pairer:
    """Pairs entrants given by rank index 0 (best) … n−1; works on indices throughout."""

    def __init__(
        self, ranked: Sequence[Entrant], recs: Mapping[int, Record], scheme: _Scheme, clubs: bool
    ) -> None:
        self.ids = [e.id for e in ranked]
        self.recs = [recs[e.id] for e in ranked]
        self.scheme = scheme
        index = {e.id: i for i, e in enumerate(ranked)}
        self.group = [scheme.group(r) for r in self.recs]
        self.met: list[Counter[int]] = [
            Counter(index[o] for o in r.opponents if o in index) for r in self.recs
        ]
        self.byes = [r.byes for r in self.recs]
        self.clubs = clubs
        names = sorted({e.club for e in ranked if e.club is not None})
        code = {name: k for k, name in enumerate(names)}
        self.club_names = [e.club for e in ranked]
        self.club = np.array(
            [code[e.club] if clubs and e.club is not None else -1 for e in ranked], dtype=np.int64
        )

    # --- Whole round --------------------------------------------------------------------------

    def run(self) -> tuple[list[Pair], int | None]:
        """The pairs and the bye (or None) of the best draw (see the module docstring)."""
        n = len(self.ids)
        self.dummy = n if n % 2 else None
        fewest = min(self.byes)
        self.eligible = [b == fewest for b in self.byes]
        self.score = self.group + ([min(self.group)] if n % 2 else [])
        everyone = list(range(n)) + ([n] if n % 2 else [])
        self.groups = [list(g) for _, g in groupby(everyone, key=lambda v: self.score[v])]
        self.position = {}
        for members in self.groups:
            real = [v for v in members if v != self.dummy]
            for k, v in enumerate(real):
                self.position[v] = (k, len(real))
        above = list(itertools.accumulate(len(g) for g in self.groups))[:-1]
        self.odd_cut = [count % 2 == 1 for count in above]
        self.width = [
            self.score[self.groups[k][0]] - self.score[self.groups[k + 1][0]]
            for k in range(len(above))
        ]
        self.fewest: dict[tuple[int, int], int] = {}
        self.narrow: dict[tuple[int, int, int, bool], int] = {}
        self.deficit: dict[tuple[int, int, int, bool], int] = {}
        self.count = [0, *itertools.accumulate(len(g) for g in self.groups)]
        # Blocks: runs of score groups between even cuts, each solved on its own ...
        bounds = [0] + [k + 1 for k, odd in enumerate(self.odd_cut) if not odd]
        blocks = [
            _Block(a, b) for a, b in zip(bounds, [*bounds[1:], len(self.groups)], strict=True)
        ]
        while True:
            # ... under the least widest gap that every block's draw needs ...
            cap = max(self._widest(block) for block in blocks)
            parts = [self._solve(block, cap) for block in blocks]
            # ... unless a draw that pairs across the cuts between some of them could be better.
            run = self._run_to_merge(blocks, parts, cap)
            if run is None:
                break
            i, j = run
            merged = _Block(blocks[i].first, blocks[j].end)
            merged.floors[cap] = self._merged_floor(blocks[i : j + 1], parts[i : j + 1], cap)
            blocks[i : j + 1] = [merged]
        pairs = [p for part in parts for p in part.pairs]
        bye = next((part.bye for part in parts if part.bye is not None), None)
        return pairs, bye

    # --- Blocks of score groups ---------------------------------------------------------------

    def _members(self, first: int, end: int) -> list[int]:
        return [v for g in self.groups[first:end] for v in g]

    def _gap(self, a: int, b: int) -> int:
        return abs(self.score[a] - self.score[b])

    def _odd_widths(self, first: int, end: int) -> list[int]:
        """The widths of the odd cuts inside groups ``first`` … ``end`` − 1."""
        return [
            w
            for w, odd in zip(
                self.width[first : end - 1], self.odd_cut[first : end - 1], strict=True
            )
            if odd
        ]

    def _bye_gap(self, first: int, end: int) -> int:
        """The least gap of the bye's pairing in a draw of the groups: the bye to the eligible
        entrant of the lowest score among them (0 without the bye's vertex)."""
        if self.dummy is None or end < len(self.groups):
            return 0
        low = [
            self.score[v] for v in self._members(first, end) if v != self.dummy and self.eligible[v]
        ]
        return min(low, default=self.score[self.dummy]) - self.score[self.dummy]

    def _widest_floor(self, first: int, end: int) -> int:
        """No draw of the groups pairs everybody within less: each odd cut is crossed, and
        the bye goes to an eligible entrant."""
        return max([*self._odd_widths(first, end), self._bye_gap(first, end)])

    def _floor(
        self,
        first: int,
        end: int,
        cap: int,
        start: Sequence[Pair],
        *,
        crossed: frozenset[int] = frozenset(),
        clean: bool = True,
        deficits: bool = True,
    ) -> tuple[int, int]:
        """Floors of the pairings ``cap`` apart and of the total score difference of a draw
        of groups ``first`` … ``end`` − 1 with no pairing wider than ``cap`` (nor a rematch if
        ``clean``) that pairs across the cuts in ``crossed``: a pairing's difference is the
        sum of the widths of the cuts it crosses, so the total is at least each cut's width
        times the fewest pairings across it (`_crossings`; two across a crossed cut); and a
        pairing across a cut ``cap`` wide crosses nothing else, so there are at least as many
        pairings ``cap`` apart as cross such cuts (at least one if the bye needs that gap).
        Without ``deficits``, only the cuts' parities (no matching)."""
        at_cap = total = 0
        for k in range(first, end - 1):
            if deficits:
                count = self._crossings(first, end, k, cap, start, clean)
            else:
                count = int(self.odd_cut[k])
            if k in crossed:
                count = max(count, 2)
            total += self.width[k] * count
            if self.width[k] == cap:
                at_cap += count
        if cap and self._bye_gap(first, end) == cap:
            at_cap = max(at_cap, 1)
        return at_cap, total

    def _crossings(
        self, first: int, end: int, k: int, cap: int, start: Sequence[Pair], clean: bool
    ) -> int:
        """The fewest pairings across cut ``k`` of such a draw: one if the cut is odd (an
        even number if even), and at least as many as a maximum matching of one side (of at
        the smaller) leaves out of it, each of whom is paired across."""
        odd = count = int(self.odd_cut[k])
        side = min((first, k + 1), (k + 1, end), key=lambda r: self.count[r[1]] - self.count[r[0]])
        key = (*side, cap, clean)
        if key not in self.deficit:
            members = self._members(*side)
            self.deficit[key] = self._unmatched(members, cap, start, clean=clean, work=_WORK)
        count = max(count, self.deficit[key])
        return count + (count - odd) % 2

    def _built(self, block: _Block) -> _Part | None:
        if not block.tried:
            block.built = self._construct(self._members(block.first, block.end))
            block.tried = True
        return block.built

    def _widest(self, block: _Block) -> int:
        """The least widest gap of the block's draws with the fewest rematches."""
        if block.widest is None:
            floor = self._widest_floor(block.first, block.end)
            built = self._built(block)
            if built is not None and built.widest == floor:
                block.widest = floor
            else:
                block.widest = self._narrowest(block, floor, built)
        return block.widest

    def _narrowest(self, block: _Block, floor: int, built: _Part | None) -> int:
        """The least cap at which a draw of the block has its fewest rematches, by bisection
        over the gaps between its groups (a matching decides each)."""
        members = self._members(block.first, block.end)
        fewest = self._fewest_of(block.first, block.end, built.pairs if built else ())
        if fewest >= len(self.ids):  # no draw at all: the bye cannot be given here
            return floor
        scores = sorted({self.score[g[0]] for g in self.groups[block.first : block.end]})
        gaps = sorted({a - b for a in scores for b in scores if a - b >= floor})
        lo, hi = 0, len(gaps) - 1
        if built is not None and fewest == 0:
            hi = gaps.index(built.widest)
        start = (
            []
            if built is None
            else [*built.pairs, *([(built.bye, self.dummy)] if built.bye is not None else [])]
        )
        while lo < hi:
            mid = (lo + hi) // 2
            if self._within(members, gaps[mid], fewest, start):
                hi = mid
            else:
                lo = mid + 1
        return gaps[lo]

    def _within(self, members: list[int], cap: int, fewest: int, start: Sequence[Pair]) -> bool:
        """Whether some draw of ``members`` has ``fewest`` rematches and no pairing wider
        than ``cap`` (the bye to an eligible entrant)."""
        if fewest:

            def cost(u: int, v: int) -> int | None:
                a, b = members[u], members[v]
                if self._gap(a, b) > cap:
                    return None
                if b == self.dummy:
                    return 0 if self.eligible[a] else None
                return int(self._rematch(a, b))

            chosen = cheapest_perfect_matching(len(members), cost)
            if chosen is None:
                return False
            return sum(cost(u, v) for u, v in chosen) <= fewest
        # Without rematches: a perfect matching of the pairs allowed.
        return not self._unmatched(members, cap, start)

    def _unmatched(
        self,
        members: list[int],
        cap: int,
        start: Sequence[Pair],
        *,
        clean: bool = True,
        work: int | None = None,
    ) -> int:
        """How many of ``members`` a maximum matching of the pairings at most ``cap`` apart
        leaves out (only rematch-free ones if ``clean``; the bye's vertex only with an
        eligible entrant), grown from the pairs of ``start`` that it allows. With ``work``,
        after looking at that many pairings it stops and says 0 (a floor, still)."""
        n = len(members)
        local = {v: k for k, v in enumerate(members)}
        score = [self.score[v] for v in members]
        mate = [-1] * n
        for a, b in start:
            if a in local and b in local and self._allowed(a, b, cap, clean):
                mate[local[a]], mate[local[b]] = local[b], local[a]
        descending = [-x for x in score]  # members are in rank order: best score first
        low = [bisect_left(descending, -(x + cap)) for x in score]
        high = [bisect_right(descending, -(x - cap)) for x in score]

        looked = [0]

        def neighbours(v: int) -> Iterator[int]:
            me = members[v]
            looked[0] += high[v] - low[v]
            if work is not None and looked[0] > work:
                raise _TooMuch
            for u in range(low[v], high[v]):
                if u != v and self._allowed(me, members[u], cap, clean):
                    yield u

        try:
            mate = maximum_matching(n, neighbours, mate, range(n))
        except _TooMuch:
            return 0
        return sum(1 for m in mate if m == -1)

    def _allowed(self, a: int, b: int, cap: int, clean: bool = True) -> bool:
        """Whether a v b may be paired with no gap above ``cap`` (and no rematch if
        ``clean``)."""
        if self._gap(a, b) > cap:
            return False
        if a == self.dummy or b == self.dummy:
            return self.eligible[b if a == self.dummy else a]
        return not (clean and self._rematch(a, b))

    def _narrow_floor(
        self, first: int, end: int, cap: int, start: Sequence[Pair], *, clean: bool
    ) -> int:
        """The fewest pairings ``cap`` apart of a draw of the groups with none wider (and no
        rematch if ``clean``): its other pairings are a matching of pairings less than ``cap``
        apart, so it has at least half of those a maximum matching of them leaves out. (It
        counts the pairings a rematch forces wide, which the odd cuts do not.)"""
        if not cap:
            return 0
        key = (first, end, cap, clean)
        if key not in self.narrow:
            members = self._members(first, end)
            left = self._unmatched(members, cap - 1, start, clean=clean, work=_WORK)
            self.narrow[key] = left // 2
        return self.narrow[key]

    def _solve(self, block: _Block, cap: int) -> _Part:
        """The best draw of ``block`` alone with no pairing wider than ``cap``: the
        score-group construction if it reaches the block's floor (no draw of the block is
        better), the exact matching otherwise."""
        part = block.parts.get(cap)
        if part is None:
            first, end = block.first, block.end
            built = self._built(block)
            part = None
            if built is not None and built.widest <= cap:
                # The construction is the best draw if it reaches a floor: the cuts' parities
                # first, then (only if needed) what matchings of the cuts' sides add.
                floor = block.floors.get(cap) or (
                    0,
                    *self._floor(first, end, cap, built.pairs, deficits=False),
                )
                if built.cost(cap) > floor:
                    floor = max(floor, (0, *self._floor(first, end, cap, built.pairs)))
                    narrow = self._narrow_floor(first, end, cap, built.pairs, clean=True)
                    floor = (floor[0], max(floor[1], narrow), floor[2])
                if built.cost(cap) <= floor:
                    part = built
            if part is None:
                part = self._exact(self._members(first, end), cap)
            block.parts[cap] = part
        return part

    def _merged_floor(
        self, blocks: Sequence[_Block], parts: Sequence[_Part], cap: int
    ) -> tuple[int, int, int]:
        """A floor of the draws of the blocks merged, none wider than ``cap``: either they
        pair no one across the cuts between the blocks, and cost at least the blocks' own
        best draws together, or they pair across one of those even cuts at least twice, so
        cost at least the bounds plus twice its width (and two pairings more at the cap if it
        is that wide), with at least the fewest rematches of the merged groups."""
        first, end = blocks[0].first, blocks[-1].end
        separate = (
            sum(p.rematches for p in parts),
            sum(p.at(cap) for p in parts),
            sum(p.difference for p in parts),
        )
        start = self._pairs(parts)
        fewest = self._fewest_of(first, end, start)
        across = [
            (fewest, *self._floor(first, end, cap, start, crossed=frozenset({k}), clean=not fewest))
            for k in (b.end - 1 for b in blocks[:-1])
            if self.width[k] <= cap
        ]
        if across:
            narrow = self._narrow_floor(first, end, cap, start, clean=not fewest)
            across = [(r, max(c, narrow), t) for r, c, t in across]
            return min(separate, *across)
        if fewest < separate[0]:  # fewer rematches only across a cut wider than the cap
            return (fewest, *self._floor(first, end, cap, start, clean=False))
        return separate

    def _pairs(self, parts: Sequence[_Part]) -> list[Pair]:
        """The pairs of ``parts``, the bye as a pair with the bye's vertex."""
        pairs = [p for part in parts for p in part.pairs]
        pairs += [(part.bye, self.dummy) for part in parts if part.bye is not None]
        return pairs  # type: ignore[misc]

    def _part(self, pairs: list[Pair], bye: int | None) -> _Part:
        gaps = Counter(self._gap(i, j) for i, j in pairs)
        if bye is not None:
            gaps[self._gap(bye, self.dummy)] += 1
        return _Part(pairs, bye, sum(self._rematch(i, j) for i, j in pairs), gaps)

    def _construct(self, members: list[int]) -> _Part | None:
        """The Dutch construction (score groups from the top, floaters, halves), with the bye
        to the lowest-ranked eligible entrant; None if it cannot pair without a rematch."""
        real = [v for v in members if v != self.dummy]
        bye = None
        if self.dummy in members:
            bye = next((v for v in reversed(real) if self.eligible[v]), None)
            if bye is None:
                return None
            real.remove(bye)
        pairs = self._complete(real)
        if pairs is None:
            return None
        return self._part(pairs, bye)

    def _exact(self, members: list[int], cap: int) -> _Part:
        """The least-cost draw of ``members`` with no pairing wider than ``cap``, by a
        minimum-cost perfect matching, its cost in order of priority: rematches, pairings at
        the cap, score difference, the bye's rank (lowest first), times met, club-mates
        meeting, distance from the Dutch ideal."""
        size = len(members)
        span = self.score[members[0]] - self.score[members[-1]]
        most_met = max(
            (max(self.met[v].values(), default=0) for v in members if v < len(self.ids)), default=0
        )
        levels = (  # each level's total over a whole draw stays below the next level's unit
            size + 1,
            size * span + 1,
            len(self.ids) + 1,
            size * most_met + 1,
            size + 1,
            size**3 + 1,
        )

        def cost(u: int, v: int) -> int | None:
            a, b = members[u], members[v]  # a ranks above b; the bye's vertex is last
            gap = self.score[a] - self.score[b]
            if gap > cap:
                return None
            if b == self.dummy:
                if not self.eligible[a]:
                    return None
                terms = (0, int(0 < gap == cap), gap, len(self.ids) - 1 - a, 0, 0, 0)
            else:
                terms = (
                    int(self._rematch(a, b)),
                    int(0 < gap == cap),
                    gap,
                    0,
                    self.met[a][b],
                    int(self._same_club(a, b)),
                    self._ideal(a, b),
                )
            total = terms[0]
            for unit, term in zip(levels, terms[1:], strict=True):
                total = total * unit + term
            return total

        chosen = cheapest_perfect_matching(size, cost)
        if chosen is None:  # the bye cannot go to anyone in these groups
            return _Part([], None, len(self.ids), Counter())
        pairs: list[Pair] = []
        bye = None
        for u, v in chosen:
            a, b = members[u], members[v]
            if b == self.dummy:
                bye = a
            else:
                pairs.append((a, b))
        return self._part(pairs, bye)

    def _ideal(self, a: int, b: int) -> int:
        """How far a v b (a ranked above b) is from the Dutch ideal: in one group, top half v
        bottom half in order; across groups, the lowest of the upper group v the top of the
        lower one."""
        (pa, na), (pb, _) = self.position[a], self.position[b]
        if self.group[a] == self.group[b]:
            return (pb - pa - na // 2) ** 2
        return (na - 1 - pa) ** 2 + pb**2

    def _run_to_merge(
        self, blocks: list[_Block], parts: list[_Part], cap: int
    ) -> tuple[int, int] | None:
        """The smallest run of neighbouring blocks whose joint draw might beat their separate
        ones under ``cap``, or None when the separate draws are together optimal.

        A draw that pairs across the cut between two blocks pairs across it at least twice
        (the cut is even). If that cut is wider than the cap, such a draw is wider than the
        separate draws; otherwise it has at least the run's odd cuts' pairings at the cap
        plus two for each crossed cut that wide, and a score difference of at least the
        run's bound plus twice each crossed cut's width; and it has at least the fewest
        rematches of the run. If no run's separate draws are worse than that, nothing beats
        them. Ties are broken by the bye's rank, so a tie is worse when the bye is not
        already with the lowest-ranked eligible entrant.
        """
        runs = sorted(
            ((i, j) for i in range(len(blocks)) for j in range(i + 1, len(blocks))),
            key=lambda run: (blocks[run[1]].end - blocks[run[0]].first, run),
        )
        for i, j in runs:
            run = parts[i : j + 1]
            first, end = blocks[i].first, blocks[j].end
            widths = [self.width[blocks[k].end - 1] for k in range(i, j)]
            rematches = sum(p.rematches for p in run)
            if max(widths) <= cap:
                inner = frozenset(blocks[k].end - 1 for k in range(i, j))
                start = self._pairs(run)
                separate = (sum(p.at(cap) for p in run), sum(p.difference for p in run))
                # A draw as good could still give the bye lower down: then it is tried too.
                bye = next((p.bye for p in run if p.bye is not None), None)
                lowest = bye is None or not any(self.eligible[bye + 1 : len(self.ids)])

                def worse(floor: tuple[int, int], separate=separate, lowest=lowest) -> bool:
                    return floor < separate or (floor == separate and not lowest)

                clean = not rematches
                floor = self._floor(first, end, cap, start, crossed=inner, deficits=False)
                if worse(floor):  # what the cuts' sides force, and the pairings forced wide
                    floor = self._floor(first, end, cap, start, crossed=inner, clean=clean)
                    narrow = self._narrow_floor(first, end, cap, start, clean=clean)
                    if worse((max(floor[0], narrow), floor[1])):
                        return i, j
            if rematches and self._fewest_of(first, end, self._pairs(run)) < rematches:
                return i, j
        return None

    def _fewest_of(self, first: int, end: int, start: Sequence[Pair] = ()) -> int:
        """The fewest rematches of any draw of groups ``first`` … ``end`` − 1 (remembered);
        none when every entrant among them may be paired with at least half of them (Dirac:
        the pairings allowed then hold a cycle through everybody)."""
        key = (first, end)
        if key not in self.fewest:
            members = self._members(first, end)
            if self._dirac(members):
                self.fewest[key] = 0
            else:
                self.fewest[key] = self._fewest_rematches(members, start)
        return self.fewest[key]

    def _dirac(self, members: list[int]) -> bool:
        """Whether each of ``members`` (an even number) may be paired with at least half of
        them: not met before, and the bye's vertex only with an eligible entrant."""
        m = len(members)
        if m < 4:
            return False
        inside = set(members)
        eligible = sum(1 for v in members if v != self.dummy and self.eligible[v])
        for v in members:
            if v == self.dummy:
                allowed = eligible
            else:
                allowed = m - 1 - sum(1 for o in self.met[v] if o in inside)
                if self.dummy in inside and not self.eligible[v]:
                    allowed -= 1
            if 2 * allowed < m:
                return False
        return True

    def _fewest_rematches(
        self, members: list[int], start: Sequence[Pair] = (), *, any_bye: bool = False
    ) -> int:
        """The fewest rematches of any draw of ``members`` (the bye, if its vertex is among
        them, to an eligible entrant, or to anyone with ``any_bye``); len(ids) if none can
        be drawn. The maximum matching is grown from the rematch-free pairs of ``start``."""
        n = len(members)
        real = len(self.ids)
        local = {v: k for k, v in enumerate(members)}
        mate = [-1] * n
        for a, b in start:
            if a in local and b in local and (b == self.dummy or not self._rematch(a, b)):
                mate[local[a]], mate[local[b]] = local[b], local[a]

        def neighbours(v: int) -> Iterator[int]:
            me = members[v]
            for u in range(n):
                other = members[u]
                if u == v:
                    continue
                if me == self.dummy or other == self.dummy:
                    bye_to = other if me == self.dummy else me
                    if any_bye or self.eligible[bye_to]:
                        yield u
                elif other not in self.met[me]:
                    yield u

        if self.dummy in local and mate[local[self.dummy]] == -1:
            # Cover the bye's vertex first (taking its neighbour from its partner keeps the
            # matching's size): growing a matching never uncovers a vertex, so the maximum
            # reached is one in which the bye goes to an entrant allowed to have it.
            d = local[self.dummy]
            u = next(neighbours(d), None)
            if u is None:
                return real
            if mate[u] != -1:
                mate[mate[u]] = -1
            mate[u], mate[d] = d, u
        mate = maximum_matching(n, neighbours, mate, range(n))
        left = [members[v] for v in range(n) if mate[v] == -1]
        if self.dummy in left:
            return real
        return len(left) // 2

    def _complete(self, pool: list[int]) -> list[Pair] | None:
        """A rematch-free pairing of ``pool`` (rank order), or None if there is none."""
        pairs, floaters, snapshots, groups = self._by_groups(pool)
        if not floaters:
            return pairs
        # Reopen groups from the bottom up: keep the pairs made above group g, pair the rest
        # (the floaters into g and every group from g down) as one general matching.
        for g in reversed(range(len(groups))):
            kept, into = snapshots[g]
            rest = sorted(into + [i for members in groups[g:] for i in members])
            mate = self._maximum(rest, pairs[kept:])
            if all(mate[v] != -1 for v in range(len(rest))):
                return pairs[:kept] + _pairs_of(rest, mate)
        return None

    # --- Score groups, top down ---------------------------------------------------------------

    def _by_groups(
        self, pool: list[int]
    ) -> tuple[list[Pair], list[int], list[tuple[int, list[int]]], list[list[int]]]:
        groups = [list(g) for _, g in groupby(pool, key=lambda i: self.group[i])]
        pairs: list[Pair] = []
        floaters: list[int] = []
        snapshots: list[tuple[int, list[int]]] = []
        for members in groups:
            snapshots.append((len(pairs), floaters))
            made, floaters = self._pair_group(floaters, members)
            pairs.extend(made)
        return pairs, floaters, snapshots, groups

    def _pair_group(
        self, floaters: list[int], residents: list[int]
    ) -> tuple[list[Pair], list[int]]:
        """Pairs for one score group and who floats on down (in rank order)."""
        everyone = floaters + residents
        tried: list[Pair] = []
        if floaters and len(floaters) <= len(residents):
            # Floaters meet the top of the group first, the rest is paired in halves.
            made, rest, clean = self._assign(floaters, residents)
            tried = made
            if clean:
                more, left, clean = self._halves(rest)
                tried = made + more
                if clean:
                    return tried, left
        else:
            tried, left, clean = self._halves(everyone)
            if clean:
                return tried, left
        return self._general(everyone, tried)

    def _halves(self, members: list[int]) -> tuple[list[Pair], list[int], bool]:
        half = len(members) // 2
        return self._assign(members[:half], members[half:])

    def _assign(self, rows: list[int], cols: list[int]) -> tuple[list[Pair], list[int], bool]:
        """Cheapest pairing of every row with a distinct column, ideal rows[i] v cols[i].

        Returns the pairs, the unused columns, and whether no pair is a rematch.
        """
        if not rows:
            return [], list(cols), True
        ideal = list(zip(rows, cols, strict=False))
        if not any(self._rematch(i, j) or self._same_club(i, j) for i, j in ideal):
            return ideal, list(cols[len(rows) :]), True
        chosen = cheapest_assignment(self._cost(rows, cols))
        pairs = [(rows[r], cols[c]) for r, c in chosen]
        used = {c for _, c in chosen}
        unused = [col for c, col in enumerate(cols) if c not in used]
        return pairs, unused, not any(self._rematch(i, j) for i, j in pairs)

    def _cost(self, rows: list[int], cols: list[int]) -> np.ndarray:
        k, m = len(rows), len(cols)
        r = np.arange(k, dtype=np.float64)[:, None]
        c = np.arange(m, dtype=np.float64)[None, :]
        cost = ((c - r) / m) ** 2  # distance from the S1 v S2 ideal: under 1 per pair
        club_cost = k + 1.0  # more than every distance together
        rematch_cost = club_cost * (k + 1)  # more than every club clash together
        if self.clubs:
            rc, cc = self.club[rows][:, None], self.club[cols][None, :]
            cost += club_cost * ((rc == cc) & (rc >= 0))
        position = {col: j for j, col in enumerate(cols)}
        met_r, met_c = [], []
        for a, i in enumerate(rows):
            for o in self.met[i]:
                j = position.get(o)
                if j is not None:
                    met_r.append(a)
                    met_c.append(j)
        cost[met_r, met_c] += rematch_cost
        return cost

    def _general(self, members: list[int], tried: list[Pair]) -> tuple[list[Pair], list[int]]:
        """Pair as many of ``members`` as possible without a rematch, across the halves;
        floaters (listed first) are kept if they can be, then the higher-ranked."""
        members = list(members)  # floaters first, then residents, each in rank order
        clean = [(i, j) for i, j in tried if not self._rematch(i, j)]
        mate = self._maximum(members, clean)
        left = [members[v] for v in range(len(members)) if mate[v] == -1]
        return _pairs_of(members, mate), left

    # --- General matching ---------------------------------------------------------------------

    def _maximum(self, members: list[int], start: list[Pair]) -> list[int]:
        """A maximum rematch-free matching of ``members`` (local indices), grown from the
        pairs in ``start`` that lie inside ``members``, trying vertices in list order."""
        local = {g: v for v, g in enumerate(members)}
        mate = [-1] * len(members)
        for i, j in start:
            if i in local and j in local:
                mate[local[i]] = local[j]
                mate[local[j]] = local[i]
        n = len(members)

        def neighbours(v: int) -> Iterator[int]:
            me = members[v]
            met = self.met[me]
            clashing = []
            for d in range(1, n):
                for u in (v + d, v - d):
                    if 0 <= u < n and members[u] not in met:
                        if self._same_club(me, members[u]):
                            clashing.append(u)
                        else:
                            yield u
            yield from clashing

        return maximum_matching(n, neighbours, mate, range(n))

    # --- Tests between two entrants -----------------------------------------------------------

    def _rematch(self, i: int, j: int) -> bool:
        return j in self.met[i]

    def _same_club(self, i: int, j: int) -> bool:
        return self.clubs and self.club[i] >= 0 and self.club[i] == self.club[j]

    # --- Output -------------------------------------------------------------------------------

    def pairings(self, pairs: list[Pair], bye: int | None) -> tuple[Pairing, ...]:
        ordered = sorted((min(p), max(p)) for p in pairs)
        fewest = min(self.byes)
        rematches = sum(self._rematch(i, j) for i, j in pairs)
        # Fewer rematches only with a second bye for someone: the bye rule came first.
        for_byes = (
            rematches > 0
            and bye is not None
            and self._fewest_rematches(
                list(range(len(self.ids) + 1)), [*pairs, (bye, self.dummy)], any_bye=True
            )
            < rematches
        )
        group_clubs = Counter((self.group[i], self.club[i]) for i in range(len(self.ids)))

        def has_mate_in_group(i: int) -> bool:
            return self.club[i] >= 0 and group_clubs[self.group[i], self.club[i]] > 1

        result = []
        for n, (i, j) in enumerate(ordered, start=1):
            reasons = []
            if self.group[i] == self.group[j]:
                reasons.append(self.scheme.same(self.recs[i]))
            else:
                reasons.append(self.scheme.across(self.recs[i], self.recs[j]))
            if self._rematch(i, j):
                times = {"times": self.met[i][j]}
                if for_byes:
                    reasons.append(Reason("rematch_keeps_byes_even", times))
                else:
                    reasons.append(Reason("rematch_unavoidable", times))
            else:
                reasons.append(Reason("not_met_before"))
            if self._same_club(i, j):
                reasons.append(Reason("same_club_unavoidable", {"club": self.club_names[i]}))
            elif self.clubs and (has_mate_in_group(i) or has_mate_in_group(j)):
                reasons.append(Reason("same_club_avoided"))
            if bye is not None and any(k > bye and self.byes[k] > fewest for k in (i, j)):
                reasons.append(Reason("avoids_second_bye"))
            result.append(Pairing(n, self.ids[i], self.ids[j], tuple(reasons)))
        if bye is not None:
            reasons = [
                Reason("bye"),
                self._why_this_bye(bye, pairs),
                Reason("first_bye")
                if fewest == 0
                else Reason("every_entrant_had_bye", {"byes": fewest}),
            ]
            result.append(Pairing(len(result) + 1, self.ids[bye], None, tuple(reasons)))
        return tuple(result)

    def _why_this_bye(self, bye: int, pairs: list[Pair]) -> Reason:
        """``lowest_ranked_eligible``, or why every eligible entrant ranked lower was passed
        over: each would have forced more rematches (``bye_avoids_rematch``), or some only a
        larger score difference (``bye_avoids_score_gap``)."""
        lower = [v for v in range(bye + 1, len(self.ids)) if self.eligible[v]]
        if not lower:
            return Reason("lowest_ranked_eligible")
        everyone = range(len(self.ids))
        rematches = sum(self._rematch(i, j) for i, j in pairs)

        def fewest_with_bye_to(c: int) -> int:
            start = [p for p in pairs if c not in p]  # the draw's pairs, grown from
            return self._fewest_rematches([v for v in everyone if v != c], start)

        if all(fewest_with_bye_to(c) > rematches for c in lower):
            return Reason("bye_avoids_rematch")
        return Reason("bye_avoids_score_gap")


def _pairs_of(members: list[int], mate: list[int]) -> list[Pair]:
    return [(members[v], members[u]) for v, u in enumerate(mate) if u > v]
