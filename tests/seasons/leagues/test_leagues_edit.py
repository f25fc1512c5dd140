"""Editing a league after creating it: its points and tiebreaks (the standings follow at once,
the change audited) and removing a division while none of its matches has a result (409
``division_has_results`` after one), through the services, the API and the organizer's desk."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.errors import Conflict, Invalid
from seasons.leagues import selectors, services
from seasons.leagues.models import Division, League
from tests.factories import MembershipFactory, UserFactory
from tests.seasons.leagues.conftest import pairs_league
from tests.seasons.leagues.test_leagues_services import play_jornada
from tournaments.models import AuditEntry, Match, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


def api_for(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def points_of(league: League) -> dict[str, int]:
    """Each pair's league points in Primera, by name."""
    [primera, *_] = selectors.league_standings(league=League.objects.get(pk=league.pk))
    return {r.name: r.points for r in primera.rows}


def test_new_points_and_tiebreaks_change_the_standings_at_once_and_are_audited(
    club, organizer, league_with_results
):
    league = league_with_results
    before = points_of(league)
    winners = [name for name, p in before.items() if p == 2]
    assert winners and all(p in (0, 1, 2) for p in before.values())
    league = services.league_rules_update(
        league=league, actor=organizer, points_win=3, points_loss=0, tiebreaks=["wins", "games"]
    )
    after = points_of(league)
    assert {after[name] for name in winners} == {3}
    assert all(after[name] == 0 for name, p in before.items() if p == 1)
    assert list(selectors.league_tiebreaks(league)) == ["wins", "games"]
    audit = AuditEntry.objects.filter(action="league_rules_changed")
    assert audit.count() == Division.objects.filter(league=league).count() == 2
    entry = audit.first()
    assert entry.old == {
        "points_win": 2,
        "points_loss": 1,
        "tiebreaks": ["head_to_head", "games", "stones"],
    }
    assert entry.new["points_win"] == 3 and entry.actor == organizer
    # the same values again change nothing and audit nothing
    services.league_rules_update(league=league, actor=organizer, points_win=3)
    assert audit.count() == 2


def test_rules_that_make_no_sense_are_refused_and_nothing_changes(club, organizer):
    league = pairs_league(club, organizer)
    for changes, code in (
        ({"points_win": 1}, "league_points_order"),
        ({"points_loss": 21}, "league_points"),
        ({"tiebreaks": ["games", "games"]}, "league_tiebreak_twice"),
        ({"tiebreaks": ["luck"]}, "league_tiebreaks"),
    ):
        with pytest.raises(Invalid) as caught:
            services.league_rules_update(league=league, actor=organizer, **changes)
        assert caught.value.code == code
    league.refresh_from_db()
    assert (league.points_win, league.points_loss) == (2, 1)
    with pytest.raises(Exception) as caught:
        services.league_rules_update(league=league, actor=UserFactory(), points_win=5)
    assert caught.value.code == "not_organizer"


def test_a_division_without_results_is_removed_with_its_tournament(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 1), (4, 1, 1), (4, 1, 0)))
    segunda = Division.objects.get(league=league, name="Segunda")
    # drawn and published but not played: no result yet
    play_jornada(league, 1, organizer, skip=range(20))
    tournament_id = segunda.tournament_id
    services.division_remove(league=league, actor=organizer, division_id=segunda.pk)
    assert not Tournament.objects.filter(pk=tournament_id).exists()
    assert [(d.name, d.level) for d in selectors.divisions_of(league=league)] == [
        ("Primera", 1),
        ("Tercera", 2),
    ]
    assert AuditEntry.objects.filter(action="league_division_removed").count() == 2
    with pytest.raises(Exception) as caught:
        services.division_remove(league=league, actor=organizer, division_id=segunda.pk)
    assert caught.value.code == "division_not_found"


def test_a_division_with_a_result_stays(club, organizer, league_with_results):
    primera = Division.objects.get(league=league_with_results, level=1)
    with pytest.raises(Conflict) as caught:
        services.division_remove(
            league=league_with_results, actor=organizer, division_id=primera.pk
        )
    assert caught.value.code == "division_has_results"
    assert caught.value.params["division"] == "Primera"
    assert Division.objects.filter(pk=primera.pk).exists()


