"""How an error's message is made: a text with named blanks, and the values that fill them.

Responsible for: ``MessageError``, the base of every error a player or an organizer can act on
(the engine's ``ScoringError``, the draw's ``DrawError``, the services' ``DomainError``), and
``render``, which fills a message's text in whichever language the caller supplies.

An error is raised with a stable ``code``, a message text written in English with named blanks
(``"The {card} was dealt to two players."``) and the ``params`` that fill them. The text is a
gettext message id: marked with ``gettext_noop`` so the extraction tools find it, and
translated by a catalog of the ``errors`` domain (``scoring/locale`` for the engine's texts, the
project's ``locale`` for the rest). ``message`` is the English text, filled; the web layer
renders the same (text, params) in the reader's language. Nothing ever reads a message back
to recover a value: every value a message shows is a param.

Params are plain values (int, str, lists of them) so programs can read them from the API's
error body. A word that a reader's language must translate (a seat, a lance, a status) is
passed as a ``Term``; another error (the reason a pasted line was refused) is rendered in the
same language; a list is joined with commas.

Must not: import Django or know any language but the English of its message ids.

Terms: lance, seat (mano, postre), pareja; none of the game's rules live here.
"""

from __future__ import annotations

import gettext as _gettext
import string
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "DOMAIN",
    "MessageError",
    "Term",
    "Translations",
    "gettext_noop",
    "placeholders",
    "render",
    "scoring_translations",
]

#: the gettext domain of every error text (the UI's own strings are Django's "django" domain)
DOMAIN = "errors"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def gettext_noop(message: str) -> str:
    """Marks ``message`` as a message id for extraction; returns it unchanged."""
    return message


class Term(str):
    """A word carried as a param that the reader's language translates (a seat, a status)."""

    __slots__ = ()


class Translations(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


_ENGLISH: Translations = _gettext.NullTranslations()


def placeholders(text: str) -> set[str]:
    """The names of the blanks of a message text (``{card}`` → ``card``)."""
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field
    }


class MessageError(Exception):
    """An error whose message is rendered from a text with named blanks and its params.

    ``text`` is the English message id; a pair ``(singular, plural)`` is chosen by the param
    named ``count``. ``context`` holds outer texts that name where the error happened ("Hand
    {hand}: {error}"), innermost first; each has the rendered inner message as ``{error}``.
    """

    code = "invalid"

    def __init__(
        self, text: str | tuple[str, str], /, *, code: str | None = None, **params: Any
    ) -> None:
        self.text = text
        if code is not None:
            self.code = code
        self.params = params
        self.context: list[tuple[str, dict[str, Any]]] = []
        self.message = self.render()
        super().__init__(self.message)

    def add_context(self, text: str, **params: Any) -> MessageError:
        """Wrap the message in ``text`` (which shows it as ``{error}``); returns self."""
        self.context.append((text, params))
        self.params = {**params, **self.params}
        self.message = self.render()
        self.args = (self.message,)
        return self

    def render(self, translations: Translations = _ENGLISH) -> str:
        message = render(self.text, self.params, translations)
        for text, params in self.context:
            message = render(text, {**params, "error": message}, translations)
        return message

    def as_dict(self) -> dict[str, Any]:
        return {
            "error": type(self).__name__,
            "code": self.code,
            "message": self.message,
            "params": {k: jsonable(v) for k, v in self.params.items()},
        }


def render(
    text: str | tuple[str, str],
    params: Mapping[str, Any],
    translations: Translations = _ENGLISH,
) -> str:
    """``text`` translated and filled with ``params`` (each value shown in the same language)."""
    if isinstance(text, tuple):
        singular, plural = text
        template = translations.ngettext(singular, plural, int(params["count"]))
    else:
        template = translations.gettext(text)
    values = {name: _shown(value, translations) for name, value in params.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        # Never a crash while reporting an error: tests/test_error_catalog.py proves every
        # text's blanks are among its params, so only a text with stray braces gets here.
        return template


def _shown(value: Any, translations: Translations) -> Any:
    if isinstance(value, Term):
        return translations.gettext(value)
    if isinstance(value, MessageError):
        return value.render(translations)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_shown(item, translations)) for item in value)
    return value


def jsonable(value: Any) -> Any:
    """A param as a program reads it in an error body."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, MessageError):
        return {"code": value.code, "params": {k: jsonable(v) for k, v in value.params.items()}}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    return str(value)


@lru_cache(maxsize=16)
def scoring_translations(language: str) -> _gettext.NullTranslations:
    """The engine's own catalog for ``language`` (English, the message ids, when it has none)."""
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
