"""The organizer's desk on a phone (390×844): the main flow from logging in to printing the table
sheets of round 1, and resolving a dispute from the live board. Screenshots of each main page go
to test-results/screenshots/organizer-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, RuleSetPreset
from tests.factories import (
    ClubFactory,
    MatchFactory,
    MembershipFactory,
    PhaseFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.services import results as result_services
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


def log_in(page, base_url: str, next_path: str = "/organizador/", screenshot=None) -> None:
    page.goto(base_url + next_path)
    expect(page.locator("h1")).to_have_text("Entrar")
    if screenshot is not None:
        screenshot(page, "organizer-login")
    page.fill("#id_username", "maite")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def no_horizontal_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 5)"
    )
    assert width <= 390, f"the page is {width}px wide at a 390px viewport: {wide}"


@pytest.mark.django_db(transaction=True)
def test_organizer_main_flow_on_a_phone(phone, live_server, organizer, screenshot):
    base = live_server.url
    log_in(phone, base, screenshot=screenshot)
    expect(phone.locator("h1")).to_have_text("Mis torneos")
    screenshot(phone, "organizer-home")

    # A tournament from a preset.
    phone.get_by_role("link", name="Nuevo torneo").click()
    phone.select_option("#id_preset", "4 reyes a 30")
    phone.fill("#id_name", "Open de Otoño")
    phone.fill("#id_starts_on", "2026-10-17")
    phone.fill("#id_venue", "Sociedad Gure Txoko")
    phone.fill("#id_tables_available", "6")
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-tournament-form")
    phone.get_by_role("button", name="Crear torneo").click()
    expect(phone.locator("h1")).to_have_text("Open de Otoño")
    tournament = Tournament.objects.get(name="Open de Otoño")
    assert (tournament.kings, tournament.stones_per_game) == (4, 30)

    # Open registration (the next step of a draft), then paste the eight pairs.
    phone.get_by_role("button", name="Abrir la inscripción").click()
    expect(phone.locator(".messages")).to_contain_text("Inscripción abierta")
    phone.get_by_role("link", name="Inscribir parejas").last.click()
    phone.fill("#id_text", "\n".join(NAMES))
    phone.get_by_role("button", name="Inscribir la lista").click()
    expect(phone.locator(".messages")).to_contain_text("8 parejas inscritas.")
    expect(phone.locator("li.entry")).to_have_count(8)

    # Check them in: one tap each, the page comes back to the row.
    for n in range(8):
        phone.get_by_role("button", name=re.compile("^Marcar presente")).first.click()
        expect(phone.get_by_test_id("checked-in-count")).to_have_text(str(n + 1))
        if n == 4:
            no_horizontal_overflow(phone)
            screenshot(phone, "organizer-entries")
    assert tournament.entries.filter(status=Entry.Status.CHECKED_IN).count() == 8

    # A Swiss phase, the tournament starts, round 1 is drawn.
    phone.get_by_role("link", name="Volver al torneo").click()
    phone.locator(".actionbar").get_by_role("link", name="Añadir una fase").click()
    expect(phone.locator("#id_rounds_planned")).to_be_visible()
    expect(phone.locator("#id_group_size")).to_be_hidden()
    phone.fill("#id_rounds_planned", "3")
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-phase-form")
    phone.get_by_role("button", name="Añadir fase").click()
    expect(phone.locator(".messages")).to_contain_text("Suizo")
    phone.get_by_role("button", name="Empezar el torneo").click()
    expect(phone.locator(".messages")).to_contain_text("El torneo ha empezado")
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-desk")
    phone.get_by_role("button", name="Sortear la ronda 1").click()
    expect(phone.locator("h1")).to_contain_text("Ronda 1")
    expect(phone.locator(".table-row")).to_have_count(4)
    phone.locator("summary", has_text="Cambiar dos mesas").click()
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-round-adjust")

    # Publish, then print the table sheets: one QR code per table, one sheet per page.
    phone.get_by_role("button", name="Publicar la ronda").click()
    expect(phone.locator(".messages")).to_contain_text("Publicada: Ronda 1")
    rnd = Round.objects.get(phase__tournament=tournament)
    assert rnd.status == Round.Status.PUBLISHED
    phone.get_by_role("link", name="Hojas de mesa con QR").click()
    expect(phone.locator("article.sheet")).to_have_count(4)
    expect(phone.locator("article.sheet figure.qr svg")).to_have_count(4)
    for match in rnd.matches.all():
        expect(phone.locator(f"text={live_server.url}/mesa/{match.token}/")).to_have_count(1)
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-print-sheets")
    phone.emulate_media(media="print")
    breaks = phone.locator("article.sheet").first.evaluate("e => getComputedStyle(e).breakAfter")
    assert breaks == "page"
    expect(phone.locator(".site-header")).to_be_hidden()
    screenshot(phone, "organizer-print-sheets-printed")
    phone.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    screenshot(phone, "organizer-print-sheets-a4")
    pdf = phone.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 4  # one A4 page per table


@pytest.fixture
def disputed_round(organizer):
    club = organizer.memberships.get().club
    tournament = TournamentFactory(club=club, name="Liga de los jueves")
    entries = entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=organizer)
    rnd = RoundFactory(phase=PhaseFactory(tournament=tournament), number=2)
    matches = [
        MatchFactory(
            round=rnd, table_number=n, entry_a=entries[2 * n - 2], entry_b=entries[2 * n - 1]
        )
        for n in (1, 2, 3, 4)
    ]
    versions = {
        "a": [{"stones": [40, 22]}, {"stones": [40, 31]}],
        "b": [{"stones": [40, 22]}, {"stones": [28, 40]}, {"stones": [40, 35]}],
    }
    for n, (match, sides) in enumerate(zip(matches, ("ab", "a", "", "ab"), strict=True)):
        for side in sides:
            match.refresh_from_db()
            result_services.match_result_submit(
                match=match,
                side=side,
                payload={"games": versions[side] if n == 0 else versions["a"]},
                idempotency_key=f"{n}{side}",
                version=match.version,
                via=result_services.LINK,
            )
    return rnd


@pytest.mark.django_db(transaction=True)
def test_resolve_a_dispute_from_the_board(phone, live_server, disputed_round, screenshot):
    log_in(phone, live_server.url, f"/organizador/rondas/{disputed_round.pk}/tablero")
    expect(phone.locator("h1")).to_contain_text("Ronda 2")
    expect(phone.locator(".board-row")).to_have_count(4)
    expect(phone.locator(".board-row.status-disputed")).to_have_count(1)
    expect(phone.locator(".summary")).to_contain_text("1 en disputa")
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-board")

    phone.locator(".board-row.status-disputed a").click()
    expect(phone.locator(".version")).to_have_count(2)
    expect(phone.locator(".version tr.differs")).to_have_count(3)  # juegos 2 and 3 of B's
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-dispute")
    phone.get_by_role("button", name="Vale el de B").click()
    expect(phone.locator(".messages")).to_contain_text("Disputa resuelta")
    expect(phone.locator(".audit")).to_contain_text("Disputa resuelta")
    expect(phone.locator(".audit")).to_contain_text("maite")
    match = disputed_round.matches.get(table_number=1)
    assert match.status == Match.Status.CONFIRMED
    assert (match.games_a, match.games_b) == (2, 1)
    screenshot(phone, "organizer-match-history")

    # Correcting it on the phone: the field starts with the stored result, and a juego won by
    # an órdago is said as such (issue 23 #2), so its stones stay those of the partida.
    phone.locator("summary", has_text="Corregir el resultado").click()
    field = phone.locator("#id_correct-games")
    expect(field).to_have_value("40-22, 28-40, 40-35")
    field.fill("24-18 órdago A, 12-32 órdago B, 40-38")
    no_horizontal_overflow(phone)
    phone.get_by_role("button", name="Guardar la corrección").click()
    expect(phone.locator(".messages")).to_contain_text("Resultado corregido")
    expect(phone.locator("#id_correct-games")).to_have_value(
        "24-18 órdago A, 12-32 órdago B, 40-38"
    )
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.stones_a, match.stones_b) == (2, 1, 76, 88)

    phone.get_by_role("link", name="Volver al tablero").click()
    expect(phone.locator(".board-row.status-disputed")).to_have_count(0)
    expect(phone.locator(".board-row.status-confirmed")).to_have_count(2)

    # A pair of table 3 has not come: the no-show is recorded from the same page.
    phone.locator(".board-row.status-pending a").click()
    phone.locator("summary", has_text="no se ha presentado").click()
    phone.get_by_role("radio", name=re.compile("^Pareja B")).check()
    no_horizontal_overflow(phone)
    screenshot(phone, "organizer-match-pending")
    phone.get_by_role("button", name="Dar la partida por no presentada").click()
    expect(phone.locator(".messages")).to_contain_text("gana la pareja presente")
    forfeit = disputed_round.matches.get(table_number=3)
    assert (forfeit.kind, forfeit.winner_id) == (Match.Kind.FORFEIT, forfeit.entry_a_id)
