"""Reads of the results area: the rules in force, the table's view, the organizer's history
and the round board (whose query count must not grow with the number of tables)."""

from __future__ import annotations

import pytest

from clubs.models import Player
from config.errors import Forbidden, NotFound
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Match, Round, Substitution, Tournament
from tournaments.selectors import results as sel
from tournaments.services import results as svc

pytestmark = pytest.mark.django_db

A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 10]}]}
B_WINS = {"games": [{"stones": [20, 40]}, {"stones": [10, 40]}]}
PASO = {
    "declarations": {
        "pares": ["none", "none", "none", "none"],
        "juego": ["none", "none", "none", "none"],
        "punto": [30, 12, 20, 22],
        "winners": {"grande": "mano", "chica": "postre"},
    }
}


@pytest.fixture
def tournament():
    return TournamentFactory(status=Tournament.Status.RUNNING, kings=4, stones_per_game=30)


def player(first: str) -> Player:
    return PlayerFactory(first_name=first, last_name="")


def test_the_phase_format_overrides_the_tournament_rules(tournament):
    match = MatchFactory(
        round__phase__tournament=tournament,
        round__phase__stones_per_game=40,
        round__phase__vacas_per_match=3,
    )
    rules = sel.match_rules(match=match)
    assert (rules.kings, rules.stones_per_game, rules.games_per_vaca) == (4, 40, 2)
    assert rules.vacas_per_match == 3


def test_the_table_sees_seats_mano_rules_and_both_versions(tournament):
    match = MatchFactory(
        round__phase__tournament=tournament,
        table_number=7,
        first_mano="B1",
        entry_a__pair__player_one=player("Ane"),
        entry_a__pair__player_two=player("Mikel"),
        entry_b__pair__player_one=player("Josu"),
        entry_b__pair__player_two=player("Itziar"),
    )
    Substitution.objects.create(
        match=match,
        entry=match.entry_a,
        replaced=match.entry_a.pair.player_two,
        substitute=player("Koldo"),
    )
    svc.match_result_submit(
        match=match, side="a", payload=A_WINS, idempotency_key="k1", version=0, via="link"
    )
    svc.match_result_submit(
        match=match, side="b", payload=B_WINS, idempotency_key="k2", version=1, via="link"
    )

    view = sel.table_view(match=match)

    assert view["table_number"] == 7 and view["round"]["number"] == match.round.number
    seats = {p["seat"]: p["name"] for pair in view["pairs"].values() for p in pair["players"]}
    assert seats == {"A1": "Ane", "A2": "Koldo", "B1": "Josu", "B2": "Itziar"}
    assert view["pairs"]["a"]["players"][1]["substitute_for"] == "Mikel"
    assert (view["first_mano"], view["first_mano_player"]) == ("B1", "Josu")
    assert view["rules"]["kings"] == 4 and view["rules"]["stones_per_game"] == 30
    assert view["match"]["status"] == "disputed" and view["match"]["version"] == 2
    assert [(s["side"], s["summary"]["winner"]) for s in view["submissions"]] == [
        ("a", "A"),
        ("b", "B"),
    ]


def test_the_running_score_resumes_from_the_recorded_hands(tournament):
    match = MatchFactory(round__phase__tournament=tournament)
    for number in (1, 2):
        svc.match_hand_add(
            match=match, hand=PASO, idempotency_key=f"h{number}", version=number - 1, via="link"
        )
    running = sel.match_running_score(match=match).as_json()
    assert [h["number"] for h in running["hands"]] == [1, 2]
    assert running["state"]["hands"] == 2 and running["state"]["next_mano"] == "A2"
    assert running["last_hand"]["hand"] == 2


def test_organizer_reads_are_hidden_or_forbidden_like_the_tournament(tournament):
    organizer = UserFactory()
    MembershipFactory(club=tournament.club, user=organizer)
    match = MatchFactory(round__phase__tournament=tournament)
    assert sel.match_for_organizer(match_id=match.pk, user=organizer).pk == match.pk
    with pytest.raises(Forbidden):  # public tournament: it exists, but not for you
        sel.match_for_organizer(match_id=match.pk, user=UserFactory())
    tournament.is_public = False
    tournament.save()
    with pytest.raises(NotFound):
        sel.match_for_organizer(match_id=match.pk, user=UserFactory())
    draft = MatchFactory(round__phase__tournament=TournamentFactory(), round__status="draft")
    with pytest.raises(NotFound):
        sel.match_get(match_id=draft.pk, user=None)


def _round_with_tables(tournament, tables: int) -> Round:
    rnd = RoundFactory(phase__tournament=tournament)
    for number in range(tables):
        match = MatchFactory(round=rnd)
        if number % 2:
            svc.match_result_submit(
                match=match, side="a", payload=A_WINS, idempotency_key="k", version=0, via="link"
            )
        else:
            svc.match_hand_add(match=match, hand=PASO, idempotency_key="h", version=0, via="link")
    return rnd


def test_the_round_board_query_count_does_not_grow_with_tables(
    tournament, django_assert_max_num_queries
):
    small = _round_with_tables(tournament, 2)
    big = _round_with_tables(tournament, 10)
    with django_assert_max_num_queries(1):
        rows = list(sel.round_board(rnd=small))
    assert len(rows) == 2
    with django_assert_max_num_queries(1):
        rows = list(sel.round_board(rnd=big))
        names = [(str(m.entry_a.pair), str(m.entry_b.pair)) for m in rows]
    assert len(names) == 10
    assert [(m.submission_count, m.hand_count) for m in rows[:2]] == [(0, 1), (1, 0)]
    assert [m.status for m in rows[:2]] == [Match.Status.IN_PROGRESS, Match.Status.SUBMITTED]


def test_the_match_history_loads_in_a_fixed_number_of_queries(
    tournament, django_assert_max_num_queries
):
    match = MatchFactory(round__phase__tournament=tournament)
    for version, side in enumerate(("a", "b", "a", "b")):
        payload = A_WINS if side == "a" else B_WINS
        svc.match_result_submit(
            match=match,
            side=side,
            payload=payload,
            idempotency_key=f"k{version}",
            version=version,
            via="link",
        )
    with django_assert_max_num_queries(4):
        history = sel.match_history(match=match)
        actions = [a.action for a in history.audit.all()]
        makers = [s.created_by for s in history.submissions.all()]
        penalties = list(history.late_penalties.all())
    assert actions == ["result_disputed", "result_disputed", "result_disputed", "result_submitted"]
    assert len(makers) == 4 and penalties == [] and history.hand_count == 0
