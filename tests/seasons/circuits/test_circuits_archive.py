"""A peña's archive carries its circuits, the interpeñas it hosted and its language
(seasons/circuits/archive.py): exported, the peña's rows deleted, imported, and the same circuit
ranking and interpeña result served; the other peña absent (a placeholder), a circuit of the
same name that is not the peña's (refused whole), an archive of version 2 (still imports)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Pair
from seasons.circuits.models import Circuit, CircuitTournament
from seasons.circuits.services import (
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from seasons.interpenas.models import Interpena
from seasons.interpenas.result import signature
from seasons.interpenas.selectors import interpena_result
from seasons.interpenas.services import (
    interpena_create,
    interpena_lineup_set,
    interpena_team_confirm,
)
from tests.api.test_api_archive import played_tournament, who_made
from tests.api.test_api_full_tournament import Api
from tests.factories import ClubFactory, MembershipFactory, PairFactory, UserFactory
from tests.seasons.circuits.helpers import finished_tournament
from tests.seasons.interpenas.test_interpena_services import _play
from tournaments.archive import checksum
from tournaments.models import Match, Phase, Tournament
from tournaments.selectors.tournaments import tournament_list

pytestmark = pytest.mark.django_db

API = "/api/v1/"


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def desk(django_capture_on_commit_callbacks, organizer) -> Api:
    client = APIClient()
    client.force_login(organizer)
    return Api(client, django_capture_on_commit_callbacks)


@pytest.fixture
def table(django_capture_on_commit_callbacks) -> Api:
    return Api(APIClient(), django_capture_on_commit_callbacks)


@pytest.fixture
def season(desk, table, organizer):
    """Peña Txoko (Basque e-mails) with a finished tournament in a private circuit it shares
    with Peña Otra (which has a stop of its own), and an interpeña it hosted, confirmed."""
    tournament = played_tournament(desk, table)
    desk.post(f"tournaments/{tournament['id']}/status", {"status": "finished"})
    club = Club.objects.get(slug="pena-txoko")
    club.language = "eu"
    club.save()
    other = ClubFactory(slug="pena-otra", name="Peña Otra")
    away_org = MembershipFactory(club=other).user
    circuit = circuit_create(
        actor=organizer,
        club=club,
        name="Circuito de Navarra",
        points_table=[100, 80, 65, 55, 50],
        participation_points=5,
        best_results=1,
        is_public=False,
    )
    circuit.clubs.add(other)
    circuit_tournament_add(actor=organizer, circuit=circuit, tournament_id=tournament["id"])
    elsewhere = finished_tournament(other, [PairFactory(club=other) for _ in range(3)], day=20)
    CircuitTournament.objects.create(circuit=circuit, tournament=elsewhere)
    circuit_ranking_refresh(circuit=circuit)

    home_pairs = [PairFactory(club=club) for _ in range(2)]
    away_pairs = [PairFactory(club=other) for _ in range(2)]
    interpena = interpena_create(
        actor=organizer,
        home_club=club,
        away_club_id=other.pk,
        played_on=dt.date(2026, 12, 5),
        boards=2,
        name="Txoko – Otra",
    )
    interpena_lineup_set(
        actor=organizer, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
    )
    interpena = interpena_lineup_set(
        actor=away_org, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
    )
    _play(interpena, organizer, away_org)
    seen = signature(interpena_result(interpena=interpena)[1])
    for side, who in (("home", organizer), ("away", away_org)):
        interpena = interpena_team_confirm(
            actor=who, interpena=interpena, side=side, result_version=seen
        )
    assert interpena.status == Interpena.Status.CONFIRMED
    return club, circuit, interpena


def ranking(circuit: Circuit) -> list[tuple]:
    """The circuit's ranking as a reader sees it, without the ids an import changes."""
    return sorted(  # players tied on a position in name order (their ids change)
        (r.position, str(r.player), r.points, r.played, r.separated_by)
        + tuple((x["place"], x["points"], x["counted"]) for x in r.results)
        for r in circuit.ranking_rows.select_related("player")
    )


