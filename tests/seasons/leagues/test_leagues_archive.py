"""A peña's archive carries its leagues (seasons/leagues/archive.py): exported with the peña, the
database emptied, imported, and the same league served (divisions, calendar, standings with a
walkover and a double loss); a division that points outside the archive refuses it all."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client

from clubs.models import Club, Pair, Player
from seasons.leagues import selectors, services
from seasons.leagues.models import Division, League, Postponement
from tests.api.test_api_archive import who_made
from tests.factories import UserFactory
from tests.seasons.leagues.conftest import pairs_league
from tests.seasons.leagues.test_leagues_services import play_jornada
from tournaments.archive import checksum
from tournaments.models import Match, Phase, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def desk(organizer) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)
    return client


def played_league(club, organizer) -> League:
    """Two divisions; jornada 1 played, with a walkover and a double loss after a
    postponement; jornada 2 played too."""
    league = pairs_league(club, organizer)
    first, second, *_ = play_jornada(league, 1, organizer, skip=(0, 1))
    after = dt.date(2026, 10, 21)
    for match in (first, second):
        services.match_postpone(
            league=league, actor=organizer, match_id=match.pk, deadline=dt.date(2026, 10, 20)
        )
    services.postponement_decide(
        league=league,
        actor=organizer,
        match_id=first.pk,
        outcome="walkover",
        absent_side="b",
        today=after,
    )
    services.postponement_decide(
        league=league, actor=organizer, match_id=second.pk, outcome="double_loss", today=after
    )
    play_jornada(league, 2, organizer, side="b")
    return league


def served(league: League) -> list:
    """The league as a reader sees it, without the ids an import changes."""
    standings = [
        (
            d.division.name,
            [
                (r.position, r.name, r.played, r.won, r.lost, r.walkovers_lost, r.points)
                + (r.games_for, r.games_against, r.stones_for, r.stones_against)
                for r in d.rows
            ],
        )
        for d in selectors.league_standings(league=league)
    ]
    jornadas = [(j.number, j.date, j.status) for j in selectors.jornadas_of(league=league)]
    divisions = [
        (d.name, d.level, d.promote, d.relegate, d.tournament.name, len(d.schedule))
        for d in selectors.divisions_of(league=league)
    ]
    postponed = sorted(
        Postponement.objects.filter(division__league=league).values_list("outcome", "deadline")
    )
    return [league.name, league.season, league.kind, standings, jornadas, divisions, postponed]


def wipe(club: Club) -> None:
    League.objects.filter(club=club).delete()
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.all().delete()
    Player.objects.all().delete()
    club.delete()


def test_a_peñas_archive_carries_its_leagues(club, organizer, desk):
    league = played_league(club, organizer)
    before = served(league)
    assert [outcome for outcome, _ in before[-1]] == ["double_loss", "walkover"]
    response = desk.get(f"{API}/clubs/{club.pk}/archive")
    assert response.status_code == 200
    archive = json.loads(response.content)
    [exported] = archive["leagues"]
    assert [d["name"] for d in exported["divisions"]] == ["Primera", "Segunda"]
    # A tournament's archive holds no league (its divisions' other tournaments are not in it).
    division = Division.objects.filter(league=league).first()
    one = desk.get(f"{API}/tournaments/{division.tournament_id}/archive").json()
    assert one["leagues"] == []

    wipe(club)
    response = desk.post(f"{API}/archive/import", archive, content_type="application/json")
    assert response.status_code == 201, response.content
    imported = League.objects.get()
    assert served(imported) == before
    assert imported.club.slug == "txiki"


def test_a_division_pointing_outside_the_archive_refuses_it_all(club, organizer, desk):
    played_league(club, organizer)
    archive = json.loads(desk.get(f"{API}/clubs/{club.pk}/archive").content)
    wipe(club)
    archive["leagues"][0]["divisions"][1]["tournament"] = 987654
    archive["checksum"] = checksum(archive)
    response = desk.post(f"{API}/archive/import", archive, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "archive_reference"
    assert error["params"]["where"] == "leagues[0].divisions[1].tournament"
    assert (Club.objects.count(), Tournament.objects.count(), League.objects.count()) == (0, 0, 0)


def test_who_created_a_league_or_postponed_a_match_survives_an_import(club, organizer, desk):
    """Issue 23 #6: the import made the importer the league's creator and forgot who postponed
    each match."""
    played_league(club, organizer)
    first = json.loads(desk.get(f"{API}/clubs/{club.pk}/archive").content)
    names = who_made(first)
    leagues = [(path, n) for path, n in names if path.startswith(".leagues")]
    assert (".leagues.created_by", "organizadora") in leagues
    assert (".leagues.divisions.postponements.created_by", "organizadora") in leagues
    wipe(club)
    other = Client()
    other.force_login(UserFactory(username="otra"))
    response = other.post(f"{API}/archive/import", first, content_type="application/json")
    assert response.status_code == 201, response.content
    again = json.loads(other.get(f"{API}/clubs/{Club.objects.get().pk}/archive").content)
    assert who_made(again) == names


def test_a_decided_postponement_whose_match_is_not_confirmed_is_refused(club, organizer, desk):
    """Issue 23 #6: a walkover decided after the deadline confirms its match; an archive that
    says otherwise contradicts itself."""
    played_league(club, organizer)
    archive = json.loads(desk.get(f"{API}/clubs/{club.pk}/archive").content)
    wipe(club)
    division = next(d for d in archive["leagues"][0]["divisions"] if d["postponements"])
    postponement = next(p for p in division["postponements"] if p["outcome"] == "walkover")
    for tournament in archive["tournaments"]:
        for phase in tournament["phases"]:
            for rnd in phase["rounds"]:
                for match in rnd["matches"]:
                    if match["id"] == postponement["match"]:
                        match.update(status="pending", kind="played", winner=None, result=None)
                        match.update(dict.fromkeys(("games_a", "games_b", "vacas_a"), 0))
                        match.update(dict.fromkeys(("vacas_b", "stones_a", "stones_b"), 0))
    archive["checksum"] = checksum(archive)
    response = desk.post(f"{API}/archive/import", archive, content_type="application/json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "archive_inconsistent"
    assert error["params"]["problem"]["code"] == "archive_postponement_unconfirmed"
    assert error["params"]["where"].startswith("leagues[0].divisions[")
    assert (Club.objects.count(), Tournament.objects.count(), League.objects.count()) == (0, 0, 0)
