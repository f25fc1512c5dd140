"""The phases of a tournament: adding one, drawing its next round, finishing it, moving on.

Responsible for: the form that adds a phase (its format, rounds, where its pairs come from and
a knockout's length per round), and the desk's POSTs that change a knockout's length per round,
draw a phase's next round, finish a phase, or finish it and draw the first round of the next
one. Errors of those POSTs are shown on the desk.

Must not: hold a rule of pairing or of when a phase may end (tournaments.services.rounds and
tournaments.draw do); write rows itself.

Terms: fase (phase), ronda (round), sorteo (draw), suizo, liguilla, eliminatoria, doble
eliminación, a tres ceros, final.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import error_message
from tournaments import draw_manager
from tournaments.models import Phase
from tournaments.selectors import rounds as round_selectors
from tournaments.services import rounds as round_services
from tournaments.services.lengths import phase_round_lengths_set
from tournaments.web.names import round_name
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, phase_for, status_of, tournament_for
from tournaments.web.organizer.desk import desk_error


@login_required
def phase_create(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    phases = round_selectors.phases_for_tournament(tournament=tournament, user=request.user)
    entries = draw_manager.playing_entries(tournament)
    error, status = "", 200
    if request.method == "POST":
        form = forms.PhaseForm(request.POST, phases=phases, entries=entries)
        if form.is_valid():
            try:
                phase = round_services.phase_create(
                    tournament=tournament, actor=request.user, **form.service_kwargs()
                )
            except USER_ERRORS as exc:
                error, status = error_message(exc), status_of(exc)
            else:
                messages.success(request, _("Fase «%(name)s» añadida.") % {"name": phase.name})
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        initial: dict[str, Any] = {"lives": 3, "grand_final_reset": True}
        if phases:
            # a knockout among every pair: its help says to leave the source empty for that
            # (a source asks for the qualifiers of each group); not "Final", which its rounds
            # would carry ("Cuartos de final de Final")
            initial.update(name=_("Eliminatoria"), format=Phase.Format.SINGLE_ELIMINATION)
        else:
            initial.update(name=_("Suizo"), format=Phase.Format.SWISS, rounds_planned=5)
        form = forms.PhaseForm(phases=phases, entries=entries, initial=initial)
    context = {"tournament": tournament, "form": form, "error": error, "phases": phases}
    return render(request, "organizer/phase_form.html", context, status=status)


@login_required
@require_POST
def round_generate(request: HttpRequest, phase_id: int):
    phase = phase_for(request, phase_id)
    try:
        rnd = round_services.round_draw_generate(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return desk_error(request, phase.tournament_id, exc)
    messages.success(
        request,
        _("Sorteada: %(round)s de %(phase)s. Revísala y publícala cuando esté lista.")
        % {"round": round_name(rnd), "phase": phase.name},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


@login_required
@require_POST
def phase_finish(request: HttpRequest, phase_id: int):
    phase = phase_for(request, phase_id)
    try:
        round_services.phase_finish(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return desk_error(request, phase.tournament_id, exc)
    messages.success(request, _("%(phase)s ha terminado.") % {"phase": phase.name})
    return redirect("web:organizer-tournament", tournament_id=phase.tournament_id)


@login_required
@require_POST
def phase_advance(request: HttpRequest, phase_id: int):
    phase = phase_for(request, phase_id)
    try:
        rnd = round_services.phase_advance(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return desk_error(request, phase.tournament_id, exc)
    messages.success(
        request,
        _("%(phase)s ha terminado. Sorteada: %(round)s de %(next)s.")
        % {"phase": phase.name, "round": round_name(rnd), "next": rnd.phase.name},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


@login_required
@require_POST
def phase_lengths(request: HttpRequest, phase_id: int):
    """A knockout's length per round, changed from the desk (a round already played keeps
    its own: the service refuses, and the desk says which)."""
    phase = phase_for(request, phase_id)
    form = forms.RoundLengthsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Las duraciones son números enteros del 1 al 9."))
        return redirect("web:organizer-tournament", tournament_id=phase.tournament_id)
    try:
        phase_round_lengths_set(phase=phase, actor=request.user, round_lengths=form.round_lengths())
    except USER_ERRORS as exc:
        return desk_error(request, phase.tournament_id, exc)
    messages.success(
        request, _("Duración por ronda de %(phase)s guardada.") % {"phase": phase.name}
    )
    return redirect("web:organizer-tournament", tournament_id=phase.tournament_id)
