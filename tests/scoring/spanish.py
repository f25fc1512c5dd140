"""What an engine error reads like in Spanish: the checks the error tests share.

Every error the engine raises is rendered from its English message ids and its params; the
engine's own catalog (scoring/locale, no Django needed) gives each id its Spanish. An error
reads right in Spanish when each of its texts (the message, the contexts around it such as
"Hand {hand}: {error}", and the phrases inside it such as the reason a lance went to a pair)
has a Spanish translation whose blanks are all filled by the params, and the whole message is
not the English one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scoring.messages import MessageError, Term, placeholders, scoring_translations

SPANISH = scoring_translations("es")


def _nested(value: Any) -> Iterator[Any]:
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _nested(item)
    else:
        yield value


def texts(error: MessageError) -> Iterator[tuple[str | tuple[str, str], set[str]]]:
    """Each text the error's message is made of, with the names of the params that fill it."""
    yield error.text, set(error.params)
    for text, params in error.context:
        yield text, {*params, "error"}
    for value in error.params.values():
        for item in _nested(value):
            if isinstance(item, MessageError):
                yield from texts(item)


def terms(error: MessageError) -> Iterator[Term]:
    """Each word of the error's params that the reader's language translates."""
    for value in error.params.values():
        for item in _nested(value):
            if isinstance(item, Term):
                yield item
            elif isinstance(item, MessageError):
                yield from terms(item)


def translated(text: str | tuple[str, str]) -> str | None:
    """The Spanish of a message id (of its plural, too), or None when the catalog lacks it."""
    if isinstance(text, tuple):
        found = [SPANISH.ngettext(text[0], text[1], n) for n in (1, 2)]
        return None if found == list(text) else " ".join(found)
    found = SPANISH.gettext(text)
    return None if found == text else found


def check_spanish(error: MessageError, *, own_words: bool = False) -> str:
    """The error rendered in Spanish, after checking it reads as Spanish with nothing left
    blank. ``own_words``: the input showed back in the message has no braces of its own and
    every Term in it is one of the engine's words, so both are checked strictly."""
    for text, names in texts(error):
        spanish = translated(text)
        assert spanish is not None, f"no Spanish for {text!r}"
        assert placeholders(spanish) <= names, (text, spanish, names)
    message = error.render(SPANISH)
    assert message.strip()
    assert message != error.message, message
    if own_words:
        assert "{" not in message and "}" not in message, message
        for term in terms(error):
            assert term in SPANISH._catalog, f"no Spanish for the word {term!r}"
    return message
