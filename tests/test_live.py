"""The live push through its real parts: the publish function on Redis (numbers, the replay
buffer), and the streams served by uvicorn (tests/live_support.py) — who may open which, what
each carries, and the catch-up of a screen that reconnects. Like the API's permissions: a
private tournament does not exist for an outsider, a table's link hears only its own match,
the organizer's board needs the organizer's session."""

from __future__ import annotations

import pytest
import redis
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import live
from tests.factories import MembershipFactory, TournamentFactory, UserFactory, tournament_field
from tests.live_support import Stream, connected, get
from tournaments.models import Match, Tournament
from tournaments.services import results as svc
from tournaments.services.entrants import individual_register_pasted
from tournaments.services.frances import frances_result_submit
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 30]}]}


def running(public: bool = True):
    t, organizer, _ = tournament_field(4, tables=2, status=Tournament.Status.RUNNING)
    if not public:
        t.is_public = False
        t.save(update_fields=["is_public"])
    phase = phase_create(
        tournament=t, actor=organizer, name="Suiza", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return t, organizer, list(rnd.matches.order_by("table_number"))


def submit(match: Match, side: str, key: str) -> None:
    match.refresh_from_db()
    svc.match_result_submit(
        match=match, side=side, payload=A_WINS, idempotency_key=key, version=match.version,
        via="link",
    )  # fmt: skip


def public_url(server: str, t: Tournament) -> str:
    return f"{server}/live/torneos/{t.club.slug}/{t.slug}/"


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_publishing_numbers_each_event_and_keeps_the_last_ones(live_push, settings):
    settings.LIVE_REPLAY = 3
    r = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    r.delete(live.seq_key(999_999), live.buffer_key(999_999))
    for n in range(5):
        live.live_publish(tournament_id=999_999, kind="standings", public=True, phase=n)
    assert live.live_seq(999_999) == 5
    kept = [m.split(b" ")[0] for m in r.lrange(live.buffer_key(999_999), 0, -1)]
    assert kept == [b"3", b"4", b"5"]


def test_a_dead_redis_never_fails_a_write(settings, live_push):
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    live._client = None
    t, _, matches = running()
    submit(matches[0], "a", "k-dead")  # no error: the push is a convenience
    assert Match.objects.get(pk=matches[0].pk).status == Match.Status.SUBMITTED
    assert live.live_seq(t.pk) is None
    live._failed_at = 0.0
    live._client = None


def test_the_public_stream_hears_confirmations_not_pending_results(live_push):
    t, _, matches = running()
    stream = Stream(public_url(live_push, t))
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        connected()
        submit(matches[0], "a", "k1")  # pending: only that table and the organizer
        submit(matches[0], "b", "k2")  # the same: confirmed
        # (the tasks run eagerly here, inside the commit: the standings may come first)
        kinds = {e["kind"] for e in stream.events(2)}
        assert kinds == {"result_confirmed", "standings"}
    finally:
        stream.close()


def test_an_outsider_gets_nothing_from_a_private_tournament(live_push):
    t, organizer, matches = running(public=False)
    assert get(public_url(live_push, t))[0] == 404
    outsider = session_cookie(UserFactory())
    assert get(f"{live_push}/live/organizador/{t.pk}/", {"Cookie": outsider})[0] == 404
    assert get(f"{live_push}/live/organizador/{t.pk}/")[0] == 404
    # its organizer is heard
    stream = Stream(f"{live_push}/live/organizador/{t.pk}/", {"Cookie": session_cookie(organizer)})
    try:
        assert stream.status == 200
        connected()
        submit(matches[0], "a", "k3")
        assert [e["kind"] for e in stream.events(1)] == ["result_submitted"]
    finally:
        stream.close()


def test_the_organizers_board_stream_needs_the_organizers_session(live_push):
    t, organizer, _ = running()
    assert get(f"{live_push}/live/organizador/{t.pk}/")[0] == 403
    other = session_cookie(UserFactory())
    assert get(f"{live_push}/live/organizador/{t.pk}/", {"Cookie": other})[0] == 403
    mine = session_cookie(organizer)
    stream = Stream(f"{live_push}/live/organizador/{t.pk}/", {"Cookie": mine})
    assert stream.status == 200
    stream.close()


def test_a_table_link_hears_only_its_own_match(live_push):
    t, _, (first, second) = running()
    stream = Stream(f"{live_push}/live/mesa/{first.token}/")
    try:
        assert stream.status == 200
        connected()
        submit(second, "a", "k4")
        submit(first, "a", "k5")
        submit(second, "b", "k6")
        events = stream.events(3, wait=2)
        assert [(e["kind"], e["match"]) for e in events] == [("result_submitted", first.pk)]
        assert "games" not in str(events)  # names what changed, never the result
    finally:
        stream.close()
    assert get(f"{live_push}/live/mesa/no-such-token/")[0] == 404


def test_a_screen_that_reconnects_gets_what_it_missed(live_push):
    t, _, (first, second) = running()
    since = live.live_seq(t.pk)
    submit(first, "a", "k7")
    submit(first, "b", "k8")  # confirmed: result_confirmed, standings
    stream = Stream(public_url(live_push, t), {"Last-Event-ID": str(since)})
    try:
        events = stream.events(2)
        assert {e["kind"] for e in events} == {"result_confirmed", "standings"}
        assert [e["id"] for e in events] == sorted(e["id"] for e in events)
        assert all(e["id"] > since for e in events)
    finally:
        stream.close()
    # too far behind the replay buffer: told to fetch its page again
    redis.Redis.from_url(live.settings.LIVE_REDIS_URL).ltrim(live.buffer_key(t.pk), -1, -1)
    stream = Stream(public_url(live_push, t) + f"?since={since}")
    try:
        assert [e["kind"] for e in stream.events(1)] == ["reset"]
    finally:
        stream.close()


def test_the_streams_readiness_and_cors(live_push):
    assert get(f"{live_push}/live/readyz")[0] == 200
    t, _, _ = running()
    stream = Stream(public_url(live_push, t), {"Origin": "http://localhost:8000"})
    assert stream.headers.get("access-control-allow-origin") == "http://localhost:8000"
    stream.close()
    stream = Stream(public_url(live_push, t), {"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in stream.headers
    stream.close()


def refetch(url: str, language: str = "es") -> tuple[bytes, int]:
    """What a spectator's live.js fetches after an event (its <main>), and the queries it cost."""
    client = Client(HTTP_X_AMARRAKO_LIVE="1", HTTP_ACCEPT_LANGUAGE=language)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    return response.content, len(queries)


def test_the_screens_an_event_wakes_cost_one_render(live_push):
    t, _, (first, second) = running()
    submit(first, "a", "c1")
    submit(first, "b", "c2")  # confirmed: every spectator's page fetches itself again
    for name in ("public-standings", "tournament", "public-screen-fragment"):
        url = reverse(f"web:{name}", args=[t.club.slug, t.slug])
        rendered, cost = refetch(url)
        kept, cost_again = refetch(url)
        assert kept == rendered
        assert cost_again == 1 < cost  # the tournament's lookup; the page came from the cache
        if name != "public-screen-fragment":
            assert rendered.startswith(b"<main") and b"site-header" not in rendered
            assert b"csrfmiddlewaretoken" not in rendered
    url = reverse("web:public-standings", args=[t.club.slug, t.slug])
    spanish, _ = refetch(url)
    english, cost = refetch(url, "en")
    assert cost > 1 and english != spanish  # each language is rendered once
    assert refetch(url, "en") == (english, 1)
    # the next event moves the key: the page is rendered again, with it
    submit(second, "a", "c3")
    submit(second, "b", "c4")
    fresh, cost = refetch(url)
    assert cost > 1 and fresh != spanish
    # a reload, a link, the polling: the whole page, rendered as always
    page = Client().get(url)
    assert b"site-header" in page.content and b"csrfmiddlewaretoken" in page.content


def a_frances_table():
    tournament = TournamentFactory(
        entrant_kind=Tournament.EntrantKind.FRANCES, frances_table_size=4, tables_available=0
    )
    organizer = MembershipFactory(club=tournament.club).user
    individual_register_pasted(
        tournament=tournament, actor=organizer, text="Ane\nBeñat\nCarmen\nDavid"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=tournament, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return rnd.frances_tables.get()


def test_a_frances_table_link_hears_its_own_table(live_push, client):
    table = a_frances_table()
    page = client.get(f"/mesa-frances/{table.token}/")
    assert (
        f'data-live-stream="{live_push}/live/mesa-frances/{table.token}/"' in page.content.decode()
    )
    assert 'data-live-state="pending"' in page.content.decode()
    stream = Stream(f"{live_push}/live/mesa-frances/{table.token}/")
    public = Stream(public_url(live_push, table.round.phase.tournament))
    try:
        assert stream.status == 200
        connected()
        order = [e for _s, e in sorted(table.seats.values_list("seat", "entry_id"))]
        frances_result_submit(
            table=table, seat=1, order=order, idempotency_key="f1", version=0, via="link"
        )
        events = stream.events(1)
        assert [(e["kind"], e["frances_table"], e["status"]) for e in events] == [
            ("frances_submitted", table.pk, "submitted")
        ]
        assert "order" not in events[0]  # names what changed, never the result
        assert public.events(1, wait=1) == []  # not confirmed: nothing public
    finally:
        stream.close()
        public.close()
    assert get(f"{live_push}/live/mesa-frances/no-such-token/")[0] == 404
    assert get(f"{live_push}/live/mesa/{table.token}/")[0] == 404  # not a pairs' table
