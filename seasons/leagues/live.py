"""The live push of the leagues' and the leagues of peñas' public pages (config.live).

Responsible for: the topics a tournament's confirmed result reaches (``league:<id>`` for the
league whose division the tournament plays, ``teamleague:<id>`` for the league of peñas whose
fixture's interpeña it is), and the doors of their streams (``/live/ligas/<peña>/<liga>/``,
``/live/ligas-penas/<peña>/<liga>/``), open to whom may see the page. Registered at the app's
ready(): tournaments import none of this.

Must not: publish by itself (tournaments' follow-ups publish, after their commit).
"""

from __future__ import annotations

from config.live import live_above_register, live_door_register, live_stream
from seasons.leagues import selectors
from seasons.leagues.models import Division, League
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams.models import TeamFixture, TeamLeague


def league_topic(league_id: int) -> str:
    return f"league:{league_id}"


def team_league_topic(league_id: int) -> str:
    return f"teamleague:{league_id}"


def topics_of(tournament_id: int) -> list[str]:
    leagues = Division.objects.filter(tournament_id=tournament_id).values_list("league_id")
    teams = TeamFixture.objects.filter(interpena__tournament_id=tournament_id).values_list(
        "jornada__league_id"
    )
    return [league_topic(pk) for (pk,) in leagues] + [
        team_league_topic(pk) for (pk,) in teams.distinct()
    ]


def _league_door(club_slug: str, league_slug: str, *, user) -> str:
    league = selectors.league_get_by_slug(club_slug=club_slug, league_slug=league_slug, user=user)
    return league_topic(league.pk)


def _team_league_door(club_slug: str, league_slug: str, *, user) -> str:
    league = team_selectors.team_league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=user
    )
    return team_league_topic(league.pk)


def league_live(league: League):
    """The page's ``live`` (templates/_live.html), None when the push is off."""
    return live_stream(f"ligas/{league.club.slug}/{league.slug}", league_topic(league.pk))


def team_league_live(league: TeamLeague):
    topic = team_league_topic(league.pk)
    return live_stream(f"ligas-penas/{league.club.slug}/{league.slug}", topic)


def register() -> None:
    live_above_register(topics_of)
    live_door_register("ligas", 2, _league_door)
    live_door_register("ligas-penas", 2, _team_league_door)
