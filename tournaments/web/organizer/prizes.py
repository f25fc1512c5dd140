"""The prizes of a tournament's bases: the list, adding one in the organizer's words, removing
one, and the winners once the tournament finished.

Responsible for: the page ``organizador/torneos/<id>/premios``: the prizes declared, each in
words (tournaments.web.bases), the form that adds one (forms.PrizeForm: "la que menos partidas
gane", phases "1-2", "si sigue el empate, se reparte"), a button that removes one, and after
the end the prizes awarded. Every change sends the whole list to tournament_update, which
checks it (tournaments.draw.prizes names a wrong prize) and, for a finished tournament,
awards the prizes again.

Must not: decide who wins a prize or check one (the services and tournaments.draw.prizes do);
write rows itself.

Terms: premio (prize), fase (phase), grupo (group), empate (tie), sorteo (lots).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import error_message
from tournaments.models import Tournament
from tournaments.services import tournaments as tournament_services
from tournaments.web.bases import award_in_words, prize_in_words
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import (
    USER_ERRORS,
    VIA,
    device_of,
    status_of,
    tournament_for,
)


def _context(tournament: Tournament, form: forms.PrizeForm, error: str = "") -> dict:
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "tournament": tournament,
        "prizes": [
            {"index": n, "name": p["name"], "words": prize_in_words(p)}
            for n, p in enumerate(tournament.prizes or [])
        ],
        "awards": [award_in_words(a) for a in tournament.prize_awards or []] if finished else [],
        "form": form,
        "error": error,
    }


@login_required
def prizes(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    error, status = "", 200
    if request.method == "POST":
        form = forms.PrizeForm(request.POST)
        if form.is_valid():
            try:
                tournament_services.tournament_update(
                    tournament=tournament,
                    actor=request.user,
                    changes={"prizes": [*(tournament.prizes or []), form.prize()]},
                    via=VIA,
                    device=device_of(request),
                )
            except USER_ERRORS as exc:
                error, status = error_message(exc), status_of(exc)
            else:
                messages.success(
                    request, _("Premio «%(name)s» añadido.") % {"name": form.prize()["name"]}
                )
                return redirect("web:organizer-prizes", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        form = forms.PrizeForm()
    context = _context(tournament, form, error)
    return render(request, "organizer/prizes.html", context, status=status)


@login_required
@require_POST
def prize_delete(request: HttpRequest, tournament_id: int, index: int):
    tournament = tournament_for(request, tournament_id)
    declared = list(tournament.prizes or [])
    if not 0 <= index < len(declared):
        raise Http404(_("Ese premio ya no existe."))
    removed = declared.pop(index)
    try:
        tournament_services.tournament_update(
            tournament=tournament,
            actor=request.user,
            changes={"prizes": declared},
            via=VIA,
            device=device_of(request),
        )
    except USER_ERRORS as exc:
        context = _context(tournament, forms.PrizeForm(), error_message(exc))
        return render(request, "organizer/prizes.html", context, status=status_of(exc))
    messages.success(request, _("Premio «%(name)s» quitado.") % {"name": removed["name"]})
    return redirect("web:organizer-prizes", tournament_id=tournament.pk)
