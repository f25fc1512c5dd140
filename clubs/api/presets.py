"""API of rule-set presets: the built-in ones and each peña's own.

Responsible for: turning requests into calls of clubs.services and clubs.selectors and their
results into JSON. Reads are GET on a noun path; each write is one view, POST on its own
action path. Rule values are passed on as sent: scoring.RuleSet judges them (its RuleSetError
is a 400 with the engine's message), so the serializers check types only.

Must not: check roles or hold a rule of Mus, or build an error body.

Terms: preset (a named rule set: "8 reyes a 40", "4 reyes a 30", "4 reyes a 25"), reyes,
piedras (stones per game), juego, vaca, 31 real, dejes, envite.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.api.outputs import ClubPresetOutputSerializer
from config.inputs import Input


class _RuleValuesSerializer(Input):
    kings = serializers.IntegerField(required=False, help_text="8 or 4")
    stones_per_game = serializers.IntegerField(required=False, help_text="10 to 100")
    games_per_vaca = serializers.IntegerField(required=False, help_text="1 to 9")
    vacas_per_match = serializers.IntegerField(required=False, help_text="1 to 9")
    real_31 = serializers.CharField(
        required=False, help_text="off, sota_777, figure_777, sota_of_suit or sota_apart"
    )
    dejes = serializers.BooleanField(required=False)
    min_envite = serializers.IntegerField(required=False, help_text="1 to 10")
    real_31_suit = serializers.CharField(
        required=False, allow_blank=True, help_text="the sota's suit with real_31 sota_of_suit"
    )
    tio_perete = serializers.BooleanField(required=False)
    forgotten_stones_lost = serializers.BooleanField(required=False)


class PresetBuiltinListApi(APIView):
    """The presets every peña can use."""

    OutputSerializer = ClubPresetOutputSerializer

    @extend_schema(operation_id="preset_builtin_list", responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(selectors.presets_builtin(), many=True).data)


class PresetListApi(APIView):
    """The built-in presets, then the peña's own (public)."""

    OutputSerializer = ClubPresetOutputSerializer

    @extend_schema(operation_id="club_preset_list", responses=OutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        presets = selectors.presets_for_club(club=selectors.club_get(club_id=club_id))
        return Response(self.OutputSerializer(presets, many=True).data)


class PresetCreateApi(APIView):
    """A preset of the peña's own; values not sent take the engine's defaults."""

    OutputSerializer = ClubPresetOutputSerializer

    class InputSerializer(_RuleValuesSerializer):
        name = serializers.CharField(allow_blank=True)

        class Meta:
            ref_name = "ClubPresetCreateInput"

    @extend_schema(
        operation_id="club_preset_create",
        request=InputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rules = dict(data.validated_data)
        name = rules.pop("name")
        preset = services.preset_create(
            user=request.user, club=selectors.club_get(club_id=club_id), name=name, rules=rules
        )
        return Response(self.OutputSerializer(preset).data, status=status.HTTP_201_CREATED)


class PresetDetailApi(APIView):
    """One preset, built-in or the peña's own (public)."""

    OutputSerializer = ClubPresetOutputSerializer

    @extend_schema(operation_id="club_preset_detail", responses=OutputSerializer)
    def get(self, request: Request, club_id: int, preset_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        preset = selectors.preset_get(club=club, preset_id=preset_id)
        return Response(self.OutputSerializer(preset).data)


class PresetUpdateApi(APIView):
    """Change the name or values sent of a peña's preset; built-in presets cannot change."""

    OutputSerializer = ClubPresetOutputSerializer

    class InputSerializer(_RuleValuesSerializer):
        name = serializers.CharField(required=False, allow_blank=True)

        class Meta:
            ref_name = "ClubPresetUpdateInput"

    @extend_schema(
        operation_id="club_preset_update", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request, club_id: int, preset_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preset = services.preset_update(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            preset_id=preset_id,
            data=data.validated_data,
        )
        return Response(self.OutputSerializer(preset).data)


class PresetDeleteApi(APIView):
    """Delete a peña's preset; a peña using it as default is left with none."""

    @extend_schema(operation_id="club_preset_delete", request=None, responses={204: None})
    def post(self, request: Request, club_id: int, preset_id: int) -> Response:
        services.preset_delete(
            user=request.user, club=selectors.club_get(club_id=club_id), preset_id=preset_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
