"""The live push's numbering and catch-up (config.live_sequence), pure: a screen that
reconnects is sent exactly what it missed, in order, or told to fetch its page again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from config.live_sequence import (
    Event,
    catch_up,
    last_event_id,
    message_body,
    message_parse,
    reset_frame,
    sse_frame,
)


def buffer(first: int, last: int) -> list[Event]:
    return [
        Event(seq, {"kind": "result_confirmed", "match": seq}) for seq in range(first, last + 1)
    ]


def test_a_message_round_trips_through_redis_shape():
    body = message_body({"kind": "result_submitted", "public": False, "match": 7})
    event = message_parse(f"12 {body}".encode())
    assert event == Event(12, {"kind": "result_submitted", "public": False, "match": 7})
    assert event.kind == "result_submitted" and event.match == 7 and not event.public


def test_garbage_is_not_an_event():
    for raw in (b"", b"x {}", b"0 {}", b"3 [1]", b"3 {", "-1 {}"):
        assert message_parse(raw) is None


def test_the_frame_carries_the_sequence_as_its_id():
    frame = sse_frame(Event(5, {"kind": "standings", "public": True})).decode()
    assert frame.startswith("id: 5\ndata: ")
    assert '"seq":5' in frame and frame.endswith("\n\n")
    assert reset_frame(9).decode().startswith("id: 9\ndata: ")


def test_a_first_connection_without_a_number_gets_only_what_comes():
    assert catch_up(None, buffer(1, 10), 10).events == ()


def test_a_screen_up_to_date_gets_nothing():
    plan = catch_up(10, buffer(1, 10), 10)
    assert plan.events == () and not plan.reset


def test_a_screen_behind_gets_what_it_missed_in_order():
    plan = catch_up(7, buffer(1, 10), 10)
    assert [e.seq for e in plan.events] == [8, 9, 10] and not plan.reset


def test_a_screen_behind_the_buffer_reloads():
    assert catch_up(3, buffer(6, 10), 10).reset
    assert not catch_up(5, buffer(6, 10), 10).reset  # 6 is the next it needs: still there


def test_a_sequence_that_started_again_reloads():
    assert catch_up(40, buffer(1, 3), 3).reset
    assert catch_up(2, [], 0).reset


def test_last_event_id_prefers_the_browsers_header():
    assert last_event_id("8", "3") == 8
    assert last_event_id(None, "3") == 3
    assert last_event_id("", "") is None
    assert last_event_id("x", "4") == 4
    assert last_event_id("-2", None) is None


@given(
    first=st.integers(1, 50),
    length=st.integers(0, 30),
    last=st.integers(0, 100),
)
def test_catch_up_never_loses_nor_repeats_an_event(first, length, last):
    """Whatever the buffer and the screen's number: either a reset, or exactly the events
    after its number up to the current one, each once, in order."""
    current = first + length - 1 if length else first - 1
    events = buffer(first, current) if length else []
    plan = catch_up(last, events, current)
    if plan.reset:
        # only when something it needs is gone, or it is ahead of the sequence
        assert (
            last > current or (last + 1 < first and length > 0) or (last < current and not events)
        )
        return
    assert [e.seq for e in plan.events] == list(range(last + 1, current + 1))
