"""Registration of a whole field (tournaments/services/bulk.py): pasted lists and CSV files,
their line-numbered errors (every wrong line at once, nothing stored), the preview, team names
("Los de la Txantrea: Ana Uno / Bea Dos"), licences and peñas, a player entering a tournament
once on every path, and the number of queries, which does not grow with the lines."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership, Pair, Player
from config.errors import Conflict, Invalid
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    TournamentFactory,
)
from tournaments.models import AuditEntry, Entry, IndividualEntry, Tournament
from tournaments.selectors.registration import entry_list
from tournaments.services.bulk import entrants_register_csv, entrants_register_text
from tournaments.services.entrants import (
    individual_register,
    individual_register_pasted,
    trio_register,
    trio_register_pasted,
)
from tournaments.services.registration import (
    entry_register,
    entry_register_pasted,
    entry_withdraw,
    substitution_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.OWNER)


@pytest.fixture
def tournament(organizer):
    return TournamentFactory(club=organizer.club, max_pairs=None)


def paste(tournament, organizer, text, **kwargs):
    return entry_register_pasted(tournament=tournament, text=text, actor=organizer.user, **kwargs)


def csv_import(tournament, organizer, data, **kwargs):
    return entrants_register_csv(tournament=tournament, data=data, actor=organizer.user, **kwargs)


def stored(tournament):
    return (
        Player.objects.count(),
        Pair.objects.count(),
        Entry.objects.filter(tournament=tournament).count(),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


# --- A player enters a tournament once (every path) ------------------------------------------


def test_a_pair_by_id_whose_players_are_in_another_entry_is_refused_naming_player_and_entry(
    tournament, organizer
):
    """Issue 23 item 4: the same two people as another peña's pair, and pasted by name."""
    (pasted,) = paste(tournament, organizer, "Ana Uno / Bea Dos")
    ana = pasted.pair.player_one
    other_club_pair = PairFactory(club=ClubFactory(), player_one=ana, player_two=PlayerFactory())

    with pytest.raises(Conflict) as caught:
        entry_register(tournament=tournament, pair_id=other_club_pair.pk, actor=organizer.user)

    error = caught.value
    assert error.code == "player_already_entered"
    assert error.params["player"] == "Ana Uno" and error.params["entry"] == pasted.pk
    assert "Ana Uno is already in this tournament, in Ana Uno / Bea Dos" in error.message
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_pasted_line_naming_a_player_already_registered_by_id_is_refused(tournament, organizer):
    ana = PlayerFactory(first_name="Ana", last_name="Uno")
    ana.clubs.add(tournament.club)
    pair = PairFactory(club=ClubFactory(), player_one=ana)
    by_id = entry_register(tournament=tournament, pair_id=pair.pk, actor=organizer.user)

    with pytest.raises(Conflict) as caught:
        paste(tournament, organizer, "Eva Tres / Fermín Cuatro\nana uno / Bea Dos")

    error = caught.value
    assert (error.code, error.params["line"], error.params["entry"]) == (
        "player_already_entered",
        2,
        by_id.pk,
    )
    assert error.message.startswith("Line 2: Ana Uno is already in this tournament")
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_a_player_on_two_pasted_lines_is_refused_naming_the_first_line(tournament, organizer):
    before = stored(tournament)
    with pytest.raises(Invalid) as caught:
        paste(tournament, organizer, "Ana Uno / Bea Dos\nEva Tres / Fermín Cuatro\nAna Uno / Iker")

    error = caught.value
    assert (error.code, error.params["line"], error.params["first_line"]) == (
        "player_repeated",
        3,
        1,
    )
    assert "Ana Uno is already on line 1 (Ana Uno / Bea Dos)" in error.message
    assert stored(tournament) == before


def test_a_withdrawn_pair_cannot_come_back_while_a_player_of_it_is_in_another_entry(
    tournament, organizer
):
    (first,) = paste(tournament, organizer, "Ana Uno / Bea Dos")
    entry_withdraw(tournament=tournament, entry_id=first.pk, actor=organizer.user)
    paste(tournament, organizer, "Ana Uno / Eva Tres")

    with pytest.raises(Conflict) as by_paste:
        paste(tournament, organizer, "Ana Uno / Bea Dos")
    with pytest.raises(Conflict) as by_id:
        entry_register(tournament=tournament, pair_id=first.pair_id, actor=organizer.user)

    assert by_paste.value.code == by_id.value.code == "player_already_entered"
    assert by_id.value.params["entrant"] == "Ana Uno / Eva Tres"


