"""API of the entrants that are not pairs: trios, players alone, and Mus francés tables.

Responsible for: turning requests into calls of tournaments.services.entrants (trios and
players alone: register, paste a list, withdraw, check in), tournaments.services.frances (a
Mus francés table's finishing order, from its link or an organizer) and
tournaments.selectors.entrants, and their results into JSON. Paths:

- ``tournaments/<id>/individuals`` (read), ``…/individuals/register``, ``…/individuals/paste``,
  ``…/individuals/<id>/withdraw``, ``…/individuals/<id>/check-in``;
- ``tournaments/<id>/trios/register``, ``…/trios/paste`` (a trio is an entry: the entries
  endpoints list, withdraw and check it in, and its ``player_three`` is in ``trios``);
- ``rounds/<id>/frances-tables`` (read), ``frances-tables/<id>/result`` (an organizer),
  ``frances-tables/link/<token>`` (read), ``…/result`` and ``…/result/confirm`` (the table's
  link: the player says their seat).

Must not: hold a rule, create rows in a serializer, or build an error response.

Terms: trío, jugador inscrito (a player alone), mesa de mus francés, asiento (seat), orden de
llegada (finishing order).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from tournaments.api.registration import (
    EntryOutputSerializer,
    PlayerRefSerializer,
    entry_data,
    waiting_positions,
)
from tournaments.api.tournaments import audit_context, client_device, idempotency_key, valid_data
from tournaments.models import Entry
from tournaments.selectors.entrants import (
    frances_table_for_link,
    frances_table_get,
    frances_table_list,
    individual_list,
)
from tournaments.selectors.rounds import round_get
from tournaments.selectors.tournaments import tournament_get, tournament_get_for_organizer
from tournaments.services.entrants import (
    individual_check_in,
    individual_register,
    individual_register_pasted,
    individual_withdraw,
    trio_register,
    trio_register_pasted,
)
from tournaments.services.frances import (
    frances_result_confirm,
    frances_result_submit,
    frances_table_for_token,
)

IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="New for each action (or send idempotency_key in the body); a retry with the "
    "same key gets the first answer and stores nothing.",
)


# --- Players alone --------------------------------------------------------------------------


class IndividualOutputSerializer(serializers.Serializer):
    class Meta:
        ref_name = "IndividualEntry"

    id = serializers.IntegerField()
    player = PlayerRefSerializer()
    display_name = serializers.CharField(source="__str__", help_text="the player's name")
    label = serializers.CharField(source="__str__", help_text="the same as display_name (older)")
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    registered_at = serializers.DateTimeField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    dropped_at = serializers.DateTimeField(
        allow_null=True, help_text="left out when registration closed (the bases' field sizes)"
    )
    refunded_at = serializers.DateTimeField(allow_null=True)


class IndividualListApi(APIView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)

    @extend_schema(
        operation_id="entrants_individual_list",
        parameters=[FilterSerializer],
        responses=IndividualOutputSerializer(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournament = tournament_get(user=request.user, tournament_id=tournament_id)
        rows = individual_list(tournament=tournament, status=filters.validated_data.get("status"))
        return Response(IndividualOutputSerializer(rows, many=True).data)


class IndividualRegisterApi(APIView):
    @extend_schema_serializer(component_name="IndividualRegisterInput")
    class InputSerializer(Input):
        player_id = serializers.IntegerField()

    @extend_schema(
        operation_id="entrants_individual_register",
        request=InputSerializer,
        responses={201: IndividualOutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        data = valid_data(self.InputSerializer, request)
        row = individual_register(
            tournament=tournament, player_id=data["player_id"], **audit_context(request)
        )
        return Response(IndividualOutputSerializer(row).data, status=status.HTTP_201_CREATED)


class PasteInputSerializer(Input):
    class Meta:
        ref_name = "EntrantsPasteInput"

    text = serializers.CharField(
        trim_whitespace=False,
        help_text='one entrant per line: a player ("Ana García"), or a trio ("Ana García / '
        'Luis Pérez / Eva Ruiz"); blank lines are ignored',
    )


def _pasted(rows: list) -> dict:
    """A paste's answer, as the pairs' (entries/paste): how many got a place, how many wait,
    and the rows."""
    waiting = sum(row.status == Entry.Status.WAITING for row in rows)
    return {"registered": len(rows) - waiting, "waiting": waiting, "entries": rows}


class IndividualPasteApi(APIView):
    @extend_schema_serializer(component_name="IndividualPasteOutput")
    class OutputSerializer(serializers.Serializer):
        registered = serializers.IntegerField(help_text="players that got a place")
        waiting = serializers.IntegerField(help_text="players put on the waiting list")
        entries = IndividualOutputSerializer(many=True)

    @extend_schema(
        operation_id="entrants_individual_paste",
        request=PasteInputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        data = valid_data(PasteInputSerializer, request)
        rows = individual_register_pasted(
            tournament=tournament, text=data["text"], **audit_context(request)
        )
        return Response(self.OutputSerializer(_pasted(rows)).data, status=status.HTTP_201_CREATED)


class IndividualWithdrawApi(APIView):
    @extend_schema(
        operation_id="entrants_individual_withdraw",
        request=None,
        responses=IndividualOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, individual_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        row = individual_withdraw(
            tournament=tournament, individual_id=individual_id, **audit_context(request)
        )
        return Response(IndividualOutputSerializer(row).data)


class IndividualCheckInApi(APIView):
    @extend_schema_serializer(component_name="IndividualCheckInInput")
    class InputSerializer(Input):
        present = serializers.BooleanField(
            required=False, default=True, help_text="false undoes a check-in"
        )

    @extend_schema(
        operation_id="entrants_individual_check_in",
        request=InputSerializer,
        responses=IndividualOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, individual_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        data = valid_data(self.InputSerializer, request)
        row = individual_check_in(
            tournament=tournament,
            individual_id=individual_id,
            present=data["present"],
            **audit_context(request),
        )
        return Response(IndividualOutputSerializer(row).data)


# --- Trios ----------------------------------------------------------------------------------


class TrioOutputSerializer(EntryOutputSerializer):
    class Meta:
        ref_name = "TrioEntry"

    player_three = PlayerRefSerializer(help_text="the trio's third player")


class TrioRegisterApi(APIView):
    @extend_schema_serializer(component_name="TrioRegisterInput")
    class InputSerializer(Input):
        player_ids = serializers.ListField(
            child=serializers.IntegerField(), help_text="the trio's three players"
        )

    @extend_schema(
        operation_id="entrants_trio_register",
        request=InputSerializer,
        responses={201: TrioOutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        data = valid_data(self.InputSerializer, request)
        entry = trio_register(
            tournament=tournament, player_ids=data["player_ids"], **audit_context(request)
        )
        entry_data(entry)
        return Response(TrioOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


class TrioPasteApi(APIView):
    @extend_schema_serializer(component_name="TrioPasteOutput")
    class OutputSerializer(serializers.Serializer):
        registered = serializers.IntegerField(help_text="trios that got a place")
        waiting = serializers.IntegerField(help_text="trios put on the waiting list")
        entries = TrioOutputSerializer(many=True)

    @extend_schema(
        operation_id="entrants_trio_paste",
        request=PasteInputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)
        data = valid_data(PasteInputSerializer, request)
        entries = trio_register_pasted(
            tournament=tournament, text=data["text"], **audit_context(request)
        )
        waiting_positions(tournament, entries)
        body = self.OutputSerializer(_pasted(entries)).data
        return Response(body, status=status.HTTP_201_CREATED)


# --- Mus francés tables ---------------------------------------------------------------------


class FrancesSeatSerializer(serializers.Serializer):
    class Meta:
        ref_name = "FrancesSeat"

    seat = serializers.IntegerField()
    individual_id = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.__str__")


class FrancesTableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "FrancesTable"

    id = serializers.IntegerField()
    table_number = serializers.IntegerField()
    status = serializers.CharField(help_text="pending, submitted, confirmed or disputed")
    version = serializers.IntegerField(help_text="send it back with a result (409 if stale)")
    order = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="the confirmed finishing order: individual ids, the winner first",
    )
    seats = FrancesSeatSerializer(many=True, source="seats.all")
    reasons = serializers.JSONField(help_text="why these players sit together (reason codes)")
    token = serializers.CharField(
        source="link_token",
        allow_null=True,
        default=None,
        help_text="the secret of the table's link (frances-tables/link/<token>; its page is "
        "/mesa-frances/<token>/): shown to the peña's organizers in the round's list, null "
        "for anyone else",
    )


class FrancesTableListApi(APIView):
    @extend_schema(
        operation_id="entrants_frances_table_list",
        responses=FrancesTableSerializer(many=True),
    )
    def get(self, request: Request, round_id: int) -> Response:
        rnd = round_get(round_id=round_id)
        tables = frances_table_list(round=rnd, user=request.user)
        return Response(FrancesTableSerializer(tables, many=True).data)


class FrancesAnswerSerializer(serializers.Serializer):
    class Meta:
        ref_name = "FrancesAnswer"

    table = serializers.JSONField(
        help_text="id, table_number, status, version, order and the seats' latest versions"
    )
    replayed = serializers.BooleanField(help_text="a retry: nothing was stored now")


def _answer(answer) -> Response:
    return Response({"table": answer.state, "replayed": answer.replayed})


class FrancesOrderInput(Input):
    class Meta:
        ref_name = "FrancesOrderInput"

    order = serializers.JSONField(help_text="the table's players (individual ids), winner first")
    version = serializers.IntegerField(help_text="the table's version you saw")
    idempotency_key = serializers.CharField(required=False)


class FrancesSeatOrderInput(FrancesOrderInput):
    class Meta:
        ref_name = "FrancesSeatOrderInput"

    seat = serializers.JSONField(help_text="your seat at the table: 1, 2, …")


class FrancesSeatConfirmInput(Input):
    class Meta:
        ref_name = "FrancesSeatConfirmInput"

    seat = serializers.JSONField(help_text="your seat at the table: 1, 2, …")
    version = serializers.IntegerField()
    idempotency_key = serializers.CharField(required=False)


class FrancesResultApi(APIView):
    @extend_schema(
        operation_id="entrants_frances_result",
        request=FrancesOrderInput,
        responses=FrancesAnswerSerializer,
        parameters=[IDEMPOTENCY],
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = frances_table_get(table_id=table_id)
        data = valid_data(FrancesOrderInput, request)
        session = isinstance(request.successful_authenticator, SessionAuthentication)
        via = "account" if session else "api"
        answer = frances_result_submit(
            table=table,
            order=data["order"],
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via=via,
            actor=request.user,
            device=client_device(request),
        )
        return _answer(answer)


class FrancesLinkApi(APIView):
    """The table's link: the token is the credential, no login, no CSRF."""

    authentication_classes: list = []
    permission_classes = [AllowAny]


