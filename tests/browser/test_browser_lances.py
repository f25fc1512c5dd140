"""The anotador's "puntos por lance" mode on a phone (Chromium at 390×844): a hand written as on
paper, the running sum the page shows, an impossible figure refused with the engine's reason
and what was typed kept, and the score the game started from."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import HandEntry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament, table_number=2)


def point(page, lance: str, to: str, how: str, stones: str = "", bonus: str = "") -> None:
    page.locator(f'select[name="lp_{lance}_to"]').select_option(to)
    page.locator(f'select[name="lp_{lance}_how"]').select_option(how)
    if stones:
        page.locator(f'input[name="lp_{lance}_stones"]').fill(stones)
    if bonus:
        page.locator(f'input[name="lp_{lance}_bonus"]').fill(bonus)


def test_a_hand_written_as_on_paper(phone, live_server, match, screenshot):
    phone.goto(f"{live_server.url}/mesa/{match.token}/anotador/")
    phone.locator("#t-points summary").click()
    # the table kept the first hands on paper: 12-20
    phone.locator('input[name="start_A"]').fill("12")
    phone.locator('input[name="start_B"]').fill("20")
    # pair A is mano in the first hand: grande deje 1 to A; chica 5 querido to B; pares B 4;
    # juego A 5 — but the deje is typed wrong first (no refused bet leaves 0)
    point(phone, "grande", "A", "deje", "0")
    point(phone, "chica", "B", "querido", "5")
    point(phone, "pares", "B", "paso", bonus="4")
    point(phone, "juego", "A", "paso", bonus="5")
    expect(phone.locator("#t-points-sum")).to_have_text("Los lances suman: A 5 – B 9")
    phone.get_by_role("button", name="Anotar mano por puntos").click()
    error = phone.locator("#table-errors .t-error")
    error.wait_for()
    assert "Un deje de 0 en grande no puede ser" in error.inner_text()
    assert phone.locator('input[name="lp_grande_stones"]').input_value() == "0"
    assert not HandEntry.objects.filter(match=match).exists()
    screenshot(phone, "table-lances-error")

    phone.locator('input[name="lp_grande_stones"]').fill("1")
    expect(phone.locator("#t-points-sum")).to_have_text("Los lances suman: A 6 – B 9")
    phone.get_by_role("button", name="Anotar mano por puntos").click()
    expect(phone.locator(".t-score")).to_contain_text("18")
    expect(phone.locator(".t-score")).to_contain_text("29")
    assert HandEntry.objects.get(match=match).payload["start"] == {"A": 12, "B": 20}
    screenshot(phone, "table-lances-recorded")
