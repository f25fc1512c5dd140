"""Defences that sit in front of every view: the origin of a write, and guessing table links.

Responsible for:
- ``OriginCheckMiddleware``: a write (POST, PUT, PATCH, DELETE) that a browser sends from
  another site is refused with 403. The table's pages and the table's API take no CSRF token
  (the secret link is the credential), so this is what stops another site's page from posting
  a result through a phone that has the link open. A request without an ``Origin`` header (a
  script, an old browser) is left to the other checks.
- ``TableLinkThrottleMiddleware``: a client that asks for table links that do not exist (a 404
  under ``/mesa/`` or ``/api/v1/table/``) more than ``TABLE_LINK_MISSES`` times in
  ``TABLE_LINK_WINDOW`` seconds gets 429 for the rest of that window: a link's 32 random
  characters cannot be guessed by trying. The count lives in the cache (Redis in production,
  shared by every process); each process keeps what it last read of an address's count for
  ``TABLE_LINK_MEMO`` seconds (2), so a round's phones, one venue's address, cost the cache one
  read per process and memo period instead of one per request; a guesser gains at most that
  long per process, and a process's own misses count at once.
- ``client_address``: the client's address, through the proxies the deployment trusts.
- ``HttpsBasicAuthentication``: HTTP Basic, which sends the password itself with every
  request, only over HTTPS; over plain HTTP it is refused (403 ``basic_needs_https``) before
  the password is checked, so that a script that sends it in clear learns so at once.

Must not: decide who may do what (services and selectors do).
"""

from __future__ import annotations

import logging
import re
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from drf_spectacular.authentication import BasicScheme
from rest_framework import exceptions as drf
from rest_framework.authentication import BasicAuthentication, get_authorization_header

from config.errors import DomainError, Forbidden
from config.views import error_response

log = logging.getLogger(__name__)

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TABLE_PATHS = re.compile(r"^/(mesa|api/v1/table)/")


class TooManyMisses(DomainError):
    status = 429
    code = "table_link_guessing"


def client_address(request) -> str:
    """REMOTE_ADDR, or the address the trusted proxy in front of us saw (X-Forwarded-For)."""
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if forwarded and remote in settings.TRUSTED_PROXIES:
        return forwarded.split(",")[-1].strip() or remote
    return remote


def _origin_allowed(request, origin: str) -> bool:
    if origin == "null":
        return False
    parts = urlsplit(origin)
    if f"{parts.scheme}://{parts.netloc}" in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        host = request.get_host()
    except Exception:  # DisallowedHost: Django answers 400 for it further in
        return True
    return parts.netloc == host and parts.scheme == request.scheme


class OriginCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        origin = request.headers.get("Origin")
        if request.method in UNSAFE and origin and not _origin_allowed(request, origin):
            return error_response(
                request,
                Forbidden(
                    "This request comes from another site ({origin}); it is refused.",
                    code="origin_refused",
                    origin=origin[:100],
                ),
            )
        return self.get_response(request)


class BasicNeedsHttps(Forbidden, drf.AuthenticationFailed):
    """The project's error (its message and code), raised as DRF's failed authentication so
    that DRF stops there and treats the request as having no user."""

    code = "basic_needs_https"


class HttpsBasicAuthentication(BasicAuthentication):
    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if auth and auth[0].lower() == b"basic" and not request.is_secure():
            raise BasicNeedsHttps(
                "HTTP Basic sends the password with every request, so it is accepted over HTTPS "
                "only; over HTTPS, ask for a token once (POST /api/v1/auth/token) and send it "
                "instead.",
                code="basic_needs_https",
            )
        return super().authenticate(request)


class HttpsBasicScheme(BasicScheme):
    """The schema's name for it: HTTP Basic (drf-spectacular matches the class, not its
    subclasses; defined here, it is registered when DRF loads the authentication classes)."""

    target_class = "config.security.HttpsBasicAuthentication"

    def get_security_definition(self, auto_schema):
        return {**super().get_security_definition(auto_schema), "description": "HTTPS only"}


class TableLinkThrottleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not TABLE_PATHS.match(request.path_info):
            return self.get_response(request)
        key = f"table-link-misses:{client_address(request)}"
        if _misses(key) >= settings.TABLE_LINK_MISSES:
            window = settings.TABLE_LINK_WINDOW
            response = error_response(
                request,
                TooManyMisses(
                    "Too many table links that do not exist were tried from this address; wait "
                    "{minutes} minutes and scan the table's QR code again.",
                    code="table_link_guessing",
                    minutes=max(1, window // 60),
                ),
            )
            response["Retry-After"] = str(window)
            return response
        response = self.get_response(request)
        if response.status_code == 404:
            _count_miss(key)
        return response


# The counters live in the shared cache (Redis in production). When it is down, the phones'
# real table links must keep working, results included (the soak found every table request
# answering 500 while Redis was down): the throttle lets requests through and says so.


# key → (count, when it was read, time.monotonic()): this process's memo of the shared counts.
# Threads share it; a lost update between two threads costs one read of the cache, nothing more.
_memo: dict[str, tuple[int, float]] = {}
_MEMO_SIZE = 10_000  # addresses; past it the memo starts again (a scan of many addresses)


def forget_misses() -> None:
    """Empty this process's memo of the counts (tests start from an empty cache)."""
    _memo.clear()


def _remember(key: str, count: int) -> int:
    if len(_memo) >= _MEMO_SIZE:
        _memo.clear()
    _memo[key] = (count, time.monotonic())
    return count


def _misses(key: str) -> int:
    known = _memo.get(key)
    if known is not None and time.monotonic() - known[1] < settings.TABLE_LINK_MEMO:
        return known[0]
    try:
        return _remember(key, cache.get(key) or 0)
    except Exception:  # the cache's errors are many (redis, socket): none may refuse a phone
        log.warning("table-link throttle: the cache is unreachable; not counting", exc_info=True)
        return 0


def _count_miss(key: str) -> None:
    try:
        if cache.add(key, 1, timeout=settings.TABLE_LINK_WINDOW):
            count = 1
        else:
            try:
                count = cache.incr(key)
            except ValueError:  # expired in between
                cache.add(key, 1, timeout=settings.TABLE_LINK_WINDOW)
                count = 1
        _remember(key, count)
    except Exception:
        log.warning("table-link throttle: the cache is unreachable; not counting", exc_info=True)
