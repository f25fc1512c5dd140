"""The API's JSON parser: refuses, with a 4xx and the usual error body, what would otherwise
reach a 500 further in.

Responsible for: ``JSONParser`` — a body larger than the limit (413, before it is read), JSON
nested deeper than any request of the API needs (Python's parser would hit its recursion
limit), a NUL character in any text or key (PostgreSQL stores no NUL in text or JSON), and a
lone surrogate (``"\\ud800"``, half of a character: UTF-8 has no form for it, so neither the
database nor an answer that repeats it could be written). ``RawJSONParser`` — the body's bytes
for a view that reads them itself.

Must not: know any endpoint's fields (the serializers check those).
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from rest_framework import parsers

from config.errors import DomainError, Invalid

#: deeper than any body the API accepts (a match's hands are about 6 levels)
MAX_DEPTH = 32


class TooLarge(DomainError):
    status = 413
    code = "body_too_large"


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        error = too_large((parser_context or {}).get("request"))
        if error is not None:
            raise error
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError:
            raise Invalid(
                "The body is not text in {encoding}.",
                code="body_encoding",
                encoding=encoding,
            ) from None
        try:
            data = json.loads(text)
        except RecursionError:
            data = None
            depth_exceeded = True
        except ValueError as exc:
            raise Invalid(
                "The body is not valid JSON: {reason}.",
                code="json_invalid",
                reason=str(exc)[:120],
            ) from None
        else:
            depth_exceeded = False
        if depth_exceeded or _too_deep(data):
            raise Invalid(
                "The JSON is nested more than {limit} levels deep.",
                code="json_too_deep",
                limit=MAX_DEPTH,
            )
        bad = _bad_character(data)
        if bad == "\x00":
            raise Invalid(
                "The JSON holds a NUL character (\\u0000), which no field accepts.",
                code="json_nul",
            )
        if bad is not None:
            raise Invalid(
                "The JSON holds a lone surrogate ({escape}), half of a character written as two "
                "\\u escapes; no field accepts it.",
                code="json_surrogate",
                escape=f"\\u{ord(bad):04x}",
            )
        return data


class RawJSONParser(parsers.BaseParser):
    """A JSON body's bytes as they came (after the size check), for a view that reads them
    itself and names its own errors (an archive: ``archive_not_json``, not ``json_invalid``)."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        error = too_large((parser_context or {}).get("request"))
        if error is not None:
            raise error
        return stream.read() if stream is not None else b""


def too_large(request) -> TooLarge | None:
    """The error for a request whose declared body is over the limit, else None."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = _content_length(request)
    if limit is None or length <= limit:
        return None
    return TooLarge(
        "The body is {size} bytes; the API accepts at most {limit}.",
        code="body_too_large",
        size=length,
        limit=limit,
    )


def _content_length(request) -> int:
    meta = getattr(request, "META", {}) if request is not None else {}
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        return 0


def _too_deep(data) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


#: a NUL, or a UTF-16 surrogate on its own (JSON's "\\ud800" without its other half): neither is
#: a character PostgreSQL stores or UTF-8 encodes, so an answer that repeats one would be a 500
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _bad_character(data) -> str | None:
    """The first NUL or lone surrogate in any text or key of ``data``, else None."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found = _BAD_CHARACTER.search(value)
            if found:
                return found.group()
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None
