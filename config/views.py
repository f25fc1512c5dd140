"""The site's error pages, and JSON error bodies for the API's paths.

Responsible for: Django's handler400/403/404/500. Under ``/api/`` they answer with the API's
one error body (config.errors.error_body) in the client's language, so that a client never has
to read HTML — an unknown endpoint, a body over the size limit (Django's RequestDataTooBig), a
bad Host; on the pages they render the site's templates (templates/4xx.html, 500.html).

Must not: hide a 500: the exception was already logged by Django.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from config.errors import DomainError, Forbidden, Invalid, NotFound, error_body, error_message
from config.parsers import too_large

#: the API's paths: JSON error bodies and the API's language (config.middleware)
API_PREFIX = "/api/"
#: the API's language when the client names none it can read
API_DEFAULT_LANGUAGE = "en"


class ServerError(DomainError):
    status = 500
    code = "server_error"


def _is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


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


def request_language(request) -> str:
    """The language of an answer to ``request``: under /api/ the first of ``Accept-Language``
    (English by default), elsewhere the page's (the language menu's cookie, the browser)."""
    if _is_api(request):
        return api_language(request.headers.get("Accept-Language", ""))
    return translation.get_language_from_request(request)


def error_response(request, exc: DomainError):
    """``exc`` as the API's JSON error body, or as the site's error page, in the request's
    language: the middleware that refuses a request before the language is chosen (the NUL,
    the limits, the table links' throttle) would otherwise answer in whatever language the
    thread's previous request left active."""
    language = request_language(request)
    message = error_message(exc, language)
    if _is_api(request):
        body = error_body(exc.status, exc.code, message, exc.params)
        response = JsonResponse(body, status=exc.status)
    else:
        context = {"status": exc.status, "message": message}
        with translation.override(language):
            response = render(request, "error.html", context, status=exc.status)
    response["Content-Language"] = language
    return response


def bad_request(request, exception=None):
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    error = too_large(request) or Invalid("The request cannot be read.", code="bad_request")
    return error_response(request, error)


def permission_denied(request, exception=None):
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return error_response(request, Forbidden("You may not do this.", code="forbidden"))


def page_not_found(request, exception=None):
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    error = NotFound(
        "There is no such address in the API; GET /api/v1/ lists them.", code="no_such_endpoint"
    )
    return error_response(request, error)


@csrf_exempt  # a POST to no endpoint is a 404, not CSRF's HTML 403 (which no view asked for)
def api_not_found(request, *args, **kwargs):
    """The last pattern under /api/v1/: an address no endpoint took gets the API's JSON 404 with
    DEBUG on too (``make run``), where Django would answer its HTML debug page instead of
    calling handler404."""
    return page_not_found(request)


class ServiceUnavailable(DomainError):
    status = 503
    code = "database_unavailable"


#: seconds a client waits before sending again when the database cannot be reached
DATABASE_RETRY_AFTER = 5


def server_error(request):
    # Django calls this inside its handler of the exception: a database that cannot be reached
    # (PgBouncer or PostgreSQL restarting, a failover) is a 503 to send again, not a bug.
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    if not _is_api(request):
        return defaults.server_error(request)
    error = ServerError("Something failed on our side; it has been logged.", code="server_error")
    return error_response(request, error)


def database_unavailable(request):
    error = ServiceUnavailable(
        "The service cannot reach its database for a moment; send it again in a few seconds.",
        code="database_unavailable",
    )
    try:
        response = error_response(request, error)
    except Exception:  # the error page itself needs the database (the reader's session)
        response = HttpResponse(error_message(error), status=503, content_type="text/plain")
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


class TooManyAttempts(DomainError):
    status = 429
    code = "login_locked"


def locked_out(request, credentials=None, *args, **kwargs):
    """django-axes: what a locked-out login gets (JSON under /api/, the error page elsewhere)."""
    error = TooManyAttempts(
        "Too many failed logins for this user from this address; try again in {minutes} minutes.",
        code="login_locked",
        minutes=15,
    )
    response = error_response(request, error)
    response["Retry-After"] = str(15 * 60)
    return response
