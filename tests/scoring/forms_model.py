"""A model of every form of Mus, written from the rules (docs/rules.md, «Forms»), not from the
engine: deals for 2 to 6 seats, random betting that a table could say with how each lance must
end, and the events or chips a hand must give.

Seats are numbered from mano; ``two_sides`` forms (pairs, trios) alternate the seats between
side 0 and side 1, the others score each seat for itself.

Must not: import anything from the engine but its public values (DECK, RuleSet, Form, Real31);
the card evaluation is strategies.reference, itself independent of scoring.cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from hypothesis import strategies as st

from scoring.cards import DECK, Card
from scoring.rules import Form, Real31, RuleSet
from tests.scoring.strategies import (
    LANCE_KEYS,
    Picker,
    Ref,
    hypothesis_picker,
    lance_bets,
    random_picker,
    reference,
)

SEATS = {
    Form.PAIRS: (4,),
    Form.TRIOS: (6,),
    Form.INDIVIDUAL: (2, 3, 4, 5, 6),
    Form.FRANCES: (3, 4, 5, 6),
}


class Ending(NamedTuple):
    """How a lance's betting ended."""

    outcome: str  # not_played, paso, querido, no_querido, ordago
    stones: int = 0  # querido: the bet; no_querido: the deje
    side: int | None = None  # no_querido: the side (two sides) or seat that bet last
    players: tuple[int, ...] = ()  # querido / ordago when each plays for themself: who is in


def two_sides(rules: RuleSet) -> bool:
    return rules.form in (Form.PAIRS, Form.TRIOS)


def side_of(rules: RuleSet, seat: int) -> int:
    return seat % 2 if two_sides(rules) else seat


def speakers(refs: Sequence[Ref], index: int) -> tuple[int, ...]:
    everybody = tuple(range(len(refs)))
    if index == 2:
        return tuple(s for s in everybody if refs[s].pares)
    if index == 3 and any(r.has_juego for r in refs):
        return tuple(s for s in everybody if refs[s].has_juego)
    return everybody


def lance_name(refs: Sequence[Ref], index: int) -> str:
    if index == 3 and not any(r.has_juego for r in refs):
        return "punto"
    return LANCE_KEYS[index]


def best(refs: Sequence[Ref], lance: str, seats: Sequence[int]) -> int:
    """The best hand; equal hands go to the seat nearer mano (the first in speaking order)."""
    found = seats[0]
    for seat in seats[1:]:
        if refs[seat].key(lance) > refs[found].key(lance):
            found = seat
    return found


def worst(refs: Sequence[Ref], lance: str, seats: Sequence[int]) -> int:
    """The worst hand: the one every other beats; of equal hands the seat farther from mano."""
    found = seats[0]
    for seat in seats[1:]:
        if refs[seat].key(lance) <= refs[found].key(lance):
            found = seat
    return found


