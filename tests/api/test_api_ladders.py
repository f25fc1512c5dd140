"""The ladders through the API: a group ladder and a table ladder created, drawn and read, their
options' errors as JSON bodies (4xx, never 500), the standings' moves."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import tournament_field
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import round_close, round_publish
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:rounds-{name}", kwargs=kwargs)


def post(client, path: str, data: dict | None = None, **headers):
    return client.post(path, data or {}, content_type="application/json", **headers)


def field(pairs: int, **tournament):
    tournament.setdefault("status", Tournament.Status.RUNNING)
    return tournament_field(pairs, **tournament)


def play_round(round_id: int, organizer) -> None:
    rnd = Round.objects.get(pk=round_id)
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.all():
        m.status, m.winner_id = Match.Status.CONFIRMED, max(m.entry_a_id, m.entry_b_id)
        m.games_a, m.games_b = (0, 2) if m.winner_id == m.entry_b_id else (2, 0)
        m.save()
    round_close(round=rnd, actor=organizer)


def test_group_ladder_through_the_api(client):
    t, organizer, entries = field(8)
    client.force_login(organizer)
    ladder = {"groups": 2, "cycle_rounds": 1, "cycles": 2, "move_by": "place", "moves": 1}
    response = post(
        client,
        url("phase-create", tournament_id=t.id),
        {"name": "Escalera", "format": "group_ladder", "ladder": ladder},
    )
    assert response.status_code == 201, response.json()
    phase = response.json()
    assert phase["format"] == "group_ladder" and phase["rounds_planned"] == 2
    assert phase["ladder"]["cycles"] == 2 and phase["ladder"]["move_by"] == "place"
    drawn = post(client, url("round-generate", phase_id=phase["id"])).json()
    assert {m["group"] for m in drawn["matches"]} == {"A", "B"}
    assert drawn["matches"][0]["reasons"][0]["code"] == "round_robin"
    play_round(drawn["id"], organizer)
    second = post(client, url("round-generate", phase_id=phase["id"]))
    assert second.status_code == 201
    detail = client.get(url("phase", phase_id=phase["id"])).json()
    assert detail["ladder"]["cycle"] == 2
    moved = detail["ladder"]["moved"]
    assert len(moved) == 1 and len(moved[0]["up"]) == 1 and len(moved[0]["down"]) == 1
    assert [g["name"] for g in detail["groups"]] == ["A", "B"]
    assert moved[0]["up"][0] in detail["groups"][0]["entry_ids"]
    standings_refresh(phase=t.phases.get())
    body = client.get(url("phase-standings", phase_id=phase["id"])).json()
    rows = {r["entry_id"]: r for g in body["groups"] for r in g["rows"]}
    assert rows[moved[0]["up"][0]]["ladder_move"] == "up"
    assert rows[moved[0]["down"][0]]["ladder_move"] == "down"


def test_table_ladder_through_the_api(client):
    t, organizer, entries = field(6)
    client.force_login(organizer)
    response = post(
        client,
        url("phase-create", tournament_id=t.id),
        {"name": "Sube y baja", "format": "table_ladder", "rounds_planned": 4},
    )
    assert response.status_code == 201, response.json()
    assert response.json()["ladder"]["swap"] is False
    drawn = post(client, url("round-generate", phase_id=response.json()["id"])).json()
    assert [m["table_number"] for m in drawn["matches"]] == [1, 2, 3]
    reason = drawn["matches"][1]["reasons"][0]
    assert reason["code"] == "table_ladder" and reason["params"] == {"table": 2}
    spanish = client.get(url("round", round_id=drawn["id"]), HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish["matches"][0]["reasons"][0]["text"].startswith("mesa 1 del sube y baja")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (
            {"format": "group_ladder", "ladder": {"groups": 5, "cycle_rounds": 2, "cycles": 2}},
            "ladder_groups_too_many",
        ),
        (
            {"format": "group_ladder", "ladder": {"groups": 2, "cycle_rounds": 2}},
            "phase_ladder_option",
        ),
        (
            {
                "format": "group_ladder",
                "ladder": {"groups": 2, "cycle_rounds": 2, "cycles": 1, "swap": True},
            },
            "phase_option_unread",
        ),
        (
            {"format": "table_ladder", "rounds_planned": 3, "ladder": {"swap": True}},
            "phase_ladder_swap",
        ),
        ({"format": "table_ladder"}, "phase_ladder_rounds"),
        ({"format": "swiss", "rounds_planned": 3, "ladder": {"groups": 2}}, "phase_option_unread"),
    ],
)
def test_ladder_options_refused_with_a_json_error(client, data, code):
    t, organizer, _ = field(6)
    client.force_login(organizer)
    response = post(client, url("phase-create", tournament_id=t.id), {"name": "Fase", **data})
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    spanish = post(
        client,
        url("phase-create", tournament_id=t.id),
        {"name": "Fase", **data},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert spanish.json()["error"]["message"] != error["message"]


def test_bad_ladder_shapes_are_400(client):
    t, organizer, _ = field(6)
    client.force_login(organizer)
    for ladder in ({"groups": "dos"}, {"move_by": "lots"}, "ladder", {"moves": 0}):
        response = post(
            client,
            url("phase-create", tournament_id=t.id),
            {"name": "Fase", "format": "group_ladder", "ladder": ladder},
        )
        assert response.status_code == 400
        assert "error" in response.json()
