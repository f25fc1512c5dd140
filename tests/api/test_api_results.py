"""The results API through real URLs: the table's link (no login, the token is the
credential) and the organizer's desk; status codes, error bodies, permissions across peñas,
idempotent replay and the round board's query count."""

from __future__ import annotations

import base64

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import (
    MatchFactory,
    MembershipFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Match, Phase, ResultSubmission, Round, Tournament

pytestmark = pytest.mark.django_db

A_WINS = [{"stones": [40, 20]}, {"stones": [30, 40]}, {"stones": [40, 10]}]
B_WINS = [{"stones": [20, 40]}, {"stones": [10, 40]}]
_DECL = {
    "pares": ["none", "none", "none", "none"],
    "juego": ["none", "none", "none", "none"],
    "punto": [30, 12, 20, 22],
    "winners": {"grande": "mano", "chica": "postre"},
}
#: (chica, never played after it, has no winner to give)
ORDAGO = {
    "declarations": {**_DECL, "winners": {"grande": "mano"}},
    "bets": {"grande": ["órdago", "quiero"]},
}
PASO = {"declarations": _DECL}


@pytest.fixture
def client():
    # Messages follow Accept-Language; these tests read the English.
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def organizer():
    return UserFactory(username="organizer")


@pytest.fixture
def tournament(organizer):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING, late_minutes_per_game=10)
    MembershipFactory(club=tournament.club, user=organizer)
    return tournament


@pytest.fixture
def match(tournament):
    return MatchFactory(round__phase__tournament=tournament)


@pytest.fixture
def desk(client, organizer):
    client.force_login(organizer)
    return client


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:{name}", kwargs=kwargs)


def table(match: Match, action: str = "") -> str:
    return url(f"results-table{'-' + action if action else ''}", token=match.token)


