"""Standings of one phase or group of a Mus tournament, as a pure function of its matches.

Responsible for: turning the decided matches of a phase (or of one group of it) and the
tournament's chosen tiebreak order into ranked rows, saying for each row which tiebreak put it
below the row above, and rejecting records that cannot be right (`StandingsError`).

Must not: import Django or any other module of ``scoring`` (it stays importable on its own),
touch the database, the clock or a random source (the draw of lots is by seed, never by chance),
or change its inputs: values in, new values out.

Mus terms used here:

- pareja (pair): the two players who play every hand together; the unit that is ranked. A pair
  is identified by an ``int`` (the caller's primary key).
- piedras (stones): the points of a juego; a juego is won by the first pair to reach the target,
  40 or 30 piedras depending on the format.
- juego / partida (game): counted in ``games_a`` and ``games_b``.
- vaca: a group of juegos (e.g. best of three); a match is won by winning the vacas it needs.
  Standings do not count vacas, only juegos and piedras, and the winner of a match is given, not
  derived: with vacas a pair can win the match with fewer juegos than it lost, so no check ties
  ``winner`` to the game count.
- Buchholz: for Swiss phases, the sum of the matches won by every opponent a pair has faced.

How a match counts (`MatchRecord.kind`):

- ``played`` with a winner: one match played by both pairs, won by ``winner``; juegos and piedras
  are counted as recorded.
- ``played`` with ``winner=None`` (not decided yet, or voided by the organizer): validated, then
  ignored entirely: not played, no juegos or piedras, no opponent for Buchholz or head-to-head.
- ``forfeit``: the present pair (``winner``, required) wins; the caller records the format's full
  score for it. Both pairs are charged a played match, so it counts like a match the absent pair
  lost: in head-to-head, and as an opponent faced for both pairs' Buchholz.
- ``double_loss``: neither pair played (a league match not played by its deadline); ``winner``
  must be ``None``. Both pairs are charged a played match and neither wins it; the juegos and
  piedras recorded (normally 0) count as for a played match. They count as met (head-to-head
  sees a match neither won) and as opponents faced for Buchholz.
- ``bye``: ``pair_b`` is ``None`` and ``winner`` must be ``pair_a``; it counts as a match played
  and won with the full score the caller records in ``games_a``/``stones_a``
  (``games_b``/``stones_b`` must be 0). It has no opponent, so it adds 0 to Buchholz and plays no
  part in head-to-head.

Ranking (`standings`): pairs are compared by the tiebreaks of ``order`` in turn; the first one
is the primary sort (usually ``MATCHES_WON``), and nothing is implied before it. Pairs still equal
after the whole order share a rank (competition ranking: 1, 2, 2, 4) and are listed in the order
of ``entries``, so the caller chooses how ties are displayed (by name, by id).

- ``MATCHES_WON``, ``GAMES_WON``, ``STONES_WON``, ``BUCHHOLZ``: more is better.
- ``POINTS``: the points of the tournament's points table (`PointsTable`: so many for a match
  won, for a match lost, for a match lost by not showing up), more is better. A bye is a match
  won; a forfeit's absent pair and both pairs of a double loss lose by not showing up. Without
  a table a match won is one point and nothing else scores, so it orders as ``MATCHES_WON``.
- ``GAME_DIFFERENCE`` / ``STONE_DIFFERENCE``: juegos (piedras) won minus lost, more is better.
- ``BUCHHOLZ``: sum, over every decided match against an opponent, of that opponent's matches won
  (its own byes and forfeit wins included). An opponent met twice counts twice; byes add 0.
- ``HEAD_TO_HEAD``: a mini-league among exactly the pairs still level when it is reached: each
  pair's matches won against the others of that set. It applies only if every pair of the set has
  played (a decided match, forfeits included) every other one; otherwise it is skipped and the
  set goes on to the next tiebreak. If it separates only some of them, it is applied again to each
  subset still level, counting only the matches inside that subset (as the UEFA and CAF group
  rules reapply head-to-head to the teams still level); a subset it cannot split goes on to the
  next tiebreak. So with A and B on 2 wins and C and D on 1 in a four-pair mini-league, A and B
  are then ordered by their own match, and so are C and D, before game difference is looked at.
  Once passed it is not revisited: if a later tiebreak splits three level pairs one from two,
  the two do not go back to head-to-head. Its value in a row is the tuple of matches won in each
  successive mini-league the pair was in, e.g. ``(2, 1)``; comparing these tuples reproduces the
  order. ``None`` if it did not apply (never met, or already alone when it was reached).
- ``LOTS``: the draw of lots is by seed, ascending (seed 1 first); pairs without a seed come after
  every seeded pair, and equal seeds or no seed fall back to the pair id, ascending, so the
  result is deterministic. Its value in a row is the seed. It separates every pair, so if
  present it must be last.

``separated_by`` in a row is the tiebreak at which the pair was separated from the row just
above it; it is ``None`` for the first row and for a row sharing its rank with the row above.

Errors: a `MatchRecord` or `Entry` checks itself when built (negative juegos or piedras, a pair
playing itself, a winner that is neither pair, a bye or forfeit recorded inconsistently, a seed
below 1); `standings` checks the order and everything that needs the entry list (an unknown
pair, a pair entered twice). Both raise `StandingsError`; a wrong type is a bug (`TypeError`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from scoring.errors import Phrase, shown
from scoring.messages import MessageError

__all__ = [
    "Entry",
    "MatchKind",
    "MatchRecord",
    "PointsTable",
    "StandingRow",
    "StandingsError",
    "Tiebreak",
    "TiebreakValue",
    "standings",
    "validate_order",
]


class StandingsError(MessageError, ValueError):
    """Input an organizer can fix: a bad tiebreak order, entry list or match record.

    ``code`` is stable; the message is rendered from its text and params (scoring.messages).
    """


class MatchKind(enum.StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"
    BYE = "bye"
    DOUBLE_LOSS = "double_loss"


class Tiebreak(enum.StrEnum):
    POINTS = "points"
    MATCHES_WON = "matches_won"
    HEAD_TO_HEAD = "head_to_head"
    GAME_DIFFERENCE = "game_difference"
    GAMES_WON = "games_won"
    STONE_DIFFERENCE = "stone_difference"
    STONES_WON = "stones_won"
    BUCHHOLZ = "buchholz"
    LOTS = "lots"


# int for the counted tiebreaks, tuple[int, ...] for HEAD_TO_HEAD, the seed (or None) for LOTS.
TiebreakValue = int | tuple[int, ...] | None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True, slots=True)
class PointsTable:
    """What a match is worth in points, as a tournament's rules ("bases") write it: ``win``
    for a match won (a bye too), ``loss`` for a match played and lost, ``walkover_loss`` for a
    match lost by not showing up (a forfeit's absent pair; both pairs of a double loss)."""

    win: int = 1
    loss: int = 0
    walkover_loss: int = 0

    def __post_init__(self) -> None:
        for field in ("win", "loss", "walkover_loss"):
            if not _is_count(getattr(self, field)):
                raise StandingsError(
                    "The points table gives {field}={value}; points are whole numbers, 0 or more.",
                    code="points_negative",
                    field=field,
                    value=shown(getattr(self, field)),
                )


@dataclass(frozen=True, slots=True)
class Entry:
    """A pair taking part in the phase or group. ``seed`` (1 = best) only serves ``LOTS``."""

    pair: int
    seed: int | None
    name: str = ""

    def __post_init__(self) -> None:
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 1
        ):
            raise StandingsError(
                "Pair {pair} has seed {seed}; a seed is a whole number from 1 (the best) "
                "upwards, or empty.",
                code="entry_seed",
                pair=shown(self.pair),
                seed=shown(self.seed),
            )


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """The result of one match between ``pair_a`` and ``pair_b`` (see the module docstring).

    ``pair_b`` is ``None`` for a bye; ``winner`` is ``None`` while the match is undecided or
    once it is void. ``games_*`` are juegos won by each side, ``stones_*`` the piedras scored by
    each side over the whole match. ``kind`` accepts a `MatchKind` or its string value.
    """

    pair_a: int
    pair_b: int | None
    winner: int | None
    games_a: int
    games_b: int
    stones_a: int
    stones_b: int
    kind: MatchKind = MatchKind.PLAYED

    def __post_init__(self) -> None:
        try:
            kind = MatchKind(self.kind)
        except ValueError:
            raise StandingsError(
                "{match} has kind {kind}; use one of {kinds}.",
                code="match_kind",
                match=self._describe(),
                kind=shown(self.kind),
                kinds=[k.value for k in MatchKind],
            ) from None
        object.__setattr__(self, "kind", kind)
        for field in ("games_a", "games_b", "stones_a", "stones_b"):
            if not _is_count(getattr(self, field)):
                raise StandingsError(
                    "{match} has {field}={value}; juegos and piedras are whole numbers, 0 or more.",
                    code="match_negative",
                    match=self._describe(),
                    field=field,
                    value=shown(getattr(self, field)),
                )
        if kind is MatchKind.BYE:
            if self.pair_b is not None:
                raise StandingsError(
                    "{match} is a bye but names an opponent; a bye has pair_b=None.",
                    code="bye_opponent",
                    match=self._describe(),
                )
            if self.winner != self.pair_a:
                raise StandingsError(
                    "{match} is a bye, so pair {pair} wins it; the winner cannot be {winner}.",
                    code="bye_winner",
                    match=self._describe(),
                    pair=shown(self.pair_a),
                    winner=shown(self.winner),
                )
            if self.games_b or self.stones_b:
                raise StandingsError(
                    "{match} is a bye and has no opponent; games_b and stones_b must be 0.",
                    code="bye_score",
                    match=self._describe(),
                )
            return
        if self.pair_b is None:
            raise StandingsError(
                "{match} has no opponent; record a match without pair_b as a bye.",
                code="match_bye",
                match=self._describe(),
            )
        if self.pair_a == self.pair_b:
            raise StandingsError(
                "{match} has pair {pair} playing itself; correct one of the two pairs.",
                code="match_self",
                match=self._describe(),
                pair=shown(self.pair_a),
            )
        if self.winner is not None and self.winner not in (self.pair_a, self.pair_b):
            raise StandingsError(
                "{match} names pair {winner} as winner; the winner must be pair {a} or pair {b}.",
                code="match_winner",
                match=self._describe(),
                winner=shown(self.winner),
                a=shown(self.pair_a),
                b=shown(self.pair_b),
            )
        if kind is MatchKind.FORFEIT and self.winner is None:
            raise StandingsError(
                "{match} is a forfeit without a winner; the winner is the pair that turned up.",
                code="forfeit_winner",
                match=self._describe(),
            )
        if kind is MatchKind.DOUBLE_LOSS and self.winner is not None:
            raise StandingsError(
                "{match} is a double loss, so nobody wins it; the winner must be empty.",
                code="double_loss_winner",
                match=self._describe(),
            )

    def _describe(self) -> Phrase:
        """The match as an error names it (error path only)."""
        if self.pair_b is None:
            return Phrase(
                "The match of pair {a} with no opponent", code="match_alone", a=shown(self.pair_a)
            )
        return Phrase(
            "The match between pair {a} and pair {b}",
            code="match_between",
            a=shown(self.pair_a),
            b=shown(self.pair_b),
        )


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One pair's line in the standings; ``tiebreaks`` follows the order that was used."""

    rank: int
    pair: int
    name: str
    played: int
    won: int
    lost: int
    games_won: int
    games_lost: int
    stones_won: int
    stones_lost: int
    buchholz: int
    tiebreaks: tuple[tuple[Tiebreak, TiebreakValue], ...]
    separated_by: Tiebreak | None
    #: the points of the points table the standings were computed with
    points: int = 0

    @property
    def game_difference(self) -> int:
        return self.games_won - self.games_lost

    @property
    def stone_difference(self) -> int:
        return self.stones_won - self.stones_lost

    def value(self, tiebreak: Tiebreak) -> TiebreakValue:
        """The pair's value for ``tiebreak``, which must be part of the order used."""
        for candidate, value in self.tiebreaks:
            if candidate is tiebreak:
                return value
        raise KeyError(f"{tiebreak} is not in the tiebreak order of these standings")


