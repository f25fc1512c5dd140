"""API of a peña's players and parejas.

Responsible for: turning requests into calls of clubs.services and clubs.selectors and their
results into JSON. Reads are GET on a noun path; each write is one view, POST on its own
action path, with nested InputSerializer/OutputSerializer.

Must not: check roles or hold a rule (services and selectors do), or build an error body.

Terms: peña (club), jugador (player: needs no login, may play for several peñas), pareja
(pair: two players who play as one team).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.api.outputs import ClubPairOutputSerializer, ClubPlayerOutputSerializer
from config.inputs import Input


class PlayerListApi(APIView):
    """The peña's players (with contacts: organizers only), optionally searched by name."""

    OutputSerializer = ClubPlayerOutputSerializer

    @extend_schema(
        operation_id="club_player_list",
        parameters=[OpenApiParameter("q", str, description="words of the first or last name")],
        responses=OutputSerializer(many=True),
    )
    def get(self, request: Request, club_id: int) -> Response:
        players = selectors.players_for_club(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            search=request.query_params.get("q", ""),
        )
        return Response(self.OutputSerializer(players, many=True).data)


class PlayerCreateApi(APIView):
    """Create a player (no login needed) as a player of the peña."""

    OutputSerializer = ClubPlayerOutputSerializer

    class InputSerializer(Input):
        first_name = serializers.CharField(allow_blank=True)
        last_name = serializers.CharField(required=False, allow_blank=True)
        email = serializers.CharField(required=False, allow_blank=True)
        phone = serializers.CharField(required=False, allow_blank=True)

        class Meta:
            ref_name = "ClubPlayerCreateInput"

    @extend_schema(
        operation_id="club_player_create",
        request=InputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(
            user=request.user, club=selectors.club_get(club_id=club_id), **data.validated_data
        )
        return Response(self.OutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerAddApi(APIView):
    """Make an existing player (of another peña) a player of this peña too."""

    OutputSerializer = ClubPlayerOutputSerializer

    class InputSerializer(Input):
        player_id = serializers.IntegerField()

        class Meta:
            ref_name = "ClubPlayerAddInput"

    @extend_schema(
        operation_id="club_player_add", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_club_add(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            player_id=data.validated_data["player_id"],
        )
        return Response(self.OutputSerializer(player).data)


class PlayerDetailApi(APIView):
    """One player of the peña, for its organizers."""

    OutputSerializer = ClubPlayerOutputSerializer

    @extend_schema(operation_id="club_player_detail", responses=OutputSerializer)
    def get(self, request: Request, club_id: int, player_id: int) -> Response:
        player = selectors.player_get(
            user=request.user, club=selectors.club_get(club_id=club_id), player_id=player_id
        )
        return Response(self.OutputSerializer(player).data)


class PlayerUpdateApi(APIView):
    """Change the fields sent of a player of the peña."""

    OutputSerializer = ClubPlayerOutputSerializer

    class InputSerializer(Input):
        first_name = serializers.CharField(required=False, allow_blank=True)
        last_name = serializers.CharField(required=False, allow_blank=True)
        email = serializers.CharField(required=False, allow_blank=True)
        phone = serializers.CharField(required=False, allow_blank=True)

        class Meta:
            ref_name = "ClubPlayerUpdateInput"

    @extend_schema(
        operation_id="club_player_update", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_update(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            player_id=player_id,
            data=data.validated_data,
        )
        return Response(self.OutputSerializer(player).data)


class PlayerRemoveApi(APIView):
    """Stop a player being a player of the peña; the player and their pairs are kept."""

    @extend_schema(operation_id="club_player_remove", request=None, responses={204: None})
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        services.player_club_remove(
            user=request.user, club=selectors.club_get(club_id=club_id), player_id=player_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PairListApi(APIView):
    """The parejas representing the peña, for its organizers."""

    OutputSerializer = ClubPairOutputSerializer

    @extend_schema(operation_id="club_pair_list", responses=OutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        pairs = selectors.pairs_for_club(
            user=request.user, club=selectors.club_get(club_id=club_id)
        )
        return Response(self.OutputSerializer(pairs, many=True).data)


class PairCreateApi(APIView):
    """A pareja of two different players of the peña."""

    OutputSerializer = ClubPairOutputSerializer

    class InputSerializer(Input):
        player_one_id = serializers.IntegerField()
        player_two_id = serializers.IntegerField()
        name = serializers.CharField(required=False, allow_blank=True)

        class Meta:
            ref_name = "ClubPairCreateInput"

    @extend_schema(
        operation_id="club_pair_create", request=InputSerializer, responses={201: OutputSerializer}
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = services.pair_create(
            user=request.user, club=selectors.club_get(club_id=club_id), **data.validated_data
        )
        return Response(self.OutputSerializer(pair).data, status=status.HTTP_201_CREATED)


class PairFromNamesApi(APIView):
    """The pareja written as "Ana García / Luis Pérez", reusing the peña's players and pair of
    the same names (200 whether it was found or created)."""

    OutputSerializer = ClubPairOutputSerializer

    class InputSerializer(Input):
        text = serializers.CharField(allow_blank=True, help_text='e.g. "Ana García / Luis Pérez"')

        class Meta:
            ref_name = "ClubPairFromNamesInput"

    @extend_schema(
        operation_id="club_pair_from_names", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = services.pair_from_names(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            text=data.validated_data["text"],
        )
        return Response(self.OutputSerializer(pair).data)


class PairDetailApi(APIView):
    """One pareja of the peña, for its organizers."""

    OutputSerializer = ClubPairOutputSerializer

    @extend_schema(operation_id="club_pair_detail", responses=OutputSerializer)
    def get(self, request: Request, club_id: int, pair_id: int) -> Response:
        pair = selectors.pair_get(
            user=request.user, club=selectors.club_get(club_id=club_id), pair_id=pair_id
        )
        return Response(self.OutputSerializer(pair).data)


class PairUpdateApi(APIView):
    """Rename a pareja of the peña (empty: shown by its players' names)."""

    OutputSerializer = ClubPairOutputSerializer

    class InputSerializer(Input):
        name = serializers.CharField(allow_blank=True)

        class Meta:
            ref_name = "ClubPairUpdateInput"

    @extend_schema(
        operation_id="club_pair_update", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int, pair_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = services.pair_update(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            pair_id=pair_id,
            name=data.validated_data["name"],
        )
        return Response(self.OutputSerializer(pair).data)