def post(client, path, data, key=None, **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(path, data, format="json", **headers)


def error_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


# --- The table's link -------------------------------------------------------------------------


def test_the_table_view_needs_only_the_token(client, match):
    response = client.get(table(match))
    assert response.status_code == 200
    body = response.json()
    assert body["table_number"] == match.table_number
    assert [p["seat"] for p in body["pairs"]["a"]["players"]] == ["A1", "A2"]
    assert body["first_mano"] == "A1" and body["rules"]["stones_per_game"] == 40
    assert body["match"]["version"] == 0 and body["running"]["hands"] == []
    assert error_of(client.get(url("results-table", token="nope"))) == (
        404,
        "table_link_unknown",
    )


def test_submit_then_confirm_through_the_link(client, match):
    response = post(
        client,
        table(match, "submit"),
        {"side": "a", "version": 0, "games": A_WINS},
        key="a-1",
        HTTP_USER_AGENT="Pixel 7",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["match"]["status"] == "submitted" and body["match"]["version"] == 1
    assert body["submission"]["side"] == "a" and body["submission"]["summary"]["winner"] == "A"
    assert "Idempotent-Replayed" not in response

    response = post(client, table(match, "confirm"), {"side": "b", "version": 1}, key="b-1")
    assert response.status_code == 200
    assert response.json()["match"] == {
        **response.json()["match"],
        "status": "confirmed",
        "winner": "a",
        "games": {"a": 2, "b": 1},
        "vacas": {"a": 1, "b": 0},
        "stones": {"a": 110, "b": 70},
        "version": 2,
    }
    audit = AuditEntry.objects.filter(match=match).order_by("id")
    assert [(a.action, a.via) for a in audit] == [
        ("result_submitted", "link"),
        ("result_confirmed", "link"),
    ]
    assert audit[0].device == "Pixel 7"
    # the link is useless now
    assert error_of(client.get(table(match))) == (409, "link_closed")
    again = post(client, table(match, "submit"), {"side": "a", "version": 2, "games": A_WINS}, "x")
    assert error_of(again) == (409, "link_closed")


def test_a_replayed_submission_gets_the_first_answer(client, match):
    data = {"side": "a", "version": 0, "games": A_WINS}
    first = post(client, table(match, "submit"), data, key="a-1")
    post(client, table(match, "confirm"), {"side": "b", "version": 1}, key="b-1")
    again = post(client, table(match, "submit"), data, key="a-1")  # after the match moved on

    assert again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert ResultSubmission.objects.filter(match=match).count() == 2
    # the key may also travel in the body
    body_key = post(
        client, table(match, "confirm"), {"side": "b", "version": 1, "idempotency_key": "b-1"}
    )
    assert body_key.status_code == 200 and body_key["Idempotent-Replayed"] == "true"


def test_each_body_is_validated_on_its_own(client, match):
    """The views keep one input serializer per thread: nothing of a body is left for the next."""
    path = table(match, "submit")
    first = post(client, path, {"side": "a", "version": -1, "games": "x"}, key="k")
    assert error_of(first) == (400, "validation")
    assert set(first.json()["error"]["fields"]) == {"version", "games"}
    second = post(client, path, {"version": 0}, key="k")
    assert error_of(second) == (400, "validation")
    assert set(second.json()["error"]["fields"]) == {"side"}
    spanish = post(client, path, [], key="k", HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.json()["error"]["fields"] == {
        "non_field_errors": ["Datos inválidos. Se esperaba un diccionario pero es un list."]
    }
    valid = post(client, path, {"side": "a", "version": 0, "games": A_WINS}, key="k")
    assert valid.status_code == 200


def test_write_errors_have_one_body_shape(client, match):
    path = table(match, "submit")
    assert error_of(post(client, path, {"side": "a", "version": 0, "games": A_WINS})) == (
        400,
        "idempotency_key",
    )
    missing = post(client, path, {"side": "a", "games": A_WINS}, key="k")
    assert error_of(missing) == (400, "validation")
    assert "version" in missing.json()["error"]["fields"]
    bad_side = post(client, path, {"side": "c", "version": 0, "games": A_WINS}, key="k")
    assert error_of(bad_side) == (400, "side")
    illegal = post(client, path, {"side": "a", "version": 0, "games": [{"stones": [40, 41]}]}, "k")
    assert error_of(illegal) == (400, "both_at_target")
    assert illegal.json()["error"]["message"].startswith("Game 1: both pairs have 40 or more")
    post(client, path, {"side": "a", "version": 0, "games": A_WINS}, key="k1")
    stale = post(client, path, {"side": "b", "version": 0, "games": B_WINS}, key="k2")
    assert error_of(stale) == (409, "stale_version")
    assert "reload" in stale.json()["error"]["message"]
    reused = post(client, path, {"side": "a", "version": 1, "games": B_WINS}, key="k1")
    assert error_of(reused) == (409, "idempotency_key_reused")
    own = post(client, table(match, "confirm"), {"side": "a", "version": 1}, key="k3")
    assert error_of(own) == (409, "own_submission")


def test_a_message_follows_accept_language(client, match):
    path = table(match, "submit")
    data = {"side": "a", "version": 0, "games": A_WINS}
    english = post(client, path, data).json()["error"]
    spanish = post(APIClient(HTTP_ACCEPT_LANGUAGE="es"), path, data).json()["error"]
    assert english["code"] == spanish["code"] == "idempotency_key"
    assert english["message"].startswith("Send an Idempotency-Key")
    assert spanish["message"] == "Falta la clave del envío: recarga la página y vuelve a enviarlo."


def _offset(iso: str) -> str:
    return iso[-6:]


def test_the_times_of_a_result_are_local_like_every_other_time(client, desk, match):
    """started_at and confirmed_at in write answers, replays and the history come in the
    server's TIME_ZONE (Europe/Madrid: +01:00 or +02:00), as the submissions' times do, not in
    UTC: a client showing them as they come shows the same clock everywhere."""
    data = {"side": "a", "version": 0, "games": A_WINS}
    submitted = post(client, table(match, "submit"), data, key="a-1").json()
    at_the_table = client.get(table(match)).json()
    confirmed = post(client, table(match, "confirm"), {"side": "b", "version": 1}, "b-1").json()
    match.refresh_from_db()
    started = timezone.localtime(match.started_at).isoformat()
    confirmed_at = timezone.localtime(match.confirmed_at).isoformat()
    assert _offset(started) in ("+01:00", "+02:00")  # Madrid is never UTC

    assert submitted["match"]["started_at"] == started
    assert submitted["match"]["confirmed_at"] is None
    assert at_the_table["match"]["started_at"] == started
    assert _offset(submitted["submission"]["created_at"]) == _offset(started)
    assert confirmed["match"]["started_at"] == started
    assert confirmed["match"]["confirmed_at"] == confirmed_at
    replayed = post(client, table(match, "confirm"), {"side": "b", "version": 1}, "b-1").json()
    assert replayed["match"]["confirmed_at"] == confirmed_at
    history = desk.get(url("results-match", match_id=match.pk)).json()
    assert history["match"]["started_at"] == started
    assert history["match"]["confirmed_at"] == confirmed_at
    assert {_offset(a["created_at"]) for a in history["audit"]} == {_offset(started)}
    board = desk.get(url("results-round-board", round_id=match.round_id)).json()
    assert board["tables"][0]["confirmed_at"] == confirmed_at


def test_different_versions_are_a_dispute_shown_to_the_table(client, match):
    post(client, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS}, "a-1")
    response = post(
        client, table(match, "submit"), {"side": "b", "version": 1, "games": B_WINS}, "b-1"
    )
    assert response.json()["match"]["status"] == "disputed"
    versions = client.get(table(match)).json()["submissions"]
    assert [(v["side"], v["summary"]["winner"]) for v in versions] == [("a", "A"), ("b", "B")]


def test_hand_by_hand_through_the_link(client, tournament):
    match = MatchFactory(round__phase__tournament=tournament, round__phase__stones_per_game=10)
    version = 0
    for number in (1, 2, 3):
        response = post(
            client, table(match, "hand-add"), {"hand": ORDAGO, "version": version}, f"h{number}"
        )
        assert response.status_code == 200, response.json()
        version = response.json()["match"]["version"]
    body = response.json()
    assert body["number"] == 3 and body["running"]["state"]["winner"] == "A"
    assert body["match"]["status"] == "in_progress"

    after = post(client, table(match, "hand-add"), {"hand": PASO, "version": version}, "h4")
    assert error_of(after) == (400, "match_over")
    assert after.json()["error"]["message"].startswith("Hand 4: The match is over")

    undone = post(client, table(match, "hand-undo"), {"version": version})
    assert undone.status_code == 200 and undone.json()["match"]["version"] == version + 1
    assert client.get(table(match)).json()["running"]["state"]["hands"] == 2

    redo = post(client, table(match, "hand-add"), {"hand": ORDAGO, "version": version + 1}, "h3b")
    submit = post(
        client,
        table(match, "submit"),
        {"side": "a", "version": redo.json()["match"]["version"], "hands": "recorded"},
        "s1",
    )
    assert submit.status_code == 200 and submit.json()["match"]["status"] == "submitted"
    replay = post(client, table(match, "hand-add"), {"hand": ORDAGO, "version": 0}, "h3b")
    assert replay.status_code == 200 and replay.json()["number"] == 3
    assert replay["Idempotent-Replayed"] == "true"


def test_the_link_writes_only_while_the_round_is_published(client, tournament):
    match = MatchFactory(round__phase__tournament=tournament, round__status=Round.Status.CLOSED)
    response = post(
        client, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS}, "k"
    )
    assert error_of(response) == (409, "round_not_open")


# --- The organizer's desk ---------------------------------------------------------------------


def test_the_organizer_enters_the_official_result(desk, organizer, match):
    response = post(
        desk, url("results-submit", match_id=match.pk), {"version": 0, "games": B_WINS}, "o1"
    )
    assert response.status_code == 200
    assert response.json()["match"]["status"] == "confirmed"
    assert response.json()["submission"]["side"] == "organizer"
    audit = AuditEntry.objects.get(match=match)
    assert (audit.via, audit.actor) == ("account", organizer)


def test_the_api_door_is_recorded_as_api(client, organizer, match):
    token = base64.b64encode(b"organizer:amarrako-test").decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    forfeit = url("results-forfeit", match_id=match.pk)
    # HTTP Basic is accepted over HTTPS only
    response = post(client, forfeit, {"version": 0, "absent_side": "a"}, secure=True)
    assert response.status_code == 200, response.json()
    assert response.json()["match"]["kind"] == "forfeit"
    assert response.json()["match"]["stones"] == {"a": 0, "b": 80}
    assert AuditEntry.objects.get(match=match).via == "api"
    nobody = post(client, forfeit, {"version": 1, "absent_side": "x"}, secure=True)
    assert error_of(nobody) == (400, "absent_side")


def test_the_match_history_for_the_organizer(desk, client, match):
    post(desk, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS}, "a-1")
    post(desk, table(match, "submit"), {"side": "b", "version": 1, "games": B_WINS}, "b-1")
    response = desk.get(url("results-match", match_id=match.pk))
    assert response.status_code == 200
    body = response.json()
    assert body["match"]["status"] == "disputed" and body["token"] == match.token
    assert [s["idempotency_key"] for s in body["submissions"]] == ["a-1", "b-1"]
    assert [a["action"] for a in body["audit"]] == ["result_disputed", "result_submitted"]

    desk.logout()
    assert error_of(client.get(url("results-match", match_id=match.pk)))[0] == 403


