"""The optional C speed-up scoring._cards agrees with the Python code it stands in for.

Layer 1 of the house tests: no database. The module has three functions, each for the plain
common case only, returning None for anything else so that the Python path takes over (and
explains any error):

- ``hand_values(hands, values)`` parses four hands in the compact form and takes their values
  from ``multiset_values``: on every well-formed deal it returns exactly what the Python codes
  give (``reference`` below, from ``CARD_CODES``, ``DECK_MASK`` and ``multiset_table``), and on
  any input at all it returns None or that same answer, and never raises;
- ``situations(p0, p1, p2, p3, common)`` says who has the best cards in each lance: the same as
  ``scoring.hand.score._situations_py`` and as a reference written from the rules;
- ``bets_key(bets)`` names a betting given as JSON: two bettings share a key exactly when they
  are the same.

The rest of tests/scoring runs the whole engine both with and without it (conftest.py).

The module is skipped where the extension cannot be built (no C compiler, not CI). Where a
compiler is found, and always under CI=true, a missing extension fails instead: scripts/bootstrap
builds it, and a build that broke must not pass as "skipped".
"""

from __future__ import annotations

import gc
import itertools
import os
import random
import shutil
import sys
import sysconfig
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import (
    _FAST,
    CARD_CODES,
    DECK,
    DECK_MASK,
    PACKED_SHIFTS,
    PACKED_WIDTHS,
    RANKS,
    SUITS,
    Card,
    multiset_index,
    multiset_table,
    multiset_values,
)
from scoring.hand.score import _situations_py
from scoring.rules import Real31

try:
    from scoring import _cards
except ImportError:  # built only where a C compiler was there
    _cards = None

CI = os.environ.get("CI") == "true"
#: the compiler the install would build the extension with, if this machine has one
COMPILER = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
MISSING = "scoring._cards is not built: run scripts/bootstrap on a machine with a C compiler"

# Where a C compiler is found the extension must be there (a C mistake fails the build and
# would otherwise only show as slower scoring); without one, and not in CI, these are skipped.
# A mark, not a module-level pytest.skip: tests/conftest.py's summary reads test reports only.
pytestmark = pytest.mark.skipif(_cards is None and not CI and not COMPILER, reason=MISSING)


TABLES = [(kings, real) for kings in (8, 4) for real in Real31]


def c_hand_values(hands: object, table: object) -> object:
    """The C function for the rule set whose multiset_table is ``table``; the tests state what
    a hand is worth with that dict, the C reads the same values as multiset_values' tuple."""
    assert _cards is not None, MISSING  # only reached under CI=true
    return _cards.hand_values(hands, VALUES_OF_TABLE.get(id(table), table))


VALUES_OF_TABLE = {id(multiset_table(*rules)): multiset_values(*rules) for rules in TABLES}


def test_the_extension_is_built() -> None:
    assert _cards is not None, MISSING
    assert "scoring/cards.py" in (_cards.__doc__ or "")


