"""A private circuit: its organizers and the members of its peñas see it on the pages and the
API; for everybody else it does not exist (404) and the lists leave it out."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership
from config.errors import Invalid
from seasons.circuits.selectors import circuit_list
from seasons.circuits.services import (
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from tests.factories import MembershipFactory, PairFactory, UserFactory
from tests.seasons.circuits.helpers import finished_tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


def api_for(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def private():
    """A private circuit of one peña with a ranked tournament, and who may see it."""
    membership = MembershipFactory()
    club, organizer = membership.club, membership.user
    circuit = circuit_create(
        actor=organizer, club=club, name="Circuito de la casa", is_public=False
    )
    tournament = finished_tournament(club, [PairFactory(club=club) for _ in range(3)])
    circuit_tournament_add(actor=organizer, circuit=circuit, tournament_id=tournament.pk)
    circuit_ranking_refresh(circuit=circuit)
    member = MembershipFactory(club=club, role=Membership.Role.MEMBER).user
    named = UserFactory()
    circuit.organizers.add(named)
    return circuit, organizer, member, named


def test_a_private_circuit_is_a_404_on_the_api_for_strangers_and_anonymous(private):
    circuit, *_ = private
    for who in (None, UserFactory(), MembershipFactory().user):
        api = api_for(who)
        for path in (f"circuits/{circuit.pk}", f"circuits/{circuit.pk}/ranking"):
            response = api.get(f"{API}/{path}")
            assert response.status_code == 404, (who, path)
            assert response.json()["error"]["code"] == "circuit_id_not_found"
        listed = api.get(f"{API}/circuits").json()
        assert circuit.pk not in [c["id"] for c in listed]
        response = api.post(f"{API}/circuits/{circuit.pk}/update", {"name": "Mío"}, format="json")
        # anonymous writes are refused before any lookup; a stranger finds no circuit
        assert response.status_code == (403 if who is None else 404)


def test_its_organizers_members_and_named_organizers_see_it_on_the_api(private):
    circuit, organizer, member, named = private
    for who in (organizer, member, named):
        api = api_for(who)
        detail = api.get(f"{API}/circuits/{circuit.pk}")
        assert detail.status_code == 200 and detail.json()["is_public"] is False
        assert api.get(f"{API}/circuits/{circuit.pk}/ranking").json()["count"] == 6
        assert circuit.pk in [c["id"] for c in api.get(f"{API}/circuits").json()]
    # a member sees it but does not manage it
    response = api_for(member).post(
        f"{API}/circuits/{circuit.pk}/update", {"name": "Mío"}, format="json"
    )
    assert response.status_code == 403


def test_an_organizer_makes_a_circuit_public_again_through_the_api(private):
    circuit, organizer, *_ = private
    response = api_for(organizer).post(
        f"{API}/circuits/{circuit.pk}/update", {"is_public": True}, format="json"
    )
    assert response.status_code == 200 and response.json()["is_public"] is True
    assert api_for().get(f"{API}/circuits/{circuit.pk}").status_code == 200
    response = api_for(organizer).post(
        f"{API}/circuits/{circuit.pk}/update", {"is_public": "maybe"}, format="json"
    )
    assert response.status_code == 400


def test_the_service_refuses_a_flag_that_is_not_true_or_false():
    membership = MembershipFactory()
    with pytest.raises(Invalid) as caught:
        circuit_create(actor=membership.user, club=membership.club, name="X", is_public="no")
    assert caught.value.code == "circuit_public_flag"


def test_the_pages_hide_a_private_circuit_from_everybody_else(client, private):
    circuit, organizer, member, _ = private
    assert client.get(f"/circuitos/{circuit.slug}/").status_code == 404
    assert "Circuito de la casa" not in client.get("/circuitos/").content.decode()
    client.force_login(UserFactory())
    assert client.get(f"/circuitos/{circuit.slug}/").status_code == 404
    assert client.get(f"/organizador/circuitos/{circuit.slug}/").status_code == 404
    assert "Circuito de la casa" not in client.get("/circuitos/").content.decode()
    client.force_login(member)
    response = client.get(f"/circuitos/{circuit.slug}/")
    assert response.status_code == 200 and "(privado)" in response.content.decode()
    assert "Circuito de la casa" in client.get("/circuitos/").content.decode()
    assert client.get(f"/organizador/circuitos/{circuit.slug}/").status_code == 403


def test_the_management_page_makes_a_circuit_private_and_public(client):
    membership = MembershipFactory()
    circuit = circuit_create(actor=membership.user, club=membership.club, name="Norte")
    client.force_login(membership.user)
    rules = {"action": "rules", "name": "Norte", "points_table": "10, 5"}
    response = client.post(f"/organizador/circuitos/{circuit.slug}/", {**rules, "private": "1"})
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert circuit.is_public is False
    assert list(circuit_list(user=None)) == []
    client.post(f"/organizador/circuitos/{circuit.slug}/", rules)
    circuit.refresh_from_db()
    assert circuit.is_public is True


def test_the_new_circuit_form_creates_a_private_circuit(client):
    membership = MembershipFactory()
    client.force_login(membership.user)
    response = client.post(
        "/organizador/circuitos/nuevo/",
        {"club_id": membership.club_id, "name": "Secreto", "private": "1"},
    )
    assert response.status_code == 302
    assert api_for().get(f"{API}/circuits").json() == []
    client.logout()
    assert client.get("/circuitos/secreto/").status_code == 404
