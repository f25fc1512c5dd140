"""API of the results area: the table's link and the organizer's desk.

Responsible for: turning requests into calls of tournaments.services.results (writes) and
tournaments.selectors.results (reads), and their answers into JSON. Two doors:

- ``table/<token>/…``: no login, the token of the table's link (QR) is the credential; the caller
  says which pair it is (a or b). Useless once the result is confirmed (409).
- ``matches/<id>/…`` and ``rounds/<id>/board``: the peña's organizers, through their account
  (session: via "account") or the API (basic auth: via "api").

Every write takes the ``version`` of the match the client saw (409 if it changed) and answers
with the match's new state, its version included. Writes that create a submission or a hand
take an idempotency key (``Idempotency-Key`` header, or ``idempotency_key`` in the body): a
retry gets the first answer again, with the header ``Idempotent-Replayed: true``.

Must not: hold a rule or check a permission itself; errors are raised by the services and
turned into responses by config.errors.

Terms: mesa (table), pareja (pair a/b), partida (match), mano, juego (game), vaca, piedras.
"""

from __future__ import annotations

import contextlib

from django.urls import path
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from tournaments.api.results_bodies import result_body, table_body
from tournaments.api.tournaments import idempotency_key, valid_data
from tournaments.models import Match, Round
from tournaments.selectors import results as selectors
from tournaments.services import results as services

# Plain strings in the schema, not enums: drf-spectacular names an enum after its field, so
# "status" or "side" enums here would collide with other areas' in the one schema. The services
# validate the values (Invalid, 400).
MATCH_STATUSES = ", ".join(Match.Status.values)
MATCH_KINDS = ", ".join(Match.Kind.values)
ROUND_STATUSES = ", ".join(Round.Status.values)

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="New for each action (or send idempotency_key in the body); a retry with the "
    "same key gets the first answer and stores nothing.",
)


# --- Request helpers ------------------------------------------------------------------------


def _device(request: Request) -> str:
    return (request.headers.get("X-Device") or request.headers.get("User-Agent") or "")[:200]


def _via(request: Request) -> str:
    if isinstance(request.successful_authenticator, SessionAuthentication):
        return services.ACCOUNT
    return services.API


def _payload(data: dict) -> dict:
    return {k: data[k] for k in ("games", "hands") if k in data}


# --- Shared output shapes -------------------------------------------------------------------


class PairCountSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsPairCount"

    a = serializers.IntegerField()
    b = serializers.IntegerField()


class SnapshotDateTimeField(serializers.DateTimeField):
    """A time of the match's snapshot, in local time like every other time in the API.

    The snapshot (selectors.match_snapshot, also what the audit keeps and a replayed write
    answers) holds ISO strings in UTC, and DRF's DateTimeField passes strings through as they
    are: parse them, so that the field localizes them (TIME_ZONE) as it does a datetime.
    """

    def to_representation(self, value):
        if isinstance(value, str):
            # Well formed but not a real time (ValueError): show what is stored.
            with contextlib.suppress(ValueError):
                value = parse_datetime(value) or value
        return super().to_representation(value)


class MatchStateSerializer(serializers.Serializer):
    """The match's result fields; ``version`` is what the next write must send."""

    class Meta:
        ref_name = "ResultsMatchState"

    id = serializers.IntegerField()
    status = serializers.CharField(help_text=MATCH_STATUSES)
    kind = serializers.CharField(help_text=MATCH_KINDS)
    version = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True, help_text="a or b")
    games = PairCountSerializer()
    vacas = PairCountSerializer()
    stones = PairCountSerializer()
    result = serializers.JSONField(allow_null=True, help_text="scoring's state, once confirmed")
    started_at = SnapshotDateTimeField(allow_null=True)
    confirmed_at = SnapshotDateTimeField(allow_null=True)


class SubmissionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsSubmission"

    id = serializers.IntegerField()
    side = serializers.CharField(help_text="a, b or organizer")
    via = serializers.CharField(help_text="link, account or api")
    payload = serializers.JSONField()
    summary = serializers.JSONField(help_text="scoring's state of this version")
    based_on_version = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class ResultOutputSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsResultOutput"

    match = MatchStateSerializer()
    submission = SubmissionSerializer(allow_null=True)


class RunningSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsRunning"

    hands = serializers.ListField(child=serializers.JSONField())
    state = serializers.JSONField(help_text="scoring's state: where the table resumes")
    last_hand = serializers.JSONField(allow_null=True)
    penalty_games = serializers.IntegerField()


class HandOutputSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsHandOutput"

    match = MatchStateSerializer()
    number = serializers.IntegerField()
    hand = serializers.JSONField(help_text="the hand as the engine scored it")
    running = RunningSerializer()


def _result_response(answer: services.ResultAnswer) -> Response:
    # ResultOutputSerializer's body, built by hand (results_bodies.py; the schema names it)
    response = Response(result_body(answer.state, answer.submission))
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _hand_response(answer: services.HandAnswer) -> Response:
    body = HandOutputSerializer(
        {
            "match": answer.state,
            "number": answer.number,
            "hand": answer.hand,
            "running": answer.running,
        }
    ).data
    response = Response(body)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


# --- Input shapes ---------------------------------------------------------------------------


class VersionInput(Input):
    class Meta:
        ref_name = "ResultsVersionInput"

    version = serializers.IntegerField(min_value=0, help_text="the match version you saw")


class KeyedInput(VersionInput):
    class Meta:
        ref_name = "ResultsKeyedInput"

    idempotency_key = serializers.CharField(required=False, max_length=80)


class ResultInput(KeyedInput):
    class Meta:
        ref_name = "ResultsResultInput"

    games = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text='each game: {"stones": [A, B]} or {"winner": "A"}; "ordago": true if so',
    )
    hands = serializers.JSONField(
        required=False, help_text='the hands from the first, or "recorded" (this table\'s)'
    )


class PairResultInput(ResultInput):
    class Meta:
        ref_name = "ResultsPairResultInput"

    side = serializers.CharField(help_text="which pair you are: a or b")


class PairConfirmInput(KeyedInput):
    class Meta:
        ref_name = "ResultsPairConfirmInput"

    side = serializers.CharField(help_text="which pair you are: a or b")


class HandInput(KeyedInput):
    class Meta:
        ref_name = "ResultsHandInput"

    hand = serializers.JSONField(
        help_text="one hand in scoring's JSON form: four seats, six in a match of trios"
    )


# --- The table's link -------------------------------------------------------------------------


class TableApi(APIView):
    """Base of the table's views: the token is the credential, no login, no CSRF."""

    authentication_classes: list = []
    permission_classes = [AllowAny]


class TablePlayerSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsTablePlayer"

    seat = serializers.CharField(help_text="A1, A2, B1, B2 (speaking order A1, B1, A2, B2)")
    name = serializers.CharField()
    substitute_for = serializers.CharField(allow_null=True)


class TablePairSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsTablePair"

    entry_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True)
    players = TablePlayerSerializer(many=True)


class TablePairsSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsTablePairs"

    a = TablePairSerializer()
    b = TablePairSerializer()


class IdNameSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsIdName"

    id = serializers.IntegerField()
    name = serializers.CharField()


class RoundRefSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsRoundRef"

    id = serializers.IntegerField()
    number = serializers.IntegerField()


class TablePenaltySerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsTablePenalty"

    side = serializers.CharField(help_text="the late pair: a or b")
    minutes_late = serializers.IntegerField()
    games_lost = serializers.IntegerField()


class TableVersionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsTableVersion"

    id = serializers.IntegerField()
    side = serializers.CharField(help_text="a, b or organizer")
    summary = serializers.JSONField(help_text="scoring's state of this version")
    created_at = serializers.DateTimeField()


