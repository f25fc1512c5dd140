"""API of one person, one identity: who is probably the same person, merging two player rows
into one person and undoing it, and a peña's merges.

Responsible for: turning requests into calls of clubs.identity.selectors and services and their
results into JSON. A suggestion names the other peña's player and their peñas, never their
contact.

Must not: check roles or hold a rule (services and selectors do), or build an error body.

Terms: fusión (merge), jugador (player), licencia (federation licence number), peña.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from clubs.identity import selectors, services
from clubs.models import PlayerMerge
from config.inputs import Input


class IdentityClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()

    class Meta:
        ref_name = "ClubIdentityClub"


class IdentityPlayerSerializer(serializers.Serializer):
    """A player as the identity's answers show them: the name and licence, never a contact."""

    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    full_name = serializers.CharField(source="__str__")
    licence = serializers.CharField()

    class Meta:
        ref_name = "ClubIdentityPlayer"


class SuggestionOutputSerializer(serializers.Serializer):
    player = IdentityPlayerSerializer(help_text="the peña's player")
    candidate = IdentityPlayerSerializer(help_text="probably the same person")
    candidate_clubs = IdentityClubSerializer(many=True, help_text="the candidate's peñas")
    reasons = serializers.ListField(
        child=serializers.ChoiceField(choices=["licence", "email", "name"]),
        help_text="why they look like one person, strongest first",
    )
    may_merge = serializers.BooleanField(help_text="whether the caller may merge them")

    class Meta:
        ref_name = "ClubPlayerDuplicateOutput"


class MergeMovedSerializer(serializers.Serializer):
    model = serializers.CharField(help_text='the rows\' model, e.g. "clubs.pair"')
    field = serializers.CharField(help_text="the column that pointed at the merged row")
    count = serializers.IntegerField()

    class Meta:
        ref_name = "ClubPlayerMergeMoved"


class MergeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    keep = IdentityPlayerSerializer(help_text="the row that stays: the person")
    other = IdentityPlayerSerializer(help_text="the row merged into it (kept, to undo)")
    reason = serializers.ChoiceField(choices=PlayerMerge.Reason.values)
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    undone_at = serializers.DateTimeField(allow_null=True)
    undone_by = serializers.CharField(source="undone_by.username", allow_null=True, default=None)
    moved = serializers.SerializerMethodField()
    pending = serializers.ListField(
        child=serializers.CharField(),
        help_text="follow-up tasks still to run (ratings, circuits, standings)",
    )

    class Meta:
        ref_name = "ClubPlayerMergeOutput"

    @extend_schema_field(MergeMovedSerializer(many=True))
    def get_moved(self, merge) -> list[dict]:
        return [
            {"model": m["model"], "field": m["field"], "count": len(m["ids"])} for m in merge.moved
        ]


class PlayerDuplicateListApi(APIView):
    """Players of other peñas (or of none) who are probably one of the peña's: the same
    licence, e-mail or name (accents, case and spacing aside); organizers only."""

    OutputSerializer = SuggestionOutputSerializer

    @extend_schema(operation_id="club_player_duplicates", responses=OutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        suggestions = selectors.player_duplicates(
            user=request.user, club=club_selectors.club_get(club_id=club_id)
        )
        return Response(self.OutputSerializer(suggestions, many=True).data)


class PlayerMergeApi(APIView):
    """Make another player row (``other_id``) and this player of the peña one person; this
    row stays. Refused (409) with both rows named when they cannot be one person."""

    OutputSerializer = MergeOutputSerializer

    class InputSerializer(Input):
        other_id = serializers.IntegerField(help_text="the row merged into this player")

        class Meta:
            ref_name = "ClubPlayerMergeInput"

    @extend_schema(
        operation_id="club_player_merge",
        request=InputSerializer,
        responses={201: OutputSerializer},
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        keep = club_selectors.player_get(
            user=request.user, club=club_selectors.club_get(club_id=club_id), player_id=player_id
        )
        other = selectors.player_lookup(player_id=data.validated_data["other_id"])
        merge = services.player_merge(actor=request.user, keep=keep, other=other)
        return Response(self.OutputSerializer(merge).data, status=status.HTTP_201_CREATED)


class PlayerMergeListApi(APIView):
    """The merges of the peña's players, newest first; organizers only."""

    OutputSerializer = MergeOutputSerializer

    @extend_schema(operation_id="club_player_merge_list", responses=OutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        merges = selectors.player_merges_for_club(
            user=request.user, club=club_selectors.club_get(club_id=club_id)
        )
        return Response(self.OutputSerializer(merges, many=True).data)


class PlayerMergeDetailApi(APIView):
    """One merge of the peña's players."""

    OutputSerializer = MergeOutputSerializer

    @extend_schema(operation_id="club_player_merge_detail", responses=OutputSerializer)
    def get(self, request: Request, club_id: int, merge_id: int) -> Response:
        merge = selectors.player_merge_get(
            user=request.user, club=club_selectors.club_get(club_id=club_id), merge_id=merge_id
        )
        return Response(self.OutputSerializer(merge).data)


class PlayerMergeUndoApi(APIView):
    """Make the two rows of a merge two players again, exactly as they were."""

    OutputSerializer = MergeOutputSerializer

    @extend_schema(operation_id="club_player_merge_undo", request=None, responses=OutputSerializer)
    def post(self, request: Request, club_id: int, merge_id: int) -> Response:
        merge = selectors.player_merge_get(
            user=request.user, club=club_selectors.club_get(club_id=club_id), merge_id=merge_id
        )
        merge = services.player_merge_undo(actor=request.user, merge=merge)
        return Response(self.OutputSerializer(merge).data)
