"""The API of the leagues of peñas: create one, open a jornada, play a fixture through the
interpeñas' endpoints, read the standings; errors have the API's body; a private league is a
404 outside its peñas; reads cost the same queries whatever the league's size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from seasons.leagues.models import TeamFixture
from tests.factories import UserFactory
from tests.seasons.leagues.team_helpers import SUNDAYS, peñas, play, team_league

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def test_the_owner_creates_a_league_of_peñas_and_opens_its_home_fixture():
    teams = peñas(3, boards=2)
    owner = teams[0][1]
    api = client_for(owner)
    answer = api.post(
        f"/api/v1/clubs/{teams[0][0].pk}/team-leagues/create",
        {
            "name": "Liga de peñas del valle",
            "season": "2026-27",
            "club_ids": [c.pk for c, _u, _p in teams],
            "dates": [d.isoformat() for d in SUNDAYS[:3]],
            "boards": 2,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    league = answer.json()
    assert league["points"] == {"win": 3, "draw": 1, "loss": 0, "walkover_loss": 0}
    assert [len(j["fixtures"]) for j in league["jornadas"]] == [1, 1, 1]
    assert all(j["resting_club_id"] for j in league["jornadas"])
    hosting = next(
        j for j in league["jornadas"] if j["fixtures"][0]["home_club_id"] == teams[0][0].pk
    )
    answer = api.post(f"/api/v1/team-leagues/{league['id']}/jornadas/{hosting['number']}/open")
    assert answer.status_code == 200, answer.json()
    opened = next(j for j in answer.json()["jornadas"] if j["number"] == hosting["number"])
    fixture = opened["fixtures"][0]
    assert fixture["state"] == "lineups" and fixture["interpena_id"]
    detail = client_for().get(f"/api/v1/interpenas/{fixture['interpena_id']}")
    assert detail.status_code == 200


def test_standings_and_errors_with_the_api_body():
    league, teams = team_league(4, boards=1)
    first = TeamFixture.objects.filter(jornada__league=league, jornada__number=1).first()
    play(league, teams, first, ["away"])
    public = client_for()
    rows = public.get(f"/api/v1/team-leagues/{league.pk}/standings").json()["rows"]
    assert rows[0]["club_id"] == first.away_club_id and rows[0]["points"] == 3
    assert rows[0]["boards_for"] == 1
    answer = public.get(f"/api/v1/team-leagues/{league.pk}/standings?jornada=x")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "jornada_param"
    answer = public.post(
        f"/api/v1/team-leagues/{league.pk}/fixtures/{first.pk}/decide",
        {"decision": "double_loss"},
        format="json",
    )
    assert answer.status_code in (401, 403)
    owner = client_for(teams[0][1])
    answer = owner.post(
        f"/api/v1/team-leagues/{league.pk}/fixtures/{first.pk}/decide",
        {"decision": "double_loss"},
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "team_fixture_confirmed"
    answer = owner.post(
        f"/api/v1/team-leagues/{league.pk}/fixtures/999999/postpone",
        {"deadline": "2026-12-01"},
        format="json",
    )
    assert answer.status_code == 404
    answer = owner.post(
        f"/api/v1/clubs/{teams[0][0].pk}/team-leagues/create",
        {"name": "X", "season": "1", "club_ids": [teams[0][0].pk], "dates": []},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "team_league_clubs"


def test_a_private_league_of_peñas_is_a_404_for_a_stranger():
    league, teams = team_league(3, is_public=False)
    assert client_for(UserFactory()).get(f"/api/v1/team-leagues/{league.pk}").status_code == 404
    assert client_for().get(f"/api/v1/team-leagues/{league.pk}/standings").status_code == 404
    listed = client_for(UserFactory()).get(f"/api/v1/clubs/{teams[0][0].pk}/team-leagues")
    assert listed.json() == []
    member = client_for(teams[2][1])
    assert member.get(f"/api/v1/team-leagues/{league.pk}").status_code == 200


def _queries(path: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client_for().get(path).status_code == 200
    return len(ctx.captured_queries)


def test_the_league_and_its_standings_cost_the_same_queries_whatever_its_size():
    small, small_teams = team_league(3, boards=1, name="Pequeña")
    big, big_teams = team_league(6, boards=2, name="Grande")
    for league, teams, winners in ((small, small_teams, ["home"]), (big, big_teams, ["home"] * 2)):
        for fixture in TeamFixture.objects.filter(jornada__league=league, jornada__number=1):
            play(league, teams, fixture, winners)
    for suffix in ("", "/standings"):
        assert _queries(f"/api/v1/team-leagues/{small.pk}{suffix}") == _queries(
            f"/api/v1/team-leagues/{big.pk}{suffix}"
        )
