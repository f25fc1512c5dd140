"""The prizes across phases through the API: declared with the tournament (create and update),
a wrong prize answered with the error body naming it, and GET …/prizes: the prizes declared,
the winners once the tournament finished, who may read them."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import tournament_field
from tests.tournaments.test_prizes import play_phase
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
WORST = {"name": "Premio a la peor pareja", "kind": "fewest", "tiebreaks": ["stone_difference"]}


def client_for(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def test_a_tournament_is_created_with_its_prizes_and_shows_them():
    t, organizer, _ = tournament_field(2)
    response = client_for(organizer).post(
        f"{API}/tournaments/create",
        {
            "club": t.club.slug,
            "name": "Torneo de Navidad",
            "starts_on": "2026-12-20",
            "prizes": [WORST, {"name": "Regularidad", "kind": "most", "phases": [1, 2]}],
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    prizes = response.json()["prizes"]
    assert prizes[0] == {
        "name": "Premio a la peor pareja",
        "kind": "fewest",
        "measure": "won",
        "phases": [],
        "tiebreaks": ["stone_difference"],
        "ties": "shared",
    }
    assert prizes[1]["phases"] == [1, 2]


@pytest.mark.parametrize(
    ("prize", "code", "words"),
    [
        ({"name": "Peor", "kind": "worst"}, "prize_kind", "Prize 2 has kind 'worst'"),
        ({"name": "Peor", "kind": "fewest", "phases": [0]}, "prize_phases", "by their order"),
        ({"name": "Peor", "kind": "fewest", "ganadores": 2}, "prize_key", "'ganadores'"),
    ],
)
def test_a_wrong_prize_is_a_400_naming_it(prize, code, words):
    t, organizer, _ = tournament_field(2)
    response = client_for(organizer).post(
        f"{API}/tournaments/{t.pk}/update",
        {"prizes": [WORST, prize]},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["params"]["prize"] == 2
    assert words in error["message"]
    t.refresh_from_db()
    assert t.prizes == []


def test_a_prizes_phases_must_be_a_list_of_numbers():
    t, organizer, _ = tournament_field(2)
    response = client_for(organizer).post(
        f"{API}/tournaments/{t.pk}/update",
        {"prizes": [{"name": "Peor", "kind": "fewest", "phases": "1-2"}]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "prizes" in response.json()["error"]["fields"]


def test_the_prizes_endpoint_shows_the_winners_once_finished():
    t, organizer, _ = tournament_field(4, is_public=True)
    client = client_for(organizer)
    client.post(
        f"{API}/tournaments/{t.pk}/update", {"prizes": [WORST]}, content_type="application/json"
    )
    client.post(f"{API}/tournaments/{t.pk}/status", {"status": "running"}, "application/json")
    play_phase(Tournament.objects.get(pk=t.pk), organizer, "Suizo", 1)

    body = client_for().get(f"{API}/tournaments/{t.pk}/prizes").json()
    assert body["status"] == "running" and body["awards"] == [] and body["awarded_at"] is None
    assert [p["name"] for p in body["prizes"]] == ["Premio a la peor pareja"]

    response = client.post(
        f"{API}/tournaments/{t.pk}/status", {"status": "finished"}, "application/json"
    )
    assert response.status_code == 200, response.content

    body = client_for().get(f"{API}/tournaments/{t.pk}/prizes").json()
    (award,) = body["awards"]
    assert award["name"] == "Premio a la peor pareja" and award["value"] == 0
    assert len(award["winners"]) in (1, 2) and award["winners"][0]["players"]
    assert body["awarded_at"] is not None


def test_a_private_tournaments_prizes_do_not_exist_for_others():
    t, organizer, _ = tournament_field(2, is_public=False)
    response = client_for().get(f"{API}/tournaments/{t.pk}/prizes")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "tournament_not_found"
    assert client_for(organizer).get(f"{API}/tournaments/{t.pk}/prizes").status_code == 200
