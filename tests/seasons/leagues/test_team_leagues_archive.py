"""A peña's archive carries the leagues of peñas it runs (seasons/leagues/teams/archive.py):
exported, imported into an empty instance, and the same standings and calendar served; a
fixture hosted by another peña linked again when this instance holds its interpeña; a broken
reference refuses the whole archive; an archive of version 3 still imports."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import Club, Pair, Player
from seasons.circuits.models import Circuit
from seasons.interpenas.models import Interpena
from seasons.leagues.models import TeamFixture, TeamLeague
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams import services as team_services
from seasons.leagues.teams.archive import team_leagues_export
from tests.api.test_api_archive import who_made
from tests.factories import UserFactory
from tests.seasons.leagues.team_helpers import play, team_league
from tournaments.archive import VERSION, checksum
from tournaments.models import Match, Phase, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/"


def seen(league: TeamLeague) -> tuple:
    """The standings and the calendar as a reader sees them, without the ids an import
    changes."""
    calendar = team_selectors.team_league_calendar(league=league)
    standings = [
        (r.position, r.club.slug, r.played, r.won, r.drawn, r.lost, r.walkovers_lost, r.points)
        + (r.boards_for, r.boards_against, r.games_for, r.games_against, r.tiebreak, r.form)
        for r in team_selectors.team_league_standings(league=league, calendar=calendar)
    ]
    fixtures = [
        (j.jornada.number, j.jornada.date, j.jornada.resting_id and j.jornada.resting.slug)
        + (f.fixture.number, f.fixture.home_club.slug, f.fixture.away_club.slug, f.state)
        + (f.fixture.postponed_to, f.fixture.decision, f.fixture.decided_at)
        for j in calendar
        for f in j.fixtures
    ]
    rules = (league.name, league.slug, league.season, league.boards, league.legs)
    rules += (league.points_win, league.points_draw, league.points_loss, league.tiebreaks)
    clubs = [c.slug for c in team_selectors.team_league_clubs(league=league)]
    return rules, clubs, standings, fixtures


@pytest.fixture
def season():
    """A league of five peñas run by Peña A (one rests each jornada): A's home fixtures of
    jornadas 1 and 2 played and confirmed, one of B's at home too, a walkover decided, a
    double loss, a fixture postponed."""
    league, teams = team_league(5, boards=2)
    a, org_a, _pairs = teams[0]
    b = teams[1][0]
    fixtures = list(
        TeamFixture.objects.filter(jornada__league=league).order_by("jornada__number", "number")
    )
    first_two = [f for f in fixtures if f.jornada.number <= 2]
    hosted = [f for f in fixtures if f.home_club_id == a.pk][:2]
    assert hosted, "Peña A hosts a fixture"
    for f, winners in zip(hosted, (["home", "away"], ["away", "away"]), strict=False):
        play(league, teams, f, winners)
    by_b = next(f for f in fixtures if f.home_club_id == b.pk and f not in hosted)
    by_b = play(league, teams, by_b, ["home", "home"])
    others = [f for f in first_two if f not in hosted and f != by_b]
    team_services.team_fixture_decide(
        league=league, fixture_id=others[0].pk, actor=org_a, decision="away_absent"
    )
    team_services.team_fixture_decide(
        league=league, fixture_id=others[1].pk, actor=org_a, decision="double_loss"
    )
    later = [f for f in fixtures if f.jornada.number >= 3 and f not in (*hosted, by_b)][0]
    team_services.team_fixture_postpone(
        league=league, fixture_id=later.pk, actor=org_a, deadline=dt.date(2027, 3, 1)
    )
    return league, teams, by_b


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def export(client: APIClient, club: Club) -> dict:
    response = client.get(f"{API}clubs/{club.pk}/archive")
    assert response.status_code == 200
    return json.loads(response.content)


def imported(client: APIClient, archive: dict, capture):
    with capture(execute=True):
        return client.post(f"{API}archive/import", archive, format="json")


def resealed(archive: dict) -> dict:
    archive["checksum"] = checksum(archive)
    return archive


def wipe(clubs) -> None:
    """Delete the peñas and all that is theirs (the users stay)."""
    TeamLeague.objects.filter(club__in=clubs).delete()
    Interpena.objects.filter(home_club__in=clubs).delete()
    Circuit.objects.filter(clubs__in=clubs).delete()
    tournaments = Tournament.objects.filter(club__in=clubs)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    Pair.objects.filter(club__in=clubs).delete()
    Player.objects.filter(clubs__in=clubs).delete()
    Club.objects.filter(pk__in=[c.pk for c in clubs]).delete()


def everything() -> tuple:
    return (
        Club.objects.count(),
        Tournament.objects.count(),
        Interpena.objects.count(),
        TeamLeague.objects.count(),
        TeamFixture.objects.count(),
    )


def test_a_league_of_peñas_exported_and_imported_into_an_empty_instance_stands_the_same(
    season, django_capture_on_commit_callbacks
):
    league, teams, by_b = season
    a, org_a, _ = teams[0]
    # into an empty instance, B's interpeña (in B's archive) is not there: as if never opened
    Interpena.objects.filter(pk=by_b.interpena_id).update(status=Interpena.Status.LINEUPS)
    before = seen(league)
    client = client_of(org_a)
    archive = export(client, a)
    assert archive["version"] == VERSION >= 4  # the section is of version 4 on
    [exported] = archive["team_leagues"]
    assert [c["slug"] for c in exported["team_league_clubs"]] == [c.slug for c, _u, _p in teams]
    home = [
        f
        for j in exported["team_jornadas"]
        for f in j["team_fixtures"]
        if f["interpena_tournament"]
    ]
    assert len(home) == 2 and len(archive["interpenas"]) == 2
    assert {f["interpena_tournament"] for f in home} == {
        i["tournament"] for i in archive["interpenas"]
    }

    wipe([c for c, _u, _p in teams])
    assert everything() == (0, 0, 0, 0, 0)
    answer = imported(client, archive, django_capture_on_commit_callbacks)
    assert answer.status_code == 201, answer.json()
    league = TeamLeague.objects.get()
    # the by-B fixture was opened elsewhere (its interpeña is in B's archive): here it is not
    # opened; every other fixture is as it was, and the standings are the same
    after = seen(league)
    assert after[:3] == before[:3]
    b_row = (by_b.jornada.number, by_b.number)
    expected = [
        row[:6] + ("scheduled",) + row[7:] if (row[0], row[3]) == b_row else row
        for row in before[3]
    ]
    assert after[3] == expected
    states = {row[6] for row in after[3]}
    assert {"confirmed", "away_absent", "double_loss", "postponed", "scheduled"} <= states
    assert after[2][0][7] > 0  # somebody has points
    # the peñas other than A are placeholders, and A's interpeñas count for the new league
    assert Club.objects.get(slug=a.slug).memberships.filter(user=org_a).exists()
    for fixture in TeamFixture.objects.filter(interpena__isnull=False):
        assert fixture.interpena.league_key == f"team-league:{league.pk}:{fixture.pk}"
        assert fixture.interpena.status == Interpena.Status.CONFIRMED
        page = client.get(f"/interpenas/{fixture.interpena_id}/").content.decode()
        assert f"/ligas-penas/{a.slug}/{league.slug}/#j{fixture.jornada.number}" in page


def test_a_fixture_hosted_elsewhere_is_linked_again_when_this_instance_holds_it(
    season, django_capture_on_commit_callbacks
):
    league, teams, by_b = season
    a, org_a, _ = teams[0]
    before = seen(league)
    client = client_of(org_a)
    archive = export(client, a)
    [elsewhere] = [
        f["interpena_elsewhere"]
        for j in archive["team_leagues"][0]["team_jornadas"]
        for f in j["team_fixtures"]
        if f["interpena_elsewhere"]
    ]
    assert elsewhere["club"] == teams[1][0].slug
    wipe([a])  # B, C, D, E stay, with B's interpeña
    answer = imported(client, archive, django_capture_on_commit_callbacks)
    assert answer.status_code == 201, answer.json()
    league = TeamLeague.objects.get()
    assert seen(league) == before
    fixture = TeamFixture.objects.get(interpena_id=by_b.interpena_id)
    assert fixture.interpena.league_key == f"team-league:{league.pk}:{fixture.pk}"


@pytest.mark.parametrize(
    "field, value, code",
    [
        ("interpena_tournament", 987654, "archive_reference"),
        ("home_club", "pena-que-no-juega", "archive_value"),
        ("decision", "abandoned", "archive_value"),
    ],
)
def test_a_broken_fixture_refuses_the_whole_archive(
    season, django_capture_on_commit_callbacks, field, value, code
):
    league, teams, _ = season
    a, org_a, _ = teams[0]
    client = client_of(org_a)
    archive = export(client, a)
    wipe([c for c, _u, _p in teams])
    jornadas = archive["team_leagues"][0]["team_jornadas"]
    j, k = next(
        (j, k)
        for j, jornada in enumerate(jornadas)
        for k, f in enumerate(jornada["team_fixtures"])
        if f["interpena_tournament"]
    )
    jornadas[j]["team_fixtures"][k][field] = value
    answer = imported(client, resealed(archive), django_capture_on_commit_callbacks)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code
    where = f"team_leagues[0].team_jornadas[{j}].team_fixtures[{k}]"
    assert error["params"]["where"] in (where, f"{where}.{field}")
    assert everything() == (0, 0, 0, 0, 0)


def test_an_archive_of_version_3_still_imports(season, django_capture_on_commit_callbacks):
    league, teams, _ = season
    a, org_a, _ = teams[0]
    client = client_of(org_a)
    archive = export(client, a)
    wipe([c for c, _u, _p in teams])
    old = {k: v for k, v in archive.items() if k != "team_leagues"}
    old["version"] = 3
    answer = imported(client, resealed(old), django_capture_on_commit_callbacks)
    assert answer.status_code == 201, answer.json()
    assert TeamLeague.objects.count() == 0 and Interpena.objects.count() == 2


def test_the_export_reads_the_leagues_of_peñas_in_four_queries_whatever_their_size(season):
    league, teams, _ = season
    a = teams[0][0]
    with CaptureQueriesContext(connection) as one:
        [row] = team_leagues_export(club=a, tournament_ids=[])
    team_services.team_league_create(
        club=a,
        actor=teams[0][1],
        name="Liga de invierno",
        season="2027",
        club_ids=[c.pk for c, _u, _p in teams],
        dates=[dt.date(2027, 1, 3) + dt.timedelta(weeks=k) for k in range(10)],
        legs=2,
    )
    with CaptureQueriesContext(connection) as two:
        rows = team_leagues_export(club=a, tournament_ids=[])
    assert len(rows) == 2 and len(one) == len(two) == 4
    # without the tournaments, A's interpeñas are named as elsewhere (its own slugs)
    assert any(f["interpena_elsewhere"] for j in row["team_jornadas"] for f in j["team_fixtures"])


def test_who_created_a_league_of_peñas_survives_an_import(
    season, django_capture_on_commit_callbacks
):
    """Issue 23 #6: the import made the importer the league's creator."""
    _league, teams, _by_b = season
    a, org_a, _ = teams[0]
    first = export(client_of(org_a), a)
    names = who_made(first)
    assert (".team_leagues.created_by", org_a.username) in names
    wipe([c for c, _u, _p in teams])
    other = client_of(UserFactory(username="otra"))
    answer = imported(other, first, django_capture_on_commit_callbacks)
    assert answer.status_code == 201, answer.json()
    assert who_made(export(other, Club.objects.get(slug=a.slug))) == names
