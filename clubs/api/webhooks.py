"""API of a peña's webhooks and their delivery log (organizers of the peña only).

Responsible for: the HTTP edge of clubs.webhooks (selectors and services). Paths (under
/api/v1/):

- GET  clubs/<id>/webhooks                              the peña's webhooks (no secrets)
- POST clubs/<id>/webhooks/create                       register one: its secret, once
- POST clubs/<id>/webhooks/<webhook_id>/delete          remove one and its log
- GET  clubs/<id>/webhooks/<webhook_id>/deliveries      its delivery log, newest first
- POST clubs/<id>/webhook-deliveries/<id>/redeliver     send a delivery again

Must not: check roles or hold a rule (the selectors and services do).

Terms: peña (club), webhook, entrega (delivery).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Webhook, WebhookDelivery
from clubs.selectors import club_get
from clubs.webhooks import selectors, services
from config.inputs import Input


class WebhookOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.CharField())
    is_active = serializers.BooleanField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ClubWebhook"


class DeliveryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    webhook_id = serializers.IntegerField()
    event = serializers.CharField()
    event_id = serializers.CharField()
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(
        allow_null=True, help_text="the receiver's last HTTP status; null: no answer"
    )
    last_error = serializers.CharField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ClubWebhookDelivery"


class WebhookListApi(APIView):
    @extend_schema(
        operation_id="club_webhook_list",
        responses=WebhookOutputSerializer(many=True),
        summary="The peña's webhooks (organizers)",
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = club_get(club_id=club_id)
        hooks = selectors.webhooks_for_club(user=request.user, club=club)
        return Response(WebhookOutputSerializer(hooks, many=True).data)


class WebhookCreateApi(APIView):
    class InputSerializer(Input):
        url = serializers.CharField(max_length=2000)
        events = serializers.ListField(
            child=serializers.CharField(max_length=40),
            required=False,
            max_length=10,
            help_text="of " + ", ".join(Webhook.Event.values) + "; all when left out",
        )

        class Meta:
            ref_name = "ClubWebhookCreateInput"

    class OutputSerializer(WebhookOutputSerializer):
        secret = serializers.CharField(
            help_text="the key of the deliveries' HMAC-SHA256 signature; shown only here"
        )

        class Meta:
            ref_name = "ClubWebhookCreated"

    @extend_schema(
        operation_id="club_webhook_create",
        request=InputSerializer,
        responses={201: OutputSerializer},
        summary="Register a webhook for the peña's events (organizers)",
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = club_get(club_id=club_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hook = services.webhook_create(user=request.user, club=club, **data.validated_data)
        return Response(self.OutputSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDeleteApi(APIView):
    @extend_schema(
        operation_id="club_webhook_delete",
        request=None,
        responses={204: None},
        summary="Remove a webhook and its delivery log (organizers)",
    )
    def post(self, request: Request, club_id: int, webhook_id: int) -> Response:
        club = club_get(club_id=club_id)
        hook = selectors.webhook_get(user=request.user, club=club, webhook_id=webhook_id)
        services.webhook_delete(user=request.user, webhook=hook)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveryListApi(APIView):
    @extend_schema(
        operation_id="club_webhook_deliveries",
        responses=DeliveryOutputSerializer(many=True),
        summary="A webhook's delivery log, newest first (organizers)",
    )
    def get(self, request: Request, club_id: int, webhook_id: int) -> Response:
        club = club_get(club_id=club_id)
        hook = selectors.webhook_get(user=request.user, club=club, webhook_id=webhook_id)
        rows = selectors.deliveries_for_club(user=request.user, club=club, webhook=hook)
        return Response(DeliveryOutputSerializer(rows, many=True).data)


class WebhookRedeliverApi(APIView):
    @extend_schema(
        operation_id="club_webhook_redeliver",
        request=None,
        responses=DeliveryOutputSerializer,
        summary="Send a webhook delivery again, now (organizers)",
    )
    def post(self, request: Request, club_id: int, delivery_id: int) -> Response:
        club = club_get(club_id=club_id)
        delivery = selectors.delivery_get(user=request.user, club=club, delivery_id=delivery_id)
        services.webhook_redeliver(user=request.user, delivery=delivery)
        delivery = selectors.delivery_get(user=request.user, club=club, delivery_id=delivery_id)
        return Response(DeliveryOutputSerializer(delivery).data)
