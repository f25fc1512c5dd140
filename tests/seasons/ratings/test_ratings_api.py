"""The ratings API through its real URLs: the peña's ranking (pages, order, the peña's
choice), a player's ratings and head to head; the one error body; constant query counts."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from seasons.ratings.models import RankingRow, RatingEntry
from seasons.ratings.selectors import RANKING_PAGE_SIZE
from seasons.ratings.services import ratings_rebuild
from tests.factories import MatchFactory, MembershipFactory, UserFactory
from tests.seasons.ratings.ratings_data import season
from tournaments.models import Match

pytestmark = pytest.mark.django_db

API = "/api/v1"


def client_for(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["message"] and isinstance(body["error"]["params"], dict)
    return body["error"]


@pytest.fixture
def rated():
    tournament, matches = season(rounds=5, pairs=8, seed=2)
    ratings_rebuild()
    return tournament, matches


def test_anyone_reads_a_penas_ranking_best_rating_first(rated):
    tournament, _ = rated
    body = client_for().get(f"{API}/clubs/{tournament.club_id}/ranking").json()
    assert body["shows"] == "both" and body["order"] == "rating" and body["count"] == 16
    ratings = [row["rating"] for row in body["results"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [row["position"] for row in body["results"]] == list(range(1, 17))
    # partners share a rating: the tie goes to the points, then to the name
    top = RankingRow.objects.order_by(
        "-rating", "-points", "player__last_name", "player__first_name", "player_id"
    ).first()
    assert body["results"][0]["player_id"] == top.player_id
    assert body["results"][0]["name"] == str(top.player)


def test_the_ranking_by_points_counts_twelve_a_win_and_minus_ten_a_loss(rated):
    tournament, _ = rated
    body = client_for().get(f"{API}/clubs/{tournament.club_id}/ranking?order=points").json()
    for row in body["results"]:
        assert row["points"] == 12 * row["wins"] - 10 * row["losses"]
        assert row["matches"] == 5
    points = [row["points"] for row in body["results"]]
    assert points == sorted(points, reverse=True)


def test_the_penas_choice_orders_its_ranking_and_only_organizers_make_it(rated):
    tournament, _ = rated
    url = f"{API}/clubs/{tournament.club_id}/ranking/settings"
    error(client_for().post(url, {"shows": "points"}, format="json"), 403, "not_authenticated")
    error(
        client_for(UserFactory()).post(url, {"shows": "points"}, format="json"),
        403,
        "not_organizer",
    )
    organizer = MembershipFactory(club=tournament.club).user
    error(
        client_for(organizer).post(url, {"shows": "elo"}, format="json"),
        400,
        "ranking_shows_unknown",
    )
    answer = client_for(organizer).post(url, {"shows": "points"}, format="json")
    assert answer.status_code == 200 and answer.json() == {
        "club_id": tournament.club_id,
        "shows": "points",
    }
    body = client_for().get(f"{API}/clubs/{tournament.club_id}/ranking").json()
    assert (body["shows"], body["order"]) == ("points", "points")


def test_bad_ranking_requests_are_4xx_with_the_error_body(rated):
    tournament, _ = rated
    url = f"{API}/clubs/{tournament.club_id}/ranking"
    error(client_for().get(f"{url}?order=elo"), 400, "ranking_order_unknown")
    error(client_for().get(f"{url}?page=x"), 400, "page_not_a_number")
    found = error(client_for().get(f"{url}?page=2"), 404, "page_out_of_range")
    assert found["params"] == {"page": 2, "pages": 1}
    error(client_for().get(f"{API}/clubs/999999/ranking"), 404, "club_not_found")


def test_the_ranking_costs_the_same_queries_for_sixteen_or_two_hundred_players(
    rated, django_assert_max_num_queries
):
    tournament, _ = rated
    with django_assert_max_num_queries(5):
        client_for().get(f"{API}/clubs/{tournament.club_id}/ranking")
    big, _ = season(rounds=2, pairs=100, seed=4)
    ratings_rebuild()
    with django_assert_max_num_queries(5):
        body = client_for().get(f"{API}/clubs/{big.club_id}/ranking?page=2").json()
    assert body["count"] == 200 and body["pages"] == 2
    assert len(body["results"]) == 200 - RANKING_PAGE_SIZE
    assert body["results"][0]["position"] == RANKING_PAGE_SIZE + 1


def test_a_players_ratings_history_partners_and_best_partner(rated, django_assert_max_num_queries):
    _, matches = rated
    pair = matches[0].entry_a.pair
    with django_assert_max_num_queries(5):
        body = client_for().get(f"{API}/players/{pair.player_one_id}/ratings").json()
    history = body["history"]
    assert len(history) == body["matches"] == 5
    assert [h["played_at"] for h in history] == sorted(h["played_at"] for h in history)
    last = RatingEntry.objects.filter(player_id=pair.player_one_id).order_by("order_key").last()
    assert body["rating"] == round(last.rating, 3) == history[-1]["rating"]
    assert body["partners"] == [
        {
            "player_id": pair.player_two_id,
            "name": str(pair.player_two),
            "matches": 5,
            "wins": sum(h["result"] == "win" for h in history),
            "losses": sum(h["result"] == "loss" for h in history),
        }
    ]
    assert body["best_partner"]["player_id"] == pair.player_two_id
    assert all(h["partners"] == [pair.player_two_id] for h in history)
    assert body["clubs"][0]["points"] == sum(h["points"] for h in history)


def test_head_to_head_between_two_players(rated):
    _, matches = rated
    first = matches[0]
    me, them = first.entry_a.pair.player_one_id, first.entry_b.pair.player_two_id
    body = client_for().get(f"{API}/players/{me}/head-to-head?other={them}").json()
    assert body["matches"] >= 1 and body["wins"] + body["losses"] == body["matches"]
    assert all(them in h["opponents"] for h in body["history"])
    mirror = client_for().get(f"{API}/players/{them}/head-to-head?other={me}").json()
    assert (mirror["wins"], mirror["losses"]) == (body["losses"], body["wins"])


def test_a_player_without_rated_matches_and_a_head_to_head_with_oneself_are_errors(rated):
    _, matches = rated
    me = matches[0].entry_a.pair.player_one_id
    error(client_for().get(f"{API}/players/999999/ratings"), 404, "rated_player_not_found")
    error(client_for().get(f"{API}/players/{me}/head-to-head"), 400, "validation")
    error(
        client_for().get(f"{API}/players/{me}/head-to-head?other={me}"),
        400,
        "head_to_head_same_player",
    )
    error(
        client_for().get(f"{API}/players/{me}/head-to-head?other=999999"),
        404,
        "rated_player_not_found",
    )


@pytest.fixture
def after_a_bye():
    """A season rated after an unrated match (a bye): the rated rows and the tournament's
    matches are numbered apart from then on (issue 23 #5: 73 of 74 players' ids were off)."""
    MatchFactory(kind=Match.Kind.BYE, status=Match.Status.CONFIRMED, entry_b=None)
    tournament, matches = season(rounds=4, pairs=6, seed=5)
    ratings_rebuild()
    return tournament, matches


def _same_match(point: dict, player_id: int) -> Match:
    """The tournament match a history point names, checked against what the point says."""
    match = Match.objects.select_related("entry_a__pair", "entry_b__pair").get(pk=point["match_id"])
    sides = {
        "a": {match.entry_a.pair.player_one_id, match.entry_a.pair.player_two_id},
        "b": {match.entry_b.pair.player_one_id, match.entry_b.pair.player_two_id},
    }
    own = "a" if player_id in sides["a"] else "b"
    assert player_id in sides[own], (point, sides)
    assert set(point["opponents"]) == sides["b" if own == "a" else "a"]
    games = (match.games_a, match.games_b) if own == "a" else (match.games_b, match.games_a)
    assert (point["games_for"], point["games_against"]) == games
    return match


def test_a_rated_match_is_named_by_the_tournament_matchs_id(after_a_bye):
    _, matches = after_a_bye
    played = {m.pk for m in matches}
    for player in (matches[0].entry_a.pair.player_one_id, matches[-1].entry_b.pair.player_two_id):
        body = client_for().get(f"{API}/players/{player}/ratings").json()
        assert body["history"] and {h["match_id"] for h in body["history"]} <= played
        for point in body["history"]:
            _same_match(point, player)


def test_head_to_head_names_the_tournament_matchs_id(after_a_bye):
    _, matches = after_a_bye
    first = matches[0]
    me, them = first.entry_a.pair.player_one_id, first.entry_b.pair.player_one_id
    body = client_for().get(f"{API}/players/{me}/head-to-head?other={them}").json()
    assert first.pk in {h["match_id"] for h in body["history"]}
    for point in body["history"]:
        assert them in point["opponents"]
        _same_match(point, me)
