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
This package is the four-seat path of the pairs form, built for speed; ``score_hand`` hands
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

Its modules, from the bottom up:

- seats.py: the seats, the lances and the values a player declares, with their words, and the
  seat whose cards win a lance;
- record.py: what a table records for a hand (``HandRecord``, ``Declarations``) and what the
  hand scores (``ScoreEvent``, ``HandScore``, ``LanceResult`` and why a lance went where it did);
- values.py: the four hands' cards read (``hand_values``) and what honest players holding them
  declare (``declarations_from_cards``);
- events.py: one lance scored from how its betting ended, and the events in counting order;
- declared.py: a hand entered with declarations: each checked, and who won each lance;
- score.py: ``score_hand``, which sends each hand to its scorer, and the fast path from the
  cards.
"""

from scoring.hand.declared import check_punto_declared
from scoring.hand.record import Declarations, HandRecord, HandScore, LanceResult, ScoreEvent
from scoring.hand.score import C_SPEEDUP, OTHER_FORMS, score_hand
from scoring.hand.seats import (
    JUEGO_NONE,
    JUEGO_OTHER,
    JUEGO_REAL,
    JUEGO_VALUES,
    LANCES,
    PERETE_RANKS,
    SEAT_NAMES,
)
from scoring.hand.values import declarations_from_cards, hand_values

__all__ = [
    "C_SPEEDUP",
    "JUEGO_NONE",
    "JUEGO_OTHER",
    "JUEGO_REAL",
    "JUEGO_VALUES",
    "LANCES",
    "OTHER_FORMS",
    "PERETE_RANKS",
    "SEAT_NAMES",
    "Declarations",
    "HandRecord",
    "HandScore",
    "LanceResult",
    "ScoreEvent",
    "check_punto_declared",
    "declarations_from_cards",
    "hand_values",
    "score_hand",
]
