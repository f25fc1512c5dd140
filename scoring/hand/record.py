"""What a table records for one hand of four, and what the hand scores.

Responsible for: the values that go into scoring a hand and come out of it — ``HandRecord``
(the betting of each lance, and the four players' cards or what each declared:
``Declarations``), ``ScoreEvent`` (stones to a pair in one lance, and how), ``HandScore`` (the
events in counting order, the accepted órdago, each lance's winner) and ``LanceResult``, which
says on demand why a lance went where it did, as a message any language renders.

Must not: compute a score (events.py, score.py, declared.py) or read the cards (values.py).

Terms: lance (grande, chica, pares, juego, punto), paso, envite, deje, quiero/no quiero,
órdago, par/medias/duples, juego/punto, 31 real, mano, postre.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.betting import SIDE_NAMES, Action, Outcome
from scoring.cards import HandValue
from scoring.errors import Phrase, lance_term
from scoring.hand.seats import _LANCE_INDEX, _best_seat


@dataclass(frozen=True, slots=True)
class Declarations:
    """A hand entered without cards: what each player declared and who won each lance."""

    pares: tuple[int, int, int, int]  # PARES_NONE, PAR, MEDIAS, DUPLES per seat
    juego: tuple[int, int, int, int]  # JUEGO_NONE, JUEGO_OTHER, JUEGO_REAL or 31-40 per seat
    punto: tuple[int, int, int, int] | None = None  # each player's punto when nobody has juego
    winners: dict[str, int] = field(default_factory=dict)  # lance → side that won it
    #: the seats that showed the tío Perete (4-5-6-7) before play, where the rule set plays it
    perete: tuple[int, ...] = ()
    #: Mus francés: lance → the seat that takes the chips of its accepted bet (the worst hand
    #: among those in it), where the declarations cannot say it
    takers: dict[str, int] = field(default_factory=dict)


class HandRecord(NamedTuple):
    """What a table records for one hand. Give ``cards`` or ``declarations`` (or both)."""

    bets: tuple[tuple[Action, ...], ...] = ((), (), (), ())  # grande, chica, pares, juego/punto
    cards: tuple[HandValue, HandValue, HandValue, HandValue] | None = None
    declarations: Declarations | None = None


class ScoreEvent(NamedTuple):
    lance: str  # grande, chica, pares, juego, punto
    side: int  # 0 pareja mano, 1 pareja postre
    stones: int
    kind: str  # deje, paso, envite, bonus, ordago

    def describe(self) -> str:
        who = f"pareja {SIDE_NAMES[self.side]}"
        if self.kind == "ordago":
            return f"{who} wins the game with the órdago in {self.lance}"
        what = {
            "deje": "deje",
            "paso": "en paso",
            "envite": "envite querido",
            "bonus": "bonus",
        }[self.kind]
        return f"{who}: {self.stones} in {self.lance} ({what})"


class LanceResult(NamedTuple):
    lance: str  # grande, chica, pares, juego or punto
    outcome: Outcome
    side: int | None  # the pair the lance goes to (None: nobody, e.g. nobody has pares)
    seat: int | None  # the seat with the best cards, when the cards decided it
    cards: tuple[HandValue, ...] | None = None  # the four hands, when the cards decided it
    speakers: tuple[int, ...] = ()  # the seats that took part in the lance

    # The comparison behind the result is worked out only when asked for: scoring a hand
    # needs the winner, not the explanation.
    @property
    def best(self) -> HandValue | None:
        """The winning seat's cards."""
        return self.cards[self.seat] if self.cards is not None else None

    @property
    def other(self) -> HandValue | None:
        """The best cards of the other pair among those that took part."""
        if self.cards is None:
            return None
        others = [s for s in self.speakers if s % 2 != self.seat % 2]
        if not others:
            return None
        return self.cards[_best_seat(self.cards, _LANCE_INDEX[self.lance], others)]

    @property
    def tie(self) -> bool:
        """The other pair's best was as good: seat order decided."""
        other = self.other
        k = _LANCE_INDEX[self.lance]
        return other is not None and other.keys[k] == self.best.keys[k]

    @property
    def reason(self) -> str:
        """Why the lance went where it did, in English (``explanation`` in any language)."""
        return self.explanation.message

    @property
    def explanation(self) -> Phrase:
        """Why the lance went where it did, as a message part any language can render."""
        lance = lance_term(self.lance)
        if self.side is None:
            if self.outcome in (Outcome.PASO, Outcome.QUERIDO):
                # its winner was not needed: an órdago accepted later ended the game first
                return Phrase(
                    "not counted: the órdago accepted after {lance} ended the game",
                    code="reason_not_counted",
                    lance=lance,
                )
            return Phrase("nobody has {lance}", code="reason_nobody", lance=lance)
        side = SIDE_NAMES[self.side]
        if self.outcome is Outcome.NO_QUERIDO:
            return Phrase(
                "pareja {side} bet and the envite was refused (no quiero)",
                code="reason_refused",
                side=side,
            )
        if self.outcome is Outcome.NOT_PLAYED and self.lance in ("pares", "juego"):
            return Phrase(
                "only pareja {side} has {lance}", code="reason_only", side=side, lance=lance
            )
        best = self.best
        if best is None:
            return Phrase(
                "pareja {side} won {lance} (declared)",
                code="reason_declared",
                side=side,
                lance=lance,
            )
        mine = best.describe(self.lance)
        other = self.other
        if other is None:
            return Phrase(
                "{mine}; the other pair has no {lance}", code="reason_alone", mine=mine, lance=lance
            )
        theirs = other.describe(self.lance)
        if self.tie:
            return Phrase(
                "{mine} ties with {theirs}; the player nearer mano wins",
                code="reason_tie",
                mine=mine,
                theirs=theirs,
            )
        if best.real and self.lance == "juego" and best.points == other.points:
            return Phrase(
                "{mine} beats {theirs} (31 real, whatever the seat)",
                code="reason_real",
                mine=mine,
                theirs=theirs,
            )
        return Phrase("{mine} beats {theirs}", code="reason_beats", mine=mine, theirs=theirs)


class HandScore(NamedTuple):
    events: tuple[ScoreEvent, ...]  # in counting order: dejes, then the count
    ordago: ScoreEvent | None
    #: per lance (name, outcome, side, seat, speakers); ``lances`` explains them on demand,
    #: since counting a hand needs the winners, not the explanations
    decided: tuple[tuple, ...]
    cards: tuple[HandValue, ...] | None

    @property
    def lances(self) -> tuple[LanceResult, ...]:
        cards = self.cards
        return tuple(
            LanceResult(name, outcome, side, seat, cards if seat is not None else None, speakers)
            for name, outcome, side, seat, speakers in self.decided
        )

    @property
    def stones(self) -> tuple[int, int]:
        """Stones of the pareja mano and the pareja postre if nothing ends the game first."""
        totals = [0, 0]
        for event in self.events:
            totals[event.side] += event.stones
        return totals[0], totals[1]
