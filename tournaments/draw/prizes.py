"""Prizes across phases, as a tournament's bases declare them, over plain values.

Responsible for: reading a prize as the bases write it (`prize_from_dict`: the plain JSON a
tournament stores; `DrawError` naming what is wrong), and awarding every prize of a tournament
from its phases' standings rows (`prizes_award`): who wins it, with what value, and whether it
is shared or was decided by lot.

A prize names the phases it counts by their **order** in the tournament (1 the first phase), so
it holds for whatever plan the tournament plays; no phases named means every phase. Kinds:

- ``most``: the entrant with most of ``measure`` summed over those phases ("most matches won
  over phases 1 and 2": ``measure`` ``won``; "best stone difference": ``stone_difference``);
- ``fewest``: the entrant with fewest ("premio a la peor pareja": ``won``). For this prize
  every tiebreak counts the other way too: the worst pair is the one with the worst figures;
- ``group_best``: the first of each group of those phases (a phase without groups is one
  group), by the group's own standings, which its tiebreaks already ordered (``rank`` 1); so
  it takes no tiebreaks of its own.

Who may win: an entrant with a row in the phases counted that played at least one match there
and never withdrew. Ties: ``tiebreaks`` (measures, in order) are applied first; entrants still
level share the prize (``ties`` ``shared``) or one of them wins it by lot (``lots``: a draw
seeded by the tournament's draw seed, so the same standings always give the same winner).

Measures: ``won`` (matches won, byes included), ``points`` (the points table's, or the matches
won without one), ``stone_difference``, ``game_difference``, ``stones_won``, ``games_won``.

Must not: import Django, read the database or the clock, or use randomness but the seed given.

Terms: premio (prize), fase (phase), grupo (a liguilla's group), pareja (an entrant), piedras
(stones), juegos (games), empate (tie), sorteo (lots).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.draw.base import DrawError, make_rng

__all__ = [
    "MEASURES",
    "Award",
    "Prize",
    "PrizeKind",
    "StandingLine",
    "prize_from_dict",
    "prize_to_dict",
    "prizes_award",
    "prizes_from_list",
]

#: what a prize may count, each a figure of a standings row (more is more)
MEASURES = (
    "won",
    "points",
    "stone_difference",
    "game_difference",
    "stones_won",
    "games_won",
)

#: the most prizes a tournament declares, and the longest name of one
MAX_PRIZES = 20
MAX_NAME = 80
#: the highest phase order a prize may name (a tournament has far fewer phases)
MAX_PHASE = 50


class PrizeKind(enum.StrEnum):
    MOST = "most"
    FEWEST = "fewest"
    GROUP_BEST = "group_best"


class Ties(enum.StrEnum):
    SHARED = "shared"
    LOTS = "lots"


@dataclass(frozen=True)
class Prize:
    """One prize of the bases (see the module docstring)."""

    name: str
    kind: PrizeKind
    measure: str = "won"
    phases: tuple[int, ...] = ()
    tiebreaks: tuple[str, ...] = ()
    ties: Ties = Ties.SHARED


@dataclass(frozen=True)
class StandingLine:
    """An entrant's row in the standings of one phase (or one group of it): ``phase`` is the
    phase's order, ``group`` its group's name (None: the whole phase), ``rank`` its place
    there."""

    phase: int
    group: str | None
    entrant: int
    rank: int
    played: int
    won: int
    points: int
    games_won: int
    games_lost: int
    stones_won: int
    stones_lost: int
    withdrawn: bool = False

    def figure(self, measure: str) -> int:
        if measure == "stone_difference":
            return self.stones_won - self.stones_lost
        if measure == "game_difference":
            return self.games_won - self.games_lost
        return getattr(self, measure)


@dataclass(frozen=True)
class Award:
    """A prize awarded: ``prize`` is its index in the declared list; ``phase`` and ``group``
    say which group a ``group_best`` award is for (None otherwise); ``winners`` are entrant
    ids (several when shared, none when nobody could win it); ``value`` the winners' figure of
    the prize's measure; ``decided_by`` the tiebreak that left the winners alone ("lots" for a
    draw of lots), None when the measure itself did."""

    prize: int
    phase: int | None
    group: str | None
    winners: tuple[int, ...]
    value: int | None
    shared: bool
    decided_by: str | None


# --- Reading a prize ----------------------------------------------------------------------------


def prize_from_dict(data: Any, n: int = 0) -> Prize:
    """The ``n``-th prize of a tournament (from 0) from its JSON form; DrawError naming it
    (1-based) and what is wrong. Unknown keys are refused: a key dropped would be a rule the
    organizer thinks is in force."""
    if not isinstance(data, Mapping):
        raise DrawError(
            "Prize {prize} is not an object with a name and a kind.",
            code="prize_shape",
            prize=n + 1,
        )
    known = {"name", "kind", "measure", "phases", "tiebreaks", "ties"}
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise DrawError(
            "Prize {prize} has '{key}', which a prize does not read; its keys are {keys}.",
            code="prize_key",
            prize=n + 1,
            key=unknown[0][:40],
            keys=sorted(known),
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise DrawError(
            "Prize {prize} needs a name of 1 to {most} characters, e.g. 'Premio a la peor pareja'.",
            code="prize_name",
            prize=n + 1,
            most=MAX_NAME,
        )
    try:
        kind = PrizeKind(data.get("kind"))
    except ValueError:
        raise DrawError(
            "Prize {prize} has kind '{kind}'; choose one of {kinds}.",
            code="prize_kind",
            prize=n + 1,
            kind=str(data.get("kind"))[:40],
            kinds=[k.value for k in PrizeKind],
        ) from None
    measure = data.get("measure", "won")
    if measure not in MEASURES:
        raise DrawError(
            "Prize {prize} counts '{measure}'; choose one of {measures}.",
            code="prize_measure",
            prize=n + 1,
            measure=str(measure)[:40],
            measures=list(MEASURES),
        )
    phases = data.get("phases", [])
    if (
        not isinstance(phases, list)
        or any(isinstance(p, bool) or not isinstance(p, int) for p in phases)
        or any(not 1 <= p <= MAX_PHASE for p in phases)
        or len(set(phases)) != len(phases)
    ):
        raise DrawError(
            "Prize {prize} names its phases by their order in the tournament, each once: a "
            "list of whole numbers from 1 to {most} (e.g. [1, 2]), or empty for every phase.",
            code="prize_phases",
            prize=n + 1,
            most=MAX_PHASE,
        )
    tiebreaks = data.get("tiebreaks", [])
    if (
        not isinstance(tiebreaks, list)
        or any(t not in MEASURES for t in tiebreaks)
        or len(set(tiebreaks)) != len(tiebreaks)
        or measure in tiebreaks
    ):
        raise DrawError(
            "Prize {prize} breaks its ties by measures other than the one it counts, each "
            "once, from {measures}.",
            code="prize_tiebreaks",
            prize=n + 1,
            measures=list(MEASURES),
        )
    if kind is PrizeKind.GROUP_BEST and tiebreaks:
        raise DrawError(
            "Prize {prize} goes to the first of each group, whom the group's standings and "
            "their tiebreaks already say; leave its tiebreaks empty.",
            code="prize_group_tiebreaks",
            prize=n + 1,
        )
    try:
        ties = Ties(data.get("ties", Ties.SHARED.value))
    except ValueError:
        raise DrawError(
            "Prize {prize} settles a tie still standing with '{ties}'; choose 'shared' (every "
            "pair level wins it) or 'lots' (one of them, by lot).",
            code="prize_ties",
            prize=n + 1,
            ties=str(data.get("ties"))[:40],
        ) from None
    return Prize(
        name=" ".join(name.split()),
        kind=kind,
        measure=measure,
        phases=tuple(sorted(phases)),
        tiebreaks=tuple(tiebreaks),
        ties=ties,
    )


def prizes_from_list(data: Any) -> list[Prize]:
    """A tournament's prizes from their JSON list; DrawError for a wrong one."""
    if not isinstance(data, list):
        raise DrawError(
            "The prizes are a list of prizes, each with a name and a kind.", code="prizes_shape"
        )
    if len(data) > MAX_PRIZES:
        raise DrawError(
            "A tournament declares at most {most} prizes, not {count}.",
            code="prizes_too_many",
            most=MAX_PRIZES,
            count=len(data),
        )
    return [prize_from_dict(item, n) for n, item in enumerate(data)]


