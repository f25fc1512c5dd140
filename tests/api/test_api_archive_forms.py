"""The archive of every form a tournament takes (trios, players alone with drawn partners, Mus
francés tables) and its house rules: exported, the database emptied, imported, and the same
standings and audit served again; an archive of version 1 still imports; a broken version-2
archive is refused with nothing stored.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from clubs.models import Club, Membership, Pair, Player
from tests.api.test_api_entrants import create, post, swiss_round
from tests.factories import MembershipFactory
from tournaments.archive import ADDED_IN_2, VERSION, checksum
from tournaments.models import (
    AuditEntry,
    Entry,
    FrancesSubmission,
    FrancesTable,
    IndividualEntry,
    Match,
    Phase,
    Tournament,
)
from tournaments.selectors.rounds import tournament_rules

pytestmark = pytest.mark.django_db

API = "/api/v1"
GAMES = {
    "games": [{"stones": [40, 12]}, {"stones": [31, 40]}, {"stones": [40, 1]}, {"stones": [40, 7]}]
}
SUIT = "oros"


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.OWNER, club__slug="pena-archivo")


@pytest.fixture
def desk(organizer) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer.user)
    return client


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what a write queues (standings, …) as the worker would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def trios(desk, organizer, on_commit) -> int:
    """Four trios, a Swiss round played through the table links, under house rules (a 31 real
    the trios form knows: the sota of a suit is for pairs, so the players alone keep it; the
    tío Perete is counted between two pairs only)."""
    rules = {"forgotten_stones_lost": True, "real_31": "figure_777"}
    tid = create(desk, organizer, "trios", rules=rules)
    lines = "\n".join(f"A{n} Uno / B{n} Dos / C{n} Tres" for n in range(4))
    assert post(desk, f"tournaments/{tid}/trios/paste", {"text": lines}).status_code == 201
    with on_commit():
        _, rid = swiss_round(desk, tid)
        for match in Match.objects.filter(round_id=rid):
            link = Client()
            url = f"table/{match.token}/result"
            sent = post(link, url, {"side": "a", "version": 0, **GAMES}, key=f"a{match.pk}")
            assert sent.status_code == 200, sent.content
            done = post(link, f"{url}/confirm", {"side": "b", "version": 1}, key=f"b{match.pk}")
            assert done.status_code == 200, done.content
        assert post(desk, f"rounds/{rid}/close").status_code == 200
    return tid


def individuals(desk, organizer, on_commit) -> int:
    """Nine players alone (one rests), two rounds of drawn partnerships, with the 31 real of
    the sota of a suit (their tables play pairs)."""
    rules = {"real_31": "sota_of_suit", "real_31_suit": SUIT}
    tid = create(desk, organizer, "individuals", rules=rules)
    text = "\n".join(f"Jugador {c}" for c in "ABCDEFGHI")
    assert post(desk, f"tournaments/{tid}/individuals/paste", {"text": text}).status_code == 201
    with on_commit():
        phase_id, rid = swiss_round(desk, tid)
        for number in (1, 2):
            if number == 2:
                rnd = post(desk, f"phases/{phase_id}/rounds/generate")
                assert rnd.status_code == 201, rnd.content
                rid = rnd.json()["id"]
                assert post(desk, f"rounds/{rid}/publish").status_code == 200
            for match in Match.objects.filter(round_id=rid).exclude(entry_b=None):
                answer = post(
                    desk,
                    f"matches/{match.pk}/result",
                    {"version": 0, **GAMES},
                    key=f"m{match.pk}",
                )
                assert answer.status_code == 200, answer.content
            assert post(desk, f"rounds/{rid}/close").status_code == 200
    return tid


def frances(desk, organizer, on_commit) -> int:
    """Seven players at Mus francés tables of four and three: one table's order entered and
    confirmed from its link, the other entered by the organizer."""
    tid = create(desk, organizer, "frances", frances_table_size=4)
    text = "\n".join(f"Jugador {c}" for c in "ABCDEFG")
    assert post(desk, f"tournaments/{tid}/individuals/paste", {"text": text}).status_code == 201
    with on_commit():
        _, rid = swiss_round(desk, tid)
        first, second = FrancesTable.objects.filter(round_id=rid).order_by("table_number")
        ids = list(first.seats.order_by("seat").values_list("entry_id", flat=True))[::-1]
        url = f"frances-tables/link/{first.token}/result"
        link = Client()
        assert post(link, url, {"seat": 1, "version": 0, "order": ids}, key="s").status_code == 200
        done = post(link, f"{url}/confirm", {"seat": 2, "version": 1}, key="c")
        assert done.status_code == 200, done.content
        other = list(second.seats.values_list("entry_id", flat=True))
        official = post(
            desk, f"frances-tables/{second.pk}/result", {"version": 0, "order": other}, key="o"
        )
        assert official.status_code == 200, official.content
        assert post(desk, f"rounds/{rid}/close").status_code == 200
    return tid


FORMS = {"trios": trios, "individuals": individuals, "frances": frances}


def served(client: Client, tid: int) -> dict:
    """What a reader sees: the tournament's form and rules, each phase's standings (without
    the ids an import changes), the audit trail as it was."""
    tournament = client.get(f"{API}/tournaments/{tid}").json()
    phases = client.get(f"{API}/tournaments/{tid}/phases").json()
    standings = {}
    for phase in phases:
        groups = client.get(f"{API}/phases/{phase['id']}/standings").json()["groups"]
        standings[phase["name"]] = [
            [{k: v for k, v in row.items() if k not in ("entry_id", "id")} for row in g["rows"]]
            for g in groups
        ]
    audit = list(
        AuditEntry.objects.filter(tournament_id=tid)
        .exclude(action="tournament_imported")
        .order_by("created_at", "id")
        .values_list("action", "via", "device", "old", "new")
    )
    return {
        "form": {k: tournament[k] for k in ("entrant_kind", "frances_table_size", "rules")},
        "standings": standings,
        "audit": audit,
    }


def wipe(club: Club) -> None:
    """The peña and everything of it deleted, as if the archive went to a fresh database."""
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    FrancesTable.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.all().delete()
    Player.objects.all().delete()
    club.delete()


def export(client: Client, club: Club) -> dict:
    response = client.get(f"{API}/clubs/{club.pk}/archive")
    assert response.status_code == 200
    return json.loads(response.content)


def import_(client: Client, archive: dict, status: int = 201) -> dict:
    response = client.post(f"{API}/archive/import", archive, content_type="application/json")
    assert response.status_code == status, response.content
    return response.json()


@pytest.mark.parametrize("form", FORMS)
def test_each_form_exported_and_imported_into_an_empty_database_serves_the_same(
    desk, organizer, on_commit, form
):
    tid = FORMS[form](desk, organizer, on_commit)
    before = served(desk, tid)
    assert before["form"]["entrant_kind"] == form
    assert any(rows for groups in before["standings"].values() for rows in groups)
    counts = (
        Entry.objects.count(),
        IndividualEntry.objects.count(),
        FrancesSubmission.objects.count(),
    )
    club = Club.objects.get(slug="pena-archivo")
    archive = export(desk, club)
    assert archive["version"] == VERSION

    wipe(club)
    with on_commit():
        result = import_(desk, archive)
    [imported] = result["tournaments"]
    assert served(desk, imported["id"]) == before
    assert (
        Entry.objects.count(),
        IndividualEntry.objects.count(),
        FrancesSubmission.objects.count(),
    ) == counts


def rested_names() -> dict[str, str]:
    """Who rested in each round of the individual tournament, by name."""
    phase = Phase.objects.get(tournament__entrant_kind="individuals")
    names = {
        i.pk: str(i.player)
        for i in IndividualEntry.objects.filter(tournament=phase.tournament).select_related(
            "player"
        )
    }
    return {n: ", ".join(names[pk] for pk in ids) for n, ids in phase.settings["rests"].items()}


def test_what_each_form_keeps(desk, organizer, on_commit):
    """Trios keep their third player; drawn partnerships stay drawn; the rests and a francés
    table's finishing order point at the imported players."""
    for build in FORMS.values():
        build(desk, organizer, on_commit)
    rested_before = rested_names()
    club = Club.objects.get(slug="pena-archivo")
    archive = export(desk, club)
    wipe(club)
    with on_commit():
        import_(desk, archive)

    trio = Tournament.objects.get(entrant_kind="trios")
    assert (trio.tio_perete, trio.forgotten_stones_lost) == (False, True)
    assert trio.real_31 == "figure_777"
    assert all(e.player_three_id for e in trio.entries.all())

    alone = Tournament.objects.get(entrant_kind="individuals")
    assert (alone.real_31, alone.real_31_suit) == ("sota_of_suit", SUIT)
    assert alone.entries.filter(drawn=False).count() == 0
    assert rested_names() == rested_before and len(rested_before) == 2

    table = FrancesTable.objects.filter(order__isnull=False).order_by("table_number").first()
    seated = set(table.seats.values_list("entry_id", flat=True))
    assert set(table.order) == seated and len(seated) == 4
    assert all(set(s.order) == seated for s in table.submissions.all())
    assert Tournament.objects.get(entrant_kind="frances").frances_table_size == 4


