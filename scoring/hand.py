"""One hand (mano de mus): who wins each lance and what each pair scores.

Responsible for: turning what a table records for a hand — the betting of each lance and either
the four players' cards or, without cards, the winner of each lance that was seen and what each
player declared — into the list of scoring events in the order they are counted: dejes first, as
they happen, then at the count grande, chica, pares, juego (or punto). An accepted órdago ends
the hand there: the dejes before it stand, accepted bets do not count.

Must not: add the events to a game (match.py does: the first pair to reach the target wins
there and then, so the order of the events matters) or know about tournaments.

Seats are numbered from mano: 0 mano, 1 the next to speak (on mano's right), 2 mano's partner,
3 postre (the dealer). Side 0 is the pareja mano (seats 0 and 2), side 1 the pareja postre.

Terms: lance (grande, chica, pares, juego, punto), paso, envite, deje, quiero/no quiero,
órdago, par/medias/duples, juego/punto, 31 real, mano, postre.

Scoring (sources 001 «Recuento de los puntos», 004 «Valeur des coups», 000 «Scoring»):
- grande and chica en paso: 1 stone to the winner; pares and juego en paso: only their bonus;
  punto en paso: 1 stone;
- an envite refused: the deje at once to the pair that bet (1 stone, or what was bet before the
  last raise), and the lance is theirs: in pares and juego they also score their own bonus at
  the count even with worse cards, in punto the +1;
- an envite accepted: its stones to the lance's winner, plus the bonus in pares, juego, punto;
- bonuses: pares 1/2/3 for each player of the winning pair with par/medias/duples; juego 3 for
  each player of the winning pair with 31 and 2 for any other juego; punto 1;
- pares and juego are bet only when both pairs have them; when only one pair has them it scores
  its bonus at the count; when nobody has juego, punto is played instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.betting import SIDE_NAMES, Action, Betting, Outcome, resolve
from scoring.cards import (
    DUPLES,
    MEDIAS,
    PAR,
    PARES_NAMES,
    PARES_NONE,
    HandValue,
    hand_mask_and_ranks,
    juego_rank,
    value_table,
)
from scoring.errors import CardError, DeclarationError
from scoring.rules import Real31, RuleSet

LANCES = ("grande", "chica", "pares", "juego")
SEAT_NAMES = ("mano", "second", "third", "postre")

#: Juego declarations: 0 no juego, 31-37 or 40 the exact juego, JUEGO_OTHER a juego that is
#: not 31 (its number not given), JUEGO_REAL a 31 real.
JUEGO_NONE = 0
JUEGO_OTHER = 1
JUEGO_REAL = 131
JUEGO_VALUES = frozenset((31, 32, 33, 34, 35, 36, 37, 40))


@dataclass(frozen=True, slots=True)
class Declarations:
    """A hand entered without cards: what each player declared and who won each lance."""

    pares: tuple[int, int, int, int]  # PARES_NONE, PAR, MEDIAS, DUPLES per seat
    juego: tuple[int, int, int, int]  # JUEGO_NONE, JUEGO_OTHER, JUEGO_REAL or 31-40 per seat
    punto: tuple[int, int, int, int] | None = None  # each player's punto when nobody has juego
    winners: dict[str, int] = field(default_factory=dict)  # lance → side that won it


@dataclass(frozen=True, slots=True)
class HandRecord:
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
    best: HandValue | None = None  # the winning seat's cards
    other: HandValue | None = None  # the other pair's best cards
    tie: bool = False  # the other pair's best was equal: seat order decided

    @property
    def reason(self) -> str:
        if self.side is None:
            return f"nobody has {self.lance}"
        who = f"pareja {SIDE_NAMES[self.side]}"
        if self.outcome is Outcome.NO_QUERIDO:
            return f"{who} bet and the envite was refused (no quiero)"
        if self.outcome is Outcome.NOT_PLAYED and self.lance in ("pares", "juego"):
            return f"only {who} has {self.lance}"
        if self.best is None:
            return f"{who} won {self.lance} (declared)"
        mine = self.best.describe(self.lance)
        if self.other is None:
            return f"{mine}; the other pair has no {self.lance}"
        theirs = self.other.describe(self.lance)
        if self.tie:
            return f"{mine} ties with {theirs}; the player nearer mano wins"
        if self.best.real and self.lance == "juego" and self.best.points == self.other.points:
            return f"{mine} beats {theirs} (31 real, whatever the seat)"
        return f"{mine} beats {theirs}"


class HandScore(NamedTuple):
    events: tuple[ScoreEvent, ...]  # in counting order: dejes, then the count
    lances: tuple[LanceResult, ...]
    ordago: ScoreEvent | None = None

    @property
    def stones(self) -> tuple[int, int]:
        """Stones of the pareja mano and the pareja postre if nothing ends the game first."""
        totals = [0, 0]
        for event in self.events:
            totals[event.side] += event.stones
        return totals[0], totals[1]


# ---------------------------------------------------------------------------------------------


def hand_values(rules: RuleSet, hands: object) -> tuple[HandValue, HandValue, HandValue, HandValue]:
    """Parse the four hands in seat order from mano and check that no card is dealt twice."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise CardError(
            "Give the cards of the four players, in seat order from mano.", code="four_hands"
        )
    table = value_table(rules.kings, rules.real_31)
    seen = 0
    values = []
    for seat, text in enumerate(hands):
        mask, ranks = hand_mask_and_ranks(text, SEAT_NAMES[seat])
        if seen & mask:
            from scoring.cards import DECK, card_name  # error path only

            card = next(c for c in DECK if mask & seen & (1 << c.index))
            raise CardError(
                f"The {card_name(card)} ({card.code}) was dealt to two players; each card is in "
                "the deck once.",
                code="duplicate_card",
                card=card.code,
                seat=SEAT_NAMES[seat],
            )
        seen |= mask
        values.append(table[ranks])
    return tuple(values)  # type: ignore[return-value]


