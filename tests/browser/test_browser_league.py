"""A league night on phones (390×844): the organizer draws and publishes the jornada from the
league's desk, both pairs of a table enter and confirm the result on the table's link, and the
published standings and a player's rating page show it — each page readable and < 60 KB."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, RuleSetPreset
from seasons.leagues import services
from tests.factories import ClubFactory, MembershipFactory, PairFactory, PlayerFactory, UserFactory
from tournaments.models import Match
from tournaments.services import results

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "amarrako-test"
BUDGET = 60_000
NAMES = (("Ana", "Bea"), ("Carlos", "Dani"), ("Edurne", "Fermín"), ("Garazi", "Hodei"))


@pytest.fixture
def league():
    # Transactional tests empty the tables between tests, the data migration's presets too.
    RuleSetPreset.objects.update_or_create(
        club=None, name="8 reyes a 40", defaults={"kings": 8, "stones_per_game": 40}
    )
    user = UserFactory(username="maite")
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=user, role=Membership.Role.OWNER)
    pairs = []
    for one, two in NAMES:
        a, b = PlayerFactory(first_name=one), PlayerFactory(first_name=two)
        a.clubs.add(club)
        b.clubs.add(club)
        pairs.append(PairFactory(club=club, player_one=a, player_two=b).pk)
    league = services.league_create(
        club=club,
        actor=user,
        name="Liga de los jueves",
        season="2026-27",
        dates=[dt.date(2026, 10, 1) + dt.timedelta(weeks=k) for k in range(3)],
    )
    services.division_create(league=league, actor=user, name="Primera", pair_ids=pairs)
    return league


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_league_night_from_the_desk_to_the_tables_the_standings_and_a_rating(
    new_phone, live_server, league, screenshot, transferred
):
    desk = new_phone()
    desk.goto(f"{live_server.url}/organizador/ligas/{league.pk}/")
    desk.fill("#id_username", "maite")
    desk.fill("#id_password", PASSWORD)
    desk.get_by_role("button", name="Entrar").click()
    expect(desk.locator("h1")).to_have_text("Liga de los jueves · 2026-27")
    desk.get_by_role("button", name="Sortear la jornada").click()
    expect(desk.get_by_role("link", name="Hojas de mesa con QR")).to_be_visible()
    assert no_sideways_scroll(desk)
    screenshot(desk, "league-desk-drawn")
    desk.get_by_role("button", name="Publicar la jornada").click()
    expect(desk.locator(".messages")).to_contain_text("Jornada publicada")

    first, second = Match.objects.filter(round__phase__league_division__league=league).order_by(
        "table_number"
    )
    # Table 1: both pairs on their phones, through the table's link.
    pair_a = new_phone()
    pair_a.goto(f"{live_server.url}/mesa/{first.token}/")
    for game in (1, 2, 3):
        pair_a.locator(f'input[name="g{game}_a"]').fill("40")
        pair_a.locator(f'input[name="g{game}_b"]').fill("25")
    pair_a.locator(".t-who label", has_text="Pareja A").click()
    pair_a.get_by_role("button", name="Enviar resultado").click()
    pair_a.wait_for_selector("#t-receipt")
    pair_b = new_phone()
    pair_b.goto(f"{live_server.url}/mesa/{first.token}/")
    pair_b.get_by_role("button", name="Confirmar (pareja B)").click()
    pair_b.wait_for_selector("#t-confirmed")
    # Table 2: the organizer enters it (the desk's own result page does the same).
    results.match_result_submit(
        match=second,
        side="organizer",
        payload={"games": [{"stones": [10, 40]}] * 3},
        idempotency_key="night-2",
        version=0,
        via="account",
        actor=league.created_by,
    )

    public = new_phone()
    url = f"{live_server.url}/ligas/{league.club.slug}/{league.slug}/"
    size = transferred(public, url)
    assert size < BUDGET, f"league page: {size} bytes"
    rows = public.locator("table.lg-standings tbody tr")
    expect(rows).to_have_count(4)
    first.refresh_from_db()
    winner = str(first.entry_a.pair)
    top_two = rows.locator(".nm").all_inner_texts()[:2]
    assert any(winner in text for text in top_two)
    assert no_sideways_scroll(public)
    screenshot(public, "league-standings")
    size = transferred(public, url + "jornadas/1/")
    assert size < BUDGET, f"jornada page: {size} bytes"
    expect(public.locator(".tbl")).to_have_count(2)

    player = first.entry_a.pair.player_one
    size = transferred(public, f"{live_server.url}/jugadores/{player.pk}/")
    assert size < BUDGET, f"player page: {size} bytes"
    expect(public.locator("h1")).to_have_text(str(player))
    expect(public.locator("ol.rt-matches > li")).to_have_count(1)
    expect(public.locator("ol.rt-matches")).to_contain_text("Liga de los jueves")
    assert re.search(r"Ganada", public.locator("ol.rt-matches").inner_text())
    screenshot(public, "league-player")
