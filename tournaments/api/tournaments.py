"""API of tournaments: list, detail, create, update, status, and the organizers' notifications.

Responsible for: turning requests into calls of tournaments.services.tournaments and
tournaments.selectors.tournaments and their results into JSON. Reads of published tournaments
are public; writes need an organizer of the tournament's peña (the services check it; a write
view first checks access so that someone without it gets 404/403 before any 400 about input).

Must not: hold a rule (validation of values is the services' and the engine's), create rows in
a serializer, or build an error response (config.errors' handler does).

Terms: peña (club), preset ("8 reyes a 40"…), reyes, piedras, juego, vaca, 31 real, deje,
envite (the rule-set options).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from tournaments.api.prizes import PrizeInputSerializer, PrizeOutputSerializer
from tournaments.models import Notification, Tournament
from tournaments.selectors.notifications import notification_text, notifications_for_tournament
from tournaments.selectors.rounds import rule_form
from tournaments.selectors.tournaments import (
    tournament_detail,
    tournament_get_for_organizer,
    tournament_list,
)
from tournaments.services.tournaments import (
    tournament_create,
    tournament_status_change,
    tournament_update,
)


def client_device(request: Request) -> str:
    """What the audit records as the device: the client's User-Agent, cut to the column."""
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def audit_context(request: Request) -> dict:
    """Who, through which door and from which device: the audit's keywords of a write."""
    return {"actor": request.user, "via": "api", "device": client_device(request)}


def idempotency_key(request: Request) -> str:
    """The write's Idempotency-Key: the header, else ``idempotency_key`` in the body."""
    return request.headers.get("Idempotency-Key") or str(request.data.get("idempotency_key") or "")


_INPUTS = threading.local()


def valid_data(serializer_class: type[serializers.Serializer], request: Request) -> dict:
    """The request's body through ``serializer_class``: the same validated data, and the same
    400 (ValidationError, its detail field by field), as ``serializer_class(data=…).is_valid``.

    A valid body goes through one instance of the serializer per thread, kept: building one
    copies every declared field (deepcopy) on each request, which cost a phone's submission
    more than validating its small body (``run_validation`` keeps nothing of the request in the
    serializer or its fields; no context is given). An invalid one is validated again the
    usual way, so that its 400 is is_valid's own.
    """
    serializer = _INPUTS.__dict__.get(serializer_class)
    if serializer is None:
        serializer = _INPUTS.__dict__.setdefault(serializer_class, serializer_class())
    try:
        return serializer.run_validation(request.data)
    except ValidationError:
        fresh = serializer_class(data=request.data)
        fresh.is_valid(raise_exception=True)
        return fresh.validated_data


# --- Serializers shared by the views --------------------------------------------------------


class RulesInputSerializer(serializers.Serializer):
    """Rule-set options, typed only: their ranges are scoring.RuleSet's to check, so the
    organizer reads the engine's message. Unknown options are passed on for the engine to
    name (a silently dropped option would be a rule the organizer thinks is in force)."""

    kings = serializers.IntegerField(required=False, help_text="8 or 4 reyes")
    stones_per_game = serializers.IntegerField(required=False, help_text="piedras per juego")
    games_per_vaca = serializers.IntegerField(required=False)
    vacas_per_match = serializers.IntegerField(required=False)
    real_31 = serializers.CharField(
        required=False, help_text="off, sota_777, figure_777, sota_of_suit or sota_apart"
    )
    dejes = serializers.BooleanField(required=False)
    min_envite = serializers.IntegerField(required=False)
    real_31_suit = serializers.CharField(required=False, allow_blank=True)
    tio_perete = serializers.BooleanField(required=False)
    forgotten_stones_lost = serializers.BooleanField(required=False)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        values = super().to_internal_value(data)
        if isinstance(data, Mapping):
            values.update({k: v for k, v in data.items() if k not in self.fields})
        return values


