"""The circuits' and interpeñas' pages: public ranking and match (small on a phone, a fixed
number of queries), the organizers' forms, and the English pages."""

from __future__ import annotations

import pytest

from seasons.circuits.services import (
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from seasons.interpenas.models import Interpena
from seasons.interpenas.services import interpena_board_submit
from tests.factories import MembershipFactory, PairFactory, UserFactory
from tests.seasons.circuits.helpers import GAMES_HOME, fielded, finished_tournament, two_peñas

pytestmark = pytest.mark.django_db

PHONE_BUDGET = 60 * 1024


def _circuit(pairs: int):
    membership = MembershipFactory()
    circuit = circuit_create(actor=membership.user, club=membership.club, name="Circuito Norte")
    tournament = finished_tournament(
        membership.club, [PairFactory(club=membership.club) for _ in range(pairs)]
    )
    circuit_tournament_add(actor=membership.user, circuit=circuit, tournament_id=tournament.pk)
    circuit_ranking_refresh(circuit=circuit)
    return circuit, membership.user


@pytest.mark.parametrize("pairs", [3, 50])
def test_the_public_ranking_is_small_and_costs_the_same_queries(
    client, pairs, django_assert_max_num_queries
):
    circuit, _ = _circuit(pairs)
    with django_assert_max_num_queries(8):
        response = client.get(f"/circuitos/{circuit.slug}/")
    assert response.status_code == 200
    assert len(response.content) < PHONE_BUDGET
    text = response.content.decode()
    assert "Circuito Norte" in text and "Puntos por puesto final" in text
    assert client.get(f"/circuitos/{circuit.slug}/?pagina=0").status_code == 400
    assert client.get("/circuitos/nada/").status_code == 404


def test_the_ranking_in_english(client):
    circuit, _ = _circuit(2)
    response = client.get(f"/circuitos/{circuit.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Points per final place" in response.content.decode()


def test_only_its_organizers_open_the_circuits_management_page(client):
    circuit, organizer = _circuit(2)
    client.force_login(UserFactory())
    assert client.get(f"/organizador/circuitos/{circuit.slug}/").status_code == 403
    client.force_login(organizer)
    response = client.post(
        f"/organizador/circuitos/{circuit.slug}/",
        {"action": "rules", "name": "Circuito Norte", "points_table": "50, 60"},
    )
    assert response.status_code == 400
    assert "nunca más que el puesto de arriba" in response.content.decode()
    response = client.post(
        f"/organizador/circuitos/{circuit.slug}/",
        {
            "action": "rules",
            "name": "Circuito Norte",
            "points_table": "50, 40",
            "tiebreaks": "played",
        },
    )
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert circuit.points_table == [50, 40] and circuit.tiebreaks == ["played"]


def test_an_organizer_creates_a_circuit_from_the_form(client):
    membership = MembershipFactory()
    client.force_login(membership.user)
    response = client.post(
        "/organizador/circuitos/nuevo/", {"club_id": membership.club_id, "name": "Ribera"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/ribera/")


def test_the_interpeña_page_shows_line_up_forms_only_to_each_side(client):
    interpena, home_org, away_org, home_pairs, _ = two_peñas(2)
    url = f"/interpenas/{interpena.pk}/"
    assert "Alineación de" not in client.get(url).content.decode()
    client.force_login(home_org)
    text = client.get(url).content.decode()
    assert f"Alineación de {interpena.home_club.name}" in text
    assert f"Alineación de {interpena.away_club.name}" not in text
    response = client.post(
        url, {"action": "lineup", "side": "home", "pair": [p.pk for p in home_pairs]}
    )
    assert response.status_code == 302
    response = client.post(url, {"action": "lineup", "side": "away", "pair": ["1"]})
    assert response.status_code == 403 or "organizadores" in response.content.decode()


def test_an_organizer_confirms_a_board_and_the_captains_the_team_result(
    client, django_assert_max_num_queries
):
    interpena, home_org, away_org = fielded(1)
    interpena_board_submit(
        actor=home_org,
        interpena=interpena,
        board=1,
        side="home",
        payload=GAMES_HOME,
        idempotency_key="h",
        version=0,
    )
    url = f"/interpenas/{interpena.pk}/"
    client.force_login(away_org)
    text = client.get(url).content.decode()
    assert "Confirmar tablero A" in text
    version = interpena.board_rows.get().match.version
    client.post(url, {"action": "board", "side": "away", "board": "1", "version": version})
    for user, side in ((home_org, "home"), (away_org, "away")):
        client.force_login(user)
        page = client.get(url)
        signature = page.context["result_version"]
        assert (
            client.post(
                url, {"action": "team", "side": side, "result_version": signature}
            ).status_code
            == 302
        )
    assert Interpena.objects.get().status == Interpena.Status.CONFIRMED
    client.logout()
    with django_assert_max_num_queries(12):
        response = client.get(url)
    assert "Resultado confirmado por los dos capitanes" in response.content.decode()
    assert len(response.content) < PHONE_BUDGET


def test_an_organizer_creates_an_interpeña_from_the_form(client):
    home, away = MembershipFactory(), MembershipFactory()
    client.force_login(home.user)
    assert "Nuevo interpeñas" in client.get("/interpenas/").content.decode()
    form = {"home_club_id": home.club_id, "away_club_id": away.club_id, "boards": "3"}
    response = client.post("/organizador/interpenas/nuevo/", {**form, "played_on": "mañana"})
    assert response.status_code == 400 and "AAAA-MM-DD" in response.content.decode()
    response = client.post("/organizador/interpenas/nuevo/", {**form, "played_on": "2026-12-19"})
    assert response.status_code == 302
    interpena = Interpena.objects.get()
    assert (interpena.boards, interpena.away_club_id) == (3, away.club_id)
