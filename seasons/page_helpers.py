"""What the pages of this floor share (leagues, leagues of peñas, circuits, interpeñas, ratings):
reading a form's or a query's values and showing a domain error as the site's error page. Two
page modules of one layer may not import each other, so what they share lives here."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest, HttpResponse

from clubs.models import Club
from config.errors import DomainError, Invalid, NotFound
from config.views import error_response


def guard(view):
    """A domain error outside a form (a private league, a jornada that is not there) is the
    site's error page."""

    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as exc:
            return error_response(request, exc)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def upto_param(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and 0 < int(value) < 1000 else None


def club_or_404(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound("There is no peña '{slug}'.", code="club_slug_not_found", slug=slug[:80])
    return club


def dates_from(text: str) -> list:
    out = []
    for line in (text or "").split():
        try:
            out.append(dt.date.fromisoformat(line))
        except ValueError:
            out.append(line)  # the service names it
    return out


def int_or_text(value: str | None, default: int = 0) -> int | str:
    value = (value or "").strip()
    if not value:
        return default
    return int(value) if value.lstrip("-").isdigit() else value


def int_list(text: str, field: str) -> list[int]:
    """Whole numbers separated by commas (or semicolons) in a form's field."""
    try:
        return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise Invalid(
            "'{field}' is a list of whole numbers separated by commas.",
            code="circuit_numbers",
            field=field,
        ) from None
