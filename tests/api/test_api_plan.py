"""The plan API through real URLs: phases with entrants rules, the plan as JSON (export,
import, presets, built-in plans), a pair moved between groups; JSON error bodies that name the
rule that cannot work, 4xx never 500, and the endpoints in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory, tournament_field
from tournaments.models import Group, Tournament
from tournaments.selectors.plans import BUILT_IN_PLANS

pytestmark = pytest.mark.django_db


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:{name}", kwargs=kwargs)


def post(client, path: str, data: dict | None = None):
    return client.post(path, data or {}, content_type="application/json")


def test_an_organizer_builds_a_plan_and_reads_it_back(client):
    t, organizer, _ = tournament_field(12)
    client.force_login(organizer)
    create = url("rounds-phase-create", tournament_id=t.id)
    swiss = post(client, create, {"name": "Suizo", "format": "swiss", "rounds_planned": 3})
    assert swiss.status_code == 201
    groups = post(
        client,
        create,
        {
            "name": "Grupos",
            "format": "round_robin",
            "entrants": [{"rule": "top", "phase": 1, "count": 8}],
            "group_sizes": [3, 5],
            "seeding": "snake",
            "rounds_planned": 2,
        },
    )
    assert groups.status_code == 201, groups.json()
    body = groups.json()
    assert body["entrants"] == [{"rule": "top", "phase": 1, "count": 8}]
    assert body["seeding"] == "snake" and body["group_sizes"] == [3, 5]
    response = client.get(url("plan", tournament_id=t.id))
    assert response.status_code == 200
    data = response.json()
    assert data["problem"] is None and data["registered"] == 12
    assert [p["name"] for p in data["plan"]["phases"]] == ["Suizo", "Grupos"]


def test_a_rule_that_cannot_work_is_a_400_naming_it(client):
    t, organizer, _ = tournament_field(6)
    client.force_login(organizer)
    create = url("rounds-phase-create", tournament_id=t.id)
    post(client, create, {"name": "Suizo", "format": "swiss", "rounds_planned": 3})
    response = post(
        client,
        create,
        {
            "name": "Final",
            "format": "single_elimination",
            "entrants": [{"rule": "places", "phase": 1, "first": 5, "last": 8}],
        },
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "plan_rule_places_beyond"
    assert error["message"] == "Final, entrants rule 1: Suizo has 6 entrants; it has no place 8."
    assert error["params"]["rule"] == 1
    spanish = post(
        client,
        create,
        {"name": "Final", "format": "single_elimination", "entrants": [{"rule": "best"}]},
    )
    assert spanish.status_code == 400
    assert spanish.json()["error"]["code"] == "plan_rule_unknown"


@pytest.mark.parametrize(
    "body",
    [
        {"plan": {"format": "other"}},
        {"plan": {"format": "amarrako.plan", "version": 1, "phases": "x"}},
        {"plan": {"format": "amarrako.plan", "version": 1, "phases": [{"name": 3}]}},
        {"plan": []},
        {},
    ],
)
def test_a_plan_that_cannot_be_read_is_a_400(client, body):
    t, organizer, _ = tournament_field(4)
    client.force_login(organizer)
    response = client.put(url("plan", tournament_id=t.id), body, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()


def test_a_plan_is_imported_saved_and_applied(client):
    t, organizer, _ = tournament_field(16)
    client.force_login(organizer)
    plan = BUILT_IN_PLANS["swiss_level_groups"]
    response = client.put(
        url("plan", tournament_id=t.id), {"plan": plan}, content_type="application/json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["plan"]["phases"] == plan["phases"]
    saved = post(client, url("plan-presets", tournament_id=t.id), {"name": "Nuestro plan"})
    assert saved.status_code == 201
    listed = client.get(url("plan-presets", tournament_id=t.id)).json()
    assert [p["key"] for p in listed if p["key"]] == list(BUILT_IN_PLANS)
    assert [p["name"] for p in listed if p["id"]] == ["Nuestro plan"]
    applied = post(client, url("plan-apply", tournament_id=t.id), {"builtin": "groups_knockout"})
    assert applied.status_code == 200
    assert len(applied.json()["plan"]["phases"]) == 2
    again = post(client, url("plan-apply", tournament_id=t.id), {"preset_id": saved.json()["id"]})
    assert again.status_code == 200
    assert len(again.json()["plan"]["phases"]) == 4
    assert post(client, url("plan-apply", tournament_id=t.id), {}).status_code == 400
    unknown = post(client, url("plan-apply", tournament_id=t.id), {"builtin": "nope"})
    assert unknown.json()["error"]["code"] == "plan_builtin_unknown"
    gone = client.delete(url("plan-preset", tournament_id=t.id, preset_id=saved.json()["id"]))
    assert gone.status_code == 204


def test_somebody_else_cannot_touch_the_plan(client):
    t, _, _ = tournament_field(4, status=Tournament.Status.RUNNING)
    client.force_login(MembershipFactory().user)
    response = client.put(
        url("plan", tournament_id=t.id),
        {"plan": BUILT_IN_PLANS["groups_knockout"]},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert client.get(url("plan-presets", tournament_id=t.id)).status_code == 403
    assert client.get(url("plan", tournament_id=t.id)).status_code == 200  # a published plan


def test_a_pair_moves_between_groups_through_the_api(client):
    t, organizer, _ = tournament_field(8, status=Tournament.Status.RUNNING)
    client.force_login(organizer)
    phase = post(
        client,
        url("rounds-phase-create", tournament_id=t.id),
        {"name": "Liguilla", "format": "round_robin", "group_size": 4},
    ).json()
    post(client, url("rounds-round-generate", phase_id=phase["id"]))
    a = Group.objects.get(phase_id=phase["id"], name="A")
    moved = a.entries.first().id
    move = url("rounds-phase-group-move", phase_id=phase["id"])
    response = post(client, move, {"entry_id": moved, "group": "B"})
    assert response.status_code == 200, response.json()
    groups = {g["name"]: g["entry_ids"] for g in response.json()["groups"]}
    assert moved in groups["B"] and len(groups["A"]) == 3
    wrong = post(client, move, {"entry_id": moved, "group": "Z"})
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "group_move_group_unknown"
    assert (
        post(
            client, url("rounds-phase-group-move", phase_id=999999), {"entry_id": 1, "group": "A"}
        ).status_code
        == 404
    )


def test_the_plan_endpoints_are_in_the_schema(client):
    schema = client.get(reverse("schema"), {"format": "json"}).json()
    ops = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert {
        "plan_detail",
        "plan_import",
        "plan_preset_list",
        "plan_preset_save",
        "plan_preset_delete",
        "plan_apply",
        "rounds_phase_group_move",
    } <= ops
