"""The public pages a live event makes every spectator fetch again, rendered once per event.

Responsible for: ``live_cached``, the decorator of a public page's view: when static/js/live.js
(or bigscreen.js) fetches the page again because its stream said something changed (the
``X-Amarrako-Live: 1`` header), the answer is the page's ``<main>`` alone (or the fragment
whole), kept in the cache under the page's topic (a tournament, a league, a championship), the
topic's sequence number (config.live.live_seq), the reader's language and the address: the
thousands of screens an event wakes cost one render, the others one cache read. The next event
moves the sequence, so the key: nothing stale is served after an event, and nothing needs
deleting. Any other request (a reload, a link, the polling without the push) renders as always.

Must not: keep anything personal. A page's ``<main>`` shows what an anonymous visitor sees
(the public pages read as nobody); a ``<main>`` holding a CSRF token (a form of its reader's)
or the reader's messages is rendered for that reader and not kept. A cache that cannot be
reached costs the render, never the page.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from config.live import Topic, live_seq, prefix

log = logging.getLogger(__name__)

#: The header live.js sends with the fetch an event causes.
HEADER = "X-Amarrako-Live"
#: Seconds a page rendered at one sequence number is kept (the next event moves the key).
LIVE_PAGE_SECONDS = 120


def live_refetch(request: HttpRequest) -> bool:
    return request.headers.get(HEADER) == "1"


def _main(content: bytes) -> bytes:
    """The page's ``<main>…</main>``; a fragment (no ``<main>``) whole."""
    start = content.find(b"<main")
    end = content.rfind(b"</main>")
    if start < 0 or end < start:
        return content
    return content[start : end + len(b"</main>")]


def _answer(body: bytes) -> HttpResponse:
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-store"
    patch_vary_headers(response, [HEADER])
    return response


def _has_messages(request: HttpRequest) -> bool:
    try:
        return len(get_messages(request)) > 0  # len() reads them without using them
    except Exception:
        return False


def live_cached(topic_of: Callable[..., Topic | None]) -> Callable:
    """Decorate a public view: ``topic_of`` (given the view's URL arguments) names the topic
    whose events change the page, or raises Http404 as the page would."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not live_refetch(request):
                response = view(request, *args, **kwargs)
                patch_vary_headers(response, [HEADER])
                return response
            topic = topic_of(*args, **kwargs)
            seq = live_seq(topic) if topic is not None else None
            key = None
            if seq is not None and not _has_messages(request):
                where = f"{get_language()} {request.get_full_path()}".encode()
                digest = hashlib.sha1(where, usedforsecurity=False).hexdigest()
                key = f"{prefix()}page:{topic}:{seq}:{digest}"
                try:
                    kept = cache.get(key)
                except Exception:
                    log.warning("live pages: the cache is unreachable", exc_info=True)
                    kept, key = None, None
                if kept is not None:
                    return _answer(kept)
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or response.streaming:
                return response
            body = _main(response.content)
            if key is not None and b"csrfmiddlewaretoken" not in body:
                try:
                    cache.set(key, body, LIVE_PAGE_SECONDS)
                except Exception:
                    log.warning("live pages: the cache is unreachable", exc_info=True)
            return _answer(body)

        return wrapped

    return decorate
