"""Hypothesis strategies for the scoring properties, and a reference evaluation of a deal.

Responsible for: random rule sets, deals, betting sequences and whole hands (as the JSON the
engine reads), generated either by hypothesis (``draw``) or by a seeded ``random.Random`` when a
test needs hundreds of hands (a match). Also a small evaluation of a player's four cards in each
lance written from the rules sources, not from ``scoring.cards``, so that the properties compare
the engine with something it did not compute itself.

Seats are numbered from mano (0 mano, 1, 2 mano's partner, 3 postre); side 0 is the pareja mano
(seats 0 and 2), side 1 the pareja postre (seats 1 and 3).

Must not: import anything from the engine but its public values (DECK, RuleSet, Real31).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from hypothesis import strategies as st

from scoring.cards import DECK, Card
from scoring.rules import Real31, RuleSet

SIDE_WORDS = ("mano", "postre")
LANCE_KEYS = ("grande", "chica", "pares", "juego")

# ---------------------------------------------------------------------------------------------
# Rule sets


def rule_sets(
    *,
    stones: tuple[int, int] = (10, 100),
    games_per_vaca: tuple[int, int] = (1, 3),
    vacas_per_match: tuple[int, int] = (1, 2),
) -> st.SearchStrategy[RuleSet]:
    """Every option the brief asks to vary: kings 8/4, stones, 31 real, dejes, min envite."""
    return st.builds(
        _rules,
        kings=st.sampled_from((8, 4)),
        stones_per_game=st.integers(*stones),
        games_per_vaca=st.integers(*games_per_vaca),
        vacas_per_match=st.integers(*vacas_per_match),
        real_31=st.sampled_from(list(Real31)),
        dejes=st.booleans(),
        min_envite=st.integers(1, 4),
        suit=st.sampled_from(SUITS),
        tio_perete=st.booleans(),
    )


SUITS = ("oros", "copas", "espadas", "bastos")


def _rules(*, real_31: Real31, suit: str, **options: Any) -> RuleSet:
    """A rule set; the suit of the 31 real is given only where the variant asks for one."""
    return RuleSet(
        real_31=real_31,
        real_31_suit=suit if real_31 is Real31.SOTA_OF_SUIT else "",
        **options,
    )


def random_rules(rnd: random.Random) -> RuleSet:
    return _rules(
        kings=rnd.choice((8, 4)),
        stones_per_game=rnd.randint(10, 100),
        games_per_vaca=rnd.randint(1, 3),
        vacas_per_match=rnd.randint(1, 2),
        real_31=rnd.choice(list(Real31)),
        dejes=rnd.random() < 0.5,
        min_envite=rnd.randint(1, 4),
        suit=rnd.choice(SUITS),
    )


# ---------------------------------------------------------------------------------------------
# Reference evaluation (sources 000, 001, 003, 004), independent of scoring.cards

# as < 2 < 3 < 4 < 5 < 6 < 7 < sota < caballo < rey
_STRENGTH = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}
# 001 «El juego»: "31, 32, 40, 37, 36, 35, 34, 33"
_JUEGO_BEST_FIRST = (31, 32, 40, 37, 36, 35, 34, 33)
PAR, MEDIAS, DUPLES = 1, 2, 3


@dataclass(frozen=True)
class Ref:
    """One player's four cards in each lance; every key is 'higher wins'."""

    grande: tuple[int, ...]
    chica: tuple[int, ...]
    pares: int  # 0 none, 1 par, 2 medias, 3 duples
    pares_key: tuple[int, ...]
    points: int
    juego: int  # 0 without juego; 31 real is above every other juego
    real: bool

    def key(self, lance: str) -> tuple[int, ...]:
        if lance == "grande":
            return self.grande
        if lance == "chica":
            return self.chica
        if lance == "pares":
            return self.pares_key
        if lance == "juego":
            return (self.juego,)
        return (self.points,)  # punto

    @property
    def has_juego(self) -> bool:
        return self.points >= 31


