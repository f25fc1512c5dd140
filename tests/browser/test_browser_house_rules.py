"""The house rules on the organizer's tournament form, on a phone (390×844): opened, chosen and
saved; a combination the engine refuses shows its error on the field and saves nothing. The
form with its house rules open has thumb-sized targets, readable text and no serious axe
violation. Screenshots: test-results/screenshots/house-rules-*.png."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Membership, RuleSetPreset
from tests.browser.test_browser_a11y import violations
from tests.browser.test_browser_layout import check_page, log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organizer():
    # Transactional tests empty the tables between tests, the data migration's presets too.
    for name, kings, stones in (("8 reyes a 40", 8, 40), ("4 reyes a 30", 4, 30)):
        RuleSetPreset.objects.update_or_create(
            club=None, name=name, defaults={"kings": kings, "stones_per_game": stones}
        )
    user = UserFactory(username="maite")
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=user, role=Membership.Role.OWNER)
    return user


def fill_basics(page, name: str, kind: str = "pairs") -> None:
    page.fill("#id_name", name)
    page.fill("#id_starts_on", "2026-10-10")
    page.select_option("#id_entrant_kind", kind)


def test_the_house_rules_are_chosen_and_saved_on_a_phone(phone, live_server, organizer, screenshot):
    log_in(phone, live_server, organizer)
    phone.goto(f"{live_server.url}/organizador/")
    phone.get_by_role("link", name="Nuevo torneo").click()
    fill_basics(phone, "Open de Otoño")
    phone.get_by_text("Reglas de la casa").click()
    phone.select_option("#id_real_31", "sota_of_suit")
    phone.select_option("#id_real_31_suit", "oros")
    phone.get_by_label("El tío Perete (4-5-6-7) vale una piedra").check()
    phone.get_by_label("Se cuentan los dejes").uncheck()
    phone.fill("#id_min_envite", "3")
    check_page(phone, screenshot, "house-rules-form")
    assert violations(phone) == []

    phone.get_by_role("button", name="Crear torneo").click()

    expect(phone.locator("h1")).to_have_text("Open de Otoño")
    t = Tournament.objects.get(name="Open de Otoño")
    assert (t.real_31, t.real_31_suit, t.tio_perete, t.dejes, t.min_envite) == (
        "sota_of_suit",
        "oros",
        True,
        False,
        3,
    )
    assert (t.kings, t.stones_per_game, t.forgotten_stones_lost) == (8, 40, False)


def test_a_suited_31_real_for_trios_shows_the_engines_error(
    phone, live_server, organizer, screenshot
):
    log_in(phone, live_server, organizer)
    phone.goto(live_server.url + reverse("web:organizer-tournament-create", args=["txoko"]))
    fill_basics(phone, "Tríos de invierno", kind="trios")
    phone.get_by_text("Reglas de la casa").click()
    phone.select_option("#id_real_31", "sota_apart")

    phone.get_by_role("button", name="Crear torneo").click()

    error = phone.locator("#id_real_31_error")
    expect(error).to_contain_text("31 real según el palo de sus cartas")
    expect(phone.locator("[data-testid=house-rules]")).to_have_attribute("open", "")
    screenshot(phone, "house-rules-error")
    assert not Tournament.objects.exists()
