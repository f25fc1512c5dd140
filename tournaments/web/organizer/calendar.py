"""The calendar of a tournament at the desk: when each round is played, the evenings of the
bases, the matches moved or postponed, and the late ones.

Responsible for: the page ``organizador/torneos/<id>/calendario``: the pattern of evenings
("martes y jueves a las 20:00 desde el 6 de octubre": forms.CalendarForm, saved through
tournament_update), every round with its date (its own, or the pattern's evening) and a field
to set or clear its own, the evenings still to come, and the matches with a date agreed by
their pairs, a deadline, or late — each linked to its page, where it is moved, postponed or
decided (matches.py). And the POST that sets a round's date (round_schedule).

Must not: decide when a match is late or what may be decided (tournaments.selectors.calendar
and tournaments.services.calendar do); write rows itself.

Terms: ronda (round), tarde (an evening of play), aplazada (postponed), fecha límite
(deadline).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import error_message
from tournaments.draw.calendar import calendar_clean
from tournaments.selectors.calendar import calendar_of_tournament
from tournaments.services import calendar as calendar_services
from tournaments.services import tournaments as tournament_services
from tournaments.web.names import round_name
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import (
    USER_ERRORS,
    VIA,
    device_of,
    load,
    round_for,
    status_of,
    tournament_for,
)


def _page(request: HttpRequest, tournament_id: int, *, form=None, error: str = "", status=200):
    tournament = tournament_for(request, tournament_id)
    data = load(calendar_of_tournament, user=request.user, tournament_id=tournament.pk)
    if form is None:
        pattern = calendar_clean(tournament.calendar or {})
        form = forms.CalendarForm(
            initial={
                "first": pattern.get("first"),
                "weekdays": pattern.get("weekdays", []),
                "time": pattern.get("time"),
            }
        )
    rounds = [
        {
            "round": row["round"],
            "name": round_name(row["round"], row["round"].phase),
            "phase": row["round"].phase.name,
            "at": row["scheduled_at"],
            "own": row["own"],
            "form": forms.ScheduleForm(
                initial={
                    "scheduled_at": timezone.localtime(row["round"].scheduled_at)
                    if row["round"].scheduled_at
                    else None
                },
                prefix=f"r{row['round'].pk}",
            ),
        }
        for row in data.rounds
    ]
    context = {
        "tournament": tournament,
        "form": form,
        "rounds": rounds,
        "upcoming": data.upcoming,
        "matches": data.matches,
        "error": error,
    }
    return render(request, "organizer/calendar.html", context, status=status)


@login_required
def calendar(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    if request.method != "POST":
        return _page(request, tournament.pk)
    form = forms.CalendarForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament.pk, form=form, status=400)
    try:
        tournament_services.tournament_update(
            tournament=tournament,
            actor=request.user,
            changes={"calendar": form.calendar()},
            via=VIA,
            device=device_of(request),
        )
    except USER_ERRORS as exc:
        return _page(
            request, tournament.pk, form=form, error=error_message(exc), status=status_of(exc)
        )
    messages.success(request, _("Calendario guardado."))
    return redirect("web:organizer-calendar", tournament_id=tournament.pk)


@login_required
@require_POST
def round_schedule(request: HttpRequest, round_id: int):
    rnd = round_for(request, round_id)
    tournament_id = rnd.phase.tournament_id
    form = forms.ScheduleForm(request.POST, prefix=f"r{rnd.pk}")
    if not form.is_valid():
        return _page(request, tournament_id, error=_("Escribe una fecha y una hora."), status=400)
    try:
        calendar_services.round_schedule(
            round=rnd,
            actor=request.user,
            scheduled_at=form.cleaned_data["scheduled_at"],
            via=VIA,
            device=device_of(request),
        )
    except USER_ERRORS as exc:
        return _page(request, tournament_id, error=error_message(exc), status=status_of(exc))
    messages.success(request, _("%(round)s: fecha guardada.") % {"round": round_name(rnd)})
    return redirect("web:organizer-calendar", tournament_id=tournament_id)
