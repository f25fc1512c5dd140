"""What one lance's points may be, given the rule set, the cards and the declarations.

Responsible for: what the cards (or, without them, the declarations) say of a hand — what each
seat holds in pares and juego, and the side each lance went to — and every figure written for
one lance checked against it and against the rules: the lance's name (juego or punto as the
cards say), who took it (a side that holds the lance; with the cards, the one that won it, or
in individual Mus a player who beats somebody who could be in the accepted bet), how (paso,
deje, querido, órdago), its stones (a deje an amount a refused bet can leave: 1 for a first
envite, else the bet before the last raise, so at least the minimum envite; an accepted bet at
least the minimum envite; either at most the largest bet the engine records,
scoring.betting.MAX_BET) and its bonus (a sum the side's holders can make, and theirs when the
cards or declarations say it). The message names the first figure that does not fit.

Must not: add the lances up into a hand, or check the totals and the tío Perete (sheet.py);
read JSON (jsonform.py).

Terms: lance, paso, deje, querido, órdago, envite, pares (par, medias, duples), juego, punto,
anotador (who keeps the score), piedras (stones).
"""

from __future__ import annotations

from typing import Any

from scoring.betting import MAX_BET, SIDE_NAMES, Outcome
from scoring.cards import HandValue
from scoring.errors import DeclarationError, FormatError, Phrase, lance_term, shown, team_term
from scoring.hand import JUEGO_NONE, JUEGO_OTHER, Declarations, declarations_from_cards
from scoring.hand.seats import _PARES_TERMS, _juego_points
from scoring.lances.points import (
    HOWS,
    JUEGO_BONUSES,
    PARES_BONUSES,
    LancePoint,
    _sums,
    _Table,
)
from scoring.messages import Term
from scoring.rules import Form, RuleSet

_OUTCOMES = {
    "paso": Outcome.PASO,
    "deje": Outcome.NO_QUERIDO,
    "querido": Outcome.QUERIDO,
    "ordago": Outcome.ORDAGO,
}


def _holdings(
    rules: RuleSet,
    cards: tuple[HandValue, ...] | None,
    declarations: Declarations | None,
    table: _Table,
) -> dict[str, Any] | None:
    """What each seat holds in pares (1/2/3) and juego (its bonus), the side each lance went
    to by the cards (or as declared), and the cards; None when neither cards nor declarations
    were given."""
    if cards is not None:
        pares = tuple(c.pares for c in cards)
        juego = tuple(c.juego_bonus for c in cards)
        if table.pairs:
            winners = declarations_from_cards(rules, cards).winners
        else:
            winners = _winners_from_cards(cards, pares, juego, table)
    elif declarations is not None:
        decl = declarations
        pares = decl.pares
        juego = tuple(
            0 if j == JUEGO_NONE else 2 if j == JUEGO_OTHER else _juego_bonus(j) for j in decl.juego
        )
        winners = decl.winners
    else:
        return None
    return {"pares": pares, "juego": juego, "winners": winners, "cards": cards}


def _winners_from_cards(
    cards: tuple[HandValue, ...], pares: tuple[int, ...], juego: tuple[int, ...], table: _Table
) -> dict[str, int]:
    """The side of the best hand among those who may speak in each lance (equal hands: the seat
    nearer mano)."""
    everybody = range(table.seats)
    found = {}
    for name, key, seats in (
        ("grande", 0, everybody),
        ("chica", 1, everybody),
        ("pares", 2, [s for s in everybody if pares[s]]),
        ("juego", 3, [s for s in everybody if juego[s]]),
        ("punto", 4, everybody if not any(juego) else ()),
    ):
        if seats:
            found[name] = table.side(max(seats, key=lambda s: (cards[s].keys[key], -s)))
    return found


def _juego_bonus(declared: int) -> int:
    return 3 if _juego_points(declared) == 31 else 2


def _lance_names(given: dict[str, LancePoint], holds: dict | None) -> tuple[str, ...]:
    """The lances the hand played, in order, after checking the names written: grande, chica,
    pares, and juego or punto (by the cards or declarations when given, else as written)."""
    for name in given:
        if name not in ("grande", "chica", "pares", "juego", "punto"):
            raise FormatError(
                "'{field}' is not a lance; bets are given for grande, chica, pares and juego "
                "(or punto).",
                code="unknown_lance",
                field=str(name)[:40],
            )
    if "juego" in given and "punto" in given:
        raise FormatError(
            "Give the last lance's bets as juego or punto, not both.",
            code="juego_and_punto",
            field="lances",
        )
    if holds is not None:
        last = "juego" if any(holds["juego"]) else "punto"
        other = "punto" if last == "juego" else "juego"
        if other in given:
            raise DeclarationError(
                "{lance} was not played: {why}.",
                code="lance_not_this_hand",
                lance=lance_term(other),
                why=Phrase("somebody has juego", code="why_somebody_juego")
                if last == "juego"
                else Phrase("nobody has juego", code="why_nobody_juego"),
            )
    else:
        last = "punto" if "punto" in given else "juego"
    return ("grande", "chica", "pares", last)