def test_a_substitute_already_in_another_entry_is_refused(organizer):
    match = MatchFactory(round__phase__tournament__club=organizer.club)
    elsewhere = EntryFactory(tournament=match.round.phase.tournament)
    player = elsewhere.pair.player_one

    with pytest.raises(Conflict) as caught:
        substitution_create(
            tournament=match.round.phase.tournament,
            match_id=match.pk,
            entry_id=match.entry_a_id,
            replaced_player_id=match.entry_a.pair.player_one_id,
            substitute_player_id=player.pk,
            actor=organizer.user,
        )

    assert caught.value.code == "player_already_entered"
    assert caught.value.params["entry"] == elsewhere.pk


def test_trios_and_players_alone_refuse_a_player_already_in():
    trios = TournamentFactory(entrant_kind=Tournament.EntrantKind.TRIOS)
    organizer = MembershipFactory(club=trios.club).user
    (trio,) = trio_register_pasted(
        tournament=trios, actor=organizer, text="Ana Uno / Bea Dos / Eva Tres"
    )
    with pytest.raises(Conflict) as pasted:
        trio_register_pasted(
            tournament=trios, actor=organizer, text="Iker Cinco / Jon Seis / eva tres"
        )
    assert pasted.value.code == "player_already_entered"
    assert pasted.value.params["entry"] == trio.pk
    with pytest.raises(Conflict):
        trio_register(
            tournament=trios,
            actor=organizer,
            player_ids=[trio.player_three_id, PlayerFactory().pk, PlayerFactory().pk],
        )

    alone = TournamentFactory(entrant_kind=Tournament.EntrantKind.INDIVIDUALS, club=trios.club)
    (ana,) = individual_register_pasted(tournament=alone, actor=organizer, text="Ana Uno")
    with pytest.raises(Conflict) as by_id:
        individual_register(tournament=alone, actor=organizer, player_id=ana.player_id)
    with pytest.raises(Conflict) as by_name:
        individual_register_pasted(tournament=alone, actor=organizer, text="Bea Dos\nANA UNO")
    assert by_id.value.code == by_name.value.code == "player_already_registered"
    assert by_name.value.params["line"] == 2
    assert IndividualEntry.objects.filter(tournament=alone).count() == 1


# --- Team names ----------------------------------------------------------------------------


def test_a_team_name_before_a_colon_names_the_pair_not_a_player(tournament, organizer):
    entries = paste(
        tournament, organizer, "Los de la Txantrea: Ana Uno / Bea Dos\nEva Tres / Iker Cuatro"
    )

    named, plain = (e.pair for e in entries)
    assert named.name == "Los de la Txantrea"
    assert (str(named.player_one), str(named.player_two)) == ("Ana Uno", "Bea Dos")
    assert plain.name == ""
    assert not Player.objects.filter(first_name="Los").exists()


def test_a_team_name_renames_the_existing_pair_of_the_two_players(tournament, organizer):
    (entry,) = paste(tournament, organizer, "Ana Uno / Bea Dos")
    entry_withdraw(tournament=tournament, entry_id=entry.pk, actor=organizer.user)
    other = TournamentFactory(club=tournament.club)

    registration = entrants_register_text(
        tournament=other, text="Txoko Berri: bea dos / ana uno", actor=organizer.user
    )

    (line,) = registration.lines
    assert line.pair.pair.pk == entry.pair_id and line.pair.state == "renamed"
    assert Pair.objects.get(pk=entry.pair_id).name == "Txoko Berri"
    summary = AuditEntry.objects.get(tournament=other, action="entrants_registered")
    assert summary.new["renamed_pairs"] == [
        {"pair": entry.pair_id, "old": "", "new": "Txoko Berri"}
    ]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (": Ana Uno / Bea Dos", "team_name_missing"),
        ("Uno: Dos: Ana Uno / Bea Dos", "team_line_colons"),
        ("Los de la Txantrea:", "line_no_players"),
        ("Los de la Txantrea: Ana Uno", "pair_line"),
        ("X" * 121 + ": Ana Uno / Bea Dos", "team_name_too_long"),
    ],
)
def test_a_wrong_team_line_names_the_line_and_stores_nothing(tournament, organizer, line, code):
    before = stored(tournament)
    with pytest.raises(Invalid) as caught:
        paste(tournament, organizer, f"Eva Tres / Iker Cuatro\n{line}")
    assert (caught.value.code, caught.value.params["line"]) == (code, 2)
    assert stored(tournament) == before


