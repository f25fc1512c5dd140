"""Cards, hands and what a hand is worth in each lance.

Responsible for: the 40-card Spanish deck (oros, copas, espadas, bastos; 1-7, sota, caballo,
rey), the compact text form of a card, parsing a player's four cards, and evaluating a hand for
grande, chica, pares and juego/punto under 8 or 4 reyes and the 31 real option (the variants
that ask for a suit are checked on the cards themselves: ``suited_real``).

Must not: decide who wins a lance between players (scoring.hand does, with seat order), or score.

Text form of a card: the rank then the suit, case-insensitive.
- rank: ``1``/``A`` (as), ``2`` … ``7``, ``S``/``10`` (sota), ``C``/``11`` (caballo),
  ``R``/``12`` (rey);
- suit: ``o`` oros, ``c`` copas, ``e`` espadas, ``b`` bastos, or the suit's whole name after a
  hyphen or a space: ``Ro``, ``R-oros``, ``7c``, ``7 copas``, ``As-espadas``.
A hand is four cards separated by spaces or commas (``"Ro Rc 7e 1b"``) or a list of four.

Terms: grande (highest cards), chica (lowest), pares (par, medias, duples), juego (31 or more:
31, 32, 40, 37, 36, 35, 34, 33 in that order), punto (30 or less, when nobody has juego),
31 real. With 8 reyes every 3 counts as a rey and every 2 as an as, in every lance.

Evaluation is precomputed: a hand's worth depends only on its multiset of ranks, and there are
only a few hundred of those, so each is evaluated once per (kings, 31 real) and looked up.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from scoring.errors import CardError
from scoring.rules import Real31

SUITS = ("oros", "copas", "espadas", "bastos")
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)  # 10 sota, 11 caballo, 12 rey
_RANK_CODE = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 10: "S", 11: "C", 12: "R"}
_RANK_ALIASES = {
    1: ("1", "a", "as"),
    2: ("2", "dos"),
    3: ("3", "tres"),
    4: ("4", "cuatro"),
    5: ("5", "cinco"),
    6: ("6", "seis"),
    7: ("7", "siete"),
    10: ("s", "10", "sota"),
    11: ("c", "11", "caballo"),
    12: ("r", "12", "rey"),
}
_SUIT_ALIASES = {s: (s[0], s) for s in SUITS}


@dataclass(frozen=True, slots=True)
class Card:
    rank: int  # 1-7, 10 sota, 11 caballo, 12 rey
    suit: str  # oros, copas, espadas, bastos

    @property
    def code(self) -> str:
        return _RANK_CODE[self.rank] + self.suit[0]

    @property
    def index(self) -> int:
        return SUITS.index(self.suit) * 10 + RANKS.index(self.rank)

    def __str__(self) -> str:
        return self.code


DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)


def _build_lookup() -> dict[str, int]:
    table: dict[str, int] = {}
    for card in DECK:
        for r in _RANK_ALIASES[card.rank]:
            for s in _SUIT_ALIASES[card.suit]:
                for sep in ("", "-", " ", " de ", "_"):
                    if sep == "" and len(s) > 1 and len(r) > 1:
                        continue
                    table[f"{r}{sep}{s}"] = card.index
    return table


_LOOKUP = _build_lookup()


def parse_card(text: object) -> Card:
    """One card from its text form, or a CardError that names the card."""
    if not isinstance(text, str):
        raise CardError(
            "A card is written as text like 'Ro' or '7c', not {card}.",
            code="card_format",
            card=repr(text)[:40],
        )
    key = " ".join(text.strip().lower().split())
    index = _LOOKUP.get(key)
    if index is None:
        raise _unknown_card(text)
    return DECK[index]


def _unknown_card(text: str) -> CardError:
    key = text.strip().lower()
    if key[:1] in ("8", "9"):
        return CardError(
            "'{card}' is not in the Spanish deck: Mus is played without 8s and 9s.",
            code="no_8_9",
            card=text[:40],
        )
    return CardError(
        "'{card}' is not a card. Write the rank (1-7, S sota, C caballo, R rey) then the suit "
        "(o oros, c copas, e espadas, b bastos), for example 'Ro' or '7c'.",
        code="unknown_card",
        card=text[:40],
    )


def parse_hand(text: object, seat_label: str = "") -> tuple[Card, ...]:
    """Four distinct cards from ``"Ro Rc 7e 1b"`` or a list of four card texts."""
    try:
        _, indices = _parse_hand_cached(_hand_key(text))
    except CardError as error:
        raise error.for_seat(seat_label) from None
    return tuple(DECK[i] for i in indices)


def _hand_key(text: object) -> tuple[str, ...]:
    if isinstance(text, str):
        tokens = tuple(text.replace(",", " ").split())
        # a card may be written with a space ("7 copas"): rejoin rank + suit name
        if len(tokens) == 8 and all(t.lower() in _ALL_SUIT_WORDS for t in tokens[1::2]):
            tokens = tuple(f"{a} {b}" for a, b in zip(tokens[::2], tokens[1::2], strict=True))
    elif isinstance(text, (list, tuple)):
        tokens = tuple(text)
        for token in tokens:
            if not isinstance(token, str):
                raise CardError(
                    "A card is written as text like 'Ro' or '7c', not {card}.",
                    code="card_format",
                    card=repr(token)[:40],
                )
    else:
        raise CardError(
            "The cards must be text like 'Ro Rc 7e 1b' or a list of four cards.",
            code="hand_format",
        )
    if len(tokens) != 4:
        raise CardError(
            (
                "A hand has exactly 4 cards, but {count} was given.",
                "A hand has exactly 4 cards, but {count} were given.",
            ),
            code="hand_size",
            count=len(tokens),
        )
    return tokens


_ALL_SUIT_WORDS = frozenset(SUITS)


@lru_cache(maxsize=1 << 17)
def _parse_hand_cached(tokens: tuple) -> tuple[int, tuple[int, ...]]:
    indices = []
    mask = 0
    for token in tokens:
        card = parse_card(token)
        bit = 1 << card.index
        if mask & bit:
            raise CardError(
                "The {name} ({card}) appears twice in one hand; each card is in the deck once.",
                code="card_twice_in_hand",
                name=card_name(card),
                card=card.code,
            )
        mask |= bit
        indices.append(card.index)
    return mask, tuple(indices)


def hand_mask_and_ranks(text: object, seat_label: str = "") -> tuple[int, tuple[int, ...]]:
    """The deck bitmask of a hand and its natural ranks, or the CardError that says what is
    wrong with it. The slow path: hand.hand_values reads the plain case (in C, or by summing
    CARD_CODES) and comes here only for long names, lists of cards, or a mistake to explain.
    """
    try:
        mask, indices = _parse_hand_cached(_hand_key(text))
    except CardError as error:
        raise error.for_seat(seat_label) from None
    return mask, _RANKS_OF[indices]


def _build_fast() -> dict[str, tuple[int, int]]:
    """Compact spellings exactly as typed (any case) → (deck bit, rank)."""
    table = {}
    for card in DECK:
        for r in _RANK_ALIASES[card.rank]:
            if len(r) > 2:
                continue
            for rr in {r, r.upper()}:
                for s in {card.suit[0], card.suit[0].upper()}:
                    table[rr + s] = (1 << card.index, card.rank)
    return table


_FAST = _build_fast()

# Hot path: each compact card text → its bit in the deck (bits 0-39) plus 5**i << 40 for its
# rank's position i. The sum over a hand keeps the cards in the low 40 bits and, above them, a
# number that names the hand's multiset of ranks (no rank appears more than 4 times: base 5).
DECK_MASK = (1 << 40) - 1
CARD_CODES = {text: bit | (5 ** RANKS.index(rank)) << 40 for text, (bit, rank) in _FAST.items()}


class _RanksOf(dict):
    def __missing__(self, indices: tuple[int, ...]) -> tuple[int, ...]:
        value = tuple(DECK[i].rank for i in indices)
        self[indices] = value
        return value


_RANKS_OF = _RanksOf()


_NAMES = {
    1: ("as", "ases"),
    2: ("dos", "doses"),
    3: ("tres", "treses"),
    4: ("cuatro", "cuatros"),
    5: ("cinco", "cincos"),
    6: ("seis", "seises"),
    7: ("siete", "sietes"),
    10: ("sota", "sotas"),
    11: ("caballo", "caballos"),
    12: ("rey", "reyes"),
}


def card_name(card: Card) -> str:
    return f"{_NAMES[card.rank][0]} de {card.suit}"


def rank_name(rank: int, plural: bool = False) -> str:
    return _NAMES[rank][1 if plural else 0]


# ---------------------------------------------------------------------------------------------
# Evaluation

PARES_NONE, PAR, MEDIAS, DUPLES = 0, 1, 2, 3
PARES_NAMES = {PARES_NONE: "none", PAR: "par", MEDIAS: "medias", DUPLES: "duples"}
JUEGO_ORDER = (31, 32, 40, 37, 36, 35, 34, 33)  # best first
_JUEGO_RANK = {v: len(JUEGO_ORDER) - i for i, v in enumerate(JUEGO_ORDER)}  # 31 → 8 … 33 → 1
REAL_31_RANK = 9


def juego_rank(points: int, real: bool = False) -> int:
    """Higher is better; 0 means no juego."""
    if real:
        return REAL_31_RANK
    return _JUEGO_RANK.get(points, 0)


@dataclass(frozen=True, slots=True)
class HandValue:
    """What one player's four cards are worth; every *_rank is 'higher wins'."""

    ranks: tuple[int, ...]  # effective ranks, highest first (8 reyes: 3→12, 2→1)
    grande_rank: int
    chica_rank: int
    pares: int  # PARES_NONE, PAR, MEDIAS, DUPLES
    pares_rank: int  # 0 without pares
    pares_ranks: tuple[int, ...]  # the rank(s) that make the pares, highest first
    points: int  # sum of card values: figures 10, as 1, others their number
    juego_rank: int  # 0 without juego
    real: bool  # 31 real under the rule set

    keys: tuple[int, int, int, int, int]  # grande, chica, pares, juego, punto ranks
    juego_bonus: int  # 3 with 31, 2 with any other juego, 0 without
    #: ``keys``, ``pares`` and ``juego_bonus`` in one int (PACKED_SHIFTS), for
    #: scoring._cards.situations
    packed: int

    @property
    def has_juego(self) -> bool:
        return self.points >= 31

    @property
    def pares_bonus(self) -> int:
        return self.pares  # par 1, medias 2, duples 3

    def describe(self, lance: str) -> str:
        if lance == "grande" or lance == "chica":
            order = self.ranks if lance == "grande" else tuple(reversed(self.ranks))
            return "-".join(_RANK_CODE[r] for r in order)
        if lance == "pares":
            return describe_pares(self.pares, self.pares_ranks)
        if lance == "juego":
            return (
                "31 real"
                if self.real
                else f"juego de {self.points}"
                if self.has_juego
                else ("sin juego")
            )
        return f"punto de {self.points}"


