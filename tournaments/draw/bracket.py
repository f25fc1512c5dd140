"""Knockout brackets: seeding, byes, single elimination, and playing any bracket forward.

Responsible for:

- the standard seed placement (`seed_lines`): in a bracket of 2^k lines seeds 1 and 2 can meet
  only in the final, 1–4 only in the semi-finals, 1–8 only in the quarter-finals, and so on; in
  the first round seed s meets seed size+1−s (1v8, 4v5, 3v6, 2v7 for eight);
- building a single-elimination `Bracket` for 2 to any number of entrants: the bracket size is
  the next power of two, the missing entrants are byes given to the top seeds, unseeded entrants
  take the remaining lines by lot, and an optional third-place match is added;
- the bracket structure itself (`Bracket`, `BracketMatch`, `Slot`): every match knows what
  fills each of its two slots (an entrant, nobody — a bye —, or the winner or loser of another
  match), so the web layer can store the whole tree once and fill it in as results arrive;
- playing a bracket forward, for every bracket kind (single, double elimination, crossings):
  `resolve` fills slots from the winners so far, `advance` lists the matches ready to be played,
  `champion` names the winner, `bracket_pairings` turns matches into `Pairing` values with
  reasons and table order.

Must not: import Django or touch storage; draw lots except through the ``rng`` passed in.

Terms: a *line* is a place in the first round, top to bottom; the *draw number* of an entrant
is its place in the seeding order (1 = top seed; unseeded entrants get theirs by lot); a *bye*
is an empty line, whose opponent goes through without playing. Match ids: ``W2-3`` is the third
match (top to bottom) of round 2 of the winners' bracket (the only bracket of a single
elimination); ``L…`` the losers' bracket; ``GF1``/``GF2`` the grand final and its reset; ``3P``
the third-place match.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from tournaments.draw.base import (
    DrawError,
    Entrant,
    Lot,
    Pairing,
    make_rng,
    validate_entrants,
)
from tournaments.draw.reasons import Reason

__all__ = [
    "Bracket",
    "BracketMatch",
    "Side",
    "Slot",
    "advance",
    "bracket_pairings",
    "bracket_size",
    "champion",
    "draw_order",
    "first_round",
    "resolve",
    "seed_lines",
    "single_elimination",
]

MAX_ENTRANTS = 256


class Side(enum.StrEnum):
    WINNERS = "W"
    LOSERS = "L"
    GRAND_FINAL = "GF"
    THIRD_PLACE = "3P"


@dataclass(frozen=True)
class Slot:
    """What fills one side of a match.

    Exactly one of ``winner_of`` / ``loser_of`` names the feeding match for a later-round slot;
    a first-round slot has neither and names its entrant; a slot with nothing at all is a bye.
    `resolve` returns slots with ``entrant_id`` filled in once the feeding match is decided.
    """

    entrant_id: int | None = None
    winner_of: str | None = None
    loser_of: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.entrant_id is None and self.winner_of is None and self.loser_of is None

    @property
    def source(self) -> str | None:
        return self.winner_of or self.loser_of


BYE = Slot()


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket.

    ``position`` counts from 1, top to bottom, within its side and round; positions can skip
    numbers in a losers' bracket where a match was left out because it would only have been a
    bye. ``stage`` is the round of play: the round for the winners' bracket, otherwise one
    more than the latest match feeding it (so a third-place match shares the final's stage).
    ``conditional`` marks the grand-final reset, played only if the losers' bracket champion
    wins the first grand final.
    """

    id: str
    side: Side
    round: int
    position: int
    a: Slot
    b: Slot
    stage: int = 0
    conditional: bool = False

    @property
    def is_bye(self) -> bool:
        return self.a.is_bye or self.b.is_bye

    @property
    def entrant_ids(self) -> tuple[int | None, int | None]:
        return self.a.entrant_id, self.b.entrant_id


@dataclass(frozen=True)
class Bracket:
    """A whole bracket, every match listed after the matches that feed it.

    ``draw_order`` lists entrant ids by draw number (first = top seed); the first ``seeded`` of
    them were placed by seed, the rest by lot. ``labels`` (crossings only) gives each of them a
    name such as ``1A``. ``finals`` are the ids of the matches that can decide the champion, in
    the order they are played (``GF1``, ``GF2`` for a double elimination with reset).
    """

    matches: tuple[BracketMatch, ...]
    draw_order: tuple[int, ...]
    seeded: int
    size: int
    finals: tuple[str, ...]
    labels: tuple[str, ...] = ()

    def match(self, match_id: str) -> BracketMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)

    def draw_number(self, entrant_id: int) -> int:
        return self.draw_order.index(entrant_id) + 1


