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
This module is the four-seat path of the pairs form, built for speed; ``score_hand`` hands
every other form to scoring.table, which scores any form (pairs too, with the same answers).

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

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from scoring._speedup import load as load_speedup
from scoring.betting import SIDE_NAMES, Act, Action, Betting, Outcome, resolve
from scoring.cards import (
    _MULTISET_VALUES,
    CARD_CODES,
    DECK,
    DECK_MASK,
    DUPLES,
    MEDIAS,
    PACKED_SHIFTS,
    PACKED_WIDTHS,
    PAR,
    PARES_NONE,
    HandValue,
    hand_mask_and_ranks,
    hand_value,
    juego_rank,
    multiset_table,
    multiset_values,
    value_table,
)
from scoring.errors import (
    CardError,
    DeclarationError,
    Phrase,
    ScoringError,
    lance_term,
    seat_term,
    shown,
)
from scoring.messages import Term
from scoring.rules import SUITED_REAL_31, Form, Real31, RuleSet

_PAIRS = Form.PAIRS

_cards = load_speedup()  # optional, same results (scoring/_speedup.py)
_c_hand_values = _cards.hand_values if _cards is not None else None
_situations = _cards.situations if _cards is not None else None

#: whether the optional C speed-up (scoring/_cards.c) is built and used; the results are the same
C_SPEEDUP = _situations is not None

LANCES = ("grande", "chica", "pares", "juego")
SEAT_NAMES = ("mano", "second", "third", "postre")
#: PARES_NAMES as a message shows them: words the reader's language translates
_PARES_TERMS = {
    PARES_NONE: Term("none"),
    PAR: Term("par"),
    MEDIAS: Term("medias"),
    DUPLES: Term("duples"),
}

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


# ---------------------------------------------------------------------------------------------


def hand_values(rules: RuleSet, hands: object) -> tuple[HandValue, HandValue, HandValue, HandValue]:
    """Parse the four hands in seat order from mano and check that no card is dealt twice."""
    if rules.real_31 in SUITED_REAL_31:  # the suits matter: read the cards one by one
        return _suited_hand_values(rules, hands)
    if _c_hand_values is not None:  # the hot path, in C when it is built (scoring/_cards.c)
        values = _c_hand_values(
            hands,
            _MULTISET_VALUES.get((rules.kings, rules.real_31))
            or multiset_values(rules.kings, rules.real_31),
        )
        if values is not None:
            return values
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise CardError(
            "Give the cards of the four players, in seat order from mano.", code="four_hands"
        )
    try:  # the same in Python: four hands of four cards in the compact form
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