def test_a_trio_takes_a_team_name_and_players_alone_refuse_one(organizer):
    trios = TournamentFactory(club=organizer.club, entrant_kind=Tournament.EntrantKind.TRIOS)
    (trio,) = trio_register_pasted(
        tournament=trios, actor=organizer.user, text="Los Tres: Ana Uno / Bea Dos / Eva Tres"
    )
    assert trio.pair.name == "Los Tres" and str(trio.player_three) == "Eva Tres"

    alone = TournamentFactory(club=organizer.club, entrant_kind=Tournament.EntrantKind.FRANCES)
    with pytest.raises(Invalid) as caught:
        individual_register_pasted(tournament=alone, actor=organizer.user, text="Equipo: Ana Uno")
    assert caught.value.code == "individual_extra"


# --- Every wrong line at once, all or nothing ------------------------------------------------


def test_several_wrong_lines_are_all_reported_and_nothing_is_stored(tournament, organizer):
    paste(tournament, organizer, "Ana Uno / Bea Dos")
    before = stored(tournament)
    text = "Eva Tres / Iker Cuatro\nsin barra\nAna Uno / Bea Dos\n\nJon Cinco / Jon Cinco"

    with pytest.raises(Invalid) as caught:
        paste(tournament, organizer, text)

    error = caught.value
    assert error.code == "lines_invalid"
    assert (error.params["count"], error.params["lines"]) == (3, [2, 3, 5])
    assert [e.code for e in error.params["errors"]] == [
        "pair_line",
        "already_registered",
        "pair_line_same_player",
    ]
    assert error.message.startswith("3 lines cannot be registered, so nothing was registered")
    assert 'Line 2: "sin barra" has no "/"' in error.message
    assert stored(tournament) == before


# --- CSV files -------------------------------------------------------------------------------

FIELD = (
    "\ufefflicencia;jugadores;peña;equipo\r\n"
    "NA-1 / NA-2;Ana Uno / Bea Dos;;Los de la Txantrea\r\n"
    "\r\n"
    "NA-3 / NA-4;Eva Tres / Iker Cuatro;Peña Txoko;\r\n"
)


def test_a_csv_file_registers_its_pairs_with_licences_peñas_and_team_names(tournament, organizer):
    txoko = ClubFactory(name="Peña Txoko", slug="txoko")

    registration = csv_import(tournament, organizer, FIELD.encode())

    first, second = registration.entries
    assert first.pair.name == "Los de la Txantrea" and first.pair.club == tournament.club
    assert second.pair.club == txoko and second.pair.name == ""
    assert [p.licence for p in Player.objects.order_by("pk")] == ["NA-1", "NA-2", "NA-3", "NA-4"]
    assert set(Player.objects.filter(clubs=tournament.club)) == set(Player.objects.all())
    assert [line.line.number for line in registration.lines] == [2, 4]
    summary = AuditEntry.objects.get(tournament=tournament, action="entrants_registered")
    assert summary.new["source"] == "csv" and summary.new["new_players"] == 4


def test_a_second_import_finds_the_players_by_licence_and_fills_a_missing_one(organizer):
    club = organizer.club
    bea = Player.objects.create(first_name="Bea", last_name="Dos")  # typed by hand, no licence
    bea.clubs.add(club)
    first = TournamentFactory(club=club)
    csv_import(first, organizer, "licencia,jugador 1,jugador 2\nNA-1 / NA-2,Ana Uno,Bea Dos\n")
    bea.refresh_from_db()
    assert bea.licence == "NA-2"

    second = TournamentFactory(club=club)
    registration = csv_import(
        second,
        organizer,
        "licencia 1;licencia 2;jugador 1;jugador 2\nna-1;NA-2;Ana Uno Pérez;Bea D.\n",
    )

    (line,) = registration.lines
    assert [p.match for p in line.people] == ["licence", "licence"]
    assert line.pair.state == "existing"
    assert Player.objects.count() == 2 and Pair.objects.count() == 1


