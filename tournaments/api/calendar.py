"""API of a tournament's calendar: when rounds and matches are played, postponed matches and
what is decided after their deadline.

Responsible for: ``GET tournaments/{id}/calendar`` (the pattern of evenings, every round with
its date, the evenings still to come, the matches with a date or a deadline of their own or
late), ``POST rounds/{id}/schedule``, ``POST matches/{id}/schedule`` (a date agreed by the
pairs), ``POST matches/{id}/postpone`` (to a deadline, with a reason) and ``POST
matches/{id}/deadline-decision`` (after the deadline: a walkover or a double loss), turning
them into calls of tournaments.services.calendar and tournaments.selectors.calendar.

Must not: hold a rule (when a match is late, what may be decided: the selectors and services
say), or build an error body.

Terms: ronda (round), aplazada (postponed), fecha límite (deadline), no presentada
(walkover), doble derrota (double loss).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from tournaments.api.tournaments import client_device, valid_data
from tournaments.models import Match
from tournaments.selectors import results as result_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.calendar import calendar_of_tournament, match_when
from tournaments.services import calendar as services


class PatternSerializer(serializers.Serializer):
    first = serializers.DateField(help_text="the first date of play")
    weekdays = serializers.ListField(
        child=serializers.IntegerField(), help_text="the days played: 0 Monday … 6 Sunday"
    )
    time = serializers.CharField(help_text='the time of play, "20:00"')

    class Meta:
        ref_name = "CalendarPattern"


class CalendarRoundSerializer(serializers.Serializer):
    round_id = serializers.IntegerField(source="round.id")
    phase_id = serializers.IntegerField(source="round.phase_id")
    phase = serializers.CharField(source="round.phase.name")
    number = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status")
    scheduled_at = serializers.DateTimeField(
        allow_null=True, help_text="when it is played: its own date, else the pattern's evening"
    )
    own = serializers.BooleanField(help_text="true: a date of its own, not the pattern's")

    class Meta:
        ref_name = "CalendarRound"


class CalendarEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="pair.__str__")

    class Meta:
        ref_name = "CalendarEntry"


class WhenSerializer(serializers.Serializer):
    scheduled_at = serializers.DateTimeField(
        source="at", allow_null=True, help_text="its own date, else its round's"
    )
    own = serializers.BooleanField(help_text="true: a date agreed by its pairs")
    deadline = serializers.DateField(allow_null=True, help_text="postponed: the last day")
    reason = serializers.CharField(help_text="why it was postponed")
    late = serializers.BooleanField(help_text="not decided and its due day is over")

    class Meta:
        ref_name = "MatchWhen"


class CalendarMatchSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(source="match.id")
    round_id = serializers.IntegerField(source="match.round_id")
    table_number = serializers.IntegerField(source="match.table_number", allow_null=True)
    status = serializers.CharField(source="match.status")
    entry_a = CalendarEntrySerializer(source="match.entry_a", allow_null=True)
    entry_b = CalendarEntrySerializer(source="match.entry_b", allow_null=True)
    when = WhenSerializer()

    class Meta:
        ref_name = "CalendarMatch"


class TournamentCalendarApi(APIView):
    class OutputSerializer(serializers.Serializer):
        tournament_id = serializers.IntegerField(source="tournament.id")
        pattern = serializers.JSONField(
            help_text='the evenings of play: {"first", "weekdays", "time"}, or {}'
        )
        rounds = CalendarRoundSerializer(many=True)
        upcoming = serializers.ListField(
            child=serializers.DateTimeField(),
            help_text="the pattern's evenings after the last round drawn",
        )
        matches = CalendarMatchSerializer(
            many=True, help_text="matches with a date or a deadline of their own, or late"
        )

        class Meta:
            ref_name = "TournamentCalendar"

    @extend_schema(
        operation_id="tournament_calendar",
        request=None,
        responses={200: OutputSerializer},
        summary="When each round and match is played, postponed matches and late ones",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        data = calendar_of_tournament(user=request.user, tournament_id=tournament_id)
        return Response(self.OutputSerializer(data).data)


class RoundScheduleApi(APIView):
    class InputSerializer(Input):
        scheduled_at = serializers.DateTimeField(
            allow_null=True, help_text="null: the tournament's calendar says (or nothing does)"
        )

        class Meta:
            ref_name = "RoundScheduleInput"

    class OutputSerializer(serializers.Serializer):
        round_id = serializers.IntegerField(source="id")
        scheduled_at = serializers.DateTimeField(allow_null=True)

        class Meta:
            ref_name = "RoundSchedule"

    @extend_schema(
        operation_id="round_schedule",
        request=InputSerializer,
        responses={200: OutputSerializer},
        summary="When a round is played (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        rnd = round_selectors.round_get(round_id=round_id)
        rnd = services.round_schedule(
            round=rnd,
            actor=request.user,
            scheduled_at=data["scheduled_at"],
            device=client_device(request),
        )
        return Response(self.OutputSerializer(rnd).data)


class MatchWhenOutputSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(source="match.id")
    version = serializers.IntegerField(source="match.version")
    status = serializers.CharField(source="match.status")
    kind = serializers.CharField(source="match.kind")
    when = WhenSerializer()

    class Meta:
        ref_name = "MatchCalendar"


def _match_response(match: Match, outcome: str | None = None) -> Response:
    match = Match.objects.select_related("round__phase__tournament").get(pk=match.pk)
    body = MatchWhenOutputSerializer({"match": match, "when": match_when(match=match)}).data
    if outcome is not None:
        body = {**body, "decided": outcome}
    return Response(body)


class MatchScheduleApi(APIView):
    class InputSerializer(Input):
        scheduled_at = serializers.DateTimeField(
            allow_null=True, help_text="the date its pairs agreed; null: its round's"
        )

        class Meta:
            ref_name = "MatchScheduleInput"

    @extend_schema(
        operation_id="match_schedule",
        request=InputSerializer,
        responses={200: MatchWhenOutputSerializer},
        summary="Move a match to the date its pairs agreed (organizers)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = result_selectors.match_get(match_id=match_id, user=request.user)
        services.match_schedule(
            match=match,
            actor=request.user,
            scheduled_at=data["scheduled_at"],
            device=client_device(request),
        )
        return _match_response(match)


class MatchPostponeApi(APIView):
    class InputSerializer(Input):
        deadline = serializers.DateField(help_text="the last day it may be played")
        reason = serializers.CharField(required=False, allow_blank=True, max_length=200)

        class Meta:
            ref_name = "MatchPostponeInput"

    @extend_schema(
        operation_id="match_postpone",
        request=InputSerializer,
        responses={200: MatchWhenOutputSerializer},
        summary="Postpone a match to a deadline (organizers)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = result_selectors.match_get(match_id=match_id, user=request.user)
        services.match_postpone(
            match=match,
            actor=request.user,
            deadline=data["deadline"],
            reason=data.get("reason", ""),
            device=client_device(request),
        )
        return _match_response(match)


class MatchDeadlineDecisionApi(APIView):
    class InputSerializer(Input):
        outcome = serializers.CharField(help_text="walkover or double_loss")
        absent_side = serializers.CharField(
            required=False, allow_blank=True, help_text="a walkover: the pair absent, a or b"
        )

        class Meta:
            ref_name = "MatchDeadlineDecisionInput"

    class OutputSerializer(MatchWhenOutputSerializer):
        decided = serializers.CharField(
            help_text="walkover, double_loss, or played (a result came before the decision)"
        )

        class Meta:
            ref_name = "MatchDeadlineDecision"

    @extend_schema(
        operation_id="match_deadline_decision",
        request=InputSerializer,
        responses={200: OutputSerializer},
        summary="After a postponed match's deadline: a walkover or a double loss (organizers)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = result_selectors.match_get(match_id=match_id, user=request.user)
        outcome = services.match_deadline_decide(
            match=match,
            actor=request.user,
            outcome=data["outcome"],
            absent_side=data.get("absent_side", ""),
            device=client_device(request),
        )
        return _match_response(match, outcome)


urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/calendar",
        TournamentCalendarApi.as_view(),
        name="tournament-calendar",
    ),
    path("rounds/<int:round_id>/schedule", RoundScheduleApi.as_view(), name="round-schedule"),
    path("matches/<int:match_id>/schedule", MatchScheduleApi.as_view(), name="match-schedule"),
    path("matches/<int:match_id>/postpone", MatchPostponeApi.as_view(), name="match-postpone"),
    path(
        "matches/<int:match_id>/deadline-decision",
        MatchDeadlineDecisionApi.as_view(),
        name="match-deadline-decision",
    ),
]