def _suited_hand_values(rules: RuleSet, hands: object) -> tuple[HandValue, ...]:
    """hand_values for a 31 real that depends on the suits: the rank table finds every
    sota+7+7+7, and cards.suited_real keeps those of the right suits."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise CardError(
            "Give the cards of the four players, in seat order from mano.", code="four_hands"
        )
    table = value_table(rules.kings, rules.real_31)
    masks, values = [], []
    for seat, text in enumerate(hands):
        mask, ranks = hand_mask_and_ranks(text, SEAT_NAMES[seat])
        masks.append(mask)
        value = table[ranks]
        if value.real:
            cards = tuple(c for c in DECK if mask >> c.index & 1)
            value = hand_value(cards, rules.kings, rules.real_31, rules.real_31_suit)
        values.append(value)
    if (masks[0] | masks[1] | masks[2] | masks[3]).bit_count() != 16:
        _raise_dealt_twice(tuple(masks))
    return tuple(values)  # type: ignore[return-value]


def _raise_dealt_twice(masks: tuple[int, ...]) -> None:
    from scoring.cards import DECK, card_name  # error path only

    seen = 0
    for seat, mask in enumerate(masks):
        if seen & mask:
            card = next(c for c in DECK if mask & seen & (1 << c.index))
            raise CardError(
                "The {name} ({card}) was dealt to two players; each card is in the deck once.",
                code="duplicate_card",
                name=card_name(card),
                card=card.code,
                seat=seat_term(SEAT_NAMES[seat]),
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
    perete = ()
    if rules.tio_perete:
        perete = tuple(s for s in range(4) if cards[s].ranks == PERETE_RANKS)
    return Declarations(pares, juego, punto, winners, perete)  # type: ignore[arg-type]


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
_NOBODY = 6  # a lance nobody takes


#: One lance of a hand, scored, as a plain tuple (indexing a tuple is much faster than reading
#: a NamedTuple's field, and this is the innermost loop): (0) its deje, () or (event,), if the
#: envite was refused and dejes count; (1) its events at the count; (2) who won it and how,
#: (name, outcome, side, seat, speakers); (3) the accepted órdago that ends the hand there, or
#: None (then nothing else of the lance counts); (4) the betting it was scored from (_LANCES).
_Lance = tuple


def _score_lance(
    name: str,
    key: int,
    betting: Betting,
    speakers: tuple[int, ...],
    dejes: bool,
    contested: int,
    bonus: tuple[int, int],
    actions: tuple[Action, ...] = (),
) -> _Lance:
    """A lance from how its betting ended. ``contested``: the winner when the betting left it
    open, as the winning seat 0-3 when the cards decided it or 4 + side when a declaration did;
    ``bonus``: the pares or juego bonus each side would score (punto's is always 1);
    ``actions``: kept in the result for _LANCES."""
    outcome = betting.outcome
    if outcome is _NO_QUERIDO:  # the pair that bet takes the lance
        w = 4 + betting.side
    elif outcome is _NOT_PLAYED:  # the only pair that has it takes its bonus
        w = 4 + speakers[0] % 2 if speakers else _NOBODY
    else:
        w = contested
    side = None if w == _NOBODY else w % 2
    decided = (name, outcome, side, w if w < 4 else None, speakers)
    deje = ()
    if outcome is _NO_QUERIDO and dejes:
        deje = (ScoreEvent(name, side, betting.stones, "deje"),)
    if outcome is _ORDAGO:
        return (), (), decided, ScoreEvent(name, side, 0, "ordago"), actions
    count = []
    if side is not None:
        if outcome is _QUERIDO:
            count.append(ScoreEvent(name, side, betting.stones, "envite"))
        if key < 2:  # grande and chica: 1 stone en paso, no bonus
            if outcome is _PASO:
                count.append(ScoreEvent(name, side, 1, "paso"))
        elif key == 4 or bonus[side]:  # punto: 1; pares and juego: the pair's bonus
            count.append(ScoreEvent(name, side, 1 if key == 4 else bonus[side], "bonus"))
    return deje, tuple(count), decided, None, actions


def _hand_score(
    lances: tuple[_Lance, ...] | list[_Lance], cards: tuple[HandValue, ...] | None
) -> HandScore:
    """The hand from its lances in order: dejes as they happen, then the count; an accepted
    órdago ends the hand (the dejes before it stand, nothing else counts)."""
    dejes: tuple[ScoreEvent, ...] = ()
    count: tuple[ScoreEvent, ...] = ()
    decided = tuple(lance[2] for lance in lances)
    for deje, counted, _decided, ordago, _actions in lances:
        if ordago is not None:
            return _new_score(HandScore, (dejes, ordago, decided, cards))
        dejes += deje
        count += counted
    return _new_score(HandScore, (dejes + count, None, decided, cards))


#: (id(actions), situation) → _Lance, for hands scored from their cards. ``situation`` holds
#: all else a lance's score depends on (see _situations_py; bits 12-16 the rule set's minimum
#: envite and dejes), and tables repeat the same few bettings (the JSON reader hands out one
#: tuple per distinct one) and there are few ways to hold pares and juego, so this stays small.
#: Keyed by id because hashing the actions costs more than the look-up; each _Lance keeps its
#: ``actions`` alive, so while an entry is here no other object can have that id.
_LANCES: dict[tuple[int, int], _Lance] = {}


def _lance_from_cards(actions: tuple[Action, ...], situation: int) -> _Lance:
    index = situation & 3
    best = situation >> 2 & 3
    held = situation >> 4 & 0xFF  # pares (index 2) or juego bonus (index 3) of each seat
    min_envite, dejes = situation >> 12 & 0xF, bool(situation >> 16)
    bonus = (0, 0)
    if index < 2:
        name, speakers, key = LANCES[index], _ALL_SEATS, index
    else:
        mask = sum(1 << seat for seat in range(4) if held >> 2 * seat & 3)
        bonus = (held & 3) + (held >> 4 & 3), (held >> 2 & 3) + (held >> 6 & 3)
        if index == 2:
            name, speakers, key = "pares", _SEATS_OF[mask], 2
        elif mask:
            name, speakers, key = "juego", _SEATS_OF[mask], 3
        else:
            name, speakers, key = "punto", _ALL_SEATS, 4
    betting = resolve(actions, lance=name, speakers=speakers, min_envite=min_envite)
    lance = _score_lance(name, key, betting, speakers, dejes, best, bonus, actions)
    if len(_LANCES) >= 100_000:  # callers that build a new tuple for every hand
        _LANCES.clear()
    _LANCES[id(actions), situation] = lance
    return lance


#: the scorer of every form but pairs: scoring.table registers it here when the package is
#: imported (it imports this module, so this module cannot import it)
OTHER_FORMS: list = []


def score_hand(rules: RuleSet, record: HandRecord) -> HandScore:
    """Score one hand. Raises the engine's error for anything that cannot have happened.

    Pairs take the four-seat path below; every other form goes to scoring.table.score_table
    (a TableScore, with the same events, ordago, lances and stones)."""
    if rules.form is not _PAIRS:
        return OTHER_FORMS[0](rules, record)
    if rules.tio_perete:
        return _score_with_perete(rules, record)
    try:
        bets, cards, decl = record
    except (TypeError, ValueError):
        if isinstance(record, tuple):
            raise
        return record.score(rules)  # a hand written as lance points (scoring.lances)
    if decl is None and cards is not None:  # the hot path: each lance from _LANCES
        c0, c1, c2, c3 = cards
        p0, p1, p2, p3 = c0.packed, c1.packed, c2.packed, c3.packed
        common = rules.min_envite << 12 | rules.dejes << 16
        s0, s1, s2, s3 = (
            _situations(p0, p1, p2, p3, common) if _situations is not None else None
        ) or _situations_py(p0, p1, p2, p3, common)
        b0, b1, b2, b3 = bets
        # in order, and no further than an accepted órdago: a lance after it is not looked at
        g = _LANCES.get((id(b0), s0)) or _lance_from_cards(b0, s0)
        if g[3] is None:
            c = _LANCES.get((id(b1), s1)) or _lance_from_cards(b1, s1)
            if c[3] is None:
                p = _LANCES.get((id(b2), s2)) or _lance_from_cards(b2, s2)
                if p[3] is None:
                    j = _LANCES.get((id(b3), s3)) or _lance_from_cards(b3, s3)
                    if j[3] is None:  # _hand_score(), unrolled for the common case
                        events = (
                            *g[0], *c[0], *p[0], *j[0],
                            *g[1], *c[1], *p[1], *j[1],
                        )  # fmt: skip
                        decided = (g[2], c[2], p[2], j[2])
                        return _new_score(HandScore, (events, None, decided, cards))
                    lances = (g, c, p, j)
                else:
                    lances = (g, c, p)
            else:
                lances = (g, c)
        else:
            lances = (g,)
        last = lances[-1][2][0]
        _check_nothing_after_ordago(bets, len(lances) - 1, last, bool(s3 >> 4 & 0xFF))
        return _hand_score(lances, cards)
    if decl is None:
        raise DeclarationError(
            "A hand needs either the four players' cards or what each player declared.",
            code="nothing_recorded",
        )
    return _score_declared(rules, bets, cards, decl)


#: 4-5-6-7, the tío Perete (source 000 «Named hands»), as HandValue.ranks holds it
PERETE_RANKS = (7, 6, 5, 4)


def _score_with_perete(rules: RuleSet, record: HandRecord) -> HandScore:
    """A hand under the tío Perete house rule (source 000: «a single point to be awarded to a
    player that openly declares this hand before starting to play»): one stone to the pair of
    each player who showed 4-5-6-7, counted first (it was shown before any lance), so it stands
    whatever the lances do, an accepted órdago included. With the cards, every holder showed
    it; with declarations, the seats declared, who must hold it when the cards are given too."""
    if not isinstance(record, tuple):
        return record.score(rules)  # a hand written as lance points (scoring.lances)
    cards, decl = record[1], record[2]
    if decl is not None and decl.perete:
        _check_perete_declared(rules, decl)
        record = HandRecord(record[0], cards, replace(decl, perete=()))
    score = score_hand(_without_perete(rules), record)
    held = tuple(s for s in range(4) if cards[s].ranks == PERETE_RANKS) if cards else ()
    if decl is not None:
        seats = decl.perete
        for seat in seats:
            if cards is not None and seat not in held:
                raise DeclarationError(
                    "The {seat} was entered as showing the tío Perete (4-5-6-7), but holds "
                    "{holds}.",
                    code="perete_contradicts_cards",
                    seat=seat_term(SEAT_NAMES[seat]),
                    holds="-".join(str(r) for r in cards[seat].ranks),
                )
    else:
        seats = held
    if not seats:
        return score
    perete = tuple(ScoreEvent("perete", seat % 2, 1, "perete") for seat in sorted(seats))
    return _new_score(HandScore, (perete + score.events, score.ordago, score.decided, score.cards))


_PLAIN_RULES: dict[RuleSet, RuleSet] = {}


def _without_perete(rules: RuleSet) -> RuleSet:
    plain = _PLAIN_RULES.get(rules)
    if plain is None:
        plain = _PLAIN_RULES[rules] = replace(rules, tio_perete=False)
    return plain


def _check_perete_declared(rules: RuleSet, decl: Declarations) -> None:
    for seat in decl.perete:
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise DeclarationError(
                "The tío Perete is shown by a seat from 0 (mano) to 3 (postre), not {value}.",
                code="perete_seat",
                value=shown(seat),
            )
    if decl.perete and not rules.tio_perete:
        raise DeclarationError(
            "The tío Perete (4-5-6-7) scores nothing under this rule set: leave it out, or "
            "play with the tio_perete option.",
            code="perete_off",
        )
    if len(set(decl.perete)) != len(decl.perete):
        raise DeclarationError("A seat shows the tío Perete once a hand.", code="perete_twice")


def _check_not_played_winners(
    decl: Declarations, cards: tuple[HandValue, ...] | None, index: int, anybody_juego: bool
) -> None:
    """After an accepted órdago the later lances were never played: a winner given for one
    must be absent, or agree with the cards when they were given."""
    for later in range(index + 1, 4):
        name = LANCES[later] if later < 3 or anybody_juego else "punto"
        declared = decl.winners.get(name)
        if declared is None:
            continue
        if cards is None:
            raise DeclarationError(
                "{lance} was never played (the órdago accepted before it ended the game): "
                "leave its winner out.",
                code="winner_not_played",
                lance=lance_term(name),
            )
        key = _LANCE_INDEX[name]
        if key == 2:
            seats = [s for s in range(4) if cards[s].pares]
        elif key == 3:
            seats = [s for s in range(4) if cards[s].has_juego]
        else:
            seats = list(range(4))
        if not seats:
            raise DeclarationError(
                "Nobody has {lance}, so nobody can have won it; leave its winner out.",
                code="winner_nobody_has",
                lance=lance_term(name),
            )
        best = _best_seat(cards, key, seats)
        if best % 2 != declared:
            raise DeclarationError(
                "Pareja {declared} was entered as the winner of {lance}, but the cards say "
                "otherwise: {reason}.",
                code="winner_contradicts_cards",
                lance=lance_term(name),
                declared=SIDE_NAMES[declared],
                reason=LanceResult(
                    name, Outcome.PASO, best % 2, best, cards, tuple(seats)
                ).explanation,
            )


def _score_declared(
    rules: RuleSet,
    bets: tuple[tuple[Action, ...], ...],
    cards: tuple[HandValue, ...] | None,
    decl: Declarations,
) -> HandScore:
    """A hand entered with declarations: each lance's winner from the cards when the table gave
    them too (and then the declarations and declared winners must agree with them), else
    declared or derived from the declarations; a declared winner must be a pair that can have
    won."""
    _check_declarations(rules, decl)
    if decl.perete:
        _check_perete_declared(rules, decl)
    if cards is not None:
        _check_against_cards(rules, decl, cards)
    pares = decl.pares
    juego = tuple(_JUEGO_BONUS[_juego_points(j)] for j in decl.juego)
    anybody_juego = any(juego)
    lances_seen = (
        ("grande", _ALL_SEATS, 0, (0, 0)),
        ("chica", _ALL_SEATS, 1, (0, 0)),
        (
            "pares",
            tuple(s for s in range(4) if pares[s]),
            2,
            (pares[0] + pares[2], pares[1] + pares[3]),
        ),
        (
            "juego",
            tuple(s for s in range(4) if juego[s]),
            3,
            (juego[0] + juego[2], juego[1] + juego[3]),
        )
        if anybody_juego
        else ("punto", _ALL_SEATS, 4, (1, 1)),
    )
    lances = []
    for index, (name, speakers, key, bonus) in enumerate(lances_seen):
        betting = resolve(bets[index], lance=name, speakers=speakers, min_envite=rules.min_envite)
        contested = -1
        if betting.outcome not in (_NO_QUERIDO, _NOT_PLAYED):
            if cards is not None:
                contested = _best_seat(cards, key, speakers)
                result = LanceResult(
                    name, betting.outcome, contested % 2, contested, cards, speakers
                )
                _check_declared_winner(decl, name, result)
            else:
                contested = 4 + _declared_winner(
                    rules,
                    decl,
                    index,
                    name,
                    lambda i=index: _ordago_later(rules, bets, i, lances_seen),
                )
        lance = _score_lance(name, key, betting, speakers, rules.dejes, contested, bonus)
        if betting.outcome is not _NO_QUERIDO:
            _check_claim(decl, name, lance[2][2])
        lances.append(lance)
        if lance[3] is not None:
            _check_nothing_after_ordago(bets, index, name, anybody_juego)
            _check_not_played_winners(decl, cards, index, anybody_juego)
            break
    return _hand_score(lances, cards)


def _situations_py(p0: int, p1: int, p2: int, p3: int, common: int) -> tuple[int, int, int, int]:
    """Each lance's situation from the four hands' HandValue.packed, in seat order from mano:
    bits 0-1 the lance (grande, chica, pares, juego or punto), bits 2-3 the seat with the best
    cards in it (on a tie the seat nearer mano), bits 4-11 what each seat holds in it (pares,
    or the juego bonus; 2 bits a seat; 0 in grande and chica), and ``common`` (bits 12 up,
    the same for every lance). scoring._cards.situations is the same in C."""
    best = []
    for shift, width in zip(PACKED_SHIFTS[:5], PACKED_WIDTHS[:5], strict=True):
        mask = (1 << width) - 1
        top = max(
            (p0 >> shift & mask) * 4 + 3,
            (p1 >> shift & mask) * 4 + 2,
            (p2 >> shift & mask) * 4 + 1,
            (p3 >> shift & mask) * 4,
        )
        best.append(3 - (top & 3))
    held = [0, 0]
    for seat, packed in enumerate((p0, p1, p2, p3)):
        held[0] |= (packed >> PACKED_SHIFTS[5] & 3) << 2 * seat
        held[1] |= (packed >> PACKED_SHIFTS[6] & 3) << 2 * seat
    pares, juego = held
    return (
        best[0] << 2 | common,
        1 | best[1] << 2 | common,
        2 | best[2] << 2 | pares << 4 | common,
        3 | (best[3] if juego else best[4]) << 2 | juego << 4 | common,
    )


_new_score = tuple.__new__  # HandScore's own __new__ is a Python function: one call less


_NO_QUERIDO, _NOT_PLAYED, _ORDAGO, _QUERIDO, _PASO = (
    Outcome.NO_QUERIDO,
    Outcome.NOT_PLAYED,
    Outcome.ORDAGO,
    Outcome.QUERIDO,
    Outcome.PASO,
)
_JUEGO_BONUS = {0: 0, 31: 3, 32: 2, 33: 2, 34: 2, 35: 2, 36: 2, 37: 2, 40: 2}


def _check_nothing_after_ordago(
    bets: tuple[tuple[Action, ...], ...], index: int, name: str, anybody_juego: bool
) -> None:
    for later in range(index + 1, 4):
        if any(a.act is not Act.PASO for a in bets[later]):
            lance = LANCES[later] if later < 3 or anybody_juego else "punto"
            raise DeclarationError(
                "The órdago accepted in {ordago_lance} ended the game: nothing can be bet in "
                "{lance} after it.",
                code="bet_after_ordago",
                lance=lance_term(lance),
                ordago_lance=lance_term(name),
            )


def _check_claim(decl: Declarations, name: str, side: int | None) -> None:
    """A declared winner must be a pair that can have won the lance."""
    declared = decl.winners.get(name)
    if declared is None or declared == side:
        return
    if side is None:
        raise DeclarationError(
            "Nobody has {lance}, so nobody can have won it; leave its winner out.",
            code="winner_nobody_has",
            lance=lance_term(name),
        )
    raise DeclarationError(
        "Pareja {declared} cannot have won {lance}: only pareja {side} has {lance}.",
        code="winner_not_held",
        lance=lance_term(name),
        declared=SIDE_NAMES[declared],
        side=SIDE_NAMES[side],
    )


def _check_declared_winner(decl: Declarations, name: str, result: LanceResult) -> None:
    declared = decl.winners.get(name)
    if declared is not None and declared != result.side:
        raise DeclarationError(
            "Pareja {declared} was entered as the winner of {lance}, but the cards say "
            "otherwise: {reason}.",
            code="winner_contradicts_cards",
            lance=lance_term(name),
            declared=SIDE_NAMES[declared],
            reason=result.explanation,
        )


def _juego_points(declared: int) -> int:
    if declared == JUEGO_REAL:
        return 31
    if declared == JUEGO_OTHER:
        return 33  # any juego but 31: worth 2, its exact number unknown
    return declared


def _ordago_later(
    rules: RuleSet, bets: tuple[tuple[Action, ...], ...], index: int, lances_seen: tuple
) -> bool:
    """Whether an órdago is accepted in a lance after ``index`` (then that lance's winner is
    never counted: the órdago ends the game, 001 «lo que pase después no va a afectar»). A
    betting that cannot be read is left to the lance's own turn to report."""
    for later in range(index + 1, 4):
        name, speakers, _key, _bonus = lances_seen[later]
        try:
            outcome = resolve(
                bets[later], lance=name, speakers=speakers, min_envite=rules.min_envite
            ).outcome
        except ScoringError:
            return False
        if outcome is _ORDAGO:
            return True
    return False


def _declared_winner(
    rules: RuleSet,
    decl: Declarations,
    index: int,
    name: str,
    ordago_later: Callable[[], bool] = lambda: False,
) -> int:
    """The winner of a lance entered without cards: declared, or derived where it can be; not
    needed (``_NOBODY - 4``: nobody counts it) when an órdago is accepted in a later lance."""
    declared = decl.winners.get(name)
    derived = None
    seat = -1  # the seat whose juego or punto is the best, when that decided it
    if index == 2:
        best = [max(decl.pares[0], decl.pares[2]), max(decl.pares[1], decl.pares[3])]
        if best[0] != best[1]:
            derived = 0 if best[0] > best[1] else 1
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
    elif index == 3 and decl.punto is not None:
        seat = max(range(4), key=lambda s: (decl.punto[s], -s))
        derived = seat % 2
    if declared is None:
        if derived is None:
            if ordago_later():
                return _NOBODY - 4
            raise DeclarationError(
                "Who won {lance}? Without the cards the winner of each lance that was seen must "
                "be given.",
                code="winner_missing",
                lance=lance_term(name),
            )
        return derived
    if derived is not None and declared != derived:
        raise DeclarationError(
            "Pareja {declared} cannot have won {lance}: {why}.",
            code="winner_contradicts",
            lance=lance_term(name),
            declared=SIDE_NAMES[declared],
            why=_why(decl, name, derived, seat),
        )
    return declared


def _why(decl: Declarations, name: str, derived: int, seat: int) -> Phrase:
    """Why the declarations give a lance to the pair ``derived`` (the error path only)."""
    if name == "pares":
        best = [max(decl.pares[0], decl.pares[2]), max(decl.pares[1], decl.pares[3])]
        return Phrase(
            "pareja {side} has {kind} and pareja {other} only {other_kind}",
            code="why_pares",
            side=SIDE_NAMES[derived],
            kind=_PARES_TERMS[best[derived]],
            other=SIDE_NAMES[1 - derived],
            other_kind=_PARES_TERMS[best[1 - derived]],
        )
    if name == "juego":
        return Phrase(
            "the {seat}'s juego is the best", code="why_juego", seat=seat_term(SEAT_NAMES[seat])
        )
    return Phrase(
        "the {seat}'s punto of {punto} is the best",
        code="why_punto",
        seat=seat_term(SEAT_NAMES[seat]),
        punto=decl.punto[seat],
    )


def check_punto_declared(decl: Declarations, seat_of: Callable[[int], Term]) -> None:
    """Punto's declarations and the punto/juego winners agree with who declared juego (for
    every form: ``seat_of`` names a seat in the form's words)."""
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
                    "The {seat}'s punto must be from 4 to 30, not {value}.",
                    code="punto_value",
                    seat=seat_of(seat),
                    value=shown(p),
                )
    if "juego" in decl.winners and not anybody:
        raise DeclarationError(
            "Nobody declared juego, so punto was played: give the winner of punto, not of juego.",
            code="winner_without_juego",
            lance=lance_term("juego"),
        )
    if "punto" in decl.winners and anybody:
        raise DeclarationError(
            "Punto is played only when nobody has juego, but juego was declared: give the "
            "winner of juego.",
            code="winner_without_punto",
            lance=lance_term("punto"),
        )


