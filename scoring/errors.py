"""The rules engine's errors.

Responsible for: the one family of exceptions the engine raises for input a player or organizer
can correct. Every message says what is wrong and, where it helps, how to fix it, in words a
player understands (lance, card, number). Each error also carries a stable ``code`` and its
``params`` so the web layer can translate the message.

Must not: be raised for bugs. A bug inside the engine is any other exception.

Terms: lance (grande, chica, pares, juego, punto), envite, deje, órdago, mano, postre, vaca.
"""

from __future__ import annotations

from typing import Any


class ScoringError(ValueError):
    """An entry the rules of Mus do not allow. Nothing was scored."""

    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params = params

    def as_dict(self) -> dict[str, Any]:
        return {
            "error": type(self).__name__,
            "code": self.code,
            "message": self.message,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


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
