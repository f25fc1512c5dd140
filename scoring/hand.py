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

from scoring.betting import RESOLVED, SIDE_NAMES, Act, Action, Outcome, resolve
from scoring.cards import (
    CARD_CODES,
    DECK_MASK,
    DUPLES,
    MEDIAS,
    PAR,
    PARES_NAMES,
    PARES_NONE,
    HandValue,
    hand_mask_and_ranks,
    juego_rank,
    multiset_table,
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


_LANCE_INDEX = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 4}


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
        if self.side is None:
            return f"nobody has {self.lance}"
        who = f"pareja {SIDE_NAMES[self.side]}"
        if self.outcome is Outcome.NO_QUERIDO:
            return f"{who} bet and the envite was refused (no quiero)"
        if self.outcome is Outcome.NOT_PLAYED and self.lance in ("pares", "juego"):
            return f"only {who} has {self.lance}"
        best = self.best
        if best is None:
            return f"{who} won {self.lance} (declared)"
        mine = best.describe(self.lance)
        other = self.other
        if other is None:
            return f"{mine}; the other pair has no {self.lance}"
        theirs = other.describe(self.lance)
        if self.tie:
            return f"{mine} ties with {theirs}; the player nearer mano wins"
        if best.real and self.lance == "juego" and best.points == other.points:
            return f"{mine} beats {theirs} (31 real, whatever the seat)"
        return f"{mine} beats {theirs}"


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


# ---------------------------------------------------------------------------------------------


