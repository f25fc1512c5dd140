"""What the API modules of this floor share (leagues and leagues of peñas): reading a body
through its input serializer and a jornada's number from a query. Two API modules of one
layer may not import each other, so what they share lives here."""

from __future__ import annotations

from rest_framework.request import Request

from config.errors import Invalid


def jornada_param(value: str | None) -> int | None:
    if value in (None, ""):
        return None
    if not str(value).isdigit() or not 0 < int(value) < 1000:
        raise Invalid(
            "'jornada' is a jornada's number, from 1.", code="jornada_param", value=str(value)[:20]
        )
    return int(value)


def valid_or_400(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