def reference(cards: Sequence[Card], rules: RuleSet) -> Ref:
    natural = [c.rank for c in cards]
    if rules.kings == 8:  # 001: "el rey y el tres al igual que el as y el dos ... MISMA CARTA"
        ranks = [12 if r == 3 else 1 if r == 2 else r for r in natural]
    else:
        ranks = list(natural)
    strengths = sorted((_STRENGTH[r] for r in ranks), reverse=True)
    grande = tuple(strengths)
    chica = tuple(-s for s in reversed(strengths))  # lowest card first, lower wins

    counts = Counter(ranks)
    by_count = sorted(counts.items(), key=lambda kv: (kv[1], _STRENGTH[kv[0]]), reverse=True)
    pairs = sorted((_STRENGTH[r] for r, n in counts.items() if n == 2), reverse=True)
    if by_count[0][1] == 4:
        pares, key = DUPLES, (_STRENGTH[by_count[0][0]],) * 2
    elif len(pairs) == 2:
        pares, key = DUPLES, tuple(pairs)
    elif by_count[0][1] == 3:
        pares, key = MEDIAS, (_STRENGTH[by_count[0][0]],)
    elif len(pairs) == 1:
        pares, key = PAR, tuple(pairs)
    else:
        pares, key = 0, ()
    points = sum(10 if r >= 10 else r for r in ranks)
    sevens = natural.count(7)
    sota_suits = [c.suit for c in cards if c.rank == 10]
    seven_suits = [c.suit for c in cards if c.rank == 7]
    if rules.real_31 is Real31.SOTA_777:
        real = sevens == 3 and 10 in natural
    elif rules.real_31 is Real31.SOTA_OF_SUIT:  # 000: «the Jack is of a specific suit»
        real = sevens == 3 and sota_suits == [rules.real_31_suit]
    elif rules.real_31 is Real31.SOTA_APART:  # 000: «sevens be of different suit than the Jack»
        real = sevens == 3 and len(sota_suits) == 1 and sota_suits[0] not in seven_suits
    elif rules.real_31 is Real31.FIGURE_777:
        real = sevens == 3 and points == 31
    else:
        real = False
    if real:
        juego = len(_JUEGO_BEST_FIRST) + 1
    elif points in _JUEGO_BEST_FIRST:
        juego = len(_JUEGO_BEST_FIRST) - _JUEGO_BEST_FIRST.index(points)
    else:
        juego = 0
    return Ref(grande, chica, pares, (pares, *key), points, juego, real)


def speakers_of(refs: Sequence[Ref], lance_index: int) -> tuple[int, ...]:
    """Seats that may speak in a lance: everybody, or in pares and juego those who have it."""
    if lance_index == 2:
        return tuple(s for s in range(4) if refs[s].pares)
    if lance_index == 3 and any(r.has_juego for r in refs):
        return tuple(s for s in range(4) if refs[s].has_juego)
    return (0, 1, 2, 3)


def lance_name(refs: Sequence[Ref], lance_index: int) -> str:
    if lance_index == 3 and not any(r.has_juego for r in refs):
        return "punto"
    return LANCE_KEYS[lance_index]


def best_seat(refs: Sequence[Ref], lance: str, seats: Sequence[int]) -> int | None:
    """The seat with the best cards; on equal cards the first in speaking order (nearer mano)."""
    best = None
    for seat in seats:
        if best is None or refs[seat].key(lance) > refs[best].key(lance):
            best = seat
    return best


def pair_tie(refs: Sequence[Ref], lance: str, seats: Sequence[int]) -> bool:
    """Whether the best cards of the two pairs among ``seats`` are equal in this lance."""
    per_side = [[refs[s].key(lance) for s in seats if s % 2 == side] for side in (0, 1)]
    return all(per_side) and max(per_side[0]) == max(per_side[1])


# ---------------------------------------------------------------------------------------------
# Deals

_RANK_WORDS = {
    1: "as",
    2: "dos",
    3: "tres",
    4: "cuatro",
    5: "cinco",
    6: "seis",
    7: "siete",
    10: "sota",
    11: "caballo",
    12: "rey",
}

Picker = Callable[[Sequence[Any]], Any]


def deals() -> st.SearchStrategy[tuple[tuple[Card, ...], ...]]:
    """Sixteen distinct cards of the deck, four per seat in seat order from mano."""
    return st.lists(st.sampled_from(DECK), min_size=16, max_size=16, unique=True).map(
        lambda cards: tuple(tuple(cards[i : i + 4]) for i in range(0, 16, 4))
    )


@st.composite
def tied_deals(draw) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, int]]:
    """A deal where one seat of each pair holds the same ranks (other suits): a tie in every
    lance between those two hands. Returns the deal and the two tied seats."""
    counts: Counter[int] = Counter()
    while sum(counts.values()) < 4:
        rank = draw(st.sampled_from([r for r in _STRENGTH if counts[r] < 2]))
        counts[rank] += 1
    suits_by_rank = {
        r: draw(st.permutations(("oros", "copas", "espadas", "bastos"))) for r in counts
    }
    first, second = [], []
    for rank, n in counts.items():
        suits = suits_by_rank[rank]
        first += [Card(rank, s) for s in suits[:n]]
        second += [Card(rank, s) for s in suits[n : 2 * n]]
    used = set(first) | set(second)
    rest = draw(
        st.lists(
            st.sampled_from([c for c in DECK if c not in used]), min_size=8, max_size=8, unique=True
        )
    )
    seat_a = draw(st.sampled_from((0, 2)))
    seat_b = draw(st.sampled_from((1, 3)))
    hands: list[tuple[Card, ...]] = [(), (), (), ()]
    hands[seat_a] = tuple(first)
    hands[seat_b] = tuple(second)
    others = [s for s in range(4) if s not in (seat_a, seat_b)]
    hands[others[0]] = tuple(rest[:4])
    hands[others[1]] = tuple(rest[4:])
    return tuple(hands), (min(seat_a, seat_b), max(seat_a, seat_b))


