"""Accessibility of the main pages, checked by axe-core in Chromium on a phone (390×844): no
serious or critical violation (a control without a name, text without enough contrast, a page
without its language, a landmark or a heading out of order…), so that a screen reader reads every
control in the page's language: on a Basque or French page, no control is named by a Spanish
text of the catalogue that the language writes differently, and no control of the header
covers another (longer words wrap).

axe-core comes packaged in the axe-playwright-python wheel (a dev dependency) and is injected into
the page under test: no CDN, no network. Pages: home, login, the public tournament, standings,
bracket, round and pair pages, the table (its page and the anotador's hands pad), the organizer's
home, desk, entries, round and board, a peña's ranking and a player's page, each in Spanish,
Basque and French (tests/browser/test_browser_languages.py walks the table and the standings in
all four languages from the language menu).
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.urls import reverse

from scripts import catalogs
from seasons.ratings.services import ratings_rebuild
from tests.browser.test_browser_layout import log_in
from tests.browser.test_browser_public import decide, pick, swiss_in_play, tournament
from tournaments.models import Match, Round
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: the impacts that fail a page; axe's "moderate" and "minor" are advice
FAILING = {"serious", "critical"}
AXE = Axe()


#: every name a screen reader reads for the page's controls: their label, aria-label, text,
#: value, title and placeholder
CONTROL_NAMES = """
() => {
  const names = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [aria-label]';
  for (const el of document.querySelectorAll(controls)) {
    if (el.closest('template')) continue;
    const found = [el.getAttribute('aria-label'), el.title, el.placeholder,
      // an input's value names it only on a button; a radio's or a field's value is data
      el.tagName === 'INPUT' ? (/^(submit|button|reset)$/.test(el.type) ? el.value : '')
        : el.innerText];
    for (const label of el.labels || []) found.push(label.innerText);
    for (const id of (el.getAttribute('aria-labelledby') || '').split(' ')) {
      const by = id && document.getElementById(id);
      if (by) found.push(by.innerText);
    }
    for (const name of found) if (name && name.trim()) names.push(name.trim());
  }
  return names;
}
"""


def untranslated(language: str) -> set[str]:
    """The Spanish texts of the pages that ``language`` writes differently (a control named by
    one of them on a page in ``language`` was left in Spanish)."""
    if language == "es":
        return set()
    entries = catalogs.read_po(catalogs.page_catalogue(language))
    return {
        e.msgid
        for e in entries[1:]
        if e.msgid_plural is None
        and not catalogs.PLACEHOLDER.search(e.msgid)
        and e.msgstr.get(0, e.msgid) != e.msgid
    }


#: the header's links, buttons and menu whose text spills out of their box or that overlap one
#: another (a longer language's words must wrap, never run over the brand)
OVERLAPS = """
() => {
  const shown = [...document.querySelectorAll(
    '.site-header a, .site-header button, .site-header select')]
    .filter(el => el.offsetParent !== null && !el.hidden);
  const found = shown.filter(el => el.scrollWidth > el.clientWidth + 1)
    .map(el => `${(el.innerText || el.tagName).trim()} spills out`);
  const boxes = shown.map(el => [el.innerText || el.tagName, el.getBoundingClientRect()]);
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
    const apart = r.right <= s.left + 1 || s.right <= r.left + 1
      || r.bottom <= s.top + 1 || s.bottom <= r.top + 1;
    if (!apart) found.push(`${a.trim()} / ${b.trim()}`);
  }));
  return found;
}
"""


def violations(page) -> list[str]:
    """axe's serious and critical violations on ``page``, one line each with where they are."""
    results = AXE.run(page).response
    found = []
    for v in results["violations"]:
        if v["impact"] not in FAILING:
            continue
        where = [", ".join(node["target"]) for node in v["nodes"][:4]]
        found.append(f"{v['id']} ({v['impact']}): {v['help']} at {where}")
    return found


def check(page, url: str, name: str, screenshot, language: str = "es") -> list[str]:
    """axe's serious problems of the page at ``url``, and each control named in Spanish on a
    page in another language."""
    response = page.goto(url)
    assert response is not None and response.ok, (
        f"{name}: {url} answered {response and response.status}"
    )
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == language, name
    screenshot(page, f"a11y-{language}-{name}")
    problems = violations(page)
    spanish = untranslated(language) & set(page.evaluate(CONTROL_NAMES))
    if spanish:
        problems.append(f"controls named in Spanish: {sorted(spanish)}")
    if overlaps := page.evaluate(OVERLAPS):
        problems.append(f"header controls spill or overlap: {overlaps}")
    return [f"{name} ({language}): {problem}" for problem in problems]


def main_pages(live_server) -> tuple[dict[str, str], dict[str, str], object]:
    """(public pages, organizer pages, organizer) of a Swiss in play with ratings computed."""
    t, phase, entries, current, organizer = swiss_in_play(8)
    ratings_rebuild()
    public = f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/"
    table = current.matches.filter(status=Match.Status.PENDING).order_by("table_number").first()
    link = f"{live_server.url}/mesa/{table.token}/"
    player = entries[0].pair.player_one
    desk = f"{live_server.url}/organizador/"
    return (
        {
            "home": f"{live_server.url}/",
            "login": live_server.url + reverse("login"),
            "public-tournament": public,
            "public-standings": public + "clasificacion/",
            "public-round": f"{public}rondas/{current.pk}/",
            "public-pair": f"{public}parejas/{entries[0].pk}/",
            "table": link,
            "table-anotador": link + "anotador/",
            "ranking": f"{live_server.url}/penas/{t.club.slug}/ranking/",
            "player": f"{live_server.url}/jugadores/{player.pk}/",
        },
        {
            "organizer-home": desk,
            "organizer-desk": f"{desk}torneos/{t.pk}/",
            "organizer-entries": f"{desk}torneos/{t.pk}/parejas",
            "organizer-round": f"{desk}rondas/{current.pk}/",
            "organizer-board": f"{desk}rondas/{current.pk}/tablero",
        },
        organizer,
    )


@pytest.mark.parametrize("language", ["es", "eu", "fr"])
def test_the_main_pages_have_no_serious_accessibility_violation(
    phone, live_server, screenshot, language
):
    public, organizer_pages, organizer = main_pages(live_server)
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    problems = []
    for name, url in public.items():
        problems += check(phone, url, name, screenshot, language)
    log_in(phone, live_server, organizer)
    for name, url in organizer_pages.items():
        problems += check(phone, url, name, screenshot, language)
    assert not problems, "\n".join(problems)


def test_the_bracket_has_no_serious_accessibility_violation(phone, live_server, screenshot):
    t, organizer, entries = tournament(8)
    phase = phase_create(
        tournament=t, actor=organizer, name="Cuadro", format="single_elimination", third_place=True
    )
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    for m in first.matches.all():
        decide(m, pick(entries)(m))
    bracket_advance(phase=phase)
    round_close(round=first, actor=organizer)
    round_publish(round=Round.objects.get(phase=phase, number=2), actor=organizer)
    url = f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/cuadro/"
    problems = check(phone, url, "public-bracket", screenshot)
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_control_without_a_name(phone, live_server):
    # The same run on a page with a nameless button and a field without a label fails.
    phone.goto(live_server.url + reverse("login"))
    phone.evaluate(
        """() => {
        const main = document.querySelector('main');
        main.insertAdjacentHTML('beforeend', '<button type="button"></button><input id="x">');
    }"""
    )
    found = violations(phone)
    assert any(line.startswith("button-name (critical)") for line in found), found
    assert any(line.startswith("label (critical)") for line in found), found
