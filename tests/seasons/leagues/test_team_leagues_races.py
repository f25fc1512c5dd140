"""Two phones at once on PostgreSQL: the league's row lock lets a fixture be opened as one
interpeña only, and a played fixture's standings read the same on PostgreSQL."""

from __future__ import annotations

import pytest

from seasons.interpenas.models import Interpena
from seasons.leagues.models import TeamFixture
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams import services as team_services
from tests.seasons.leagues.team_helpers import play, team_league
from tests.tournaments.test_rounds_race import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_openings_of_the_same_fixture_at_once_make_one_interpeña():
    league, teams = team_league(4, boards=2)
    fixture = TeamFixture.objects.filter(jornada__league=league).first()
    home = next(u for c, u, _p in teams if c.pk == fixture.home_club_id)
    results = at_once(
        lambda: team_services.team_fixture_open(league=league, fixture_id=fixture.pk, actor=home)
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Interpena.objects.count() == 1
    fixture.refresh_from_db()
    assert {r.interpena_id for r in results} == {fixture.interpena_id}


def test_a_jornada_played_through_the_interpeñas_gives_the_standings_on_postgresql():
    league, teams = team_league(4, boards=2)
    for fixture in TeamFixture.objects.filter(jornada__league=league, jornada__number=1):
        play(league, teams, fixture, ["home", "home"])
    rows = team_selectors.team_league_standings(league=league, upto=1)
    assert [r.points for r in rows] == [3, 3, 0, 0]
    assert [r.boards_diff for r in rows] == [2, 2, -2, -2]
