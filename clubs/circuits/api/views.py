"""API of circuits and interpeñas: whole paths under /api/v1/ (circuits/…, interpenas/…).

Responsible for: turning requests into calls of clubs.circuits.selectors, .services and
.interpenas, and their answers into JSON. Reads are public (a private circuit exists only for
its peñas' organizers and members, a private interpeña only for its peñas' organizers); each
write is POST on its own action path.

Must not: check roles, rank, score, or build an error body (config.errors does).

Terms: circuito, puesto (place), interpeñas, tablero (board), capitán (captain).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from clubs.circuits import interpenas, selectors, services
from clubs.circuits.models import Circuit, Interpena
from clubs.circuits.ranking import TIEBREAKS
from clubs.circuits.teams import signature
from config.inputs import Input

# --- Circuits ------------------------------------------------------------------------------


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


# --- Interpeñas ----------------------------------------------------------------------------


def interpena_data(interpena: Interpena) -> dict:
    result, boards = selectors.interpena_result(interpena=interpena)
    rows = selectors.interpena_boards(interpena=interpena)
    by_number = {b.number: b for b in boards}
    return {
        "id": interpena.pk,
        "name": interpena.name,
        "played_on": interpena.played_on,
        "venue": interpena.venue,
        "status": interpena.status,
        "home_club_id": interpena.home_club_id,
        "away_club_id": interpena.away_club_id,
        "league_key": interpena.league_key,
        "tournament_id": interpena.tournament_id,
        "boards": [
            {
                "board": row.letter,
                "number": row.number,
                "home_pair_id": row.home_pair_id,
                "away_pair_id": row.away_pair_id,
                "match_id": row.match_id,
                "match_status": row.match.status if row.match else None,
                "version": row.match.version if row.match else None,
                "winner": by_number[row.number].winner,
                "games": [row.match.games_a, row.match.games_b] if row.match else [0, 0],
            }
            for row in rows
        ],
        "result": {
            "boards": [result.boards_home, result.boards_away],
            "games": [result.games_home, result.games_away],
            "boards_confirmed": result.boards_confirmed,
            "complete": result.complete,
            "winner": result.winner,
            "result_version": signature(boards),
            "home_confirmed": bool(interpena.home_confirmed)
            and interpena.home_confirmed == signature(boards),
            "away_confirmed": bool(interpena.away_confirmed)
            and interpena.away_confirmed == signature(boards),
        },
    }


class InterpenaOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    played_on = serializers.DateField()
    venue = serializers.CharField()
    status = serializers.ChoiceField(choices=Interpena.Status.values)
    home_club_id = serializers.IntegerField()
    away_club_id = serializers.IntegerField()
    league_key = serializers.CharField()
    tournament_id = serializers.IntegerField(
        help_text="the private tournament whose matches are the boards"
    )
    boards = serializers.ListField(child=serializers.DictField())
    result = serializers.DictField(
        help_text="boards and juegos [home, away], the winner once complete, the result_version "
        "a captain confirms"
    )

    class Meta:
        ref_name = "Interpena"


class InterpenaListApi(APIView):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        played_on = serializers.DateField()
        status = serializers.CharField()
        home_club_id = serializers.IntegerField()
        away_club_id = serializers.IntegerField()

        class Meta:
            ref_name = "InterpenaListItem"

    @extend_schema(operation_id="interpena_list", responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        qs = selectors.interpena_list(user=request.user)[:200]
        return Response(self.OutputSerializer(qs, many=True).data)


class InterpenaCreateApi(APIView):
    class InputSerializer(Input):
        home_club_id = serializers.IntegerField()
        away_club_id = serializers.IntegerField()
        played_on = serializers.DateField()
        boards = serializers.IntegerField()
        name = serializers.CharField(max_length=160, required=False, allow_blank=True)
        venue = serializers.CharField(max_length=160, required=False, allow_blank=True)
        is_public = serializers.BooleanField(required=False, default=True)
        preset = serializers.CharField(max_length=80, required=False, allow_blank=True)
        league_key = serializers.CharField(max_length=80, required=False, allow_blank=True)

        class Meta:
            ref_name = "InterpenaCreateInput"

    @extend_schema(
        operation_id="interpena_create",
        request=InputSerializer,
        responses={201: InterpenaOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        home = club_selectors.club_get(club_id=values.pop("home_club_id"))
        values["preset"] = values.get("preset") or None
        interpena = interpenas.interpena_create(actor=request.user, home_club=home, **values)
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data, status=201)


class InterpenaDetailApi(APIView):
    @extend_schema(operation_id="interpena_detail", responses=InterpenaOutputSerializer)
    def get(self, request: Request, interpena_id: int) -> Response:
        interpena = selectors.interpena_get(interpena_id=interpena_id, user=request.user)
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data)


class InterpenaLineupApi(APIView):
    class InputSerializer(Input):
        side = serializers.ChoiceField(choices=["home", "away"])
        pair_ids = serializers.ListField(
            child=serializers.IntegerField(), max_length=32, help_text="board A first"
        )
        captain = serializers.CharField(
            max_length=150, required=False, allow_blank=True, help_text="a user name"
        )

        class Meta:
            ref_name = "InterpenaLineupInput"

    @extend_schema(
        operation_id="interpena_lineup_set",
        request=InputSerializer,
        responses=InterpenaOutputSerializer,
    )
    def post(self, request: Request, interpena_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        interpena = interpenas.interpena_lineup_set(
            actor=request.user,
            interpena=selectors.interpena_get(interpena_id=interpena_id, user=request.user),
            side=data.validated_data["side"],
            pair_ids=data.validated_data["pair_ids"],
            captain=data.validated_data.get("captain", ""),
        )
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data)


class InterpenaBoardResultApi(APIView):
    """Enter (``payload``) or confirm (no payload) a board's result for your peña's pair."""

    class InputSerializer(Input):
        side = serializers.ChoiceField(choices=["home", "away"])
        payload = serializers.JSONField(
            required=False, help_text='{"games": [...]} as on the table link; absent: confirm'
        )
        idempotency_key = serializers.CharField(max_length=80)
        version = serializers.IntegerField()

        class Meta:
            ref_name = "InterpenaBoardResultInput"

    @extend_schema(
        operation_id="interpena_board_result",
        request=InputSerializer,
        responses=InterpenaOutputSerializer,
        parameters=[
            OpenApiParameter(
                "board",
                str,
                OpenApiParameter.PATH,
                description="the board's letter (A, B, …), or its number (1, 2, …)",
            )
        ],
    )
    def post(self, request: Request, interpena_id: int, board: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        interpena = selectors.interpena_get(interpena_id=interpena_id, user=request.user)
        common = {
            "actor": request.user,
            "interpena": interpena,
            "board": board,
            "side": values["side"],
            "idempotency_key": values["idempotency_key"],
            "version": values["version"],
        }
        if "payload" in values:
            interpenas.interpena_board_submit(payload=values["payload"], **common)
        else:
            interpenas.interpena_board_confirm(**common)
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data)


class InterpenaConfirmApi(APIView):
    class InputSerializer(Input):
        side = serializers.ChoiceField(choices=["home", "away"])
        result_version = serializers.CharField(max_length=400, allow_blank=True)

        class Meta:
            ref_name = "InterpenaConfirmInput"

    @extend_schema(
        operation_id="interpena_team_confirm",
        request=InputSerializer,
        responses=InterpenaOutputSerializer,
    )
    def post(self, request: Request, interpena_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        interpena = interpenas.interpena_team_confirm(
            actor=request.user,
            interpena=selectors.interpena_get(interpena_id=interpena_id, user=request.user),
            side=data.validated_data["side"],
            result_version=data.validated_data["result_version"],
        )
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data)
