"""The rounds API through real URLs: phases, draws, rounds and tables, brackets, permissions."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Membership
from tests.factories import MembershipFactory, tournament_field
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.services.rounds import round_draw_generate, round_publish

pytestmark = pytest.mark.django_db


def url(name: str, **kwargs) -> str:
    return reverse(f"api:tournaments:rounds-{name}", kwargs=kwargs)


def field(pairs: int, *, tables: int = 0, **tournament):
    tournament.setdefault("status", Tournament.Status.RUNNING)
    return tournament_field(pairs, tables=tables, **tournament)


def post(client, path: str, data: dict | None = None):
    return client.post(path, data or {}, content_type="application/json")


def create_phase(client, t, **data):
    data = {"name": "Suizo", "format": "swiss", **data}
    if data["format"] == "swiss":  # the one format that reads it (phase_option_unread)
        data.setdefault("rounds_planned", 3)
    response = post(client, url("phase-create", tournament_id=t.id), data)
    assert response.status_code == 201, response.json()
    return response.json()


def generate(client, phase_id: int) -> dict:
    response = post(client, url("round-generate", phase_id=phase_id))
    assert response.status_code == 201, response.json()
    return response.json()


def test_organizer_creates_a_phase_draws_and_publishes_a_round(client):
    t, organizer, entries = field(5, tables=3)
    client.force_login(organizer)
    phase = create_phase(client, t, games_per_vaca=4)
    assert phase["order"] == 1 and phase["status"] == "pending"
    assert phase["rules"]["games_per_vaca"] == 4 and phase["rounds"] == []

    drawn = generate(client, phase["id"])

    assert drawn["number"] == 1 and drawn["status"] == "draft"
    tables = [m["table_number"] for m in drawn["matches"]]
    assert tables == [1, 2, None]  # tables first, the bye last
    bye = drawn["matches"][-1]
    assert bye["kind"] == "bye" and bye["entry_b"] is None and bye["games_a"] == 4
    first = drawn["matches"][0]
    assert len(first["entry_a"]["players"]) == 2 and first["entry_a"]["club"] == t.club.name
    assert first["reasons"][0]["code"] == "same_score"
    # The reasons' texts come from the errors catalogs, in the request's language (English
    # unless Accept-Language asks for another, like the errors' messages).
    assert first["reasons"][0]["text"] == "same record 0–0"
    spanish = client.get(url("round", round_id=drawn["id"]), HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish["matches"][0]["reasons"][0]["text"] == "mismo balance 0–0"

    published = post(client, url("round-publish", round_id=drawn["id"]))
    assert published.status_code == 200
    assert published.json()["status"] == "published"
    detail = client.get(url("phase", phase_id=phase["id"])).json()
    assert detail["status"] == "running" and [r["number"] for r in detail["rounds"]] == [1]


def test_a_draw_error_is_a_400_with_the_algorithms_message(client):
    t, organizer, entries = field(6, tables=2)
    client.force_login(organizer)
    phase = create_phase(client, t)
    response = post(client, url("round-generate", phase_id=phase["id"]))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "tables_too_few"
    assert error["params"] == {"matches": 3, "tables": 2}
    assert error["message"].startswith("This round has 3 matches but only 2 tables")
    spanish = client.post(
        url("round-generate", phase_id=phase["id"]),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert spanish.json()["error"]["message"] == (
        "Partidas de esta ronda: 3; mesas: 2. Añade mesas o divide la ronda en turnos."
    )
    assert not Round.objects.exists()


def test_bad_input_is_a_400_never_a_500(client):
    t, organizer, _ = field(2)
    client.force_login(organizer)
    path = url("phase-create", tournament_id=t.id)
    response = post(client, path, {"name": "X", "format": "swiss"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "phase_rounds_planned"
    response = post(client, path, {"name": "X", "format": "tute"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation"
    assert "format" in response.json()["error"]["fields"]
    response = post(client, path, {"name": "X", "format": "swiss", "rounds_planned": 3,
                                   "stones_per_game": 7})  # fmt: skip
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "phase_rules"
    assert post(client, url("round-generate", phase_id=99999)).status_code == 404


def test_round_lifecycle_errors_are_409_with_the_tables(client):
    t, organizer, entries = field(6)
    client.force_login(organizer)
    phase = create_phase(client, t)
    drawn = generate(client, phase["id"])
    response = post(client, url("round-close", round_id=drawn["id"]))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "round_not_published"
    post(client, url("round-publish", round_id=drawn["id"]))
    again = post(client, url("round-publish", round_id=drawn["id"]))
    assert again.status_code == 409 and again.json()["error"]["code"] == "round_not_draft"
    Match.objects.filter(round_id=drawn["id"], table_number=2).update(
        status=Match.Status.IN_PROGRESS
    )
    response = post(client, url("round-close", round_id=drawn["id"]))
    assert response.status_code == 409
    assert response.json()["error"]["params"]["tables"] == [1, 2, 3]
    generate_again = post(client, url("round-generate", phase_id=phase["id"]))
    assert generate_again.status_code == 409
    assert generate_again.json()["error"]["code"] == "round_previous_open"
    a, b = drawn["matches"][:2]
    swap = post(
        client,
        url("round-swap-tables", round_id=drawn["id"]),
        {"match_id": a["id"], "other_match_id": b["id"]},
    )
    assert swap.status_code == 409 and swap.json()["error"]["code"] == "round_started"


def test_swaps_and_moves_before_the_round_starts(client):
    t, organizer, entries = field(8, tables=6)
    client.force_login(organizer)
    drawn = generate(client, create_phase(client, t)["id"])
    a, b = drawn["matches"][:2]
    response = post(
        client,
        url("round-swap-entries", round_id=drawn["id"]),
        {"entry_id": a["entry_a"]["id"], "other_entry_id": b["entry_b"]["id"]},
    )
    assert response.status_code == 200
    swapped = {m["id"]: m for m in response.json()["matches"]}
    assert swapped[a["id"]]["entry_a"]["id"] == b["entry_b"]["id"]
    assert swapped[a["id"]]["reasons"][0]["code"] == "organizer_swap"
    response = post(
        client,
        url("round-swap-tables", round_id=drawn["id"]),
        {"match_id": a["id"], "other_match_id": b["id"]},
    )
    tables = {m["id"]: m["table_number"] for m in response.json()["matches"]}
    assert (tables[a["id"]], tables[b["id"]]) == (2, 1)
    response = post(
        client,
        url("round-move-table", round_id=drawn["id"]),
        {"match_id": a["id"], "table_number": 6},
    )
    assert {m["id"]: m["table_number"] for m in response.json()["matches"]}[a["id"]] == 6
    taken = post(
        client,
        url("round-move-table", round_id=drawn["id"]),
        {"match_id": a["id"], "table_number": 1},
    )
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "table_taken"


def test_public_reads_of_a_published_tournament_hide_draft_rounds(client):
    t, organizer, entries = field(4)
    client.force_login(organizer)
    phase = create_phase(client, t)
    drawn = generate(client, phase["id"])
    client.logout()

    listing = client.get(url("phases", tournament_id=t.id))
    assert listing.status_code == 200
    assert [p["rounds"] for p in listing.json()] == [[]]  # the draft is not shown
    assert client.get(url("round", round_id=drawn["id"])).status_code == 404

    Round.objects.filter(pk=drawn["id"]).update(status=Round.Status.PUBLISHED)
    listing = client.get(url("phases", tournament_id=t.id)).json()
    assert [r["id"] for r in listing[0]["rounds"]] == [drawn["id"]]
    shown = client.get(url("round", round_id=drawn["id"]))
    assert shown.status_code == 200 and len(shown.json()["matches"]) == 2


@pytest.mark.parametrize(
    ("is_public", "status"),
    [(False, Tournament.Status.RUNNING), (True, Tournament.Status.DRAFT)],
)
def test_private_and_draft_tournaments_are_404_to_others(client, is_public, status):
    t, organizer, entries = field(4, is_public=is_public, status=status)
    phase = Phase.objects.create(tournament=t, order=1, name="Suizo", format="swiss")
    rnd = Round.objects.create(phase=phase, number=1, status=Round.Status.PUBLISHED)
    stranger = MembershipFactory(role=Membership.Role.OWNER).user
    for user in (None, stranger):
        if user:
            client.force_login(user)
        for path in (
            url("phases", tournament_id=t.id),
            url("phase", phase_id=phase.id),
            url("phase-standings", phase_id=phase.id),
            url("round", round_id=rnd.id),
        ):
            assert client.get(path).status_code == 404, path
        if user:
            response = post(client, url("round-generate", phase_id=phase.id))
            assert response.status_code == 404
    client.force_login(organizer)
    assert client.get(url("round", round_id=rnd.id)).status_code == 200


def test_writes_need_an_organizer_of_the_pena(client):
    t, organizer, entries = field(4)
    phase = Phase.objects.create(
        tournament=t, order=1, name="Suizo", format="swiss", rounds_planned=3
    )
    path = url("round-generate", phase_id=phase.id)
    assert post(client, path).status_code == 403  # anonymous
    member = MembershipFactory(club=t.club, role=Membership.Role.MEMBER).user
    stranger = MembershipFactory(role=Membership.Role.ORGANIZER).user
    for user in (member, stranger):
        client.force_login(user)
        response = post(client, path)
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "not_organizer"
    assert not Round.objects.exists()


def test_bracket_endpoint(client):
    t, organizer, entries = field(5)
    client.force_login(organizer)
    phase = create_phase(client, t, name="Copa", format="single_elimination", third_place=True)
    response = client.get(url("phase-bracket", phase_id=phase["id"]))
    assert response.status_code == 404
    drawn = generate(client, phase["id"])
    post(client, url("round-publish", round_id=drawn["id"]))
    client.logout()
    bracket = client.get(url("phase-bracket", phase_id=phase["id"])).json()
    assert bracket["size"] == 8 and bracket["finals"] == ["W3-1"]
    assert bracket["champion_id"] is None
    ids = [m["id"] for m in bracket["matches"]]
    assert ids[:4] == ["W1-1", "W1-2", "W1-3", "W1-4"] and "3P" in ids
    top = bracket["matches"][0]
    assert top["a"]["entry_id"] == entries[0].id and top["b"]["bye"] is True
    assert top["match"]["kind"] == "bye"
    assert len(bracket["entries"]) == 5


def _published_round(pairs: int):
    t, organizer, entries = field(pairs)
    phase = Phase.objects.create(
        tournament=t, order=1, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return t, organizer, rnd


def test_reads_take_the_same_queries_for_8_and_64_pairs(client, django_assert_max_num_queries):
    counts = []
    for pairs in (8, 64):
        t, organizer, rnd = _published_round(pairs)
        reads = [url("round", round_id=rnd.id), url("phases", tournament_id=t.id)]
        seen = []
        for user in (None, organizer):
            if user:
                client.force_login(user)
            # Anonymous: the round (with phase, tournament, peña) and its matches; logged in:
            # the session, the user and the organizer check on top.
            for path in reads:
                with django_assert_max_num_queries(3 if user is None else 6):
                    response = client.get(path)
                assert response.status_code == 200
                with CaptureQueriesContext(connection) as queries:
                    client.get(path)
                seen.append(len(queries))
            client.logout()
        assert len(client.get(reads[0]).json()["matches"]) == pairs // 2
        counts.append(seen)
    assert counts[0] == counts[1]


def test_bracket_read_takes_the_same_queries_for_8_and_64_pairs(
    client, django_assert_max_num_queries
):
    counts = []
    for pairs in (8, 64):
        t, organizer, entries = field(pairs)
        phase = Phase.objects.create(
            tournament=t, order=1, name="Copa", format="single_elimination"
        )
        round_publish(round=round_draw_generate(phase=phase, actor=organizer), actor=organizer)
        path = url("phase-bracket", phase_id=phase.id)
        # The phase (with tournament and peña) and the bracket's matches with their pairs.
        with django_assert_max_num_queries(2):
            response = client.get(path)
        assert len(response.json()["entries"]) == pairs
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        counts.append(len(queries))
    assert counts[0] == counts[1]
