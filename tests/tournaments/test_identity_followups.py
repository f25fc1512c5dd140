"""The tournaments' and the leagues' part of one person, one identity: the standings name a
merged person as who they are now, and an individual division's rests (player ids in a JSON
column that model meta cannot see) follow the merge and its undo."""

from __future__ import annotations

import pytest

from clubs.identity.services import player_merge, player_merge_undo
from clubs.models import Club, Player
from seasons.leagues.models import Division, League
from tests.clubs.identity_data import world
from tests.factories import RoundFactory, TournamentFactory
from tournaments.archive import archive_dumps
from tournaments.models import Match, StandingsSnapshot
from tournaments.selectors.archive import club_archive
from tournaments.services.archive import archive_import
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def names_in_standings(tournament) -> set[str]:
    rows = StandingsSnapshot.objects.get(phase__tournament=tournament).rows
    return {name for row in rows for name in row["players"]}


def test_the_standings_name_the_merged_person_as_who_they_are_now(
    django_capture_on_commit_callbacks,
):
    w = world()
    phase = w.tournament_lizarra.phases.get()
    standings_refresh(phase=phase)
    assert str(w.ana_lizarra) in names_in_standings(w.tournament_lizarra)
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    names = names_in_standings(w.tournament_lizarra)
    assert "Ana Uno" in names and str(w.ana_lizarra) not in names
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(actor=w.organizer_both, merge=merge)
    assert str(w.ana_lizarra) in names_in_standings(w.tournament_lizarra)


def test_an_individual_divisions_rests_follow_the_merge_and_its_undo():
    w = world()
    tournament = TournamentFactory(club=w.lizarra)
    phase = RoundFactory(phase__tournament=tournament).phase
    league = League.objects.create(
        club=w.lizarra, name="Liga", slug="liga", season="2026", kind=League.Kind.INDIVIDUAL
    )
    division = Division.objects.create(
        league=league,
        name="Primera",
        level=1,
        tournament=tournament,
        phase=phase,
        resting={"1": [w.ana_lizarra.pk], "2": [7], "3": [w.ana_lizarra.pk, 8]},
    )
    division.players.add(w.ana_lizarra)
    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    division.refresh_from_db()
    assert division.resting == {"1": [w.ana.pk], "2": [7], "3": [w.ana.pk, 8]}
    assert list(division.players.all()) == [w.ana]
    assert merge.extra == {"leagues": {"resting": {str(division.pk): ["1", "3"]}}}
    player_merge_undo(actor=w.organizer_both, merge=merge)
    division.refresh_from_db()
    assert division.resting == {"1": [w.ana_lizarra.pk], "2": [7], "3": [w.ana_lizarra.pk, 8]}
    assert list(division.players.all()) == [w.ana_lizarra]


def test_a_peñas_archive_exports_a_merged_player_as_the_person_they_are_now_and_imports():
    w = world()
    tournament = TournamentFactory(club=w.lizarra)
    phase = RoundFactory(phase__tournament=tournament).phase
    league = League.objects.create(
        club=w.lizarra,
        name="Liga",
        slug="liga",
        season="2026",
        kind=League.Kind.INDIVIDUAL,
        tiebreaks=["head_to_head", "games"],
    )
    division = Division.objects.create(
        league=league,
        name="Primera",
        level=1,
        tournament=tournament,
        phase=phase,
        resting={"1": [w.ana_lizarra.pk]},
    )
    division.players.add(w.ana_lizarra)
    player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    # the world's matches are confirmed by their factory without a result, which an archive's
    # import refuses as contradictory (tests/api/test_api_archive_checks.py): here they are
    # still to play
    Match.objects.filter(round__phase__tournament__club=w.lizarra).update(
        status=Match.Status.PENDING, winner=None
    )

    archive = club_archive(club=w.lizarra)
    people = {p["id"]: (p["first_name"], p["last_name"]) for p in archive["players"]}
    assert w.ana_lizarra.pk not in people
    assert people[w.ana.pk] == ("Ana", "Uno")
    [league_record] = archive["leagues"]
    [division_record] = league_record["divisions"]
    assert division_record["resting"] == {"1": [w.ana.pk]}
    assert division_record["players"] == [w.ana.pk]

    # the archive opens whole, into a new peña (the old one's slug moved out of its way)
    Club.objects.filter(pk=w.lizarra.pk).update(slug="pena-lizarra-antes")
    result = archive_import(raw=archive_dumps(archive), actor=w.organizer_lizarra)
    assert result.club_created
    copy = Division.objects.get(league__club=result.club)
    [rested] = copy.resting["1"]
    assert str(Player.objects.get(pk=rested)) == "Ana Uno"
    assert list(copy.players.values_list("pk", flat=True)) == [rested]
