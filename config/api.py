"""The API under /api/v1/: mounts each floor's API paths.

Holds no endpoint of its own except two that belong to no app: the root (``GET /api/v1/``, the
index a client or a person starts from: the resources, the schema, the docs) and the health
check, which load balancers and CI use.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import authenticate
from django.urls import URLPattern, URLResolver, include, path, re_path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import Invalid
from config.inputs import Input
from config.views import api_not_found
from seasons.championships import api as championships_api
from seasons.circuits import api as circuits_api
from seasons.interpenas import api as interpenas_api
from seasons.leagues import api as leagues_api
from seasons.leagues.teams import api as team_leagues_api
from seasons.ratings import api as ratings_api


class ApiRootApi(APIView):
    """The index of the API: every resource read without an id, the schema and its docs.

    The resources are found in the URL patterns, not listed by hand: every GET endpoint under
    /api/v1/ whose path takes no parameter (``clubs``, ``tournaments``, …). Anything under
    them (``clubs/{club_id}/players``, …) is in the schema.
    """

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        resources = serializers.DictField(
            child=serializers.URLField(),
            help_text="name → absolute URL of each list or read that needs no id",
        )
        schema = serializers.URLField(help_text="the OpenAPI schema")
        docs = serializers.URLField(help_text="the schema as browsable documentation")

        class Meta:
            ref_name = "ApiRootOutput"

    @extend_schema(operation_id="api_root", responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        absolute = request.build_absolute_uri
        data = {
            "resources": {name: absolute(reverse(url_name)) for name, url_name in _resources()},
            "schema": absolute(reverse("schema")),
            "docs": absolute(reverse("swagger-ui")),
        }
        return Response(self.OutputSerializer(data).data)


@cache
def _resources() -> tuple[tuple[str, str], ...]:
    """(name, URL name) of each GET endpoint under /api/v1/ without path parameters."""
    found: list[tuple[str, str]] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                space = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
                walk(entry.url_patterns, prefix + str(entry.pattern), space)
            elif isinstance(entry, URLPattern):
                view = getattr(entry.callback, "view_class", None)
                route = prefix + str(entry.pattern)
                if (
                    route
                    and entry.name
                    and not entry.pattern.converters
                    and view is not None
                    and hasattr(view, "get")
                    and view is not ApiRootApi
                ):
                    found.append((route, f"{namespace}:{entry.name}"))

    walk(urlpatterns, "", app_name)
    return tuple(sorted(found))


class HealthApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        status = serializers.CharField()

    @extend_schema(operation_id="health", responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer({"status": "ok"}).data)


class TokenApi(APIView):
    """A script's API token: POST the user's name and password once, then send
    ``Authorization: Token <token>`` (checking a token is one indexed read; HTTP Basic hashes
    the password on every request). DELETE, with the token, revokes it; the next POST makes a
    new one. Failed attempts count towards the login lock-out (django-axes), as on the site.
    """

    # The session first, as everywhere in the API: without credentials a DELETE is then 403
    # not_authenticated, as documented (the token first made it a 401).
    authentication_classes = [SessionAuthentication, TokenAuthentication]
    permission_classes = [AllowAny]

    class InputSerializer(Input):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

        class Meta:
            ref_name = "ApiTokenOutput"

    @extend_schema(
        operation_id="auth_token_create", request=InputSerializer, responses=OutputSerializer
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request=request._request, **data.validated_data)
        if user is None or not user.is_active:
            raise Invalid("The user name or the password is wrong.", code="credentials_wrong")
        token, _ = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)

    @extend_schema(operation_id="auth_token_delete", request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        Token.objects.filter(user=request.user).delete()
        return Response(status=204)


app_name = "api"

urlpatterns = [
    path("", ApiRootApi.as_view(), name="root"),
    path("health", HealthApi.as_view(), name="health"),
    path("auth/token", TokenApi.as_view(), name="auth-token"),
    # Each area's module holds whole paths (clubs/…, tournaments/…, rounds/…, matches/…),
    # floor by floor. The tournaments' come first: the table links' paths (every phone's read
    # and write) are then found after a dozen patterns instead of ninety (no path belongs to two
    # areas).
    path("", include("tournaments.api.urls", namespace="tournaments")),
    path("", include("clubs.api.urls", namespace="clubs")),
    path("", include((ratings_api.urlpatterns, "ratings"), namespace="ratings")),
    path(
        "",
        include(
            (leagues_api.urlpatterns + team_leagues_api.urlpatterns, "leagues-api"),
            namespace="leagues-api",
        ),
    ),
    path("", include((circuits_api.urlpatterns, "circuits"), namespace="circuits")),
    path("", include((interpenas_api.urlpatterns, "interpenas"), namespace="interpenas")),
    path(
        "",
        include((championships_api.urlpatterns, "championships"), namespace="championships"),
    ),
    # last: any other address under /api/v1/ is the API's JSON 404, with DEBUG on as well
    re_path(r"", api_not_found),
]
