"""The anotador's chips and the table's controls fit a phone in every language (Chromium at
390×844): each chip of pares and juego shows its whole word inside its row and the lance's
box, in Spanish, English, Basque and French. The Basque and French pares chips (parea, mediak,
dupleak; paire, brelan, doubles) were cut, and the 33–37 of juego in every language. A row of
four chips (pares) or five (juego) stays on one line.
"""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

#: every chip whose word is cut or which leaves its lance's box, every row on two lines
OVERFLOW = """
() => {
  const wrong = [];
  for (const lance of document.querySelectorAll('.t-lance')) {
    const box = lance.getBoundingClientRect();
    for (const row of lance.querySelectorAll('.t-player')) {
      const chips = row.querySelectorAll('.t-chips label > span:not(.visually-hidden)');
      const tops = new Set([...chips].map((chip) => Math.round(chip.getBoundingClientRect().top)));
      if (tops.size > 1) wrong.push([lance.dataset.lance, row.dataset.position, 'two lines']);
      for (const chip of chips) {
        const r = chip.getBoundingClientRect();
        const word = chip.textContent.trim();
        const where = [lance.dataset.lance, row.dataset.position, word];
        if (chip.scrollWidth > chip.clientWidth + 1) wrong.push([...where, 'word cut']);
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5) wrong.push([...where, 'outside']);
        if (r.right > document.documentElement.clientWidth) wrong.push([...where, 'off screen']);
      }
    }
  }
  return wrong;
}
"""


@pytest.mark.parametrize("language", ["es", "en", "eu", "fr"])
def test_the_chips_of_pares_and_juego_fit_in_every_language(
    phone, live_server, screenshot, language
):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round__phase__tournament=tournament)
    for entry in (match.entry_a, match.entry_b):
        for player in (entry.pair.player_one, entry.pair.player_two):
            player.first_name, player.last_name = "Maximiliano", "Etxeberria-Goikoetxea"
            player.save()
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/mesa/{match.token}/anotador/")
    assert phone.evaluate("document.documentElement.lang") == language
    phone.locator(".t-lance[data-lance='pares'] .t-pad").first.wait_for(state="attached")
    wrong = phone.evaluate(OVERFLOW)
    phone.locator(".t-lance[data-lance='pares']").scroll_into_view_if_needed()
    screenshot(phone, f"table-chips-{language}")
    assert not wrong, wrong
