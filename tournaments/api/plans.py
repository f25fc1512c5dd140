"""API of a tournament's plan: its phases and how entrants flow between them, as data.

Responsible for the HTTP edge of tournaments/services/plans.py and selectors/plans.py:

- GET  tournaments/<id>/plan                 the plan (``amarrako.plan`` JSON) and, for the pairs
                                             registered, what in it cannot work (or null)
- PUT  tournaments/<id>/plan                 import a plan: the phases not yet started are
                                             replaced (organizers; 409 once a round is drawn)
- GET  tournaments/<id>/plan/presets         the built-in plans and the peña's saved plans
- POST tournaments/<id>/plan/presets         save the tournament's plan as a peña's plan
- DELETE tournaments/<id>/plan/presets/<id>  delete one of the peña's plans
- POST tournaments/<id>/plan/apply           import a built-in plan (``builtin``) or the peña's
                                             (``preset_id``)
- POST phases/<id>/groups/move               move a pair to another group before round 1 starts

Must not: check a rule (tournaments.draw.plan does, through the services, naming the phase and
the rule that cannot work) or build an error body (config.errors does).

Terms: plan (the phases and their entrants rules), fase (phase), grupo (group), cuadro B.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import error_message
from config.inputs import Input
from scoring.messages import jsonable
from tournaments import draw_manager
from tournaments.api.rounds import PhaseOutSerializer, _phase_data, _tournament
from tournaments.models import Phase
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.plans import BUILT_IN_PLANS, plan_of, plan_presets, plan_problem
from tournaments.selectors.tournaments import tournament_check_organizer
from tournaments.services import plans as services


class PlanProblemOutSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField(help_text="names the phase and the rule that cannot work")
    params = serializers.DictField()

    class Meta:
        ref_name = "PlanProblem"


class PlanOutSerializer(serializers.Serializer):
    plan = serializers.DictField(
        help_text="format amarrako.plan, version 1: name and phases, each with name, format, "
        "entrants (rules) and its options (docs/plans.md)"
    )
    registered = serializers.IntegerField(help_text="the pairs that would play now")
    problem = PlanProblemOutSerializer(
        allow_null=True, help_text="what cannot work with the pairs registered (null: nothing)"
    )

    class Meta:
        ref_name = "Plan"


def _plan_response(tournament) -> Response:
    registered = len(draw_manager.playing_entries(tournament))
    problem = plan_problem(tournament, registered) if registered >= 2 else None
    data = {
        "plan": plan_of(tournament),
        "registered": registered,
        "problem": None
        if problem is None
        else {
            "code": problem.code,
            "message": error_message(problem),
            "params": {k: jsonable(v) for k, v in problem.params.items()},
        },
    }
    return Response(PlanOutSerializer(data).data)


class PlanApi(APIView):
    class InputSerializer(Input):
        plan = serializers.DictField(help_text="an amarrako.plan JSON (what GET gives)")

        class Meta:
            ref_name = "PlanImportInput"

    @extend_schema(
        operation_id="plan_detail",
        request=None,
        responses={200: PlanOutSerializer},
        summary="The tournament's plan as data, checked for the pairs registered",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = round_selectors.tournament_get_readable(
            tournament_id=tournament_id, user=request.user
        )
        return _plan_response(tournament)

    @extend_schema(
        operation_id="plan_import",
        request=InputSerializer,
        responses={200: PlanOutSerializer},
        summary="Replace the tournament's phases by a plan (organizers, before the first draw)",
    )
    def put(self, request: Request, tournament_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = _tournament(tournament_id)
        services.plan_import(
            tournament=tournament, actor=request.user, plan=serializer.validated_data["plan"]
        )
        return _plan_response(tournament)


class PlanPresetOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="null for a built-in plan")
    key = serializers.CharField(allow_null=True, help_text="a built-in plan's key, else null")
    name = serializers.CharField()
    plan = serializers.DictField()

    class Meta:
        ref_name = "PlanPreset"


class PlanPresetsApi(APIView):
    class InputSerializer(Input):
        name = serializers.CharField(max_length=80)

        class Meta:
            ref_name = "PlanPresetSaveInput"

    @extend_schema(
        operation_id="plan_preset_list",
        request=None,
        responses={200: PlanPresetOutSerializer(many=True)},
        summary="The built-in plans, then the peña's saved plans (organizers)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(tournament_id)
        tournament_check_organizer(user=request.user, tournament=tournament)
        data = [
            {"id": None, "key": key, "name": plan["name"], "plan": plan}
            for key, plan in BUILT_IN_PLANS.items()
        ] + [
            {"id": p.id, "key": None, "name": p.name, "plan": p.plan}
            for p in plan_presets(tournament.club_id)
        ]
        return Response(PlanPresetOutSerializer(data, many=True).data)

    @extend_schema(
        operation_id="plan_preset_save",
        request=InputSerializer,
        responses={201: PlanPresetOutSerializer},
        summary="Save the tournament's plan as one of the peña's plans (organizers)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        preset = services.plan_preset_save(
            tournament=_tournament(tournament_id),
            actor=request.user,
            name=serializer.validated_data["name"],
        )
        data = {"id": preset.id, "key": None, "name": preset.name, "plan": preset.plan}
        return Response(PlanPresetOutSerializer(data).data, status=status.HTTP_201_CREATED)


class PlanPresetDeleteApi(APIView):
    @extend_schema(
        operation_id="plan_preset_delete",
        request=None,
        responses={204: None},
        summary="Delete one of the peña's plans (organizers)",
    )
    def delete(self, request: Request, tournament_id: int, preset_id: int) -> Response:
        services.plan_preset_delete(
            tournament=_tournament(tournament_id), actor=request.user, preset_id=preset_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlanApplyApi(APIView):
    class InputSerializer(Input):
        builtin = serializers.CharField(required=False, help_text="a built-in plan's key")
        preset_id = serializers.IntegerField(required=False, help_text="one of the peña's plans")

        def validate(self, attrs: dict) -> dict:
            if ("builtin" in attrs) == ("preset_id" in attrs):
                raise serializers.ValidationError("Give either builtin or preset_id.")
            return attrs

        class Meta:
            ref_name = "PlanApplyInput"

    @extend_schema(
        operation_id="plan_apply",
        request=InputSerializer,
        responses={200: PlanOutSerializer},
        summary="Import a built-in plan or one of the peña's (organizers, before the first draw)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = _tournament(tournament_id)
        services.plan_preset_apply(
            tournament=tournament,
            actor=request.user,
            preset_id=serializer.validated_data.get("preset_id"),
            key=serializer.validated_data.get("builtin"),
        )
        return _plan_response(tournament)


class PhaseGroupMoveApi(APIView):
    class InputSerializer(Input):
        entry_id = serializers.IntegerField()
        group = serializers.CharField(max_length=16, help_text="the group's name, e.g. 'B'")

        class Meta:
            ref_name = "PhaseGroupMoveInput"

    @extend_schema(
        operation_id="rounds_phase_group_move",
        request=InputSerializer,
        responses={200: PhaseOutSerializer},
        summary="Move a pair to another group before round 1 starts; round 1 is drawn again",
    )
    def post(self, request: Request, phase_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        phase = Phase.objects.filter(pk=phase_id).first()
        if phase is None:
            raise round_selectors.phase_not_found(phase_id)
        phase = services.phase_group_move(
            phase=phase, actor=request.user, **serializer.validated_data
        )
        phase = round_selectors.phase_detail(phase=phase, user=request.user)
        return Response(PhaseOutSerializer(_phase_data(phase, phase.visible_rounds)).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/plan", PlanApi.as_view(), name="plan"),
    path(
        "tournaments/<int:tournament_id>/plan/presets",
        PlanPresetsApi.as_view(),
        name="plan-presets",
    ),
    path(
        "tournaments/<int:tournament_id>/plan/presets/<int:preset_id>",
        PlanPresetDeleteApi.as_view(),
        name="plan-preset",
    ),
    path("tournaments/<int:tournament_id>/plan/apply", PlanApplyApi.as_view(), name="plan-apply"),
    path(
        "phases/<int:phase_id>/groups/move",
        PhaseGroupMoveApi.as_view(),
        name="rounds-phase-group-move",
    ),
]
