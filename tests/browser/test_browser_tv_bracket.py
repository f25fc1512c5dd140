"""The bracket on the venue's TV (1920×1080) shows every name whole and uses the screen.

The rounds share the width of the bracket's slide, and a name takes two lines when the slide
has the height (beside the mesas, or alone): names were cut after a dozen letters while a third
of the screen stayed empty. A slot still to be decided by a known match says so ("Ganador de
1-1"): its "A o B", cut to fit one line, read as a pair already through. Its muted text keeps
AA contrast on the dark boxes (axe-core).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_browser_a11y import violations
from tests.browser.test_browser_tv import _running
from tests.factories import PlayerFactory
from tournaments.web.public import screen as public

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1920, "height": 1080}

#: every slot of the bracket whose text is cut, and how wide the bracket is drawn
MEASURE = """root => {
  const cut = [];
  for (const slot of root.querySelectorAll('.slot')) {
    const text = slot.querySelector('span') || slot;
    if (text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1) {
      cut.push(slot.textContent.trim());
    }
  }
  const right = Math.max(...[...root.querySelectorAll('.bm')].map(
    b => b.getBoundingClientRect().right));
  const slide = root.getBoundingClientRect();
  return {cut, used: (right - slide.left) / slide.width,
          placeholders: [...root.querySelectorAll('.slot.ph')].map(s => s.textContent.trim())};
}"""


@pytest.fixture
def tv(browser):
    context = browser.new_context(viewport=TV, locale="es-ES")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.mark.parametrize("fmt, pairs", [("single_elimination", 8), ("double_elimination", 16)])
def test_the_tv_bracket_shows_whole_names_across_the_screen(
    tv, live_server, screenshot, monkeypatch, fmt, pairs
):
    monkeypatch.setattr(public, "SCREEN_SLIDE_SECONDS", 3)
    # names of the same length whatever ran before (the factory's counter reaches five digits
    # in the whole suite: "Jugador10196 García / Jugador10197 García" is another test)
    PlayerFactory.reset_sequence(100)
    t = _running(pairs, fmt)
    tv.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    bracket = tv.locator(".sc-bracket")
    expect(bracket).to_be_visible(timeout=15_000)
    found = bracket.evaluate(MEASURE)
    screenshot(tv, f"tv-bracket-{fmt}")
    assert not found["cut"], found["cut"]
    assert found["used"] > 0.9, found["used"]  # the rounds reach across the bracket's slide
    # a slot not yet decided never reads like a pair's name
    assert found["placeholders"]
    for text in found["placeholders"]:
        assert text.startswith(("Ganador de", "Perdedor de", "pase directo")), text
    contrast = [v for v in violations(tv) if v.startswith("color-contrast")]
    assert not contrast, contrast
