"""An interpeña's board on a phone (390×844): the button that confirms a board is wholly on the
screen, under its board, and the table needs no sideways scrolling (the button was cut at the
right edge, in the table's last column, behind long peña names).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubs.models import Pair, Player
from seasons.interpenas.services import interpena_board_submit
from tests.browser.test_browser_circuits import log_in
from tests.seasons.circuits.helpers import GAMES_HOME, fielded

pytestmark = pytest.mark.django_db(transaction=True)

#: the button's box and the part of the page a person sees without scrolling sideways
WHERE = """button => {
  const r = button.getBoundingClientRect();
  let seen = {left: 0, right: window.innerWidth};
  for (let el = button.parentElement; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible') {
      const box = el.getBoundingClientRect();
      seen = {left: Math.max(seen.left, box.left), right: Math.min(seen.right, box.right)};
    }
  }
  return {left: r.left, right: r.right, seen, wide: button.scrollWidth > button.clientWidth + 1};
}"""


@pytest.mark.parametrize("language", ["es", "eu", "fr"])
def test_the_board_confirm_button_is_whole_on_a_phone(phone, live_server, screenshot, language):
    interpena, home_org, away_org = fielded(3)
    # a peña's name as long as the demo's, and players with two surnames
    for club, name in (
        (interpena.home_club, "Peña Txoko de Pamplona"),
        (interpena.away_club, "Sociedad Recreativa Lizarra"),
    ):
        club.name = name
        club.save()
    # long names, the same in every run (the factories' numbered names grow with the run: the
    # test measured short names alone and long ones in the whole suite)
    pairs = Pair.objects.filter(club__in=[interpena.home_club, interpena.away_club])
    ids = {pk for pair in pairs for pk in (pair.player_one_id, pair.player_two_id)}
    for number, player in enumerate(Player.objects.filter(pk__in=ids).order_by("pk")):
        player.first_name = ("Iñaki", "Maite")[number % 2]
        player.last_name = "Zubizarretaurkiaga"  # one long word: nowhere to wrap
        player.save()
    interpena_board_submit(
        actor=home_org,
        interpena=interpena,
        board=1,
        side="home",
        payload=GAMES_HOME,
        idempotency_key="h",
        version=0,
    )
    log_in(phone, live_server, away_org)
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/interpenas/{interpena.pk}/")
    button = phone.locator("form.inline button[type=submit]")
    expect(button).to_be_visible()
    box = button.evaluate(WHERE)
    screenshot(phone, f"interpena-board-phone-{language}")
    assert (
        box["seen"]["left"] - 0.5 <= box["left"] and box["right"] <= box["seen"]["right"] + 0.5
    ), box
    assert not box["wide"], box
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # and the whole board with it: both pairs, without scrolling the table sideways
    assert phone.locator(".st-wrap").evaluate("w => w.scrollWidth <= w.clientWidth + 1")
