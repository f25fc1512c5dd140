"""The registration API through real URLs: entries, the pasted list, the waiting list,
check-in, seeds, pinned tables and substitutes; status codes, the one error body, permissions
across peñas and the entry list's query count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership, Pair, Player
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    TournamentFactory,
)
from tournaments.models import AuditEntry, Entry, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
JSON = "application/json"


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.ORGANIZER)


@pytest.fixture
def tournament(organizer):
    return TournamentFactory(club=organizer.club, max_pairs=2, tables_available=6)


@pytest.fixture
def desk(organizer) -> Client:
    # Messages follow Accept-Language; these tests read the English.
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer.user)
    return client


def assert_error(response, status: int, code: str) -> dict:
    """The one error body shape: {"error": {"status", "code", "message", "params"}}."""
    assert response.status_code == status, response.content
    body = response.json()
    assert list(body) == ["error"]
    error = body["error"]
    assert (error["status"], error["code"]) == (status, code)
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["params"], dict)
    return error


def entries_url(tournament) -> str:
    return f"{API}/tournaments/{tournament.pk}/entries"


def entry_url(entry, action: str) -> str:
    return f"{API}/tournaments/{entry.tournament_id}/entries/{entry.pk}/{action}"


def register(client, tournament, pair, **extra):
    return client.post(
        f"{entries_url(tournament)}/register", {"pair_id": pair.pk, **extra}, content_type=JSON
    )


# --- Register -------------------------------------------------------------------------------


def test_register_a_pair_then_the_list_shows_it_with_players_and_pena(desk, tournament):
    ana = Player.objects.create(first_name="Ana", last_name="García")
    luis = Player.objects.create(first_name="Luis", last_name="Pérez")
    pair = PairFactory(player_one=ana, player_two=luis, club=tournament.club)

    response = register(desk, tournament, pair, seed=1)

    assert response.status_code == 201, response.content
    assert response.json()["status"] == "registered" and response.json()["seed"] == 1
    [listed] = Client().get(entries_url(tournament)).json()  # public: anybody reads it
    assert listed["pair"]["label"] == "Ana García / Luis Pérez"
    assert listed["pair"]["player_one"]["first_name"] == "Ana"
    assert listed["pair"]["club"]["slug"] == tournament.club.slug
    assert listed["waiting_position"] is None


def test_beyond_max_pairs_the_pair_waits_and_says_its_place(desk, tournament):
    for _ in range(2):
        register(desk, tournament, PairFactory())

    first_waiting = register(desk, tournament, PairFactory()).json()
    second_waiting = register(desk, tournament, PairFactory()).json()

    assert (first_waiting["status"], first_waiting["waiting_position"]) == ("waiting", 1)
    assert second_waiting["waiting_position"] == 2
    waiting = desk.get(entries_url(tournament), {"status": "waiting"}).json()
    assert [e["id"] for e in waiting] == [first_waiting["id"], second_waiting["id"]]


def test_a_taken_seed_is_a_409_naming_the_pair(desk, tournament):
    holder = EntryFactory(tournament=tournament, seed=3)

    error = assert_error(register(desk, tournament, PairFactory(), seed=3), 409, "seed_taken")

    assert str(holder.pair) in error["message"]
    assert error["params"]["entry"] == holder.pk
    assert Entry.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"pair_id": 999_999}, 404, "pair_unknown"),
        ({}, 400, "validation"),
        ({"pair_id": "una"}, 400, "validation"),
    ],
)
def test_register_errors(desk, tournament, body, status, code):
    response = desk.post(f"{entries_url(tournament)}/register", body, content_type=JSON)
    assert_error(response, status, code)


def test_registering_twice_or_after_the_start_is_a_409(desk, tournament):
    pair = PairFactory()
    register(desk, tournament, pair)
    assert_error(register(desk, tournament, pair), 409, "already_registered")

    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    assert_error(register(desk, tournament, PairFactory()), 409, "registration_closed")


# --- Pasted list ----------------------------------------------------------------------------


def test_paste_a_list(desk, tournament):
    text = "Ana García / Luis Pérez\n\nMiren Etxeberria / Jon Arana\nPeio Goñi / Xabi Lasa\n"

    response = desk.post(f"{entries_url(tournament)}/paste", {"text": text}, content_type=JSON)

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["registered"], body["waiting"]) == (2, 1)
    assert [e["pair"]["label"] for e in body["entries"]] == [
        "Ana García / Luis Pérez",
        "Miren Etxeberria / Jon Arana",
        "Peio Goñi / Xabi Lasa",
    ]
    assert body["entries"][2]["waiting_position"] == 1


def test_a_bad_line_in_a_paste_stores_nothing_and_names_the_line(desk, tournament):
    text = "Ana García / Luis Pérez\nMiren Etxeberria / Jon Arana\nPeio Goñi\n"

    response = desk.post(f"{entries_url(tournament)}/paste", {"text": text}, content_type=JSON)

    error = assert_error(response, 400, "pair_line")
    assert error["message"].startswith("Line 3:")
    assert error["params"]["line"] == 3
    assert (Entry.objects.count(), Pair.objects.count(), Player.objects.count()) == (0, 0, 0)


def test_a_pasted_team_name_names_the_pair_and_its_players_stay_apart(desk, tournament):
    text = "Los de la Txantrea: Ana García / Luis Pérez\n"

    response = desk.post(f"{entries_url(tournament)}/paste", {"text": text}, content_type=JSON)

    assert response.status_code == 201, response.content
    pair = response.json()["entries"][0]["pair"]
    assert (pair["name"], pair["label"]) == ("Los de la Txantrea", "Los de la Txantrea")
    assert (pair["player_one"]["first_name"], pair["player_one"]["last_name"]) == (
        "Ana",
        "García",
    )


def test_a_pasted_list_costs_the_same_queries_for_10_and_100_pairs(desk, organizer):
    """Issue 23 item 9: 850 pairs took 85 s (about 15 queries a line) and timed out."""

    def count(lines: int) -> int:
        tournament = TournamentFactory(club=organizer.club, max_pairs=lines - 3)
        t = tournament.pk  # names of their own: nobody is found, so the same reads each time
        text = "\n".join(f"Ana{n} Uno{t} / Bea{n} Dos{t}" for n in range(lines))
        with CaptureQueriesContext(connection) as queries:
            response = desk.post(
                f"{entries_url(tournament)}/paste", {"text": text}, content_type=JSON
            )
        assert response.status_code == 201, response.content
        assert response.json()["waiting"] == 3
        assert response.json()["entries"][-1]["waiting_position"] == 3
        return len(queries)

    many = 100 if connection.vendor == "postgresql" else 40  # SQLite splits bulk inserts
    assert count(10) == count(many)


# --- Import (a pasted list or a CSV file, with a preview) -----------------------------------

FIELD_CSV = (
    "\ufefflicencia;jugadores;peña;equipo\n"
    "NA-1 / NA-2;Ana García / Luis Pérez;;Los de la Txantrea\n"
    "NA-3 / NA-4;Miren Etxeberria / Jon Arana;;\n"
    "NA-5 / NA-6;Peio Goñi / Xabi Lasa;;\n"
)


def import_url(tournament) -> str:
    return f"{API}/tournaments/{tournament.pk}/entrants/import"


def test_a_csv_file_previewed_then_imported(desk, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    def upload(**extra):
        file = SimpleUploadedFile("campo.csv", FIELD_CSV.encode(), "text/csv")
        return desk.post(import_url(tournament), {"file": file, **extra})

    preview = upload(preview="true")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert (body["preview"], body["new_players"], body["new_pairs"]) == (True, 6, 3)
    assert (body["registered"], body["waiting"]) == (2, 1)
    first = body["lines"][0]
    assert (first["line"], first["team"], first["pair"], first["entry_id"]) == (
        2,
        "Los de la Txantrea",
        "new",
        None,
    )
    assert first["players"][0] == {
        "id": None,
        "name": "Ana García",
        "licence": "NA-1",
        "match": "new",
        "licence_added": False,
    }
    assert (Player.objects.count(), Entry.objects.count()) == (0, 0)

    done = upload()
    assert done.status_code == 201, done.content
    lines = done.json()["lines"]
    assert [line["status"] for line in lines] == ["registered", "registered", "waiting"]
    entries = Entry.objects.filter(tournament=tournament).order_by("pk")
    assert [e.pk for e in entries] == [line["entry_id"] for line in lines]
    assert entries[0].pair.name == "Los de la Txantrea"
    listed = desk.get(entries_url(tournament)).json()
    assert [e["waiting_position"] for e in listed] == [None, None, 1]


def test_an_import_with_wrong_lines_names_every_one_and_stores_nothing(desk, tournament):
    EntryFactory(
        tournament=tournament,
        pair=PairFactory(
            club=tournament.club,
            player_one=Player.objects.create(first_name="Jon", last_name="Arana"),
        ),
    )
    Player.objects.get(first_name="Jon").clubs.add(tournament.club)
    csv = FIELD_CSV.replace("Peio Goñi / Xabi Lasa", "Peio Goñi y Xabi Lasa")

    response = desk.post(import_url(tournament), {"csv": csv}, content_type=JSON)

    error = assert_error(response, 400, "lines_invalid")
    assert error["params"]["lines"] == [3, 4]
    assert [e["code"] for e in error["params"]["errors"]] == [
        "player_already_entered",
        "pair_line",
    ]
    assert error["params"]["errors"][0]["params"]["player"] == "Jon Arana"
    assert error["message"].startswith("2 lines cannot be registered")
    assert "Line 3: Jon Arana is already in this tournament" in error["message"]
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert not Player.objects.filter(first_name="Ana").exists()

    one = desk.post(
        import_url(tournament), {"csv": "jugadores;x\nA B / C D;1\n"}, content_type=JSON
    )
    error = assert_error(one, 400, "csv_column_unknown")
    assert error["params"]["line"] == 1 and error["params"]["column"] == "x"


def test_an_import_needs_exactly_one_source(desk, tournament):
    for body in ({}, {"text": "A B / C D", "csv": "jugadores\nA B / C D"}):
        assert_error(desk.post(import_url(tournament), body, content_type=JSON), 400, "validation")


# --- Withdraw, check-in, seed, table --------------------------------------------------------


def test_withdrawal_promotes_the_first_waiting_pair(desk, tournament, organizer):
    first, _second = EntryFactory.create_batch(2, tournament=tournament)
    waiting = EntryFactory(tournament=tournament, status=Entry.Status.WAITING)

    response = desk.post(entry_url(first, "withdraw"), HTTP_USER_AGENT="Desk tablet")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["entry"]["status"] == "withdrawn" and body["entry"]["withdrawn_at"]
    assert body["promoted"]["id"] == waiting.pk and body["promoted"]["status"] == "registered"
    audit = AuditEntry.objects.get(action="entry_withdrawn")
    assert (audit.actor, audit.via, audit.device) == (organizer.user, "api", "Desk tablet")
    assert_error(desk.post(entry_url(first, "withdraw")), 409, "already_withdrawn")


def test_check_in_and_undo(desk, tournament):
    entry = EntryFactory(tournament=tournament)

    checked = desk.post(entry_url(entry, "check-in"))
    assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
    assert checked.json()["checked_in_at"]

    undone = desk.post(entry_url(entry, "check-in/undo"))
    assert undone.status_code == 200
    assert (undone.json()["status"], undone.json()["checked_in_at"]) == ("registered", None)


def test_a_waiting_pair_cannot_check_in_while_the_tournament_is_full(desk, tournament):
    EntryFactory.create_batch(2, tournament=tournament)
    waiting = EntryFactory(tournament=tournament, status=Entry.Status.WAITING)

    assert_error(desk.post(entry_url(waiting, "check-in")), 409, "entry_waiting")


def test_seed_change(desk, tournament):
    holder = EntryFactory(tournament=tournament, seed=1)
    entry = EntryFactory(tournament=tournament)

    assert_error(
        desk.post(entry_url(entry, "seed"), {"seed": 1}, content_type=JSON), 409, "seed_taken"
    )
    response = desk.post(entry_url(entry, "seed"), {"seed": 2}, content_type=JSON)
    assert response.status_code == 200 and response.json()["seed"] == 2
    cleared = desk.post(entry_url(holder, "seed"), {"seed": None}, content_type=JSON)
    assert cleared.json()["seed"] is None
    assert AuditEntry.objects.filter(action="entry_seed_changed").count() == 2
    assert_error(
        desk.post(entry_url(entry, "seed"), {"seed": 0}, content_type=JSON), 400, "seed_range"
    )


def test_pin_a_pair_to_a_table(desk, tournament):
    wheelchair = EntryFactory(tournament=tournament)
    other = EntryFactory(tournament=tournament)

    response = desk.post(entry_url(wheelchair, "pin"), {"table": 1}, content_type=JSON)
    assert response.status_code == 200 and response.json()["pinned_table"] == 1

    error = assert_error(
        desk.post(entry_url(other, "pin"), {"table": 1}, content_type=JSON), 409, "table_pinned"
    )
    assert str(wheelchair.pair) in error["message"]
    assert_error(
        desk.post(entry_url(other, "pin"), {"table": 7}, content_type=JSON),
        400,
        "table_out_of_range",
    )
    assert_error(desk.post(entry_url(other, "pin"), {}, content_type=JSON), 400, "validation")


def test_an_entry_of_another_tournament_is_a_404(desk, tournament):
    foreign = EntryFactory()
    response = desk.post(f"{API}/tournaments/{tournament.pk}/entries/{foreign.pk}/check-in")
    assert_error(response, 404, "entry_not_found")


# --- Substitutes ----------------------------------------------------------------------------


def test_record_a_substitute(desk, tournament):
    match = MatchFactory(round__phase__tournament=tournament)
    entry = match.entry_a
    substitute = PlayerFactory(first_name="Koldo")
    url = f"{API}/tournaments/{tournament.pk}/substitutions/create"
    body = {
        "match_id": match.pk,
        "entry_id": entry.pk,
        "replaced_player_id": entry.pair.player_one_id,
        "substitute_player_id": substitute.pk,
    }

    response = desk.post(url, body, content_type=JSON)

    assert response.status_code == 201, response.content
    assert response.json()["substitute"]["first_name"] == "Koldo"
    listed = Client().get(f"{API}/tournaments/{tournament.pk}/substitutions").json()
    assert [(s["match_id"], s["entry_id"]) for s in listed] == [(match.pk, entry.pk)]

    again = {**body, "substitute_player_id": PlayerFactory().pk}
    assert_error(desk.post(url, again, content_type=JSON), 409, "substitution_exists")
    wrong_player = {**body, "replaced_player_id": match.entry_b.pair.player_one_id}
    assert_error(desk.post(url, wrong_player, content_type=JSON), 400, "replaced_not_in_pair")
    assert_error(
        desk.post(url, {**body, "match_id": MatchFactory().pk}, content_type=JSON),
        404,
        "match_not_in_tournament",
    )


# --- Permissions across peñas ---------------------------------------------------------------


def write_requests(tournament, entry):
    base = f"{API}/tournaments/{tournament.pk}"
    return [
        (f"{base}/entries/register", {"pair_id": PairFactory().pk}),
        (f"{base}/entries/paste", {"text": "Ana García / Luis Pérez"}),
        (f"{base}/entrants/import", {"text": "Ana García / Luis Pérez", "preview": True}),
        (f"{base}/entrants/import", {"csv": "jugadores\nAna García / Luis Pérez\n"}),
        (entry_url(entry, "withdraw"), {}),
        (entry_url(entry, "check-in"), {}),
        (entry_url(entry, "check-in/undo"), {}),
        (entry_url(entry, "seed"), {"seed": 1}),
        (entry_url(entry, "pin"), {"table": 1}),
        (
            f"{base}/substitutions/create",
            {
                "match_id": 1,
                "entry_id": entry.pk,
                "replaced_player_id": 1,
                "substitute_player_id": 1,
            },
        ),
    ]


def test_an_organizer_of_another_pena_gets_403_on_a_public_tournament(desk):
    public = TournamentFactory(status=Tournament.Status.REGISTRATION)
    entry = EntryFactory(tournament=public)

    for url, body in write_requests(public, entry):
        assert_error(desk.post(url, body, content_type=JSON), 403, "not_organizer")
    entry.refresh_from_db()
    assert (entry.status, entry.seed) == ("registered", None)
    assert Entry.objects.filter(tournament=public).count() == 1


@pytest.mark.parametrize(
    "hidden",
    [{"status": Tournament.Status.DRAFT}, {"is_public": False}],
    ids=["draft", "private"],
)
def test_an_organizer_of_another_pena_gets_404_on_a_hidden_tournament(desk, hidden):
    tournament = TournamentFactory(**hidden)
    entry = EntryFactory(tournament=tournament)

    for url, body in write_requests(tournament, entry):
        assert_error(desk.post(url, body, content_type=JSON), 404, "tournament_not_found")
    assert_error(desk.get(entries_url(tournament)), 404, "tournament_not_found")
    assert_error(Client().get(entries_url(tournament)), 404, "tournament_not_found")


def test_anonymous_writes_are_refused(tournament):
    entry = EntryFactory(tournament=tournament)
    for url, body in write_requests(tournament, entry):
        assert_error(Client().post(url, body, content_type=JSON), 403, "not_authenticated")


# --- Query counts ---------------------------------------------------------------------------


def test_the_entry_list_takes_a_fixed_number_of_queries(desk, django_assert_max_num_queries):
    tournament = TournamentFactory()
    url = entries_url(tournament)

    def count(client, n):
        EntryFactory.create_batch(n, tournament=tournament)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    few, many = count(Client(), 2), count(Client(), 30)
    assert few == many
    with django_assert_max_num_queries(2):  # the tournament, then its entries with pairs
        assert len(Client().get(url).json()) == 32
    with django_assert_max_num_queries(5):  # + session, user, membership
        assert len(desk.get(url).json()) == 32


# --- Bad input never gives a 500 ------------------------------------------------------------


def test_numbers_out_of_range_are_refused_not_a_server_error(desk, tournament):
    entry = EntryFactory(tournament=tournament)
    huge = 10**20
    responses = [
        register(desk, tournament, PairFactory(), seed=huge),
        desk.post(f"{entries_url(tournament)}/register", {"pair_id": huge}, content_type=JSON),
        desk.post(entry_url(entry, "pin"), {"table": huge}, content_type=JSON),
        desk.post(entry_url(entry, "seed"), {"seed": huge}, content_type=JSON),
        desk.post(
            f"{API}/tournaments/{huge}/entries/{entry.pk}/seed", {"seed": 1}, content_type=JSON
        ),
        desk.post(f"{API}/tournaments/{tournament.pk}/entries/{huge}/check-in"),
        desk.get(f"{API}/tournaments/{huge}/entries"),
        desk.post(
            f"{API}/tournaments/{tournament.pk}/update",
            {"tables_available": huge, "max_pairs": 40000},
            content_type=JSON,
        ),
    ]
    assert [r.status_code for r in responses] == [400, 404, 400, 400, 404, 404, 404, 400]