def individual_bets(
    pick: Picker, speakers_: Sequence[int], min_envite: int, most: int, ordago: bool = True
) -> tuple[list[str], Ending]:
    """A lance's betting where each player bets for themself, and how it ends."""
    n = len(speakers_)
    if n < 2:
        return ["paso"] * pick((0, 0, 1)), Ending("not_played")
    if pick(("paso", "bet", "bet")) == "paso":
        return ["paso"] * pick(range(n + 1)), Ending("paso")
    pasos = pick(range(n))
    actions = ["paso"] * pasos
    bettor = pasos
    allow_ordago = ordago
    opening = pick(("envido", "envido", "envido n") + (("ordago",) if allow_ordago else ()))
    if opening == "ordago":
        actions.append("órdago")
        bet, before, ordago = 0, 1, True
    elif opening == "envido":
        actions.append("envido")
        bet, before, ordago = min_envite, 1, False
    else:
        bet = pick(range(min_envite, min_envite + 5))
        actions.append(f"envido {bet}")
        before, ordago = 1, False
    out: set[int] = set()
    accepted: list[int] = []
    queue = [(bettor + k) % n for k in range(1, n)]
    raises = pick((0, 0, 1, 2))
    while queue:
        who = queue.pop(0)
        options = ("quiero", "no quiero") + (("raise",) if raises and not ordago else ())
        choice = pick(options)
        if choice == "quiero":
            accepted.append(who)
            actions.append("quiero")
            continue
        if choice == "no quiero":
            out.add(who)
            actions.append("no quiero")
            continue
        raises -= 1
        kind = pick(("mas", "a") + (("ordago",) if allow_ordago else ()))
        if kind == "ordago":
            before, ordago = bet, True
            actions.append("órdago")
        else:
            new = bet + pick(range(1, 5))
            if new > most:
                new = bet + 1
            actions.append(f"{new - bet} más" if kind == "mas" else f"a {new}")
            before, bet = bet, new
        bettor, accepted = who, []
        queue = [(who + k) % n for k in range(1, n) if (who + k) % n not in out]
    if not accepted:
        return actions, Ending("no_querido", before, speakers_[bettor])
    players = tuple(speakers_[i] for i in sorted([bettor, *accepted]))
    return actions, Ending("ordago" if ordago else "querido", bet, None, players)


class TableHand(NamedTuple):
    refs: tuple[Ref, ...]
    json: dict[str, Any]
    endings: tuple[Ending | None, ...]  # None after an accepted órdago


def make_table_hand(pick: Picker, rules: RuleSet, deal, *, ordago: bool = True) -> TableHand:
    refs = tuple(reference(h, rules) for h in deal)
    bets: dict[str, list[str]] = {}
    endings: list[Ending | None] = []
    done = False
    for index, key in enumerate(LANCE_KEYS):
        if done:
            endings.append(None)
            continue
        who = speakers(refs, index)
        if two_sides(rules):
            actions, e = lance_bets(
                pick, who, rules.min_envite, allow_ordago=ordago, most=rules.stones_per_game
            )
            ending = Ending(e.outcome, e.stones, e.side)
        else:
            actions, ending = individual_bets(
                pick, who, rules.min_envite, rules.stones_per_game, ordago
            )
        if actions:
            bets[key] = actions
        endings.append(ending)
        done = ending.outcome == "ordago"
    cards = [" ".join(c.code for c in h) for h in deal]
    return TableHand(refs, {"cards": cards, "bets": bets}, tuple(endings))


def deal(rnd_or_draw, seats: int) -> tuple[tuple[Card, ...], ...]:
    cards = rnd_or_draw.sample(DECK, 4 * seats)
    return tuple(tuple(cards[i : i + 4]) for i in range(0, 4 * seats, 4))


def form_rules(form: Form, seats: int, rnd: random.Random) -> RuleSet:
    kings = rnd.choice((8, 4))
    stones = rnd.randint(10, 40)
    games = rnd.randint(1, 2)
    real_31 = rnd.choice((Real31.OFF, Real31.SOTA_777, Real31.FIGURE_777))  # suited: pairs
    dejes = rnd.random() < 0.7
    min_envite = rnd.randint(1, 3)
    chips = rnd.choice((10, 20))  # drawn for every form, so the draws after it are the same
    return RuleSet(
        kings=kings,
        stones_per_game=stones,
        games_per_vaca=games,
        vacas_per_match=1,
        real_31=real_31,
        dejes=dejes,
        min_envite=min_envite,
        form=form,
        players=seats,
        chips=chips if form is Form.FRANCES else 0,  # only Mus francés counts chips (001)
    )


@st.composite
def table_hands(draw, form: Form | None = None, *, ordago: bool = True):
    """A rule set of a form, and a valid hand under it."""
    form = draw(st.sampled_from(list(Form))) if form is None else form
    seats = draw(st.sampled_from(SEATS[form]))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    rules = form_rules(form, seats, rnd)
    cards = draw(st.permutations(DECK))[: 4 * seats]
    hand_deal = tuple(tuple(cards[i : i + 4]) for i in range(0, 4 * seats, 4))
    return rules, make_table_hand(hypothesis_picker(draw), rules, hand_deal, ordago=ordago)


