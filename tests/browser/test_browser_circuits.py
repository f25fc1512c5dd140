"""Circuits and interpeñas on a phone (390×844): the public ranking of a circuit, and an
interpeña confirmed from the away organizer's phone and both captains'."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from seasons.circuits.services import (
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from seasons.interpenas.models import Interpena
from seasons.interpenas.services import interpena_board_submit
from tests.factories import MembershipFactory, PairFactory
from tests.seasons.circuits.helpers import GAMES_HOME, fielded, finished_tournament

pytestmark = pytest.mark.django_db(transaction=True)

BUDGET = 60_000


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def test_the_public_ranking_of_a_circuit_on_a_phone(phone, live_server, screenshot, transferred):
    membership = MembershipFactory()
    club = membership.club
    circuit = circuit_create(
        actor=membership.user, club=club, name="Circuito de Navarra", best_results=2
    )
    pairs = [PairFactory(club=club) for _ in range(12)]
    for day in (1, 8, 15):
        tournament = finished_tournament(club, pairs[day % 5 :] + pairs[: day % 5], day=day)
        circuit_tournament_add(actor=membership.user, circuit=circuit, tournament_id=tournament.pk)
    circuit_ranking_refresh(circuit=circuit)

    size = transferred(phone, f"{live_server.url}/circuitos/{circuit.slug}/")
    assert size < BUDGET, f"circuit page: {size} bytes"
    expect(phone.locator("h1")).to_have_text("Circuito de Navarra")
    rows = phone.locator("table.standings tbody tr")
    assert rows.count() == 24
    cells = phone.locator("table.standings tbody tr td:nth-child(3)").all_inner_texts()
    points = [int(t) for t in cells]
    assert points == sorted(points, reverse=True)
    expect(phone.get_by_text("Cuentan los 2 mejores resultados de cada jugador.")).to_be_visible()
    assert no_sideways_scroll(phone)
    screenshot(phone, "circuit-ranking")


def test_an_interpeña_confirmed_from_the_organizers_phones(new_phone, live_server, screenshot):
    interpena, home_org, away_org = fielded(1)
    interpena_board_submit(
        actor=home_org,
        interpena=interpena,
        board=1,
        side="home",
        payload=GAMES_HOME,
        idempotency_key="h",
        version=0,
    )
    url = f"{live_server.url}/interpenas/{interpena.pk}/"
    away = new_phone()
    log_in(away, live_server, away_org)
    away.goto(url)
    away.get_by_role("button", name="Confirmar tablero A").click()
    expect(away.locator("#team-result")).to_contain_text("falta la confirmación de los capitanes")
    away_name, home_name = interpena.away_club.name, interpena.home_club.name
    away.get_by_role("button", name=f"Confirmar el resultado por {away_name}").click()
    expect(away.get_by_text(f"{away_name} ha confirmado el resultado.")).to_be_visible()
    assert no_sideways_scroll(away)

    home = new_phone()
    log_in(home, live_server, home_org)
    home.goto(url)
    home.get_by_role("button", name=f"Confirmar el resultado por {home_name}").click()
    confirmed = "Resultado confirmado por los dos capitanes"
    expect(home.locator("#team-result")).to_contain_text(confirmed)
    expect(home.locator("#team-result")).to_contain_text("1 – 0")
    assert no_sideways_scroll(home)
    screenshot(home, "interpena-confirmed")
    assert Interpena.objects.get().status == Interpena.Status.CONFIRMED
