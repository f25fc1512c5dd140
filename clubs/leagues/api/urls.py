"""The leagues API: whole paths under /api/v1/ (reads GET on nouns, each write POST on its own
action path, like the rest of the API)."""

from django.urls import path

from clubs.leagues.api import views

app_name = "leagues-api"

_L = "leagues/<int:league_id>"
_J = f"{_L}/jornadas/<int:number>"
_M = f"{_L}/matches/<int:match_id>"

urlpatterns = [
    path("leagues", views.LeagueAllListApi.as_view(), name="league-all-list"),
    path("clubs/<int:club_id>/leagues", views.LeagueListApi.as_view(), name="league-list"),
    path(
        "clubs/<int:club_id>/leagues/create", views.LeagueCreateApi.as_view(), name="league-create"
    ),
    path(_L, views.LeagueDetailApi.as_view(), name="league-detail"),
    path(f"{_L}/calendar", views.LeagueCalendarApi.as_view(), name="league-calendar"),
    path(f"{_L}/divisions/create", views.DivisionCreateApi.as_view(), name="division-create"),
    path(
        f"{_L}/divisions/<int:division_id>/remove",
        views.DivisionRemoveApi.as_view(),
        name="division-remove",
    ),
    path(f"{_L}/rules", views.LeagueRulesApi.as_view(), name="league-rules"),
    path(f"{_L}/standings", views.StandingsApi.as_view(), name="league-standings"),
    path(f"{_L}/next-season", views.NextSeasonApi.as_view(), name="league-next-season"),
    path(_J, views.JornadaApi.as_view(), name="jornada-detail"),
    path(f"{_J}/draw", views.JornadaDrawApi.as_view(), name="jornada-draw"),
    path(f"{_J}/publish", views.JornadaPublishApi.as_view(), name="jornada-publish"),
    path(f"{_J}/close", views.JornadaCloseApi.as_view(), name="jornada-close"),
    path(f"{_M}/postpone", views.MatchPostponeApi.as_view(), name="match-postpone"),
    path(f"{_M}/decide", views.MatchDecideApi.as_view(), name="match-decide"),
]

# --- Leagues of peñas (clubs.leagues.api.team_views) ---------------------------------------------
from clubs.leagues.api import team_views  # noqa: E402

_T = "team-leagues/<int:league_id>"
_TF = f"{_T}/fixtures/<int:fixture_id>"
urlpatterns += [
    path("team-leagues", team_views.TeamLeagueAllListApi.as_view(), name="team-league-all-list"),
    path(
        "clubs/<int:club_id>/team-leagues",
        team_views.TeamLeagueListApi.as_view(),
        name="team-league-list",
    ),
    path(
        "clubs/<int:club_id>/team-leagues/create",
        team_views.TeamLeagueCreateApi.as_view(),
        name="team-league-create",
    ),
    path(_T, team_views.TeamLeagueDetailApi.as_view(), name="team-league-detail"),
    path(
        f"{_T}/standings",
        team_views.TeamLeagueStandingsApi.as_view(),
        name="team-league-standings",
    ),
    path(
        f"{_T}/jornadas/<int:number>/open",
        team_views.TeamJornadaOpenApi.as_view(),
        name="team-jornada-open",
    ),
    path(f"{_TF}/open", team_views.TeamFixtureOpenApi.as_view(), name="team-fixture-open"),
    path(
        f"{_TF}/postpone", team_views.TeamFixturePostponeApi.as_view(), name="team-fixture-postpone"
    ),
    path(f"{_TF}/decide", team_views.TeamFixtureDecideApi.as_view(), name="team-fixture-decide"),
]