def reference(hands: object, table: object) -> tuple | None:
    """What the Python hot path makes of ``hands``, or None when it would not take it."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        return None
    sums = []
    for hand in hands:
        if not isinstance(hand, str):
            return None
        tokens = hand.split()
        if len(tokens) != 4 or not all(t in CARD_CODES for t in tokens):
            return None
        sums.append(sum(CARD_CODES[t] for t in tokens))
    if (sum(sums) & DECK_MASK).bit_count() != 16:
        return None
    try:
        return tuple(table[s >> 40] for s in sums)
    except (KeyError, TypeError):
        return None


def assert_same(got: object, want: tuple) -> None:
    """The same entries of the same table, not merely equal ones."""
    assert type(got) is tuple
    assert len(got) == 4
    assert all(g is w for g, w in zip(got, want, strict=True)), (got, want)


def assert_none_or_reference(hands: object, table: object) -> None:
    got = c_hand_values(hands, table)
    if got is not None:
        want = reference(hands, table)
        assert want is not None, (hands, got)
        assert_same(got, want)


# ---------------------------------------------------------------------------------------------
# Spellings


RANK_SPELLINGS = {
    1: ("1", "a", "A", "as", "AS"),  # "As" is not in _FAST: the Python path reads it
    10: ("s", "S", "10"),
    11: ("c", "C", "11"),
    12: ("r", "R", "12"),
}
SEPARATORS = (" ", "  ", "   ", " \t", "\t ", " \n", "\r\n ", " \r ")
EDGES = ("", "", " ", "  ", "\t", "\n", " \r\n")


def spellings(card: Card) -> list[str]:
    ranks = RANK_SPELLINGS.get(card.rank, (str(card.rank),))
    suit = card.suit[0]
    return [r + s for r in ranks for s in (suit, suit.upper())]


def test_the_spellings_here_are_exactly_those_of_cards_py() -> None:
    written = {text: card for card in DECK for text in spellings(card)}
    assert set(written) == set(_FAST)
    for text, card in written.items():
        assert _FAST[text] == (1 << card.index, card.rank)
        assert CARD_CODES[text] == 1 << card.index | 5 ** RANKS.index(card.rank) << 40
        assert card.index == SUITS.index(card.suit) * 10 + RANKS.index(card.rank)


@st.composite
def written_deals(draw: st.DrawFn) -> list[str]:
    """Sixteen distinct cards, four to a hand, each in a random accepted spelling."""
    cards = draw(st.lists(st.sampled_from(DECK), min_size=16, max_size=16, unique=True))
    # few draws, each a list: hypothesis is far slower at many small draws
    spelling = draw(st.lists(st.integers(0, 4), min_size=16, max_size=16))
    gaps = draw(st.lists(st.integers(0, 7), min_size=20, max_size=20))
    hands = []
    for h in range(4):
        text = EDGES[gaps[5 * h] % len(EDGES)]
        for i in range(4):
            card = cards[4 * h + i]
            text += spellings(card)[spelling[4 * h + i] % len(spellings(card))]
            text += SEPARATORS[gaps[5 * h + i + 1]] if i < 3 else EDGES[gaps[5 * h + 4] % 7]
        hands.append(text)
    return hands


# ---------------------------------------------------------------------------------------------
# Well-formed deals: exactly the Python answer


@given(written_deals(), st.sampled_from(TABLES), st.booleans())
@settings(max_examples=300)
def test_a_well_formed_deal_gives_the_python_answer(hands, rules, as_tuple) -> None:
    table = multiset_table(*rules)
    if as_tuple:
        hands = tuple(hands)
    want = reference(hands, table)
    assert want is not None
    assert_same(c_hand_values(hands, table), want)


def test_every_short_token_is_read_as_cards_py_reads_it() -> None:
    """Every 2-character and many 3-character tokens, in a deal where the card is free."""
    printable = [chr(c) for c in range(33, 127)]
    near = "0123456789aAsScCrRoOeEbBxX-_."
    tokens = [a + b for a in printable for b in printable]
    tokens += [a + b + c for a in near for b in near for c in near]
    tokens += ["\u00a0o", "R\u00f3", "1\u0665o"]
    table = multiset_table(8, Real31.OFF)
    accepted = set()
    for start in (0, 15, 25):  # every card of the deck is free in one of these
        fixed = [DECK[(start + i) % 40].code for i in range(15)]
        rest = [" ".join(fixed[3:7]), " ".join(fixed[7:11]), " ".join(fixed[11:15])]
        for token in tokens:
            hands = [f"{token} {' '.join(fixed[:3])}", *rest]
            got = c_hand_values(hands, table)
            want = reference(hands, table)
            if want is None:
                assert got is None, token
            else:
                assert_same(got, want)
                accepted.add(token)
    assert accepted == set(_FAST)


def test_the_plain_examples() -> None:
    table = multiset_table(8, Real31.OFF)
    hands = ["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"]
    got = c_hand_values(hands, table)
    want = reference(hands, table)
    assert want is not None
    assert_same(got, want)
    assert got[0].ranks == (12, 12, 7, 1)
    assert got[2].ranks == (12, 11, 6, 1)  # 8 reyes: the 3 is a rey, the 2 an as
    four = multiset_table(4, Real31.OFF)
    assert_same(c_hand_values(tuple(hands), four), reference(hands, four))
    assert c_hand_values(hands, four)[2].ranks == (11, 6, 3, 2)


@pytest.mark.parametrize(
    "hands",
    [
        pytest.param(
            ["Ro Rc 7e 1b", "Ro 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="dealt-twice"
        ),
        pytest.param(["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e 1B"], id="1b-and-1B"),
        pytest.param(
            ["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e 12o"], id="Ro-and-12o"
        ),
        pytest.param(["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e 1e"], id="in-a-hand"),
        pytest.param(["Ro Rc 7e", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="three-cards"),
        pytest.param(["Ro Rc 7e 1b 2b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e"], id="five"),
        pytest.param(["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c"], id="three-hands"),
        pytest.param(["Ro,Rc,7e,1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="commas"),
        pytest.param(["R-oros Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="long"),
        pytest.param(["Ro Rc 8e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="an-8"),
        pytest.param(["Ro\u00a0Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="nbsp"),
        pytest.param(["Ro Rc 7e 1b", b"Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"], id="bytes"),
        pytest.param(["Ro Rc 7e 1b", ["Sb", "4o", "4c", "5e"], "Ce 3b 2o 6c", "7o 7c 1e Rb"]),
        pytest.param("Ro Rc 7e 1b Sb 4o 4c 5e Ce 3b 2o 6c 7o 7c 1e Rb", id="one-string"),
        pytest.param(None, id="None"),
    ],
)
def test_anything_but_the_plain_case_gives_none(hands) -> None:
    assert c_hand_values(hands, multiset_table(8, Real31.OFF)) is None


class Text(str):
    pass


class Hands(list):
    pass


def test_subclasses_and_other_values_give_none() -> None:
    hands = ["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"]
    table = multiset_table(8, Real31.OFF)
    values = multiset_values(8, Real31.OFF)
    assert c_hand_values(Hands(hands), table) is None
    assert c_hand_values([Text(hands[0]), *hands[1:]], table) is None
    assert c_hand_values(hands, list(values)) is None
    assert c_hand_values(hands, values[:-1]) is None
    assert c_hand_values(hands, (*values, None)) is None
    assert c_hand_values(hands, Values(values)) is None
    assert c_hand_values(hands, None) is None
    assert c_hand_values(hands, table) == reference(hands, table)
    # any object will do as a value: the tuple is only indexed
    assert c_hand_values(hands, ("x",) * len(values)) == ("x", "x", "x", "x")


class Values(tuple):
    pass


def test_the_values_are_in_multiset_index_order() -> None:
    """multiset_index numbers the 715 multisets 0-714, and multiset_values holds each one's
    value there: the C finds a hand's value where cards.py put it."""
    combos = list(itertools.combinations_with_replacement(range(len(RANKS)), 4))
    assert sorted(multiset_index(c) for c in combos) == list(range(715))
    for rules in TABLES:
        values, table = multiset_values(*rules), multiset_table(*rules)
        for combo in combos:
            number = sum(5**p for p in combo)
            assert values[multiset_index(combo)] is table[number]
            assert multiset_index(tuple(reversed(combo))) == multiset_index(combo)


