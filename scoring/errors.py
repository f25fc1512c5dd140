"""The rules engine's errors.

Responsible for: the one family of exceptions the engine raises for input a player or organizer
can correct. Every message says what is wrong and, where it helps, how to fix it, in words a
player understands (lance, card, number). Each error carries a stable ``code``, its message text
(an English gettext id with named blanks) and the ``params`` that fill it, so any layer can
render it in the reader's language (scoring.messages).

Must not: be raised for bugs. A bug inside the engine is any other exception.

Terms: lance (grande, chica, pares, juego, punto), envite, deje, órdago, mano, postre, vaca.
"""

from __future__ import annotations

from scoring.messages import MessageError, gettext_noop


class ScoringError(MessageError, ValueError):
    """An entry the rules of Mus do not allow. Nothing was scored."""

    code = "invalid"

    def in_hand(self, number: int) -> ScoringError:
        """Name the hand of a match the error is about ("Hand 3: …"), once; returns self."""
        if "hand" not in self.params:
            self.add_context(gettext_noop("Hand {hand}: {error}"), hand=number)
        return self


class RuleSetError(ScoringError):
    """A rule set option out of range (stones per game, kings, ...)."""

    code = "rule_set"


class CardError(ScoringError):
    """A card or a hand that cannot exist in the 40-card Spanish deck."""

    code = "card"


class BettingError(ScoringError):
    """A sequence of bets that cannot have happened at a table."""

    code = "betting"


class DeclarationError(ScoringError):
    """A declared lance winner, pares or juego that contradicts the rest of the entry."""

    code = "declaration"


class EntryAfterEnd(ScoringError):
    """A hand or game entered after the game, vaca or match was already decided."""

    code = "after_end"


class GameEntryError(ScoringError):
    """A game given as final stones that no real game can end with."""

    code = "game_entry"


class FormatError(ScoringError):
    """Input of the wrong shape (JSON that is not what the engine documents)."""

    code = "format"