def declarations_from_cards(rules: RuleSet, cards: tuple[HandValue, ...]) -> Declarations:
    """What honest players with these cards declare, and who wins each lance."""
    pares = tuple(v.pares for v in cards)
    juego = tuple(
        (JUEGO_REAL if v.real else v.points) if v.has_juego else JUEGO_NONE for v in cards
    )
    nobody = not any(v.has_juego for v in cards)
    punto = tuple(v.points for v in cards) if nobody else None
    winners = {}
    for i, lance in enumerate(("grande", "chica")):
        winners[lance] = _best_seat(cards, i, range(4)) % 2
    return Declarations(pares, juego, punto, winners)  # type: ignore[arg-type]


def _rank(value: HandValue, lance_index: int) -> int:
    if lance_index == 0:
        return value.grande_rank
    if lance_index == 1:
        return value.chica_rank
    if lance_index == 2:
        return value.pares_rank
    return value.juego_rank if lance_index == 3 else value.points


def _best_seat(cards: tuple[HandValue, ...], lance_index: int, seats) -> int:
    best_seat, best = -1, -1
    for seat in seats:  # strict '>' keeps the seat nearer mano on a tie
        r = _rank(cards[seat], lance_index)
        if r > best:
            best_seat, best = seat, r
    return best_seat


def score_hand(rules: RuleSet, record: HandRecord) -> HandScore:
    """Score one hand. Raises the engine's error for anything that cannot have happened."""
    cards = record.cards
    decl = record.declarations
    if cards is None and decl is None:
        raise DeclarationError(
            "A hand needs either the four players' cards or what each player declared.",
            code="nothing_recorded",
        )
    if decl is not None:
        _check_declarations(rules, decl)
        if cards is not None:
            _check_against_cards(rules, decl, cards)

    if cards is not None:
        pares = [v.pares for v in cards]
        juego_points = [v.points if v.has_juego else 0 for v in cards]
    else:
        pares = list(decl.pares)
        juego_points = [_juego_points(j) for j in decl.juego]
    anybody_juego = any(juego_points)

    deje_events: list[ScoreEvent] = []
    count_events: list[ScoreEvent] = []
    results: list[LanceResult] = []
    ordago: ScoreEvent | None = None

    for index, lance in enumerate(LANCES):
        name = lance if index < 3 or anybody_juego else "punto"
        actions = record.bets[index]
        if ordago is not None:
            if any(a.act.value != "paso" for a in actions):
                raise DeclarationError(
                    f"The órdago accepted in {ordago.lance} ended the game: nothing can be bet "
                    f"in {name} after it.",
                    code="bet_after_ordago",
                    lance=name,
                )
            continue
        if index == 2:
            speakers = tuple(s for s in range(4) if pares[s])
        elif index == 3 and anybody_juego:
            speakers = tuple(s for s in range(4) if juego_points[s])
        else:
            speakers = (0, 1, 2, 3)
        betting = resolve(actions, lance=name, speakers=speakers, min_envite=rules.min_envite)
        result = _lance_result(rules, record, index, name, betting, speakers)
        results.append(result)
        if betting.outcome is Outcome.NO_QUERIDO and rules.dejes:
            deje_events.append(ScoreEvent(name, betting.side, betting.stones, "deje"))
        if betting.outcome is Outcome.ORDAGO:
            ordago = ScoreEvent(name, result.side, 0, "ordago")
            continue
        side = result.side
        if side is None:
            continue
        if betting.outcome is Outcome.QUERIDO:
            count_events.append(ScoreEvent(name, side, betting.stones, "envite"))
        elif betting.outcome is Outcome.PASO and index < 2:
            count_events.append(ScoreEvent(name, side, 1, "paso"))
        if index == 2:
            bonus = sum(pares[s] for s in (side, side + 2))
        elif index == 3 and anybody_juego:
            bonus = sum(
                3 if juego_points[s] == 31 else 2 if juego_points[s] else 0
                for s in (side, side + 2)
            )
        elif index == 3:
            bonus = 1
        else:
            bonus = 0
        if bonus:
            count_events.append(ScoreEvent(name, side, bonus, "bonus"))

    if ordago is not None:
        return HandScore(tuple(deje_events), tuple(results), ordago)
    return HandScore(tuple(deje_events + count_events), tuple(results))