def _held_sides(holds: dict, name: str, table: _Table) -> set[int]:
    if name in ("pares", "juego"):
        return {table.side(s) for s in range(table.seats) if holds[name][s]}
    return set(range(table.sides))


def _outcome(name: str, point: LancePoint, holds: dict | None, table: _Table) -> Outcome:
    held = _held_sides(holds, name, table) if holds is not None else {0, 1}
    if point.how == "paso" and name in ("pares", "juego") and len(held) < 2:
        return Outcome.NOT_PLAYED
    return _OUTCOMES[point.how]


def _check_point(
    rules: RuleSet, name: str, point: LancePoint, holds: dict | None, table: _Table
) -> tuple[int, int]:
    """The stones and the bonus of one lance, after checking both are possible (and agree with
    the cards or declarations when given)."""
    lance = lance_term(name)
    if isinstance(point.to, bool) or point.to not in range(table.sides):
        if table.two:
            raise FormatError(
                "Who took {lance} is 'mano' or 'postre', not {value}.",
                code="lance_to_word",
                field=f"lances.{name}",
                lance=lance,
                value=shown(point.to),
            )
        raise FormatError(
            "Who took {lance} is a seat counted from mano: a number from 0 to {last}, 'mano' "
            "or 'postre', not {value}.",
            code="lance_to_seat",
            field=f"lances.{name}",
            lance=lance,
            last=table.seats - 1,
            value=shown(point.to),
        )
    if point.how not in HOWS:
        raise FormatError(
            "How {lance} was taken is paso, deje, querido or ordago, not {value}.",
            code="lance_how_word",
            field=f"lances.{name}",
            lance=lance,
            value=shown(point.how),
        )
    for value in (point.stones, point.bonus):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FormatError(
                "Stones in {lance} are whole numbers, not {value}.",
                code="lance_stones_format",
                field=f"lances.{name}",
                lance=lance,
                value=shown(value),
            )
    stones = _check_stones(rules, name, point)
    if holds is not None:
        _check_taker(name, point, holds, table)
    bonus = _check_bonus(name, point, holds, table)
    return stones, bonus


def _check_stones(rules: RuleSet, name: str, point: LancePoint) -> int:
    lance = lance_term(name)
    how, stones = point.how, point.stones
    if how == "paso":
        implied = 1 if name in ("grande", "chica") else 0
        if stones is not None and stones != implied:
            raise DeclarationError(
                "{lance} en paso gives {implied} stones, not {stones} (the bonus is written "
                "apart).",
                code="paso_stones",
                lance=lance,
                implied=implied,
                stones=stones,
            )
        return implied
    if how == "ordago":
        if stones or point.bonus:
            raise DeclarationError(
                "An órdago accepted in {lance} wins the game: it has no stones or bonus to write.",
                code="ordago_stones",
                lance=lance,
            )
        return 0
    if how == "deje":
        if not rules.dejes:
            if stones:
                raise DeclarationError(
                    "This rule set plays sin deje: a refused envite in {lance} gives no stone, "
                    "not {stones}.",
                    code="deje_sin_deje",
                    lance=lance,
                    stones=stones,
                )
            return 0
        if stones is None:
            raise DeclarationError(
                "Give the stones of the deje in {lance}.", code="deje_missing", lance=lance
            )
        if not _possible_deje(rules, stones):
            raise DeclarationError(
                "A deje of {stones} in {lance} cannot be: a refused envite leaves 1 stone (a "
                "first envite) or the bet before the last raise, at least the minimum envite of "
                "{minimum}.",
                code="deje_impossible",
                lance=lance,
                stones=stones,
                minimum=rules.min_envite,
            )
        return _recorded(name, stones)
    if stones is None:
        raise DeclarationError(
            "Give the stones of the envite accepted in {lance}.",
            code="querido_missing",
            lance=lance,
        )
    if stones < rules.min_envite:
        raise DeclarationError(
            "An envite accepted in {lance} is at least the minimum envite of {minimum}, not "
            "{stones}.",
            code="querido_impossible",
            lance=lance,
            stones=stones,
            minimum=rules.min_envite,
        )
    return _recorded(name, stones)