def describe_pares(kind: int, ranks: tuple[int, ...]) -> str:
    if kind == PARES_NONE:
        return "sin pares"
    if kind == DUPLES:
        hi, lo = ranks
        if hi == lo:
            return f"duples de {rank_name(hi, True)} (cuatro iguales)"
        return f"duples de {rank_name(hi, True)} y {rank_name(lo, True)}"
    word = "medias" if kind == MEDIAS else "par"
    return f"{word} de {rank_name(ranks[0], True)}"


def effective_rank(rank: int, kings: int) -> int:
    if kings == 8:
        if rank == 3:
            return 12
        if rank == 2:
            return 1
    return rank


def _strength(rank: int) -> int:
    """Position in the order as < 2 < 3 < 4 … 7 < sota < caballo < rey, from 1 to 10."""
    return rank if rank <= 7 else rank - 2


def _value(ranks: tuple[int, ...], real_31: Real31) -> HandValue:
    ranks = tuple(sorted(ranks, key=_strength, reverse=True))
    strengths = [_strength(r) for r in ranks]
    grande = 0
    for s in strengths:
        grande = grande * 11 + s
    chica = 0
    for s in reversed(strengths):
        chica = chica * 11 + s
    chica_rank = 11**4 - chica

    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], _strength(kv[0])), reverse=True)
    top_rank, top_count = groups[0]
    if top_count == 4:
        pares, pares_ranks = DUPLES, (top_rank, top_rank)
    elif top_count == 2 and len(groups) > 1 and groups[1][1] == 2:
        hi, lo = sorted((groups[0][0], groups[1][0]), key=_strength, reverse=True)
        pares, pares_ranks = DUPLES, (hi, lo)
    elif top_count == 3:
        pares, pares_ranks = MEDIAS, (top_rank,)
    elif top_count == 2:
        pares, pares_ranks = PAR, (top_rank,)
    else:
        pares, pares_ranks = PARES_NONE, ()
    pares_rank = 0
    if pares:
        key = 0
        for r in pares_ranks:
            key = key * 11 + _strength(r)
        pares_rank = pares * 1000 + key

    points = sum(10 if r >= 10 else r for r in ranks)
    sevens = counts.get(7, 0)
    if real_31 is Real31.FIGURE_777:
        real = sevens == 3 and points == 31
    elif real_31 is not Real31.OFF:  # sota+7+7+7; the suited variants also look at the suits
        real = sevens == 3 and 10 in counts
    else:
        real = False
    juego = juego_rank(points, real)
    keys = (grande, chica_rank, pares_rank, juego, points)
    juego_bonus = 3 if points == 31 else 2 if points > 31 else 0
    packed = 0
    for part, shift in zip((*keys, pares, juego_bonus), PACKED_SHIFTS, strict=True):
        packed |= part << shift  # each fits its width (tests/scoring/test_cards_speedup.py)
    return HandValue(
        ranks=ranks,
        grande_rank=grande,
        chica_rank=chica_rank,
        pares=pares,
        pares_rank=pares_rank,
        pares_ranks=pares_ranks,
        points=points,
        juego_rank=juego,
        real=real,
        keys=keys,
        juego_bonus=juego_bonus,
        packed=packed,
    )