def render_hand(cards: Sequence[Card], style: int) -> str | list[str]:
    """The ways a table may write four cards: compact text, a list, long names."""
    if style == 0:
        return " ".join(c.code for c in cards)
    if style == 1:
        return [c.code.lower() for c in cards]
    if style == 2:
        return ", ".join(c.code for c in cards)
    return [f"{_RANK_WORDS[c.rank]}-{c.suit}" for c in cards]


# ---------------------------------------------------------------------------------------------
# Betting


class Expect(NamedTuple):
    """How a lance's betting ended, computed from the rules (sources 000, 001, 003)."""

    outcome: str  # not_played, paso, querido, no_querido, ordago
    stones: int = 0  # querido: the bet; no_querido: what the refusal gives (with dejes on)
    side: int | None = None  # no_querido: the pair that bet last and takes the lance


def lance_bets(
    pick: Picker,
    speakers: Sequence[int],
    min_envite: int,
    *,
    prefix: bool = False,
    allow_ordago: bool = True,
    most: int = 100,
) -> tuple[list[str], Expect]:
    """One lance's actions, always a sequence a table could say, and how it must end.

    With ``prefix`` the opening bet names its pair ("postre: envido"), so the betting does not
    depend on who speaks first. No bet goes above ``most`` (the hands below allow three
    games' stones: a bet has no ceiling, 004 «Note», so a game may end far past its target;
    tests/scoring/test_bounds.py tries the largest bets); a raise that would is not said.
    """
    sides = sorted({s % 2 for s in speakers})
    if len(sides) < 2:
        return ["paso"] * pick((0, 0, 0, 1)), Expect("not_played")
    n = len(speakers)
    if pick(("paso", "bet", "bet", "bet")) == "paso":
        return ["paso"] * pick(range(n + 1)), Expect("paso")
    pasos = pick(range(n))
    actions = ["paso"] * pasos
    # a named pair must still have a player who has not passed (the pasos recorded come first)
    left = sorted({s % 2 for s in speakers[pasos:]})
    bettor = pick(left) if prefix else speakers[pasos] % 2
    head = f"{SIDE_WORDS[bettor]}: " if prefix else ""
    openings = ("envido", "envido n") * 2 + (("ordago",) if allow_ordago else ())
    opening = pick(openings)
    ordago = opening == "ordago"
    bet, before = 0, 1  # before: what a refusal now gives
    if ordago:
        actions.append(head + pick(("órdago", "ordago")))
    elif opening == "envido":
        bet = min_envite
        actions.append(head + "envido")
    else:
        bet = pick(range(min_envite, min(min_envite + 6, most + 1)))
        actions.append(head + f"envido {bet}")
    for _ in range(pick((0, 0, 1, 1, 2, 3))):
        if ordago:
            break
        kind = pick(
            ("mas", "a", "envido", "una", "ordago")
            if allow_ordago
            else ("mas", "a", "envido", "una")
        )
        if kind == "mas":
            by = pick(range(1, 6))
            actions.append(pick((f"{by} más", f"{by} mas", f"más {by}")))
            new = bet + by
        elif kind == "a":
            new = bet + pick(range(1, 6))
            actions.append(f"a {new}")
        elif kind == "envido":  # an envido said as an answer raises by the minimum envite
            new = bet + min_envite
            actions.append("envido")
        elif kind == "una":
            new = bet + 1
            actions.append("una más")
        else:
            new = bet
            ordago = True
            actions.append("órdago")
        if new > most:
            actions.pop()
            break
        before, bet = bet, new
        bettor = 1 - bettor
    if pick(("quiero", "no quiero")) == "quiero":
        actions.append("quiero")
        return actions, Expect("ordago") if ordago else Expect("querido", bet)
    actions.append("no quiero")
    return actions, Expect("no_querido", before, bettor)


def hypothesis_picker(draw) -> Picker:
    def pick(options):
        try:
            strategy = _sampled_from(options, tuple(map(type, options)))
        except TypeError:  # a list: unhashable, built each time
            strategy = st.sampled_from(options)
        return draw(strategy)

    return pick


@functools.cache
def _sampled_from(options: Sequence, types: tuple) -> st.SearchStrategy:
    """One ``sampled_from`` per set of options: a hand picks hundreds of times, and building a
    new strategy for each pick was a third of the property tests' time. ``types`` keeps
    ``(0, 1)`` and ``(False, True)`` apart (they are equal keys)."""
    return st.sampled_from(options)


