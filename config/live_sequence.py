"""The live push's sequence and replay, as plain values (no Django, no Redis, no clock).

Responsible for: the shape of one event as it travels through Redis (``"<seq> <json>"``), the
Server-Sent Events frame a browser reads (``id:`` and ``data:``, the kind inside the data), and
what a screen that reconnects with its Last-Event-ID is sent (``catch_up``): the events it
missed when the tournament's replay buffer still holds them all, else a ``reset`` (the page
fetches again what it shows). config/live.py publishes and reads the buffer;
tournaments/web/live.py streams.

Must not: talk to Redis, read settings or decide who may read what (the stream's door does).

Terms: seq (an event's number, one sequence per tournament, from 1), replay buffer (the
tournament's last LIVE_REPLAY events, oldest first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """One event of a tournament: its number and what it says (``kind``, and ``match``,
    ``status``, ``public``... as the publisher wrote them)."""

    seq: int
    data: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("kind", "change"))

    @property
    def public(self) -> bool:
        return bool(self.data.get("public"))

    @property
    def match(self) -> int | None:
        match = self.data.get("match")
        return match if isinstance(match, int) else None


def message_body(data: dict[str, Any]) -> str:
    """What the publisher hands Redis, which puts the sequence number in front of it."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def message_parse(message: str | bytes) -> Event | None:
    """``"<seq> <json>"`` as Redis stored and published it; None for anything else."""
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    head, _, body = message.partition(" ")
    try:
        seq = int(head)
        data = json.loads(body)
    except ValueError:
        return None
    if seq < 1 or not isinstance(data, dict):
        return None
    return Event(seq, data)


def sse_frame(event: Event) -> bytes:
    """The event as the browser's EventSource reads it: its id is the tournament's sequence
    number, which the browser sends back as Last-Event-ID when it reconnects."""
    data = message_body({**event.data, "seq": event.seq})
    return f"id: {event.seq}\ndata: {data}\n\n".encode()


def reset_frame(seq: int) -> bytes:
    """Too far behind (or the sequence started again): the page fetches what it shows again
    and goes on from ``seq``."""
    data = message_body({"kind": "reset", "seq": seq})
    return f"id: {seq}\ndata: {data}\n\n".encode()


@dataclass(frozen=True)
class CatchUp:
    events: tuple[Event, ...]
    reset: bool


def catch_up(last_id: int | None, buffered: list[Event], current: int) -> CatchUp:
    """What a screen that last saw ``last_id`` is sent before the live events: ``buffered``
    is the tournament's replay buffer (oldest first), ``current`` its last sequence number,
    both read at one moment.

    - no ``last_id`` (a first connection that says nothing): nothing;
    - ``last_id`` ahead of ``current`` (the sequence started again: Redis lost its data):
      a reset;
    - every event after ``last_id`` still in the buffer: those events, in order;
    - some already dropped from the buffer: a reset.
    """
    if last_id is None or last_id == current:
        return CatchUp((), False)
    if last_id > current or last_id < 0:
        return CatchUp((), True)
    first = buffered[0].seq if buffered else current + 1
    if last_id + 1 < first:
        return CatchUp((), True)
    return CatchUp(tuple(e for e in buffered if e.seq > last_id), False)


def last_event_id(header: str | None, since: str | None) -> int | None:
    """The number a reconnecting screen last saw: the ``Last-Event-ID`` header the browser
    sends by itself, else the page's ``since`` (the sequence it was rendered at)."""
    for value in (header, since):
        if value:
            try:
                number = int(value.strip())
            except ValueError:
                continue
            if number >= 0:
                return number
    return None
