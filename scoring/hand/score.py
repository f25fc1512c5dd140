"""``score_hand``: one hand scored, the pairs' four seats on their fast path.

Responsible for: where a hand is scored — a form other than pairs by scoring.table (which
registers its scorer in ``OTHER_FORMS``), a hand written as lance points by scoring.lances, the
tío Perete first where the rule set plays it (one stone to the pair of each player who showed
4-5-6-7, counted before any lance), a hand with declarations by declared.py — and the fast
path of a hand of four with only its cards: each lance's situation from the four hands' packed
values (who has the best cards in it and what each seat holds; in C where scoring/_cards.c is
built, with the same answers), each lance scored once per betting and situation and kept, and
the lances taken in order, no further than an accepted órdago.

Must not: add the events to a game (match.py does: the first pair to reach the target wins
there and then, so the order of the events matters) or know about tournaments.

Terms: lance (grande, chica, pares, juego, punto), paso, envite, deje, quiero/no quiero,
órdago, par/medias/duples, juego/punto, 31 real, mano, postre.
"""

from __future__ import annotations

from dataclasses import replace

from scoring._speedup import load as load_speedup
from scoring.betting import Action, resolve
from scoring.cards import PACKED_SHIFTS, PACKED_WIDTHS
from scoring.errors import DeclarationError
from scoring.hand.declared import _check_perete_declared, _check_perete_held, _score_declared
from scoring.hand.events import (
    _check_nothing_after_ordago,
    _hand_score,
    _Lance,
    _new_score,
    _score_lance,
)
from scoring.hand.record import HandRecord, HandScore, ScoreEvent
from scoring.hand.seats import _ALL_SEATS, _SEATS_OF, LANCES, PERETE_RANKS
from scoring.rules import Form, RuleSet

_PAIRS = Form.PAIRS

_cards = load_speedup()  # optional, same results (scoring/_speedup.py)
_situations = _cards.situations if _cards is not None else None

#: whether the optional C speed-up (scoring/_cards.c) is built and used; the results are the same
C_SPEEDUP = _situations is not None

#: (id(actions), situation) → _Lance, for hands scored from their cards. ``situation`` holds
#: all else a lance's score depends on (see _situations_py; bits 12-16 the rule set's minimum
#: envite and dejes), and tables repeat the same few bettings (the JSON reader hands out one
#: tuple per distinct one) and there are few ways to hold pares and juego, so this stays small.
#: Keyed by id because hashing the actions costs more than the look-up; each _Lance keeps its
#: ``actions`` alive, so while an entry is here no other object can have that id.
_LANCES: dict[tuple[int, int], _Lance] = {}

#: the scorer of every form but pairs: scoring.table registers it here when the package is
#: imported (it imports scoring.hand, so scoring.hand cannot import it)
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
    if decl is not None:
        seats = decl.perete
        if cards is not None:
            _check_perete_held(seats, cards)
    else:
        seats = tuple(s for s in range(4) if cards[s].ranks == PERETE_RANKS) if cards else ()
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