class FrancesLinkDetailApi(FrancesLinkApi):
    @extend_schema(operation_id="entrants_frances_link_detail", responses=FrancesTableSerializer)
    def get(self, request: Request, token: str) -> Response:
        table = frances_table_for_link(token=token) or frances_table_for_token(token=token)
        return Response(FrancesTableSerializer(table).data)


class FrancesLinkResultApi(FrancesLinkApi):
    @extend_schema(
        operation_id="entrants_frances_link_result",
        request=FrancesSeatOrderInput,
        responses=FrancesAnswerSerializer,
        parameters=[IDEMPOTENCY],
    )
    def post(self, request: Request, token: str) -> Response:
        table = frances_table_for_token(token=token)
        data = valid_data(FrancesSeatOrderInput, request)
        answer = frances_result_submit(
            table=table,
            seat=data["seat"],
            order=data["order"],
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via="link",
            device=client_device(request),
        )
        return _answer(answer)


class FrancesLinkConfirmApi(FrancesLinkApi):
    @extend_schema(
        operation_id="entrants_frances_link_confirm",
        request=FrancesSeatConfirmInput,
        responses=FrancesAnswerSerializer,
        parameters=[IDEMPOTENCY],
    )
    def post(self, request: Request, token: str) -> Response:
        table = frances_table_for_token(token=token)
        data = valid_data(FrancesSeatConfirmInput, request)
        answer = frances_result_confirm(
            table=table,
            seat=data["seat"],
            idempotency_key=idempotency_key(request),
            version=data["version"],
            via="link",
            device=client_device(request),
        )
        return _answer(answer)


