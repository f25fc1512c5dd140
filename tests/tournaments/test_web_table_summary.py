"""The anotador's summary of the last hand names each lance in the page's language.

The engine names what it counted in its own words: a hand written as its totals alone is one
event of the lance "hand", which the Spanish page showed as such ("A hand: 5 piedras de
tanteo"). The page says "Total de la mano", and the lances of a hand played by its bets are
named as the page names them elsewhere (Grande, Chica…; Handia, Txikia… in Basque).

Rules (tests.factories.TournamentFactory): games to 40 stones, 2 games win the vaca.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament, table_number=3)


def summary(client, match, language: str = "es") -> str:
    page = client.get(
        reverse("web:table-hands", kwargs={"token": match.token}), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    found = re.search(r'<ul class="t-events">(.*?)</ul>', page, re.S)
    assert found, "no summary of the last hand"
    return " ".join(re.sub(r"<[^>]+>", " ", found[1]).split())


def test_a_hand_of_totals_alone_is_summed_up_in_the_pages_words(client, match):
    url = reverse("web:table-hands", kwargs={"token": match.token})
    form = {"mano": "A1", "idempotency_key": "t1", "version": "0", "mode": "lances"}
    response = client.post(url, {**form, "lp_total_A": "5", "lp_total_B": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    text = summary(client, match)
    assert "hand" not in text
    assert text == "A Total de la mano: 5 piedras B Total de la mano: 1 piedra"
    english = summary(client, match, "en")
    assert english == "A Total of the hand: 5 stones B Total of the hand: 1 stone"


def test_the_lances_of_a_hand_are_named_in_the_pages_language(client, match):
    url = reverse("web:table-hands", kwargs={"token": match.token})
    hand = {"mano": "A1", "idempotency_key": "h1", "version": "0", "win_grande": "A"}
    response = client.post(url, {**hand, "win_chica": "B", "win_juego": "A"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert summary(client, match).startswith("A Grande: 1 piedra en paso B Chica:")
    basque = summary(client, match, "eu")
    assert "grande" not in basque.lower() and "chica" not in basque.lower()
