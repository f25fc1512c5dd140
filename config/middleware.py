"""Request-wide behaviour the project adds to Django's middleware.

Responsible for: ``ApiLanguageMiddleware``, the language of the API. Pages speak Spanish unless
the person chose another of settings.LANGUAGES (English, Basque, French); the API speaks the
first of those its client asks for in ``Accept-Language`` (``eu``, ``fr-FR``…) and English when
it asks for none of them, so that a script written against the documented messages keeps
reading them (config.views.request_language chooses it, so that an error answered before this
middleware speaks it too). Error bodies keep ``code`` and ``params`` for programs whatever the
language; Django's LocaleMiddleware then names the language in ``Content-Language``.

``RejectNulMiddleware`` and ``UnreadableRequestMiddleware`` refuse, before any view, a request
the app cannot read as it was meant (a NUL in the address; an address or a header over the
limits below; a body sent in chunks; a charset that is no text encoding) with a 4xx and the
API's error body (or the site's error page), instead of a 500 or a body read as empty.

Must not: decide what a message says (config.errors renders it).
"""

from __future__ import annotations

import codecs

from django.utils import translation

from config.errors import DomainError, Invalid
from config.views import API_PREFIX, error_response, request_language


class ApiLanguageMiddleware:
    """Under ``/api/``, activate the language of ``Accept-Language`` (English by default)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith(API_PREFIX):
            language = request_language(request)
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class RejectNulMiddleware:
    """A NUL character in the path or the query string is refused with a 400 before any view
    sees it: no name, token or search can contain one, and PostgreSQL refuses it in text."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            return error_response(
                request,
                Invalid(
                    "The address holds a NUL character (%00), which nothing here accepts.",
                    code="address_nul",
                ),
            )
        return self.get_response(request)


#: The most the app reads of a request line ("POST /api/v1/… HTTP/1.1"), of one header line and
#: the number of header lines. gunicorn's own limits are set above these (deploy/gunicorn.conf.py),
#: so a request over them reaches the app, which answers with its error body; gunicorn answers
#: (a short HTML page) only past its own, larger limits.
REQUEST_LINE_LIMIT = 4094
HEADER_FIELD_LIMIT = 8190
HEADER_FIELDS_LIMIT = 100


class AddressTooLong(DomainError):
    status = 414
    code = "address_too_long"


class HeadersTooLarge(DomainError):
    status = 431
    code = "header_too_large"


class LengthRequired(DomainError):
    status = 411
    code = "body_length_required"


class CharsetUnsupported(DomainError):
    status = 415
    code = "body_charset"


class UnreadableRequestMiddleware:
    """A request the app cannot read as it was sent is refused before any view sees it:

    - a request line over REQUEST_LINE_LIMIT bytes (414), a header line over HEADER_FIELD_LIMIT
      or more than HEADER_FIELDS_LIMIT of them (431);
    - a body sent in chunks (``Transfer-Encoding``, no ``Content-Length``): Django reads as many
      bytes of a body as Content-Length says, so such a body was read as empty and a write
      answered 200 having stored nothing (411);
    - a ``charset`` that is not a text encoding (``hex``, ``rot13``, ``zlib``: codecs that
      Python knows but that turn bytes into bytes) or that Python does not know: decoding the
      body with it was a 500 (415).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        error = _unreadable(request)
        if error is not None:
            return error_response(request, error)
        return self.get_response(request)


def _unreadable(request) -> DomainError | None:
    meta = request.META
    uri = meta.get("RAW_URI") or request.get_full_path()
    line = len(request.method) + len(uri) + len(" ") * 2 + len(meta.get("SERVER_PROTOCOL", ""))
    if line > REQUEST_LINE_LIMIT:
        return AddressTooLong(
            "The request line is {size} bytes long; the most this server reads is {limit}.",
            code="address_too_long",
            size=line,
            limit=REQUEST_LINE_LIMIT,
        )
    headers = [(key, value) for key, value in meta.items() if key.startswith("HTTP_")]
    if len(headers) > HEADER_FIELDS_LIMIT:
        return HeadersTooLarge(
            "The request has {count} headers; the most this server reads is {limit}.",
            code="headers_too_many",
            count=len(headers),
            limit=HEADER_FIELDS_LIMIT,
        )
    for key, value in headers:
        size = len(key) - len("HTTP_") + len(": ") + len(value)
        if size > HEADER_FIELD_LIMIT:
            return HeadersTooLarge(
                "The header {name} is {size} bytes long; the most this server reads is {limit}.",
                code="header_too_large",
                name=key[len("HTTP_") :].replace("_", "-").title()[:80],
                size=size,
                limit=HEADER_FIELD_LIMIT,
            )
    if meta.get("HTTP_TRANSFER_ENCODING") and not meta.get("CONTENT_LENGTH"):
        return LengthRequired(
            "A body sent in chunks (Transfer-Encoding) is not read here; send it whole, with "
            "its Content-Length.",
            code="body_length_required",
        )
    charset = request.content_params.get("charset") if request.content_params else None
    if charset is not None and not _text_encoding(charset):
        return CharsetUnsupported(
            "The body's charset '{charset}' is not a text encoding; send it as UTF-8.",
            code="body_charset",
            charset=charset[:40],
        )
    return None


def _text_encoding(name: str) -> bool:
    """Whether ``name`` is a codec that decodes bytes to text. codecs.lookup also finds the
    bytes-to-bytes ones (hex, zlib, base64…), which ``bytes.decode`` refuses by the flag read
    here (and an empty body would not show it: ``b"".decode("hex")`` is "")."""
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        return False
    return getattr(info, "_is_text_encoding", True)
