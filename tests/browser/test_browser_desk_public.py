"""What the players read on a phone (390×844), as the desk's issue asked: standings whose long
pair names take two lines at most and whose every column is explained, and a bracket that
shows it goes on sideways. Screenshots go to test-results/screenshots/desk-public-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Pair, Player
from tests.browser.test_browser_public import decide, no_sideways_scroll, pick
from tests.factories import EntryFactory, MembershipFactory, TournamentFactory
from tournaments.models import Entry, Tournament
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db(transaction=True)

LONG = [
    ("María Inmaculada Concepción", "Fernández de Arratibel-Etxeberria"),
    ("José Ignacio Bienvenido", "Aguirrezabala Goikoetxea de la Torre"),
]


def _field(pairs: int):
    club = Club.objects.create(name="Peña Mus Txantrea", slug="txantrea", town="Pamplona")
    t = TournamentFactory(
        club=club, name="Torneo de San Fermín", slug="san-fermin", status=Tournament.Status.RUNNING
    )
    entries = []
    for i in range(pairs):
        one, two = (
            Player.objects.create(first_name=f"{first} {i}", last_name=last) for first, last in LONG
        )
        name = "Los Amigos Inseparables del Txoko de la Parte Vieja" if i == 0 else ""
        pair = Pair.objects.create(player_one=one, player_two=two, club=club, name=name)
        entries.append(
            EntryFactory(tournament=t, pair=pair, status=Entry.Status.CHECKED_IN, seed=i + 1)
        )
    return t, MembershipFactory(club=club).user, entries


def test_long_names_take_two_lines_and_every_column_is_explained(phone, live_server, screenshot):
    t, organizer, entries = _field(8)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.all():
        decide(m, pick(entries)(m))
    standings_refresh(phase=phase)

    phone.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/clasificacion/")
    rows = phone.locator(".standings tbody tr")
    expect(rows).to_have_count(8)
    assert no_sideways_scroll(phone)
    line = float(
        phone.locator(".standings .nm a").first.evaluate(
            "e => parseFloat(getComputedStyle(e).lineHeight)"
        )
    )
    for name in phone.locator(".standings .nm a").all():
        assert name.bounding_box()["height"] <= max(2 * line, 44) + 1, name.inner_text()
        assert name.get_attribute("title") == name.inner_text().strip()  # whole on a long press
    for row in rows.all():
        assert row.bounding_box()["height"] <= 3 * line + 24  # two lines, one under, padding
    legend = phone.locator(".st-legend").first.inner_text()
    for abbr in phone.locator(".standings thead abbr").all():
        assert f"{abbr.inner_text()}: {abbr.get_attribute('title')}" in legend
    screenshot(phone, "desk-public-standings")


def test_a_bracket_wider_than_the_phone_says_it_goes_on_sideways(phone, live_server, screenshot):
    t, organizer, entries = _field(8)
    phase = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    round_publish(round=round_draw_generate(phase=phase, actor=organizer), actor=organizer)
    phone.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/cuadro/")
    scroller = phone.locator(".bracket-scroll")
    assert scroller.evaluate("e => e.scrollWidth > e.clientWidth")
    hint = phone.locator(".scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Desliza a la derecha")
    shade = phone.locator(".bracket-frame").evaluate(
        "e => getComputedStyle(e, '::after').backgroundImage"
    )
    assert "gradient" in shade
    screenshot(phone, "desk-public-bracket")
