"""One lance's points as the anotador writes them, and the table they are written at.

Responsible for: what a sheet of lance points is made of, before any card is looked at — one
lance's point (``LancePoint``: the side or seat that took it, how — ``paso``, ``deje``,
``querido``, ``órdago`` — its stones and its bonus), the bonuses one side can score (a sum of
1 / 2 / 3 for each of its players who holds pares, of 3 (31) and 2 (any other juego) for each
who holds juego: ``bonus_sums``), the fewest stones a hand gives (``minimum_hand``), and who
scores together at a table of the rule set's form (``_table``: two sides with their seats
alternating in pairs and trios, each seat a side in individual Mus; Mus francés keeps no lance
points).

Must not: check a figure against the cards or the rules (checks.py) or score a hand
(sheet.py).

Terms: lance, paso, deje, querido, órdago, pares (par, medias, duples), juego, punto,
anotador (who keeps the score), piedras (stones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from scoring.errors import DeclarationError, Phrase
from scoring.messages import Term
from scoring.rules import Form, RuleSet
from scoring.table import who_term

HOWS = ("paso", "deje", "querido", "ordago")
#: players of one pair (the pairs form: two; a trio three, a player alone one); the bonuses
#: are sums over them
PLAYERS_PER_SIDE = 2
PARES_BONUSES = (1, 2, 3)  # par, medias, duples
JUEGO_BONUSES = (2, 3)  # any other juego, 31
_ORDER = ("grande", "chica", "pares", "juego")
#: the lances a hand plays (grande, chica, pares, juego or punto): at most this many players
#: score in a hand where each player is a side (000 «Every hand consists of four rounds»)
LANCES_A_HAND = 4


@dataclass(frozen=True, slots=True)
class LancePoint:
    """One lance as the anotador writes it."""

    to: int  # the side that took it: 0 pareja mano, 1 pareja postre
    how: str  # paso, deje, querido, ordago
    stones: int | None = None  # the deje or the accepted bet; None: what ``how`` implies
    bonus: int | None = None  # pares / juego / punto bonus of ``to``; None: from the cards


def bonus_sums(values: tuple[int, ...], players: int = PLAYERS_PER_SIDE) -> frozenset[int]:
    """Every bonus a pair can score: a sum of one value per player who holds the lance, for
    one player up to ``players``."""
    sums = {0}
    for _ in range(players):
        sums |= {s + v for s in sums for v in values}
    return frozenset(sums - {0})


_PARES_SUMS = bonus_sums(PARES_BONUSES)
_JUEGO_SUMS = bonus_sums(JUEGO_BONUSES)


def minimum_hand(rules: RuleSet) -> int:
    """The fewest stones a hand played to its end gives both pairs together: grande and chica
    give 1 each (en paso or as a deje; an accepted bet gives more), juego at least its bonus
    of 2 and punto its 1; without dejes a refused envite in grande and chica gives nothing."""
    return 3 if rules.dejes else 1


class _Table(NamedTuple):
    """Who scores together at a table of the rule set's form."""

    pairs: bool  # the pairs form: its messages name "pareja mano" / "pareja postre"
    two: bool  # two sides (pairs, trios), seats alternating; otherwise each seat is a side
    seats: int
    sides: int
    per_side: int  # the players of one side, so the holders a bonus can be the sum of

    def side(self, seat: int) -> int:
        return seat % 2 if self.two else seat

    def who(self, side: int) -> Term | Phrase:
        return who_term(self.two, side, self.seats)


def _table(rules: RuleSet) -> _Table:
    form = rules.form
    if form is Form.PAIRS:
        return _Table(True, True, 4, 2, PLAYERS_PER_SIDE)
    if form is Form.FRANCES:
        raise DeclarationError(
            "Mus francés is counted in chips, which lance points do not say: enter the hand by "
            "its bets, with the cards or what each player declared.",
            code="lance_points_frances",
        )
    n = rules.players
    if form is Form.TRIOS:
        return _Table(False, True, n, 2, n // 2)
    return _Table(False, False, n, n, 1)


def _sums(table: _Table) -> tuple[frozenset[int], frozenset[int]]:
    """Every bonus of pares and of juego one side can score."""
    if table.per_side == PLAYERS_PER_SIDE:
        return _PARES_SUMS, _JUEGO_SUMS
    return bonus_sums(PARES_BONUSES, table.per_side), bonus_sums(JUEGO_BONUSES, table.per_side)
