"""The quick entry's running tally says nothing a game cannot end with (Chromium at 390×844).

Each row is read as the engine reads a game (scoring.match): stones past what a game can end
with, a winner the stones contradict, a winner marked while nobody reached the target, an
órdago game past the target. Such a row says what is wrong and counts for nobody, and the
tally asks for it to be corrected instead of announcing a decided partida ("gana A… Partida
decidida" before).

Rules (tests.factories.TournamentFactory): games to 40 stones (at the most what a record can
hold: RuleSet.max_game_stones), 2 games win the vaca, 1 vaca the match.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import RuleSet
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def row(page, n: int):
    return page.locator(f'.t-game:has(input[name="g{n}_a"])')


def test_an_impossible_game_is_named_and_decides_nothing(phone, live_server, screenshot):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round__phase__tournament=tournament)
    phone.goto(f"{live_server.url}/mesa/{match.token}/")
    tally = phone.locator("#t-tally")
    phone.locator('input[name="g2_a"]').wait_for(state="attached")
    phone.locator('input[name="g1_a"]').fill("40")
    phone.locator('input[name="g1_b"]').fill("12")
    expect(row(phone, 1).locator(".t-game-state")).to_have_text("gana A")

    # a bet has no ceiling: a game ends with what a record can hold at the most
    limit = RuleSet.from_dict(tournament.rule_values()).max_game_stones
    impossible = [
        # (stones A, B, winner marked, órdago, what the row says)
        (str(limit + 1), "10", "Por piedras", False, f"imposible: como mucho se acaba con {limit}"),
        ("45", "10", "Gana B", False, "las piedras dicen que gana A"),
        ("20", "10", "Gana A", False, "nadie llega a 40: si se ganó con órdago, márcalo"),
        ("40", "10", "Gana A", True, "con órdago nadie llega a 40"),
    ]
    for a, b, label, ordago, said in impossible:
        second = row(phone, 2)
        second.locator('input[name="g2_a"]').fill(a)
        second.locator('input[name="g2_b"]').fill(b)
        second.locator("label", has_text=label).click()
        box = second.locator('input[name="g2_o"]')
        if box.is_checked() != ordago:
            second.locator("label", has_text="Órdago").click()
        state = second.locator(".t-game-state")
        expect(state).to_have_text(said)
        expect(tally).to_have_text("El juego 2 no puede acabar así: corrígelo antes de enviar.")
        assert "decidida" not in tally.inner_text()
        assert not state.inner_text().startswith("gana")
        if a == str(limit + 1):
            phone.evaluate("window.scrollTo(0, 0)")
            screenshot(phone, "table-quick-impossible")

    # put right, the same row wins the partida
    second = row(phone, 2)
    second.locator("label", has_text="Órdago").click()
    second.locator("label", has_text="Por piedras").click()
    second.locator('input[name="g2_a"]').fill("40")
    expect(second.locator(".t-game-state")).to_have_text("gana A")
    expect(tally).to_have_text("Partida decidida: gana la pareja A. Revisa y envía.")
