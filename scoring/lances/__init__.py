"""A hand entered as a paper anotador writes it: the points of each lance, or only the totals.

Responsible for: reading and checking a hand given lance by lance — for each lance the pair that
took it and how (``paso``, ``deje``, ``querido``, ``órdago``), the stones of the deje or of the
accepted bet, and the pares / juego / punto bonus of the pair that took it — or, in quick mode,
only each pair's total. Every typed figure must be possible under the rule set: a deje is an
amount a refused bet can leave (1 for a first envite, else the bet before the last raise, so at
least the minimum envite, a game or more too), an accepted bet at least the minimum envite (a
bet has no ceiling in the sources: docs/rules.md, «Betting»; either at most the largest bet
the engine records, scoring.betting.MAX_BET), a pares bonus a sum of
1 / 2 / 3 for each player of the pair who holds pares, a juego bonus a sum of 3 (31) and 2 (any
other juego), the punto bonus 1, totals the sum of what the hand counted (after an accepted
órdago, the dejes before it). With the cards or the declarations
given too, every figure must agree with them, and the message names the first that does not.
The result is a ``HandScore`` in counting order (dejes first, then grande, chica, pares,
juego / punto; an accepted órdago ends the hand), which match.py applies like any other hand.

Its modules, from the bottom up:

- points.py: one lance's point as written (``LancePoint``), the bonuses a side can score, the
  fewest stones a hand gives, and who scores together at the table of the rule set's form;
- checks.py: what one lance's points may be, given the rules, the cards and the declarations;
- sheet.py: the whole sheet (``LancePoints``) scored — the events in counting order, the
  totals, the tío Perete — and what match.py asks of it;
- jsonform.py: the sheet read from its JSON form (docs/scoring-json.md).

Must not: hold the betting of a lance (betting.py) or the value of a hand (cards.py); add a
hand to a game (match.py does; ``check_totals_end`` is its check for totals typed alone).

Seats and sides as in scoring.hand: side 0 is the pareja mano, side 1 the pareja postre. The same
entry serves the other classic forms (scoring.table): in trios a side is mano's or postre's
three, so a bonus is a sum over up to three holders; in individual Mus each seat is a side and
a bonus is the player's own; an accepted bet there goes to the best hand among those in it, so
with the cards its taker must beat somebody who could have been in it. Messages name a side or
a seat as scoring.table does ("the mano's side", "the postre"). Mus francés keeps no lance
points: it counts chips, and who takes them is not a figure the anotador writes.

Terms: lance, paso, deje, querido, órdago, envite, pares (par, medias, duples), juego, punto,
anotador (who keeps the score), piedras (stones).
"""

from scoring.lances.jsonform import points_from_json
from scoring.lances.points import LancePoint, bonus_sums, minimum_hand
from scoring.lances.sheet import LancePoints, bets_after, check_totals_end, score_points

__all__ = [
    "LancePoint",
    "LancePoints",
    "bets_after",
    "bonus_sums",
    "check_totals_end",
    "minimum_hand",
    "points_from_json",
    "score_points",
]