def bracket_size(entrants: int) -> int:
    """Lines in the first round: the smallest power of two holding ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def seed_lines(size: int) -> tuple[int, ...]:
    """Draw number on each first-round line, top to bottom, for a bracket of ``size`` lines.

    Built by halving: each seed s of the bracket of size/2 meets size+1−s. Seed 2 ends at the
    bottom, so round r of a bracket reads like round 1 of the bracket 2^(r−1) times smaller:
    8 lines give 1v8, 4v5, 3v6, 2v7; 16 give 1v16, 8v9, 5v12, 4v13, 3v14, 6v11, 7v10, 2v15.
    The better seed is on the upper line of each first-round match.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two from 2, got {size}")
    lines = [1]
    n = 1
    while n < size:
        n *= 2
        grown: list[int] = []
        for i, s in enumerate(lines):
            pair = (s, n + 1 - s)
            grown.extend(pair if i % 2 == 0 else pair[::-1])
        lines = grown
    return tuple(x for k in range(0, size, 2) for x in sorted(lines[k : k + 2]))


def draw_order(entrants: Sequence[Entrant], rng: Lot) -> tuple[tuple[int, ...], int]:
    """Entrant ids by draw number, and how many of them were placed by seed.

    Seeded entrants come first, by seed (the seeds need not be consecutive); the unseeded follow
    in an order drawn by lot from ``rng`` (over the entrants sorted by id, so the caller's list
    order does not matter).
    """
    entrants = validate_entrants(entrants)
    seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed)
    unseeded = sorted(e.id for e in entrants if e.seed is None)
    make_rng(rng).shuffle(unseeded)
    return tuple(e.id for e in seeded) + tuple(unseeded), len(seeded)


def single_elimination(
    entrants: Sequence[Entrant], *, rng: Lot, third_place: bool = False
) -> Bracket:
    """A seeded single-elimination bracket for 2 to 256 entrants.

    Byes go to the top seeds (seed 1 first). With ``third_place`` the losing semi-finalists
    meet in match ``3P``; that needs at least 4 entrants.
    """
    order, seeded = draw_order(entrants, rng)
    check_field_size(len(order))
    if third_place and len(order) < 4:
        raise DrawError(
            "A third-place match needs at least 4 entrants; this bracket has {entrants}. "
            "Turn the third-place match off.",
            code="third_place_too_few",
            entrants=len(order),
        )
    return knockout_from_lines(
        lines_for(order), draw_order=order, seeded=seeded, third_place=third_place
    )


def first_round(bracket: Bracket) -> tuple[Pairing, ...]:
    """The pairings of round 1 of the winners' bracket, byes included (they come last)."""
    matches = [m for m in bracket.matches if m.side is Side.WINNERS and m.round == 1]
    return bracket_pairings(bracket, matches)


def check_field_size(entrants: int) -> None:
    if entrants > MAX_ENTRANTS:
        raise DrawError(
            "A bracket takes at most {maximum} entrants; this one has {entrants}. "
            "Play a qualifying phase first.",
            code="bracket_too_many",
            entrants=entrants,
            maximum=MAX_ENTRANTS,
        )


def lines_for(order: Sequence[int]) -> list[int | None]:
    """The entrant (or ``None`` for a bye) on every first-round line, for ids by draw number."""
    size = bracket_size(len(order))
    return [order[s - 1] if s <= len(order) else None for s in seed_lines(size)]


