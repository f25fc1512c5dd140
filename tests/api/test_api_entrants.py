"""The API of trios, players alone and Mus francés tables: a round of each through real URLs,
the one error body for bad input, who may call what, and the lists' query counts."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership
from tests.factories import MembershipFactory, PlayerFactory
from tournaments.models import Entry, FrancesTable, Match

pytestmark = pytest.mark.django_db

API = "/api/v1"
JSON = "application/json"


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.ORGANIZER)


@pytest.fixture
def desk(organizer) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer.user)
    return client


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert (error["status"], error["code"]) == (status, code)
    assert error["message"]
    return error


def post(client, url, data=None, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"{API}/{url}", data or {}, content_type=JSON, **headers)


def create(desk, organizer, kind, **extra):
    response = post(
        desk,
        "tournaments/create",
        {
            "club": organizer.club.slug,
            "name": f"Torneo {kind}",
            "starts_on": "2026-11-28",
            "entrant_kind": kind,
            **extra,
        },
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["entrant_kind"] == kind
    opened = post(desk, f"tournaments/{body['id']}/status", {"status": "registration"})
    assert opened.status_code == 200, opened.content
    return body["id"]


def swiss_round(desk, tid):
    phase = post(
        desk,
        f"tournaments/{tid}/phases/create",
        {"name": "Suizo", "format": "swiss", "rounds_planned": 2},
    )
    assert phase.status_code == 201, phase.content
    rnd = post(desk, f"phases/{phase.json()['id']}/rounds/generate")
    assert rnd.status_code == 201, rnd.content
    rid = rnd.json()["id"]
    assert post(desk, f"rounds/{rid}/publish").status_code == 200
    return phase.json()["id"], rid


def test_a_bad_entrant_kind_or_table_size_is_a_400(desk, organizer):
    body = {"club": organizer.club.slug, "name": "X", "starts_on": "2026-11-28"}
    assert_error(
        post(desk, "tournaments/create", {**body, "entrant_kind": "cuartetos"}), 400, "entrant_kind"
    )
    assert_error(
        post(
            desk, "tournaments/create", {**body, "entrant_kind": "frances", "frances_table_size": 7}
        ),
        400,
        "frances_table_size",
    )


def test_trios_register_and_bad_trios_are_400s(desk, organizer):
    tid = create(desk, organizer, "trios")
    ok = post(
        desk, f"tournaments/{tid}/trios/paste", {"text": "Ana García / Luis Pérez / Eva Ruiz"}
    )
    assert ok.status_code == 201, ok.content
    # the same answer as the pairs' paste (it was a bare list)
    assert (ok.json()["registered"], ok.json()["waiting"]) == (1, 0)
    (trio,) = ok.json()["entries"]
    assert trio["pair"]["display_name"] == "Ana García / Luis Pérez / Eva Ruiz"
    assert trio["pair"]["label"] == trio["pair"]["display_name"]  # its older name, kept
    assert trio["player_three"]["first_name"] == "Eva"
    two = post(desk, f"tournaments/{tid}/trios/paste", {"text": "Jon Sarasola / Miren Etxeberria"})
    error = assert_error(two, 400, "trio_line")
    assert error["message"].startswith("Line 1:")
    p = PlayerFactory()
    twice = post(
        desk, f"tournaments/{tid}/trios/register", {"player_ids": [p.pk, p.pk, PlayerFactory().pk]}
    )
    assert_error(twice, 400, "trio_same_player")
    pairs = post(desk, f"tournaments/{tid}/entries/paste", {"text": "Ana García / Luis Pérez"})
    assert_error(pairs, 400, "entrant_kind_mismatch")
    assert Entry.objects.filter(tournament_id=tid).count() == 1


def test_a_round_of_trios_through_the_table_links(desk, organizer):
    tid = create(desk, organizer, "trios")
    lines = "\n".join(f"A{n} Uno / B{n} Dos / C{n} Tres" for n in range(4))
    assert post(desk, f"tournaments/{tid}/trios/paste", {"text": lines}).status_code == 201
    _, rid = swiss_round(desk, tid)
    for match in Match.objects.filter(round_id=rid):
        link = Client()
        games = {"games": [{"stones": [40, 12]}, {"stones": [40, 30]}, {"stones": [40, 1]}]}
        sent = post(
            link,
            f"table/{match.token}/result",
            {"side": "a", "version": 0, **games},
            key=f"a{match.pk}",
        )
        assert sent.status_code == 200, sent.content
        done = post(
            link,
            f"table/{match.token}/result/confirm",
            {"side": "b", "version": 1},
            key=f"b{match.pk}",
        )
        assert done.status_code == 200, done.content
    assert post(desk, f"rounds/{rid}/close").status_code == 200


def test_a_trios_third_player_is_listed_wherever_a_pairs_players_are(
    desk, organizer, django_capture_on_commit_callbacks
):
    """The trio's team row names two players: the third was missing from ``players`` in the
    round's matches, the standings and standings.csv."""
    tid = create(desk, organizer, "trios")
    lines = "\n".join(f"A{n} Uno / B{n} Dos / C{n} Tres" for n in range(4))
    assert post(desk, f"tournaments/{tid}/trios/paste", {"text": lines}).status_code == 201
    phase_id, rid = swiss_round(desk, tid)
    with django_capture_on_commit_callbacks(execute=True):
        for n, match in enumerate(Match.objects.filter(round_id=rid)):
            games = {"games": [{"stones": [40, 12]}, {"stones": [40, 30]}, {"stones": [40, 1]}]}
            answer = post(desk, f"matches/{match.pk}/result", {"version": 0, **games}, key=f"m{n}")
            assert answer.status_code == 200, answer.content

    matches = desk.get(f"{API}/rounds/{rid}").json()["matches"]
    rows = desk.get(f"{API}/phases/{phase_id}/standings").json()["groups"][0]["rows"]
    text = desk.get(f"{API}/phases/{phase_id}/standings.csv").content.decode()
    csv_players = [line["players"] for line in csv.DictReader(io.StringIO(text))]

    entry = matches[0]["entry_a"]
    n = entry["name"].split()[0][1:]
    assert entry["players"] == [f"A{n} Uno", f"B{n} Dos", f"C{n} Tres"]
    assert all(len(row["players"]) == 3 for row in rows)
    assert sorted(csv_players) == [f"A{n} Uno / B{n} Dos / C{n} Tres" for n in range(4)]