def circuit_seen(circuit: Circuit) -> tuple:
    rules = (circuit.name, circuit.points_table, circuit.participation_points)
    rules += (circuit.best_results, circuit.tiebreaks, circuit.is_public)
    clubs = sorted(circuit.clubs.values_list("slug", flat=True))
    stops = sorted(circuit.stops.values_list("tournament__name", flat=True))
    return (rules, clubs, stops, ranking(circuit))


def interpena_seen(interpena: Interpena) -> tuple:
    result, boards = interpena_result(interpena=interpena)
    rows = [
        (b.letter, b.home_pair.name, b.away_pair.name, b.match.games_a, b.match.games_b)
        for b in interpena.board_rows.select_related("home_pair", "away_pair", "match")
    ]
    confirmed = interpena.home_confirmed == interpena.away_confirmed == signature(boards)
    return (interpena.name, interpena.status, interpena.away_club.slug, result, rows, confirmed)


def export(desk: Api, club: Club) -> dict:
    response = desk.client.get(f"{API}clubs/{club.pk}/archive")
    assert response.status_code == 200
    return json.loads(response.content)


def wipe(club: Club) -> None:
    """Delete Peña Txoko and what is its own (Peña Otra and its tournament stay)."""
    Interpena.objects.filter(home_club=club).delete()
    Circuit.objects.filter(clubs=club).delete()
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.filter(club=club).delete()
    club.delete()


def imported(desk: Api, archive: dict):
    with desk.capture(execute=True):
        return desk.client.post(f"{API}archive/import", archive, format="json")


def resealed(archive: dict) -> dict:
    archive["checksum"] = checksum(archive)
    return archive


def test_a_peñas_archive_carries_its_circuits_interpeñas_and_language(desk, season):
    club, circuit, interpena = season
    before = (circuit_seen(circuit), interpena_seen(interpena))
    assert len(before[0][3]) > 3  # players of both peñas' stops are ranked
    archive = export(desk, club)
    assert archive["version"] >= 3 and archive["club"]["language"] == "eu"
    [exported] = archive["circuits"]
    assert exported["stops_elsewhere"] == [
        {"club": "pena-otra", "tournament": circuit.stops.last().tournament.slug}
    ]
    assert [c["slug"] for c in exported["circuit_clubs"]] == ["pena-otra", "pena-txoko"]
    [hosted] = archive["interpenas"]
    assert (hosted["away_club"], len(hosted["interpena_boards"])) == ("pena-otra", 2)

    wipe(club)
    answer = imported(desk, archive)
    assert answer.status_code == 201, answer.json()
    club = Club.objects.get(slug="pena-txoko")
    assert club.language == "eu"
    after = (circuit_seen(Circuit.objects.get()), interpena_seen(Interpena.objects.get()))
    assert after == before
    # the interpeña's container is managed by it again: out of the lists, its desk linking it
    container = Interpena.objects.get().tournament
    assert container.managed_by == Tournament.ManagedBy.INTERPENA
    assert container.managed_url.endswith(f"/{Interpena.objects.get().pk}/")
    assert container not in tournament_list(user=None)


def test_the_other_peña_absent_becomes_a_placeholder_and_its_stop_is_left_out(desk, season):
    club, circuit, interpena = season
    archive = export(desk, club)
    wipe(club)
    text = json.dumps(archive).replace("pena-otra", "pena-lejana")
    answer = imported(desk, resealed(json.loads(text)))
    assert answer.status_code == 201, answer.json()
    placeholder = Club.objects.get(slug="pena-lejana")
    assert placeholder.name == "Peña Otra" and not Membership.objects.filter(club=placeholder)
    imported_circuit = Circuit.objects.get()
    assert sorted(imported_circuit.clubs.values_list("slug", flat=True)) == [
        "pena-lejana",
        "pena-txoko",
    ]
    assert imported_circuit.stops.count() == 1  # the stop elsewhere is not in this instance
    assert Interpena.objects.get().away_club == placeholder


