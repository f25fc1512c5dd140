"""API of circuits: whole paths under /api/v1/ (circuits/…).

Responsible for: turning requests into calls of seasons.circuits.selectors and .services, and
their answers into JSON. Reads are public (a private circuit exists only for its peñas'
organizers and members); each write is POST on its own action path. ``urlpatterns`` lists the
paths (config/api.py mounts them in the namespace ``circuits``).

Must not: check roles, rank, score, or build an error body (config.errors does).

Terms: circuito, puesto (place), puntos, desempate (tiebreak).
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
from seasons.circuits import selectors, services
from seasons.circuits.models import Circuit
from seasons.circuits.ranking import TIEBREAKS


class CircuitOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    region = serializers.CharField()
    season = serializers.CharField()
    points_table = serializers.ListField(child=serializers.IntegerField())
    participation_points = serializers.IntegerField()
    best_results = serializers.IntegerField(allow_null=True)
    tiebreaks = serializers.ListField(child=serializers.CharField())
    is_public = serializers.BooleanField()
    clubs = serializers.SerializerMethodField()
    tournaments = serializers.SerializerMethodField()
    ranking_computed_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "Circuit"

    def get_clubs(self, circuit: Circuit) -> list[int]:
        return sorted(c.pk for c in circuit.clubs.all())

    def get_tournaments(self, circuit: Circuit) -> list[dict]:
        return [
            {"id": t.pk, "name": t.name, "club_id": t.club_id, "status": t.status}
            for t in selectors.circuit_tournaments(circuit=circuit)
        ]


class CircuitListApi(APIView):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        slug = serializers.CharField()
        name = serializers.CharField()
        region = serializers.CharField()
        season = serializers.CharField()
        is_public = serializers.BooleanField()

        class Meta:
            ref_name = "CircuitListItem"

    @extend_schema(operation_id="circuit_list", responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(
            self.OutputSerializer(selectors.circuit_list(user=request.user), many=True).data
        )


class CircuitInputSerializer(Input):
    name = serializers.CharField(max_length=400, required=False)
    region = serializers.CharField(max_length=400, required=False, allow_blank=True)
    season = serializers.CharField(max_length=400, required=False, allow_blank=True)
    points_table = serializers.ListField(
        child=serializers.IntegerField(), required=False, max_length=200
    )
    participation_points = serializers.IntegerField(required=False)
    best_results = serializers.IntegerField(required=False, allow_null=True)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS),
        required=False,
        max_length=10,
    )
    is_public = serializers.BooleanField(
        required=False,
        help_text="false: only the organizers and members of its peñas see the circuit",
    )

    class Meta:
        ref_name = "CircuitInput"


class CircuitCreateApi(APIView):
    class InputSerializer(CircuitInputSerializer):
        club_id = serializers.IntegerField(help_text="the circuit's first peña (you organize it)")
        slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
        name = serializers.CharField(max_length=400)

        class Meta:
            ref_name = "CircuitCreateInput"

    @extend_schema(
        operation_id="circuit_create",
        request=InputSerializer,
        responses={201: CircuitOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        club = club_selectors.club_get(club_id=values.pop("club_id"))
        circuit = services.circuit_create(
            actor=request.user, club=club, slug=values.pop("slug", ""), **values
        )
        return Response(CircuitOutputSerializer(circuit).data, status=201)


class CircuitDetailApi(APIView):
    @extend_schema(operation_id="circuit_detail", responses=CircuitOutputSerializer)
    def get(self, request: Request, circuit_id: int) -> Response:
        circuit = selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user)
        return Response(CircuitOutputSerializer(circuit).data)


class CircuitUpdateApi(APIView):
    @extend_schema(
        operation_id="circuit_update",
        request=CircuitInputSerializer,
        responses=CircuitOutputSerializer,
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        data = CircuitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        circuit = services.circuit_update(
            actor=request.user,
            circuit=selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user),
            data=data.validated_data,
        )
        return Response(CircuitOutputSerializer(circuit).data)


class CircuitClubAddApi(APIView):
    class InputSerializer(Input):
        club_id = serializers.IntegerField()

        class Meta:
            ref_name = "CircuitClubAddInput"

    @extend_schema(
        operation_id="circuit_club_add", request=InputSerializer, responses=CircuitOutputSerializer
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        circuit = selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user)
        services.circuit_club_add(
            actor=request.user, circuit=circuit, club_id=data.validated_data["club_id"]
        )
        return Response(CircuitOutputSerializer(circuit).data)


class CircuitOrganizerAddApi(APIView):
    class InputSerializer(Input):
        username = serializers.CharField(max_length=150)

        class Meta:
            ref_name = "CircuitOrganizerAddInput"

    @extend_schema(
        operation_id="circuit_organizer_add",
        request=InputSerializer,
        responses=CircuitOutputSerializer,
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        circuit = selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user)
        services.circuit_organizer_add(
            actor=request.user, circuit=circuit, username=data.validated_data["username"]
        )
        return Response(CircuitOutputSerializer(circuit).data)


class CircuitTournamentInputSerializer(Input):
    tournament_id = serializers.IntegerField()

    class Meta:
        ref_name = "CircuitTournamentInput"


# Adding and removing a tournament take the same input and give the same answer; only the
# service differs. Each view declares its own post (spectacular documents a method, and an
# operation_id set on a class is refused).
def _circuit_tournament_change(request: Request, circuit_id: int, service) -> Response:
    data = CircuitTournamentInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    circuit = selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user)
    service(actor=request.user, circuit=circuit, tournament_id=data.validated_data["tournament_id"])
    return Response(CircuitOutputSerializer(circuit).data)


class CircuitTournamentAddApi(APIView):
    @extend_schema(
        operation_id="circuit_tournament_add",
        request=CircuitTournamentInputSerializer,
        responses=CircuitOutputSerializer,
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        return _circuit_tournament_change(request, circuit_id, services.circuit_tournament_add)


class CircuitTournamentRemoveApi(APIView):
    @extend_schema(
        operation_id="circuit_tournament_remove",
        request=CircuitTournamentInputSerializer,
        responses=CircuitOutputSerializer,
    )
    def post(self, request: Request, circuit_id: int) -> Response:
        return _circuit_tournament_change(request, circuit_id, services.circuit_tournament_remove)


class CircuitRankingApi(APIView):
    """One page (100 players) of the circuit's ranking, as last rebuilt."""

    class RowSerializer(serializers.Serializer):
        position = serializers.IntegerField()
        player_id = serializers.IntegerField()
        name = serializers.CharField()
        points = serializers.IntegerField()
        played = serializers.IntegerField()
        separated_by = serializers.CharField()
        results = serializers.ListField(child=serializers.DictField())

        class Meta:
            ref_name = "CircuitRankingRow"

    class OutputSerializer(serializers.Serializer):
        circuit_id = serializers.IntegerField()
        computed_at = serializers.DateTimeField(allow_null=True)
        page = serializers.IntegerField()
        pages = serializers.IntegerField()
        count = serializers.IntegerField()
        results = serializers.ListField(child=serializers.DictField())

        class Meta:
            ref_name = "CircuitRanking"

    @extend_schema(
        operation_id="circuit_ranking",
        parameters=[OpenApiParameter("page", int, description="from 1; 100 players a page")],
        responses=OutputSerializer,
    )
    def get(self, request: Request, circuit_id: int) -> Response:
        circuit = selectors.circuit_get_by_id(circuit_id=circuit_id, user=request.user)
        page = selectors.circuit_ranking_page(
            circuit=circuit, page=request.query_params.get("page", "1")
        )
        rows = [
            {
                "position": r.position,
                "player_id": r.player_id,
                "name": str(r.player),
                "points": r.points,
                "played": r.played,
                "separated_by": r.separated_by,
                "results": r.results,
            }
            for r in page.rows
        ]
        data = {
            "circuit_id": circuit.pk,
            "computed_at": circuit.ranking_computed_at,
            "page": page.page,
            "pages": page.pages,
            "count": page.count,
            "results": self.RowSerializer(rows, many=True).data,
        }
        return Response(self.OutputSerializer(data).data)


_CIRCUIT = "circuits/<int:circuit_id>"

urlpatterns = [
    path("circuits", CircuitListApi.as_view(), name="circuit-list"),
    path("circuits/create", CircuitCreateApi.as_view(), name="circuit-create"),
    path(_CIRCUIT, CircuitDetailApi.as_view(), name="circuit-detail"),
    path(f"{_CIRCUIT}/update", CircuitUpdateApi.as_view(), name="circuit-update"),
    path(f"{_CIRCUIT}/clubs/add", CircuitClubAddApi.as_view(), name="circuit-club-add"),
    path(
        f"{_CIRCUIT}/organizers/add",
        CircuitOrganizerAddApi.as_view(),
        name="circuit-organizer-add",
    ),
    path(
        f"{_CIRCUIT}/tournaments/add",
        CircuitTournamentAddApi.as_view(),
        name="circuit-tournament-add",
    ),
    path(
        f"{_CIRCUIT}/tournaments/remove",
        CircuitTournamentRemoveApi.as_view(),
        name="circuit-tournament-remove",
    ),
    path(f"{_CIRCUIT}/ranking", CircuitRankingApi.as_view(), name="circuit-ranking"),
]