def validate_order(order: Iterable[Tiebreak | str]) -> tuple[Tiebreak, ...]:
    """Check a tournament's tiebreak order and return it as a tuple of `Tiebreak`.

    Raises `StandingsError` if it is empty, names an unknown tiebreak, repeats one, or has
    ``LOTS`` anywhere but last.
    """
    if isinstance(order, str | bytes):
        raise StandingsError(
            "The tiebreak order must be a list of tiebreaks, not a single string.",
            code="order_type",
        )
    result: list[Tiebreak] = []
    for item in order:
        try:
            tiebreak = Tiebreak(item)
        except ValueError:
            raise StandingsError(
                "Unknown tiebreak {tiebreak}; choose from {tiebreaks}.",
                code="order_unknown",
                tiebreak=shown(item),
                tiebreaks=[t.value for t in Tiebreak],
            ) from None
        if tiebreak in result:
            raise StandingsError(
                "The tiebreak order lists {tiebreak} twice; list each tiebreak once.",
                code="order_duplicate",
                tiebreak=tiebreak.value,
            )
        result.append(tiebreak)
    if not result:
        raise StandingsError(
            "The tiebreak order is empty; list at least one tiebreak, usually matches_won.",
            code="order_empty",
        )
    if Tiebreak.LOTS in result[:-1]:
        raise StandingsError(
            "The draw of lots separates every pair, so it must be the last tiebreak.",
            code="order_lots_not_last",
        )
    return tuple(result)


