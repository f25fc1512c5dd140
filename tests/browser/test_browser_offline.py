"""The table's phone without connection, as a bar's basement has it (Chromium at 390×844).

After its first load the table's page works offline (the service worker, static/js/sw.js,
serves the copy it kept); a result sent without connection is kept on the phone, survives a
reload and a closed page, and is sent by itself once the connection is back, whichever page of
the site is open, with its idempotency key: exactly one result is stored.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import HandEntry, Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SAVED = "Guardado en este móvil; se enviará solo"


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament, table_number=7)


def kept_pages(page) -> list[str]:
    return page.evaluate(
        "caches.open('amarrako-table-v1').then(c => c.keys())"
        ".then(keys => keys.map(r => new URL(r.url).pathname))"
    )


def load_and_keep(page, url: str) -> None:
    """Open the table's page online and wait until its copy is kept for offline use."""
    page.goto(url)
    path = url.split("//", 1)[1].split("/", 1)[1]
    for _ in range(600):  # a hang guard of a minute: the loop ends as soon as the copy is kept
        if f"/{path}" in kept_pages(page) and page.evaluate(
            "!!navigator.serviceWorker.controller || navigator.serviceWorker.ready.then(() => true)"
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the table's page was not kept: {kept_pages(page)}")


def enter_result(page) -> None:
    page.locator(".t-who label", has_text="Pareja A").click()
    for name, value in (("g1_a", "40"), ("g1_b", "31"), ("g2_a", "40"), ("g2_b", "12")):
        page.locator(f'input[name="{name}"]').fill(value)


def pending(page) -> list:
    return json.loads(page.evaluate("localStorage.getItem('amarrako:pending') || '[]'"))


def test_offline_submit_survives_reload_and_closing_and_is_stored_once(
    new_phone, live_server, match, screenshot
):
    phone = new_phone()
    url = f"{live_server.url}/mesa/{match.token}/"
    load_and_keep(phone, url)
    context = phone.context

    context.set_offline(True)
    enter_result(phone)
    phone.get_by_role("button", name="Enviar resultado").click()
    expect(phone.locator("#t-status")).to_contain_text(SAVED, timeout=10_000)
    screenshot(phone, "table-offline-saved")
    assert len(pending(phone)) == 1
    key = pending(phone)[0]["key"]

    # reloading without connection: the page kept by the service worker, not an error page
    response = phone.reload()
    assert response is not None and response.from_service_worker
    assert phone.locator("h1").inner_text() == "Mesa 7"
    expect(phone.locator("#t-status")).to_contain_text(SAVED)
    screenshot(phone, "table-offline-reloaded")

    # the page closed, then opened again (still offline): the result is still kept
    phone.close()
    reopened = context.new_page()
    reopened.goto(url)
    expect(reopened.locator("#t-status")).to_contain_text(SAVED)
    assert [item["key"] for item in pending(reopened)] == [key]
    assert not ResultSubmission.objects.filter(match=match).exists()

    # the connection is back: sent by itself, once, and the receipt shown
    context.set_offline(False)
    reopened.wait_for_selector("#t-receipt", timeout=20_000)
    screenshot(reopened, "table-offline-sent")
    assert ResultSubmission.objects.filter(match=match).count() == 1
    assert ResultSubmission.objects.get(match=match).idempotency_key == key
    assert Match.objects.get(pk=match.pk).status == Match.Status.SUBMITTED
    assert pending(reopened) == []


def test_a_kept_result_is_sent_from_any_page_of_the_site(new_phone, live_server, match):
    phone = new_phone()
    url = f"{live_server.url}/mesa/{match.token}/"
    load_and_keep(phone, url)
    phone.context.set_offline(True)
    enter_result(phone)
    phone.get_by_role("button", name="Enviar resultado").click()
    expect(phone.locator("#t-status")).to_contain_text(SAVED, timeout=10_000)
    phone.close()

    # later, online, the players open the tournament's public page, not the table's
    other = phone.context.new_page()
    phone.context.set_offline(False)
    other.goto(f"{live_server.url}/")
    status = other.locator("#queue-status")
    expect(status).to_contain_text("Se envió el resultado que estaba guardado en este móvil")
    assert ResultSubmission.objects.filter(match=match).count() == 1
    assert pending(other) == []
    status.get_by_role("link", name="Ver lo apuntado").click()
    other.wait_for_selector("#t-receipt")


def test_hands_entered_offline_one_after_another_are_all_stored_in_order(
    new_phone, live_server, match, screenshot
):
    """Two hands of the anotador kept on the phone, the page reloaded between them (the copy
    the service worker kept has the version of before both): once the connection is back they
    go in order, the second with the version the first produced, each exactly once."""
    phone = new_phone()
    url = f"{live_server.url}/mesa/{match.token}/anotador/"
    load_and_keep(phone, url)
    phone.context.set_offline(True)

    def hand(grande: str, chica: str, punto: str) -> None:
        for lance, pair in (("grande", grande), ("chica", chica), ("juego", punto)):
            phone.locator(
                f'.t-lance[data-lance="{lance}"] .t-win label', has_text=f"Pareja {pair}"
            ).click()
        phone.get_by_role("button", name="Anotar mano").click()
        expect(phone.locator("#t-status")).to_contain_text(SAVED, timeout=10_000)

    hand("A", "B", "A")  # A: grande and punto, B: chica
    phone.reload()  # offline: the page as kept, still at hand 1 with the same version
    hand("B", "B", "B")  # B: 3
    kept = pending(phone)
    assert len(kept) == 2 and kept[0]["key"] != kept[1]["key"]
    screenshot(phone, "table-offline-two-hands")
    assert not HandEntry.objects.filter(match=match).exists()

    phone.context.set_offline(False)
    for _ in range(200):  # until the phone's queue is empty (the page may reload meanwhile)
        if HandEntry.objects.filter(match=match).count() == 2:
            break
        phone.wait_for_timeout(100)
    expect(phone.locator("#t-hand h2")).to_have_text("Mano n.º 3", timeout=20_000)
    assert pending(phone) == []
    hands = list(HandEntry.objects.filter(match=match).order_by("number"))
    assert [h.number for h in hands] == [1, 2]
    assert [h.idempotency_key for h in hands] == [k["key"] for k in kept]
    assert [h.payload["declarations"]["winners"] for h in hands] == [
        {"grande": "mano", "chica": "postre", "punto": "mano"},
        {"grande": "postre", "chica": "postre", "punto": "postre"},
    ]