def _juego_points(declared: int) -> int:
    if declared == JUEGO_REAL:
        return 31
    if declared == JUEGO_OTHER:
        return 33  # any juego but 31: worth 2, its exact number unknown
    return declared


def _lance_result(
    rules: RuleSet,
    record: HandRecord,
    index: int,
    name: str,
    betting: Betting,
    speakers: tuple[int, ...],
) -> LanceResult:
    outcome = betting.outcome
    if outcome is Outcome.NO_QUERIDO:
        return LanceResult(name, outcome, betting.side, None)
    if not speakers:
        return LanceResult(name, outcome, None, None)
    if outcome is Outcome.NOT_PLAYED:
        return LanceResult(name, outcome, speakers[0] % 2, None)
    cards = record.cards
    if cards is not None:
        rank_index = 4 if name == "punto" else index
        seat = _best_seat(cards, rank_index, speakers)
        best = cards[seat]
        others = [s for s in speakers if s % 2 != seat % 2]
        other_seat = _best_seat(cards, rank_index, others) if others else None
        other = cards[other_seat] if other_seat is not None else None
        tie = other is not None and _rank(other, rank_index) == _rank(best, rank_index)
        declared = record.declarations.winners.get(name) if record.declarations else None
        if declared is not None and declared != seat % 2:
            raise DeclarationError(
                f"Pareja {SIDE_NAMES[declared]} was entered as the winner of {name}, but the "
                f"cards say otherwise: {LanceResult(name, outcome, seat % 2, seat, best, other, tie).reason}.",
                code="winner_contradicts_cards",
                lance=name,
            )
        return LanceResult(name, outcome, seat % 2, seat, best, other, tie)
    side = _declared_winner(rules, record.declarations, index, name)
    return LanceResult(name, outcome, side, None)


def _declared_winner(rules: RuleSet, decl: Declarations, index: int, name: str) -> int:
    """The winner of a lance entered without cards: declared, or derived where it can be."""
    declared = decl.winners.get(name, decl.winners.get(LANCES[index]))
    derived = None
    why = ""
    if index == 2:
        best = [max(decl.pares[0], decl.pares[2]), max(decl.pares[1], decl.pares[3])]
        if best[0] != best[1]:
            derived = 0 if best[0] > best[1] else 1
            why = (
                f"pareja {SIDE_NAMES[derived]} has {PARES_NAMES[best[derived]]} and pareja "
                f"{SIDE_NAMES[1 - derived]} only {PARES_NAMES[best[1 - derived]]}"
            )
    elif index == 3 and name == "juego":
        values = decl.juego
        if all(v != JUEGO_OTHER for v in values):
            ranks = [
                juego_rank(31, real=rules.real_31 is not Real31.OFF)
                if v == JUEGO_REAL
                else juego_rank(v)
                for v in values
            ]
            seat = max(range(4), key=lambda s: (ranks[s], -s))
            derived = seat % 2
            why = f"the {SEAT_NAMES[seat]}'s juego is the best"
    elif index == 3 and decl.punto is not None:
        seat = max(range(4), key=lambda s: (decl.punto[s], -s))
        derived = seat % 2
        why = f"the {SEAT_NAMES[seat]}'s punto of {decl.punto[seat]} is the best"
    if declared is None:
        if derived is None:
            raise DeclarationError(
                f"Who won {name}? Without the cards the winner of each lance that was seen must "
                "be given.",
                code="winner_missing",
                lance=name,
            )
        return derived
    if derived is not None and declared != derived:
        raise DeclarationError(
            f"Pareja {SIDE_NAMES[declared]} cannot have won {name}: {why}.",
            code="winner_contradicts",
            lance=name,
        )
    if index == 2 and not (decl.pares[declared] or decl.pares[declared + 2]):
        raise DeclarationError(
            f"Pareja {SIDE_NAMES[declared]} cannot win pares: neither of its players has pares.",
            code="winner_without_pares",
            lance=name,
        )
    if index == 3 and name == "juego" and not (decl.juego[declared] or decl.juego[declared + 2]):
        raise DeclarationError(
            f"Pareja {SIDE_NAMES[declared]} cannot win juego: neither of its players has juego.",
            code="winner_without_juego",
            lance=name,
        )
    return declared


