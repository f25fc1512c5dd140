"""A hand entered by what the players declared: the declarations checked, each lance's winner.

Responsible for: a hand of four entered with declarations, alone or with the cards — every
declaration checked (pares none, par, medias or duples; juego 31-37, 40 or a juego other than
31; punto from 4 to 30 and only when nobody has juego; the tío Perete shown once a hand and
only where the rule set plays it), and against the cards when they are given; each lance's
winner taken from the cards when given (a declared winner must agree), else declared or
derived from the declarations (a better pares, juego or punto), and not needed when an órdago
accepted in a later lance ends the game; a declared winner must be a pair that can have won.
The checks of declarations other modules reuse are here too: ``check_punto_declared`` (every
form), ``_check_declarations``, ``_check_perete_declared`` and ``_check_perete_held`` (lance
points; the last also for the tío Perete in score.py).

Must not: score a lance (events.py) or read cards (values.py).

Terms: lance (grande, chica, pares, juego, punto), paso, envite, deje, quiero/no quiero,
órdago, par/medias/duples, juego/punto, 31 real, mano, postre.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.betting import SIDE_NAMES, Action, Outcome, resolve
from scoring.cards import DUPLES, MEDIAS, PAR, PARES_NONE, HandValue, juego_rank
from scoring.errors import DeclarationError, Phrase, ScoringError, lance_term, seat_term, shown
from scoring.hand.events import (
    _NO_QUERIDO,
    _NOT_PLAYED,
    _ORDAGO,
    _check_nothing_after_ordago,
    _hand_score,
    _score_lance,
)
from scoring.hand.record import Declarations, HandScore, LanceResult
from scoring.hand.seats import (
    _ALL_SEATS,
    _JUEGO_BONUS,
    _LANCE_INDEX,
    _NOBODY,
    _PARES_TERMS,
    JUEGO_NONE,
    JUEGO_OTHER,
    JUEGO_REAL,
    JUEGO_VALUES,
    LANCES,
    PERETE_RANKS,
    SEAT_NAMES,
    _best_seat,
    _juego_points,
    _juego_words,
)
from scoring.hand.values import declarations_from_cards
from scoring.messages import Term
from scoring.rules import Real31, RuleSet


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
        _check_declared_winner(
            decl, name, LanceResult(name, Outcome.PASO, best % 2, best, cards, tuple(seats))
        )


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


def _check_perete_held(seats: tuple[int, ...], cards: tuple[HandValue, ...]) -> None:
    """Each seat declared as showing the tío Perete holds 4-5-6-7 (a hand scored by its
    betting, or written as lance points)."""
    for seat in seats:
        if cards[seat].ranks != PERETE_RANKS:
            raise DeclarationError(
                "The {seat} was entered as showing the tío Perete (4-5-6-7), but holds {holds}.",
                code="perete_contradicts_cards",
                seat=seat_term(SEAT_NAMES[seat]),
                holds="-".join(str(r) for r in cards[seat].ranks),
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
