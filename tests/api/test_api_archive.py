"""Export and import through the API: a peña's archive taken out, the database emptied (as a
fresh instance would be), the archive imported, and the same standings, brackets and results
served again; a foreign, newer, corrupted or inconsistent archive refused with nothing stored;
the CSV downloads.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from clubs.models import Club, Pair, Player
from tests.api.test_api_full_tournament import (
    Api,
    add_phase,
    open_tournament,
    play_bracket,
    play_round,
    standings,
)
from tests.factories import UserFactory
from tournaments.archive import VERSION, archive_dumps, checksum
from tournaments.models import (
    AuditEntry,
    HandEntry,
    Match,
    Phase,
    ResultSubmission,
    Tournament,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/"


@pytest.fixture
def desk(django_capture_on_commit_callbacks) -> Api:
    client = APIClient()
    client.force_login(UserFactory(username="organizadora"))
    return Api(client, django_capture_on_commit_callbacks)


@pytest.fixture
def table(django_capture_on_commit_callbacks) -> Api:
    return Api(APIClient(), django_capture_on_commit_callbacks)


def played_tournament(desk: Api, table: Api) -> dict:
    """Liguilla groups, then a crossing knockout played to its champion (a bracket in JSON,
    groups in JSON, hands and submissions)."""
    tournament = open_tournament(desk)
    groups = add_phase(desk, tournament, name="Liguilla", format="round_robin", group_size=4)
    for _ in (1, 2, 3):
        rnd = desk.post(f"phases/{groups['id']}/rounds/generate", status=201)
        play_round(desk, table, rnd)
    knockout = add_phase(
        desk,
        tournament,
        name="Cruces",
        format="single_elimination",
        source_id=groups["id"],
        qualifiers_per_group=2,
    )
    desk.post(f"phases/{groups['id']}/advance", status=201)
    play_bracket(desk, table, knockout["id"])
    desk.post(f"phases/{knockout['id']}/finish")
    return tournament


def by_name(rows: list[dict]) -> list[tuple]:
    """Standings rows without the ids an import changes."""
    return [
        (row.get("group"), row["rank"], row["name"], row["played"], row["won"], row["games_won"])
        + (row["stones_won"], row["buchholz"], row["separated_by"], json.dumps(row["tiebreaks"]))
        for row in rows
    ]


def served(api: Api, tournament_id: int) -> dict:
    """What a reader sees of a tournament: each phase's standings and bracket, the results."""
    phases = api.get(f"tournaments/{tournament_id}/phases")
    out = {}
    for phase in phases:
        bracket = None
        if phase["format"] == "single_elimination":
            data = api.get(f"phases/{phase['id']}/bracket")
            names = {e["id"]: e["name"] for e in data["entries"]}
            slots = [
                (m["id"], names.get(m[s]["entry_id"]), m[s]["label"], m["match"]["status"])
                for m in data["matches"]
                for s in ("a", "b")
            ]
            bracket = (names[data["champion_id"]], slots)
        out[phase["name"]] = (by_name(standings(api, phase["id"])), bracket)
    csv_text = api.client.get(f"{API}tournaments/{tournament_id}/results.csv").content.decode()
    out["results"] = csv_text
    return out


def wipe(club: Club) -> None:
    """Delete the peña and everything of it, as if the archive went to a fresh database."""
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.all().delete()
    Player.objects.all().delete()
    club.delete()


def test_a_peña_exported_and_imported_into_an_empty_database_serves_the_same(desk, table):
    tournament = played_tournament(desk, table)
    club = Club.objects.get()
    before = served(desk, tournament["id"])
    counts = (
        ResultSubmission.objects.count(),
        AuditEntry.objects.count(),
        HandEntry.objects.count(),
    )

    response = desk.client.get(f"{API}clubs/{club.id}/archive")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="amarrako-pena-txoko-')
    archive = json.loads(response.content)
    assert (archive["format"], archive["version"], archive["scope"]) == (
        "amarrako.archive",
        VERSION,
        "club",
    )
    assert len(archive["players"]) == 16 and len(archive["pairs"]) == 8

    wipe(club)
    upload = io.BytesIO(response.content)
    upload.name = "archive.json"
    with desk.capture(execute=True):
        answer = desk.client.post(f"{API}archive/import", {"archive": upload}, format="multipart")
    assert answer.status_code == 201, answer.json()
    result = answer.json()
    assert result["club_created"] is True and result["club"]["slug"] == "pena-txoko"
    assert (result["players_created"], result["pairs_created"]) == (16, 8)
    [imported] = result["tournaments"]

    assert served(desk, imported["id"]) == before
    # Every submission and audit row came along, plus one audit row saying it was imported.
    assert (
        ResultSubmission.objects.count(),
        AuditEntry.objects.count() - 1,
        HandEntry.objects.count(),
    ) == counts
    assert AuditEntry.objects.filter(action="tournament_imported").count() == 1
    # New table links: the old ones were not exported.
    assert "token" not in archive["tournaments"][0]["phases"][0]["rounds"][0]["matches"][0]