def _check_declarations(rules: RuleSet, decl: Declarations) -> None:
    for seat in range(4):
        kind = decl.pares[seat]
        if kind not in (PARES_NONE, PAR, MEDIAS, DUPLES):
            raise DeclarationError(
                "The {seat}'s pares must be none, par, medias or duples.",
                code="pares_value",
                seat=seat_term(SEAT_NAMES[seat]),
            )
        j = decl.juego[seat]
        if j not in JUEGO_VALUES and j not in (JUEGO_NONE, JUEGO_OTHER, JUEGO_REAL):
            if j in (38, 39):
                raise DeclarationError(
                    "The {seat} cannot have {value} in juego: with no 8s or 9s in the deck, "
                    "juego is 31, 32, 33, 34, 35, 36, 37 or 40.",
                    code="juego_no_8_9",
                    seat=seat_term(SEAT_NAMES[seat]),
                    value=j,
                )
            if isinstance(j, int) and 4 <= j <= 30:
                raise DeclarationError(
                    "The {seat}'s {value} is not juego (juego is 31 or more): declare it as punto.",
                    code="juego_is_punto",
                    seat=seat_term(SEAT_NAMES[seat]),
                    value=j,
                )
            raise DeclarationError(
                "The {seat} cannot have {value} in juego: juego is 31, 32, 33, 34, 35, 36, 37 "
                "or 40.",
                code="juego_value",
                seat=seat_term(SEAT_NAMES[seat]),
                value=shown(j),
            )
    check_punto_declared(decl, lambda seat: seat_term(SEAT_NAMES[seat]))
    for lance, side in decl.winners.items():
        if lance not in ("grande", "chica", "pares", "juego", "punto") or side not in (0, 1):
            raise DeclarationError(
                "A lance winner is the pair 'mano' or 'postre' in grande, chica, pares, juego "
                "or punto (got {lance}: {side}).",
                code="winner_format",
                lance=shown(lance),
                side=shown(side),
            )


