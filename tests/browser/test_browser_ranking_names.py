"""A peña's ranking on a phone (390×844) shows its players' names whole, in every language:
the heads of the number columns are short (Val., Pts., as PJ and PG are), so the name column
keeps the width; it was squeezed to five letters and an ellipsis ("Jugado r0…").
"""

from __future__ import annotations

import pytest

from seasons.ratings.services import ratings_rebuild
from tests.seasons.ratings.ratings_data import season

pytestmark = pytest.mark.django_db(transaction=True)

#: the names whose link is cut (more than its two lines), and the narrowest name cell
CUT = """() => {
  const links = [...document.querySelectorAll('table.rt-ranking .nm a')];
  return {
    cut: links.filter(a => a.scrollHeight > a.clientHeight + 1
                        || a.scrollWidth > a.clientWidth + 1).map(a => a.textContent),
    narrowest: Math.min(...links.map(a => a.getBoundingClientRect().width)),
    count: links.length,
  };
}"""


@pytest.mark.parametrize("language", ["es", "eu", "fr"])
def test_the_rankings_names_are_whole_on_a_phone(phone, live_server, screenshot, language):
    tournament, _ = season(rounds=2, pairs=8, seed=5)
    ratings_rebuild()
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/penas/{tournament.club.slug}/ranking/")
    found = phone.evaluate(CUT)
    screenshot(phone, f"ratings-ranking-{language}")
    assert found["count"] == 16
    assert not found["cut"], found
    assert found["narrowest"] > 120, found  # "Jugador12 García" on one line
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
