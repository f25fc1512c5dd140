"""The organizer's desk on a phone (390×844), the points a person at the door notices: the
roll call ("todos presentes", then one tap per pair that has not come, no page reload), the
next step that counts who is missing, the links to the public page and the TV. Screenshots go
to test-results/screenshots/desk-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PhaseFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry, Tournament
from tournaments.services.registration import entry_register_pasted

PASSWORD = "amarrako-test"
NAMES = [
    "Ana García / Luis Pérez",
    "Miren Etxeberria / Jon Agirre",
    "Carmen Ruiz / Pedro Sanz",
    "Itziar Goñi / Mikel Arana",
    "Rosa Martín / Juan López",
    "Elena Díaz / Andrés Gil",
    "Nerea Urquijo / Iñaki Otxoa",
    "Lucía Romero / Javier Navarro",
]


@pytest.fixture
def tournament():
    user = UserFactory(username="maite")
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=user, role=Membership.Role.OWNER)
    tournament = TournamentFactory(
        club=club, name="Open de Otoño", status=Tournament.Status.REGISTRATION
    )
    entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=user)
    PhaseFactory(tournament=tournament, order=1, rounds_planned=3)
    return tournament


def log_in(page, base_url: str, next_path: str) -> None:
    page.goto(base_url + next_path)  # the login page, then back here
    page.fill("#id_username", "maite")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Entrar").click()


@pytest.mark.django_db(transaction=True)
def test_roll_call_all_present_then_one_tap_per_absent_pair(
    phone, live_server, tournament, screenshot
):
    entries_path = f"/organizador/torneos/{tournament.pk}/parejas"
    log_in(phone, live_server.url, entries_path)
    expect(phone.locator("h1")).to_have_text("Parejas")
    phone.wait_for_load_state("load")
    loads = []
    phone.on("load", lambda page: loads.append(page.url))

    phone.get_by_role("button", name="Todos presentes (faltan 8)").click()
    expect(phone.get_by_test_id("checked-in-count")).to_have_text("8")
    expect(phone.get_by_text("Todas las parejas están presentes.")).to_be_visible()
    # two pairs have not come: one tap each undoes them
    for name in ("Carmen Ruiz / Pedro Sanz", "Nerea Urquijo / Iñaki Otxoa"):
        phone.get_by_role("button", name=f"{name}: presente (tocar para deshacer)").click()
        expect(phone.get_by_role("button", name=f"Marcar presente a {name}")).to_be_visible()
    expect(phone.get_by_test_id("checked-in-count")).to_have_text("6")
    expect(phone.get_by_role("button", name="Todos presentes (faltan 2)")).to_be_visible()
    assert loads == [], f"the page reloaded: {loads}"
    screenshot(phone, "desk-roll-call")
    statuses = list(tournament.entries.values_list("status", flat=True))
    assert statuses.count(Entry.Status.CHECKED_IN) == 6

    # the desk counts who is missing, and links what the players and the bar's TV see
    phone.get_by_role("link", name=re.compile("Open de Otoño")).first.click()
    expect(phone.locator(".next-step")).to_contain_text("Faltan 2 parejas por pasar lista")
    expect(phone.get_by_role("link", name="Página pública")).to_be_visible()
    expect(phone.get_by_role("link", name="Pantalla (TV)")).to_be_visible()
    screenshot(phone, "desk-next-step")
    phone.get_by_role("link", name="Pantalla (TV)").click()
    expect(phone.locator(".sc-head h1")).to_have_text("Open de Otoño")


@pytest.mark.django_db(transaction=True)
def test_a_swap_of_pairs_is_shown_with_both_mesas(phone, live_server, tournament, screenshot):
    from tournaments.services.registration import entries_check_in_all
    from tournaments.services.rounds import round_draw_generate

    organizer = tournament.club.memberships.get().user
    entries_check_in_all(tournament=tournament, actor=organizer)
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    rnd = round_draw_generate(phase=tournament.phases.get(), actor=organizer)
    two, three = rnd.matches.filter(table_number__in=(2, 3)).order_by("table_number")
    moving, other = two.entry_a, three.entry_b

    log_in(phone, live_server.url, f"/organizador/rondas/{rnd.pk}/")
    phone.get_by_text("Cambiar dos parejas de partida").click()
    phone.select_option("#id_entry_id", str(moving.pk))
    phone.select_option("#id_other_entry_id", str(other.pk))
    phone.get_by_role("button", name="Cambiar parejas").click()
    expect(phone.locator(".messages")).to_contain_text(
        f"Parejas cambiadas: {moving.pair} (mesa 2) ↔ {other.pair} (mesa 3)."
    )
    screenshot(phone, "desk-swap")
    phone.goto(f"{live_server.url}/organizador/partidas/{two.pk}/")
    expect(phone.locator(".audit")).to_contain_text("mesa 2 ↔ mesa 3")
    screenshot(phone, "desk-swap-history")