def prize_to_dict(prize: Prize) -> dict[str, Any]:
    """The JSON form a tournament stores (every key, so it reads back the same)."""
    return {
        "name": prize.name,
        "kind": prize.kind.value,
        "measure": prize.measure,
        "phases": list(prize.phases),
        "tiebreaks": list(prize.tiebreaks),
        "ties": prize.ties.value,
    }


# --- Awarding ------------------------------------------------------------------------------------


def prizes_award(
    prizes: Sequence[Prize], lines: Iterable[StandingLine], *, seed: int
) -> list[Award]:
    """Every prize awarded from the phases' standings ``lines``: one award per prize, or, for
    ``group_best``, one per group of its phases (in order of phase, then group)."""
    lines = list(lines)
    awards: list[Award] = []
    for index, prize in enumerate(prizes):
        counted = [line for line in lines if not prize.phases or line.phase in prize.phases]
        if prize.kind is PrizeKind.GROUP_BEST:
            awards.extend(_group_best(index, prize, counted, seed))
        else:
            awards.append(_over_phases(index, prize, counted, seed))
    return awards


def _eligible(lines: list[StandingLine]) -> dict[int, list[StandingLine]]:
    by_entrant: dict[int, list[StandingLine]] = {}
    for line in lines:
        by_entrant.setdefault(line.entrant, []).append(line)
    return {
        entrant: rows
        for entrant, rows in by_entrant.items()
        if not any(row.withdrawn for row in rows) and sum(row.played for row in rows) > 0
    }