#: HandValue.packed, from the lowest bit: the grande, chica, pares, juego and punto keys, then
#: ``pares`` and ``juego_bonus``; scoring/_cards.c reads the same layout
PACKED_SHIFTS = (0, 14, 28, 40, 44, 50, 52)
PACKED_WIDTHS = (14, 14, 12, 4, 6, 2, 2)


def _build_table(kings: int, real_31: Real31) -> dict[tuple[int, ...], HandValue]:
    """Every multiset of four natural ranks (in any order) → its value."""
    table: dict[tuple[int, ...], HandValue] = {}
    for combo in itertools.combinations_with_replacement(RANKS, 4):
        value = _value(tuple(effective_rank(r, kings) for r in combo), real_31)
        for perm in set(itertools.permutations(combo)):
            table[perm] = value
    return table


_TABLES: dict[tuple[int, Real31], dict[tuple[int, ...], HandValue]] = {}


def value_table(kings: int, real_31: Real31) -> dict[tuple[int, ...], HandValue]:
    """The precomputed table for a rule set: natural ranks in dealt order → HandValue."""
    key = (kings, real_31)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _build_table(kings, real_31)
    return table


_MULTISET_TABLES: dict[tuple[int, Real31], dict[int, HandValue]] = {}


def multiset_table(kings: int, real_31: Real31) -> dict[int, HandValue]:
    """The precomputed table keyed by the multiset number of CARD_CODES (see above)."""
    key = (kings, real_31)
    table = _MULTISET_TABLES.get(key)
    if table is None:
        table = _MULTISET_TABLES[key] = {
            sum(5 ** RANKS.index(r) for r in ranks): value
            for ranks, value in value_table(kings, real_31).items()
        }
    return table


