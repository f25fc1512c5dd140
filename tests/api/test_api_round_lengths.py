"""Match length per round through the API: a knockout created with its lengths ("semifinales al
mejor de 3 juegos, final al mejor de 5"), each round's length in the phase's answer and on the
table's link, the lengths changed, the results of each round's length accepted and the others
refused with a JSON body naming the round's length (in the reader's language), 4xx never 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, tournament_field
from tournaments.models import Match, Round, Tournament
from tournaments.services.rounds import bracket_advance

pytestmark = pytest.mark.django_db

LENGTHS = {"semifinal": {"games_per_vaca": 2}, "final": {"games_per_vaca": 3}}


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:{name}", kwargs=kwargs)


def post(client, path: str, data: dict, key: str | None = None, **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(path, data, content_type="application/json", **headers)


def games(won: int, lost: int) -> list[dict]:
    return (
        [{"stones": [40, 10]}] * (won - 1) + [{"stones": [12, 40]}] * lost + [{"stones": [40, 20]}]
    )


@pytest.fixture
def knockout(client):
    t, organizer, entries = tournament_field(4, status=Tournament.Status.RUNNING, games_per_vaca=4)
    client.force_login(organizer)
    response = post(
        client,
        url("rounds-phase-create", tournament_id=t.id),
        {"name": "Cuadro", "format": "single_elimination", "round_lengths": LENGTHS},
    )
    assert response.status_code == 201, response.json()
    return t, organizer, response.json()


def test_a_knockout_plays_its_semis_best_of_3_and_its_final_best_of_5(client, knockout):
    t, organizer, phase = knockout
    assert phase["round_lengths"] == LENGTHS
    drawn = post(client, url("rounds-round-generate", phase_id=phase["id"]), {})
    assert drawn.status_code == 201
    detail = client.get(url("rounds-phase", phase_id=phase["id"])).json()
    assert detail["rounds"][0]["length"] == {
        "stones_per_game": 40,
        "games_per_vaca": 2,
        "vacas_per_match": 1,
    }
    post(client, url("rounds-round-publish", round_id=drawn.json()["id"]), {})
    semis = list(Match.objects.filter(round__phase_id=phase["id"]).order_by("pk"))
    table = client.get(url("results-table", token=semis[0].token)).json()
    assert table["rules"]["games_per_vaca"] == 2  # the phone's rules are the round's
    # a best of 5 in a semi-final: 400, naming the semi-finals' length, in Spanish too
    path = url("results-submit", match_id=semis[0].pk)
    refused = post(client, path, {"version": 0, "games": games(3, 0)}, "s-long")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "result_stage_length"
    assert error["params"]["stage"] == "the semi-finals"
    assert error["params"]["games"] == 2
    assert error["message"].startswith(
        "In the semi-finals of Cuadro, 2 games win a vaca, 1 vaca wins the match"
    )
    spanish = post(
        client, path, {"version": 0, "games": games(3, 0)}, "s-long-es", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert spanish.json()["error"]["message"].startswith(
        "En las semifinales de Cuadro se juega a 2 juegos por vaca, 1 vaca por partida"
    )
    for m in semis:
        ok = post(
            client,
            url("results-submit", match_id=m.pk),
            {"version": 0, "games": games(2, 1)},
            f"s{m.pk}",
        )
        assert ok.status_code == 200, ok.json()
    bracket_advance(phase=semis[0].round.phase)  # what the result_confirmed task does
    final = Match.objects.get(round__phase_id=phase["id"], bracket_key="W2-1")
    Round.objects.filter(pk=final.round_id).update(status=Round.Status.PUBLISHED)
    assert (
        client.get(url("results-table", token=final.token)).json()["rules"]["games_per_vaca"] == 3
    )
    short = post(
        client,
        url("results-submit", match_id=final.pk),
        {"version": 0, "games": games(2, 0)},
        "f-short",
    )
    assert short.status_code == 400
    assert short.json()["error"]["params"]["stage"] == "the final"
    # the final, longer than the semi-finals, is never refused
    ok = post(
        client, url("results-submit", match_id=final.pk), {"version": 0, "games": games(3, 2)}, "f"
    )
    assert ok.status_code == 200, ok.json()
    assert ok.json()["match"]["games"] == {"a": 3, "b": 2}


def test_the_organizer_sets_the_lengths_and_the_refusals_are_json(client, knockout):
    t, organizer, phase = knockout
    path = url("rounds-phase-lengths", phase_id=phase["id"])
    ok = post(client, path, {"round_lengths": {"final": {"vacas_per_match": 3}}})
    assert ok.status_code == 200, ok.json()
    assert ok.json()["round_lengths"] == {"final": {"vacas_per_match": 3}}
    for body, code in (
        ({"round_lengths": {"semis": {"games_per_vaca": 2}}}, "round_lengths_stage"),
        ({"round_lengths": {"final": {"kings": 8}}}, "round_length_options"),
        ({"round_lengths": {"final": {"games_per_vaca": 0}}}, "round_length_rules"),
        ({"round_lengths": {"final": {"games_per_vaca": "x"}}}, "validation"),
        ({"round_lengths": [1]}, "validation"),
        ({}, "validation"),
    ):
        refused = post(client, path, body)
        assert refused.status_code == 400, body
        assert refused.json()["error"]["code"] == code, body
    client.force_login(UserFactory())
    assert post(client, path, {"round_lengths": {}}).status_code == 403
    assert (
        post(client, url("rounds-phase-lengths", phase_id=99999), {"round_lengths": {}}).status_code
        == 404
    )


def test_the_schema_names_the_lengths(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/v1/phases/{phase_id}/lengths" in schema["paths"]
    phase = schema["components"]["schemas"]["RoundsPhase"]["properties"]
    assert "round_lengths" in phase
    create = schema["components"]["schemas"]["RoundsPhaseCreateInput"]["properties"]
    assert "round_lengths" in create
