"""The API under /api/v1/: mounts each app's api/urls.py.

Holds no endpoint of its own except the health check, which load balancers and CI use.
"""

from django.urls import include, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        status = serializers.CharField()

    @extend_schema(operation_id="health", responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer({"status": "ok"}).data)


app_name = "api"

urlpatterns = [
    path("health", HealthApi.as_view(), name="health"),
    # Each app's module holds whole paths (clubs/…, tournaments/…, rounds/…, matches/…).
    path("", include("clubs.api.urls", namespace="clubs")),
    path("", include("tournaments.api.urls", namespace="tournaments")),
]
