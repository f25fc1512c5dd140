"""The ratings' pages on a phone (390×844): a peña's ranking, a player's page with the chart
drawn on the server, head to head; each readable, nothing wider than the screen, < 60 KB."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from seasons.ratings.models import RankingRow
from seasons.ratings.services import ratings_rebuild
from tests.seasons.ratings.ratings_data import season

pytestmark = pytest.mark.django_db(transaction=True)

BUDGET = 60_000


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_from_the_ranking_to_a_player_and_head_to_head_on_a_phone(
    phone, live_server, screenshot, transferred
):
    tournament, _ = season(rounds=8, pairs=16, seed=21)
    ratings_rebuild()
    url = f"{live_server.url}/penas/{tournament.club.slug}/ranking/"

    size = transferred(phone, url)
    assert size < BUDGET, f"ranking page: {size} bytes"
    expect(phone.locator("h1")).to_have_text("Ranking de jugadores")
    assert phone.locator("table.standings tbody tr").count() == 32
    assert no_sideways_scroll(phone)
    screenshot(phone, "ratings-ranking")

    phone.get_by_role("link", name="Por puntos").click()
    phone.wait_for_url(re.compile(r"orden=puntos"))
    points = [
        int(t) for t in phone.locator("table.standings tbody tr td:nth-child(4)").all_inner_texts()
    ]
    assert points == sorted(points, reverse=True)

    top = phone.locator("table.standings tbody tr .nm a").first
    name = top.inner_text()
    top.click()
    phone.wait_for_url(re.compile(r"/jugadores/\d+/$"))
    size = transferred(phone, phone.url)
    assert size < BUDGET, f"player page: {size} bytes"
    expect(phone.locator("h1")).to_have_text(name)
    chart = phone.locator("figure.rt-chart svg")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 390
    assert phone.locator("ol.rt-matches > li").count() == 8
    assert no_sideways_scroll(phone)
    screenshot(phone, "ratings-player")

    rival = phone.locator("h2:has-text('Cara a cara') + ul a").first
    rival_name = rival.inner_text()
    rival.click()
    phone.wait_for_url(re.compile(r"/contra/\d+/$"))
    expect(phone.locator("h1")).to_contain_text(rival_name)
    assert phone.locator("ol.rt-matches > li").count() >= 1
    assert no_sideways_scroll(phone)
    screenshot(phone, "ratings-head-to-head")
    assert RankingRow.objects.filter(club=tournament.club).count() == 32
