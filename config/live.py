"""Publish a tournament's live events: the one function every place that changes what a screen
shows calls, after its commit.

Responsible for: ``live_publish`` (numbers the event in the tournament's sequence, keeps it in
the tournament's replay buffer and publishes it on the tournament's Redis channel, in one Lua
script, so the numbers, the buffer and the order the streams receive them always agree), the
names of those keys and channels, and ``live_seq`` (the number a page is rendered at, which its
stream starts from). The streams (tournaments/web/live.py, served by the ASGI server) read the
same keys.

The push is a convenience on top of pages that keep working without it: a Redis that is down
or slow never turns a write into an error. A failure is logged, and for ``LIVE_BACKOFF``
seconds nothing is tried again (a phone's request does not wait for a dead Redis twice);
meanwhile the streams are down too and the pages poll.

Must not: decide who may read an event (the stream's door does, from the event's ``public``
and ``match``), nor carry anything a public screen must not see: an event names what changed
(kind, match, status), never a result.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from config.live_sequence import message_body

log = logging.getLogger(__name__)

#: Seconds nothing is sent to a Redis that just failed.
LIVE_BACKOFF = 5.0
#: Seconds a tournament's sequence and buffer outlive its last event.
LIVE_TTL = 14 * 24 * 3600

# KEYS: sequence, buffer. ARGV: body, buffer length, ttl, channel.
_PUBLISH = """
local seq = redis.call('INCR', KEYS[1])
local message = seq .. ' ' .. ARGV[1]
redis.call('RPUSH', KEYS[2], message)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], message)
return seq
"""

_client: Any = None
_client_url = ""
_script: Any = None
_failed_at = 0.0


def live_on() -> bool:
    return bool(settings.LIVE_URL and settings.LIVE_REDIS_URL)


def prefix() -> str:
    """Keys are per Redis database, channels are not: the database's number keeps two sites
    (or two test runs) sharing one Redis apart."""
    path = urlsplit(settings.LIVE_REDIS_URL).path.strip("/") or "0"
    return f"amarrako:{path}:live:"


#: A topic: what one sequence numbers and one channel carries. A tournament's is its id (the
#: keys' names kept from before there were others); a league's, a league of peñas' and a
#: championship's are ``league:<id>``, ``teamleague:<id>``, ``championship:<id>``.
Topic = int | str


def seq_key(topic: Topic) -> str:
    return f"{prefix()}seq:{topic}"


def buffer_key(topic: Topic) -> str:
    return f"{prefix()}buf:{topic}"


def channel(topic: Topic) -> str:
    return f"{prefix()}t:{topic}"


def channel_topic(name: str) -> str:
    """The topic a channel's name carries (``channel``'s inverse)."""
    return name.partition(":live:t:")[2]


def channel_pattern() -> str:
    return f"{prefix()}t:*"


def _redis():
    global _client, _client_url, _script
    if _client is None or _client_url != settings.LIVE_REDIS_URL:
        import redis

        _client = redis.Redis.from_url(
            settings.LIVE_REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
        )
        _client_url = settings.LIVE_REDIS_URL
        _script = _client.register_script(_PUBLISH)
    return _client


def _available() -> bool:
    return live_on() and time.monotonic() - _failed_at >= LIVE_BACKOFF


def _failed(what: str) -> None:
    global _failed_at
    _failed_at = time.monotonic()
    log.warning("live push: %s failed; the pages poll meanwhile", what, exc_info=True)


def live_publish(
    *, tournament_id: int | None = None, topic: str = "", kind: str, public: bool, **data: Any
) -> None:
    """Publish ``kind`` for the tournament (or on ``topic``: a league's, a championship's) once
    the current transaction commits (at once outside one). ``public``: a published
    tournament's readers may see it (a confirmed result, the standings, the bracket, a round);
    otherwise only the organizer's board and, for an event with a ``match``, that table's
    link. ``data``: plain values naming what changed."""
    if not live_on():
        return
    body = message_body({"kind": kind, "public": public, **data})
    where: Topic = topic or int(tournament_id or 0)
    transaction.on_commit(lambda: _publish(where, body))


#: Who else hears a tournament's public changes (the leagues and championships above it:
#: tournaments import none of them). Each function, given a tournament's id, names the topics.
_above: list[Callable[[int], list[str]]] = []


def live_above_register(topics_of: Callable[[int], list[str]]) -> None:
    """For an app above tournaments (at its ready()): the topics a tournament's change reaches."""
    if topics_of not in _above:
        _above.append(topics_of)


def live_publish_above(*, tournament_id: int, kind: str, **data: Any) -> None:
    """Publish a public ``kind`` on the topics of what holds the tournament (a league's
    division, a league of peñas' fixture, a championship's stage), after the commit."""
    if not live_on() or not _above:
        return
    for topics_of in _above:
        try:
            topics = topics_of(tournament_id)
        except Exception:  # a follow-up must not fail for the push
            log.warning("live push: finding what holds a tournament failed", exc_info=True)
            continue
        for topic in topics:
            live_publish(topic=topic, kind=kind, public=True, tournament=tournament_id, **data)


def _publish(topic: Topic, body: str) -> int | None:
    if not _available():
        return None
    try:
        _redis()
        return int(
            _script(
                keys=[seq_key(topic), buffer_key(topic)],
                args=[body, settings.LIVE_REPLAY, LIVE_TTL, channel(topic)],
            )
        )
    except Exception:  # redis' errors are many (connection, timeout, read-only replica)
        _failed("publishing")
        return None


def live_seq(topic: Topic) -> int | None:
    """The tournament's (or topic's) last sequence number (0 before its first event), for a
    page to start its stream from; None when the push is off or Redis does not answer."""
    if not _available():
        return None
    try:
        return int(_redis().get(seq_key(topic)) or 0)
    except Exception:
        _failed("reading a sequence")
        return None


def live_stream(path: str, tournament_id: Topic) -> dict[str, Any] | None:
    """What a page puts in its ``data-live-stream`` and ``data-live-seq`` (templates/_live.html):
    the stream's URL under LIVE_URL, and the number the page was rendered at. None when the
    push is off: the page keeps its reload and polling only."""
    if not live_on():
        return None
    url = settings.LIVE_URL.rstrip("/") + "/" + path.strip("/") + "/"
    return {"url": url, "seq": live_seq(tournament_id)}


def live_ping() -> str | None:
    """For /readyz: None when the push's Redis answers (or the push is off), else what failed."""
    if not live_on():
        return None
    try:
        _redis().ping()
    except Exception as exc:
        return f"live: {type(exc).__name__}"
    return None


#: The streams of the apps above tournaments (a league's, a championship's page): the first
#: part of the stream's path under LIVE_URL, and the function that, given the rest of the path
#: and the reader (a user, maybe anonymous), answers the topic, or raises as the page would
#: (a DomainError, Http404) for what the reader may not see.
_doors: dict[str, tuple[int, Callable[..., str]]] = {}


def live_door_register(name: str, parts: int, door: Callable[..., str]) -> None:
    """``/live/<name>/<part>…/`` (``parts`` parts after the name) opens ``door(*parts, user)``."""
    _doors[name] = (parts, door)


def live_door(name: str) -> tuple[int, Callable[..., str]] | None:
    return _doors.get(name)
