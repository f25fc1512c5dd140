"""A tournament's calendar over plain values (tournaments.draw.calendar): the evenings of a
pattern, a match's due day and whether it is late."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError
from tournaments.draw.calendar import calendar_clean, due_date, evenings, is_late

TUESDAY = dt.date(2026, 10, 6)


def test_two_evenings_a_week_tuesdays_and_thursdays_at_eight():
    pattern = calendar_clean({"first": "2026-10-05", "weekdays": [3, 1], "time": "20:00"})
    assert pattern == {"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"}
    first = evenings(pattern, 4)  # naive local times: the selectors make them aware
    assert [e.isoformat() for e in first] == [
        "2026-10-06T20:00:00",  # the first Tuesday on or after the 5th (a Monday)
        "2026-10-08T20:00:00",
        "2026-10-13T20:00:00",
        "2026-10-15T20:00:00",
    ]
    assert evenings({}, 4) == [] and evenings(pattern, 0) == []


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ({"first": "2026-10-05"}, "calendar_shape"),
        ("martes", "calendar_shape"),
        ({"first": "5/10/2026", "weekdays": [1], "time": "20:00"}, "calendar_first"),
        ({"first": "2026-10-05", "weekdays": [], "time": "20:00"}, "calendar_weekdays"),
        ({"first": "2026-10-05", "weekdays": [7], "time": "20:00"}, "calendar_weekdays"),
        ({"first": "2026-10-05", "weekdays": [1, 1], "time": "20:00"}, "calendar_weekdays"),
        ({"first": "2026-10-05", "weekdays": [1], "time": "8 de la tarde"}, "calendar_time"),
    ],
)
def test_a_wrong_calendar_is_refused(value, code):
    with pytest.raises(DrawError) as caught:
        calendar_clean(value)
    assert caught.value.code == code


def test_a_match_is_due_on_its_deadline_else_its_own_day_else_its_rounds():
    own, rnd, deadline = TUESDAY, TUESDAY - dt.timedelta(days=2), TUESDAY + dt.timedelta(days=7)
    assert due_date(deadline=deadline, scheduled=own, round_scheduled=rnd) == deadline
    assert due_date(deadline=None, scheduled=own, round_scheduled=rnd) == own
    assert due_date(deadline=None, scheduled=None, round_scheduled=rnd) == rnd
    assert due_date(deadline=None, scheduled=None, round_scheduled=None) is None


def test_late_is_not_decided_and_past_its_day():
    assert is_late(due=TUESDAY, decided=False, today=TUESDAY + dt.timedelta(days=1))
    assert not is_late(due=TUESDAY, decided=False, today=TUESDAY)  # still its day
    assert not is_late(due=TUESDAY, decided=True, today=TUESDAY + dt.timedelta(days=9))
    assert not is_late(due=None, decided=False, today=TUESDAY)


@settings(max_examples=200, deadline=None)
@given(
    st.dates(dt.date(2025, 1, 1), dt.date(2030, 1, 1)),
    st.lists(st.integers(0, 6), min_size=1, max_size=7, unique=True),
    st.integers(0, 60),
)
def test_evenings_fall_on_the_days_in_order_from_the_first(first, weekdays, count):
    pattern = calendar_clean({"first": first.isoformat(), "weekdays": weekdays, "time": "19:30"})
    out = evenings(pattern, count)
    assert len(out) == count
    assert all(e.weekday() in weekdays and e.time() == dt.time(19, 30) for e in out)
    assert all(a < b for a, b in zip(out, out[1:], strict=False))
    assert not out or out[0].date() >= first and (out[0].date() - first).days < 7
    # no evening of the pattern is skipped between two listed ones
    for a, b in zip(out, out[1:], strict=False):
        between = [a.date() + dt.timedelta(days=n) for n in range(1, (b.date() - a.date()).days)]
        assert not [d for d in between if d.weekday() in weekdays]