def test_a_tournament_archive_as_the_json_body_and_the_same_archive_twice(desk, table):
    tournament = played_tournament(desk, table)
    archive = desk.get(f"tournaments/{tournament['id']}/archive")
    assert archive["scope"] == "tournament" and len(archive["tournaments"]) == 1
    before = served(desk, tournament["id"])
    wipe(Club.objects.get())

    result = desk.post("archive/import", archive, status=201)
    assert served(desk, result["tournaments"][0]["id"]) == before

    # Once more into the peña it created: refused, and nothing more stored.
    rows = Match.objects.count(), Player.objects.count()
    error = desk.post("archive/import", archive, status=409)["error"]
    assert error["code"] == "archive_tournament_exists"
    assert error["params"]["slug"] == tournament["slug"]
    assert (Match.objects.count(), Player.objects.count()) == rows


def test_the_management_commands_export_and_import(desk, table, tmp_path):
    tournament = played_tournament(desk, table)
    before = served(desk, tournament["id"])
    path = tmp_path / "pena.json"
    call_command("archive_export", "--club", "pena-txoko", "-o", str(path), stderr=io.StringIO())
    wipe(Club.objects.get())
    out = io.StringIO()
    call_command("archive_import", str(path), "--user", "organizadora", stdout=out)
    assert "Imported into Peña Txoko (pena-txoko, new): Torneo de San Fermín" in out.getvalue()
    imported = Tournament.objects.get()
    assert served(desk, imported.id) == before


@pytest.fixture
def archive(desk) -> dict:
    club = desk.post("clubs/create", {"name": "Peña Txoko"}, status=201)
    desk.post(f"clubs/{club['id']}/players/create", {"first_name": "Maite"}, status=201)
    return desk.get(f"clubs/{club['id']}/archive")


def _resealed(archive: dict) -> dict:
    archive = dict(archive)
    archive["checksum"] = checksum(archive)
    return archive


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        (lambda a: {**a, "format": "other.app"}, 400, "archive_foreign"),
        (lambda a: [1, 2, 3], 400, "archive_foreign"),
        (lambda a: _resealed({**a, "version": VERSION + 1}), 400, "archive_version_newer"),
        (lambda a: {**a, "players": []}, 400, "archive_checksum"),
        (lambda a: _resealed({**a, "players": [{"id": 1}]}), 400, "archive_damaged"),
        (
            lambda a: _resealed({**a, "pairs": [{**PAIR, "player_one": 99}]}),
            400,
            "archive_reference",
        ),
        (
            lambda a: _resealed({**a, "club": {**a["club"], "slug": "not a slug!"}}),
            400,
            "archive_value",
        ),
    ],
    ids=["foreign", "not-an-object", "newer", "corrupted", "damaged", "reference", "value"],
)
def test_a_bad_archive_is_refused_and_nothing_is_stored(desk, archive, change, status, code):
    Club.objects.all().delete()
    Player.objects.all().delete()
    bad = change(archive)
    error = desk.post("archive/import", bad, status=status)["error"]
    assert error["code"] == code, error
    assert (Club.objects.count(), Player.objects.count()) == (0, 0)


PAIR = {
    "id": 1,
    "player_one": 1,
    "player_two": 2,
    "name": "",
    "club": None,
    "created_at": "2026-07-07T10:00:00+00:00",
}


def test_a_half_valid_archive_stores_nothing(desk, archive):
    """The pair's second player is missing: the players before it are not kept either."""
    Club.objects.all().delete()
    Player.objects.all().delete()
    first = archive["players"][0]
    bad = _resealed({**archive, "pairs": [{**PAIR, "player_one": first["id"], "player_two": 77}]})
    error = desk.post("archive/import", bad, status=400)["error"]
    assert error["code"] == "archive_reference"
    assert error["params"] == {"where": "pairs[0].player_two", "kind": "player", "id": "77"}
    assert (Club.objects.count(), Player.objects.count()) == (0, 0)