def standings(
    entries: Iterable[Entry],
    matches: Iterable[MatchRecord],
    order: Iterable[Tiebreak | str],
    *,
    points: PointsTable | None = None,
) -> tuple[StandingRow, ...]:
    """Rank ``entries`` by ``matches`` under the tiebreak ``order`` (see the module docstring);
    every row carries its ``points`` under the table ``points`` (None: a win is a point).

    Raises `StandingsError` for a bad order, a duplicate entry, or a match naming a pair that is
    not an entry. For M matches and N pairs it costs O(M) to count, then O(N log N) per
    tiebreak; a head-to-head mini-league costs only as much as the matches inside it, and a
    large level set whose pairs have met few opponents (a Swiss) is rejected in O(N).
    """
    order = validate_order(order)
    entries = tuple(entries)
    position: dict[int, int] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, Entry):
            raise TypeError(f"standings() takes Entry values, got {entry!r}")
        if entry.pair in position:
            raise StandingsError(
                "Pair {pair} is entered twice; list each pair once.",
                code="entry_duplicate",
                pair=shown(entry.pair),
            )
        position[entry.pair] = index
    n = len(entries)

    played = [0] * n
    won = [0] * n
    walkovers_lost = [0] * n
    games_won = [0] * n
    games_lost = [0] * n
    stones_won = [0] * n
    stones_lost = [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]  # one item per decided match
    beaten: list[list[int]] = [[] for _ in range(n)]  # one item per match won
    met: list[set[int]] = [set() for _ in range(n)]

    def locate(pair: int | None, match: MatchRecord) -> int:
        try:
            return position[pair]
        except KeyError:
            raise StandingsError(
                "{match} names pair {pair}, which is not entered in these standings; enter the "
                "pair or remove the match.",
                code="match_unknown_pair",
                match=match._describe(),
                pair=shown(pair),
            ) from None

    for match in matches:
        if not isinstance(match, MatchRecord):
            raise TypeError(f"standings() takes MatchRecord values, got {match!r}")
        a = locate(match.pair_a, match)
        if match.kind is MatchKind.BYE:
            played[a] += 1
            won[a] += 1
            games_won[a] += match.games_a
            stones_won[a] += match.stones_a
            continue
        b = locate(match.pair_b, match)
        if match.winner is None and match.kind is not MatchKind.DOUBLE_LOSS:
            continue
        played[a] += 1
        played[b] += 1
        games_won[a] += match.games_a
        games_lost[a] += match.games_b
        games_won[b] += match.games_b
        games_lost[b] += match.games_a
        stones_won[a] += match.stones_a
        stones_lost[a] += match.stones_b
        stones_won[b] += match.stones_b
        stones_lost[b] += match.stones_a
        opponents[a].append(b)
        opponents[b].append(a)
        met[a].add(b)
        met[b].add(a)
        if match.winner is None:  # a double loss: both played it, neither won
            walkovers_lost[a] += 1
            walkovers_lost[b] += 1
            continue
        winner, loser = (a, b) if match.winner == match.pair_a else (b, a)
        won[winner] += 1
        beaten[winner].append(loser)
        if match.kind is MatchKind.FORFEIT:
            walkovers_lost[loser] += 1

    buchholz = [sum(won[o] for o in faced) for faced in opponents]
    points = points or PointsTable()
    scored = [
        points.win * won[p]
        + points.loss * (played[p] - won[p] - walkovers_lost[p])
        + points.walkover_loss * walkovers_lost[p]
        for p in range(n)
    ]
    seeds = [entry.seed for entry in entries]
    ids = [entry.pair for entry in entries]

    # Sort keys, ascending = better; None marks HEAD_TO_HEAD, computed per set of level pairs.
    static: dict[Tiebreak, list[object]] = {
        Tiebreak.POINTS: [-s for s in scored],
        Tiebreak.MATCHES_WON: [-w for w in won],
        Tiebreak.GAME_DIFFERENCE: [lo - w for w, lo in zip(games_won, games_lost, strict=True)],
        Tiebreak.GAMES_WON: [-w for w in games_won],
        Tiebreak.STONE_DIFFERENCE: [lo - w for w, lo in zip(stones_won, stones_lost, strict=True)],
        Tiebreak.STONES_WON: [-w for w in stones_won],
        Tiebreak.BUCHHOLZ: [-b for b in buchholz],
        Tiebreak.LOTS: [
            (seed is None, seed or 0, pair) for seed, pair in zip(seeds, ids, strict=True)
        ],
    }
    keys = [static.get(tiebreak) for tiebreak in order]
    head_to_head: list[tuple[int, ...] | None] = [None] * n

    # Each task is (pairs level so far, index in order, what separates its first pair from the
    # row above). Popping in order from a stack keeps the output sorted without recursion.
    blocks: list[tuple[list[int], Tiebreak | None]] = []
    stack: list[tuple[list[int], int, Tiebreak | None]] = [(list(range(n)), 0, None)] if n else []
    while stack:
        group, level, separated_by = stack.pop()
        while True:
            if len(group) == 1 or level == len(order):
                blocks.append((group, separated_by))
                break
            tiebreak = order[level]
            key = keys[level]
            if key is None:
                wins = _mini_league(group, met, beaten)
                if wins is None:
                    level += 1
                    continue
                for p, w in zip(group, wins, strict=True):
                    previous = head_to_head[p]
                    head_to_head[p] = (w,) if previous is None else (*previous, w)
                key = {p: -w for p, w in zip(group, wins, strict=True)}
            ranked = sorted(group, key=key.__getitem__)
            buckets = [list(bucket) for _, bucket in groupby(ranked, key=key.__getitem__)]
            if len(buckets) == 1:
                level += 1
                continue
            # Head-to-head is reapplied to each smaller level set before moving on.
            next_level = level if tiebreak is Tiebreak.HEAD_TO_HEAD else level + 1
            for i in range(len(buckets) - 1, -1, -1):
                stack.append((buckets[i], next_level, separated_by if i == 0 else tiebreak))
            break

    def value(tiebreak: Tiebreak, p: int) -> TiebreakValue:
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            return head_to_head[p]
        if tiebreak is Tiebreak.LOTS:
            return seeds[p]
        if tiebreak is Tiebreak.MATCHES_WON:
            return won[p]
        if tiebreak is Tiebreak.POINTS:
            return scored[p]
        if tiebreak is Tiebreak.GAME_DIFFERENCE:
            return games_won[p] - games_lost[p]
        if tiebreak is Tiebreak.GAMES_WON:
            return games_won[p]
        if tiebreak is Tiebreak.STONE_DIFFERENCE:
            return stones_won[p] - stones_lost[p]
        if tiebreak is Tiebreak.STONES_WON:
            return stones_won[p]
        return buchholz[p]

    rows: list[StandingRow] = []
    for group, separated_by in blocks:
        rank = len(rows) + 1
        for i, p in enumerate(group):
            rows.append(
                StandingRow(
                    rank=rank,
                    pair=ids[p],
                    name=entries[p].name,
                    played=played[p],
                    won=won[p],
                    lost=played[p] - won[p],
                    games_won=games_won[p],
                    games_lost=games_lost[p],
                    stones_won=stones_won[p],
                    stones_lost=stones_lost[p],
                    buchholz=buchholz[p],
                    tiebreaks=tuple((t, value(t, p)) for t in order),
                    separated_by=separated_by if i == 0 else None,
                    points=scored[p],
                )
            )
    return tuple(rows)


def _mini_league(
    group: list[int], met: list[set[int]], beaten: list[list[int]]
) -> list[int] | None:
    """Matches won by each pair of ``group`` against the others, or None if some never met."""
    needed = len(group) - 1
    # Cheap first: in a Swiss a large level set fails here without looking at any opponent.
    if any(len(met[p]) < needed for p in group):
        return None
    members = set(group)
    if any(len(met[p] & members) != needed for p in group):
        return None
    return [sum(1 for q in beaten[p] if q in members) for p in group]
