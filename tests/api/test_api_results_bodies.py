"""The table link's hot path: the bodies built by hand (tournaments/api/results_bodies.py) are
byte for byte what the documented serializers give, for matches in every state; and each of
the three requests a phone sends costs a bounded number of queries."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.api import results as api
from tournaments.api.results_bodies import result_body, table_body
from tournaments.models import LatePenalty, Match, ResultSubmission, Substitution, Tournament
from tournaments.selectors import results as selectors
from tournaments.services import results as services

pytestmark = pytest.mark.django_db

A_WINS = [{"stones": [40, 20]}, {"stones": [30, 40]}, {"stones": [40, 10]}]
B_WINS = [{"stones": [20, 40]}, {"stones": [10, 40]}]
PASO = {
    "declarations": {
        "pares": ["none", "none", "none", "none"],
        "juego": ["none", "none", "none", "none"],
        "punto": [30, 12, 20, 22],
        "winners": {"grande": "mano", "chica": "postre"},
    }
}


@pytest.fixture
def client():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def tournament():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, late_minutes_per_game=10)
    MembershipFactory(club=tournament.club, user=UserFactory(username="organizer"))
    return tournament


def table(match: Match, action: str = "") -> str:
    name = f"results-table{'-' + action if action else ''}"
    return reverse(f"api:tournaments:{name}", kwargs={"token": match.token})


def post(client, path, data, key):
    return client.post(path, data, format="json", HTTP_IDEMPOTENCY_KEY=key)


def rendered(data) -> bytes:
    return JSONRenderer().render(data)


def same_table(match: Match) -> dict:
    view = selectors.table_view(match=match)
    by_hand = rendered(table_body(view))
    assert by_hand == rendered(api.TableDetailApi.OutputSerializer(view).data)
    if view["match"]["status"] != "confirmed":  # the link is closed once it is
        # The link's read asks which rows the match has and skips the others' queries: it
        # shows what the full read shows.
        assert APIClient().get(table(match)).json() == json.loads(by_hand)
    return view


def same_answer(answer: services.ResultAnswer) -> None:
    documented = api.ResultOutputSerializer(
        {"match": answer.state, "submission": answer.submission}
    )
    assert rendered(result_body(answer.state, answer.submission)) == rendered(documented.data)


def test_the_table_body_is_the_serializers_in_every_state(client, tournament):
    match = MatchFactory(round__phase__tournament=tournament)
    same_table(match)  # pending, nothing entered

    assert post(client, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS},
                "a-1").status_code == 200  # fmt: skip
    same_table(match)  # submitted: one version
    assert post(client, table(match, "submit"), {"side": "b", "version": 1, "games": B_WINS},
                "b-1").status_code == 200  # fmt: skip
    view = same_table(match)  # disputed: both versions
    assert len(view["submissions"]) == 2

    organizer = UserFactory()
    MembershipFactory(club=tournament.club, user=organizer)
    confirmed = services.match_result_submit(
        match=Match.objects.get(pk=match.pk), side="organizer", payload={"games": A_WINS},
        idempotency_key="o-1", version=2, via="account", actor=organizer,
    )  # fmt: skip
    same_answer(confirmed)
    view = same_table(Match.objects.get(pk=match.pk))  # confirmed, result and times set
    assert view["match"]["confirmed_at"] and view["match"]["result"]


def test_the_table_body_with_penalties_substitutes_and_hands(client, tournament):
    match = MatchFactory(round__phase__tournament=tournament, table_number=None)
    LatePenalty.objects.create(match=match, entry=match.entry_b, minutes_late=12, games_lost=1)
    Substitution.objects.create(
        match=match,
        entry=match.entry_a,
        replaced=match.entry_a.pair.player_two,
        substitute=PlayerFactory(first_name="Iñaki", last_name="Zubiri"),
    )
    response = post(client, table(match, "hand-add"), {"version": 0, "hand": PASO}, "h-1")
    assert response.status_code == 200, response.json()
    view = same_table(match)
    assert view["late_penalties"][0]["side"] == "b" and view["table_number"] is None
    assert view["pairs"]["a"]["players"][1]["substitute_for"]
    assert len(view["running"]["hands"]) == 1 and view["running"]["last_hand"]


def test_an_undecided_bracket_place_has_an_empty_pair(tournament):
    match = MatchFactory(round__phase__tournament=tournament, entry_b=None, bracket_key="W1-1")
    view = same_table(match)
    assert view["pairs"]["b"] == {"entry_id": None, "name": "", "players": []}


def test_the_write_answers_are_the_serializers(client, tournament):
    match = MatchFactory(round__phase__tournament=tournament)
    first = post(client, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS},
                 "a-1")  # fmt: skip
    replay = post(client, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS},
                  "a-1")  # fmt: skip
    # the same answer (PostgreSQL's jsonb gives the stored summary's keys in its own order)
    assert replay["Idempotent-Replayed"] == "true" and replay.json() == first.json()
    confirm = post(client, table(match, "confirm"), {"side": "b", "version": 1}, "b-1")
    assert confirm.status_code == 200 and confirm.json()["match"]["status"] == "confirmed"
    again = post(client, table(match, "confirm"), {"side": "b", "version": 1}, "b-1")
    assert again["Idempotent-Replayed"] == "true" and again.json() == confirm.json()
    for submission in ResultSubmission.objects.filter(match=match):
        state = selectors.match_snapshot(Match.objects.get(pk=match.pk))
        same_answer(services.ResultAnswer(match, state, submission))


# --- What each of a phone's requests costs ---------------------------------------------------


def test_a_phone_s_three_requests_take_few_queries(
    client, tournament, django_assert_max_num_queries
):
    """The table's read: the match with its pairs in one query, which also asks which of
    substitutes, penalties, versions and hands it has; then only those it has. A write: the
    match read once by its token under the row lock, its submissions once (the key's replay
    and each pair's latest), the penalties, the insert, the match's update and the audit
    entry; no read of the peña."""
    match = MatchFactory(round__phase__tournament=tournament)
    with django_assert_max_num_queries(1):  # nothing entered yet: the match alone
        version = client.get(table(match)).json()["match"]["version"]
    # Inside the test's transaction a write's atomic() is a SAVEPOINT and its RELEASE: 2 of
    # these (in production BEGIN and COMMIT, which the count does not see on PostgreSQL).
    with django_assert_max_num_queries(10):
        answer = post(client, table(match, "submit"),
                      {"side": "a", "version": version, "games": A_WINS}, "a-1")  # fmt: skip
    assert answer.status_code == 200
    with django_assert_max_num_queries(2):  # and the version pareja A entered
        assert len(client.get(table(match)).json()["submissions"]) == 1
    with django_assert_max_num_queries(9):
        answer = post(client, table(match, "confirm"), {"side": "b", "version": 1}, "b-1")
    assert answer.status_code == 200 and answer.json()["match"]["status"] == "confirmed"


def test_the_table_body_of_a_trio_lists_three_players_a_side_as_the_serializer():
    from tests.tournaments.test_results_trios import ORDINARY, trios_match

    match, _ = trios_match()
    Substitution.objects.create(
        match=match,
        entry=match.entry_a,
        replaced=match.entry_a.player_three,
        substitute=PlayerFactory(first_name="Iñaki", last_name="Zubiri"),
    )
    services.match_hand_add(
        match=match, hand=ORDINARY, idempotency_key="h-1", version=0, via="link"
    )
    view = same_table(Match.objects.get(pk=match.pk))
    assert [len(view["pairs"][side]["players"]) for side in "ab"] == [3, 3]
    assert view["pairs"]["a"]["players"][2]["substitute_for"]