def test_the_preview_says_what_would_be_created_and_stores_nothing(tournament, organizer):
    Tournament.objects.filter(pk=tournament.pk).update(max_pairs=1)
    ana = Player.objects.create(first_name="Ana", last_name="Uno")
    ana.clubs.add(tournament.club)
    before = stored(tournament)

    registration = csv_import(tournament, organizer, FIELD.replace("Peña Txoko", ""), preview=True)

    assert stored(tournament) == before
    assert registration.preview and registration.entries == []
    assert (registration.new_players, registration.matched_players) == (3, 1)
    assert registration.licences_added == 1 and Player.objects.get(pk=ana.pk).licence == ""
    assert (registration.new_pairs, registration.registered, registration.waiting) == (2, 1, 1)
    assert [line.status for line in registration.lines] == ["registered", "waiting"]


@pytest.mark.parametrize(
    ("data", "code", "line"),
    [
        (b"jugadores\nAna Uno / Bea Dos\n\xff\xfe\n", "csv_encoding", 3),
        ("jugadores;email\nAna Uno / Bea Dos;a@b.c\n", "csv_column_unknown", 1),
        ("licencia;equipo\nNA-1;X\n", "csv_no_players_column", 1),
        ("jugadores;jugador 1\nA / B;C\n", "csv_column_twice", 1),
        ("jugadores\nAna Uno / Bea Dos;extra\n", "csv_cells", 2),
        ("jugadores;licencia\nAna Uno / Bea Dos;NA-1\n", "licence_count", 2),
        ("jugadores;peña\nAna Uno / Bea Dos;Peña que no existe\n", "centre_unknown", 2),
        ("jugador 1;jugador 2\nAna Uno;\n", "pair_line_missing_name", 2),
        ("\n\njugadores\n\nAna Uno / Bea Dos\nsin barra\n", "pair_line", 6),
    ],
)
def test_a_csv_line_that_cannot_be_read_is_named_and_nothing_is_stored(
    tournament, organizer, data, code, line
):
    before = stored(tournament)
    with pytest.raises(Invalid) as caught:
        csv_import(tournament, organizer, data)
    assert (caught.value.code, caught.value.params["line"]) == (code, line)
    assert f"Line {line}" in caught.value.message or f"line {line}" in caught.value.message
    assert stored(tournament) == before


def test_an_empty_file_and_a_header_alone_are_refused(tournament, organizer):
    with pytest.raises(Invalid) as empty:
        csv_import(tournament, organizer, b"\xef\xbb\xbf\n")
    with pytest.raises(Invalid) as header:
        csv_import(tournament, organizer, "jugadores\n\n")
    assert (empty.value.code, header.value.code) == ("csv_empty", "csv_no_rows")


def test_a_csv_registers_trios_and_players_alone_as_the_tournament_takes_them(organizer):
    trios = TournamentFactory(club=organizer.club, entrant_kind=Tournament.EntrantKind.TRIOS)
    (trio,) = csv_import(
        trios,
        organizer,
        "jugador 1,jugador 2,jugador 3,equipo\nAna Uno,Bea Dos,Eva Tres,Los Tres\n",
    ).entries
    assert trio.pair.name == "Los Tres" and str(trio.player_three) == "Eva Tres"

    alone = TournamentFactory(club=organizer.club, entrant_kind=Tournament.EntrantKind.INDIVIDUALS)
    rows = csv_import(alone, organizer, "licencia\tjugador\nNA-9\tIker Cuatro\n\tAna Uno\n").entries
    assert [str(row.player) for row in rows] == ["Iker Cuatro", "Ana Uno"]
    assert Player.objects.get(first_name="Iker").licence == "NA-9"
    with pytest.raises(Invalid) as caught:
        csv_import(alone, organizer, "jugador;peña\nJon Seis;Txoko\n")
    assert caught.value.code == "individual_extra"


# --- The waiting list and the queries --------------------------------------------------------