class TableDetailApi(TableApi):
    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ResultsTable"

        match = MatchStateSerializer()
        tournament = IdNameSerializer()
        phase = IdNameSerializer()
        round = RoundRefSerializer()
        table_number = serializers.IntegerField(allow_null=True)
        bracket_key = serializers.CharField(allow_blank=True)
        pairs = TablePairsSerializer()
        first_mano = serializers.CharField(help_text="the seat that is mano in the first hand")
        first_mano_player = serializers.CharField(allow_blank=True)
        rules = serializers.JSONField(help_text="the rules in force (scoring.RuleSet)")
        late_penalties = TablePenaltySerializer(many=True)
        submissions = TableVersionSerializer(
            many=True, help_text="the versions entered so far (both in a dispute)"
        )
        running = RunningSerializer()

    @extend_schema(operation_id="results_table_detail", responses=OutputSerializer)
    def get(self, request: Request, token: str) -> Response:
        # One read of the match with its pairs; OutputSerializer's body built by hand
        match = services.match_for_token(
            token=token, relations=selectors.TABLE_RELATIONS, table_read=True
        )
        return Response(table_body(selectors.table_view(match=match, fresh=True)))


class TableResultSubmitApi(TableApi):
    @extend_schema(
        operation_id="results_table_submit",
        request=PairResultInput,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, token: str) -> Response:
        data = valid_data(PairResultInput, request)
        key = idempotency_key(request)
        # the match is read once, by its token under the row lock (locked_for_write)
        answer = services.match_result_submit(
            token=token,
            side=data["side"],
            payload=_payload(data),
            idempotency_key=key,
            version=data["version"],
            via=services.LINK,
            device=_device(request),
        )
        return _result_response(answer)


class TableResultConfirmApi(TableApi):
    @extend_schema(
        operation_id="results_table_confirm",
        request=PairConfirmInput,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, token: str) -> Response:
        data = valid_data(PairConfirmInput, request)
        key = idempotency_key(request)
        # the match is read once, by its token under the row lock (locked_for_write)
        answer = services.match_result_confirm(
            token=token,
            side=data["side"],
            idempotency_key=key,
            version=data["version"],
            via=services.LINK,
            device=_device(request),
        )
        return _result_response(answer)


class TableHandAddApi(TableApi):
    @extend_schema(
        operation_id="results_table_hand_add",
        request=HandInput,
        responses=HandOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, token: str) -> Response:
        data = valid_data(HandInput, request)
        key = idempotency_key(request)
        match = services.match_for_token(token=token, idempotency_key=key)
        answer = services.match_hand_add(
            match=match,
            hand=data["hand"],
            idempotency_key=key,
            version=data["version"],
            via=services.LINK,
            device=_device(request),
        )
        return _hand_response(answer)


class TableHandUndoApi(TableApi):
    @extend_schema(
        operation_id="results_table_hand_undo",
        request=VersionInput,
        responses=ResultOutputSerializer,
    )
    def post(self, request: Request, token: str) -> Response:
        data = valid_data(VersionInput, request)
        match = services.match_for_token(token=token)
        answer = services.match_hand_undo(
            match=match, version=data["version"], via=services.LINK, device=_device(request)
        )
        return _result_response(answer)


# --- The organizer's desk ---------------------------------------------------------------------


class AuditSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsAudit"

    id = serializers.IntegerField()
    action = serializers.CharField()
    actor = serializers.CharField(
        source="actor_shown",
        allow_null=True,
        help_text="who: the user, or the name an imported archive gave",
    )
    via = serializers.CharField(allow_blank=True)
    device = serializers.CharField(allow_blank=True)
    old = serializers.JSONField(allow_null=True)
    new = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()


class FullSubmissionSerializer(SubmissionSerializer):
    class Meta:
        ref_name = "ResultsFullSubmission"

    idempotency_key = serializers.CharField()
    device = serializers.CharField(allow_blank=True)
    created_by = serializers.CharField(
        source="created_by_shown",
        allow_null=True,
        help_text="who entered it: the user, or the name an imported archive gave (null: a table)",
    )


class PenaltySerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsPenalty"

    entry_id = serializers.IntegerField()
    minutes_late = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class MatchHistoryApi(APIView):
    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ResultsMatchHistory"

        match = serializers.SerializerMethodField(help_text="the result fields and version")
        table_number = serializers.IntegerField(allow_null=True)
        round = serializers.IntegerField(source="round.number")
        bracket_key = serializers.CharField(allow_blank=True)
        pair_a = serializers.CharField(source="entry_a.pair", allow_null=True, default=None)
        pair_b = serializers.CharField(source="entry_b.pair", allow_null=True, default=None)
        first_mano = serializers.CharField()
        token = serializers.CharField(help_text="the secret of the table's link")
        hand_count = serializers.IntegerField()
        submissions = FullSubmissionSerializer(many=True)
        late_penalties = PenaltySerializer(many=True)
        audit = AuditSerializer(many=True, help_text="newest first")

        @extend_schema_field(MatchStateSerializer)
        def get_match(self, match: Match) -> dict:
            return MatchStateSerializer(selectors.match_snapshot(match)).data

    @extend_schema(operation_id="results_match_history", responses=OutputSerializer)
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_for_organizer(match_id=match_id, user=request.user)
        return Response(self.OutputSerializer(selectors.match_history(match=match)).data)


class MatchResultSubmitApi(APIView):
    @extend_schema(
        operation_id="results_match_submit",
        request=ResultInput,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        description="The organizer's entry: the official result, confirmed at once.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(ResultInput, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_result_submit(
            match=match,
            side=services.ORGANIZER,
            payload=_payload(data),
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via=_via(request),
            actor=request.user,
            device=_device(request),
        )
        return _result_response(answer)


class MatchResultConfirmApi(APIView):
    @extend_schema(
        operation_id="results_match_confirm",
        request=KeyedInput,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        description="The organizer confirms the version a pair entered.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(KeyedInput, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_result_confirm(
            match=match,
            side=services.ORGANIZER,
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via=_via(request),
            actor=request.user,
            device=_device(request),
        )
        return _result_response(answer)


