"""The four hands' cards read, and what honest players holding them declare.

Responsible for: ``hand_values`` (the four hands in seat order from mano, each card dealt
once; the common case in C where scoring/_cards.c is built, with the same answers:
scoring/_speedup.py), the 31 real of the variants that look at the suits, and
``declarations_from_cards`` (what each player with these cards declares, the seats that hold
the tío Perete, and who wins each lance).

Must not: score a hand (score.py) or check what was declared against the cards (declared.py).

Terms: mano, postre, pares, juego, punto, 31 real, tío Perete.
"""

from __future__ import annotations

from scoring._speedup import load as load_speedup
from scoring.cards import (
    _MULTISET_VALUES,
    CARD_CODES,
    DECK,
    DECK_MASK,
    HandValue,
    hand_mask_and_ranks,
    hand_value,
    multiset_table,
    multiset_values,
    value_table,
)
from scoring.errors import CardError, seat_term
from scoring.hand.record import Declarations
from scoring.hand.seats import JUEGO_NONE, JUEGO_REAL, PERETE_RANKS, SEAT_NAMES, _best_seat
from scoring.rules import SUITED_REAL_31, RuleSet

_cards = load_speedup()  # optional, same results (scoring/_speedup.py)
_c_hand_values = _cards.hand_values if _cards is not None else None


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
