"""API of the leagues of peñas: a peña's leagues of peñas, one with its peñas and calendar of
fixtures (each with its interpeña's id and team result), the standings (whole season or up to
a jornada), and the writes: create it, open a fixture or a jornada's fixtures as interpeñas,
postpone a fixture, decide it as a walkover or a double loss.

Responsible for: turning requests into calls of seasons.leagues.teams.selectors and
.services and their answers into JSON. Line-ups, boards and the captains' confirmation are
the interpeñas' endpoints (``/api/v1/interpenas/<id>/…``) on the fixture's ``interpena_id``.

Must not: check roles, hold a rule, or build an error body.

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), descanso,
aplazada, no presentada, doble derrota.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from config.inputs import Input
from seasons.api_helpers import jornada_param, valid_or_400
from seasons.leagues.models import TeamFixture, TeamLeague
from seasons.leagues.table import TEAM_TIEBREAKS
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams import services as team_services

# --- Outputs -------------------------------------------------------------------------------------


class TeamLeagueClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()

    class Meta:
        ref_name = "TeamLeagueClub"


class TeamFixtureOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    home_club_id = serializers.IntegerField()
    away_club_id = serializers.IntegerField()
    interpena_id = serializers.IntegerField(allow_null=True, help_text="null until opened")
    state = serializers.CharField(
        help_text="scheduled, lineups, playing, to_confirm, confirmed, postponed, "
        "home_absent, away_absent or double_loss"
    )
    boards_home = serializers.IntegerField(allow_null=True)
    boards_away = serializers.IntegerField(allow_null=True)
    games_home = serializers.IntegerField(allow_null=True)
    games_away = serializers.IntegerField(allow_null=True)
    postponed_to = serializers.DateField(allow_null=True)
    counts = serializers.BooleanField(help_text="whether the standings count it")

    class Meta:
        ref_name = "TeamFixture"


class TeamJornadaOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    date = serializers.DateField()
    resting_club_id = serializers.IntegerField(allow_null=True)
    fixtures = TeamFixtureOutputSerializer(many=True)

    class Meta:
        ref_name = "TeamJornada"


class TeamLeagueOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField()
    legs = serializers.IntegerField()
    boards = serializers.IntegerField()
    is_public = serializers.BooleanField()
    points = serializers.DictField(child=serializers.IntegerField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    clubs = TeamLeagueClubSerializer(many=True)
    jornadas = TeamJornadaOutputSerializer(many=True)

    class Meta:
        ref_name = "TeamLeague"


def _fixture_out(row: team_selectors.FixtureRow) -> dict:
    f, result = row.fixture, row.result
    return {
        "id": f.pk,
        "number": f.number,
        "home_club_id": f.home_club_id,
        "away_club_id": f.away_club_id,
        "interpena_id": f.interpena_id,
        "state": row.state,
        "boards_home": result.boards_home if result else None,
        "boards_away": result.boards_away if result else None,
        "games_home": result.games_home if result else None,
        "games_away": result.games_away if result else None,
        "postponed_to": f.postponed_to,
        "counts": row.counted is not None,
    }


def team_league_out(league: TeamLeague) -> dict:
    calendar = team_selectors.team_league_calendar(league=league)
    return {
        "id": league.pk,
        "club_id": league.club_id,
        "name": league.name,
        "slug": league.slug,
        "season": league.season,
        "legs": league.legs,
        "boards": league.boards,
        "is_public": league.is_public,
        "points": {
            "win": league.points_win,
            "draw": league.points_draw,
            "loss": league.points_loss,
            "walkover_loss": league.points_walkover_loss,
        },
        "tiebreaks": list(team_selectors.team_league_tiebreaks(league)),
        "clubs": team_selectors.team_league_clubs(league=league),
        "jornadas": [
            {
                "number": j.jornada.number,
                "date": j.jornada.date,
                "resting_club_id": j.jornada.resting_id,
                "fixtures": [_fixture_out(f) for f in j.fixtures],
            }
            for j in calendar
        ],
    }


class TeamLeagueSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField()
    is_public = serializers.BooleanField()

    class Meta:
        ref_name = "TeamLeagueSummary"


# --- Reads ---------------------------------------------------------------------------------------


class TeamLeagueListApi(APIView):
    """The leagues of peñas the peña runs or plays that the caller may see."""

    @extend_schema(
        operation_id="team_league_list", responses=TeamLeagueSummarySerializer(many=True)
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = club_selectors.club_get(club_id=club_id)
        leagues = team_selectors.team_league_list(user=request.user, club=club)
        return Response(TeamLeagueSummarySerializer(leagues, many=True).data)


class TeamLeagueAllListApi(APIView):
    """Every league of peñas the caller may see (the index's ``team-leagues``)."""

    @extend_schema(
        operation_id="team_league_all_list", responses=TeamLeagueSummarySerializer(many=True)
    )
    def get(self, request: Request) -> Response:
        leagues = team_selectors.team_league_list(user=request.user)
        return Response(TeamLeagueSummarySerializer(leagues, many=True).data)


class TeamLeagueDetailApi(APIView):
    """The league with its peñas and its calendar of fixtures."""

    @extend_schema(operation_id="team_league_detail", responses=TeamLeagueOutputSerializer)
    def get(self, request: Request, league_id: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data)


class TeamStandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    club_id = serializers.IntegerField(source="club.pk")
    club = serializers.CharField(source="club.name")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    walkovers_lost = serializers.IntegerField()
    points = serializers.IntegerField()
    boards_for = serializers.IntegerField()
    boards_against = serializers.IntegerField()
    games_for = serializers.IntegerField()
    games_against = serializers.IntegerField()
    tiebreak = serializers.CharField(help_text="what put it below the row above on equal points")

    class Meta:
        ref_name = "TeamStandingRow"


class TeamLeagueStandingsApi(APIView):
    """The standings, for the season or up to a jornada (``?jornada=N``)."""

    class OutputSerializer(serializers.Serializer):
        league_id = serializers.IntegerField()
        jornada = serializers.IntegerField(allow_null=True)
        rows = TeamStandingRowSerializer(many=True)

        class Meta:
            ref_name = "TeamLeagueStandings"

    @extend_schema(
        operation_id="team_league_standings",
        parameters=[OpenApiParameter("jornada", int, description="up to this jornada")],
        responses=OutputSerializer,
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        upto = jornada_param(request.query_params.get("jornada"))
        rows = team_selectors.team_league_standings(league=league, upto=upto)
        data = {"league_id": league.pk, "jornada": upto, "rows": rows}
        return Response(self.OutputSerializer(data).data)


# --- Writes --------------------------------------------------------------------------------------


class TeamLeagueCreateApi(APIView):
    """A league of peñas run by this peña, with its whole calendar of fixtures."""

    class InputSerializer(Input):
        name = serializers.CharField(max_length=120)
        season = serializers.CharField(max_length=20)
        club_ids = serializers.ListField(
            child=serializers.IntegerField(),
            max_length=24,
            help_text="the peñas that play, in the schedule's order",
        )
        dates = serializers.ListField(
            child=serializers.DateField(),
            max_length=60,
            help_text="one per jornada: peñas − 1 (peñas if odd), twice with two legs",
        )
        boards = serializers.IntegerField(default=3)
        legs = serializers.IntegerField(default=1)
        is_public = serializers.BooleanField(default=True)
        preset = serializers.CharField(max_length=80, required=False, allow_blank=True)
        points_win = serializers.IntegerField(default=3)
        points_draw = serializers.IntegerField(default=1)
        points_loss = serializers.IntegerField(default=0)
        points_walkover_loss = serializers.IntegerField(default=0)
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=TEAM_TIEBREAKS), required=False, max_length=4
        )

        class Meta:
            ref_name = "TeamLeagueCreateInput"

    @extend_schema(
        operation_id="team_league_create",
        request=InputSerializer,
        responses={201: TeamLeagueOutputSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_selectors.club_get(club_id=club_id)
        data = valid_or_400(self.InputSerializer, request)
        league = team_services.team_league_create(club=club, actor=request.user, **data)
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data, status=201)


class TeamJornadaOpenApi(APIView):
    """Open, as interpeñas, the jornada's fixtures whose home peña the caller organizes."""

    @extend_schema(
        operation_id="team_jornada_open", request=None, responses=TeamLeagueOutputSerializer
    )
    def post(self, request: Request, league_id: int, number: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        team_services.team_jornada_open(league=league, number=number, actor=request.user)
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data)


class TeamFixtureOpenApi(APIView):
    """Open the fixture as an interpeña (an organizer of its home peña; idempotent)."""

    @extend_schema(
        operation_id="team_fixture_open", request=None, responses=TeamLeagueOutputSerializer
    )
    def post(self, request: Request, league_id: int, fixture_id: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        team_services.team_fixture_open(league=league, fixture_id=fixture_id, actor=request.user)
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data)


class TeamFixturePostponeApi(APIView):
    class InputSerializer(Input):
        deadline = serializers.DateField()

        class Meta:
            ref_name = "TeamFixturePostponeInput"

    @extend_schema(
        operation_id="team_fixture_postpone",
        request=InputSerializer,
        responses=TeamLeagueOutputSerializer,
    )
    def post(self, request: Request, league_id: int, fixture_id: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        team_services.team_fixture_postpone(
            league=league, fixture_id=fixture_id, actor=request.user, deadline=data["deadline"]
        )
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data)


class TeamFixtureDecideApi(APIView):
    class InputSerializer(Input):
        decision = serializers.ChoiceField(
            choices=[c for c in TeamFixture.Decision.values if c],
            help_text="home_absent / away_absent (the other peña wins), double_loss",
        )

        class Meta:
            ref_name = "TeamFixtureDecideInput"

    @extend_schema(
        operation_id="team_fixture_decide",
        request=InputSerializer,
        responses=TeamLeagueOutputSerializer,
    )
    def post(self, request: Request, league_id: int, fixture_id: int) -> Response:
        league = team_selectors.team_league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        team_services.team_fixture_decide(
            league=league, fixture_id=fixture_id, actor=request.user, decision=data["decision"]
        )
        return Response(TeamLeagueOutputSerializer(team_league_out(league)).data)


# --- Paths (config/api.py mounts them in the namespace ``leagues-api``) -----------------

_T = "team-leagues/<int:league_id>"
_TF = f"{_T}/fixtures/<int:fixture_id>"
urlpatterns = [
    path("team-leagues", TeamLeagueAllListApi.as_view(), name="team-league-all-list"),
    path(
        "clubs/<int:club_id>/team-leagues",
        TeamLeagueListApi.as_view(),
        name="team-league-list",
    ),
    path(
        "clubs/<int:club_id>/team-leagues/create",
        TeamLeagueCreateApi.as_view(),
        name="team-league-create",
    ),
    path(_T, TeamLeagueDetailApi.as_view(), name="team-league-detail"),
    path(
        f"{_T}/standings",
        TeamLeagueStandingsApi.as_view(),
        name="team-league-standings",
    ),
    path(
        f"{_T}/jornadas/<int:number>/open",
        TeamJornadaOpenApi.as_view(),
        name="team-jornada-open",
    ),
    path(f"{_TF}/open", TeamFixtureOpenApi.as_view(), name="team-fixture-open"),
    path(f"{_TF}/postpone", TeamFixturePostponeApi.as_view(), name="team-fixture-postpone"),
    path(f"{_TF}/decide", TeamFixtureDecideApi.as_view(), name="team-fixture-decide"),
]
