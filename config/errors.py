"""The service's domain errors and the one place that turns errors into API responses.

Responsible for: the error classes services raise for what a user can act on (illegal input,
no permission, not found, a stale or duplicate write) and the DRF exception handler that gives
every API error the same body::

    {"error": {"status": 409, "code": "stale_version", "message": "…", "params": {…},
               "fields": {…}}}

Errors from the pure cores (scoring.ScoringError, tournaments.draw.DrawError,
scoring.standings.StandingsError) are illegal input: 400 with the engine's own message.

Must not: hold a rule. Anything else that escapes a view is a bug and stays a 500.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework.response import Response


class DomainError(Exception):
    """An error a user can act on; ``message`` says what is wrong and what to do."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params = params


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


def error_body(status: int, code: str, message: str, params=None, fields=None) -> dict:
    body: dict[str, Any] = {"status": status, "code": code, "message": message}
    body["params"] = {k: _plain(v) for k, v in (params or {}).items()}
    if fields:
        body["fields"] = fields
    return {"error": body}


def _plain(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def _pure_core_error(exc: Exception) -> tuple[str, str, dict] | None:
    """The pure cores' errors, recognised without importing them at module load."""
    from scoring.errors import ScoringError
    from scoring.standings import StandingsError
    from tournaments.draw import DrawError

    if isinstance(exc, ScoringError):
        return exc.code, exc.message, exc.params
    if isinstance(exc, (DrawError, StandingsError)):
        return getattr(exc, "code", "invalid"), str(exc), getattr(exc, "params", {}) or {}
    return None


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(error_body(exc.status, exc.code, exc.message, exc.params), exc.status)
    core = _pure_core_error(exc)
    if core is not None:
        code, message, params = core
        return Response(error_body(400, code, message, params), 400)
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
