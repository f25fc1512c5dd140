"""API of the leagues: a peña's leagues, a league with its divisions and calendar, a jornada's
matches, the standings, and the organizer's writes (create, calendar, divisions, draw and
publish a jornada, postpone a match and decide it after its deadline, the next season).

Responsible for: turning requests into calls of seasons.leagues.selectors and services and their
answers into JSON. Reads of a public league are public; a private league is a 404 outside its
peña. Results are entered through the tournaments' endpoints on the match (the table's link or
an organizer), exactly as in a tournament.

Must not: check roles, hold a rule, or build an error body.

Terms: liga, temporada, división, jornada, descanso, aplazada, no presentada, doble derrota,
ascenso / descenso, pareja.
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
from seasons.leagues import selectors, services
from seasons.leagues.models import League, Postponement
from seasons.leagues.table import TIEBREAKS

# --- Outputs -------------------------------------------------------------------------------------


class DivisionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField()
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    tournament_id = serializers.IntegerField()
    phase_id = serializers.IntegerField()

    class Meta:
        ref_name = "LeagueDivision"


class JornadaOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.CharField()

    class Meta:
        ref_name = "LeagueJornada"


class LeagueOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField()
    kind = serializers.CharField()
    legs = serializers.IntegerField()
    is_public = serializers.BooleanField()
    points = serializers.DictField(child=serializers.IntegerField())
    tiebreaks = serializers.ListField(child=serializers.CharField())
    previous_id = serializers.IntegerField(allow_null=True)
    divisions = DivisionOutputSerializer(many=True)
    jornadas = JornadaOutputSerializer(many=True)

    class Meta:
        ref_name = "League"


def league_out(league: League) -> dict:
    return {
        "id": league.pk,
        "club_id": league.club_id,
        "name": league.name,
        "slug": league.slug,
        "season": league.season,
        "kind": league.kind,
        "legs": league.legs,
        "is_public": league.is_public,
        "points": {
            "win": league.points_win,
            "loss": league.points_loss,
            "walkover_loss": league.points_walkover_loss,
        },
        "tiebreaks": list(selectors.league_tiebreaks(league)),
        "previous_id": league.previous_id,
        "divisions": selectors.divisions_of(league=league),
        "jornadas": selectors.jornadas_of(league=league),
    }


class LeagueSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField()
    kind = serializers.CharField()
    is_public = serializers.BooleanField()

    class Meta:
        ref_name = "LeagueSummary"


# --- Reads ---------------------------------------------------------------------------------------


class LeagueListApi(APIView):
    """The peña's leagues the caller may see (private ones only for its members)."""

    @extend_schema(operation_id="league_list", responses=LeagueSummaryOutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        club = club_selectors.club_get(club_id=club_id)
        leagues = selectors.league_list(user=request.user, club=club)
        return Response(LeagueSummaryOutputSerializer(leagues, many=True).data)


class LeagueAllListApi(APIView):
    """Every league the caller may see: the public ones and all of their peñas' (the index's
    ``leagues``)."""

    @extend_schema(
        operation_id="league_all_list", responses=LeagueSummaryOutputSerializer(many=True)
    )
    def get(self, request: Request) -> Response:
        leagues = selectors.league_list(user=request.user)
        return Response(LeagueSummaryOutputSerializer(leagues, many=True).data)


class LeagueDetailApi(APIView):
    @extend_schema(operation_id="league_detail", responses=LeagueOutputSerializer)
    def get(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        return Response(LeagueOutputSerializer(league_out(league)).data)


class StandingRowOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    competitor = serializers.IntegerField(
        help_text="the pair's entry id (fixed pairs) or the player's id (individual)"
    )
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    walkovers_lost = serializers.IntegerField()
    points = serializers.IntegerField()
    games_for = serializers.IntegerField()
    games_against = serializers.IntegerField()
    stones_for = serializers.IntegerField()
    stones_against = serializers.IntegerField()
    tiebreak = serializers.CharField(help_text="what put it below the row above on equal points")
    zone = serializers.CharField(help_text="up (promotion place), down (relegation) or empty")

    class Meta:
        ref_name = "LeagueStandingRow"


class DivisionStandingsOutputSerializer(serializers.Serializer):
    division_id = serializers.IntegerField()
    division = serializers.CharField()
    rows = StandingRowOutputSerializer(many=True)

    class Meta:
        ref_name = "LeagueDivisionStandings"


class StandingsApi(APIView):
    """Every division's standings, for the season or up to a jornada (``?jornada=N``)."""

    class OutputSerializer(serializers.Serializer):
        league_id = serializers.IntegerField()
        jornada = serializers.IntegerField(allow_null=True)
        divisions = DivisionStandingsOutputSerializer(many=True)

        class Meta:
            ref_name = "LeagueStandings"

    @extend_schema(
        operation_id="league_standings",
        parameters=[OpenApiParameter("jornada", int, description="up to this jornada")],
        responses=OutputSerializer,
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        upto = jornada_param(request.query_params.get("jornada"))
        standings = selectors.league_standings(league=league, upto=upto)
        data = {
            "league_id": league.pk,
            "jornada": upto,
            "divisions": [
                {"division_id": s.division.pk, "division": s.division.name, "rows": s.rows}
                for s in standings
            ],
        }
        return Response(self.OutputSerializer(data).data)


class JornadaMatchOutputSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(source="match.pk")
    table = serializers.IntegerField(source="match.table_number", allow_null=True)
    pair_a = serializers.CharField(source="name_a")
    pair_b = serializers.CharField(source="name_b")
    games_a = serializers.IntegerField(source="match.games_a")
    games_b = serializers.IntegerField(source="match.games_b")
    state = serializers.CharField()
    version = serializers.IntegerField(source="match.version")
    deadline = serializers.DateField(source="postponement.deadline", allow_null=True, default=None)

    class Meta:
        ref_name = "LeagueJornadaMatch"


class DivisionJornadaOutputSerializer(serializers.Serializer):
    division_id = serializers.IntegerField(source="division.pk")
    division = serializers.CharField(source="division.name")
    round_id = serializers.IntegerField(source="round.pk", allow_null=True, default=None)
    matches = JornadaMatchOutputSerializer(many=True)

    class Meta:
        ref_name = "LeagueDivisionJornada"


class JornadaApi(APIView):
    """A jornada's matches in each division (a drawn, unpublished one only for organizers)."""

    class OutputSerializer(serializers.Serializer):
        number = serializers.IntegerField()
        date = serializers.DateField()
        status = serializers.CharField()
        divisions = DivisionJornadaOutputSerializer(many=True)

        class Meta:
            ref_name = "LeagueJornadaDetail"

    @extend_schema(operation_id="league_jornada", responses=OutputSerializer)
    def get(self, request: Request, league_id: int, number: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        return Response(self.OutputSerializer(_jornada_out(league, number, request)).data)


def _jornada_out(league: League, number: int, request: Request) -> dict:
    jornada = selectors.jornada_get(league=league, number=number)
    organizer = selectors.league_can_organize(league=league, user=request.user)
    return {
        "number": jornada.number,
        "date": jornada.date,
        "status": jornada.status,
        "divisions": selectors.jornada_matches(jornada=jornada, organizer=organizer),
    }


# --- Writes --------------------------------------------------------------------------------------


class LeagueCreateApi(APIView):
    class InputSerializer(Input):
        name = serializers.CharField(max_length=120)
        season = serializers.CharField(max_length=20)
        kind = serializers.CharField(
            max_length=16, default=League.Kind.PAIRS, help_text="pairs (fixed pairs) or individual"
        )
        legs = serializers.IntegerField(default=1)
        is_public = serializers.BooleanField(default=True)
        preset = serializers.CharField(max_length=80, required=False, allow_blank=True)
        points_win = serializers.IntegerField(default=2)
        points_loss = serializers.IntegerField(default=1)
        points_walkover_loss = serializers.IntegerField(default=0)
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=4
        )
        dates = serializers.ListField(child=serializers.DateField(), default=list, max_length=60)

        class Meta:
            ref_name = "LeagueCreateInput"

    @extend_schema(
        operation_id="league_create",
        request=InputSerializer,
        responses={201: LeagueOutputSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_selectors.club_get(club_id=club_id)
        data = valid_or_400(self.InputSerializer, request)
        league = services.league_create(club=club, actor=request.user, **data)
        return Response(LeagueOutputSerializer(league_out(league)).data, status=201)


class LeagueCalendarApi(APIView):
    """The dates of the jornadas still to draw (those drawn keep theirs)."""

    class InputSerializer(Input):
        dates = serializers.ListField(child=serializers.DateField(), max_length=60)

        class Meta:
            ref_name = "LeagueCalendarInput"

    @extend_schema(
        operation_id="league_calendar_set",
        request=InputSerializer,
        responses=LeagueOutputSerializer,
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        services.league_calendar_set(league=league, actor=request.user, dates=data["dates"])
        return Response(LeagueOutputSerializer(league_out(league)).data)


class DivisionCreateApi(APIView):
    """The league's next division: its pairs (fixed pairs) or players (individual)."""

    class InputSerializer(Input):
        name = serializers.CharField(max_length=60)
        pair_ids = serializers.ListField(
            child=serializers.IntegerField(), default=list, max_length=200
        )
        player_ids = serializers.ListField(
            child=serializers.IntegerField(), default=list, max_length=400
        )
        promote = serializers.IntegerField(default=0)
        relegate = serializers.IntegerField(default=0)

        class Meta:
            ref_name = "LeagueDivisionCreateInput"

    @extend_schema(
        operation_id="league_division_create",
        request=InputSerializer,
        responses={201: DivisionOutputSerializer},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        division = services.division_create(league=league, actor=request.user, **data)
        return Response(DivisionOutputSerializer(division).data, status=201)


class LeagueRulesApi(APIView):
    """Change the league's points and tiebreaks (only what is sent); the standings follow at
    once."""

    class InputSerializer(Input):
        points_win = serializers.IntegerField(required=False)
        points_loss = serializers.IntegerField(required=False)
        points_walkover_loss = serializers.IntegerField(required=False)
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=4
        )

        class Meta:
            ref_name = "LeagueRulesInput"

    @extend_schema(
        operation_id="league_rules_update",
        request=InputSerializer,
        responses=LeagueOutputSerializer,
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        league = services.league_rules_update(league=league, actor=request.user, **data)
        return Response(LeagueOutputSerializer(league_out(league)).data)


class DivisionRemoveApi(APIView):
    """Remove a division (and its tournament) while none of its matches has a result."""

    @extend_schema(
        operation_id="league_division_remove", request=None, responses=LeagueOutputSerializer
    )
    def post(self, request: Request, league_id: int, division_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        services.division_remove(league=league, actor=request.user, division_id=division_id)
        return Response(LeagueOutputSerializer(league_out(league)).data)


class JornadaDrawApi(APIView):
    """Draw the jornada: each division's round as a draft (individual leagues: say who came,
    ``present``: division id → player ids)."""

    class InputSerializer(Input):
        present = serializers.DictField(
            child=serializers.ListField(child=serializers.IntegerField(), max_length=400),
            required=False,
        )

        class Meta:
            ref_name = "LeagueJornadaDrawInput"

    @extend_schema(
        operation_id="league_jornada_draw",
        request=InputSerializer,
        responses=JornadaApi.OutputSerializer,
    )
    def post(self, request: Request, league_id: int, number: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        jornada = selectors.jornada_get(league=league, number=number)
        data = valid_or_400(self.InputSerializer, request)
        services.jornada_draw(jornada=jornada, actor=request.user, present=data.get("present"))
        return Response(JornadaApi.OutputSerializer(_jornada_out(league, number, request)).data)


class JornadaPublishApi(APIView):
    """Publish the drawn jornada: tables and links public, pairs e-mailed, as a round is."""

    @extend_schema(
        operation_id="league_jornada_publish", request=None, responses=JornadaApi.OutputSerializer
    )
    def post(self, request: Request, league_id: int, number: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_publish(jornada=jornada, actor=request.user)
        return Response(JornadaApi.OutputSerializer(_jornada_out(league, number, request)).data)


class JornadaCloseApi(APIView):
    """Close the published jornada once every match is decided (each division's round)."""

    @extend_schema(
        operation_id="league_jornada_close", request=None, responses=JornadaApi.OutputSerializer
    )
    def post(self, request: Request, league_id: int, number: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_close(jornada=jornada, actor=request.user)
        return Response(JornadaApi.OutputSerializer(_jornada_out(league, number, request)).data)


class PostponementOutputSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    deadline = serializers.DateField()
    reason = serializers.CharField()
    outcome = serializers.CharField()

    class Meta:
        ref_name = "LeaguePostponement"


class MatchPostponeApi(APIView):
    class InputSerializer(Input):
        deadline = serializers.DateField()
        reason = serializers.CharField(max_length=200, required=False, allow_blank=True)

        class Meta:
            ref_name = "LeagueMatchPostponeInput"

    @extend_schema(
        operation_id="league_match_postpone",
        request=InputSerializer,
        responses=PostponementOutputSerializer,
    )
    def post(self, request: Request, league_id: int, match_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        post = services.match_postpone(league=league, actor=request.user, match_id=match_id, **data)
        return Response(PostponementOutputSerializer(post).data)


class MatchDecideApi(APIView):
    """After the deadline of a postponed match: a walkover or a double loss."""

    class InputSerializer(Input):
        outcome = serializers.ChoiceField(
            choices=[Postponement.Outcome.WALKOVER, Postponement.Outcome.DOUBLE_LOSS]
        )
        absent_side = serializers.ChoiceField(choices=["a", "b"], required=False)

        class Meta:
            ref_name = "LeagueMatchDecideInput"

    @extend_schema(
        operation_id="league_match_decide",
        request=InputSerializer,
        responses=PostponementOutputSerializer,
    )
    def post(self, request: Request, league_id: int, match_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        post = services.postponement_decide(
            league=league,
            actor=request.user,
            match_id=match_id,
            outcome=data["outcome"],
            absent_side=data.get("absent_side", ""),
        )
        return Response(PostponementOutputSerializer(post).data)


class NextSeasonApi(APIView):
    """Next season's league, its divisions filled by promotion and relegation."""

    class InputSerializer(Input):
        season = serializers.CharField(max_length=20)
        name = serializers.CharField(max_length=120, required=False, allow_blank=True)
        dates = serializers.ListField(child=serializers.DateField(), default=list, max_length=60)

        class Meta:
            ref_name = "LeagueNextSeasonInput"

    @extend_schema(
        operation_id="league_next_season",
        request=InputSerializer,
        responses={201: LeagueOutputSerializer},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = selectors.league_get(league_id=league_id, user=request.user)
        data = valid_or_400(self.InputSerializer, request)
        new = services.league_next_season(league=league, actor=request.user, **data)
        return Response(LeagueOutputSerializer(league_out(new)).data, status=201)


# --- Paths (config/api.py mounts them in the namespace ``leagues-api``) -----------------

_L = "leagues/<int:league_id>"
_J = f"{_L}/jornadas/<int:number>"
_M = f"{_L}/matches/<int:match_id>"

urlpatterns = [
    path("leagues", LeagueAllListApi.as_view(), name="league-all-list"),
    path("clubs/<int:club_id>/leagues", LeagueListApi.as_view(), name="league-list"),
    path("clubs/<int:club_id>/leagues/create", LeagueCreateApi.as_view(), name="league-create"),
    path(_L, LeagueDetailApi.as_view(), name="league-detail"),
    path(f"{_L}/calendar", LeagueCalendarApi.as_view(), name="league-calendar"),
    path(f"{_L}/divisions/create", DivisionCreateApi.as_view(), name="division-create"),
    path(
        f"{_L}/divisions/<int:division_id>/remove",
        DivisionRemoveApi.as_view(),
        name="division-remove",
    ),
    path(f"{_L}/rules", LeagueRulesApi.as_view(), name="league-rules"),
    path(f"{_L}/standings", StandingsApi.as_view(), name="league-standings"),
    path(f"{_L}/next-season", NextSeasonApi.as_view(), name="league-next-season"),
    path(_J, JornadaApi.as_view(), name="jornada-detail"),
    path(f"{_J}/draw", JornadaDrawApi.as_view(), name="jornada-draw"),
    path(f"{_J}/publish", JornadaPublishApi.as_view(), name="jornada-publish"),
    path(f"{_J}/close", JornadaCloseApi.as_view(), name="jornada-close"),
    path(f"{_M}/postpone", MatchPostponeApi.as_view(), name="match-postpone"),
    path(f"{_M}/decide", MatchDecideApi.as_view(), name="match-decide"),
]
