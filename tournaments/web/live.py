"""The live streams: Server-Sent Events under ``/live/``, served by the ASGI server (uvicorn,
``config.asgi``), that tell an open page something it shows has changed.

Responsible for: the three streams and who may open each, as the pages and the API decide it —

- ``/live/torneos/<peña>/<torneo>/``: a published tournament's public events (a confirmed
  result, the standings, the bracket, a round published), for the public pages and the TV. A
  tournament that is private or a draft does not exist here (404), as on its pages;
- ``/live/mesa/<token>/``: the events of that table's match only (the other pair sent its
  result, a dispute, the organizer's decision), for the table's phones; the token is the
  credential, as on the table's pages;
- ``/live/mesa-frances/<token>/``: the same for a Mus francés table (its seats' orders, a
  dispute, the confirmation), the table's link being the credential;
- ``/live/organizador/<tournament_id>/``: every event of the tournament, for the organizer's
  board; only with the session of one of its organizers (404 for a tournament the reader
  cannot see, 403 for one they see but do not organize);

- ``/live/ligas/<peña>/<liga>/``, ``/live/ligas-penas/<peña>/<liga>/``,
  ``/live/campeonatos/<campeonato>/``: the public events of a league, a league of peñas, a
  championship (a result of one of their tournaments confirmed), for their pages; the apps
  above tournaments register these doors (config.live.live_door_register), each opened to whom
  may see its page (a private one does not exist for an outsider, 404);

— the catch-up of a screen that reconnects (``Last-Event-ID``, or ``?since=`` the sequence its
page was rendered at: config.live_sequence.catch_up), a heartbeat every LIVE_HEARTBEAT seconds,
the end of a stream after LIVE_MAX_SECONDS (the browser reconnects, maybe to another node), and
``/live/readyz`` (200 while this process is subscribed to Redis, 503 otherwise).

One Redis connection per process subscribes to every tournament's channel (the Hub) and hands
each event to the streams of its tournament that may read it; the frame is built once per event.
When Redis is down the streams end and new ones are answered 503: static/js/live.js then falls
back to the page's polling, and tries the stream again later. Nothing here writes.

Must not: render a page (the stream says what changed; the page fetches its own fragment, in
its reader's language) or carry a result (config.live: events name what changed).

Terms: mesa (a table, its match), organizador, torneo, peña.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.db import DatabaseError, close_old_connections
from django.http import Http404, HttpRequest, parse_cookie
from django.http.request import split_domain_port, validate_host

from config.errors import DomainError
from config.live import buffer_key, channel_pattern, channel_topic, live_door, seq_key
from config.live_sequence import (
    Event,
    catch_up,
    last_event_id,
    message_parse,
    reset_frame,
    sse_frame,
)
from tournaments.selectors.entrants import frances_table_for_link
from tournaments.selectors.results import match_by_token
from tournaments.selectors.tournaments import tournament_get_for_organizer, tournament_list

log = logging.getLogger(__name__)

PREFIX = "/live/"
#: Events waiting for one slow stream before it is sent a reset instead.
MAX_PENDING = 200
#: Seconds a public stream's tournament is remembered by its slugs (a burst of spectators
#: opening the TV's stream asks the database once).
SLUG_MEMO = 10.0


# --- Who may read what ------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    #: what the stream hears (config.live: a tournament's id, ``league:<id>``…), as a string
    topic: str
    accepts: Callable[[Event], bool]


def _public(event: Event) -> bool:
    return event.public


_slugs: dict[tuple[str, str], tuple[float, int | None]] = {}


def _public_spec(club_slug: str, tournament_slug: str) -> Spec | None:
    now = time.monotonic()
    memo = _slugs.get((club_slug, tournament_slug))
    if memo is None or now - memo[0] > SLUG_MEMO:
        found = (
            tournament_list(user=None, club_slug=club_slug, with_managed=True)
            .filter(slug=tournament_slug)
            .values_list("pk", flat=True)
            .first()
        )
        memo = (now, found)
        if len(_slugs) >= 10_000:  # made-up slugs must not grow it without end
            _slugs.clear()
        _slugs[(club_slug, tournament_slug)] = memo
    return Spec(str(memo[1]), _public) if memo[1] is not None else None


def _table_spec(token: str) -> Spec | None:
    match = match_by_token(token, relations=("round__phase",))
    if match is None:
        return None
    match_id = match.pk
    return Spec(str(match.round.phase.tournament_id), lambda event: event.match == match_id)


def _frances_spec(token: str) -> Spec | None:
    table = frances_table_for_link(token=token)
    if table is None:
        return None
    table_id = table.pk
    topic = str(table.round.phase.tournament_id)
    return Spec(topic, lambda event: event.data.get("frances_table") == table_id)


def _user(cookies: dict[str, str]):
    request = HttpRequest()
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(cookies.get(settings.SESSION_COOKIE_NAME))
    return get_user(request)


def _desk_spec(tournament_id: int, cookies: dict[str, str]) -> Spec:
    tournament = tournament_get_for_organizer(user=_user(cookies), tournament_id=tournament_id)
    return Spec(str(tournament.pk), lambda event: True)


def _above_spec(parts: list[str], cookies: dict[str, str]) -> Spec | None:
    """A stream of an app above tournaments (config.live.live_door_register): a league's, a
    league of peñas', a championship's page; its reader may open it when they may see the page."""
    door = live_door(parts[0])
    if door is None or len(parts) != door[0] + 1:
        return None
    try:
        topic = door[1](*parts[1:], user=_user(cookies))
    except Http404:
        return None
    return Spec(str(topic), _public)


def stream_spec(parts: list[str], cookies: dict[str, str]) -> Spec | int:
    """The stream a path names and what its reader may receive, or the HTTP status refusing it
    (404 for what does not exist for the reader, 403 for a tournament they may only look at)."""
    # as Django does around a request: a connection past CONN_MAX_AGE (or broken) is closed
    close_old_connections()
    try:
        if len(parts) == 3 and parts[0] == "torneos":
            return _public_spec(parts[1], parts[2]) or 404
        if len(parts) == 2 and parts[0] == "mesa":
            return _table_spec(parts[1]) or 404
        if len(parts) == 2 and parts[0] == "mesa-frances":
            return _frances_spec(parts[1]) or 404
        if len(parts) == 2 and parts[0] == "organizador" and parts[1].isdigit():
            return _desk_spec(int(parts[1]), cookies)
        if parts:
            return _above_spec(parts, cookies) or 404
    except DomainError as exc:
        return exc.status
    except DatabaseError:  # the database is down: no stream, the page polls (and says so)
        return 503
    finally:
        close_old_connections()
    return 404


# --- One subscription per process ---------------------------------------------------------------


class Listener:
    """One open stream: the frames waiting to be sent, and what wakes it."""

    __slots__ = ("accepts", "pending", "wake", "closed", "overflow")

    def __init__(self, accepts: Callable[[Event], bool]) -> None:
        self.accepts = accepts
        self.pending: list[tuple[int, bytes]] = []
        self.wake = asyncio.Event()
        self.closed = False
        self.overflow = False

    def push(self, seq: int, frame: bytes) -> None:
        if len(self.pending) >= MAX_PENDING:
            self.overflow = True
            self.pending.clear()
        self.pending.append((seq, frame))
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()


class Hub:
    """This process's one Redis subscription (every tournament's channel), fanning each event
    out to the streams of its tournament; and the client that reads the replay buffers."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[Listener]] = {}
        self.count = 0
        self.up = asyncio.Event()
        self.client: Any = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    async def ready(self, wait: float) -> bool:
        self.start()
        if not self.up.is_set():
            try:
                await asyncio.wait_for(self.up.wait(), wait)
            except TimeoutError:
                return False
        return True

    async def run(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(
                settings.LIVE_REDIS_URL, socket_connect_timeout=1, socket_timeout=None
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(channel_pattern())
                self.client = client
                self.up.set()
                log.info("live: subscribed to %s", channel_pattern())
                quiet = 0.0
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is None:
                        quiet += 5.0
                        if quiet >= 15.0:  # a Redis gone silent is found by the ping's failure
                            await pubsub.ping()
                            quiet = 0.0
                        continue
                    quiet = 0.0
                    if message.get("type") == "pmessage":
                        self.dispatch(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: lost Redis; streams end and the pages poll", exc_info=True)
            finally:
                self.up.clear()
                self.client = None
                self.close_all()
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass
            await asyncio.sleep(1.0)

    def dispatch(self, channel: bytes | str, data: bytes | str) -> None:
        if isinstance(channel, bytes):
            channel = channel.decode()
        listeners = self.listeners.get(channel_topic(channel))
        event = message_parse(data) if listeners else None
        if event is None:
            return
        frame = sse_frame(event)
        for listener in listeners:
            if listener.accepts(event):
                listener.push(event.seq, frame)

    def add(self, topic: str, listener: Listener) -> None:
        self.listeners.setdefault(topic, set()).add(listener)
        self.count += 1

    def remove(self, topic: str, listener: Listener) -> None:
        listeners = self.listeners.get(topic)
        if listeners and listener in listeners:
            listeners.discard(listener)
            self.count -= 1
            if not listeners:
                del self.listeners[topic]

    def close_all(self) -> None:
        for listeners in self.listeners.values():
            for listener in listeners:
                listener.close()

    async def replay(self, topic: str) -> tuple[list[Event], int]:
        """The topic's replay buffer and last sequence number, read at one moment."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.lrange(buffer_key(topic), 0, -1)
            pipe.get(seq_key(topic))
            raw, current = await pipe.execute()
        events = [e for e in (message_parse(m) for m in raw) if e is not None]
        return events, int(current or 0)


hub = Hub()


# --- The ASGI application ---------------------------------------------------------------------


def _headers(scope: dict) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _cors(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    """A page served from another origin of this site (LIVE_URL on a port of its own) may read
    the stream, with its cookies; any other origin may not."""
    origin = headers.get("origin", "")
    if not origin or "://" not in origin:
        return []
    host, _port = split_domain_port(origin.split("://", 1)[1])
    if not validate_host(host, settings.ALLOWED_HOSTS):
        return []
    return [
        (b"access-control-allow-origin", origin.encode("latin-1")),
        (b"access-control-allow-credentials", b"true"),
        (b"vary", b"origin"),
    ]


async def _answer(send, status: int, body: bytes, extra=()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"cache-control", b"no-store"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            hub.start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await hub.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope, receive, send) -> None:
    """The streams' ASGI application (config.asgi sends it the paths under /live/)."""
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    path = scope["path"]
    if path.rstrip("/") == PREFIX + "readyz":
        up = await hub.ready(1.0)
        status, text = (200, b"ok\n") if up else (503, b"live: down (Redis)\n")
        await _answer(send, status, text)
        return
    headers = _headers(scope)
    cors = _cors(headers)
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, b"GET only\n", cors)
        return
    parts = [p for p in path[len(PREFIX) :].split("/") if p]
    cookies = parse_cookie(headers.get("cookie", ""))
    spec = await sync_to_async(stream_spec, thread_sensitive=False)(parts, cookies)
    if isinstance(spec, int):
        await _answer(send, spec, b"no such stream\n", cors)
        return
    if hub.count >= settings.LIVE_MAX_STREAMS or not await hub.ready(2.0):
        await _answer(send, 503, b"live: unavailable, the page polls\n", cors)
        return
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    last = last_event_id(headers.get("last-event-id"), (query.get("since") or [""])[0])
    await _stream(spec, last, cors, receive, send)


async def _stream(spec: Spec, last: int | None, cors, receive, send) -> None:
    listener = Listener(spec.accepts)
    hub.add(spec.topic, listener)

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        listener.close()

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        sent = 0
        opening = [b"retry: 2000\n\n"]
        if last is not None:
            try:
                buffered, current = await hub.replay(spec.topic)
            except Exception:
                await _answer(send, 503, b"live: unavailable, the page polls\n", cors)
                return
            plan = catch_up(last, buffered, current)
            if plan.reset:
                opening.append(reset_frame(current))
            else:
                opening.extend(sse_frame(e) for e in plan.events if spec.accepts(e))
            sent = current
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),
                    *cors,
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"".join(opening), "more_body": True})
        ends = time.monotonic() + settings.LIVE_MAX_SECONDS * (1 + random.random() / 10)
        while not listener.closed:
            wait = min(settings.LIVE_HEARTBEAT, ends - time.monotonic())
            if wait <= 0:
                break
            try:
                # asyncio.timeout, not wait_for: no task created at each wake-up, which was
                # most of a broadcast's CPU with thousands of streams
                async with asyncio.timeout(wait):
                    await listener.wake.wait()
            except TimeoutError:
                await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
                continue
            listener.wake.clear()
            if listener.closed:
                break
            frames = listener.pending
            listener.pending = []
            if listener.overflow:
                listener.overflow = False
                latest = max(seq for seq, _ in frames)
                body = reset_frame(latest)
                sent = latest
            else:
                fresh = [(seq, frame) for seq, frame in frames if seq > sent]
                if not fresh:
                    continue
                sent = fresh[-1][0]
                body = b"".join(frame for _, frame in fresh)
            await send({"type": "http.response.body", "body": body, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        hub.remove(spec.topic, listener)
        watcher.cancel()
