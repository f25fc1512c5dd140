"""The seats and the lances of a hand of four, and what a player declares, with their words.

Responsible for: the names the rest of scoring.hand counts by — the seats from mano (0 mano,
1 the next to speak, 2 mano's partner, 3 postre: ``SEAT_NAMES``; side 0 is the pareja mano,
seats 0 and 2), the lances in order (``LANCES``, and punto when nobody has juego), the values a
player declares in juego (``JUEGO_NONE``, ``JUEGO_OTHER``, ``JUEGO_REAL`` or the exact juego:
31-37, 40) and the bonus each is worth, the tío Perete's ranks (4-5-6-7); the words a message
names a declaration by; and the seat whose cards win a lance among those who speak in it (on a
tie the seat nearer mano).

Must not: score anything (events.py, score.py) or check a declaration (declared.py).

Terms: mano, postre, lance (grande, chica, pares, juego, punto), par/medias/duples, juego,
31 real, tío Perete.
"""

from __future__ import annotations

from scoring.cards import DUPLES, MEDIAS, PAR, PARES_NONE, HandValue
from scoring.messages import Term

LANCES = ("grande", "chica", "pares", "juego")
SEAT_NAMES = ("mano", "second", "third", "postre")

#: each lance's place in HandValue.keys
_LANCE_INDEX = {"grande": 0, "chica": 1, "pares": 2, "juego": 3, "punto": 4}

#: Juego declarations: 0 no juego, 31-37 or 40 the exact juego, JUEGO_OTHER a juego that is
#: not 31 (its number not given), JUEGO_REAL a 31 real.
JUEGO_NONE = 0
JUEGO_OTHER = 1
JUEGO_REAL = 131
JUEGO_VALUES = frozenset((31, 32, 33, 34, 35, 36, 37, 40))

#: the bonus of each juego a player can hold (0: none): 3 for 31, 2 for any other
_JUEGO_BONUS = {0: 0, 31: 3, 32: 2, 33: 2, 34: 2, 35: 2, 36: 2, 37: 2, 40: 2}

#: PARES_NAMES as a message shows them: words the reader's language translates
_PARES_TERMS = {
    PARES_NONE: Term("none"),
    PAR: Term("par"),
    MEDIAS: Term("medias"),
    DUPLES: Term("duples"),
}

#: 4-5-6-7, the tío Perete (source 000 «Named hands»), as HandValue.ranks holds it
PERETE_RANKS = (7, 6, 5, 4)

_ALL_SEATS = (0, 1, 2, 3)
#: the seats whose bit is set in a 4-bit mask, in seat order
_SEATS_OF = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(16))
_NOBODY = 6  # a lance nobody takes


def _best_seat(cards: tuple[HandValue, ...], lance_index: int, seats) -> int:
    """The seat among ``seats`` whose cards win the lance of ``lance_index``."""
    best_seat, best = -1, -1
    for seat in seats:  # strict '>' keeps the seat nearer mano on a tie
        r = cards[seat].keys[lance_index]
        if r > best:
            best_seat, best = seat, r
    return best_seat


def _juego_points(declared: int) -> int:
    """What a player's declared juego counts as (a 31 real is 31; a juego other than 31, 33)."""
    if declared == JUEGO_REAL:
        return 31
    if declared == JUEGO_OTHER:
        return 33  # any juego but 31: worth 2, its exact number unknown
    return declared


def _juego_words(declared: int) -> str:
    """What a player declared in juego, as a message shows it ("juego 33" needs no words)."""
    if declared == JUEGO_NONE:
        return Term("no juego")
    if declared == JUEGO_OTHER:
        return Term("a juego other than 31")
    if declared == JUEGO_REAL:
        return Term("31 real")
    return f"juego {declared}"