def test_a_round_of_an_individual_tournament(desk, organizer):
    tid = create(desk, organizer, "individuals")
    text = "\n".join(f"Jugador {c}" for c in "ABCDEFGH")
    response = post(desk, f"tournaments/{tid}/individuals/paste", {"text": text})
    assert response.status_code == 201, response.content
    # the pairs' paste's answer (it was a bare list), and a pair's name for a name
    pasted = response.json()
    assert (pasted["registered"], pasted["waiting"], len(pasted["entries"])) == (8, 0, 8)
    players = Client().get(f"{API}/tournaments/{tid}/individuals").json()
    assert len(players) == 8 and players[0]["display_name"] == "Jugador A"
    assert players[0]["label"] == "Jugador A"  # its older name, kept
    with CaptureQueriesContext(connection) as queries:
        assert desk.get(f"{API}/tournaments/{tid}/individuals").status_code == 200
    assert len(queries) <= 8
    wrong = post(
        desk,
        f"tournaments/{tid}/phases/create",
        {"name": "Liga", "format": "round_robin", "group_size": 4},
    )
    assert_error(wrong, 400, "phase_format_alone")
    _, rid = swiss_round(desk, tid)
    for n, match in enumerate(Match.objects.filter(round_id=rid)):
        answer = post(
            desk,
            f"matches/{match.pk}/result",
            {
                "version": 0,
                "games": [{"stones": [40, 12]}, {"stones": [40, 30]}, {"stones": [40, 1]}],
            },
            key=f"m{n}",
        )
        assert answer.status_code == 200, answer.content
    assert post(desk, f"rounds/{rid}/close").status_code == 200


def test_a_round_of_mus_frances_and_bad_finishing_orders(
    desk, organizer, django_capture_on_commit_callbacks
):
    tid = create(desk, organizer, "frances", frances_table_size=4)
    text = "\n".join(f"Jugador {c}" for c in "ABCDEFG")
    assert post(desk, f"tournaments/{tid}/individuals/paste", {"text": text}).status_code == 201
    phase_id, rid = swiss_round(desk, tid)
    with CaptureQueriesContext(connection) as queries:
        tables = Client().get(f"{API}/rounds/{rid}/frances-tables").json()
    assert len(queries) <= 8
    assert sorted(len(t["seats"]) for t in tables) == [3, 4]
    # the link's secret was on the organizer's page only: the API gives it to the organizers
    assert [t["token"] for t in tables] == [None, None]
    mine = desk.get(f"{API}/rounds/{rid}/frances-tables").json()
    table = FrancesTable.objects.get(pk=tables[0]["id"])
    assert mine[0]["token"] == table.token
    ids = [s["individual_id"] for s in tables[0]["seats"]]
    link = Client()
    url = f"frances-tables/link/{mine[0]['token']}"
    assert link.get(f"{API}/{url}").json()["token"] is None  # not repeated to the table
    assert link.get(f"{API}/{url}").json()["table_number"] == table.table_number
    bad = post(link, f"{url}/result", {"seat": 1, "version": 0, "order": ids[:-1]}, key="x1")
    assert_error(bad, 400, "frances_order_missing")
    bad = post(
        link, f"{url}/result", {"seat": 1, "version": 0, "order": [ids[0], *ids[:-1]]}, key="x2"
    )
    assert_error(bad, 400, "frances_order_twice")
    bad = post(link, f"{url}/result", {"seat": 9, "version": 0, "order": ids}, key="x3")
    assert_error(bad, 400, "frances_seat")
    sent = post(link, f"{url}/result", {"seat": 1, "version": 0, "order": ids}, key="s1")
    assert sent.status_code == 200 and sent.json()["table"]["status"] == "submitted"
    replay = post(link, f"{url}/result", {"seat": 1, "version": 0, "order": ids}, key="s1")
    assert replay.json()["replayed"] is True
    stale = post(link, f"{url}/result/confirm", {"seat": 2, "version": 0}, key="c1")
    assert_error(stale, 409, "stale_version")
    done = post(link, f"{url}/result/confirm", {"seat": 2, "version": 1}, key="c2")
    assert done.json()["table"]["status"] == "confirmed"
    closed = post(link, f"{url}/result", {"seat": 1, "version": 2, "order": ids}, key="s9")
    assert_error(closed, 409, "frances_link_closed")
    other = tables[1]
    other_ids = [s["individual_id"] for s in other["seats"]]
    official = post(
        desk, f"frances-tables/{other['id']}/result", {"version": 0, "order": other_ids}, key="o"
    )
    assert official.status_code == 200, official.content
    with django_capture_on_commit_callbacks(execute=True):
        assert post(desk, f"rounds/{rid}/close").status_code == 200
    standings = Client().get(f"{API}/phases/{phase_id}/standings").json()
    rows = standings["groups"][0]["rows"]
    assert rows[0]["points"] == 3