_T = "tournaments/<int:tournament_id>"
_I = f"{_T}/individuals/<int:individual_id>"

urlpatterns = [
    path(f"{_T}/individuals", IndividualListApi.as_view(), name="entrants-individual-list"),
    path(
        f"{_T}/individuals/register",
        IndividualRegisterApi.as_view(),
        name="entrants-individual-register",
    ),
    path(f"{_T}/individuals/paste", IndividualPasteApi.as_view(), name="entrants-individual-paste"),
    path(f"{_I}/withdraw", IndividualWithdrawApi.as_view(), name="entrants-individual-withdraw"),
    path(f"{_I}/check-in", IndividualCheckInApi.as_view(), name="entrants-individual-check-in"),
    path(f"{_T}/trios/register", TrioRegisterApi.as_view(), name="entrants-trio-register"),
    path(f"{_T}/trios/paste", TrioPasteApi.as_view(), name="entrants-trio-paste"),
    path(
        "rounds/<int:round_id>/frances-tables",
        FrancesTableListApi.as_view(),
        name="entrants-frances-tables",
    ),
    path(
        "frances-tables/<int:table_id>/result",
        FrancesResultApi.as_view(),
        name="entrants-frances-result",
    ),
    path(
        "frances-tables/link/<str:token>",
        FrancesLinkDetailApi.as_view(),
        name="entrants-frances-link",
    ),
    path(
        "frances-tables/link/<str:token>/result",
        FrancesLinkResultApi.as_view(),
        name="entrants-frances-link-result",
    ),
    path(
        "frances-tables/link/<str:token>/result/confirm",
        FrancesLinkConfirmApi.as_view(),
        name="entrants-frances-link-confirm",
    ),
]
