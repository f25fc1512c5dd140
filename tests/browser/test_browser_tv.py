"""The venue's TV (`.../pantalla/`) at 1920×1080: a round with more mesas than one screenful is
split evenly over pages (19 mesas at 18 a page: 10 + 9, never 18 + 1) shown one after the
other, each page entirely on the screen; during a knockout the TV shows the bracket, with the
bracket's round names. Screenshots go to test-results/screenshots/tv-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import tournament_field
from tournaments.models import Tournament
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.web.public import screen as public

TV = {"width": 1920, "height": 1080}


@pytest.fixture
def tv(browser):
    context = browser.new_context(viewport=TV, locale="es-ES")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _running(pairs: int, fmt: str, **options):
    t, organizer, _ = tournament_field(pairs, tables=pairs // 2, status=Tournament.Status.RUNNING)
    phase = phase_create(tournament=t, actor=organizer, name="Torneo", format=fmt, **options)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return t


BOXES = """els => els.filter(e => e.offsetParent !== null).map(e => {
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
})"""


def _on_screen(page, selector: str) -> None:
    """Every shown element of ``selector`` lies wholly inside the TV's 1920×1080 (measured in
    one go: the pages turn by themselves)."""
    boxes = page.locator(selector).evaluate_all(BOXES)
    assert boxes, f"nothing shown for {selector}"
    for box in boxes:
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= TV["width"] + 1, box
        assert box["y"] + box["height"] <= TV["height"] + 1, box


SHOWN = """root => {
    const pages = [...root.querySelectorAll(".sc-page")];
    return {
        shown: pages.map((p, i) => (p.hidden ? -1 : i)).filter(i => i >= 0),
        number: root.querySelector(".sc-pageno").textContent.trim(),
    };
}"""


@pytest.mark.django_db(transaction=True)
def test_a_full_page_of_mesas_fits_the_screen(tv, live_server, screenshot):
    capacity = public.SCREEN_TABLES_PER_PAGE
    t = _running(2 * capacity, "swiss", rounds_planned=3)
    tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    expect(tv.locator(".sc-page")).to_have_count(1)
    expect(tv.locator(".sc-card")).to_have_count(capacity)
    _on_screen(tv, ".sc-card")
    screenshot(tv, "tv-mesas-full-page")


@pytest.mark.django_db(transaction=True)
def test_one_mesa_more_makes_two_even_pages_each_whole_on_the_screen(
    tv, live_server, screenshot, monkeypatch
):
    monkeypatch.setattr(public, "SCREEN_SLIDE_SECONDS", 3)
    capacity = public.SCREEN_TABLES_PER_PAGE
    t = _running(2 * (capacity + 1), "swiss", rounds_planned=3)
    tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    pages = tv.locator(".sc-page")
    expect(pages).to_have_count(2)
    # never a full page and one mesa alone on the next: half and half
    half = [str(capacity // 2 + 1), str(capacity // 2)]
    assert [p.get_attribute("data-count") for p in pages.all()] == half
    # one page at a time, numbered; each whole on the screen; the other comes by itself
    first = tv.locator("#screen").evaluate(SHOWN)
    assert len(first["shown"]) == 1 and first["number"] == f"{first['shown'][0] + 1}/2"
    _on_screen(tv, ".sc-page:not([hidden]) .sc-card")
    screenshot(tv, f"tv-mesas-page-{first['shown'][0] + 1}")
    other = 1 - first["shown"][0]
    expect(pages.nth(other)).to_be_visible(timeout=15_000)
    second = tv.locator("#screen").evaluate(SHOWN)
    assert second["shown"] == [other] and second["number"] == f"{other + 1}/2"
    _on_screen(tv, ".sc-page:not([hidden]) .sc-card")
    screenshot(tv, f"tv-mesas-page-{other + 1}")


@pytest.mark.django_db(transaction=True)
def test_a_knockout_shows_its_bracket_with_the_bracket_names(
    tv, live_server, screenshot, monkeypatch
):
    monkeypatch.setattr(public, "SCREEN_SLIDE_SECONDS", 4)
    t = _running(8, "single_elimination")
    tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    expect(tv.locator(".sc-round")).to_contain_text("Cuartos de final")
    bracket = tv.locator(".sc-bracket")
    expect(bracket).to_be_visible(timeout=15_000)
    expect(bracket.locator(".br-title")).to_have_text(["Cuartos de final", "Semifinales", "Final"])
    expect(bracket.locator(".bm")).to_have_count(7)
    _on_screen(tv, ".sc-bracket .bm")
    screenshot(tv, "tv-knockout")


@pytest.mark.django_db(transaction=True)
def test_a_double_elimination_bracket_is_scaled_to_fit_the_screen(
    tv, live_server, screenshot, monkeypatch
):
    monkeypatch.setattr(public, "SCREEN_SLIDE_SECONDS", 4)
    t = _running(16, "double_elimination")
    tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    bracket = tv.locator(".sc-bracket")
    expect(bracket).to_be_visible(timeout=15_000)
    expect(bracket.locator(".bracket-block > h3")).to_have_text(
        ["Cuadro de ganadores", "Cuadro de perdedores (repesca)"]
    )
    expect(bracket.locator(".final h3")).to_contain_text(["Gran final"])
    _on_screen(tv, ".sc-bracket .bm, .sc-bracket .final")
    screenshot(tv, "tv-double-elimination")