def test_an_outsider_cannot_enter_an_organizers_result(desk, organizer):
    tid = create(desk, organizer, "frances", frances_table_size=3)
    assert (
        post(desk, f"tournaments/{tid}/individuals/paste", {"text": "A a\nB b\nC c"}).status_code
        == 201
    )
    _, rid = swiss_round(desk, tid)
    table = FrancesTable.objects.get(round_id=rid)
    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    stranger.force_login(MembershipFactory().user)
    ids = list(table.seats.values_list("entry_id", flat=True))
    response = post(
        stranger, f"frances-tables/{table.pk}/result", {"version": 0, "order": ids}, key="k"
    )
    assert response.status_code in (403, 404)
    table.refresh_from_db()
    assert table.status == "pending"


def test_pasted_trios_and_players_cost_the_same_queries_for_10_and_100_lines(desk, organizer):
    """The answer gives each waiting trio its place without a query per trio."""
    many = 100 if connection.vendor == "postgresql" else 30  # SQLite splits bulk inserts

    def count(kind: str, lines: int) -> int:
        tid = create(desk, organizer, kind, max_pairs=lines // 2)  # half of them wait
        text = "\n".join(
            f"A{n} Uno{tid} / B{n} Dos{tid} / C{n} Tres{tid}"
            if kind == "trios"
            else f"A{n} Uno{tid}"
            for n in range(lines)
        )
        with CaptureQueriesContext(connection) as queries:
            response = post(desk, f"tournaments/{tid}/{kind}/paste", {"text": text})
        assert response.status_code == 201, response.content
        if kind == "trios":
            positions = [e["waiting_position"] for e in response.json()["entries"]]
            assert positions == [None] * (lines // 2) + list(range(1, lines - lines // 2 + 1))
        return len(queries)

    assert count("trios", 10) == count("trios", many)
    assert count("individuals", 10) == count("individuals", many)


def test_standings_stored_before_gain_the_third_player_by_the_migration(
    desk, organizer, django_capture_on_commit_callbacks
):
    """A finished tournament's snapshots are never computed again: the migration adds the
    third player to the rows stored without it."""
    import importlib

    from django.apps import apps

    from tournaments.models import StandingsSnapshot

    migration = importlib.import_module("tournaments.migrations.0008_standings_trio_third_player")
    tid = create(desk, organizer, "trios")
    lines = "\n".join(f"A{n} Uno / B{n} Dos / C{n} Tres" for n in range(4))
    assert post(desk, f"tournaments/{tid}/trios/paste", {"text": lines}).status_code == 201
    phase_id, rid = swiss_round(desk, tid)
    with django_capture_on_commit_callbacks(execute=True):
        match = Match.objects.filter(round_id=rid).first()
        games = {"games": [{"stones": [40, 12]}, {"stones": [40, 30]}, {"stones": [40, 1]}]}
        answer = post(desk, f"matches/{match.pk}/result", {"version": 0, **games}, key="m")
        assert answer.status_code == 200, answer.content
    snapshot = StandingsSnapshot.objects.get(phase_id=phase_id)
    for row in snapshot.rows:  # as a snapshot stored before the fix
        row["players"] = row["players"][:2]
    snapshot.save()

    migration.third_player(apps, None)

    rows = StandingsSnapshot.objects.get(phase_id=phase_id).rows
    assert sorted(tuple(row["players"]) for row in rows)[0] == ("A0 Uno", "B0 Dos", "C0 Tres")
    assert all(len(row["players"]) == 3 for row in rows)