def multiset_index(positions: tuple[int, ...]) -> int:
    """The place (0-714) of a multiset of four ranks, given as their positions in RANKS (0-9) in
    any order: the combinatorial number system, so the 715 multisets fill 0-714 exactly.
    scoring/_cards.c computes the same."""
    a, b, c, d = sorted(positions)
    return math.comb(a, 1) + math.comb(b + 1, 2) + math.comb(c + 2, 3) + math.comb(d + 3, 4)


_MULTISET_VALUES: dict[tuple[int, Real31], tuple[HandValue, ...]] = {}


def multiset_values(kings: int, real_31: Real31) -> tuple[HandValue, ...]:
    """The precomputed values for a rule set as a tuple, by multiset_index (scoring._cards)."""
    key = (kings, real_31)
    values = _MULTISET_VALUES.get(key)
    if values is None:
        table = value_table(kings, real_31)
        by_index: list = [None] * math.comb(13, 4)
        for combo in itertools.combinations_with_replacement(range(len(RANKS)), 4):
            by_index[multiset_index(combo)] = table[tuple(RANKS[p] for p in combo)]
        values = _MULTISET_VALUES[key] = tuple(by_index)
    return values


def hand_value(
    cards: tuple[Card, ...], kings: int = 8, real_31: Real31 = Real31.OFF, real_31_suit: str = ""
) -> HandValue:
    value = value_table(kings, real_31)[tuple(c.rank for c in cards)]
    if value.real and not suited_real(cards, real_31, real_31_suit):
        return value_table(kings, Real31.OFF)[tuple(c.rank for c in cards)]
    return value


def suited_real(cards: tuple[Card, ...], real_31: Real31, real_31_suit: str) -> bool:
    """Whether a sota+7+7+7 is a 31 real under the variants that look at the suits (source 000
    «Named hands»): ``sota_of_suit`` wants the sota of the suit ``real_31_suit``, ``sota_apart``
    no siete of the sota's suit. True for the other variants (the ranks decide there)."""
    if real_31 is Real31.SOTA_OF_SUIT:
        return any(c.rank == 10 and c.suit == real_31_suit for c in cards)
    if real_31 is Real31.SOTA_APART:
        sota = next((c.suit for c in cards if c.rank == 10), None)
        return all(c.suit != sota for c in cards if c.rank == 7)
    return True