def _recorded(name: str, stones: int) -> int:
    """A deje or an accepted bet is a bet's (the bet before the last raise, or the bet), so at
    most the largest bet the engine records (scoring.betting.MAX_BET; no source bounds a bet)."""
    if stones > MAX_BET:
        raise DeclarationError(
            "{stones} stones in {lance} is more than can be recorded: a bet, and so a deje, is "
            "at most {most} stones (an órdago bets the whole game).",
            code="lance_stones_above_limit",
            lance=lance_term(name),
            stones=stones,
            most=MAX_BET,
        )
    return stones


def _possible_deje(rules: RuleSet, stones: int) -> bool:
    """1 (a first envite or órdago refused) or a bet said before a raise: at least the minimum
    envite, whatever its size (a bet may be of a whole game or more, 004 «Note», and the
    betting leaves what was bet before the raise: docs/rules.md, «Betting»)."""
    return stones == 1 or stones >= rules.min_envite


def _check_taker(name: str, point: LancePoint, holds: dict, table: _Table) -> None:
    """The side that took the lance, against the cards or declarations."""
    sides = _held_sides(holds, name, table)
    if not sides:
        raise DeclarationError(
            "Nobody has {lance}, so nobody can have won it; leave its winner out.",
            code="winner_nobody_has",
            lance=lance_term(name),
        )
    if len(sides) == 1:
        (side,) = sides
        if point.to != side:
            if table.pairs:
                raise DeclarationError(
                    "Pareja {declared} cannot have won {lance}: only pareja {side} has {lance}.",
                    code="winner_not_held",
                    lance=lance_term(name),
                    declared=SIDE_NAMES[point.to],
                    side=SIDE_NAMES[side],
                )
            raise DeclarationError(
                "{lance} cannot have gone to {declared}: only {who} has {lance}.",
                code="winner_not_held_table",
                lance=lance_term(name),
                declared=table.who(point.to),
                who=table.who(side),
            )
        if point.how != "paso":
            if table.pairs:
                raise DeclarationError(
                    "Nobody could bet in {lance}: only {team} {side} has {lance}, and a lance "
                    "is bet only when both sides have it.",
                    code="lance_not_played",
                    lance=lance_term(name),
                    team=team_term(Form.PAIRS),
                    side=SIDE_NAMES[side],
                )
            if not table.two:
                raise DeclarationError(
                    "Nobody could bet in {lance}: only one player has {lance}, and a lance is "
                    "bet only when two players or more have it.",
                    code="lance_one_player",
                    lance=lance_term(name),
                )
            raise DeclarationError(
                "Nobody could bet in {lance}: only {who} has {lance}, and a lance is bet only "
                "when both sides have it.",
                code="lance_not_played_side",
                lance=lance_term(name),
                who=table.who(side),
            )
        return
    if point.to not in sides:  # each player a side: the taker must hold the lance
        raise DeclarationError(
            "{lance} cannot have gone to {declared}, who has no {lance}.",
            code="taker_without_lance",
            lance=lance_term(name),
            declared=table.who(point.to),
        )
    if point.how == "deje":
        return  # the side that bet takes it, whatever its cards
    cards = holds["cards"]
    if not table.two and point.how != "paso" and cards is not None:
        # an accepted bet goes to the best hand among those in it, who need not be all: the
        # taker must beat one player at least who may have been in the bet
        _check_beats_somebody(name, point.to, holds, table)
        return
    winner = holds["winners"].get(name)
    if winner is not None and winner != point.to:
        if table.pairs:
            raise DeclarationError(
                "Pareja {side} is written as taking {lance}, but pareja {winner} won it.",
                code="taker_contradicts",
                side=SIDE_NAMES[point.to],
                lance=lance_term(name),
                winner=SIDE_NAMES[winner],
            )
        raise DeclarationError(
            "In {lance}, {who} is written as the taker, but {winner} won it.",
            code="taker_contradicts_table",
            who=table.who(point.to),
            lance=lance_term(name),
            winner=table.who(winner),
        )