def test_a_call_with_the_wrong_arguments_is_a_type_error() -> None:
    assert _cards is not None, MISSING
    with pytest.raises(TypeError):
        _cards.hand_values()
    with pytest.raises(TypeError):
        _cards.hand_values([])
    with pytest.raises(TypeError):
        _cards.hand_values([], {}, None)
    with pytest.raises(TypeError):
        _cards.hand_values(hands=[], values=())


def test_reference_counts_are_kept() -> None:
    table = multiset_table(4, Real31.FIGURE_777)
    hands = ["Ro Rc 7e 1b", "Sb 4o 4c 5e", "Ce 3b 2o 6c", "7o 7c 1e Rb"]
    values = reference(hands, table)
    gc.collect()
    before = [sys.getrefcount(v) for v in values] + [sys.getrefcount(h) for h in hands]
    for _ in range(1000):
        c_hand_values(hands, table)
        c_hand_values(hands, ())
        c_hand_values(hands[:3] + ["Ro Rc 7e 1b"], table)
    kept = [c_hand_values(hands, table) for _ in range(10)]
    after = [sys.getrefcount(v) for v in values] + [sys.getrefcount(h) for h in hands]
    assert after == [b + (10 if i < 4 else 0) for i, b in enumerate(before)]
    del kept


# ---------------------------------------------------------------------------------------------
# Anything at all: None or the Python answer, never an exception

NOISE = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x85\u00a0\u2003\u3000,;-_")),
        st.sampled_from(list("0123456789aAsScCrRoOeEbBdxX")),
        st.characters(),
    ),
    max_size=20,
)
LONG_FORMS = st.sampled_from(
    ["R-oros", "7 copas", "As-espadas", "rey de bastos", "sota_oros", "1 de copas", "Ro,", "8o"]
)