def random_table_hand(rnd: random.Random, rules: RuleSet, seats: int | None = None) -> TableHand:
    return make_table_hand(random_picker(rnd), rules, deal(rnd, seats or rules.players))


# ---------------------------------------------------------------------------------------------
# What a hand must give


def _bonus(refs: Sequence[Ref], index: int, seats: Sequence[int]) -> int:
    if index == 2:
        return sum(refs[s].pares for s in seats)
    return sum((3 if refs[s].points == 31 else 2) for s in seats if refs[s].has_juego)


def classic_events(rules: RuleSet, hand: TableHand) -> tuple[list[tuple], tuple | None]:
    """Classic scoring (pairs, trios, individual): the events in counting order as
    (lance, side, stones, kind), and the accepted órdago as (lance, side) or None."""
    refs = hand.refs
    dejes, count = [], []
    for index, ending in enumerate(hand.endings):
        if ending is None:
            break
        name = lance_name(refs, index)
        who = speakers(refs, index)
        if ending.outcome == "not_played":
            if not who:
                continue
            winner = side_of(rules, who[0])
        elif ending.outcome == "no_querido":
            winner = ending.side if two_sides(rules) else ending.side
            if rules.dejes:
                dejes.append((name, winner, ending.stones, "deje"))
        else:
            winner = side_of(rules, best(refs, name, ending.players or who))
            if ending.outcome == "ordago":
                return dejes, (name, winner)
            if ending.outcome == "querido":
                count.append((name, winner, ending.stones, "envite"))
        if index < 2:
            if ending.outcome == "paso":
                count.append((name, winner, 1, "paso"))
        elif name == "punto":
            count.append((name, winner, 1, "bonus"))
        else:
            mine = [s for s in range(len(refs)) if side_of(rules, s) == winner]
            bonus = _bonus(refs, index, [s for s in mine if s in who])
            if bonus:
                count.append((name, winner, bonus, "bonus"))
    return dejes + count, None


def frances_chips(rules: RuleSet, hand: TableHand) -> tuple[list[int], tuple | None]:
    """Mus francés: each seat's change in chips (no cap at the chips held), and the accepted
    órdago as (best, worst) or None."""
    refs = hand.refs
    dejes = [0] * len(refs)  # what stands even after an accepted órdago
    chips = [0] * len(refs)  # the count
    for index, ending in enumerate(hand.endings):
        if ending is None:
            break
        name = lance_name(refs, index)
        who = speakers(refs, index)
        if ending.outcome == "not_played":
            if not who:
                continue
            winner = who[0]
        elif ending.outcome == "no_querido":
            winner = ending.side
            if rules.dejes:
                dejes[winner] -= ending.stones
        else:
            players = ending.players or who
            winner = best(refs, name, players)
            if ending.outcome == "ordago":
                return dejes, (winner, worst(refs, name, players))
            if ending.outcome == "querido":
                taker = worst(refs, name, players)
                for seat in players:
                    if seat != taker:
                        chips[seat] -= ending.stones
                        chips[taker] += ending.stones
        if index < 2:
            if ending.outcome == "paso":
                chips[winner] -= 1
        elif name == "punto":
            chips[winner] -= 1
        else:
            chips[winner] -= _bonus(refs, index, [winner])
    return [a + b for a, b in zip(dejes, chips, strict=True)], None


_PARES_WORDS = ("none", "par", "medias", "duples")


