"""The championships' API through real URLs: create one and give it its shape, read it with
every tournament's progress and qualified pairs, a centre's part, the final's bracket; the one
error body (a refusal of the eligibility rules through the registration API included), who may
call what, and the detail's queries that do not grow with the qualifiers."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seasons.championships.services import tournament_flow
from tests.api.test_api_registration import assert_error
from tests.factories import MembershipFactory, PairFactory, TournamentFactory
from tests.seasons.championships.helpers import finish, qualifier, season

pytestmark = pytest.mark.django_db

API = "/api/v1"
JSON = "application/json"


def client_of(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def post(client, path: str, body: dict):
    return client.post(f"{API}/{path}", body, content_type=JSON)


def test_a_championship_is_built_through_the_api():
    host = MembershipFactory()
    centre = MembershipFactory()
    desk = client_of(host.user)
    response = post(
        desk,
        "championships/create",
        {"club_id": host.club.pk, "name": "Campeonato de Bizkaia", "member_changes": 0},
    )
    assert response.status_code == 201, response.content
    body = response.json()
    cid = body["id"]
    assert (body["slug"], body["member_changes"], body["stages"]) == (
        "campeonato-de-bizkaia",
        0,
        [],
    )
    assert post(desk, f"championships/{cid}/centres/add", {"club_id": centre.club.pk, "rank": 1})
    stage = post(
        desk,
        f"championships/{cid}/stages/add",
        {
            "kind": "qualifiers",
            "name": "Clasificatorias",
            "quota_rule": "ranking",
            "quota_table": [3, 2],
            "quota_minimum": 1,
            "deadline": "2026-10-31",
        },
    )
    assert stage.status_code == 201, stage.content
    [qualifiers] = stage.json()["stages"]
    assert (qualifiers["quota_rule"], qualifiers["quota_table"], qualifiers["deadline"]) == (
        "ranking",
        [3, 2],
        "2026-10-31",
    )
    # the centre's organizer adds the centre's qualifier
    own = TournamentFactory(club=centre.club, is_public=True)
    added = post(
        client_of(centre.user),
        f"championships/{cid}/tournaments/add",
        {"stage_id": qualifiers["id"], "tournament_id": own.pk},
    )
    assert added.status_code == 201, added.content
    [stop] = added.json()["stages"][0]["tournaments"]
    assert (stop["tournament_id"], stop["centre_id"], stop["status"]) == (
        own.pk,
        added.json()["centres"][0]["id"],
        "registration",
    )
    assert [c["id"] for c in Client().get(f"{API}/championships").json()] == [cid]


def test_the_same_error_bodies():
    host, stranger = MembershipFactory(), MembershipFactory()
    assert_error(
        post(
            client_of(stranger.user), "championships/create", {"club_id": host.club.pk, "name": "X"}
        ),
        403,
        "not_organizer",
    )
    s = season()
    cid = s.championship.pk
    desk = client_of(s.organizer)
    assert_error(
        post(desk, f"championships/{cid}/stages/add", {"kind": "final", "name": "Otra"}),
        409,
        "championship_stage_after_final",
    )
    assert_error(
        post(desk, f"championships/{cid}/update", {"member_changes": 5}), 400, "championship_number"
    )
    assert_error(
        post(client_of(stranger.user), f"championships/{cid}/update", {"name": "Mío"}),
        403,
        "not_championship_organizer",
    )
    assert_error(post(desk, f"championships/{cid}/update", {"colour": "red"}), 400, "field_unknown")
    assert_error(Client().get(f"{API}/championships/999999"), 404, "championship_id_not_found")
    assert_error(
        Client().get(f"{API}/championships/{cid}/bracket"), 404, "championship_bracket_none"
    )
    s.championship.is_public = False
    s.championship.save()
    assert_error(Client().get(f"{API}/championships/{cid}"), 404, "championship_id_not_found")
    # a centre's members see a private championship
    member = client_of(s.centre_organizers[2])
    assert member.get(f"{API}/championships/{cid}").status_code == 200


def test_an_eligibility_refusal_is_a_409_naming_the_rule_and_the_other_registration():
    s = season()
    q0, e0 = qualifier(s, 0, pairs=2)
    q1, _ = qualifier(s, 1, pairs=0)
    other = PairFactory(club=s.centre(1).club, player_one=e0[1].pair.player_one)
    error = assert_error(
        post(
            client_of(s.centre_organizers[1]),
            f"tournaments/{q1.pk}/entries/register",
            {"pair_id": other.pk},
        ),
        409,
        "championship_one_centre",
    )
    assert error["params"]["rule"] == "one_centre"
    assert error["params"]["other_tournament"] == q0.name
    assert q0.name in error["message"] and s.centre(0).club.name in error["message"]


def test_the_detail_shows_progress_and_qualified_pairs_in_a_fixed_number_of_queries():
    s = season()
    url = f"{API}/championships/{s.championship.pk}"

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = Client().get(url)
        assert response.status_code == 200
        return len(queries)

    tournament, entries = qualifier(s, 0, pairs=4)
    finish(tournament, entries)
    tournament_flow(tournament_id=tournament.pk)
    few = count()
    for n in (1, 2):
        t, e = qualifier(s, n, pairs=5)
        finish(t, e)
        tournament_flow(tournament_id=t.pk)
    assert count() == few
    body = Client().get(url).json()
    qualifiers = body["stages"][0]["tournaments"]
    assert [t["pairs_played"] for t in qualifiers] == [4, 5, 5]
    assert [t["players_played"] for t in qualifiers] == [8, 10, 10]
    first = qualifiers[0]["qualified"][0]
    assert (first["position"], first["place"], first["pair_id"]) == (1, 1, entries[0].pair_id)
    assert first["next_tournament_id"] == s.final.pk
    final = body["stages"][1]["tournaments"][0]
    assert len(final["incoming"]) == 3
    # a centre's part: its qualifier, and the final its pair went to
    centre = Client().get(f"{url}/centres/{s.centre(0).club.slug}").json()
    assert [t["tournament_id"] for st in centre["stages"] for t in st["tournaments"]] == [
        tournament.pk,
        s.final.pk,
    ]