class RulesOutputSerializer(serializers.Serializer):
    form = serializers.SerializerMethodField(
        help_text="read-only: who plays against whom at a table, from entrant_kind (pairs and "
        "individuals: pairs; trios: trios; frances: frances)"
    )
    kings = serializers.IntegerField()
    stones_per_game = serializers.IntegerField()
    games_per_vaca = serializers.IntegerField()
    vacas_per_match = serializers.IntegerField()
    real_31 = serializers.CharField()
    dejes = serializers.BooleanField()
    min_envite = serializers.IntegerField()
    real_31_suit = serializers.CharField()
    tio_perete = serializers.BooleanField()
    forgotten_stones_lost = serializers.BooleanField()

    def get_form(self, tournament: Tournament) -> str:
        return rule_form(tournament).value


#: From ``from`` entries up, the match plays ``rules`` (its length only). Built with type():
#: "from" is a Python keyword, so it cannot be a field declared in a class body.
FormatRuleSerializer = type(
    "FormatRuleSerializer",
    (serializers.Serializer,),
    {
        "from": serializers.IntegerField(help_text="the fewest entries this format is for"),
        "rules": serializers.DictField(
            child=serializers.IntegerField(),
            help_text="stones_per_game, games_per_vaca and/or vacas_per_match",
        ),
        "Meta": type("Meta", (), {"ref_name": "FormatByEntries"}),
        "__module__": __name__,
    },
)


class ClubRefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = ClubRefSerializer()
    name = serializers.CharField()
    slug = serializers.CharField()
    venue = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    is_public = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    tables_available = serializers.IntegerField()
    max_pairs = serializers.IntegerField(allow_null=True)
    tiebreaks = serializers.ListField(child=serializers.CharField())
    late_minutes_per_game = serializers.IntegerField(allow_null=True)
    draw_seed = serializers.IntegerField()
    preset_name = serializers.CharField()
    entrant_kind = serializers.ChoiceField(
        choices=Tournament.EntrantKind.choices,
        help_text="who enters: pairs, trios, individuals (partners drawn each round) or frances",
    )
    frances_table_size = serializers.IntegerField(help_text="Mus francés: players per table")
    points_win = serializers.IntegerField(
        allow_null=True,
        help_text="the standings' points table: points for a match won (a bye too); null: no "
        "table, the standings count matches won",
    )
    points_loss = serializers.IntegerField(help_text="points for a match played and lost")
    points_walkover_loss = serializers.IntegerField(
        help_text="points for a match lost by not showing up (a forfeit, a double loss)"
    )
    prizes = PrizeOutputSerializer(
        many=True, help_text="the prizes across phases the bases declare (GET …/prizes: winners)"
    )
    min_entries = serializers.IntegerField(
        allow_null=True, help_text="below it the tournament does not start; null: no minimum"
    )
    field_sizes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the field sizes allowed ([12, 16]): when registration closes the last "
        "registered drop out down to the largest that fits; empty: any size",
    )
    rules_by_entries = FormatRuleSerializer(
        many=True,
        help_text="the match format chosen by the number of entries when the tournament starts",
    )
    calendar = serializers.JSONField(
        help_text='the evenings of play ({"first": "2026-10-06", "weekdays": [1, 3], "time": '
        '"20:00"}; weekdays 0 Monday … 6 Sunday) dating the rounds without a date of their '
        "own; {}: none"
    )
    rules = RulesOutputSerializer(source="*")
    registered_count = serializers.IntegerField(help_text="pairs holding a place")
    waiting_count = serializers.IntegerField(help_text="pairs on the waiting list")
    rules_locked = serializers.BooleanField(
        help_text="true once a partida has started: the rule set can no longer change"
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def detail_response(request: Request, tournament_id: int, code: int = 200) -> Response:
    tournament = tournament_detail(user=request.user, tournament_id=tournament_id)
    return Response(TournamentOutputSerializer(tournament).data, status=code)


# --- Reads ----------------------------------------------------------------------------------


class TournamentListApi(APIView):
    class FilterSerializer(serializers.Serializer):
        club = serializers.SlugField(required=False, help_text="only this peña's tournaments")
        status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)

    @extend_schema(
        operation_id="tournament_list",
        parameters=[FilterSerializer],
        responses=TournamentOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournaments = tournament_list(
            user=request.user,
            club_slug=filters.validated_data.get("club"),
            status=filters.validated_data.get("status"),
        )
        return Response(TournamentOutputSerializer(tournaments, many=True).data)


class TournamentDetailApi(APIView):
    @extend_schema(operation_id="tournament_detail", responses=TournamentOutputSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        return detail_response(request, tournament_id)


class NotificationListApi(APIView):
    """The organizers' notifications of a tournament, newest first, each ``text`` in the
    language of ``Accept-Language`` (``kind`` and ``params`` are the same in every language)."""

    class OutputSerializer(serializers.ModelSerializer):
        text = serializers.SerializerMethodField()

        class Meta:
            model = Notification
            ref_name = "Notification"
            fields = ["id", "kind", "text", "params", "created_at", "read_at"]

        def get_text(self, notification: Notification) -> str:
            return notification_text(notification)

    @extend_schema(
        operation_id="tournament_notification_list", responses=OutputSerializer(many=True)
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        notifications = notifications_for_tournament(tournament=tournament)
        return Response(self.OutputSerializer(notifications, many=True).data)


# --- Writes ---------------------------------------------------------------------------------


class TournamentCreateApi(APIView):
    @extend_schema_serializer(component_name="TournamentCreateInput")
    class InputSerializer(Input):
        club = serializers.SlugField(help_text="the peña's short name")
        name = serializers.CharField(max_length=160)
        slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
        venue = serializers.CharField(max_length=160, required=False, allow_blank=True)
        starts_on = serializers.DateField()
        ends_on = serializers.DateField(required=False, allow_null=True)
        is_public = serializers.BooleanField(required=False, default=True)
        tables_available = serializers.IntegerField(required=False, default=0)
        max_pairs = serializers.IntegerField(
            required=False, allow_null=True, help_text="empty: no limit; beyond it pairs wait"
        )
        tiebreaks = serializers.ListField(
            child=serializers.CharField(),
            required=False,
            help_text="names of scoring.standings.Tiebreak, in order; lots must be last",
        )
        late_minutes_per_game = serializers.IntegerField(required=False, allow_null=True)
        preset = serializers.CharField(
            required=False, help_text='a preset name, e.g. "8 reyes a 40" or the peña\'s own'
        )
        rules = RulesInputSerializer(
            required=False, help_text="explicit rule values (override the preset's)"
        )
        entrant_kind = serializers.CharField(
            required=False, help_text="pairs (default), trios, individuals or frances"
        )
        frances_table_size = serializers.IntegerField(
            required=False, help_text="Mus francés: players per table, 3 to 6 (default 4)"
        )
        points_win = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="a points table: points for a match won, e.g. 2; null (default): none",
        )
        points_loss = serializers.IntegerField(
            required=False, help_text="points for a match lost (default 0)"
        )
        points_walkover_loss = serializers.IntegerField(
            required=False, help_text="points for a match lost by not showing up (default 0)"
        )
        prizes = PrizeInputSerializer(
            many=True, required=False, help_text="the prizes across phases the bases declare"
        )
        min_entries = serializers.IntegerField(
            required=False, allow_null=True, help_text="below it the tournament does not start"
        )
        field_sizes = serializers.ListField(
            child=serializers.IntegerField(),
            required=False,
            help_text="the field sizes allowed, e.g. [12, 16]; empty: any",
        )
        rules_by_entries = serializers.ListField(
            child=serializers.JSONField(),
            required=False,
            help_text='[{"from": 16, "rules": {"games_per_vaca": 2}}, {"from": 0, "rules": '
            '{"games_per_vaca": 4}}]: the match format by the number of entries',
        )
        calendar = serializers.JSONField(
            required=False,
            help_text='{"first": "2026-10-06", "weekdays": [1, 3], "time": "20:00"}: the '
            "evenings of play; {} for none",
        )

    @extend_schema(
        operation_id="tournament_create",
        request=InputSerializer,
        responses={201: TournamentOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        tournament = tournament_create(
            club_slug=data.pop("club"),
            actor=request.user,
            via="api",
            device=client_device(request),
            **data,
        )
        return detail_response(request, tournament.pk, status.HTTP_201_CREATED)


class TournamentUpdateApi(APIView):
    @extend_schema_serializer(component_name="TournamentUpdateInput")
    class InputSerializer(Input):
        """Every field optional: only those sent change."""

        name = serializers.CharField(max_length=160, required=False)
        slug = serializers.SlugField(max_length=80, required=False)
        venue = serializers.CharField(max_length=160, required=False, allow_blank=True)
        starts_on = serializers.DateField(required=False)
        ends_on = serializers.DateField(required=False, allow_null=True)
        is_public = serializers.BooleanField(required=False)
        tables_available = serializers.IntegerField(required=False)
        max_pairs = serializers.IntegerField(required=False, allow_null=True)
        tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
        late_minutes_per_game = serializers.IntegerField(required=False, allow_null=True)
        preset = serializers.CharField(required=False)
        rules = RulesInputSerializer(required=False)
        entrant_kind = serializers.CharField(
            required=False, help_text="only before the first registration"
        )
        frances_table_size = serializers.IntegerField(required=False)
        points_win = serializers.IntegerField(required=False, allow_null=True)
        points_loss = serializers.IntegerField(required=False)
        points_walkover_loss = serializers.IntegerField(required=False)
        prizes = PrizeInputSerializer(
            many=True, required=False, help_text="the whole list: it replaces the prizes"
        )
        min_entries = serializers.IntegerField(required=False, allow_null=True)
        field_sizes = serializers.ListField(child=serializers.IntegerField(), required=False)
        rules_by_entries = serializers.ListField(child=serializers.JSONField(), required=False)
        calendar = serializers.JSONField(required=False)

    @extend_schema(
        operation_id="tournament_update",
        request=InputSerializer,
        responses=TournamentOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament_update(
            tournament=tournament,
            actor=request.user,
            changes=serializer.validated_data,
            via="api",
            device=client_device(request),
        )
        return detail_response(request, tournament_id)


class TournamentStatusChangeApi(APIView):
    @extend_schema_serializer(component_name="TournamentStatusChangeInput")
    class InputSerializer(Input):
        # A plain string, not an enum: the service names the statuses and the one allowed
        # next (and the schema keeps a single enum per model status; see the output).
        status = serializers.CharField(
            help_text="the next status: draft → registration → running → finished",
        )

    @extend_schema(
        operation_id="tournament_status_change",
        request=InputSerializer,
        responses=TournamentOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament_status_change(
            tournament=tournament,
            actor=request.user,
            status=serializer.validated_data["status"],
            via="api",
            device=client_device(request),
        )
        return detail_response(request, tournament_id)


urlpatterns = [
    path("tournaments", TournamentListApi.as_view(), name="tournament-list"),
    path("tournaments/create", TournamentCreateApi.as_view(), name="tournament-create"),
    path(
        "tournaments/<int:tournament_id>", TournamentDetailApi.as_view(), name="tournament-detail"
    ),
    path(
        "tournaments/<int:tournament_id>/notifications",
        NotificationListApi.as_view(),
        name="tournament-notifications",
    ),
    path(
        "tournaments/<int:tournament_id>/update",
        TournamentUpdateApi.as_view(),
        name="tournament-update",
    ),
    path(
        "tournaments/<int:tournament_id>/status",
        TournamentStatusChangeApi.as_view(),
        name="tournament-status",
    ),
]
