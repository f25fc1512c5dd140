"""The service's domain errors and the one place that turns errors into API responses.

Responsible for: the error classes services raise for what a user can act on (illegal input,
no permission, not found, a stale or duplicate write) and the DRF exception handler that gives
every API error the same body::

    {"error": {"status": 409, "code": "stale_version", "message": "…", "params": {…},
               "fields": {…}}}

Errors from the pure cores (scoring.ScoringError, tournaments.draw.DrawError,
scoring.standings.StandingsError) are illegal input: 400. Every one of these errors is a
scoring.messages.MessageError: ``error_message`` renders its text and params in the reader's
language from the catalogs of the ``errors`` gettext domain.

Must not: hold a rule. Anything else that escapes a view is a bug and stays a 500.
"""

from __future__ import annotations

import gettext as _gettext
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils import translation
from rest_framework import exceptions as drf
from rest_framework.response import Response

from scoring.messages import DOMAIN, MessageError, jsonable, render, scoring_translations

#: where the project's catalogs of the errors domain live (the engine ships its own)
_LOCALE_DIR = Path(settings.BASE_DIR) / "locale"


class DomainError(MessageError):
    """An error a user can act on; its message says what is wrong and what to do.

    Raised with a stable ``code``, an English message text with named blanks (marked with
    ``gettext_noop``) and the params that fill them; ``error_message`` renders it in the
    reader's language.
    """

    status = 400
    code = "invalid"


class Invalid(DomainError):
    status = 400


class Forbidden(DomainError):
    status = 403
    code = "forbidden"


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Conflict(DomainError):
    """A write that lost a race or repeats one (stale version, duplicate)."""

    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    code = "stale_version"


@lru_cache(maxsize=16)
def _translations(language: str) -> _gettext.NullTranslations:
    """The errors-domain catalog of ``language``: the project's, then the engine's."""
    project = _gettext.translation(DOMAIN, _LOCALE_DIR, languages=[language], fallback=True)
    project.add_fallback(scoring_translations(language))
    return project


def error_message(exc: BaseException, language: str | None = None) -> str:
    """What a person reads for ``exc``, in ``language`` (default: the active language).

    Every error a user can act on (services, draw, engine) is a MessageError and is rendered
    from its text and params; anything else shows its own text.
    """
    if not isinstance(exc, MessageError):
        return str(exc)
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if language.split("-")[0] == "en":
        return exc.message
    return exc.render(_translations(translation.to_locale(language)))


def message_render(
    text: str | tuple[str, str], params: dict[str, Any], language: str | None = None
) -> str:
    """An error's message id and params kept as data (a notification stores one) rendered as
    ``error_message`` renders a raised error, in ``language`` (default: the active one)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if language.split("-")[0] == "en":
        return render(text, params)
    return render(text, params, _translations(translation.to_locale(language)))


def error_body(status: int, code: str, message: str, params=None, fields=None) -> dict:
    body: dict[str, Any] = {"status": status, "code": code, "message": message}
    body["params"] = {k: jsonable(v) for k, v in (params or {}).items()}
    if fields:
        body["fields"] = fields
    return {"error": body}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, MessageError):
        status = getattr(exc, "status", 400)
        message = error_message(exc)
        return Response(error_body(status, exc.code, message, exc.params), status)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    if isinstance(exc, drf.APIException):
        status = exc.status_code
        if isinstance(exc, drf.ValidationError):
            detail = exc.detail
            fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
            message = _first_message(fields) or "The data sent is not valid."
            body = error_body(status, "validation", message, fields=fields)
        else:
            code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
            body = error_body(status, code, str(exc.detail))
        response = Response(body, status)
        if getattr(exc, "wait", None):
            response["Retry-After"] = str(int(exc.wait))
        if isinstance(exc, (drf.NotAuthenticated, drf.AuthenticationFailed)):
            response["WWW-Authenticate"] = 'Session realm="api"'
        return response
    return None


def _first_message(fields: Any) -> str:
    if isinstance(fields, dict):
        for name, value in fields.items():
            text = _first_message(value)
            if text:
                return text if name == "non_field_errors" else f"{name}: {text}"
    elif isinstance(fields, list):
        for value in fields:
            text = _first_message(value)
            if text:
                return text
    elif fields:
        return str(fields)
    return ""
