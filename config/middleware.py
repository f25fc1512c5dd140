"""Request-wide behaviour the project adds to Django's middleware.

Responsible for: ``ApiLanguageMiddleware``, the language of the API. Pages speak Spanish unless
the person chose another of settings.LANGUAGES (English, Basque, French); the API speaks the
first of those its client asks for in ``Accept-Language`` (``eu``, ``fr-FR``…) and English when
it asks for none of them, so that a script written against the documented messages keeps
reading them. Error bodies keep ``code`` and ``params`` for programs
whatever the language; Django's LocaleMiddleware then names the language in
``Content-Language``.

Must not: decide what a message says (config.errors renders it).
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from config.errors import Invalid
from config.views import API_PREFIX, error_response

#: the API's language when the client names none it can read
API_DEFAULT_LANGUAGE = "en"


def api_language(header: str) -> str:
    """The first supported language of an ``Accept-Language`` header (es, en, eu or fr, a
    regional variant such as fr-FR counting as its language), else English."""
    for language, _quality in parse_accept_lang_header(header or ""):
        if language == "*":
            break
        try:
            return translation.get_supported_language_variant(language)
        except LookupError:
            continue
    return API_DEFAULT_LANGUAGE


class ApiLanguageMiddleware:
    """Under ``/api/``, activate the language of ``Accept-Language`` (English by default)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith(API_PREFIX):
            language = api_language(request.headers.get("Accept-Language", ""))
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