def _check_beats_somebody(name: str, seat: int, holds: dict, table: _Table) -> None:
    cards = holds["cards"]
    key = _KEYS[name]
    if name in ("pares", "juego"):
        others = [s for s in range(table.seats) if s != seat and holds[name][s]]
    else:
        others = [s for s in range(table.seats) if s != seat]
    mine = (cards[seat].keys[key], -seat)
    if all((cards[s].keys[key], -s) > mine for s in others):
        raise DeclarationError(
            "In {lance}, {who} cannot have won an accepted bet: every other player who could "
            "be in it has a better hand than {holds}.",
            code="taker_beats_nobody",
            lance=lance_term(name),
            who=table.who(seat),
            holds=cards[seat].describe(name),
        )


_KEYS = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 4}


def _check_bonus(name: str, point: LancePoint, holds: dict | None, table: _Table) -> int:
    lance = lance_term(name)
    bonus = point.bonus
    if point.how == "ordago":
        return 0
    if name in ("grande", "chica"):
        if bonus:
            raise DeclarationError(
                "{lance} has no bonus; write its stones only.",
                code="bonus_in_grande_chica",
                lance=lance,
            )
        return 0
    if name == "punto":
        if bonus is not None and bonus != 1:
            raise DeclarationError(
                "The punto bonus is 1, not {bonus}.", code="punto_bonus", bonus=bonus
            )
        return 1
    pares_sums, juego_sums = _sums(table)
    sums = pares_sums if name == "pares" else juego_sums
    if holds is not None:
        seats = [s for s in range(table.seats) if table.side(s) == point.to]
        held = [holds[name][s] for s in seats]
        expected = sum(held)
        if bonus is None:
            return expected
        if bonus != expected:
            if table.pairs:
                raise DeclarationError(
                    "Pareja {side} claims {bonus} for {lance} but holds {holds}: {expected}.",
                    code="bonus_contradicts",
                    side=SIDE_NAMES[point.to],
                    bonus=bonus,
                    lance=lance,
                    holds=_holds_phrase(name, held),
                    expected=expected,
                )
            raise DeclarationError(
                "In {lance}, {who} claims a bonus of {bonus} but holds {holds}: {expected}.",
                code="bonus_contradicts_table",
                who=table.who(point.to),
                bonus=bonus,
                lance=lance,
                holds=_holds_phrase(name, held),
                expected=expected,
            )
        return expected
    if bonus is None:
        if table.pairs:
            raise DeclarationError(
                "Give the bonus pareja {side} scores in {lance}.",
                code="bonus_missing",
                side=SIDE_NAMES[point.to],
                lance=lance,
            )
        raise DeclarationError(
            "Give the bonus {who} scores in {lance}.",
            code="bonus_missing_table",
            who=table.who(point.to),
            lance=lance,
        )
    if bonus not in sums:
        values = list(PARES_BONUSES if name == "pares" else JUEGO_BONUSES)
        if table.pairs:
            raise DeclarationError(
                "A bonus of {bonus} in {lance} cannot be: it is a sum of {values} for each "
                "player of the pair who holds {lance}, so one of {possible}.",
                code="bonus_impossible",
                bonus=bonus,
                lance=lance,
                values=values,
                possible=sorted(sums),
            )
        raise DeclarationError(
            "A bonus of {bonus} in {lance} cannot be: it is a sum of {values}, one for each "
            "holder of {lance} on the side that took it (at most {players}), so one of "
            "{possible}.",
            code="bonus_impossible_table",
            bonus=bonus,
            lance=lance,
            values=values,
            players=table.per_side,
            possible=sorted(sums),
        )
    return bonus


def _holds_phrase(name: str, held: list[int]) -> Phrase | Term | str:
    terms = _PARES_TERMS if name == "pares" else _JUEGO_WORDS
    words = [terms[h] for h in sorted(held, reverse=True)]
    nothing = held.count(0)
    if nothing == len(held):
        return Phrase("nothing", code="holds_nothing")
    if len(held) == 1:
        return words[0]  # a player alone
    if nothing == len(held) - 1:
        return Phrase("{first} and nothing else", code="holds_one", first=words[0])
    if len(held) == 2:
        return Phrase("{first} and {second}", code="holds_two", first=words[0], second=words[1])
    if nothing:
        return Phrase(
            "{first} and {second}, and nothing else",
            code="holds_two_of_three",
            first=words[0],
            second=words[1],
        )
    return Phrase(
        "{first}, {second} and {third}",
        code="holds_three",
        first=words[0],
        second=words[1],
        third=words[2],
    )


_JUEGO_WORDS = {0: Term("no juego"), 2: Term("a juego other than 31"), 3: "31"}