def test_a_circuit_of_that_name_that_is_not_the_peñas_refuses_the_whole_archive(
    desk, season, organizer
):
    club, circuit, interpena = season
    archive = export(desk, club)
    wipe(club)
    stranger = MembershipFactory().club
    Circuit.objects.create(name="Otro", slug="circuito-de-navarra").clubs.add(stranger)
    counts = (Club.objects.count(), Tournament.objects.count(), Interpena.objects.count())
    answer = imported(desk, archive)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "archive_circuit_exists"
    assert (Club.objects.count(), Tournament.objects.count(), Interpena.objects.count()) == counts


def test_a_peña_still_in_a_circuit_joins_it_again_with_its_tournaments(desk, season):
    club, circuit, interpena = season
    before = ranking(circuit)
    archive = export(desk, club)
    Interpena.objects.filter(home_club=club).delete()
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()  # the circuit stays, with the peña, without its tournament
    circuit_ranking_refresh(circuit=circuit)
    assert ranking(circuit) != before
    answer = imported(desk, archive)
    assert answer.status_code == 201, answer.json()
    assert Circuit.objects.count() == 1 and ranking(circuit) == before


def test_an_interpeña_pointing_outside_the_archive_refuses_it_all(desk, season):
    club, *_ = season
    archive = export(desk, club)
    wipe(club)
    archive["interpenas"][0]["interpena_boards"][1]["match"] = 987654
    answer = imported(desk, resealed(archive))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "archive_reference"
    assert error["params"]["where"] == "interpenas[0].interpena_boards[1].match"
    assert not Club.objects.filter(slug="pena-txoko").exists()
    assert (Circuit.objects.count(), Interpena.objects.count()) == (0, 0)


def test_an_archive_of_version_2_still_imports(desk, season):
    club, *_ = season
    archive = export(desk, club)
    wipe(club)
    old = {k: v for k, v in archive.items() if k not in ("circuits", "interpenas")}
    old["club"] = {k: v for k, v in archive["club"].items() if k != "language"}
    old["version"] = 2
    answer = imported(desk, resealed(old))
    assert answer.status_code == 201, answer.json()
    assert Club.objects.get(slug="pena-txoko").language == "es"
    assert (Circuit.objects.count(), Interpena.objects.count()) == (0, 0)


def test_a_circuit_pointing_at_a_tournament_outside_the_archive_refuses_it_all(desk, season):
    club, *_ = season
    archive = export(desk, club)
    wipe(club)
    archive["circuits"][0]["tournaments"] = [987654]
    answer = imported(desk, resealed(archive))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "archive_reference"
    assert error["params"]["where"] == "circuits[0].tournaments"
    assert not Club.objects.filter(slug="pena-txoko").exists() and not Circuit.objects.exists()


def test_a_circuit_whose_points_table_its_rules_refuse_refuses_it_all(desk, season):
    club, *_ = season
    archive = export(desk, club)
    wipe(club)
    archive["circuits"][0]["points_table"] = [10, 50]
    answer = imported(desk, resealed(archive))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["params"]["field"]) == ("archive_value", "points_table")
    assert not Club.objects.filter(slug="pena-txoko").exists()


def test_who_created_a_circuit_or_an_interpeña_survives_an_import(
    desk, season, django_capture_on_commit_callbacks
):
    """Issue 23 #6: the import made the importer the creator of the circuit and the
    interpeña, and forgot who made each change."""
    club, _circuit, _interpena = season
    first = export(desk, club)
    names = who_made(first)
    assert (".circuits.created_by", "organizadora") in names
    assert (".interpenas.created_by", "organizadora") in names
    wipe(club)
    other = Api(APIClient(), django_capture_on_commit_callbacks)
    other.client.force_login(UserFactory(username="otra"))
    answer = imported(other, first)
    assert answer.status_code == 201, answer.json()
    assert who_made(export(other, Club.objects.get(slug="pena-txoko"))) == names
