"""The leagues API: the organizer runs a league; others read a public one, never a private one;
errors have the API's body; the lists cost the same queries whatever their length."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from seasons.leagues.models import League
from tests.factories import UserFactory
from tests.seasons.leagues.conftest import MONDAYS, make_pairs, pairs_league, win
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def test_the_organizer_creates_a_league_adds_a_division_draws_and_publishes(club, organizer):
    api = client_for(organizer)
    answer = api.post(
        f"/api/v1/clubs/{club.pk}/leagues/create",
        {"name": "Liga de invierno", "season": "2026-27", "legs": 2, "dates": MONDAYS[:6]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    league = answer.json()
    assert [j["number"] for j in league["jornadas"]] == [1, 2, 3, 4, 5, 6]
    assert league["points"] == {"win": 2, "loss": 1, "walkover_loss": 0}
    pairs = make_pairs(club, 4)
    answer = api.post(
        f"/api/v1/leagues/{league['id']}/divisions/create",
        {"name": "Primera", "pair_ids": [p.pk for p in pairs]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    answer = api.post(f"/api/v1/leagues/{league['id']}/jornadas/1/draw", {}, format="json")
    assert answer.status_code == 200, answer.json()
    matches = answer.json()["divisions"][0]["matches"]
    assert len(matches) == 2 and all(m["state"] == "pending" for m in matches)
    # Not published yet: the public does not see the tables.
    public = client_for().get(f"/api/v1/leagues/{league['id']}/jornadas/1").json()
    assert public["divisions"][0]["matches"] == []
    assert api.post(f"/api/v1/leagues/{league['id']}/jornadas/1/publish").status_code == 200
    public = client_for().get(f"/api/v1/leagues/{league['id']}/jornadas/1").json()
    assert len(public["divisions"][0]["matches"]) == 2


def test_a_member_who_does_not_organize_gets_403_and_a_stranger_404_on_a_private_league(
    club, organizer
):
    league = pairs_league(club, organizer, is_public=False)
    stranger = client_for(UserFactory())
    answer = stranger.get(f"/api/v1/leagues/{league.pk}/standings")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "league_not_found"
    assert client_for().get(f"/api/v1/clubs/{club.pk}/leagues").json() == []
    from clubs.models import Membership
    from tests.factories import MembershipFactory

    member = MembershipFactory(club=club, role=Membership.Role.MEMBER).user
    assert client_for(member).get(f"/api/v1/leagues/{league.pk}/standings").status_code == 200
    answer = client_for(member).post(f"/api/v1/leagues/{league.pk}/jornadas/1/draw", {})
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_organizer"


def test_bad_input_is_a_400_with_the_error_body(club, organizer):
    api = client_for(organizer)
    answer = api.post(
        f"/api/v1/clubs/{club.pk}/leagues/create",
        {"name": "Liga", "season": "2026", "points_win": 1, "points_loss": 1},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "league_points_order"
    answer = api.post(
        f"/api/v1/clubs/{club.pk}/leagues/create",
        {"name": "Liga", "season": "2026", "dates": ["2026-10-12", "2026-10-05"]},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "league_calendar_order"
    assert League.objects.count() == 0
    league = pairs_league(club, organizer)
    answer = client_for().get(f"/api/v1/leagues/{league.pk}/standings?jornada=x")
    assert answer.status_code == 400


def _queries(django_assert_max_num_queries, client, url, limit):
    with django_assert_max_num_queries(limit):
        answer = client.get(url)
    assert answer.status_code == 200


@pytest.mark.parametrize("size", [4, 12])
def test_standings_and_jornada_reads_cost_the_same_queries_whatever_the_size(
    club, organizer, size, django_assert_max_num_queries
):
    league = pairs_league(club, organizer, divisions=((size, 0, 2), (size, 2, 0)))
    api = client_for(organizer)
    api.post(f"/api/v1/leagues/{league.pk}/jornadas/1/draw")
    api.post(f"/api/v1/leagues/{league.pk}/jornadas/1/publish")
    for m in Match.objects.filter(round__phase__league_division__league=league):
        win(m, "a", organizer)
    public = client_for()
    _queries(django_assert_max_num_queries, public, f"/api/v1/leagues/{league.pk}/standings", 8)
    _queries(django_assert_max_num_queries, public, f"/api/v1/leagues/{league.pk}/jornadas/1", 8)
    _queries(django_assert_max_num_queries, public, f"/api/v1/leagues/{league.pk}", 8)