def _check_declarations(rules: RuleSet, decl: Declarations) -> None:
    for seat in range(4):
        kind = decl.pares[seat]
        if kind not in (PARES_NONE, PAR, MEDIAS, DUPLES):
            raise DeclarationError(
                f"The {SEAT_NAMES[seat]}'s pares must be none, par, medias or duples.",
                code="pares_value",
                seat=SEAT_NAMES[seat],
            )
        j = decl.juego[seat]
        if j not in JUEGO_VALUES and j not in (JUEGO_NONE, JUEGO_OTHER, JUEGO_REAL):
            if j in (38, 39):
                message = (
                    f"The {SEAT_NAMES[seat]} cannot have {j} in juego: with no 8s or 9s in the "
                    "deck, juego is 31, 32, 33, 34, 35, 36, 37 or 40."
                )
            elif isinstance(j, int) and 4 <= j <= 30:
                message = (
                    f"The {SEAT_NAMES[seat]}'s {j} is not juego (juego is 31 or more): "
                    "declare it as punto."
                )
            else:
                message = (
                    f"The {SEAT_NAMES[seat]} cannot have {j!r} in juego: juego is 31, 32, 33, "
                    "34, 35, 36, 37 or 40."
                )
            raise DeclarationError(message, code="juego_value", seat=SEAT_NAMES[seat], value=j)
    anybody = any(decl.juego)
    if decl.punto is not None:
        if anybody:
            raise DeclarationError(
                "Punto is played only when nobody has juego, but juego was declared.",
                code="punto_with_juego",
            )
        for seat, p in enumerate(decl.punto):
            if isinstance(p, bool) or not isinstance(p, int) or not 4 <= p <= 30:
                raise DeclarationError(
                    f"The {SEAT_NAMES[seat]}'s punto must be from 4 to 30, not {p!r}.",
                    code="punto_value",
                    seat=SEAT_NAMES[seat],
                    value=p,
                )
    for lance, side in decl.winners.items():
        if lance not in ("grande", "chica", "pares", "juego", "punto") or side not in (0, 1):
            raise DeclarationError(
                f"A lance winner is the pair 'mano' or 'postre' in grande, chica, pares, juego "
                f"or punto (got {lance!r}: {side!r}).",
                code="winner_format",
            )


def _check_against_cards(rules: RuleSet, decl: Declarations, cards: tuple[HandValue, ...]) -> None:
    honest = declarations_from_cards(rules, cards)
    for seat in range(4):
        if decl.pares[seat] != honest.pares[seat]:
            raise DeclarationError(
                f"The {SEAT_NAMES[seat]} declared {PARES_NAMES[decl.pares[seat]]} in pares but "
                f"holds {cards[seat].describe('pares')}.",
                code="pares_contradicts_cards",
                seat=SEAT_NAMES[seat],
            )
        declared, real = decl.juego[seat], honest.juego[seat]
        ok = (
            declared == real
            or (declared == JUEGO_OTHER and real not in (0, 31, JUEGO_REAL))
            or (declared == 31 and real == JUEGO_REAL)
        )
        if not ok:
            raise DeclarationError(
                f"The {SEAT_NAMES[seat]} declared juego {declared or 'none'} but the cards "
                f"add up to {cards[seat].points}.",
                code="juego_contradicts_cards",
                seat=SEAT_NAMES[seat],
            )
