"""Layout on a phone (390×844), measured: every link, button, toggle and menu of the main pages
is at least 44×44 px, no text is under 14 px, and at the table the action a person must take
next (pair B's "Confirmar", the note that the other pair has to confirm) is on the first screen.

Main pages: the table (to play, the anotador, a result to confirm, a result sent), the public
tournament, standings, round, pair and bracket, and the organizer's desk, round, board and entries.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.browser.conftest import PHONE
from tests.browser.test_browser_public import (
    decide,
    organizer_result,
    pick,
    swiss_in_play,
    tournament,
)
from tournaments.models import Match, Round
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)

pytestmark = pytest.mark.django_db(transaction=True)

TARGET = 44  # px, WCAG 2.5.5
SMALLEST_TEXT = 14  # px

#: every link and button a thumb can reach (hidden ones and the anotador's template excluded)
TARGETS = "a[href], button, summary, select, input[type=submit], input[type=button], [role=button]"
MEASURE = """
({targets, target, text}) => {
  const shown = el => {
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    return s.visibility !== 'hidden' && s.display !== 'none' && r.width > 0 && r.height > 0
      && !el.closest('[hidden], template');
  };
  const name = el => {
    const words = el.innerText || el.value || el.getAttribute('aria-label') || '';
    return `${el.tagName.toLowerCase()} «${words.trim().slice(0, 30)}»`;
  };
  const small = [], tiny = [];
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < target - 0.5 || r.height < target - 0.5) {
      small.push(`${name(el)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el || !shown(el)) continue;
    if (el.closest('script, style')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < text - 0.01) tiny.push(`${name(el)} ${size}px`);
  }
  return {small, tiny};
}
"""


def check_page(page, screenshot, name: str) -> None:
    found = page.evaluate(MEASURE, {"targets": TARGETS, "target": TARGET, "text": SMALLEST_TEXT})
    screenshot(page, f"layout-{name}")
    assert not found["small"], f"{name}: tap targets under {TARGET} px: {found['small'][:10]}"
    assert not found["tiny"], f"{name}: text under {SMALLEST_TEXT} px: {found['tiny'][:10]}"


def on_first_screen(locator) -> bool:
    """Visible without scrolling: the whole box inside the phone's first screen."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def test_the_main_pages_have_thumb_sized_targets_and_readable_text(
    new_phone, live_server, screenshot
):
    t, phase, entries, current, organizer = swiss_in_play(32)
    public = f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/"
    phone = new_phone()
    pages = {
        "public-tournament": public,
        "public-standings": public + "clasificacion/",
        "public-round": f"{public}rondas/{current.pk}/",
        "public-pairs": public + "parejas/",
        "public-pair": f"{public}parejas/{entries[0].pk}/",
    }
    for name, url in pages.items():
        phone.goto(url)
        check_page(phone, screenshot, name)

    table = current.matches.filter(status=Match.Status.PENDING).order_by("table_number").first()
    link = f"{live_server.url}/mesa/{table.token}/"
    for name, url in (("table", link), ("table-anotador", link + "anotador/")):
        phone.goto(url)
        check_page(phone, screenshot, name)

    log_in(phone, live_server, organizer)
    desk = f"{live_server.url}/organizador/"
    for name, url in (
        ("organizer-home", desk),
        ("organizer-desk", f"{desk}torneos/{t.pk}/"),
        ("organizer-entries", f"{desk}torneos/{t.pk}/parejas"),
        ("organizer-round", f"{desk}rondas/{current.pk}/"),
        ("organizer-board", f"{desk}rondas/{current.pk}/tablero"),
    ):
        phone.goto(url)
        check_page(phone, screenshot, name)


def test_the_next_action_at_the_table_is_on_the_first_screen(new_phone, live_server, screenshot):
    t, phase, entries, current, organizer = swiss_in_play(32)
    table = current.matches.filter(status=Match.Status.PENDING).order_by("table_number").first()
    link = f"{live_server.url}/mesa/{table.token}/"
    pair_a, pair_b = new_phone(), new_phone()

    # pair A sends its three games: the receipt says at once that pair B has to confirm it
    pair_a.goto(link)
    pair_a.locator(".t-who label", has_text="Pareja A").click()
    games = [(40, 36), (37, 40), (40, 39)]
    for n, (a, b) in enumerate(games, start=1):
        pair_a.locator(f'input[name="g{n}_a"]').fill(str(a))
        pair_a.locator(f'input[name="g{n}_b"]').fill(str(b))
    pair_a.get_by_role("button", name="Enviar resultado").click()
    pair_a.wait_for_selector("#t-receipt")
    note = pair_a.locator("#t-receipt .notice")
    assert "Falta que la pareja B lo confirme" in note.inner_text()
    assert on_first_screen(note)
    check_page(pair_a, screenshot, "table-receipt")

    # back on the table's page, pair A's phone waits, and says so first
    pair_a.goto(link)
    waiting = pair_a.locator(".t-waiting")
    assert "Esperando a que la pareja B lo confirme" in waiting.inner_text()
    assert on_first_screen(waiting)
    check_page(pair_a, screenshot, "table-waiting")

    # pair B's phone: the result and its Confirmar on the first screen
    pair_b.goto(link)
    confirm = pair_b.get_by_role("button", name="Confirmar (pareja B)")
    assert on_first_screen(confirm)
    check_page(pair_b, screenshot, "table-confirm")
    confirm.click()
    pair_b.wait_for_selector("#t-confirmed")
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED


def test_the_bracket_has_thumb_sized_targets_and_readable_text(phone, live_server, screenshot):
    t, organizer, entries = tournament(16)
    phase = phase_create(
        tournament=t, actor=organizer, name="Cuadro", format="single_elimination", third_place=True
    )
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    for m in first.matches.all():
        decide(m, pick(entries)(m))
    bracket_advance(phase=phase)
    round_close(round=first, actor=organizer)
    second = Round.objects.get(phase=phase, number=2)
    round_publish(round=second, actor=organizer)
    quarter = second.matches.order_by("table_number").first()
    organizer_result(quarter, organizer, [(40, 12), (40, 38)], "layout-bracket")

    phone.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/cuadro/")
    check_page(phone, screenshot, "public-bracket")
