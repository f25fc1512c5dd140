"""The organizer makes two rows of one person one, and undoes it, on a phone (390×844): from the
peña's players to the two rows side by side, the merge, and the undo. Screenshots go to
test-results/screenshots/identity-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubs.models import Player, PlayerMerge
from tests.browser.test_browser_layout import check_page, log_in
from tests.browser.test_browser_organizer import no_horizontal_overflow
from tests.clubs.identity_data import world

pytestmark = pytest.mark.django_db(transaction=True)


def test_merge_and_undo_on_a_phone(phone, live_server, screenshot):
    w = world()
    log_in(phone, live_server, w.organizer_both)
    phone.goto(f"{live_server.url}/organizador/")
    phone.get_by_role("link", name="Jugadores").first.click()
    expect(phone.locator("h1")).to_contain_text("Jugadores")
    no_horizontal_overflow(phone)
    check_page(phone, screenshot, "identity-players")

    # Lizarra's Ana shares Txoko's Ana's name: the suggestion leads to the two rows
    phone.goto(f"{live_server.url}/organizador/penas/{w.lizarra.slug}/jugadores")
    phone.get_by_role("link", name="Revisar").first.click()
    expect(phone.locator("h1")).to_have_text("¿La misma persona?")
    no_horizontal_overflow(phone)
    check_page(phone, screenshot, "identity-preview")
    phone.get_by_role("button", name="Son la misma persona: fusionar").click()
    expect(phone.locator(".messages")).to_contain_text("son ya una sola persona")
    merge = PlayerMerge.objects.get()
    assert Player.objects.get(pk=merge.other_id).merged_into_id == merge.keep_id
    no_horizontal_overflow(phone)
    screenshot(phone, "identity-merged")

    phone.get_by_role("button", name="Deshacer").click()
    expect(phone.locator(".messages")).to_contain_text("deshecha")
    merge.refresh_from_db()
    assert merge.undone_at is not None
    assert Player.objects.get(pk=merge.other_id).merged_into_id is None
