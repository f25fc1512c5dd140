"""A tournament's calendar over plain values: the evenings of a pattern, a round's date, and
whether a match is late.

Responsible for:

- ``calendar_clean``: reading the pattern the bases give ("dos tardes por semana, martes y
  jueves a las 20:00, desde el 6 de octubre": ``{"first": "2026-10-06", "weekdays": [1, 3],
  "time": "20:00"}``, weekdays 0 Monday … 6 Sunday), or refusing it with a DrawError;
- ``evenings``: the first ``count`` evenings of the pattern, in order: the n-th round of the
  tournament (counting across its phases) is played on the n-th, unless it has a date of its
  own;
- ``due_date`` and ``is_late``: when a match is due (its deadline if it was postponed, else its
  own date, else its round's) and whether it is late: a match not decided whose due day has
  passed.

Must not: import Django, read the database or the clock (``today`` is given), or decide what
happens to a late match (the organizer does: a walkover or a double loss, services/calendar.py).

Terms: jornada / ronda (round), tarde (an evening of play), aplazada (postponed), fecha límite
(deadline).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from tournaments.draw.base import DrawError

__all__ = ["calendar_clean", "due_date", "evenings", "is_late"]

#: the most evenings a calendar lists (a season of rounds; far beyond any tournament)
MAX_EVENINGS = 400


def calendar_clean(value: Any) -> dict[str, Any]:
    """The pattern in its stored form (``{}``: none); DrawError naming what is wrong."""
    if value in (None, {}):
        return {}
    if not isinstance(value, Mapping) or set(value) != {"first", "weekdays", "time"}:
        raise DrawError(
            'A calendar has "first" (the first date), "weekdays" (0 Monday to 6 Sunday) and '
            '"time" ("20:00"), or is empty.',
            code="calendar_shape",
        )
    try:
        first = dt.date.fromisoformat(str(value["first"]))
    except ValueError:
        raise DrawError(
            "The calendar's first date '{value}' is not a date like 2026-10-06.",
            code="calendar_first",
            value=str(value["first"])[:20],
        ) from None
    weekdays = value["weekdays"]
    if (
        not isinstance(weekdays, list)
        or not weekdays
        or any(isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 6 for d in weekdays)
        or len(set(weekdays)) != len(weekdays)
    ):
        raise DrawError(
            "The calendar's weekdays are the days it is played, each once: numbers from 0 "
            "(Monday) to 6 (Sunday), e.g. [1, 3] for Tuesdays and Thursdays.",
            code="calendar_weekdays",
        )
    try:
        time = dt.time.fromisoformat(str(value["time"]))
    except ValueError:
        raise DrawError(
            "The calendar's time '{value}' is not a time like 20:00.",
            code="calendar_time",
            value=str(value["time"])[:20],
        ) from None
    return {
        "first": first.isoformat(),
        "weekdays": sorted(weekdays),
        "time": time.strftime("%H:%M"),
    }


def evenings(calendar: Mapping[str, Any], count: int) -> list[dt.datetime]:
    """The first ``count`` evenings of ``calendar`` (calendar_clean's form), as naive local
    date-times: the first is the first weekday of the pattern on or after ``first``."""
    if not calendar or count <= 0:
        return []
    day = dt.date.fromisoformat(calendar["first"])
    time = dt.time.fromisoformat(calendar["time"])
    weekdays = set(calendar["weekdays"])
    out: list[dt.datetime] = []
    while len(out) < min(count, MAX_EVENINGS):
        if day.weekday() in weekdays:
            out.append(dt.datetime.combine(day, time))
        day += dt.timedelta(days=1)
    return out


def due_date(
    *,
    deadline: dt.date | None,
    scheduled: dt.date | None,
    round_scheduled: dt.date | None,
) -> dt.date | None:
    """The day a match is due: its deadline once postponed, else its own date (moved by
    agreement), else its round's; None when nothing says."""
    return deadline or scheduled or round_scheduled


def is_late(*, due: dt.date | None, decided: bool, today: dt.date) -> bool:
    """A match not decided whose due day is over."""
    return due is not None and not decided and due < today
