"""API of interpeñas: whole paths under /api/v1/ (interpenas/…).

Responsible for: turning requests into calls of seasons.interpenas.selectors and .services, and
their answers into JSON. Reads are public (a private interpeña exists only for its peñas'
organizers); each write is POST on its own action path. ``urlpatterns`` lists the paths
(config/api.py mounts them in the namespace ``interpenas``).

Must not: check roles, score, or build an error body (config.errors does).

Terms: interpeñas, tablero (board), alineación (line-up), capitán (captain).
"""

from __future__ import annotations

from django.urls import path, register_converter
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from config.inputs import Input
from seasons.interpenas import selectors, services
from seasons.interpenas.models import Interpena
from seasons.interpenas.result import signature


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
        interpena = services.interpena_create(actor=request.user, home_club=home, **values)
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
        interpena = services.interpena_lineup_set(
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
            services.interpena_board_submit(payload=values["payload"], **common)
        else:
            services.interpena_board_confirm(**common)
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
        interpena = services.interpena_team_confirm(
            actor=request.user,
            interpena=selectors.interpena_get(interpena_id=interpena_id, user=request.user),
            side=data.validated_data["side"],
            result_version=data.validated_data["result_version"],
        )
        return Response(InterpenaOutputSerializer(interpena_data(interpena)).data)


class BoardConverter:
    """An interpeña's board in a path: its letter (``A``, ``B``…, as its JSON and the docs name
    it; either case) or its number (``1``, ``2``…, the first form of the path, still read)."""

    regex = "[0-9]{1,3}|[A-Za-z]{1,3}"

    def to_python(self, value: str) -> int:
        if value.isdigit():
            return int(value)
        number = 0
        for letter in value.upper():  # A → 1 … Z → 26, AA → 27 (models.board_letter's inverse)
            number = number * 26 + ord(letter) - ord("A") + 1
        return number

    def to_url(self, value) -> str:
        return str(value)


register_converter(BoardConverter, "board")


_INTERPENA = "interpenas/<int:interpena_id>"

urlpatterns = [
    path("interpenas", InterpenaListApi.as_view(), name="interpena-list"),
    path("interpenas/create", InterpenaCreateApi.as_view(), name="interpena-create"),
    path(_INTERPENA, InterpenaDetailApi.as_view(), name="interpena-detail"),
    path(f"{_INTERPENA}/lineup", InterpenaLineupApi.as_view(), name="interpena-lineup"),
    path(
        f"{_INTERPENA}/boards/<board:board>/result",
        InterpenaBoardResultApi.as_view(),
        name="interpena-board-result",
    ),
    path(f"{_INTERPENA}/confirm", InterpenaConfirmApi.as_view(), name="interpena-confirm"),
]
