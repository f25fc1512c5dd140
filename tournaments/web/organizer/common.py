"""What every page of the organizer's desk shares: loading what the URL names, and the errors.

Responsible for: loading the tournament, phase, round or partida a URL names through the
selectors that check access (a NotFound becomes a 404 page, a Forbidden a 403: somebody who
does not organize the tournament's peña gets 404 for a tournament they cannot see and 403 for a
published one, as in the API); which errors a person can act on (shown on the page that holds
the form, with the HTTP status the error carries) and which are bugs (a 500); what the services
record as "via" and as the device for a write made from these pages.

Must not: decide who may do what (the selectors and services do; this only turns their answer
into a page); render a page or an error message.

Terms: peña, fase (phase), ronda (round), partida (a Match).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from config.errors import DomainError, Forbidden, NotFound
from scoring.errors import ScoringError
from scoring.standings import StandingsError
from tournaments.draw import DrawError
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.selectors import results as result_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.tournaments import (
    tournament_check_organizer,
    tournament_get_for_organizer,
)
from tournaments.services import results as result_services

#: What the services record as "via" for a write made from these pages (a signed-in account).
VIA = result_services.ACCOUNT

#: Errors a person can act on; anything else is a bug and stays a 500.
USER_ERRORS = (DomainError, ScoringError, DrawError, StandingsError)


def status_of(exc: Exception) -> int:
    """The HTTP status of the page that shows a person's error (a DomainError carries one)."""
    return getattr(exc, "status", 400)


def device_of(request: HttpRequest) -> str:
    """The device recorded with a write: the browser's user agent, cut short."""
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def load(loader: Callable[..., Any], **kwargs: Any) -> Any:
    """Run a selector that checks access; its NotFound is a 404 page, its Forbidden a 403."""
    try:
        return loader(**kwargs)
    except NotFound as exc:
        raise Http404(exc.message) from None
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None


def tournament_for(request: HttpRequest, tournament_id: int) -> Tournament:
    return load(tournament_get_for_organizer, user=request.user, tournament_id=tournament_id)


def check_organizer(request: HttpRequest, tournament: Tournament) -> None:
    load(tournament_check_organizer, user=request.user, tournament=tournament)


def phase_for(request: HttpRequest, phase_id: int) -> Phase:
    phase = load(round_selectors.phase_get, phase_id=phase_id)
    check_organizer(request, phase.tournament)
    return phase


def round_for(request: HttpRequest, round_id: int) -> Round:
    rnd = load(round_selectors.round_get, round_id=round_id)
    check_organizer(request, rnd.phase.tournament)
    return rnd


def match_for(request: HttpRequest, match_id: int) -> Match:
    return load(result_selectors.match_for_organizer, match_id=match_id, user=request.user)
