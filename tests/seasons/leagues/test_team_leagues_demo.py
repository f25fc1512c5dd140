"""`manage.py demo` loads a league of peñas half played (that --reset loads it once again is
checked with the rest of the demo, tests/tournaments/test_demo_command.py)."""

from __future__ import annotations

import pytest

from seasons.leagues.models import TeamLeague
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams.demo import TEAM_LEAGUE_NAME

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_league_of_peñas_half_played(client, shared_demo):
    league = TeamLeague.objects.get(name=TEAM_LEAGUE_NAME)
    calendar = team_selectors.team_league_calendar(league=league)
    states = [[f.state for f in j.fixtures] for j in calendar]
    assert states == [
        ["confirmed", "confirmed"],
        ["to_confirm", "playing"],
        ["scheduled", "scheduled"],
    ]
    rows = team_selectors.team_league_standings(league=league)
    assert sum(r.played for r in rows) == 4 and rows[0].points >= 3
    page = client.get(f"/ligas-penas/{league.club.slug}/{league.slug}/")
    assert page.status_code == 200 and len(page.content) < 60 * 1024
    # that --reset loads it once again: tests/tournaments/test_demo_command.py