def winners_bracket(lines: Sequence[int | None]) -> list[BracketMatch]:
    """The winners' bracket for first-round ``lines`` (entrant ids, ``None`` for a bye)."""
    size = len(lines)
    matches = [
        BracketMatch(
            id=f"W1-{i + 1}",
            side=Side.WINNERS,
            round=1,
            position=i + 1,
            a=_entrant_slot(lines[2 * i]),
            b=_entrant_slot(lines[2 * i + 1]),
        )
        for i in range(size // 2)
    ]
    count, rnd = size // 4, 2
    while count >= 1:
        matches.extend(
            BracketMatch(
                id=f"W{rnd}-{i}",
                side=Side.WINNERS,
                round=rnd,
                position=i,
                a=Slot(winner_of=f"W{rnd - 1}-{2 * i - 1}"),
                b=Slot(winner_of=f"W{rnd - 1}-{2 * i}"),
            )
            for i in range(1, count + 1)
        )
        count, rnd = count // 2, rnd + 1
    return matches


def staged(matches: Sequence[BracketMatch]) -> tuple[BracketMatch, ...]:
    """``matches`` (feeders first) with ``stage`` set: see `BracketMatch`."""
    stage: dict[str, int] = {}
    result = []
    for m in matches:
        if m.side is Side.WINNERS:
            stage[m.id] = m.round
        else:
            stage[m.id] = 1 + max(stage[s.source] for s in (m.a, m.b) if s.source)
        result.append(replace(m, stage=stage[m.id]))
    return tuple(result)


def _entrant_slot(entrant_id: int | None) -> Slot:
    return BYE if entrant_id is None else Slot(entrant_id=entrant_id)


def knockout_from_lines(
    lines: Sequence[int | None],
    *,
    draw_order: Sequence[int],
    seeded: int,
    third_place: bool = False,
    labels: Sequence[str] = (),
) -> Bracket:
    """A single-elimination bracket with the given first-round lines."""
    matches = winners_bracket(lines)
    final = matches[-1]
    if third_place:
        semis = [m for m in matches if m.round == final.round - 1]
        matches.append(
            BracketMatch(
                id="3P",
                side=Side.THIRD_PLACE,
                round=1,
                position=1,
                a=Slot(loser_of=semis[0].id),
                b=Slot(loser_of=semis[1].id),
            )
        )
    return Bracket(
        matches=staged(matches),
        draw_order=tuple(draw_order),
        seeded=seeded,
        size=len(lines),
        finals=(final.id,),
        labels=tuple(labels),
    )


# --- Playing a bracket forward ----------------------------------------------------------------


class _Mark(enum.Enum):
    NOBODY = "nobody"  # a bye, or a match that is not played
    PENDING = "pending"  # not decided yet


NOBODY, PENDING = _Mark.NOBODY, _Mark.PENDING
Who = int | _Mark  # who fills a slot while resolving: an entrant id or a mark


def _outcomes(
    bracket: Bracket, winners: Mapping[str, int]
) -> tuple[list[BracketMatch], dict[str, tuple[Who, Who]]]:
    known = {m.id for m in bracket.matches}
    for match_id in winners:
        if match_id not in known:
            raise DrawError(
                "There is no match {match} in this bracket.",
                code="bracket_unknown_match",
                match=match_id,
            )
    outcome: dict[str, tuple[Who, Who]] = {}  # match id -> (winner, loser)
    filled: dict[str, BracketMatch] = {}

    def fill(slot: Slot) -> tuple[Slot, Who]:
        if slot.is_bye:
            return slot, NOBODY
        if slot.source is None:
            return slot, slot.entrant_id
        win, lose = outcome[slot.source]
        who = win if slot.winner_of else lose
        return (replace(slot, entrant_id=who) if isinstance(who, int) else slot), who

    for m in bracket.matches:
        a_slot, a = fill(m.a)
        b_slot, b = fill(m.b)
        filled[m.id] = replace(m, a=a_slot, b=b_slot)
        declared = winners.get(m.id)
        if m.conditional and isinstance(a, int):
            first = filled[m.a.winner_of or ""]
            if a == first.a.entrant_id:
                # The winners' bracket champion won the first grand final: no reset.
                a = b = NOBODY
        if NOBODY in (a, b):
            present = b if a == NOBODY else a
            if declared is not None and declared != present:
                raise DrawError(
                    "Match {match} is not played (a bye or an unneeded reset), so it has no "
                    "winner to record; remove the result {winner}.",
                    code="bracket_not_played",
                    match=m.id,
                    winner=declared,
                )
            outcome[m.id] = (present, NOBODY)
        elif PENDING in (a, b):
            if declared is not None:
                raise DrawError(
                    "Match {match} cannot have a winner yet: its players are not known. "
                    "Enter the results of the earlier matches first.",
                    code="bracket_not_ready",
                    match=m.id,
                )
            outcome[m.id] = (PENDING, PENDING)
        elif declared is None:
            outcome[m.id] = (PENDING, PENDING)
        elif declared in (a, b):
            outcome[m.id] = (declared, b if declared == a else a)
        else:
            raise DrawError(
                "Entrant {winner} did not play match {match}; its winner is {a} or {b}.",
                code="bracket_wrong_winner",
                match=m.id,
                winner=declared,
                a=a,
                b=b,
            )
    return list(filled.values()), outcome


def resolve(bracket: Bracket, winners: Mapping[str, int]) -> tuple[BracketMatch, ...]:
    """Every match with its slots' ``entrant_id`` filled in as far as ``winners`` decides.

    ``winners`` maps match id to the winning entrant id. Byes need no entry. Raises
    `DrawError` for a winner who did not play the match, a result for a match whose players are
    not known yet, a result for a bye, or an unknown match id.
    """
    return tuple(_outcomes(bracket, winners)[0])


def advance(
    bracket: Bracket, winners: Mapping[str, int], *, whole_rounds: bool = True
) -> tuple[BracketMatch, ...]:
    """The matches to play next: both players known, no winner recorded yet.

    Call it after each round's results to get the next round's matches, with their bracket
    position and slots filled in. With ``whole_rounds`` (the default) only matches of the
    earliest stage not yet finished are returned, so a second-round match between two byes
    waits for the first round; without it, every match that could be played now. Returns them
    in `bracket_pairings` table order.
    """
    filled, outcome = _outcomes(bracket, winners)
    undecided = [m for m in filled if outcome[m.id] == (PENDING, PENDING)]
    ready = [m for m in undecided if m.a.entrant_id is not None and m.b.entrant_id is not None]
    if whole_rounds and ready:
        current = min(m.stage for m in undecided)
        ready = [m for m in ready if m.stage == current]
    draw = {e: i + 1 for i, e in enumerate(bracket.draw_order)}
    return tuple(sorted(ready, key=lambda m: _table_key(draw, m)))


def champion(bracket: Bracket, winners: Mapping[str, int]) -> int | None:
    """The bracket's winner, or ``None`` while the final (or its reset) is still to be played."""
    _, outcome = _outcomes(bracket, winners)
    result = None
    for final in bracket.finals:
        win, lose = outcome[final]
        if win == PENDING:
            return None
        if lose != NOBODY:  # a reset that was not needed leaves the earlier winner
            result = win
    return result


_SIDE_RANK = {Side.GRAND_FINAL: 0, Side.WINNERS: 1, Side.THIRD_PLACE: 2, Side.LOSERS: 3}


def _table_key(draw: Mapping[int, int], m: BracketMatch) -> tuple[int, int, int, int]:
    present = [draw[e] for e in m.entrant_ids if e is not None]
    best = min(present) if present else len(draw)
    return int(m.is_bye), _SIDE_RANK[m.side], -m.round, best


def bracket_pairings(bracket: Bracket, matches: Sequence[BracketMatch]) -> tuple[Pairing, ...]:
    """``matches`` (usually from `advance` or `first_round`) as pairings with reasons.

    Table order: the grand final, then the winners' bracket, the third-place match and the
    losers' bracket; later rounds before earlier ones; then by the best draw number in the
    match. Byes come last. The upper slot is ``a``.
    """
    draw = {e: i + 1 for i, e in enumerate(bracket.draw_order)}
    ordered = sorted(matches, key=lambda m: _table_key(draw, m))
    label = dict(zip(bracket.draw_order, bracket.labels, strict=False))
    pairings = []
    for n, m in enumerate(ordered, start=1):
        a, b = m.a.entrant_id, m.b.entrant_id
        if a is None:
            a, b = b, None
        if a is None:
            raise ValueError(f"match {m.id} has no entrant yet; pass matches from advance()")
        pairings.append(
            Pairing(
                table_order=n,
                a_id=a,
                b_id=b,
                reasons=_match_reasons(bracket, m, a, b, draw, label),
                match_id=m.id,
            )
        )
    return tuple(pairings)


def _match_reasons(
    bracket: Bracket,
    m: BracketMatch,
    a: int,
    b: int | None,
    draw: Mapping[int, int],
    label: Mapping[int, str],
) -> tuple[Reason, ...]:
    if m.side is Side.GRAND_FINAL:
        return (Reason("grand_final_reset" if m.conditional else "grand_final"),)
    reasons = [Reason("third_place")] if m.side is Side.THIRD_PLACE else []
    if m.a.source is None and m.b.source is None:  # a first-round match
        size = {"entrants": len(bracket.draw_order), "size": bracket.size}
        seeded = {e for e, d in draw.items() if d <= bracket.seeded}
        if b is None and a in label:
            reasons.append(Reason("crossing_bye", {"label": label[a]}))
        elif b is None and a in seeded:
            reasons.append(Reason("top_seed_bye", {"seed": draw[a], **size}))
        elif b is None:
            reasons.append(Reason("bye_by_lot", size))
        elif a in label and b in label:
            reasons.append(
                Reason("group_crossing", {"label": label[a], "opponent_label": label[b]})
            )
        elif a in seeded and b in seeded:
            reasons.append(Reason("seeded", {"seed": draw[a], "opponent_seed": draw[b]}))
        elif a in seeded or b in seeded:
            reasons.append(Reason("seeded_v_drawn", {"seed": draw[a if a in seeded else b]}))
        else:
            reasons.append(Reason("drawn_by_lot"))
        return tuple(reasons)
    for slot in (m.a, m.b):
        if slot.winner_of:
            reasons.append(Reason("winner_of", {"match": slot.winner_of}))
        elif slot.loser_of:
            reasons.append(Reason("loser_of", {"match": slot.loser_of}))
    return tuple(reasons)
