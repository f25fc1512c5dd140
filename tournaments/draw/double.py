"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

Responsible for: generating the whole structure of a double-elimination bracket for 2 to 256
entrants as a `Bracket` whose matches name, for each slot, the entrant or "winner of match X" /
"loser of match Y". The winners' bracket is the seeded single-elimination bracket (byes to the
top seeds). Losers drop into the losers' bracket, which alternates "drop-in" rounds (survivors
meet the losers of the next winners' round) and "merge" rounds (survivors meet each other). The
losers' champion meets the winners' champion in the grand final ``GF1``; with ``reset`` a
second final ``GF2`` is played only if the losers' champion wins ``GF1``, so that nobody is out
before a second defeat. Play it forward with `bracket.advance` / `resolve` / `champion`.

Must not: import Django or touch storage; draw lots except through the ``rng`` passed in.

Terms: W/L/GF as in `tournaments.draw.bracket`. Where the field does not fill the bracket, the
first-round byes leave holes in the losers' bracket (a bye has no loser); a losers' match that
would only be a bye is left out and its slot is wired straight to where its player comes from,
so every listed losers' match is a real match. Drop-in rounds feed losers in reverse or
half-swapped order, so that two entrants who met in the winners' bracket do not meet again at
once in the losers' bracket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tournaments.draw.base import Entrant, Lot
from tournaments.draw.bracket import (
    BYE,
    Bracket,
    BracketMatch,
    Side,
    Slot,
    check_field_size,
    draw_order,
    lines_for,
    staged,
    winners_bracket,
)

__all__ = ["double_elimination"]


def double_elimination(entrants: Sequence[Entrant], *, rng: Lot, reset: bool = True) -> Bracket:
    """The double-elimination bracket for ``entrants`` (2 to 256), seeded like
    `single_elimination`. ``reset``: add the conditional second grand final ``GF2``."""
    order, seeded = draw_order(entrants, rng)
    check_field_size(len(order))
    winners = winners_bracket(lines_for(order))
    losers = _losers_bracket(winners)
    matches = winners + losers
    final_w = winners[-1]
    if losers:
        challenger = Slot(winner_of=losers[-1].id)
    else:  # two entrants: the loser of the only match has a second chance in the final
        challenger = Slot(loser_of=final_w.id)
    matches.append(
        BracketMatch(
            id="GF1",
            side=Side.GRAND_FINAL,
            round=1,
            position=1,
            a=Slot(winner_of=final_w.id),
            b=challenger,
        )
    )
    finals = ("GF1",)
    if reset:
        matches.append(
            BracketMatch(
                id="GF2",
                side=Side.GRAND_FINAL,
                round=2,
                position=1,
                a=Slot(winner_of="GF1"),
                b=Slot(loser_of="GF1"),
                conditional=True,
            )
        )
        finals = ("GF1", "GF2")
    matches = _without_empty_losers_matches(matches)
    return Bracket(
        matches=staged(matches),
        draw_order=order,
        seeded=seeded,
        size=2 * len([m for m in winners if m.round == 1]),
        finals=finals,
    )


def _losers_bracket(winners: Sequence[BracketMatch]) -> list[BracketMatch]:
    by_round: dict[int, list[BracketMatch]] = {}
    for m in winners:
        by_round.setdefault(m.round, []).append(m)
    k = max(by_round)
    if k < 2:
        return []
    matches: list[BracketMatch] = []

    def add(rnd: int, position: int, a: Slot, b: Slot) -> None:
        matches.append(
            BracketMatch(
                id=f"L{rnd}-{position}", side=Side.LOSERS, round=rnd, position=position, a=a, b=b
            )
        )

    first = by_round[1]
    for i in range(len(first) // 2):
        add(1, i + 1, Slot(loser_of=first[2 * i].id), Slot(loser_of=first[2 * i + 1].id))
    survivors = [m.id for m in matches]
    rnd = 1
    for j in range(1, k):
        dropping = [m.id for m in by_round[j + 1]]
        n = len(dropping)
        # Alternate the order losers drop in, so recent opponents land far apart.
        if j % 2 == 1:
            dropping = dropping[::-1]
        elif n > 1:
            dropping = dropping[n // 2 :] + dropping[: n // 2]
        rnd += 1
        for i in range(n):
            add(rnd, i + 1, Slot(winner_of=survivors[i]), Slot(loser_of=dropping[i]))
        survivors = [f"L{rnd}-{i + 1}" for i in range(n)]
        if j < k - 1:
            rnd += 1
            for i in range(n // 2):
                add(
                    rnd,
                    i + 1,
                    Slot(winner_of=survivors[2 * i]),
                    Slot(winner_of=survivors[2 * i + 1]),
                )
            survivors = [f"L{rnd}-{i + 1}" for i in range(n // 2)]
    return matches


def _without_empty_losers_matches(matches: Sequence[BracketMatch]) -> list[BracketMatch]:
    """Drop losers' matches that byes leave with fewer than two players, rewiring their slots.

    A first-round bye stays in the bracket (it is part of the draw) but has no loser. A later
    match missing one player is left out and whoever would have filled its other slot goes
    straight on; one missing both players is left out and passes on nobody.
    """
    rewired: dict[tuple[str, str], Slot] = {}  # ("winner" | "loser", match id) -> slot
    kept: list[BracketMatch] = []

    def follow(slot: Slot) -> Slot:
        if slot.winner_of:
            return rewired.get(("winner", slot.winner_of), slot)
        if slot.loser_of:
            return rewired.get(("loser", slot.loser_of), slot)
        return slot

    for m in matches:
        a, b = follow(m.a), follow(m.b)
        if m.side is Side.WINNERS and m.round == 1:
            if m.is_bye:
                rewired["loser", m.id] = BYE
            kept.append(m)
            continue
        if a.is_bye or b.is_bye:
            rewired["winner", m.id] = b if a.is_bye else a
            rewired["loser", m.id] = BYE
            continue
        kept.append(replace(m, a=a, b=b))
    return kept