def hand_values(rules: RuleSet, hands: object) -> tuple[HandValue, HandValue, HandValue, HandValue]:
    """Parse the four hands in seat order from mano and check that no card is dealt twice."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise CardError(
            "Give the cards of the four players, in seat order from mano.", code="four_hands"
        )
    try:  # the hot path: four hands of four cards in the compact form
        t0, t1, t2, t3 = hands[0].split(), hands[1].split(), hands[2].split(), hands[3].split()
        if len(t0) == len(t1) == len(t2) == len(t3) == 4:
            code = CARD_CODES.__getitem__
            a, b, c, d = (
                sum(map(code, t0)),
                sum(map(code, t1)),
                sum(map(code, t2)),
                sum(map(code, t3)),
            )
            # 16 single bits add up to 16 set bits only if no two were equal (no carries)
            if ((a + b + c + d) & DECK_MASK).bit_count() == 16:
                by_multiset = multiset_table(rules.kings, rules.real_31)
                return (
                    by_multiset[a >> 40],
                    by_multiset[b >> 40],
                    by_multiset[c >> 40],
                    by_multiset[d >> 40],
                )
    except (AttributeError, KeyError):
        pass  # not text, or not the compact form: the slow path below says what is wrong
    table = value_table(rules.kings, rules.real_31)
    m0, r0 = hand_mask_and_ranks(hands[0], "mano")
    m1, r1 = hand_mask_and_ranks(hands[1], "second")
    m2, r2 = hand_mask_and_ranks(hands[2], "third")
    m3, r3 = hand_mask_and_ranks(hands[3], "postre")
    if (m0 | m1 | m2 | m3).bit_count() != 16:
        _raise_dealt_twice((m0, m1, m2, m3))
    return table[r0], table[r1], table[r2], table[r3]


def _raise_dealt_twice(masks: tuple[int, ...]) -> None:
    from scoring.cards import DECK, card_name  # error path only

    seen = 0
    for seat, mask in enumerate(masks):
        if seen & mask:
            card = next(c for c in DECK if mask & seen & (1 << c.index))
            raise CardError(
                f"The {card_name(card)} ({card.code}) was dealt to two players; each card is in "
                "the deck once.",
                code="duplicate_card",
                card=card.code,
                seat=SEAT_NAMES[seat],
            )
        seen |= mask


def declarations_from_cards(rules: RuleSet, cards: tuple[HandValue, ...]) -> Declarations:
    """What honest players with these cards declare, and who wins each lance."""
    pares = tuple(v.pares for v in cards)
    juego = tuple(
        (JUEGO_REAL if v.real else v.points) if v.has_juego else JUEGO_NONE for v in cards
    )
    nobody = not any(v.has_juego for v in cards)
    punto = tuple(v.points for v in cards) if nobody else None
    winners = {
        "grande": _best_seat(cards, 0, range(4)) % 2,
        "chica": _best_seat(cards, 1, range(4)) % 2,
    }
    with_pares = [s for s in range(4) if pares[s]]
    if with_pares:
        winners["pares"] = _best_seat(cards, 2, with_pares) % 2
    if nobody:
        winners["punto"] = _best_seat(cards, 4, range(4)) % 2
    else:
        winners["juego"] = _best_seat(cards, 3, [s for s in range(4) if juego[s]]) % 2
    return Declarations(pares, juego, punto, winners)  # type: ignore[arg-type]


def _best_seat(cards: tuple[HandValue, ...], lance_index: int, seats) -> int:
    best_seat, best = -1, -1
    for seat in seats:  # strict '>' keeps the seat nearer mano on a tie
        r = cards[seat].keys[lance_index]
        if r > best:
            best_seat, best = seat, r
    return best_seat


_ALL_SEATS = (0, 1, 2, 3)
#: the seats whose bit is set in a 4-bit mask, in seat order
_SEATS_OF = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(16))


def score_hand(rules: RuleSet, record: HandRecord) -> HandScore:
    """Score one hand. Raises the engine's error for anything that cannot have happened."""
    cards = record.cards
    decl = record.declarations
    if decl is not None:
        _check_declarations(rules, decl)
        if cards is not None:
            _check_against_cards(rules, decl, cards)
    if cards is not None:
        c0, c1, c2, c3 = cards
        pares = (c0.pares, c1.pares, c2.pares, c3.pares)
        juego_points = (c0.juego_points, c1.juego_points, c2.juego_points, c3.juego_points)
    elif decl is not None:
        pares = decl.pares
        juego_points = tuple(_juego_points(j) for j in decl.juego)
    else:
        raise DeclarationError(
            "A hand needs either the four players' cards or what each player declared.",
            code="nothing_recorded",
        )
    anybody_juego = bool(juego_points[0] or juego_points[1] or juego_points[2] or juego_points[3])
    pares_speakers = _SEATS_OF[
        bool(pares[0]) | bool(pares[1]) << 1 | bool(pares[2]) << 2 | bool(pares[3]) << 3
    ]
    if anybody_juego:
        last, last_speakers = (
            "juego",
            _SEATS_OF[
                bool(juego_points[0])
                | bool(juego_points[1]) << 1
                | bool(juego_points[2]) << 2
                | bool(juego_points[3]) << 3
            ],
        )
    else:
        last, last_speakers = "punto", _ALL_SEATS
    lances = (
        ("grande", _ALL_SEATS, 0),
        ("chica", _ALL_SEATS, 1),
        ("pares", pares_speakers, 2),
        (last, last_speakers, 3 if anybody_juego else 4),
    )
    min_envite = rules.min_envite
    dejes: list[ScoreEvent] = []
    count: list[ScoreEvent] = []
    results: list[tuple] = []
    bets = record.bets
    for index, (name, speakers, key) in enumerate(lances):
        actions = bets[index]
        betting = RESOLVED.get((actions, speakers, min_envite)) or resolve(
            actions, lance=name, speakers=speakers, min_envite=min_envite
        )
        outcome = betting.outcome
        seat = None
        if outcome is _NO_QUERIDO:
            side = betting.side
            if rules.dejes:
                dejes.append(ScoreEvent(name, side, betting.stones, "deje"))
        elif outcome is _NOT_PLAYED:
            side = speakers[0] % 2 if speakers else None
        elif cards is not None:
            seat = _best_seat(cards, key, speakers)
            side = seat % 2
            if decl is not None:
                _check_declared_winner(
                    decl, name, LanceResult(name, outcome, side, seat, cards, speakers)
                )
        else:
            side = _declared_winner(rules, decl, index, name)
        if decl is not None and outcome is not _NO_QUERIDO:
            _check_claim(decl, name, side)
        results.append((name, outcome, side, seat, speakers))
        if outcome is _ORDAGO:
            _check_nothing_after_ordago(record, index, name, anybody_juego)
            ordago = ScoreEvent(name, side, 0, "ordago")
            return HandScore(tuple(dejes), ordago, tuple(results), cards)
        if side is None:
            continue
        if outcome is _QUERIDO:
            count.append(ScoreEvent(name, side, betting.stones, "envite"))
        if index < 2:  # grande and chica: 1 stone en paso, no bonus
            if outcome is _PASO:
                count.append(ScoreEvent(name, side, 1, "paso"))
            continue
        if index == 2:
            bonus = pares[side] + pares[side + 2]
        elif key == 3:
            bonus = _JUEGO_BONUS[juego_points[side]] + _JUEGO_BONUS[juego_points[side + 2]]
        else:
            bonus = 1  # punto
        if bonus:
            count.append(ScoreEvent(name, side, bonus, "bonus"))
    return HandScore(tuple(dejes + count), None, tuple(results), cards)