def test_rights_across_peñas(client, match, tournament):
    stranger = UserFactory()
    MembershipFactory(user=stranger)  # organizer of another peña
    client.force_login(stranger)
    path = url("results-submit", match_id=match.pk)
    assert error_of(post(client, path, {"version": 0, "games": A_WINS}, "k")) == (
        403,
        "not_organizer",
    )
    assert error_of(client.get(url("results-match", match_id=match.pk))) == (403, "not_organizer")
    tournament.is_public = False
    tournament.save()
    assert error_of(post(client, path, {"version": 0, "games": A_WINS}, "k")) == (
        404,
        "match_not_found",
    )
    assert error_of(client.get(url("results-round-board", round_id=match.round_id))) == (
        404,
        "round_not_found",
    )
    client.logout()
    assert post(client, path, {"version": 0, "games": A_WINS}, "k").status_code == 403


def test_dispute_resolved_by_choosing_a_version(desk, match):
    post(desk, table(match, "submit"), {"side": "a", "version": 0, "games": A_WINS}, "a-1")
    post(desk, table(match, "submit"), {"side": "b", "version": 1, "games": B_WINS}, "b-1")
    chosen = ResultSubmission.objects.get(match=match, side="b")
    path = url("results-resolve", match_id=match.pk)
    neither = post(desk, path, {"version": 2}, "r0")
    assert error_of(neither) == (400, "resolve_choice")
    response = post(desk, path, {"version": 2, "submission": chosen.pk}, "r1")
    assert response.status_code == 200
    assert response.json()["match"]["winner"] == "b"
    assert error_of(post(desk, path, {"version": 3, "games": A_WINS}, "r2")) == (
        409,
        "not_disputed",
    )