@pytest.fixture
def league_with_results(club, organizer):
    league = pairs_league(club, organizer)
    play_jornada(league, 1, organizer)
    return league


def test_the_api_edits_the_rules_and_removes_a_division(club, organizer, league_with_results):
    league = league_with_results
    api = api_for(organizer)
    answer = api.post(
        f"{API}/leagues/{league.pk}/rules",
        {"points_win": 4, "points_walkover_loss": 0, "tiebreaks": ["stones"]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["points"] == {"win": 4, "loss": 1, "walkover_loss": 0}
    assert body["tiebreaks"] == ["stones"]
    standings = api.get(f"{API}/leagues/{league.pk}/standings").json()
    assert max(r["points"] for r in standings["divisions"][0]["rows"]) == 4

    answer = api.post(f"{API}/leagues/{league.pk}/rules", {"points_win": 0}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "league_points_order"
    answer = api.post(f"{API}/leagues/{league.pk}/rules", {"points_win": "x"}, format="json")
    assert answer.status_code == 400

    primera, segunda = Division.objects.filter(league=league).order_by("level")
    answer = api.post(f"{API}/leagues/{league.pk}/divisions/{primera.pk}/remove")
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert error["code"] == "division_has_results" and "Primera" in error["message"]
    # Segunda played jornada 1 too: also refused; a stranger gets 403, nobody else writes
    stranger = api_for(UserFactory())
    answer = stranger.post(f"{API}/leagues/{league.pk}/rules", {"points_win": 5}, format="json")
    assert answer.status_code == 403
    member = MembershipFactory(club=club, role="member").user
    answer = api_for(member).post(f"{API}/leagues/{league.pk}/divisions/{segunda.pk}/remove")
    assert answer.status_code == 403
    assert api.post(f"{API}/leagues/{league.pk}/divisions/999999/remove").status_code == 404


def test_the_schema_documents_both_writes_with_their_error_bodies():
    schema = api_for().get("/api/schema/?format=json").json()
    rules = schema["paths"]["/api/v1/leagues/{league_id}/rules"]["post"]
    remove = schema["paths"]["/api/v1/leagues/{league_id}/divisions/{division_id}/remove"]["post"]
    assert rules["operationId"] == "league_rules_update"
    assert remove["operationId"] == "league_division_remove"
    for operation in (rules, remove):
        assert {"400", "403", "404", "409"} <= set(operation["responses"])


def test_the_desk_edits_the_rules_and_removes_a_division(club, organizer):
    league = pairs_league(club, organizer)
    desk = Client()
    desk.force_login(organizer)
    url = f"/organizador/ligas/{league.pk}/"
    page = desk.get(url).content.decode()
    assert "Puntos y desempates" in page and "Quitar (solo sin resultados)" in page
    answer = desk.post(
        url + "reglas",
        {
            "points_win": "3",
            "points_loss": "1",
            "points_walkover_loss": "0",
            "tiebreaks": ["games", "", "", ""],
        },
    )
    assert answer.status_code == 302
    league.refresh_from_db()
    assert (league.points_win, league.tiebreaks) == (3, ["games"])
    answer = desk.post(
        url + "reglas",
        {"points_win": "1", "points_loss": "1", "points_walkover_loss": "0", "tiebreaks": []},
    )
    assert answer.status_code == 400
    assert "más puntos" in answer.content.decode()
    segunda = Division.objects.get(league=league, level=2)
    answer = desk.post(url + f"divisiones/{segunda.pk}/quitar")
    assert answer.status_code == 302
    assert list(Division.objects.filter(league=league).values_list("name", flat=True)) == [
        "Primera"
    ]
    play_jornada(league, 1, organizer)
    primera = Division.objects.get(league=league)
    answer = desk.post(url + f"divisiones/{primera.pk}/quitar")
    assert answer.status_code == 409
    assert Match.objects.filter(round__phase__league_division=primera).exists()