def declared(rules: RuleSet, hand: TableHand) -> dict[str, Any]:
    """What honest players declare for this hand, with the winner of every lance that was
    played out (en paso or accepted), as the JSON's ``declarations``."""
    refs = hand.refs
    juego = [("31 real" if r.real else r.points) if r.has_juego else "none" for r in refs]
    result: dict[str, Any] = {"pares": [_PARES_WORDS[r.pares] for r in refs], "juego": juego}
    if not any(r.has_juego for r in refs):
        result["punto"] = [r.points for r in refs]
    winners = {}
    takers = {}
    for index, ending in enumerate(hand.endings):
        if ending is None or ending.outcome in ("not_played", "no_querido"):
            continue
        name = lance_name(refs, index)
        players = ending.players or speakers(refs, index)
        seat = best(refs, name, players)
        side = side_of(rules, seat)
        winners[name] = ("mano", "postre")[side] if two_sides(rules) else side
        if rules.form is Form.FRANCES and ending.outcome in ("querido", "ordago"):
            # 001: «se llevará las fichas apostadas el jugador con la peor mano»
            takers[name] = worst(refs, name, players)
    result["winners"] = winners
    if takers:
        result["takers"] = takers
    return result


def reasons(rules: RuleSet, hand: TableHand) -> list[tuple[str, str, int | None]]:
    """Why each lance went where it did, as (lance, the reason's code, the seat that takes the
    chips in Mus francés or None): nobody or only one side holds it, the bet was refused, or the
    best hand of the winner's side against the best of the others in it (a tie goes to the seat
    nearer mano; a 31 real beats another 31 wherever it sits)."""
    refs = hand.refs
    found = []
    frances = rules.form is Form.FRANCES
    for index, ending in enumerate(hand.endings):
        if ending is None:
            break
        name = lance_name(refs, index)
        who = speakers(refs, index)
        taker = None
        if ending.outcome == "not_played":
            code = "reason_only_table" if who else "reason_nobody"
        elif ending.outcome == "no_querido":
            code = "reason_refused_table"
        else:
            players = ending.players or who
            top = best(refs, name, players)
            others = [s for s in players if side_of(rules, s) != side_of(rules, top)]
            other = best(refs, name, others)
            if refs[other].key(name) == refs[top].key(name):
                code = "reason_tie"
            elif name == "juego" and refs[top].real and refs[top].points == refs[other].points:
                code = "reason_real"
            else:
                code = "reason_beats"
            if frances and ending.outcome in ("querido", "ordago"):
                taker = worst(refs, name, players)
        found.append((name, code, taker))
    return found


def paper(rules: RuleSet, hand: TableHand) -> dict[str, dict[str, Any]]:
    """The hand as a paper anotador writes it (classic scoring: pairs, trios, individual): for
    each lance played, who took it (a side's word between two sides, else the seat), how, the
    stones of a deje or an accepted bet, and the bonus of pares and juego — the bonus of every
    holder on the taker's side (000 «Scoring»), in individual Mus the taker's own."""
    refs = hand.refs
    lances: dict[str, dict[str, Any]] = {}
    for index, ending in enumerate(hand.endings):
        if ending is None:
            break
        name = lance_name(refs, index)
        who = speakers(refs, index)
        stones = None
        if ending.outcome == "not_played":
            if not who:
                continue  # nobody has it: the anotador writes nothing
            to, how = side_of(rules, who[0]), "paso"
        elif ending.outcome == "no_querido":
            to, how = ending.side, "deje"
            stones = ending.stones if rules.dejes else None
        else:
            to = side_of(rules, best(refs, name, ending.players or who))
            how = ending.outcome
            stones = ending.stones if how == "querido" else None
        point: dict[str, Any] = {"to": ("mano", "postre")[to] if two_sides(rules) else to}
        point["how"] = how
        if stones is not None:
            point["stones"] = stones
        if name in ("pares", "juego") and how != "ordago":
            mine = [s for s in who if side_of(rules, s) == to]
            point["bonus"] = _bonus(refs, index, mine)
        lances[name] = point
    return lances


def side_totals(rules: RuleSet, hand: TableHand) -> list[int]:
    """Each side's stones in the hand: what it counted (after an accepted órdago, the dejes
    before it: 003 «without considering any other bids made before»)."""
    events, _ordago = classic_events(rules, hand)
    totals = [0] * (2 if two_sides(rules) else len(hand.refs))
    for _lance, side, stones, _kind in events:
        totals[side] += stones
    return totals
