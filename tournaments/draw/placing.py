"""Final places of elimination phases: who finished where in a bracket or an a tres ceros.

Responsible for: turning a bracket and its results so far (`bracket_placings`), or the rounds
of an elimination after N lost matches (`lives_placings`), into each entrant's `Placing` — how
far it got — and merging those placings with the phase's tiebreak standings into ranks
(`rank_by_placing`). In an elimination phase the place comes first: a pair that went further
ranks above one that went out earlier, whatever their matches won (a double elimination's
champion who lost the first grand final and won the reset has fewer wins than the losers'
bracket finalist it beat, yet is first).

Must not: import Django or touch storage, read the clock or draw lots; decide how a match
counts (scoring.standings does) or who plays whom (`bracket`, `double`, `swiss` do).

The rules (sort keys: the smaller, the better; equal keys are one placing group):

- Single elimination (also a knockout drawn from groups): 1st the champion, 2nd the final's
  loser. With a third-place match (``3P``) its winner is 3rd and its loser 4th; without one the
  semi-final losers share 3rd. Then the losers of each earlier round of the winners' bracket
  share the next places, a later round first (in an 8-pair bracket the quarter-final losers
  share 5th).
- Double elimination: 1st the champion (the winner of ``GF1``, or of the reset ``GF2`` when it
  was played), 2nd the grand final's loser, then by the round of the losers' bracket (repesca)
  in which a pair took its second defeat, a later round first: the loser of the losers' final
  is 3rd. Pairs that went out in the same round of the losers' bracket share the place.
- A tres ceros (``lives``): by the round in which a pair went out (its ``lives``-th lost
  match), a later round first; the last pair standing first. A pair that withdrew before going
  out counts as out in the last round it played. Pairs that went out in the same round are
  ranked among themselves by the tournament's tiebreaks: they all played the same number of
  rounds, so matches won, Buchholz or juegos compare like for like (and a knockout drawn from an
  a tres ceros needs a strict order).

Why bracket groups share their place instead of being split by tiebreaks: pairs that went out
in the same bracket round met different opponents and played different numbers of matches
(byes), so matches won or juegos do not compare them fairly; a shared place is what the bracket
decided, and it is what the prize table uses ("terceros ex aequo").

While a phase is running only what is decided is ranked. In a bracket every pair still in
(unbeaten, or in the losers' bracket with one defeat, or in a grand final not yet decided)
shares the top rank, listed by draw number (seed order); a placing group still open (the two
semi-final losers before the third-place match is played) shares its best place the same way.
Pairs already out follow by the rules above. In an a tres ceros the pairs still in come first
and are ranked by the tiebreaks among themselves (they have all played the same rounds; this
is also the order the next round is paired in).

A row's ``separated_by`` (`Placed`): ``"placing"`` (`PLACING`) for the first row of each
placing group after the first; inside a group ranked by tiebreaks, the first tiebreak of the
tournament's order whose value differs from the row above; ``None`` for a row that shares the
rank of the row above. Ranks are competition ranks (1, 2, 3, 3, 5).

Terms: cuadro (bracket), repesca (losers' bracket), final / gran final (``GF1``, reset
``GF2``), tercer puesto (``3P``), a tres ceros (out after three lost matches: ``lives``),
pareja (entrant), desempate (tiebreak), ex aequo (sharing a place).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tournaments.draw.base import Entrant, Result
from tournaments.draw.bracket import Bracket, BracketMatch, Side, champion, resolve

__all__ = [
    "PLACING",
    "Placed",
    "Placing",
    "RankedRow",
    "bracket_placings",
    "lives_placings",
    "rank_by_placing",
]

#: ``separated_by`` of a row put below the row above by its placing (how far it got)
PLACING = "placing"

# Pairs of the standings that have no placing (not in the bracket): last, by tiebreaks.
_UNPLACED = (1 << 30,)


@dataclass(frozen=True)
class Placing:
    """How far one entrant got.

    ``key``: the placing group, compared as a tuple (smaller is better; equal keys are one
    group). ``shared``: the group shares its rank (a bracket round, a place not decided yet);
    otherwise the tiebreak standings order it. ``draw``: the order inside a shared group (the
    bracket's draw number, seed order). ``how``: why, as a stable code — ``champion``,
    ``still_in``, ``runner_up``, ``third_place``, ``fourth_place``, ``third_place_pending``
    (a semi-final loser before the third-place match), ``lost_round`` (winners' bracket),
    ``lost_losers_round`` (repesca), ``out_round`` (a tres ceros), ``withdrawn`` — with
    ``round`` the round it names, where one does.
    """

    entrant_id: int
    key: tuple[int, ...]
    shared: bool
    draw: int
    how: str
    round: int | None = None


@dataclass(frozen=True)
class Placed:
    """One row of the merged ranking: the entrant, its rank, and what separated it from the
    row above (see the module docstring)."""

    entrant_id: int
    rank: int
    separated_by: str | None


class RankedRow(Protocol):
    """A row of the tiebreak standings (scoring.standings.StandingRow fits): the pair and its
    value for each tiebreak of the order, in order."""

    @property
    def pair(self) -> int: ...

    @property
    def tiebreaks(self) -> Sequence[tuple[object, object]]: ...


# --- Brackets ---------------------------------------------------------------------------------


def bracket_placings(bracket: Bracket, winners: Mapping[str, int]) -> dict[int, Placing]:
    """Each entrant's placing in ``bracket`` from ``winners`` (match id -> winner, byes left
    out), for single and double elimination alike (a bracket with a grand final is a double).

    Raises `DrawError` (from `resolve`) when the results contradict the bracket.
    """
    filled = {m.id: m for m in resolve(bracket, winners)}
    losses: dict[int, list[str]] = {}
    for match_id, winner in winners.items():
        a, b = filled[match_id].entrant_ids
        loser = b if winner == a else a
        if loser is not None:
            losses.setdefault(loser, []).append(match_id)
    top = champion(bracket, winners)
    double = any(m.side is Side.GRAND_FINAL for m in bracket.matches)
    place = _double_place if double else _single_place
    result = {}
    for draw, entrant in enumerate(bracket.draw_order, start=1):
        key, how, rnd = place(bracket, winners, filled, losses, entrant, top)
        result[entrant] = Placing(entrant, key, True, draw, how, rnd)
    return result


_Place = tuple[tuple[int, ...], str, int | None]


def _last_final_loser(
    bracket: Bracket, winners: Mapping[str, int], filled: Mapping[str, BracketMatch]
) -> int | None:
    """The loser of the last final that was played, once the champion is known."""
    for final in reversed(bracket.finals):
        if final in winners:
            a, b = filled[final].entrant_ids
            return b if winners[final] == a else a
    return None


def _single_place(
    bracket: Bracket,
    winners: Mapping[str, int],
    filled: Mapping[str, BracketMatch],
    losses: Mapping[int, list[str]],
    entrant: int,
    top: int | None,
) -> _Place:
    final = bracket.match(bracket.finals[0])
    last = final.round
    if top is not None and entrant == top:
        return (0, 0), "champion", None
    if top is not None and entrant == _last_final_loser(bracket, winners, filled):
        return (1, 0), "runner_up", None
    lost = [bracket.match(i) for i in losses.get(entrant, ())]
    in_winners = [m.round for m in lost if m.side is Side.WINNERS]
    if not in_winners:
        return (0, 0), "still_in", None
    rnd = min(in_winners)  # a pair loses once in the winners' bracket; min() for safety
    third = next((m for m in bracket.matches if m.side is Side.THIRD_PLACE), None)
    if third is not None and rnd == last - 1:
        if third.id not in winners:
            return (2, 0), "third_place_pending", None
        if winners[third.id] == entrant:
            return (2, 0), "third_place", None
        return (2, 1), "fourth_place", None
    return (1 + last - rnd, 0), "lost_round", rnd


def _double_place(
    bracket: Bracket,
    winners: Mapping[str, int],
    filled: Mapping[str, BracketMatch],
    losses: Mapping[int, list[str]],
    entrant: int,
    top: int | None,
) -> _Place:
    if top is not None and entrant == top:
        return (0,), "champion", None
    if top is not None and entrant == _last_final_loser(bracket, winners, filled):
        return (1,), "runner_up", None
    lost = [bracket.match(i) for i in losses.get(entrant, ())]
    in_losers = [m.round for m in lost if m.side is Side.LOSERS]
    if not in_losers:
        return (0,), "still_in", None
    rnd = max(in_losers)  # out at the first defeat in the repesca; max() for safety
    return (2, -rnd), "lost_losers_round", rnd


# --- A tres ceros -----------------------------------------------------------------------------


def lives_placings(
    entrants: Sequence[Entrant],
    history: Iterable[Result],
    *,
    lives: int,
    withdrawn: Collection[int] = (),
) -> dict[int, Placing]:
    """Each entrant's placing in an elimination after ``lives`` lost matches.

    ``history``: the phase's decided matches and byes (a ``Result`` without a winner is not
    counted). ``withdrawn``: entrants that left; one not out yet counts as out in the last
    round it played (round 0 if it played none).
    """
    losses: dict[int, int] = {}
    out_round: dict[int, int] = {}
    last_round: dict[int, int] = {}
    for r in sorted(history, key=lambda r: r.round):
        for who in (r.a_id, r.b_id):
            if who is not None:
                last_round[who] = max(last_round.get(who, 0), r.round)
        if r.winner_id is None or r.b_id is None:
            continue
        loser = r.b_id if r.winner_id == r.a_id else r.a_id
        losses[loser] = losses.get(loser, 0) + 1
        if losses[loser] == lives:
            out_round[loser] = r.round
    by_seed = sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, e.id))
    order = {e.id: n for n, e in enumerate(by_seed, start=1)}
    ids = [e.id for e in entrants]
    alive = [i for i in ids if i not in out_round and i not in withdrawn]
    result = {}
    for i in ids:
        if i in out_round:
            result[i] = Placing(i, (1, -out_round[i]), False, order[i], "out_round", out_round[i])
        elif i in withdrawn:
            rnd = last_round.get(i, 0)
            result[i] = Placing(i, (1, -rnd), False, order[i], "withdrawn", rnd)
        else:
            how = "champion" if len(alive) == 1 and len(ids) > 1 else "still_in"
            result[i] = Placing(i, (0, 0), False, order[i], how)
    return result


# --- Ranking ----------------------------------------------------------------------------------


def rank_by_placing(
    placings: Mapping[int, Placing], standings: Sequence[RankedRow]
) -> tuple[Placed, ...]:
    """The rows of ``standings`` (the tiebreak standings, best first) ranked by placing first.

    Only the pairs of ``standings`` are ranked; a pair without a placing comes after every
    placed pair, in standings order. See the module docstring for ranks and ``separated_by``.
    """
    position = {row.pair: n for n, row in enumerate(standings)}
    values = {row.pair: tuple(v for _, v in row.tiebreaks) for row in standings}
    names = {row.pair: tuple(str(t) for t, _ in row.tiebreaks) for row in standings}

    def sort_key(pair: int) -> tuple:
        placing = placings.get(pair)
        if placing is None:
            return _UNPLACED, 0, position[pair]
        inner = placing.draw if placing.shared else 0
        return placing.key, inner, position[pair]

    ordered = sorted(position, key=sort_key)
    result: list[Placed] = []
    previous_key: tuple[int, ...] | None = None
    for n, pair in enumerate(ordered):
        placing = placings.get(pair)
        key = _UNPLACED if placing is None else placing.key
        if n == 0:
            result.append(Placed(pair, 1, None))
        elif key != previous_key:
            result.append(Placed(pair, n + 1, PLACING))
        elif placing is not None and placing.shared:
            result.append(Placed(pair, result[-1].rank, None))
        else:
            above = ordered[n - 1]
            differs = next(
                (
                    name
                    for name, mine, theirs in zip(
                        names[pair], values[pair], values[above], strict=True
                    )
                    if mine != theirs
                ),
                None,
            )
            if differs is None:
                result.append(Placed(pair, result[-1].rank, None))
            else:
                result.append(Placed(pair, n + 1, differs))
        previous_key = key
    return tuple(result)