def random_picker(rnd: random.Random) -> Picker:
    return lambda options: options[rnd.randrange(len(options))]


class GeneratedHand(NamedTuple):
    deal: tuple[tuple[Card, ...], ...]
    refs: tuple[Ref, ...]
    json: dict[str, Any]  # {"cards": [...], "bets": {...}} as hand_from_json reads it
    expects: tuple[Expect | None, ...]  # per lance; None after an accepted órdago


def make_hand(
    pick: Picker,
    rules: RuleSet,
    deal: tuple[tuple[Card, ...], ...],
    *,
    prefix: bool = False,
    allow_ordago: bool = True,
    style: int | None = None,
) -> GeneratedHand:
    refs = tuple(reference(h, rules) for h in deal)
    bets: dict[str, list[str]] = {}
    expects: list[Expect | None] = []
    done = False
    for index, key in enumerate(LANCE_KEYS):
        if done:
            expects.append(None)
            continue
        actions, expect = lance_bets(
            pick,
            speakers_of(refs, index),
            rules.min_envite,
            prefix=prefix,
            allow_ordago=allow_ordago,
            most=3 * rules.stones_per_game,  # past a game too (004 «Note»)
        )
        if actions:
            bets[key] = actions
        expects.append(expect)
        done = expect.outcome == "ordago"
    chosen = pick(range(4)) if style is None else style
    cards = [render_hand(h, chosen) for h in deal]
    return GeneratedHand(deal, refs, {"cards": cards, "bets": bets}, tuple(expects))


@st.composite
def hands(
    draw, rules: RuleSet | None = None, *, prefix: bool = False, allow_ordago: bool = True
) -> tuple[RuleSet, GeneratedHand]:
    """A rule set and a valid hand under it: a random deal and random betting."""
    if rules is None:
        rules = draw(rule_sets())
    deal = draw(deals())
    hand = make_hand(hypothesis_picker(draw), rules, deal, prefix=prefix, allow_ordago=allow_ordago)
    return rules, hand


def random_hand(rnd: random.Random, rules: RuleSet, *, allow_ordago: bool = True) -> GeneratedHand:
    cards = rnd.sample(DECK, 16)
    deal = tuple(tuple(cards[i : i + 4]) for i in range(0, 16, 4))
    return make_hand(random_picker(rnd), rules, deal, allow_ordago=allow_ordago)


def flip_prefix(action: str) -> str:
    """'mano: envido' ↔ 'postre: envido'; anything without a pair prefix is unchanged."""
    for side, word in enumerate(SIDE_WORDS):
        if action.startswith(word + ":"):
            return SIDE_WORDS[1 - side] + action[len(word) :]
    return action


# ---------------------------------------------------------------------------------------------
# Arbitrary JSON-like values for fuzzing


@functools.cache
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """One strategy object per size: a fuzz test that draws from it thousands of times inside
    another strategy would otherwise build and validate a new recursive strategy each time."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=12)
        | st.sampled_from(ODD_STRINGS)
    )
    return st.recursive(scalars, _containers, max_leaves=max_leaves)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.text(max_size=8) | st.sampled_from(KNOWN_KEYS)
    return st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=5)


# fmt: off
#: Field names and words the engine reads, so that fuzzed objects get past the first checks.
KNOWN_KEYS = (
    "hand", "hands", "games", "rules", "first_mano", "complete", "cards", "bets",
    "declarations", "grande", "chica", "pares", "juego", "punto", "winners", "stones",
    "winner", "ordago", "act", "pair", "kings", "stones_per_game", "games_per_vaca",
    "vacas_per_match", "real_31", "dejes", "min_envite", "A", "B", "lances", "totals",
    "start", "to", "how", "bonus", "perete", "real_31_suit", "tio_perete",
)
#: Strings near the valid ones: cards that do not exist, bets with garbage, pair names.
ODD_STRINGS = (
    "8o", "9c", "Rx", "", " ", "R", "o", "10", "Ro Ro Rc Re", "Ro Rc 7e", "Ro Rc 7e 1b 2o",
    "rey de oros", "R-oros", "7 copas", "As-espadas", "mano", "postre", "A1", "B2", "A", "B",
    "paso", "envido", "envido 0", "envido 99", "2 más", "más 2", "a 1", "a 50", "órdago",
    "quiero", "no quiero", "una más", "deje", "querido", "sota_of_suit", "oros",
    "mano: envido", "postre: órdago", "nadie: envido",
    "envido dos", "0 más", "-1 más", "mas", "a", "none", "par", "medias", "duples", "31 real",
    "other", "si", "38", "39", "40", "31", "30", "sota_777", "figure_777", "off", "𝟙𝟚",
)
# fmt: on
