"""API of peñas, their members and roles, and the logged-in user (``me``).

Responsible for: turning requests into calls of clubs.services (writes) and clubs.selectors
(reads), and their results into JSON. Like the rest of /api/v1/, reads are GET on a noun path
and each write is one view, POST on its own action path (``clubs/create``,
``clubs/<id>/update``), with nested InputSerializer/OutputSerializer.

Must not: check roles or hold a rule (services and selectors do, through clubs.roles), or
build an error body (config.errors does).

Terms: peña (club); roles: owner (propietario), organizer (organizador), member (socio).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.api.outputs import ClubMemberOutputSerializer, ClubOutputSerializer
from config.inputs import Input

ROLES = "owner, organizer or member"


class ClubListApi(APIView):
    """Every peña (public), optionally searched, or only the user's own (``mine``)."""

    OutputSerializer = ClubOutputSerializer

    @extend_schema(
        operation_id="club_list",
        parameters=[
            OpenApiParameter("q", str, description="words of the name, town or region"),
            OpenApiParameter("mine", bool, description="only the peñas the user belongs to"),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        clubs = selectors.club_list(
            search=request.query_params.get("q", ""),
            user=request.user,
            mine=request.query_params.get("mine", "").lower() in ("1", "true", "yes"),
        )
        return Response(self.OutputSerializer(clubs, many=True).data)


class ClubCreateApi(APIView):
    """Create a peña; its creator becomes its owner. Without a slug one is made from the name."""

    OutputSerializer = ClubOutputSerializer

    class InputSerializer(Input):
        name = serializers.CharField(allow_blank=True)
        slug = serializers.CharField(required=False, allow_blank=True)
        town = serializers.CharField(required=False, allow_blank=True)
        region = serializers.CharField(required=False, allow_blank=True)
        contact_email = serializers.CharField(required=False, allow_blank=True)
        contact_phone = serializers.CharField(required=False, allow_blank=True)
        language = serializers.CharField(
            required=False, help_text="the language of its e-mails: es, en, eu or fr"
        )

        class Meta:
            ref_name = "ClubCreateInput"

    @extend_schema(
        operation_id="club_create", request=InputSerializer, responses={201: OutputSerializer}
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(user=request.user, **data.validated_data)
        return Response(self.OutputSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    """One peña (public)."""

    OutputSerializer = ClubOutputSerializer

    @extend_schema(operation_id="club_detail", responses=OutputSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        return Response(self.OutputSerializer(selectors.club_get(club_id=club_id)).data)


class ClubUpdateApi(APIView):
    """Change the fields sent of a peña; owners and organizers."""

    OutputSerializer = ClubOutputSerializer

    class InputSerializer(Input):
        name = serializers.CharField(required=False, allow_blank=True)
        slug = serializers.CharField(required=False, allow_blank=True)
        town = serializers.CharField(required=False, allow_blank=True)
        region = serializers.CharField(required=False, allow_blank=True)
        contact_email = serializers.CharField(required=False, allow_blank=True)
        contact_phone = serializers.CharField(required=False, allow_blank=True)
        language = serializers.CharField(
            required=False, help_text="the language of its e-mails: es, en, eu or fr"
        )

        class Meta:
            ref_name = "ClubUpdateInput"

    @extend_schema(operation_id="club_update", request=InputSerializer, responses=OutputSerializer)
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_update(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            data=data.validated_data,
        )
        return Response(self.OutputSerializer(club).data)


class ClubDefaultPresetSetApi(APIView):
    """Set the rules the peña's new tournaments start from (null: none)."""

    OutputSerializer = ClubOutputSerializer

    class InputSerializer(Input):
        preset_id = serializers.IntegerField(allow_null=True)

        class Meta:
            ref_name = "ClubDefaultPresetInput"

    @extend_schema(
        operation_id="club_default_preset_set",
        request=InputSerializer,
        responses=OutputSerializer,
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_default_preset_set(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            preset_id=data.validated_data["preset_id"],
        )
        return Response(self.OutputSerializer(club).data)


class MemberListApi(APIView):
    """The peña's members, owners first; seen by its members only."""

    OutputSerializer = ClubMemberOutputSerializer

    @extend_schema(operation_id="club_member_list", responses=OutputSerializer(many=True))
    def get(self, request: Request, club_id: int) -> Response:
        club = selectors.club_get(club_id=club_id)
        members = selectors.members_for_club(user=request.user, club=club)
        return Response(self.OutputSerializer(members, many=True).data)


class MemberAddApi(APIView):
    """Make an existing user a member of the peña with a role; owners only."""

    OutputSerializer = ClubMemberOutputSerializer

    class InputSerializer(Input):
        username = serializers.CharField()
        role = serializers.CharField(required=False, default="member", help_text=ROLES)

        class Meta:
            ref_name = "ClubMemberAddInput"

    @extend_schema(
        operation_id="club_member_add", request=InputSerializer, responses={201: OutputSerializer}
    )
    def post(self, request: Request, club_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_add(
            user=request.user, club=selectors.club_get(club_id=club_id), **data.validated_data
        )
        return Response(self.OutputSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberRoleChangeApi(APIView):
    """Change a member's role; owners only. The last owner cannot be demoted."""

    OutputSerializer = ClubMemberOutputSerializer

    class InputSerializer(Input):
        role = serializers.CharField(help_text=ROLES)

        class Meta:
            ref_name = "ClubMemberRoleInput"

    @extend_schema(
        operation_id="club_member_role_change",
        request=InputSerializer,
        responses=OutputSerializer,
    )
    def post(self, request: Request, club_id: int, user_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_role_change(
            user=request.user,
            club=selectors.club_get(club_id=club_id),
            member_id=user_id,
            role=data.validated_data["role"],
        )
        return Response(self.OutputSerializer(membership).data)


class MemberRemoveApi(APIView):
    """Remove a member (owners), or leave the peña (anyone, for themselves); never the last
    owner."""

    @extend_schema(operation_id="club_member_remove", request=None, responses={204: None})
    def post(self, request: Request, club_id: int, user_id: int) -> Response:
        services.membership_remove(
            user=request.user, club=selectors.club_get(club_id=club_id), member_id=user_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    """The logged-in user and the peñas they belong to, with their role in each."""

    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer):
        class MembershipSerializer(serializers.Serializer):
            club = ClubOutputSerializer()
            role = serializers.CharField()

            class Meta:
                ref_name = "ClubMeMembership"

        id = serializers.IntegerField()
        username = serializers.CharField()
        first_name = serializers.CharField()
        last_name = serializers.CharField()
        email = serializers.CharField()
        memberships = MembershipSerializer(many=True)

        class Meta:
            ref_name = "ClubMeOutput"

    @extend_schema(operation_id="me", responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        user = request.user
        me = {
            "id": user.pk,
            "username": user.get_username(),
            "first_name": getattr(user, "first_name", ""),
            "last_name": getattr(user, "last_name", ""),
            "email": getattr(user, "email", ""),
            "memberships": selectors.memberships_for_user(user=user),
        }
        return Response(self.OutputSerializer(me).data)
