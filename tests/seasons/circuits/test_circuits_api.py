"""The circuits' and interpeñas' API through real URLs: status codes, error bodies, who may
write, and a ranking page whose query count does not grow with its length."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from seasons.circuits.services import circuit_ranking_refresh
from tests.factories import MembershipFactory, PairFactory, UserFactory
from tests.seasons.circuits.helpers import GAMES_HOME, finished_tournament, two_peñas

pytestmark = pytest.mark.django_db

API = "/api/v1"


def client_for(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code and body["status"] == status and body["message"]
    return body


def test_an_organizer_makes_a_circuit_adds_tournaments_and_anyone_reads_its_ranking(
    django_capture_on_commit_callbacks,
):
    membership = MembershipFactory()
    club, organizer = membership.club, membership.user
    api = client_for(organizer)
    response = api.post(
        f"{API}/circuits/create",
        {"club_id": club.pk, "name": "Circuito de verano", "points_table": [10, 8, 6]},
        format="json",
    )
    assert response.status_code == 201, response.content
    circuit = response.json()
    pairs = [PairFactory(club=club) for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        for day in (1, 2):
            tournament = finished_tournament(club, pairs, day=day)
            response = api.post(
                f"{API}/circuits/{circuit['id']}/tournaments/add",
                {"tournament_id": tournament.pk},
                format="json",
            )
            assert response.status_code == 200, response.content
    ranking = client_for().get(f"{API}/circuits/{circuit['id']}/ranking").json()
    assert ranking["count"] == 8
    first = ranking["results"][0]
    assert first["points"] == 20 and first["position"] == 1
    assert {r["counted"] for r in first["results"]} == {True}
    error(
        client_for().get(f"{API}/circuits/{circuit['id']}/ranking?page=x"),
        400,
        "circuit_page_invalid",
    )


def test_nobody_else_writes_and_bad_input_is_a_clear_400():
    membership = MembershipFactory()
    api = client_for(membership.user)
    circuit = api.post(
        f"{API}/circuits/create", {"club_id": membership.club_id, "name": "C"}, format="json"
    ).json()
    stranger = client_for(UserFactory())
    error(
        stranger.post(f"{API}/circuits/{circuit['id']}/update", {"name": "Mío"}, format="json"),
        403,
        "not_circuit_organizer",
    )
    error(
        api.post(f"{API}/circuits/{circuit['id']}/update", {"points_table": [1, 5]}, format="json"),
        400,
        "circuit_points_order",
    )
    error(
        api.post(
            f"{API}/circuits/create", {"club_id": membership.club_id, "name": "C"}, format="json"
        ),
        409,
        "circuit_slug_taken",
    )
    error(client_for().get(f"{API}/circuits/999999"), 404, "circuit_id_not_found")


def test_the_ranking_page_costs_the_same_queries_whatever_its_length(
    django_assert_max_num_queries,
):
    membership = MembershipFactory()
    api = client_for(membership.user)
    circuit = api.post(
        f"{API}/circuits/create", {"club_id": membership.club_id, "name": "C"}, format="json"
    ).json()
    from seasons.circuits.models import Circuit
    from seasons.circuits.services import circuit_tournament_add

    model = Circuit.objects.get(pk=circuit["id"])
    tournament = finished_tournament(
        membership.club, [PairFactory(club=membership.club) for _ in range(40)]
    )
    circuit_tournament_add(actor=membership.user, circuit=model, tournament_id=tournament.pk)
    circuit_ranking_refresh(circuit=model)
    with django_assert_max_num_queries(4):
        response = client_for().get(f"{API}/circuits/{circuit['id']}/ranking")
    assert response.json()["count"] == 80


def test_an_interpeña_through_the_api_from_line_ups_to_the_captains():
    interpena, home_org, away_org, home_pairs, away_pairs = two_peñas(1)
    home, away = client_for(home_org), client_for(away_org)
    url = f"{API}/interpenas/{interpena.pk}"
    error(
        away.post(f"{url}/lineup", {"side": "home", "pair_ids": [home_pairs[0].pk]}, format="json"),
        403,
        "not_organizer",
    )
    response = home.post(
        f"{url}/lineup", {"side": "home", "pair_ids": [home_pairs[0].pk]}, format="json"
    )
    assert response.json()["status"] == "lineups"
    body = away.post(
        f"{url}/lineup", {"side": "away", "pair_ids": [away_pairs[0].pk]}, format="json"
    ).json()
    assert body["status"] == "playing" and body["boards"][0]["board"] == "A"
    body = home.post(
        f"{url}/boards/1/result",
        {"side": "home", "payload": GAMES_HOME, "idempotency_key": "k1", "version": 0},
        format="json",
    ).json()
    version = body["boards"][0]["version"]
    # the board as its JSON names it: its letter (its number, above, is still read)
    body = away.post(
        f"{url}/boards/A/result",
        {"side": "away", "idempotency_key": "k2", "version": version},
        format="json",
    ).json()
    assert body["result"]["complete"] and body["result"]["winner"] == "home"
    seen = body["result"]["result_version"]
    for api, side in ((home, "home"), (away, "away")):
        body = api.post(
            f"{url}/confirm", {"side": side, "result_version": seen}, format="json"
        ).json()
    assert body["status"] == "confirmed"
    assert body["result"]["boards"] == [1, 0] and body["result"]["games"] == [3, 1]
    for board in ("9", "i"):
        error(
            home.post(
                f"{url}/boards/{board}/result",
                {"side": "home", "idempotency_key": "k", "version": 0},
                format="json",
            ),
            404,
            "interpena_board_unknown",
        )


def test_a_private_interpeña_does_not_exist_outside_its_peñas():
    interpena, home_org, *_ = two_peñas(1)
    interpena.is_public = False
    interpena.save()
    error(client_for().get(f"{API}/interpenas/{interpena.pk}"), 404, "interpena_not_found")
    assert client_for(home_org).get(f"{API}/interpenas/{interpena.pk}").status_code == 200
    assert client_for().get(f"{API}/interpenas").json() == []
