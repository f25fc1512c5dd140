"""The anotador of a table of trios through the Django test client: six seats with their chip
rows, the betting pad by side ("Órdago · no quiero" included), hands posted from the form and
scored with the trios form, the history in trios' words, and the lance-points mode offered only
when the engine reads lance points for trios."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import MatchFactory, PlayerFactory, TournamentFactory
from tournaments.models import HandEntry, Match, Tournament
from tournaments.selectors.results import match_running_score
from tournaments.web.table import _points_mode

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING, entrant_kind=Tournament.EntrantKind.TRIOS
    )
    match = MatchFactory(round__phase__tournament=tournament, table_number=4)
    for entry, name in ((match.entry_a, "Eneko"), (match.entry_b, "Itziar")):
        entry.player_three = PlayerFactory(first_name=name, last_name="Tercero")
        entry.save()
    return match


def hands_url(match: Match) -> str:
    return reverse("web:table-hands", kwargs={"token": match.token})


def test_the_anotador_of_a_trios_table_has_six_seats_and_a_pad_by_trio(client, match):
    page = client.get(hands_url(match)).content.decode()
    for seat in range(6):
        assert page.count(f'name="pares_{seat}"') == 4 and page.count(f'name="juego_{seat}"') == 5
    assert 'name="pares_6"' not in page
    assert 'data-position="A3"' in page and 'data-position="B3"' in page
    assert "Eneko Tercero" in page and "Itziar Tercero" in page
    assert "el trío A es mano y el B, postre" in page
    assert "Trío A" in page and 'data-act="órdago no"' in page
    assert "Órdago · no quiero" in page


def test_the_quick_entry_of_a_trios_table_names_the_trios(client, match):
    page = client.get(reverse("web:table", kwargs={"token": match.token})).content.decode()
    assert "¿Qué trío sois?" in page and "Trío B" in page
    assert "t-seats t-six" in page and "Itziar Tercero" in page


def test_a_trios_hand_posted_from_the_pad_is_scored_for_six_seats(client, match):
    form = {
        "mano": "A1",
        "idempotency_key": "h1",
        "version": "0",
        "bets_grande": "A: órdago, B: no quiero",  # the one-tap chip writes this
        "win_chica": "B",
        "pares_0": "duples",
        "pares_3": "par",
        "juego_4": "31",
    }
    response = client.post(hands_url(match), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = HandEntry.objects.get(match=match).payload
    assert len(hand["declarations"]["pares"]) == 6
    assert hand["bets"]["grande"] == ["mano: órdago", "postre: no quiero"]
    state = match_running_score(match=match).state
    # grande: deje of 1 to A; chica 1 to B; pares: duples (3) to A's side, which also has the
    # best; juego: only A (31, 3)
    assert state.stones == (1 + 3 + 3, 1)
    page = client.get(hands_url(match)).content.decode()
    assert "Mano n.º 2" in page and "Es mano <strong>" in page and "(B1)" in page


def test_a_trios_hand_with_a_mistake_keeps_what_was_typed_and_stores_nothing(client, match):
    form = {"mano": "A1", "idempotency_key": "h1", "version": "0", "pares_5": "par"}
    response = client.post(hands_url(match), form)  # grande's winner was never said
    assert response.status_code == 400
    page = response.content.decode()
    assert "grande" in page.lower() and 'name="pares_5" value="par" checked' in page
    assert not HandEntry.objects.filter(match=match).exists()


def test_lance_points_are_offered_for_trios_only_when_the_engine_reads_them(client, match):
    page = client.get(hands_url(match)).content.decode()
    offered = _points_mode({"form": "trios", "players": 6})
    assert ('id="t-points"' in page) is offered
    assert _points_mode({"kings": 8}) is True


def test_a_punto_written_for_some_of_the_six_only_is_refused_in_trios_words(client, match):
    form = {
        "mano": "A1",
        "idempotency_key": "h1",
        "version": "0",
        "win_grande": "A",
        "win_chica": "B",
        **{f"punto_{seat}": "30" for seat in range(4)},
    }
    response = client.post(hands_url(match), form)
    assert response.status_code == 400
    assert "Escribe el punto de los seis jugadores" in response.content.decode()
    assert not HandEntry.objects.filter(match=match).exists()


def test_a_trios_hand_written_as_lance_points_on_the_page_is_scored(client, match):
    assert 'id="t-points"' in client.get(hands_url(match)).content.decode()
    form = {
        "mano": "A1",
        "idempotency_key": "p1",
        "version": "0",
        "mode": "lances",
        "lp_total_A": "0",
        "lp_total_B": "0",  # grande en paso alone gives a stone: no hand ends 0-0
    }
    refused = client.post(hands_url(match), form)
    assert refused.status_code == 400 and not HandEntry.objects.filter(match=match).exists()
    assert 'role="alert"' in refused.content.decode()
    form.update(lp_total_A="5", lp_total_B="1")
    response = client.post(hands_url(match), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert match_running_score(match=match).state.stones == (5, 1)