_NO_QUERIDO, _NOT_PLAYED, _ORDAGO, _QUERIDO, _PASO = (
    Outcome.NO_QUERIDO,
    Outcome.NOT_PLAYED,
    Outcome.ORDAGO,
    Outcome.QUERIDO,
    Outcome.PASO,
)
_JUEGO_BONUS = {0: 0, 31: 3, 32: 2, 33: 2, 34: 2, 35: 2, 36: 2, 37: 2, 40: 2}


def _check_nothing_after_ordago(
    record: HandRecord, index: int, name: str, anybody_juego: bool
) -> None:
    for later in range(index + 1, 4):
        if any(a.act is not Act.PASO for a in record.bets[later]):
            lance = LANCES[later] if later < 3 or anybody_juego else "punto"
            raise DeclarationError(
                f"The órdago accepted in {name} ended the game: nothing can be bet in {lance} "
                "after it.",
                code="bet_after_ordago",
                lance=lance,
            )


def _check_claim(decl: Declarations, name: str, side: int | None) -> None:
    """A declared winner must be a pair that can have won the lance."""
    declared = decl.winners.get(name)
    if declared is None or declared == side:
        return
    if side is None:
        raise DeclarationError(
            f"Nobody has {name}, so no pair can have won it; leave its winner out.",
            code=f"winner_without_{name}",
            lance=name,
        )
    raise DeclarationError(
        f"Pareja {SIDE_NAMES[declared]} cannot have won {name}: only pareja "
        f"{SIDE_NAMES[side]} has {name}.",
        code=f"winner_without_{name}",
        lance=name,
    )


def _check_declared_winner(decl: Declarations, name: str, result: LanceResult) -> None:
    declared = decl.winners.get(name)
    if declared is not None and declared != result.side:
        raise DeclarationError(
            f"Pareja {SIDE_NAMES[declared]} was entered as the winner of {name}, but the cards "
            f"say otherwise: {result.reason}.",
            code="winner_contradicts_cards",
            lance=name,
        )


def _juego_points(declared: int) -> int:
    if declared == JUEGO_REAL:
        return 31
    if declared == JUEGO_OTHER:
        return 33  # any juego but 31: worth 2, its exact number unknown
    return declared


def _declared_winner(rules: RuleSet, decl: Declarations, index: int, name: str) -> int:
    """The winner of a lance entered without cards: declared, or derived where it can be."""
    declared = decl.winners.get(name)
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
    if "juego" in decl.winners and not anybody:
        raise DeclarationError(
            "Nobody declared juego, so punto was played: give the winner of punto, not of juego.",
            code="winner_without_juego",
            lance="juego",
        )
    if "punto" in decl.winners and anybody:
        raise DeclarationError(
            "Punto is played only when nobody has juego, but juego was declared: give the "
            "winner of juego.",
            code="winner_without_punto",
            lance="punto",
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
        punto_known = decl.punto is not None and honest.punto is not None
        if punto_known and decl.punto[seat] != honest.punto[seat]:
            raise DeclarationError(
                f"The {SEAT_NAMES[seat]} declared punto {decl.punto[seat]} but the cards "
                f"add up to {honest.punto[seat]}.",
                code="punto_contradicts_cards",
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
                f"The {SEAT_NAMES[seat]} declared {_juego_words(declared)} but the cards "
                f"add up to {cards[seat].points}.",
                code="juego_contradicts_cards",
                seat=SEAT_NAMES[seat],
            )


def _juego_words(declared: int) -> str:
    if declared == JUEGO_NONE:
        return "no juego"
    if declared == JUEGO_OTHER:
        return "a juego other than 31"
    if declared == JUEGO_REAL:
        return "31 real"
    return f"juego {declared}"