@st.composite
def mangled_deals(draw: st.DrawFn) -> object:
    """A well-formed deal with a few things changed, or not a deal at all."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.lists(NOISE, min_size=0, max_size=6))
    if kind == 1:
        return draw(
            st.one_of(
                st.none(),
                st.integers(),
                NOISE,
                st.binary(max_size=20),
                st.tuples(NOISE, NOISE, NOISE, NOISE),
                st.lists(st.one_of(st.none(), st.integers(), st.binary(), NOISE), max_size=5),
                st.dictionaries(st.integers(), NOISE, max_size=4),
            )
        )
    hands = draw(written_deals())
    for _ in range(draw(st.integers(1, 3))):
        seat = draw(st.integers(0, 3))
        if not isinstance(hands[seat], str) or not hands[seat].split():
            continue
        tokens = hands[seat].split()
        where = draw(st.integers(0, len(tokens) - 1))
        change = draw(st.integers(0, 9))
        if change == 0:  # a card dealt twice, in another spelling
            dealt = [t for h in hands if isinstance(h, str) for t in h.split() if t in _FAST]
            card = DECK[_FAST[draw(st.sampled_from(dealt))][0].bit_length() - 1]
            tokens[where] = draw(st.sampled_from(spellings(card)))
        elif change == 1:
            tokens[where] = draw(st.sampled_from("89")) + draw(st.sampled_from("oOcCeEbB"))
        elif change == 2:
            tokens[where] = draw(LONG_FORMS)
        elif change == 3:
            tokens[where] = draw(NOISE)
        elif change == 4:
            tokens.insert(where, draw(st.sampled_from(sorted(_FAST))))
        elif change == 5:
            del tokens[where]
        sep = draw(st.sampled_from([" ", " ", ",", ", ", "\u00a0", "\x0b", "\x1c", "\u3000"]))
        text = sep.join(tokens)
        if change == 6:
            text = text.upper() if draw(st.booleans()) else text.lower()
        hands[seat] = text
        if change == 7:
            hands[seat] = draw(st.one_of(st.none(), st.integers(), st.binary(), st.just(tokens)))
        elif change == 8:
            hands = draw(st.sampled_from([hands[:3], [*hands, hands[0]], hands * 2, []]))
            break
        elif change == 9:
            hands = draw(
                st.sampled_from([tuple(hands), Hands(hands), iter(hands), dict(enumerate(hands))])
            )
            break
    return hands


@given(mangled_deals(), st.sampled_from(TABLES))
@settings(max_examples=500)
def test_anything_gives_none_or_the_python_answer(hands, rules) -> None:
    assert_none_or_reference(hands, multiset_table(*rules))


@given(written_deals(), st.sampled_from(TABLES), st.data())
def test_values_that_are_not_the_tuple_give_none(hands, rules, data) -> None:
    values = data.draw(
        st.one_of(
            st.none(),
            st.integers(),
            st.lists(st.integers(), max_size=800),
            st.tuples(st.integers()),
            st.builds(tuple, st.lists(st.integers(), max_size=714)),
            st.builds(dict, st.dictionaries(st.integers(0, 800), st.integers(), max_size=5)),
        )
    )
    assert c_hand_values(hands, values) is None


def test_random_deals_in_bulk() -> None:
    """Many more deals than hypothesis draws, with the spelling and the spaces at random."""
    rng = random.Random(2026)
    tables = [multiset_table(*rules) for rules in TABLES]
    for _ in range(20_000):
        cards = rng.sample(DECK, 16)
        hands = []
        for h in range(4):
            texts = [rng.choice(spellings(c)) for c in cards[4 * h : 4 * h + 4]]
            gaps = [" " * rng.choice((0, 0, 1, 2)), *(" " * rng.randint(1, 3) for _ in range(3))]
            text = "".join(gap + t for gap, t in zip(gaps, texts, strict=True))
            hands.append(text + " " * rng.randint(0, 1))
        table = rng.choice(tables)
        assert_same(c_hand_values(hands, table), reference(hands, table))


# ---------------------------------------------------------------------------------------------
# situations(): who has the best cards in each lance, from HandValue.packed

ALL_VALUES = sorted(
    {id(v): v for rules in TABLES for v in multiset_table(*rules).values()}.values(),
    key=lambda v: v.packed,
)


def test_every_hand_fits_the_packed_layout() -> None:
    """Each key, pares and juego bonus of every hand under every rule set comes back out of
    HandValue.packed as it went in: no part is wider than its field."""
    for value in ALL_VALUES:
        parts = (*value.keys, value.pares, value.juego_bonus)
        for part, shift, width in zip(parts, PACKED_SHIFTS, PACKED_WIDTHS, strict=True):
            assert 0 <= part < 1 << width, (value, part, width)
            assert value.packed >> shift & (1 << width) - 1 == part


def reference_situations(cards: tuple, common: int) -> tuple[int, ...]:
    """Written from the rules, not from the bits: the best seat is the first one (from mano)
    whose key no other seat beats."""
    best = [
        min(s for s in range(4) if cards[s].keys[k] == max(c.keys[k] for c in cards))
        for k in range(5)
    ]
    pares = sum(c.pares << 2 * s for s, c in enumerate(cards))
    juego = sum(c.juego_bonus << 2 * s for s, c in enumerate(cards))
    last = best[3] if any(c.has_juego for c in cards) else best[4]
    return (
        best[0] << 2 | common,
        1 | best[1] << 2 | common,
        2 | best[2] << 2 | pares << 4 | common,
        3 | last << 2 | juego << 4 | common,
    )


COMMON = st.builds(lambda m, d: m << 12 | d << 16, st.integers(1, 10), st.integers(0, 1))


@given(st.lists(st.sampled_from(ALL_VALUES), min_size=4, max_size=4), COMMON)
@settings(max_examples=500)
def test_situations_in_c_and_in_python_agree_with_the_rules(cards, common) -> None:
    packed = [c.packed for c in cards]
    want = reference_situations(tuple(cards), common)
    assert _situations_py(*packed, common) == want
    assert _cards is not None, MISSING
    assert _cards.situations(*packed, common) == want


def test_four_equal_hands_go_to_mano_in_every_lance() -> None:
    assert _cards is not None, MISSING
    for value in ALL_VALUES[::37]:
        got = _cards.situations(value.packed, value.packed, value.packed, value.packed, 1 << 12)
        assert [s >> 2 & 3 for s in got] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "args",
    [
        (1, 2, 3, -1, 4096),  # not a packed hand
        (1, 2, 3, 1 << 54, 4096),  # wider than the layout
        (1, 2, 3, 1 << 70, 4096),  # does not fit in C
        (1, 2, 3, 4.0, 4096),
        (1, 2, 3, True, 4096),
        (1, 2, 3, 4, 4097),  # common overlaps a lance's own bits
        (1, 2, 3, 4, -4096),
        (1, 2, 3, 4, "4096"),
    ],
)
def test_situations_of_anything_else_is_none(args) -> None:
    assert _cards is not None, MISSING
    assert _cards.situations(*args) is None


def test_situations_with_the_wrong_arguments_is_a_type_error() -> None:
    assert _cards is not None, MISSING
    with pytest.raises(TypeError):
        _cards.situations(1, 2, 3, 4)


# ---------------------------------------------------------------------------------------------
# bets_key(): one str naming a betting given as JSON

ACTION_TEXTS = st.sampled_from(
    ["paso", "envido", "quiero", "no quiero", "2 más", "una más", "órdago", "a 7", "envido 4",
     "postre: envido", "q", "", " ", "€", "\U0001f0a1"]
) | st.text(max_size=6)  # fmt: skip
LANCE_NAMES = st.sampled_from(["grande", "chica", "pares", "juego", "punto"]) | st.text(max_size=4)
BETTINGS = st.dictionaries(LANCE_NAMES, st.lists(ACTION_TEXTS, max_size=4), max_size=5)
SEPARATORS_IN_KEY = ("\x1e", "\x1f")


def plain(bets: dict) -> bool:
    texts = [*bets, *(a for actions in bets.values() for a in actions)]
    return not any(sep in t for t in texts for sep in SEPARATORS_IN_KEY)


@given(BETTINGS, BETTINGS)
@settings(max_examples=500)
def test_two_bettings_have_the_same_key_exactly_when_they_are_the_same(one, other) -> None:
    assert _cards is not None, MISSING
    key_one, key_other = _cards.bets_key(one), _cards.bets_key(other)
    if not plain(one) or not plain(other):
        assert None in (key_one, key_other) or (key_one == key_other) == (
            list(one.items()) == list(other.items())
        )
        return
    assert isinstance(key_one, str)
    assert (key_one == key_other) == (list(one.items()) == list(other.items()))


@given(BETTINGS)
def test_a_copy_has_the_same_key(bets) -> None:
    assert _cards is not None, MISSING
    copy = {str(k + " ")[:-1]: [str(a + " ")[:-1] for a in v] for k, v in bets.items()}
    assert _cards.bets_key(copy) == _cards.bets_key(bets)


@pytest.mark.parametrize(
    "bets",
    [
        None,
        [],
        "paso",
        {"grande": "paso"},  # one action as a str: the Python path reads it
        {"grande": ("paso",)},
        {"grande": ["paso", None]},
        {"grande": ["paso", {"act": "paso"}]},
        {"grande": [1]},
        {1: ["paso"]},
        {"grande": ["pa\x1fso"]},
        {"gran\x1ede": ["paso"]},
        OrderedDict(grande=["paso"]),
    ],
)
def test_anything_but_a_plain_betting_has_no_key(bets) -> None:
    assert _cards is not None, MISSING
    assert _cards.bets_key(bets) is None


def test_bets_key_with_the_wrong_arguments_is_a_type_error() -> None:
    assert _cards is not None, MISSING
    with pytest.raises(TypeError):
        _cards.bets_key()