def test_the_waiting_list_keeps_the_order_of_the_lines_with_pairs_registered_again(
    tournament, organizer
):
    Tournament.objects.filter(pk=tournament.pk).update(max_pairs=1)
    tournament.refresh_from_db()
    paste(tournament, organizer, "Ana Uno / Bea Dos\nEva Tres / Iker Cuatro")
    back = Entry.objects.get(tournament=tournament, pair__player_one__first_name="Eva")
    entry_withdraw(tournament=tournament, entry_id=back.pk, actor=organizer.user)

    entries = paste(tournament, organizer, "Jon Cinco / Koldo Seis\nEva Tres / Iker Cuatro")

    assert [e.status for e in entries] == ["waiting", "waiting"]
    waiting = [e for e in entry_list(tournament=tournament) if e.status == "waiting"]
    assert [(str(e.pair), e.waiting_position) for e in waiting] == [
        ("Jon Cinco / Koldo Seis", 1),
        ("Eva Tres / Iker Cuatro", 2),
    ]
    assert (
        AuditEntry.objects.filter(action="entry_registered_again", tournament=tournament).count()
        == 1
    )


def _queries(make_tournament, organizer, register, lines: int) -> int:
    tournament = make_tournament()
    with CaptureQueriesContext(connection) as queries:
        register(tournament, organizer, lines)
    return len(queries)


# Django splits a bulk insert on SQLite every 999 parameters; PostgreSQL takes the whole list.
MANY = 100 if connection.vendor == "postgresql" else 40


@pytest.mark.parametrize(
    ("kind", "line"),
    [
        (Tournament.EntrantKind.PAIRS, "Team {n}: Ana{n} Uno / Bea{n} Dos"),
        (Tournament.EntrantKind.TRIOS, "Ana{n} Uno / Bea{n} Dos / Eva{n} Tres"),
        (Tournament.EntrantKind.INDIVIDUALS, "Ana{n} Uno"),
    ],
)
def test_the_number_of_queries_does_not_grow_with_the_lines(organizer, kind, line):
    def make():
        return TournamentFactory(club=organizer.club, entrant_kind=kind, max_pairs=5)

    def register(tournament, organizer, count):
        text = "\n".join(line.format(n=f"{tournament.pk}x{n}") for n in range(count))
        registration = entrants_register_text(
            tournament=tournament, text=text, actor=organizer.user
        )
        assert len(registration.entries) == count

    assert _queries(make, organizer, register, 10) == _queries(make, organizer, register, MANY)


def test_a_csv_import_costs_the_same_queries_for_10_and_100_lines(organizer):
    ClubFactory(name="Peña Txoko")

    def make():
        return TournamentFactory(club=organizer.club, max_pairs=5)

    def register(tournament, organizer, count):
        rows = [
            f"L{tournament.pk}-{n}a / L{tournament.pk}-{n}b;Ana{n} Uno{tournament.pk} / "
            f"Bea{n} Dos;Peña Txoko;Equipo {n}"
            for n in range(count)
        ]
        text = "licencia;jugadores;peña;equipo\n" + "\n".join(rows)
        assert len(csv_import(tournament, organizer, text).entries) == count

    assert _queries(make, organizer, register, 10) == _queries(make, organizer, register, MANY)


def test_existing_pairs_of_other_peñas_register_as_themselves_in_a_fixed_number_of_queries(
    organizer,
):
    """entries_register_pairs (a championship's qualified pairs flowing into its final): each
    line is that pair row, nobody is created, and 10 or 40 pairs cost the same queries."""
    from tests.factories import PairFactory
    from tournaments.services.bulk import entries_register_pairs

    def count(n: int) -> int:
        tournament = TournamentFactory(club=organizer.club)
        pairs = [PairFactory() for _ in range(n)]  # each of another peña
        players, all_pairs = Player.objects.count(), Pair.objects.count()
        with CaptureQueriesContext(connection) as queries:
            registration = entries_register_pairs(
                tournament=tournament, pairs=pairs, actor=None, trusted=True, via="championship"
            )
        assert [e.pair_id for e in registration.entries] == [p.pk for p in pairs]
        assert (Player.objects.count(), Pair.objects.count()) == (players, all_pairs)
        return len(queries)

    assert count(10) == count(40)