def _over_phases(index: int, prize: Prize, lines: list[StandingLine], seed: int) -> Award:
    entrants = _eligible(lines)
    if not entrants:
        return Award(index, None, None, (), None, False, None)
    sign = -1 if prize.kind is PrizeKind.MOST else 1  # sort ascending: the winner first
    measures = (prize.measure, *prize.tiebreaks)
    totals = {
        entrant: tuple(sum(row.figure(m) for row in rows) for m in measures)
        for entrant, rows in entrants.items()
    }
    best = min(tuple(sign * v for v in key) for key in totals.values())
    level = sorted(e for e, key in totals.items() if tuple(sign * v for v in key) == best)
    decided_by = _decided_by(prize, totals, level)
    winners, shared, decided_by = _settle(index, prize, level, decided_by, seed)
    return Award(index, None, None, winners, totals[level[0]][0], shared, decided_by)


def _decided_by(prize: Prize, totals: dict[int, tuple[int, ...]], level: list[int]) -> str | None:
    """The first tiebreak that no entrant outside ``level`` equals them on (None: the
    measure itself)."""
    measures = (prize.measure, *prize.tiebreaks)
    key = totals[level[0]]
    others = [totals[e] for e in totals if e not in level]
    for depth, measure in enumerate(measures):
        if not any(other[: depth + 1] == key[: depth + 1] for other in others):
            return None if depth == 0 else measure
    return None  # nobody else (or everybody level: the tie is settled below)


def _settle(
    index: int, prize: Prize, level: list[int], decided_by: str | None, seed: int
) -> tuple[tuple[int, ...], bool, str | None]:
    if len(level) == 1:
        return tuple(level), False, decided_by
    if prize.ties is Ties.SHARED:
        return tuple(level), True, decided_by
    # one of them by lot: the tournament's seed and the prize's place in the list
    chosen = make_rng(seed * MAX_PRIZES + index).choice(level)
    return (chosen,), False, "lots"


def _group_best(index: int, prize: Prize, lines: list[StandingLine], seed: int) -> list[Award]:
    groups: dict[tuple[int, str | None], list[StandingLine]] = {}
    for line in lines:
        groups.setdefault((line.phase, line.group), []).append(line)
    awards = []
    for (phase, group), rows in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1] or "")):
        eligible = [r for r in rows if not r.withdrawn and r.played > 0]
        if not eligible:
            awards.append(Award(index, phase, group, (), None, False, None))
            continue
        top = min(r.rank for r in eligible)
        level = sorted(r.entrant for r in eligible if r.rank == top)
        winners, shared, decided_by = _settle(index, prize, level, None, seed + phase)
        value = next(r for r in eligible if r.entrant == level[0]).figure(prize.measure)
        awards.append(Award(index, phase, group, winners, value, shared, decided_by))
    return awards
