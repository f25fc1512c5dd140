"""API of registration: a tournament's entries, the waiting list, check-in, seeds, pinned
tables, substitutes and a member changed on the day.

Responsible for: turning requests into calls of tournaments.services.registration and
tournaments.selectors.registration and their results into JSON. The entry list of a published
tournament is public; every write needs an organizer of the tournament's peña (a write view
first checks access so that someone without it gets 404/403 before any 400 about input).

Must not: hold a rule, create rows in a serializer, or build an error response.

Terms: pareja (pair), entry (a pair registered in a tournament), lista de espera (waiting list),
cabeza de serie (seed), mesa fija (pinned table), suplente (substitute), partida (a Match).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from config.parsers import JSONParser
from tournaments.api.tournaments import ClubRefSerializer, audit_context
from tournaments.models import Entry, Tournament
from tournaments.selectors.registration import (
    entry_list,
    entry_waiting_position,
    substitution_list,
)
from tournaments.selectors.tournaments import tournament_get, tournament_get_for_organizer
from tournaments.services.bulk import (
    MAX_CSV_BYTES,
    Planned,
    Registration,
    entrants_register_csv,
    entrants_register_text,
)
from tournaments.services.registration import (
    entry_check_in,
    entry_check_in_undo,
    entry_member_change,
    entry_register,
    entry_register_pasted,
    entry_seed_set,
    entry_table_pin,
    entry_withdraw,
    substitution_create,
)

# --- Serializers shared by the views --------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()


class PairSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the pair's own name, if it has one")
    display_name = serializers.CharField(
        source="__str__", help_text="its name, or its players (as a peña's pairs show it)"
    )
    label = serializers.CharField(source="__str__", help_text="the same as display_name (older)")
    club = ClubRefSerializer(allow_null=True)
    player_one = PlayerRefSerializer()
    player_two = PlayerRefSerializer()


class EntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    pair = PairSerializer()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    seed = serializers.IntegerField(allow_null=True)
    pinned_table = serializers.IntegerField(allow_null=True)
    registered_at = serializers.DateTimeField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    dropped_at = serializers.DateTimeField(
        allow_null=True,
        help_text="left out when registration closed, to fit the bases' field sizes",
    )
    refunded_at = serializers.DateTimeField(
        allow_null=True, help_text="its entry fee marked as refunded (a dropped entry is)"
    )
    waiting_position = serializers.IntegerField(
        allow_null=True, help_text="place on the waiting list (1 = next in), else null"
    )


def entry_data(entry: Entry) -> dict:
    entry.waiting_position = entry_waiting_position(entry=entry)
    return EntryOutputSerializer(entry).data


def waiting_positions(tournament: Tournament, entries: list[Entry]) -> None:
    """Give each of ``entries`` its ``waiting_position``, one query for them all."""
    if not any(entry.status == Entry.Status.WAITING for entry in entries):
        positions = {}
    else:
        waiting = entry_list(tournament=tournament, status=Entry.Status.WAITING)
        positions = {entry.pk: entry.waiting_position for entry in waiting}
    for entry in entries:
        entry.waiting_position = positions.get(entry.pk)


def _write_access(request: Request, tournament_id: int) -> Tournament:
    """The tournament of the URL, once the user is known to organize it (404/403 otherwise)."""
    return tournament_get_for_organizer(user=request.user, tournament_id=tournament_id)


# --- Reads ----------------------------------------------------------------------------------


class EntryListApi(APIView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)

    @extend_schema(
        operation_id="registration_entry_list",
        parameters=[FilterSerializer],
        responses=EntryOutputSerializer(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournament = tournament_get(user=request.user, tournament_id=tournament_id)
        entries = entry_list(tournament=tournament, status=filters.validated_data.get("status"))
        return Response(EntryOutputSerializer(entries, many=True).data)


class SubstitutionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    pair = serializers.CharField(source="entry.pair.__str__")
    replaced = PlayerRefSerializer()
    substitute = PlayerRefSerializer()
    created_at = serializers.DateTimeField()


class SubstitutionListApi(APIView):
    @extend_schema(
        operation_id="registration_substitution_list",
        responses=SubstitutionOutputSerializer(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = tournament_get(user=request.user, tournament_id=tournament_id)
        substitutions = substitution_list(tournament=tournament)
        return Response(SubstitutionOutputSerializer(substitutions, many=True).data)


# --- Writes ---------------------------------------------------------------------------------


class EntryRegisterApi(APIView):
    @extend_schema_serializer(component_name="EntryRegisterInput")
    class InputSerializer(Input):
        pair_id = serializers.IntegerField()
        seed = serializers.IntegerField(required=False, allow_null=True, help_text="1 = best")

    @extend_schema(
        operation_id="registration_entry_register",
        request=InputSerializer,
        responses={201: EntryOutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = entry_register(
            tournament=tournament,
            pair_id=serializer.validated_data["pair_id"],
            seed=serializer.validated_data.get("seed"),
            **audit_context(request),
        )
        return Response(entry_data(entry), status=status.HTTP_201_CREATED)


class EntryPasteApi(APIView):
    @extend_schema_serializer(component_name="EntryPasteInput")
    class InputSerializer(Input):
        text = serializers.CharField(
            trim_whitespace=False,
            help_text='one pair per line, "Ana García / Luis Pérez"; blank lines are ignored',
        )

    @extend_schema_serializer(component_name="EntryPasteOutput")
    class OutputSerializer(serializers.Serializer):
        registered = serializers.IntegerField(help_text="pairs that got a place")
        waiting = serializers.IntegerField(help_text="pairs put on the waiting list")
        entries = EntryOutputSerializer(many=True)

    @extend_schema(
        operation_id="registration_entry_paste",
        request=InputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entries = entry_register_pasted(
            tournament=tournament,
            text=serializer.validated_data["text"],
            **audit_context(request),
        )
        waiting_positions(tournament, entries)
        waiting = sum(e.status == Entry.Status.WAITING for e in entries)
        data = {"registered": len(entries) - waiting, "waiting": waiting, "entries": entries}
        return Response(self.OutputSerializer(data).data, status=status.HTTP_201_CREATED)


class RegistrationPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="null: a player to create")
    name = serializers.CharField()
    licence = serializers.CharField(help_text="empty when nobody gave one")
    match = serializers.ChoiceField(
        choices=["licence", "name", "new"],
        help_text="how the peña's player was found: by licence, by name, or new",
    )
    licence_added = serializers.BooleanField(
        help_text="an existing player without a licence gets the one the list gives"
    )


class RegistrationLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="its line in the list or the file")
    players = RegistrationPlayerSerializer(many=True)
    team = serializers.CharField(help_text="the team name the line gives, or empty")
    club = ClubRefSerializer(allow_null=True, help_text="the peña the pair represents")
    pair_id = serializers.IntegerField(
        allow_null=True, help_text="null: a pair to create, or a player alone"
    )
    pair = serializers.ChoiceField(
        choices=["existing", "new", "renamed"],
        allow_null=True,
        help_text="renamed: an existing pair that takes the line's team name",
    )
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    registered_again = serializers.BooleanField(help_text="a withdrawn entry registered again")
    entry_id = serializers.IntegerField(
        allow_null=True,
        help_text="the entry stored (an individual's id for players alone); null in a preview",
    )


class RegistrationOutputSerializer(serializers.Serializer):
    preview = serializers.BooleanField(help_text="true: nothing was stored")
    kind = serializers.ChoiceField(choices=Tournament.EntrantKind.choices)
    registered = serializers.IntegerField(help_text="entrants that get a place")
    waiting = serializers.IntegerField(help_text="entrants put on the waiting list")
    registered_again = serializers.IntegerField()
    new_players = serializers.IntegerField(help_text="players created in the peña")
    matched_players = serializers.IntegerField(help_text="players the peña already had")
    licences_added = serializers.IntegerField()
    new_pairs = serializers.IntegerField()
    renamed_pairs = serializers.IntegerField()
    lines = RegistrationLineSerializer(many=True)


def _line_data(planned: Planned) -> dict:
    pair = planned.pair
    club = planned.club if pair is not None else None
    return {
        "line": planned.line.number,
        "players": [
            {
                "id": person.player.pk,
                "name": str(person.player),
                "licence": person.player.licence,
                "match": person.match,
                "licence_added": person.licence_added,
            }
            for person in planned.people
        ],
        "team": planned.line.team,
        "club": None if club is None else {"slug": club.slug, "name": club.name},
        "pair_id": None if pair is None else pair.pair.pk,
        "pair": None if pair is None else pair.state,
        "status": planned.status,
        "registered_again": planned.again is not None,
        "entry_id": None if planned.entry is None else planned.entry.pk,
    }


def registration_data(registration: Registration) -> dict:
    return RegistrationOutputSerializer(
        {
            "preview": registration.preview,
            "kind": registration.kind,
            "registered": registration.registered,
            "waiting": registration.waiting,
            "registered_again": registration.registered_again,
            "new_players": registration.new_players,
            "matched_players": registration.matched_players,
            "licences_added": registration.licences_added,
            "new_pairs": registration.new_pairs,
            "renamed_pairs": registration.renamed_pairs,
            "lines": [_line_data(planned) for planned in registration.lines],
        }
    ).data


class EntrantsImportApi(APIView):
    # A CSV file may come as itself (multipart), like an archive; every other body is JSON.
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema_serializer(component_name="EntrantsImportInput")
    class InputSerializer(Input):
        csv = serializers.CharField(
            required=False,
            trim_whitespace=False,
            help_text="a CSV file's text: a header row (licencia, jugadores or jugador 1, "
            "jugador 2…, peña, equipo), then one entrant a row; comma, semicolon or tab",
        )
        file = serializers.FileField(
            required=False, help_text="the CSV file itself (multipart/form-data)"
        )
        text = serializers.CharField(
            required=False,
            trim_whitespace=False,
            help_text='a pasted list instead: one entrant a line, "Ana García / Luis Pérez", '
            'or "Team name: Ana García / Luis Pérez"',
        )
        preview = serializers.BooleanField(
            required=False, default=False, help_text="true: check and answer, store nothing"
        )

        def validate(self, data):
            given = [name for name in ("csv", "file", "text") if data.get(name) is not None]
            if len(given) != 1:
                raise serializers.ValidationError(
                    "Send one of csv, file or text: the file's text, the file, or a pasted list."
                )
            return data

    @extend_schema(
        operation_id="registration_entrants_import",
        request={
            "application/json": InputSerializer,
            "multipart/form-data": InputSerializer,
        },
        responses={200: RegistrationOutputSerializer, 201: RegistrationOutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        common = {"tournament": tournament, "preview": data["preview"], **audit_context(request)}
        if data.get("text") is not None:
            registration = entrants_register_text(text=data["text"], **common)
        elif data.get("file") is not None:
            # One byte beyond the limit is enough to refuse a larger file.
            content = data["file"].read(MAX_CSV_BYTES + 1)
            registration = entrants_register_csv(data=content, **common)
        else:
            registration = entrants_register_csv(data=data["csv"], **common)
        answer = status.HTTP_200_OK if registration.preview else status.HTTP_201_CREATED
        return Response(registration_data(registration), status=answer)


class EntryWithdrawApi(APIView):
    @extend_schema_serializer(component_name="EntryWithdrawOutput")
    class OutputSerializer(serializers.Serializer):
        entry = EntryOutputSerializer()
        promoted = EntryOutputSerializer(
            allow_null=True, help_text="the waiting pair that took the freed place, if any"
        )

    @extend_schema(
        operation_id="registration_entry_withdraw", request=None, responses=OutputSerializer
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        withdrawal = entry_withdraw(
            tournament=tournament, entry_id=entry_id, **audit_context(request)
        )
        return Response(self.OutputSerializer(withdrawal).data)


class EntryCheckInApi(APIView):
    @extend_schema(
        operation_id="registration_entry_check_in", request=None, responses=EntryOutputSerializer
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        entry = entry_check_in(tournament=tournament, entry_id=entry_id, **audit_context(request))
        return Response(entry_data(entry))


class EntryCheckInUndoApi(APIView):
    @extend_schema(
        operation_id="registration_entry_check_in_undo",
        request=None,
        responses=EntryOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        entry = entry_check_in_undo(
            tournament=tournament, entry_id=entry_id, **audit_context(request)
        )
        return Response(entry_data(entry))


class EntrySeedSetApi(APIView):
    @extend_schema_serializer(component_name="EntrySeedSetInput")
    class InputSerializer(Input):
        seed = serializers.IntegerField(allow_null=True, help_text="1 = best; null: no seed")

    @extend_schema(
        operation_id="registration_entry_seed_set",
        request=InputSerializer,
        responses=EntryOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = entry_seed_set(
            tournament=tournament,
            entry_id=entry_id,
            seed=serializer.validated_data["seed"],
            **audit_context(request),
        )
        return Response(entry_data(entry))


class EntryTablePinApi(APIView):
    @extend_schema_serializer(component_name="EntryTablePinInput")
    class InputSerializer(Input):
        table = serializers.IntegerField(allow_null=True, help_text="table number; null: unpin")

    @extend_schema(
        operation_id="registration_entry_table_pin",
        request=InputSerializer,
        responses=EntryOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = entry_table_pin(
            tournament=tournament,
            entry_id=entry_id,
            table=serializer.validated_data["table"],
            **audit_context(request),
        )
        return Response(entry_data(entry))


class EntryMemberChangeApi(APIView):
    """A pair changes one of its players on the day, before it plays (a championship may
    limit it: its eligibility rules answer 409)."""

    @extend_schema_serializer(component_name="EntryMemberChangeInput")
    class InputSerializer(Input):
        replaced_player_id = serializers.IntegerField(help_text="the player who leaves the pair")
        player_id = serializers.IntegerField(help_text="the player who takes their place")

    @extend_schema(
        operation_id="registration_entry_member_change",
        request=InputSerializer,
        responses=EntryOutputSerializer,
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = entry_member_change(
            tournament=tournament,
            entry_id=entry_id,
            **serializer.validated_data,
            **audit_context(request),
        )
        return Response(entry_data(entry))


class SubstitutionCreateApi(APIView):
    @extend_schema_serializer(component_name="SubstitutionCreateInput")
    class InputSerializer(Input):
        match_id = serializers.IntegerField()
        entry_id = serializers.IntegerField(help_text="the registered pair that needs a substitute")
        replaced_player_id = serializers.IntegerField(help_text="the pair's absent player")
        substitute_player_id = serializers.IntegerField(help_text="who plays in their place")

    @extend_schema(
        operation_id="registration_substitution_create",
        request=InputSerializer,
        responses={201: SubstitutionOutputSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = _write_access(request, tournament_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        substitution = substitution_create(
            tournament=tournament, **serializer.validated_data, **audit_context(request)
        )
        return Response(
            SubstitutionOutputSerializer(substitution).data, status=status.HTTP_201_CREATED
        )


_ENTRY = "tournaments/<int:tournament_id>/entries/<int:entry_id>"

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/entries",
        EntryListApi.as_view(),
        name="registration-entry-list",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/register",
        EntryRegisterApi.as_view(),
        name="registration-entry-register",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/paste",
        EntryPasteApi.as_view(),
        name="registration-entry-paste",
    ),
    path(
        "tournaments/<int:tournament_id>/entrants/import",
        EntrantsImportApi.as_view(),
        name="registration-entrants-import",
    ),
    path(f"{_ENTRY}/withdraw", EntryWithdrawApi.as_view(), name="registration-entry-withdraw"),
    path(f"{_ENTRY}/check-in", EntryCheckInApi.as_view(), name="registration-entry-check-in"),
    path(
        f"{_ENTRY}/check-in/undo",
        EntryCheckInUndoApi.as_view(),
        name="registration-entry-check-in-undo",
    ),
    path(f"{_ENTRY}/seed", EntrySeedSetApi.as_view(), name="registration-entry-seed"),
    path(f"{_ENTRY}/pin", EntryTablePinApi.as_view(), name="registration-entry-pin"),
    path(
        f"{_ENTRY}/member",
        EntryMemberChangeApi.as_view(),
        name="registration-entry-member-change",
    ),
    path(
        "tournaments/<int:tournament_id>/substitutions",
        SubstitutionListApi.as_view(),
        name="registration-substitution-list",
    ),
    path(
        "tournaments/<int:tournament_id>/substitutions/create",
        SubstitutionCreateApi.as_view(),
        name="registration-substitution-create",
    ),
]