def _check_against_cards(rules: RuleSet, decl: Declarations, cards: tuple[HandValue, ...]) -> None:
    honest = declarations_from_cards(rules, cards)
    for seat in range(4):
        if decl.pares[seat] != honest.pares[seat]:
            raise DeclarationError(
                "The {seat} declared {declared} in pares but holds {holds}.",
                code="pares_contradicts_cards",
                seat=seat_term(SEAT_NAMES[seat]),
                declared=_PARES_TERMS[decl.pares[seat]],
                holds=cards[seat].describe("pares"),
            )
        punto_known = decl.punto is not None and honest.punto is not None
        if punto_known and decl.punto[seat] != honest.punto[seat]:
            raise DeclarationError(
                "The {seat} declared punto {declared} but the cards add up to {points}.",
                code="punto_contradicts_cards",
                seat=seat_term(SEAT_NAMES[seat]),
                declared=decl.punto[seat],
                points=honest.punto[seat],
            )
        declared, real = decl.juego[seat], honest.juego[seat]
        ok = (
            declared == real
            or (declared == JUEGO_OTHER and real not in (0, 31, JUEGO_REAL))
            or (declared == 31 and real == JUEGO_REAL)
        )
        if not ok:
            raise DeclarationError(
                "The {seat} declared {declared} but the cards add up to {points}.",
                code="juego_contradicts_cards",
                seat=seat_term(SEAT_NAMES[seat]),
                declared=_juego_words(declared),
                points=cards[seat].points,
            )


def _juego_words(declared: int) -> str:
    """What a player declared in juego, as a message shows it ("juego 33" needs no words)."""
    if declared == JUEGO_NONE:
        return Term("no juego")
    if declared == JUEGO_OTHER:
        return Term("a juego other than 31")
    if declared == JUEGO_REAL:
        return Term("31 real")
    return f"juego {declared}"
