"""One lance scored from how its betting ended, and the hand's events in counting order.

Responsible for: a lance's events from the outcome of its betting and its winner (sources 001
«Recuento de los puntos», 004 «Valeur des coups», 000 «Scoring») — a refused envite's deje at
once to the pair that bet, which takes the lance (in pares and juego its own bonus at the
count, in punto the +1); an accepted envite's stones to the lance's winner; grande and chica en
paso 1 stone; the bonus of pares, juego and punto; an accepted órdago, which ends the hand —
and the hand from its lances: the dejes as they happen, then the count in lance order, and
after an accepted órdago only the dejes before it, with nothing bet in a later lance.

Must not: decide who won a lance (score.py from the cards, declared.py from the declarations)
or read the betting (scoring.betting).

Terms: lance (grande, chica, pares, juego, punto), paso, envite, deje, quiero/no quiero,
órdago, par/medias/duples, juego/punto, 31 real, mano, postre.
"""

from __future__ import annotations

from scoring.betting import Act, Action, Betting, Outcome
from scoring.cards import HandValue
from scoring.errors import DeclarationError, lance_term
from scoring.hand.record import HandScore, ScoreEvent
from scoring.hand.seats import _NOBODY, LANCES

_NO_QUERIDO, _NOT_PLAYED, _ORDAGO, _QUERIDO, _PASO = (
    Outcome.NO_QUERIDO,
    Outcome.NOT_PLAYED,
    Outcome.ORDAGO,
    Outcome.QUERIDO,
    Outcome.PASO,
)

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


_new_score = tuple.__new__  # HandScore's own __new__ is a Python function: one call less


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
