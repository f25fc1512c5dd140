"""The rules engine's errors.

Responsible for: the one family of exceptions the engine raises for input a player or organizer
can correct. Every message says what is wrong and, where it helps, how to fix it, in words a
player understands (lance, card, number). Each error carries a stable ``code``, its message text
(an English gettext id with named blanks) and the ``params`` that fill it, so any layer can
render it in the reader's language (scoring.messages). One code names one text. A word the
reader's language translates (a lance, a seat) is a ``Term``; a part of a message worded per
language (why a lance went to a pair) is a ``Phrase``; the word for a team, which depends on
the form (pareja, trío), is ``team_term``'s; a value the input gave is shown back
through ``shown``. The Spanish of every text is in scoring/locale/es (the ``errors`` catalog),
so the engine speaks Spanish without Django (``python -m scoring --lang es``).

Must not: be raised for bugs. A bug inside the engine is any other exception.

Terms: lance (grande, chica, pares, juego, punto), envite, deje, órdago, mano, postre, vaca,
pareja (a pair), trío (a trio).
"""

from __future__ import annotations

from typing import Any

from scoring.messages import MessageError, Term, gettext_noop

#: the lances as a message shows them: words the reader's language translates
LANCE_TERMS = {
    "grande": Term("grande"),
    "chica": Term("chica"),
    "pares": Term("pares"),
    "juego": Term("juego"),
    "punto": Term("punto"),
}
#: the seats counted from mano (scoring.hand.SEAT_NAMES) as a message shows them
SEAT_TERMS = {
    "mano": Term("mano"),
    "second": Term("second"),
    "third": Term("third"),
    "fourth": Term("fourth"),
    "fifth": Term("fifth"),
    "postre": Term("postre"),
}
#: the forms of Mus (scoring.rules.Form) as a message shows them
FORM_TERMS = {
    "pairs": Term("pairs"),
    "trios": Term("trios"),
    "individual": Term("individual"),
    "frances": Term("frances"),
}

#: the word a message names one of a match's two teams with, by the form it plays: a pareja in
#: pairs, a trío in trios. Shown before the team's letter or seat ("{team} {side}": "pareja A",
#: "trio postre"); each language's translation carries what that place in a sentence needs
#: (Spanish its article: "la pareja", "el trío"; French "le couple", "le trio"; Basque the
#: word with its article, "bikotea", so that a case ending can follow it)
TEAM_TERMS = {
    "pairs": Term("pareja"),
    "trios": Term("trio"),
}


#: the two teams together, as the subject of a sentence ("both pairs have 40 or more")
BOTH_TEAMS_TERMS = {
    "pairs": Term("both pairs"),
    "trios": Term("both trios"),
}


def team_term(form: str) -> Term:
    """The word for one of the two teams of a match of ``form`` (a ``scoring.Form`` or its
    value); a form without two teams gets the pairs' word (its messages name players)."""
    return TEAM_TERMS.get(str(form)) or TEAM_TERMS["pairs"]


def both_teams_term(form: str) -> Term:
    """Both teams of a match of ``form`` as a sentence's subject (team_term's plural)."""
    return BOTH_TEAMS_TERMS.get(str(form)) or BOTH_TEAMS_TERMS["pairs"]


def lance_term(name: str) -> Term:
    """A lance's name as a message param ("a lance" when the caller named none)."""
    if not name:
        return Term("a lance")
    return LANCE_TERMS.get(name) or Term(name)


def seat_term(name: str) -> Term:
    """A seat's name (mano, second, third, postre) as a message param."""
    return SEAT_TERMS.get(name) or Term(name)


def shown(value: Any) -> Any:
    """A value the input gave, as a message shows it back: a whole number as it is, anything
    else as Python writes it (text in quotes), cut to 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**12:
        return value
    return repr(value)[:40]


class ScoringError(MessageError, ValueError):
    """An entry the rules of Mus do not allow. Nothing was scored."""

    code = "invalid"

    def for_seat(self, seat: str) -> ScoringError:
        """Name the player whose cards the error is about ("The mano's cards: …"); returns
        self. Nothing is added when ``seat`` is empty (a hand given on its own)."""
        if seat and "seat" not in self.params:
            self.add_context(gettext_noop("The {seat}'s cards: {error}"), seat=seat_term(seat))
        return self

    def in_hand(self, number: int) -> ScoringError:
        """Name the hand of a match the error is about ("Hand 3: …"), once; returns self."""
        if "hand" not in self.params:
            self.add_context(gettext_noop("Hand {hand}: {error}"), hand=number)
        return self


class Phrase(MessageError):
    """A part of another error's message that the reader's language words its own way (why a
    lance went to a pair, which match a record is). Shown in that message's blank, rendered in
    the same language; never raised."""

    code = "phrase"


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
