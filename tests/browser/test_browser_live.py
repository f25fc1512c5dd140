"""The live push in a real browser: the pages change as the results come, without a reload.
Two phones on one table's link (pair A sends its result, pair B's page turns into the confirm
screen by itself), the venue's TV, and a phone that was offline catching up when it comes back.

The streams are served by uvicorn on a port of their own (tests/live_support.py), the pages
by the live server: a page marks its window, and the mark is still there once it changed (a
reload would have dropped it).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import MatchFactory, TournamentFactory, tournament_field
from tests.live_support import drop_streams
from tournaments.models import Match, Tournament
from tournaments.services import results as svc
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

MARK = "window.__notReloaded = true"
STILL = "window.__notReloaded === true"
A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 30]}]}


@pytest.fixture
def match(live_push):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, name="Torneo en vivo")
    return MatchFactory(round__phase__tournament=tournament, table_number=4)


def table(live_server, match: Match) -> str:
    return f"{live_server.url}/mesa/{match.token}/"


def listening(page) -> None:
    expect(page.locator("#live[data-live-connected]")).to_be_attached(timeout=10_000)
    page.evaluate(MARK)


def send_quick(page, side: str) -> None:
    page.locator(".t-who label", has_text=f"Pareja {side}").click()
    for name, value in (("g1_a", "40"), ("g1_b", "12"), ("g2_a", "40"), ("g2_b", "39")):
        page.locator(f'input[name="{name}"]').fill(value)
    page.get_by_role("button", name="Enviar resultado").click()


def test_pair_b_sees_the_confirm_screen_as_soon_as_pair_a_sends(new_phone, live_server, match):
    pair_b = new_phone()
    pair_b.goto(table(live_server, match))
    listening(pair_b)

    pair_a = new_phone()
    pair_a.goto(table(live_server, match))
    send_quick(pair_a, "A")
    pair_a.wait_for_selector("#t-receipt")

    confirm = pair_b.get_by_role("button", name="Confirmar (pareja B)")
    # while its stream is open the page does not poll, so the screen can only come by the
    # push: the timeout is a hang guard, not the measure (benchmarks/live.py times it)
    expect(confirm).to_be_visible(timeout=30_000)
    assert pair_b.evaluate(STILL), "the page was reloaded"
    # the form that came with the new screen works as the page's own
    confirm.click()
    pair_b.wait_for_selector("#t-confirmed")
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_a_phone_that_was_offline_catches_up_when_it_comes_back(new_phone, live_server, match):
    pair_b = new_phone()
    pair_b.goto(table(live_server, match))
    listening(pair_b)

    pair_b.context.set_offline(True)
    drop_streams()  # the phone's connection is gone (Chromium's offline keeps an open one)
    expect(pair_b.locator("#live[data-live-connected]")).not_to_be_attached(timeout=10_000)
    svc.match_result_submit(
        match=match, side="a", payload=A_WINS,
        idempotency_key="sent-while-b-was-away", version=0, via="link",
    )  # fmt: skip
    pair_b.wait_for_timeout(500)
    assert pair_b.get_by_role("button", name="Confirmar (pareja B)").count() == 0

    pair_b.context.set_offline(False)
    expect(pair_b.get_by_role("button", name="Confirmar (pareja B)")).to_be_visible(timeout=15_000)
    assert pair_b.evaluate(STILL), "the page was reloaded"


def test_the_tv_shows_a_confirmed_result_without_a_reload(browser, live_server, live_push):
    t, organizer, _ = tournament_field(8, tables=4, status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suiza", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    first = rnd.matches.order_by("table_number").first()

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="es-ES")
    tv = context.new_page()
    try:
        tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
        expect(tv.locator(".sc-card")).to_have_count(4, timeout=15_000)
        listening(tv)
        assert tv.locator(".sc-card.st-confirmed").count() == 0

        svc.match_result_submit(
            match=first, side="organizer", payload=A_WINS, idempotency_key="decided",
            version=first.version, via="api", actor=organizer,
        )  # fmt: skip
        # the TV's own polling rests while its stream is open (static/js/bigscreen.js), so the
        # card can only change by the push: the timeout is a hang guard, not the measure
        expect(tv.locator(".sc-card.st-confirmed")).to_have_count(1, timeout=30_000)
        assert tv.evaluate(STILL), "the TV was reloaded"
    finally:
        context.close()