def test_a_correction_refused_names_the_dependent_match(desk, tournament):
    phase_kwargs = {"round__phase__tournament": tournament}
    semi = MatchFactory(
        **phase_kwargs, round__phase__format=Phase.Format.SINGLE_ELIMINATION, bracket_key="W1-1"
    )
    later = RoundFactory(phase=semi.round.phase, number=semi.round.number + 1)
    final = MatchFactory(round=later, table_number=5, bracket_key="W2-1", entry_a=semi.entry_a)
    post(desk, url("results-submit", match_id=semi.pk), {"version": 0, "games": A_WINS}, "o1")
    path = url("results-correct", match_id=semi.pk)

    ok = post(desk, path, {"version": 1, "games": A_WINS[:1] + A_WINS[2:]})
    assert ok.status_code == 200 and ok.json()["match"]["games"] == {"a": 2, "b": 0}

    post(desk, table(final, "hand-add"), {"hand": PASO, "version": 0}, "h1")
    refused = post(desk, path, {"version": 2, "games": B_WINS})
    assert error_of(refused) == (409, "result_has_dependents")
    error = refused.json()["error"]
    assert f"table 5 of round {later.number} depends on it" in error["message"]
    assert error["params"] == {"match": final.pk, "round": later.number, "table": 5}


def test_a_correction_says_which_juegos_were_won_by_an_ordago(desk, match):
    """Issue 23 #2: every way of correcting a result can say "won by an órdago" (the organizer's
    page now as the API and the phones): the stones stay those of the partida."""
    post(desk, url("results-submit", match_id=match.pk), {"version": 0, "games": A_WINS}, "o1")
    path = url("results-correct", match_id=match.pk)
    games = [
        {"stones": [24, 18], "winner": "A", "ordago": True},
        {"stones": [12, 32], "winner": "B", "ordago": True},
        {"stones": [40, 38]},
    ]
    missing = post(desk, path, {"version": 1, "games": [{"stones": [24, 18], "ordago": True}]})
    assert error_of(missing) == (400, "ordago_winner_missing")
    corrected = post(desk, path, {"version": 1, "games": games}, "c1")
    assert corrected.status_code == 200, corrected.json()
    state = corrected.json()["match"]
    assert state["games"] == {"a": 2, "b": 1} and state["stones"] == {"a": 76, "b": 88}
    match.refresh_from_db()
    assert [g["ordago"] for g in match.result["games"]] == [True, True, False]


