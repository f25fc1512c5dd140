"""Defences that sit in front of every view: the origin of a write, and guessing table links.

Responsible for:
- ``OriginCheckMiddleware``: a write (POST, PUT, PATCH, DELETE) that a browser sends from
  another site is refused with 403. The table's pages and the table's API take no CSRF token
  (the secret link is the credential), so this is what stops another site's page from posting
  a result through a phone that has the link open. A request without an ``Origin`` header (a
  script, an old browser) is left to the other checks.
- ``TableLinkThrottleMiddleware``: a client that asks for more than ``TABLE_LINK_MISSES``
  different table links that do not exist (a 404 under ``/mesa/``, ``/api/v1/table/``,
  ``/mesa-frances/`` or ``/api/v1/frances-tables/link/``) in ``TABLE_LINK_WINDOW`` seconds gets
  429 for every table link for the rest of that window: a link's 32 random characters cannot
  be guessed by trying. A link counts once however often it is asked for: the phones of a
  venue share one public address, and a stale QR code scanned by every phone at its table is
  one link, where a guesser must try a new one each time. The counts live in the cache (Redis
  in production, shared by every process); each process keeps what it last read of an
  address's count for ``TABLE_LINK_MEMO`` seconds (2), so a round's phones cost the cache one
  read per process and memo period instead of one per request; a guesser gains at most that
  long per process, and a process's own misses count at once.
- ``client_address``: the client's address, through the proxies the deployment trusts
  (``TRUSTED_PROXIES``): the table-link throttle and the login lock-out (django-axes,
  ``AXES_CLIENT_IP_CALLABLE``) count by it.
- ``HttpsBasicAuthentication``: HTTP Basic, which sends the password itself with every
  request, only over HTTPS; over plain HTTP it is refused (403 ``basic_needs_https``) before
  the password is checked, so that a script that sends it in clear learns so at once.

Must not: decide who may do what (services and selectors do).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
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
#: the table links (Mus's pages and API, Mus francés's); the group is the link's token
TABLE_PATHS = re.compile(r"^/(?:mesa|api/v1/table|mesa-frances|api/v1/frances-tables/link)/([^/]*)")


class TooManyMisses(DomainError):
    status = 429
    code = "table_link_guessing"


def client_address(request) -> str:
    """The address of the client: REMOTE_ADDR, or, when that is a trusted proxy
    (``TRUSTED_PROXIES``: addresses or networks), the address the proxies saw: walking
    X-Forwarded-For from its end, the first hop that is not a trusted proxy. What the client
    wrote in that header itself stays on the left of what our proxies appended, so it is never
    taken for the client's address."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not _trusted(remote):
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop[:64]
    return hops[0][:64] if hops else remote


def _trusted(address: str) -> bool:
    exact, networks = _proxies(tuple(settings.TRUSTED_PROXIES))
    if address in exact:
        return True
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


@functools.lru_cache(maxsize=8)
def _proxies(entries: tuple[str, ...]) -> tuple[frozenset[str], tuple]:
    """TRUSTED_PROXIES parsed once: the plain addresses, and the networks (``10.0.0.0/8``)."""
    exact = frozenset(entry for entry in entries if "/" not in entry)
    networks = tuple(ipaddress.ip_network(entry, strict=False) for entry in entries if "/" in entry)
    return exact, networks


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
        link = TABLE_PATHS.match(request.path_info)
        if link is None:
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
            _count_miss(key, link.group(1))
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


def _count_miss(key: str, token: str) -> None:
    """Count ``token`` among the address's missed links, once per window: a marker per link
    (``cache.add`` succeeds only for the first miss of it), and the address's count of links
    raised only when the marker is new."""
    window = settings.TABLE_LINK_WINDOW
    digest = hashlib.blake2b(token.encode(errors="replace"), digest_size=12).hexdigest()
    try:
        if not cache.add(f"{key}:{digest}", 1, timeout=window):
            return  # this link was already counted
        if cache.add(key, 1, timeout=window):
            count = 1
        else:
            try:
                count = cache.incr(key)
            except ValueError:  # expired in between
                cache.add(key, 1, timeout=window)
                count = 1
        _remember(key, count)
    except Exception:
        log.warning("table-link throttle: the cache is unreachable; not counting", exc_info=True)
