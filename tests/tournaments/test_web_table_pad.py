"""The anotador's page through the Django test client: what the quick pad relies on from the
server (no "—" winner to pick, the chips' values, a start score checked before anything is
stored, why game 2's mano is who it is) and the service worker's URL.

Rules (tests.factories.TournamentFactory): games to 40 stones, 2 games win the vaca.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import HandEntry, Match, Tournament
from tournaments.selectors.results import match_running_score
from tournaments.services import results as svc

pytestmark = pytest.mark.django_db

_DECL = {
    "pares": ["none", "none", "none", "none"],
    "juego": ["none", "none", "none", "none"],
    "winners": {"grande": "mano", "chica": "postre", "punto": "mano"},
}


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament, table_number=3)


def hands_url(match: Match) -> str:
    return reverse("web:table-hands", kwargs={"token": match.token})


def hand_form(**fields) -> dict:
    data = {"mano": "A1", "idempotency_key": "h1", "version": "0", "win_grande": "A"}
    data.update({"win_chica": "B", "win_juego": "A"})
    data.update(fields)
    return data


def test_no_winner_is_chosen_before_somebody_taps_one(client, match):
    page = client.get(hands_url(match)).content.decode()
    assert 'name="win_grande" value=""' not in page  # no "Ganó —" that looks like an answer
    assert 'name="win_grande" value="A" checked' not in page
    assert "¿Quién ganó la grande?" in page and "¿Quién ganó el punto?" in page
    # one chip per answer: pares none/par/medias/duples, juego none/31/32/40/33–37
    assert page.count('name="pares_0"') == 4 and page.count('name="juego_0"') == 5


@pytest.mark.parametrize("start", [("45", "0"), ("40", "0"), ("-1", "3"), ("doce", "0")])
def test_a_start_score_outside_the_game_is_refused_and_nothing_stored(client, match, start):
    response = client.post(hands_url(match), hand_form(start_a=start[0], start_b=start[1]))
    assert response.status_code == 400
    page = response.content.decode()
    assert "no puede empezar el juego con" in page and "de 0 a 39" in page
    assert f'name="start_a" value="{start[0]}"' in page  # what was typed is kept
    assert not HandEntry.objects.filter(match=match).exists()


def test_a_start_score_goes_to_the_hands_service(client, match):
    response = client.post(hands_url(match), hand_form(start_a="12", start_b="20"))
    assert response.status_code == 302
    (entry,) = HandEntry.objects.filter(match=match)
    assert entry.payload["start"] == [12, 20]
    state = match_running_score(match=match).state  # the paper score is where the game began
    assert sum(state.stones) >= 32


def test_a_start_score_is_offered_with_the_first_hand_only(client, match):
    assert 'name="start_a"' in client.get(hands_url(match)).content.decode()
    client.post(hands_url(match), hand_form())
    assert 'name="start_a"' not in client.get(hands_url(match)).content.decode()


def test_a_blank_start_score_is_zero(client, match):
    response = client.post(hands_url(match), hand_form(start_a="", start_b="0"))
    assert response.status_code == 302
    assert HandEntry.objects.filter(match=match).count() == 1


def test_the_page_says_why_game_twos_mano_is_not_the_next_player(client, match):
    plain = {"declarations": _DECL, "bets": {}}
    ordago = {
        "declarations": {**_DECL, "winners": {"grande": "mano"}},  # nothing after the órdago
        "bets": {"grande": ["órdago", "quiero"]},
    }
    # hands 1-3 (mano A1, B1, A2); the órdago of hand 3 ends game 1: A2 was mano, so B2 would
    # be next, but game 2 starts with B1, the player after game 1's first mano (A1)
    for number, hand in enumerate((plain, plain, ordago), start=1):
        svc.match_hand_add(
            match=match, hand=hand, idempotency_key=f"k{number}", version=number - 1, via="link"
        )
    page = client.get(hands_url(match)).content.decode()
    assert 'id="t-why-mano"' in page
    assert "Juego nuevo: es mano" in page and "(B1), no" in page and "(B2)" in page
    assert "siguiente al que empezó el anterior" in page


def test_no_explanation_when_the_mano_is_the_expected_one(client, match):
    page = client.get(hands_url(match)).content.decode()
    assert "t-why-mano" not in page.split('id="t-hand"')[0]


def test_the_service_worker_is_served_from_the_site_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    assert response["Content-Type"].startswith("text/javascript")