def as_version_1(archive: dict) -> dict:
    """The archive as Amarrako wrote it before version 2 (none of the fields it added)."""

    def strip(kind: str, record: dict) -> dict:
        out = {k: v for k, v in record.items() if k not in ADDED_IN_2.get(kind, {})}
        for child in ("entries", "phases", "rounds", "matches"):
            if child in out:
                out[child] = [strip(child, r) for r in out[child]]
        return out

    old = {**archive, "version": 1}
    old["presets"] = [strip("presets", p) for p in archive["presets"]]
    old["tournaments"] = [strip("tournaments", t) for t in archive["tournaments"]]
    old["checksum"] = checksum(old)
    return old


def test_an_archive_of_version_1_still_imports(desk, organizer, on_commit):
    tid = create(desk, organizer, "pairs")
    lines = "\n".join(f"A{n} Uno / B{n} Dos" for n in range(4))
    assert post(desk, f"tournaments/{tid}/entries/paste", {"text": lines}).status_code == 201
    with on_commit():
        _, rid = swiss_round(desk, tid)
        for match in Match.objects.filter(round_id=rid):
            answer = post(
                desk, f"matches/{match.pk}/result", {"version": 0, **GAMES}, key=f"m{match.pk}"
            )
            assert answer.status_code == 200, answer.content
        assert post(desk, f"rounds/{rid}/close").status_code == 200
    before = served(desk, tid)
    club = Club.objects.get(slug="pena-archivo")
    old = as_version_1(export(desk, club))
    assert "entrant_kind" not in old["tournaments"][0]
    assert "drawn" not in old["tournaments"][0]["entries"][0]

    wipe(club)
    with on_commit():
        result = import_(desk, old)
    assert served(desk, result["tournaments"][0]["id"]) == before