def test_late_penalty_and_its_errors(desk, match, tournament):
    path = url("results-late-penalty", match_id=match.pk)
    response = post(desk, path, {"version": 0, "side": "b", "minutes_late": 12})
    assert response.status_code == 200 and response.json()["match"]["version"] == 1
    assert client_view_penalties(desk, match) == [
        {"side": "b", "minutes_late": 12, "games_lost": 1}
    ]
    negative = post(desk, path, {"version": 1, "side": "b", "minutes_late": -3})
    assert error_of(negative) == (400, "validation")
    tournament.late_minutes_per_game = None
    tournament.save()
    assert error_of(post(desk, path, {"version": 1, "side": "b", "minutes_late": 12})) == (
        400,
        "no_lateness_rule",
    )


def client_view_penalties(client, match):
    return client.get(table(match)).json()["late_penalties"]


def test_organizer_hands_and_confirm(desk, tournament):
    match = MatchFactory(round__phase__tournament=tournament, round__phase__stones_per_game=10)
    added = post(
        desk, url("results-hand-add", match_id=match.pk), {"hand": PASO, "version": 0}, "h1"
    )
    assert added.status_code == 200 and added.json()["number"] == 1
    undone = post(desk, url("results-hand-undo", match_id=match.pk), {"version": 1})
    assert undone.status_code == 200
    assert error_of(post(desk, url("results-hand-undo", match_id=match.pk), {"version": 2})) == (
        409,
        "no_hands",
    )
    post(
        desk,
        table(match, "submit"),
        {"side": "a", "version": 2, "games": [{"winner": "A"}] * 2},
        "a",
    )
    confirmed = post(desk, url("results-confirm", match_id=match.pk), {"version": 3}, "c1")
    assert confirmed.status_code == 200 and confirmed.json()["match"]["status"] == "confirmed"
    forfeit = post(
        desk, url("results-forfeit", match_id=match.pk), {"version": 4, "absent_side": "b"}
    )
    assert error_of(forfeit) == (409, "already_confirmed")


# --- The round board --------------------------------------------------------------------------


def _board_round(tournament, tables: int) -> Round:
    rnd = RoundFactory(phase__tournament=tournament)
    for _ in range(tables):
        match = MatchFactory(round=rnd)
        ResultSubmission.objects.create(
            match=match, side="a", via="link", payload={}, summary={}, idempotency_key="k",
            based_on_version=0,
        )  # fmt: skip
    return rnd


def test_the_round_board_is_public_and_its_queries_do_not_grow(
    client, tournament, django_assert_num_queries
):
    small = _board_round(tournament, 2)
    big = _board_round(tournament, 12)
    counts = []
    for rnd in (small, big):
        with django_assert_num_queries(2) as captured:  # the round, then the tables
            response = client.get(url("results-round-board", round_id=rnd.pk))
        counts.append(len(captured.captured_queries))
        assert response.status_code == 200
    assert counts == [2, 2]
    body = response.json()
    assert len(body["tables"]) == 12 and body["number"] == big.number
    assert body["tables"][0]["submission_count"] == 1 and body["tables"][0]["pair_a"]