def test_not_json_and_the_message_in_spanish(desk):
    upload = io.BytesIO(b'{"format": "amarrako.archive", "vers')
    upload.name = "cut.json"
    response = desk.client.post(
        f"{API}archive/import",
        {"archive": upload},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "archive_not_json"
    assert error["message"].startswith("El archivo no es JSON válido")


def test_a_damaged_archive_sent_as_the_json_body_is_named_as_an_archive(desk):
    """The body was read by the API's JSON parser first, which answered json_invalid: a client
    sending the archive's file as the body could not tell it from any other bad request."""
    for body, code in (
        ('{"format": "amarrako.archive", "vers', "archive_not_json"),
        (b'{"format": "\xff"}', "archive_not_text"),
    ):
        response = desk.client.post(f"{API}archive/import", body, content_type="application/json")
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == code


def test_who_may_export_and_import(desk, archive):
    club = Club.objects.get()
    stranger = APIClient()
    stranger.force_login(UserFactory(username="otro"))
    response = stranger.get(f"{API}clubs/{club.id}/archive")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_organizer"
    # Into a peña that exists, only its organizers import.
    response = stranger.post(f"{API}archive/import", archive, format="json")
    assert response.status_code == 403
    assert APIClient().post(f"{API}archive/import", archive, format="json").status_code == 403


def test_standings_and_results_as_csv(desk, table):
    tournament = played_tournament(desk, table)
    phases = desk.get(f"tournaments/{tournament['id']}/phases")
    anonymous = APIClient()
    response = anonymous.get(f"{API}phases/{phases[0]['id']}/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="torneo-de-san-fermin-1-standings.csv"'
    )
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 8 and {r["group"] for r in rows} == {"A", "B"}
    assert rows[0]["rank"] == "1" and rows[0]["played"] == "3"

    response = anonymous.get(f"{API}tournaments/{tournament['id']}/results.csv")
    assert response.status_code == 200
    results = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["phase"] for r in results} == {"Liguilla", "Cruces"}
    assert all(r["status"] == "confirmed" for r in results)
    # A private or draft tournament's CSV does not exist for a stranger.
    assert anonymous.get(f"{API}tournaments/999999/results.csv").status_code == 404


def test_a_formula_in_a_name_is_quoted_in_the_csv():
    from tournaments.selectors.archive import _cell

    assert _cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and _cell("Maite") == "Maite"
    assert _cell(None) == "" and _cell(-3) == -3


def test_the_archive_text_is_its_json():
    assert json.loads(archive_dumps({"a": "ñ"})) == {"a": "ñ"}


def test_an_export_costs_the_same_few_queries_whatever_its_size(
    desk, table, django_assert_max_num_queries
):
    played_tournament(desk, table)
    club = Club.objects.get()
    # The session, the peña and its role check, then one query per kind of row (30 in all,
    # the leagues' five, the circuits' three and the interpeñas' two included).
    with django_assert_max_num_queries(31):
        response = desk.client.get(f"{API}clubs/{club.id}/archive")
    assert response.status_code == 200


def who_made(archive: dict) -> list[tuple[str, object]]:
    """Every ``created_by`` and audit ``actor`` of an archive, by where it is (ids and list
    positions left out), in the archive's order; the audit row an import adds is left out."""
    found: list[tuple[str, object]] = []

    def walk(value, path: str) -> None:
        if isinstance(value, dict):
            if value.get("action") == "tournament_imported":
                return
            for key in sorted(value):
                if key in ("created_by", "actor"):
                    found.append((f"{path}.{key}", value[key]))
                else:
                    walk(value[key], f"{path}.{key}")
        elif isinstance(value, list):
            for item in value:
                walk(item, path)

    walk({k: v for k, v in archive.items() if k != "checksum"}, "")
    return found


def test_who_made_each_change_survives_export_import_export(desk, table):
    """Issue 23 #6: the import dropped every audit row's actor and a submission's author, and
    made the importer the creator of everything."""
    played_tournament(desk, table)
    # the organizer enters one result again (a correction that keeps it): a submission of hers
    match = Match.objects.filter(bracket_key="", kind="played").order_by("id").first()
    entered = [s.payload for s in match.submissions.order_by("id") if "games" in s.payload]
    payload = {"games": entered[-1]["games"]}
    desk.post(f"matches/{match.id}/result/correct", {"version": match.version, **payload})
    club = Club.objects.get()
    first = desk.get(f"clubs/{club.id}/archive")
    names = who_made(first)
    assert ("organizadora" in {n for _, n in names}) and (
        ".tournaments.created_by",
        None,
    ) not in names
    assert any(path.endswith("audit.actor") and n == "organizadora" for path, n in names)
    assert any(path.endswith("submissions.created_by") and n == "organizadora" for path, n in names)

    wipe(club)
    importer = APIClient()
    importer.force_login(UserFactory(username="otra-organizadora"))
    response = importer.post(f"{API}archive/import", first, format="json")
    assert response.status_code == 201, response.json()
    again = importer.get(f"{API}clubs/{Club.objects.get().id}/archive").json()
    assert who_made(again) == names
    # the match's history still says who did it, as the archive named them
    match = Match.objects.filter(audit__actor_name="organizadora").first()
    history = importer.get(f"{API}matches/{match.id}/history").json()
    assert "organizadora" in {a["actor"] for a in history["audit"]}