@pytest.fixture
def frances_archive(desk, organizer, on_commit) -> dict:
    frances(desk, organizer, on_commit)
    club = Club.objects.get(slug="pena-archivo")
    archive = export(desk, club)
    wipe(club)
    return archive


def _table(archive: dict) -> dict:
    return archive["tournaments"][0]["phases"][0]["rounds"][0]["frances_tables"][0]


def _resealed(archive: dict) -> dict:
    archive["checksum"] = checksum(archive)
    return archive


def _no_individuals(a: dict) -> dict:
    del a["tournaments"][0]["individual_entries"]
    return a


def _unknown_in_order(a: dict) -> dict:
    _table(a)["order"] = [*_table(a)["order"][:-1], 999999]
    return a


def _unknown_seat(a: dict) -> dict:
    _table(a)["seats"][0]["entry"] = 999999
    return a


def _bad_kind(a: dict) -> dict:
    a["tournaments"][0]["entrant_kind"] = "quartets"
    return a


def _bad_table_size(a: dict) -> dict:
    a["tournaments"][0]["frances_table_size"] = 9
    return a


def _seat_twice(a: dict) -> dict:
    seats = _table(a)["seats"]
    seats[1]["entry"] = seats[0]["entry"]
    return a


ROOT = "tournaments[0]"
TABLE = f"{ROOT}.phases[0].rounds[0].frances_tables[0]"


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        (_no_individuals, "archive_damaged", f"{ROOT}.individual_entries"),
        (_unknown_in_order, "archive_value", TABLE),
        (_unknown_seat, "archive_reference", f"{TABLE}.seats[0].entry"),
        (_bad_kind, "archive_value", ROOT),
        (_bad_table_size, "archive_value", ROOT),
        (_seat_twice, "archive_inconsistent", None),
    ],
    ids=["no-individuals", "order", "seat", "kind", "table-size", "seat-twice"],
)
def test_a_broken_version_2_archive_is_refused_and_nothing_is_stored(
    desk, frances_archive, change, code, where
):
    bad = _resealed(change(json.loads(json.dumps(frances_archive))))
    response = desk.post(
        f"{API}/archive/import", bad, content_type="application/json", HTTP_ACCEPT_LANGUAGE="eu"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    if where is not None:
        assert error["params"]["where"] == where
    assert error["message"]
    stored = (
        Club.objects.filter(slug="pena-archivo").count(),
        Player.objects.count(),
        IndividualEntry.objects.count(),
        FrancesTable.objects.count(),
    )
    assert stored == (0, 0, 0, 0)


def test_a_version_2_archive_cut_short_is_corrupted(desk, frances_archive):
    cut = {**frances_archive}
    cut["tournaments"] = [{**cut["tournaments"][0], "individual_entries": []}]
    error = import_(desk, cut, status=400)["error"]
    assert error["code"] == "archive_checksum"
    assert Player.objects.count() == 0


def test_an_archive_with_the_tio_perete_on_in_mus_frances_imports_with_it_off(
    desk, frances_archive
):
    """An archive exported before migration 0007 may hold a Mus francés (or trios) tournament
    with the tío Perete on, which its tables never counted: it imports with it off, and its
    rules compile (the engine refuses the option outside pairs)."""
    old = json.loads(json.dumps(frances_archive))
    old["tournaments"][0]["tio_perete"] = True
    import_(desk, _resealed(old))
    imported = Tournament.objects.get(entrant_kind="frances")
    assert imported.tio_perete is False
    assert tournament_rules(imported).chips == 20