class MatchDisputeResolveApi(APIView):
    class InputSerializer(ResultInput):
        class Meta:
            ref_name = "ResultsDisputeResolveInput"

        submission = serializers.IntegerField(
            required=False, help_text="the pair's submission chosen as the result"
        )

    @extend_schema(
        operation_id="results_match_dispute_resolve",
        request=InputSerializer,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        description="Choose one pair's version (submission) or enter the official result.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        payload = _payload(data)
        answer = services.match_dispute_resolve(
            match=match,
            version=data["version"],
            actor=request.user,
            idempotency_key=idempotency_key(request),
            submission_id=data.get("submission"),
            payload=payload or None,
            via=_via(request),
            device=_device(request),
        )
        return _result_response(answer)


class MatchResultCorrectApi(APIView):
    @extend_schema(
        operation_id="results_match_correct",
        request=ResultInput,
        responses=ResultOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        description="Replace a confirmed result while nothing depends on it.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(ResultInput, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_result_correct(
            match=match,
            payload=_payload(data),
            version=data["version"],
            actor=request.user,
            idempotency_key=idempotency_key(request),
            via=_via(request),
            device=_device(request),
        )
        return _result_response(answer)


class MatchForfeitApi(APIView):
    class InputSerializer(VersionInput):
        class Meta:
            ref_name = "ResultsForfeitInput"

        absent_side = serializers.CharField(help_text="the pair that did not show up: a or b")

    @extend_schema(
        operation_id="results_match_forfeit",
        request=InputSerializer,
        responses=ResultOutputSerializer,
        description="A pair did not show up: a walkover for the other with the full score.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_forfeit(
            match=match,
            absent_side=data["absent_side"],
            version=data["version"],
            actor=request.user,
            via=_via(request),
            device=_device(request),
        )
        return _result_response(answer)


class MatchLatePenaltyApi(APIView):
    class InputSerializer(VersionInput):
        class Meta:
            ref_name = "ResultsLatePenaltyInput"

        side = serializers.CharField(help_text="the pair that came late: a or b")
        minutes_late = serializers.IntegerField(min_value=0, max_value=32767)

    @extend_schema(
        operation_id="results_match_late_penalty",
        request=InputSerializer,
        responses=ResultOutputSerializer,
        description="A late pair loses a game per the tournament's minutes per game.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(self.InputSerializer, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_late_penalty(
            match=match,
            side=data["side"],
            minutes_late=data["minutes_late"],
            version=data["version"],
            actor=request.user,
            via=_via(request),
            device=_device(request),
        )
        return _result_response(answer)


class MatchHandAddApi(APIView):
    @extend_schema(
        operation_id="results_match_hand_add",
        request=HandInput,
        responses=HandOutputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(HandInput, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_hand_add(
            match=match,
            hand=data["hand"],
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via=_via(request),
            actor=request.user,
            device=_device(request),
        )
        return _hand_response(answer)


class MatchHandUndoApi(APIView):
    @extend_schema(
        operation_id="results_match_hand_undo",
        request=VersionInput,
        responses=ResultOutputSerializer,
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = valid_data(VersionInput, request)
        match = selectors.match_get(match_id=match_id, user=request.user)
        answer = services.match_hand_undo(
            match=match,
            version=data["version"],
            via=_via(request),
            actor=request.user,
            device=_device(request),
        )
        return _result_response(answer)


class BoardTableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "ResultsBoardTable"

    match_id = serializers.IntegerField(source="pk")
    table_number = serializers.IntegerField(allow_null=True)
    bracket_key = serializers.CharField(allow_blank=True)
    status = serializers.CharField(help_text=MATCH_STATUSES)
    kind = serializers.CharField(help_text=MATCH_KINDS)
    version = serializers.IntegerField()
    pair_a = serializers.CharField(source="entry_a.pair", allow_null=True, default=None)
    pair_b = serializers.CharField(source="entry_b.pair", allow_null=True, default=None)
    winner = serializers.SerializerMethodField()
    games_a = serializers.IntegerField()
    games_b = serializers.IntegerField()
    submission_count = serializers.IntegerField()
    hand_count = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)

    def get_winner(self, match: Match) -> str | None:
        return selectors.match_side_of(match, match.winner_id)


class RoundBoardApi(APIView):
    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ResultsRoundBoard"

        round_id = serializers.IntegerField(source="round.pk")
        number = serializers.IntegerField(source="round.number")
        status = serializers.CharField(source="round.status", help_text=ROUND_STATUSES)
        phase = serializers.CharField(source="round.phase.name")
        tables = BoardTableSerializer(many=True)

    @extend_schema(operation_id="results_round_board", responses=OutputSerializer)
    def get(self, request: Request, round_id: int) -> Response:
        rnd = selectors.round_get(round_id=round_id, user=request.user)
        board = {"round": rnd, "tables": selectors.round_board(rnd=rnd)}
        return Response(self.OutputSerializer(board).data)


urlpatterns = [
    path("table/<str:token>", TableDetailApi.as_view(), name="results-table"),
    path("table/<str:token>/result", TableResultSubmitApi.as_view(), name="results-table-submit"),
    path(
        "table/<str:token>/result/confirm",
        TableResultConfirmApi.as_view(),
        name="results-table-confirm",
    ),
    path("table/<str:token>/hands", TableHandAddApi.as_view(), name="results-table-hand-add"),
    path(
        "table/<str:token>/hands/undo",
        TableHandUndoApi.as_view(),
        name="results-table-hand-undo",
    ),
    path("matches/<int:match_id>/history", MatchHistoryApi.as_view(), name="results-match"),
    path("matches/<int:match_id>/result", MatchResultSubmitApi.as_view(), name="results-submit"),
    path(
        "matches/<int:match_id>/result/confirm",
        MatchResultConfirmApi.as_view(),
        name="results-confirm",
    ),
    path(
        "matches/<int:match_id>/result/correct",
        MatchResultCorrectApi.as_view(),
        name="results-correct",
    ),
    path(
        "matches/<int:match_id>/dispute/resolve",
        MatchDisputeResolveApi.as_view(),
        name="results-resolve",
    ),
    path("matches/<int:match_id>/forfeit", MatchForfeitApi.as_view(), name="results-forfeit"),
    path(
        "matches/<int:match_id>/late-penalty",
        MatchLatePenaltyApi.as_view(),
        name="results-late-penalty",
    ),
    path("matches/<int:match_id>/hands", MatchHandAddApi.as_view(), name="results-hand-add"),
    path(
        "matches/<int:match_id>/hands/undo",
        MatchHandUndoApi.as_view(),
        name="results-hand-undo",
    ),
    path("rounds/<int:round_id>/board", RoundBoardApi.as_view(), name="results-round-board"),
]
