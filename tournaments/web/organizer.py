"""Pages of the organizer's desk: a tournament from its creation to its last round.

Responsible for: the HTML pages an organizer works with, on a laptop or a phone — the list of
the peñas they organize and their tournaments, creating a tournament from a preset, the desk
of one tournament (its status and the next step), registering pairs (one by one or a pasted
list) and checking them in, phases, drawing, adjusting, publishing and printing a round (the
pairings and one sheet per mesa with the QR code of its link), the live board of a round, and
one partida's page where disputes are resolved, results corrected and no-shows and lateness
recorded, with the audit trail in view.

Each view loads what it shows through the selectors, sends a POST to the same service the API
calls, and redirects after it succeeds (POST/redirect/GET). A domain error (config.errors,
scoring.ScoringError, tournaments.draw.DrawError) is shown on the page that holds the form, in
a clear box, with what the person typed kept. Permissions are the services' and the selectors':
somebody who does not organize the tournament's peña gets 404 for a tournament they cannot see
and 403 for a published one, as in the API.

Must not: hold a rule of Mus, of pairing or of who may do what; write rows itself; build an
error message from a service's English text other than through ``error_text``.

Terms: peña, pareja (pair; an Entry in a tournament), cabeza de serie (seed), fase (phase),
ronda (round), mesa (table), partida (a Match), suizo, liguilla, eliminatoria, a tres ceros,
descanso (bye), juego, vaca, piedras, disputa (two different versions of a result).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import Club
from clubs.roles import clubs_organized_by, require_organizer
from config.errors import Conflict, DomainError, Forbidden, NotFound
from scoring.errors import ScoringError
from scoring.standings import StandingsError
from tournaments.draw import DrawError
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors import results as result_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.registration import entry_list
from tournaments.selectors.tournaments import (
    preset_default_for_club,
    tournament_check_organizer,
    tournament_detail,
    tournament_get_for_organizer,
    tournament_list,
)
from tournaments.services import registration as registration_services
from tournaments.services import results as result_services
from tournaments.services import rounds as round_services
from tournaments.services import tournaments as tournament_services
from tournaments.web import organizer_forms as forms
from tournaments.web.error_text import error_text

#: What the services record as "via" for a write made from these pages (a signed-in account).
VIA = result_services.ACCOUNT

#: Errors a person can act on; anything else is a bug and stays a 500.
USER_ERRORS = (DomainError, ScoringError, DrawError, StandingsError)

#: How often the board reloads itself, in seconds.
BOARD_REFRESH = 15


# --- Plumbing ---------------------------------------------------------------------------------


def _status_of(exc: Exception) -> int:
    return getattr(exc, "status", 400)


def _device(request: HttpRequest) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _load(loader: Callable[..., Any], **kwargs: Any) -> Any:
    """Run a selector that checks access; its NotFound is a 404 page, its Forbidden a 403."""
    try:
        return loader(**kwargs)
    except NotFound as exc:
        raise Http404(exc.message) from None
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None


def _tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    return _load(tournament_get_for_organizer, user=request.user, tournament_id=tournament_id)


def _check(request: HttpRequest, tournament: Tournament) -> None:
    _load(tournament_check_organizer, user=request.user, tournament=tournament)


def _phase(request: HttpRequest, phase_id: int) -> Phase:
    phase = _load(round_selectors.phase_get, phase_id=phase_id)
    _check(request, phase.tournament)
    return phase


def _round(request: HttpRequest, round_id: int) -> Round:
    rnd = _load(round_selectors.round_get, round_id=round_id)
    _check(request, rnd.phase.tournament)
    return rnd


def _match(request: HttpRequest, match_id: int) -> Match:
    return _load(result_selectors.match_for_organizer, match_id=match_id, user=request.user)


def _table_url(request: HttpRequest, match: Match) -> str:
    return request.build_absolute_uri(reverse("web:table", args=[match.token]))


# --- Home: my peñas and their tournaments -----------------------------------------------------


@login_required
def home(request: HttpRequest, *, club_form=None, error: str = "", status: int = 200):
    clubs = list(clubs_organized_by(request.user).order_by("name", "pk"))
    by_club: dict[int, list[Tournament]] = {club.pk: [] for club in clubs}
    for tournament in tournament_list(user=request.user).filter(club__in=clubs):
        by_club[tournament.club_id].append(tournament)
    context = {
        "clubs": [(club, by_club[club.pk]) for club in clubs],
        "club_form": club_form or forms.ClubCreateForm(),
        "error": error,
    }
    return render(request, "organizer/home.html", context, status=status)


@login_required
@require_POST
def club_create(request: HttpRequest):
    form = forms.ClubCreateForm(request.POST)
    if not form.is_valid():
        return home(request, club_form=form, status=400)
    try:
        club = club_services.club_create(user=request.user, **form.cleaned_data)
    except USER_ERRORS as exc:
        return home(request, club_form=form, error=error_text(exc), status=_status_of(exc))
    messages.success(request, _("Peña «%(name)s» creada.") % {"name": club.name})
    return redirect("web:organizer-home")


# --- Tournament: create, desk, edit, status ---------------------------------------------------


def _club_for_organizer(request: HttpRequest, club_slug: str) -> Club:
    """The peña by its short name (public), once the user is known to organize it."""
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise Http404(_("No existe esa peña."))
    _load(require_organizer, user=request.user, club=club)
    return club


@login_required
def tournament_create(request: HttpRequest, club_slug: str):
    club = _club_for_organizer(request, club_slug)
    presets = list(club_selectors.presets_for_club(club=club))
    error, status = "", 200
    if request.method == "POST":
        form = forms.TournamentForm(request.POST, presets=presets)
        if form.is_valid():
            try:
                tournament = tournament_services.tournament_create(
                    club_slug=club.slug,
                    actor=request.user,
                    via=VIA,
                    device=_device(request),
                    **form.cleaned_data,
                )
            except USER_ERRORS as exc:
                error, status = error_text(exc), _status_of(exc)
            else:
                messages.success(request, _("Torneo creado. Ahora inscribe las parejas."))
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        default = preset_default_for_club(club=club)
        form = forms.TournamentForm(
            presets=presets,
            initial={"preset": default.name if default else None, "tables_available": 0},
        )
    context = {"club": club, "form": form, "error": error}
    return render(request, "organizer/tournament_form.html", context, status=status)


@login_required
def tournament_edit(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    presets = list(club_selectors.presets_for_club(club=tournament.club))
    error, status = "", 200
    if request.method == "POST":
        form = forms.TournamentForm(request.POST, presets=presets, editing=True)
        if form.is_valid():
            changes = form.changes()
            try:
                tournament_services.tournament_update(
                    tournament_id=tournament.pk,
                    actor=request.user,
                    changes=changes,
                    via=VIA,
                    device=_device(request),
                )
            except USER_ERRORS as exc:
                error, status = error_text(exc), _status_of(exc)
            else:
                messages.success(request, _("Datos del torneo guardados."))
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        form = forms.TournamentForm(
            presets=presets,
            editing=True,
            initial={
                "preset": tournament.preset_name,
                "name": tournament.name,
                "starts_on": tournament.starts_on,
                "venue": tournament.venue,
                "tables_available": tournament.tables_available,
                "max_pairs": tournament.max_pairs,
                "late_minutes_per_game": tournament.late_minutes_per_game,
                "is_public": tournament.is_public,
            },
        )
    context = {"club": tournament.club, "tournament": tournament, "form": form, "error": error}
    return render(request, "organizer/tournament_form.html", context, status=status)


# Two small reads only the desk needs and no selector gives (counts for display, no rule).


def _round_progress(tournament: Tournament) -> dict[int, dict[str, int]]:
    """Per round of the tournament: its partidas, confirmed ones and disputes (one query)."""
    rows = (
        Match.objects.filter(round__phase__tournament=tournament)
        .values("round_id")
        .annotate(
            total=Count("id"),
            confirmed=Count("id", filter=Q(status=Match.Status.CONFIRMED)),
            disputed=Count("id", filter=Q(status=Match.Status.DISPUTED)),
        )
    )
    return {row["round_id"]: row for row in rows}


def _next_step(
    tournament: Tournament, phases: list[Phase], progress: dict[int, dict[str, int]]
) -> dict[str, Any]:
    """What the desk suggests doing now: a sentence and one button (a link or a POST).

    Only a suggestion: the services decide what is allowed, and say why when it is not.
    """
    desk = {"tournament_id": tournament.pk}
    status_url = reverse("web:organizer-tournament-status", kwargs=desk)
    if tournament.status == Tournament.Status.FINISHED:
        return {"text": _("El torneo ha terminado. ¡Enhorabuena a los campeones!")}
    if tournament.status == Tournament.Status.DRAFT:
        return {
            "text": _(
                "El torneo está en borrador: solo lo ven sus organizadores. Abre la inscripción "
                "para publicarlo."
            ),
            "label": _("Abrir la inscripción"),
            "post": status_url,
            "fields": {"status": Tournament.Status.REGISTRATION},
        }
    if tournament.registered_count < 2:
        return {
            "text": _("Inscribe las parejas: una a una o pegando la lista."),
            "label": _("Inscribir parejas"),
            "url": reverse("web:organizer-entries", kwargs=desk),
        }
    if not phases:
        return {
            "text": _("Añade la primera fase: suizo, liguilla, eliminatoria…"),
            "label": _("Añadir una fase"),
            "url": reverse("web:organizer-phase-create", kwargs=desk),
        }
    current = next((p for p in phases if p.status != Phase.Status.FINISHED), None)
    if current is None:
        return {
            "text": _("Todas las fases han terminado. Da el torneo por terminado."),
            "label": _("Terminar el torneo"),
            "post": status_url,
            "fields": {"status": Tournament.Status.FINISHED},
        }
    rounds = current.visible_rounds
    generate = {
        "post": reverse("web:organizer-round-generate", kwargs={"phase_id": current.pk}),
    }
    if not rounds:
        if tournament.status == Tournament.Status.REGISTRATION:
            return {
                "text": _(
                    "Pasa lista a las parejas y empieza el torneo: la inscripción se cierra."
                ),
                "label": _("Empezar el torneo"),
                "post": status_url,
                "fields": {"status": Tournament.Status.RUNNING},
                "also": {
                    "label": _("Pasar lista"),
                    "url": reverse("web:organizer-entries", kwargs=desk),
                },
            }
        return {
            **generate,
            "text": _("Sortea la primera ronda de %(phase)s.") % {"phase": current.name},
            "label": _("Sortear la ronda 1"),
        }
    last = rounds[-1]
    round_kw = {"round_id": last.pk}
    if last.status == Round.Status.DRAFT:
        return {
            "text": _("La ronda %(n)s está sorteada: revísala y publícala.") % {"n": last.number},
            "label": _("Revisar y publicar"),
            "url": reverse("web:organizer-round", kwargs=round_kw),
        }
    done = progress.get(last.pk, {})
    if last.status == Round.Status.PUBLISHED:
        if done and done["confirmed"] == done["total"]:
            return {
                "text": _("Todas las mesas de la ronda %(n)s tienen resultado.")
                % {"n": last.number},
                "label": _("Cerrar la ronda %(n)s") % {"n": last.number},
                "post": reverse("web:organizer-round-close", kwargs=round_kw),
            }
        return {
            "text": _("La ronda %(n)s está en juego: sigue los resultados mesa a mesa.")
            % {"n": last.number},
            "label": _("Ver el tablero"),
            "url": reverse("web:organizer-round-board", kwargs=round_kw),
        }
    planned = current.rounds_planned
    counted = current.format in (Phase.Format.SWISS, Phase.Format.ROUND_ROBIN)
    following = [p for p in phases if p.order > current.order]
    if (counted and planned and len(rounds) >= planned) or (
        current.format in round_selectors.ELIMINATION_FORMATS
    ):
        if following:
            return {
                "text": _("%(phase)s ha jugado todas sus rondas. Pasa a %(next)s.")
                % {"phase": current.name, "next": following[0].name},
                "label": _("Pasar a %(next)s") % {"next": following[0].name},
                "post": reverse("web:organizer-phase-advance", kwargs={"phase_id": current.pk}),
            }
        return {
            "text": _("%(phase)s ha jugado todas sus rondas.") % {"phase": current.name},
            "label": _("Terminar %(phase)s") % {"phase": current.name},
            "post": reverse("web:organizer-phase-finish", kwargs={"phase_id": current.pk}),
        }
    return {
        **generate,
        "text": _("La ronda %(n)s está cerrada. Sortea la siguiente.") % {"n": last.number},
        "label": _("Sortear la ronda %(n)s") % {"n": last.number + 1},
    }


def _desk_context(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    tournament = _load(tournament_detail, user=request.user, tournament_id=tournament_id)
    phases = round_selectors.phases_for_tournament(tournament=tournament, user=request.user)
    progress = _round_progress(tournament)
    for phase in phases:
        for rnd in phase.visible_rounds:
            rnd.progress = progress.get(rnd.pk, {"total": 0, "confirmed": 0, "disputed": 0})
        phase.has_next = any(p.order > phase.order for p in phases)
    checked_in = Entry.objects.filter(tournament=tournament, status=Entry.Status.CHECKED_IN).count()
    return {
        "tournament": tournament,
        "phases": phases,
        "checked_in": checked_in,
        "next_step": _next_step(tournament, phases, progress),
    }


@login_required
def tournament_desk(request: HttpRequest, tournament_id: int, *, error: str = "", status=200):
    _tournament(request, tournament_id)
    context = _desk_context(request, tournament_id)
    context["error"] = error
    return render(request, "organizer/desk.html", context, status=status)


def _desk_error(request: HttpRequest, tournament_id: int, exc: Exception) -> HttpResponse:
    return tournament_desk(request, tournament_id, error=error_text(exc), status=_status_of(exc))


STATUS_DONE = {
    Tournament.Status.REGISTRATION: gettext_lazy("Inscripción abierta: el torneo ya es visible."),
    Tournament.Status.RUNNING: gettext_lazy("El torneo ha empezado: la inscripción está cerrada."),
    Tournament.Status.FINISHED: gettext_lazy("Torneo terminado."),
}


@login_required
@require_POST
def tournament_status(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    try:
        tournament = tournament_services.tournament_status_change(
            tournament_id=tournament.pk,
            actor=request.user,
            status=request.POST.get("status", ""),
            via=VIA,
            device=_device(request),
        )
    except USER_ERRORS as exc:
        return _desk_error(request, tournament.pk, exc)
    if tournament.status in STATUS_DONE:
        messages.success(request, STATUS_DONE[tournament.status])
    return redirect("web:organizer-tournament", tournament_id=tournament.pk)


# --- Registration: entries, check-in, seeds ---------------------------------------------------


@login_required
def entries(
    request: HttpRequest,
    tournament_id: int,
    *,
    add_form=None,
    paste_form=None,
    entry_forms: dict | None = None,
    error: str = "",
    status: int = 200,
):
    tournament = _tournament(request, tournament_id)
    players = club_selectors.players_for_club(user=request.user, club=tournament.club)
    rows = entry_list(tournament=tournament)
    entry_forms = entry_forms or {}
    for entry in rows:
        entry.seed_form = entry_forms.get(("seed", entry.pk)) or forms.SeedForm(
            initial={"seed": entry.seed}, prefix=f"seed{entry.pk}"
        )
        entry.pin_form = entry_forms.get(("pin", entry.pk)) or forms.PinForm(
            initial={"table": entry.pinned_table}, prefix=f"pin{entry.pk}"
        )
        entry.open = any(key[1] == entry.pk for key in entry_forms)
    counts = Counter(entry.status for entry in rows)
    context = {
        "tournament": tournament,
        "entries": rows,
        "counts": {
            "registered": counts[Entry.Status.REGISTERED] + counts[Entry.Status.CHECKED_IN],
            "checked_in": counts[Entry.Status.CHECKED_IN],
            "waiting": counts[Entry.Status.WAITING],
            "withdrawn": counts[Entry.Status.WITHDRAWN],
        },
        "add_form": add_form or forms.EntryAddForm(players=players),
        "paste_form": paste_form or forms.EntriesPasteForm(),
        "error": error,
    }
    return render(request, "organizer/entries.html", context, status=status)


def _entries_url(tournament_id: int, entry_id: int | None = None) -> str:
    url = reverse("web:organizer-entries", kwargs={"tournament_id": tournament_id})
    return f"{url}#e{entry_id}" if entry_id else url


def _registered_text(registered: list[Entry]) -> str:
    waiting = sum(1 for e in registered if e.status == Entry.Status.WAITING)
    text = _("%(n)s pareja(s) inscrita(s).") % {"n": len(registered) - waiting}
    if waiting:
        text += " " + _("%(n)s en lista de espera.") % {"n": waiting}
    return text


@login_required
@require_POST
def entry_add(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    players = club_selectors.players_for_club(user=request.user, club=tournament.club)
    form = forms.EntryAddForm(request.POST, players=players)
    if not form.is_valid():
        return entries(request, tournament.pk, add_form=form, status=400)
    data = form.cleaned_data
    common = {"tournament_id": tournament.pk, "actor": request.user, "via": VIA}
    try:
        if data["names"]:
            registered = registration_services.entry_register_pasted(
                text=data["names"], device=_device(request), **common
            )
        else:
            try:
                pair = club_services.pair_create(
                    user=request.user,
                    club=tournament.club,
                    player_one_id=data["player_one"],
                    player_two_id=data["player_two"],
                )
                pair_id = pair.pk
            except Conflict as exc:
                if exc.code != "pair_exists":
                    raise
                pair_id = exc.params["pair_id"]  # the two already are a pair: register it
            registered = [
                registration_services.entry_register(
                    pair_id=pair_id, device=_device(request), **common
                )
            ]
    except USER_ERRORS as exc:
        return entries(
            request, tournament.pk, add_form=form, error=error_text(exc), status=_status_of(exc)
        )
    messages.success(request, _registered_text(registered))
    return redirect(_entries_url(tournament.pk))


@login_required
@require_POST
def entries_paste(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    form = forms.EntriesPasteForm(request.POST)
    if not form.is_valid():
        return entries(request, tournament.pk, paste_form=form, status=400)
    try:
        registered = registration_services.entry_register_pasted(
            tournament_id=tournament.pk,
            text=form.cleaned_data["text"],
            actor=request.user,
            via=VIA,
            device=_device(request),
        )
    except USER_ERRORS as exc:
        return entries(
            request,
            tournament.pk,
            paste_form=form,
            error=error_text(exc),
            status=_status_of(exc),
        )
    messages.success(request, _registered_text(registered))
    return redirect(_entries_url(tournament.pk))


def _entry_action(service: Callable[..., Any]) -> Callable[..., HttpResponse]:
    """A one-tap POST on one entry (check in, undo, withdraw): back to the list at that row."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, entry_id: int):
        tournament = _tournament(request, tournament_id)
        try:
            result = service(
                tournament_id=tournament.pk,
                entry_id=entry_id,
                actor=request.user,
                via=VIA,
                device=_device(request),
            )
        except USER_ERRORS as exc:
            return entries(request, tournament.pk, error=error_text(exc), status=_status_of(exc))
        if isinstance(result, registration_services.Withdrawal):
            text = _("%(pair)s se ha retirado.") % {"pair": result.entry.pair}
            if result.promoted is not None:
                text += " " + _("%(pair)s sale de la lista de espera y ocupa su plaza.") % {
                    "pair": result.promoted.pair
                }
            messages.success(request, text)
        return redirect(_entries_url(tournament.pk, entry_id))

    return view


entry_check_in = _entry_action(registration_services.entry_check_in)
entry_check_in_undo = _entry_action(registration_services.entry_check_in_undo)
entry_withdraw = _entry_action(registration_services.entry_withdraw)


def _entry_form_action(form_class, name: str, service, argument: str, done: str):
    """A one-field form on a row of the pairs page (seed, pinned table): validate, call the
    service, and come back to the same row, or show the page again with the error."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, entry_id: int):
        tournament = _tournament(request, tournament_id)
        form = form_class(request.POST, prefix=f"{name}{entry_id}")
        bound = {(name, entry_id): form}
        if not form.is_valid():
            return entries(request, tournament.pk, entry_forms=bound, status=400)
        try:
            service(
                tournament_id=tournament.pk,
                entry_id=entry_id,
                actor=request.user,
                via=VIA,
                device=_device(request),
                **{argument: form.cleaned_data[argument]},
            )
        except USER_ERRORS as exc:
            return entries(
                request,
                tournament.pk,
                entry_forms=bound,
                error=error_text(exc),
                status=_status_of(exc),
            )
        messages.success(request, done)
        return redirect(_entries_url(tournament.pk, entry_id))

    return view


entry_seed = _entry_form_action(
    forms.SeedForm,
    "seed",
    registration_services.entry_seed_set,
    "seed",
    gettext_lazy("Cabeza de serie guardada."),
)
entry_pin = _entry_form_action(
    forms.PinForm,
    "pin",
    registration_services.entry_table_pin,
    "table",
    gettext_lazy("Mesa fija guardada."),
)


# --- Phases -----------------------------------------------------------------------------------


@login_required
def phase_create(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    phases = round_selectors.phases_for_tournament(tournament=tournament, user=request.user)
    error, status = "", 200
    if request.method == "POST":
        form = forms.PhaseForm(request.POST, phases=phases)
        if form.is_valid():
            try:
                phase = round_services.phase_create(
                    tournament=tournament, actor=request.user, **form.service_kwargs()
                )
            except USER_ERRORS as exc:
                error, status = error_text(exc), _status_of(exc)
            else:
                messages.success(request, _("Fase «%(name)s» añadida.") % {"name": phase.name})
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        initial: dict[str, Any] = {"lives": 3, "grand_final_reset": True}
        if phases:
            initial.update(
                name=_("Final"),
                format=Phase.Format.SINGLE_ELIMINATION,
                source_id=phases[-1].pk,
            )
        else:
            initial.update(name=_("Suizo"), format=Phase.Format.SWISS, rounds_planned=5)
        form = forms.PhaseForm(phases=phases, initial=initial)
    context = {"tournament": tournament, "form": form, "error": error, "phases": phases}
    return render(request, "organizer/phase_form.html", context, status=status)


@login_required
@require_POST
def round_generate(request: HttpRequest, phase_id: int):
    phase = _phase(request, phase_id)
    try:
        rnd = round_services.round_draw_generate(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return _desk_error(request, phase.tournament_id, exc)
    messages.success(
        request,
        _("Ronda %(n)s sorteada. Revísala y publícala cuando esté lista.") % {"n": rnd.number},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


@login_required
@require_POST
def phase_finish(request: HttpRequest, phase_id: int):
    phase = _phase(request, phase_id)
    try:
        round_services.phase_finish(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return _desk_error(request, phase.tournament_id, exc)
    messages.success(request, _("%(phase)s ha terminado.") % {"phase": phase.name})
    return redirect("web:organizer-tournament", tournament_id=phase.tournament_id)


@login_required
@require_POST
def phase_advance(request: HttpRequest, phase_id: int):
    phase = _phase(request, phase_id)
    try:
        rnd = round_services.phase_advance(phase=phase, actor=request.user)
    except USER_ERRORS as exc:
        return _desk_error(request, phase.tournament_id, exc)
    messages.success(
        request,
        _("%(phase)s ha terminado y la ronda %(n)s de %(next)s está sorteada.")
        % {"phase": phase.name, "n": rnd.number, "next": rnd.phase.name},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


# --- A round: adjust, publish, print, board, close --------------------------------------------


def _started(matches: list[Match]) -> bool:
    """Whether a partida of the round has begun (then pairs and tables stay as they are)."""
    return any(
        m.kind != Match.Kind.BYE and (m.status != Match.Status.PENDING or m.started_at)
        for m in matches
    )


def _round_entries(matches: list[Match]) -> list[Entry]:
    found = [e for m in matches for e in (m.entry_a, m.entry_b) if e is not None]
    return sorted(found, key=lambda e: str(e.pair).casefold())


@login_required
def round_detail(
    request: HttpRequest,
    round_id: int,
    *,
    bound: dict | None = None,
    error: str = "",
    status: int = 200,
):
    rnd = _round(request, round_id)
    matches = round_selectors.round_matches(rnd=rnd)
    tabled = [m for m in matches if m.kind != Match.Kind.BYE and m.table_number]
    used = {m.table_number for m in tabled}
    limit = rnd.phase.tournament.tables_available
    free = [n for n in range(1, limit + 1) if n not in used] if limit else []
    bound = bound or {}
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": matches,
        "byes": [m for m in matches if m.kind == Match.Kind.BYE],
        "adjustable": rnd.status != Round.Status.CLOSED and not _started(matches),
        "free_tables": free,
        "swap_entries_form": bound.get("swap_entries")
        or forms.SwapEntriesForm(entries=_round_entries(matches)),
        "swap_tables_form": bound.get("swap_tables") or forms.SwapTablesForm(matches=tabled),
        "move_form": bound.get("move")
        or forms.MoveTableForm(matches=tabled, initial={"table_number": free[0] if free else None}),
        "open": next(iter(bound), ""),
        "error": error,
    }
    return render(request, "organizer/round.html", context, status=status)


def _round_change(form_class, key: str, service: Callable[..., Any], done: str):
    """A change to a round before it starts: swap two pairs, swap two tables, move a table."""

    @login_required
    @require_POST
    def view(request: HttpRequest, round_id: int):
        rnd = _round(request, round_id)
        matches = round_selectors.round_matches(rnd=rnd)
        tabled = [m for m in matches if m.kind != Match.Kind.BYE and m.table_number]
        options = (
            {"entries": _round_entries(matches)}
            if form_class is forms.SwapEntriesForm
            else {"matches": tabled}
        )
        form = form_class(request.POST, **options)
        if not form.is_valid():
            return round_detail(request, rnd.pk, bound={key: form}, status=400)
        try:
            service(round=rnd, actor=request.user, **form.cleaned_data)
        except USER_ERRORS as exc:
            return round_detail(
                request,
                rnd.pk,
                bound={key: form},
                error=error_text(exc),
                status=_status_of(exc),
            )
        messages.success(request, done)
        return redirect("web:organizer-round", round_id=rnd.pk)

    return view


round_swap_entries = _round_change(
    forms.SwapEntriesForm,
    "swap_entries",
    round_services.round_entries_swap,
    gettext_lazy("Parejas cambiadas."),
)
round_swap_tables = _round_change(
    forms.SwapTablesForm,
    "swap_tables",
    round_services.round_tables_swap,
    gettext_lazy("Mesas cambiadas."),
)
round_move_table = _round_change(
    forms.MoveTableForm, "move", round_services.match_table_move, gettext_lazy("Partida movida.")
)


@login_required
@require_POST
def round_publish(request: HttpRequest, round_id: int):
    rnd = _round(request, round_id)
    try:
        round_services.round_publish(round=rnd, actor=request.user)
    except USER_ERRORS as exc:
        return round_detail(request, rnd.pk, error=error_text(exc), status=_status_of(exc))
    messages.success(
        request,
        _("Ronda %(n)s publicada. Imprime las hojas de mesa con su código QR.") % {"n": rnd.number},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


@login_required
def round_print(request: HttpRequest, round_id: int):
    """The pairings by mesa, for the wall: one page."""
    rnd = _round(request, round_id)
    matches = round_selectors.round_matches(rnd=rnd)
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": [m for m in matches if m.kind != Match.Kind.BYE],
        "byes": [m for m in matches if m.kind == Match.Kind.BYE],
    }
    return render(request, "organizer/round_print.html", context)


def _first_mano_player(match: Match) -> str:
    """Who is mano in the first hand: seats A1, B1, A2, B2 are each pair's first and second
    player (as the table's page seats them)."""
    seat = match.first_mano or "A1"
    entry = match.entry_a if seat[0] == "A" else match.entry_b
    if entry is None:
        return ""
    return str(entry.pair.player_one if seat[1:] == "1" else entry.pair.player_two)


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` that scales with its box (no fixed size)."""
    return segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#000")


@login_required
def round_sheets(request: HttpRequest, round_id: int):
    """One sheet per mesa with its pairs, the first mano and the QR code of the table's link."""
    rnd = _round(request, round_id)
    sheets = []
    for match in round_selectors.round_matches(rnd=rnd):
        if match.kind == Match.Kind.BYE or match.entry_b_id is None:
            continue
        url = _table_url(request, match)
        sheets.append(
            {"match": match, "url": url, "qr": qr_svg(url), "mano": _first_mano_player(match)}
        )
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "sheets": sheets,
    }
    return render(request, "organizer/round_sheets.html", context)


@login_required
def round_board(request: HttpRequest, round_id: int, *, error: str = "", status: int = 200):
    rnd = _round(request, round_id)
    matches = list(result_selectors.round_board(rnd=rnd))
    played = [m for m in matches if m.kind != Match.Kind.BYE]
    counts = Counter(m.status for m in played)
    summary = [
        (value, label, counts[value])
        for value, label in Match.Status.choices
        if counts[value] or value in (Match.Status.CONFIRMED, Match.Status.DISPUTED)
    ]
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": sorted(
            matches, key=lambda m: (m.kind == Match.Kind.BYE, m.table_number or 0, m.id)
        ),
        "summary": summary,
        "complete": bool(played) and counts[Match.Status.CONFIRMED] == len(played),
        "refresh": BOARD_REFRESH if rnd.status == Round.Status.PUBLISHED and not error else 0,
        "error": error,
    }
    return render(request, "organizer/board.html", context, status=status)


@login_required
@require_POST
def round_close(request: HttpRequest, round_id: int):
    rnd = _round(request, round_id)
    try:
        round_services.round_close(round=rnd, actor=request.user)
    except USER_ERRORS as exc:
        return round_board(request, rnd.pk, error=error_text(exc), status=_status_of(exc))
    messages.success(request, _("Ronda %(n)s cerrada.") % {"n": rnd.number})
    return redirect("web:organizer-tournament", tournament_id=rnd.phase.tournament_id)


# --- One partida: dispute, correction, forfeit, lateness, history -----------------------------

AUDIT_ACTIONS = {
    "result_submitted": gettext_lazy("Resultado enviado"),
    "result_confirmed": gettext_lazy("Resultado confirmado"),
    "result_disputed": gettext_lazy("Resultados distintos: en disputa"),
    "dispute_resolved": gettext_lazy("Disputa resuelta"),
    "result_corrected": gettext_lazy("Resultado corregido"),
    "forfeit": gettext_lazy("No presentada"),
    "late_penalty": gettext_lazy("Retraso"),
    "hand_added": gettext_lazy("Mano apuntada"),
    "hand_undone": gettext_lazy("Mano borrada"),
    "match_entries_swapped": gettext_lazy("Parejas cambiadas"),
    "match_tables_swapped": gettext_lazy("Mesas cambiadas"),
    "match_table_moved": gettext_lazy("Partida movida de mesa"),
    "bracket_match_created": gettext_lazy("Partida del cuadro creada"),
    "bracket_match_repointed": gettext_lazy("Partida del cuadro rehecha"),
    "substitution_recorded": gettext_lazy("Suplente"),
}
VIA_LABELS = {
    "link": gettext_lazy("enlace de mesa"),
    "account": gettext_lazy("cuenta"),
    "api": gettext_lazy("API"),
    "email": gettext_lazy("correo"),
}


def _version_view(summary: dict | None) -> dict | None:
    """A result as the engine stored it, ready to show: each juego's piedras and the winner."""
    if not summary:
        return None
    games = [
        {
            "a": g["stones"]["A"],
            "b": g["stones"]["B"],
            "winner": g["winner"].lower(),
            "ordago": g.get("ordago", False),
        }
        for g in summary.get("games", [])
    ]
    return {
        "games": games,
        "won": {
            "a": sum(1 for g in games if g["winner"] == "a"),
            "b": sum(1 for g in games if g["winner"] == "b"),
        },
        "vacas": {k.lower(): v for k, v in summary.get("vacas", {}).items()},
        "winner": (summary.get("winner") or "").lower(),
    }


def _mark_differences(views: list[dict]) -> None:
    """In a dispute, flag the juegos where the two versions say different things."""
    if len(views) != 2:
        return
    first, second = (v["games"] for v in views)
    for number in range(max(len(first), len(second))):
        one = first[number] if number < len(first) else None
        two = second[number] if number < len(second) else None
        differs = one is None or two is None or (one["a"], one["b"]) != (two["a"], two["b"])
        for game in (one, two):
            if game is not None:
                game["differs"] = differs


def _state_text(value: Any) -> str:
    """The old or new side of an audit row in words: status, juegos, piedras, mesa."""
    if not isinstance(value, dict):
        return ""
    snap = value["match"] if isinstance(value.get("match"), dict) else value
    parts = []
    if snap.get("status") in Match.Status.values:
        parts.append(str(Match.Status(snap["status"]).label))
    games, stones = snap.get("games"), snap.get("stones")
    if isinstance(games, dict) and (games.get("a") or games.get("b")):
        parts.append(_("juegos %(a)s–%(b)s") % games)
    if isinstance(stones, dict) and (stones.get("a") or stones.get("b")):
        parts.append(_("piedras %(a)s–%(b)s") % stones)
    if value.get("table") is not None:
        parts.append(_("mesa %(n)s") % {"n": value["table"]})
    penalty = value.get("penalty")
    if isinstance(penalty, dict):
        parts.append(
            _("pareja %(side)s: %(minutes)s min tarde, %(games)s juego(s) perdido(s)")
            % {
                "side": str(penalty.get("side", "")).upper(),
                "minutes": penalty.get("minutes_late"),
                "games": penalty.get("games_lost"),
            }
        )
    if value.get("absent_side"):
        parts.append(
            _("no se presentó la pareja %(side)s") % {"side": value["absent_side"].upper()}
        )
    return ", ".join(parts)


def _side_text(new: Any) -> str:
    """Which side wrote a version: pareja A, pareja B or the organizers."""
    side = new.get("side") if isinstance(new, dict) else None
    if side in ("a", "b"):
        return _("pareja %(side)s") % {"side": side.upper()}
    if side == "organizer":
        return _("organización")
    return ""


def _audit_rows(match: Match) -> list[dict]:
    return [
        {
            "when": row.created_at,
            "action": AUDIT_ACTIONS.get(row.action, row.action),
            "side": _side_text(row.new),
            "who": row.actor.get_username() if row.actor else "",
            "via": VIA_LABELS.get(row.via, row.via),
            "old": _state_text(row.old),
            "new": _state_text(row.new),
        }
        for row in match.audit.all()
    ]


MATCH_FORMS = {
    "result": forms.GamesForm,
    "confirm": forms.VersionForm,
    "official": forms.GamesForm,
    "correct": forms.GamesForm,
    "forfeit": forms.ForfeitForm,
    "late": forms.LatePenaltyForm,
}


def _form_class(name: str) -> type:
    return forms.ResolveChoiceForm if name == "choose" else MATCH_FORMS[name]


@login_required
def match_detail(
    request: HttpRequest,
    match_id: int,
    *,
    bound: tuple[str, Any] | None = None,
    error: str = "",
    status: int = 200,
):
    """The partida's page. ``bound``: the form that failed, as (name, POST data), shown again
    with what was typed and the version this page shows — the person has now seen the current
    state when they send again."""
    match = result_selectors.match_history(match=_match(request, match_id))
    versions = {}
    for submission in match.submissions.all():
        if submission.side in ("a", "b") and "confirms" not in (submission.payload or {}):
            versions[submission.side] = submission  # a pair's latest version counts
    initial = {"version": match.version, "idempotency_key": forms.new_key()}
    page_forms = {
        name: form_class(initial=initial, prefix=name) for name, form_class in MATCH_FORMS.items()
    }
    if bound is not None:
        name, data = bound
        data = data.copy()
        data[f"{name}-version"] = str(match.version)
        page_forms[name] = _form_class(name)(data, prefix=name)
    sides = [
        ("a", _("Pareja A · %(pair)s") % {"pair": match.entry_a.pair if match.entry_a else "—"}),
        ("b", _("Pareja B · %(pair)s") % {"pair": match.entry_b.pair if match.entry_b else "—"}),
    ]
    page_forms["forfeit"].fields["absent_side"].choices = sides
    page_forms["late"].fields["side"].choices = sides
    shown = [
        {"side": side, "submission": versions[side], "view": _version_view(versions[side].summary)}
        for side in ("a", "b")
        if side in versions
    ]
    _mark_differences([v["view"] for v in shown])
    context = {
        "match": match,
        "round": match.round,
        "tournament": match.round.phase.tournament,
        "result": _version_view(match.result),
        "versions": shown,
        "penalties": [
            {
                "side": "A" if p.entry_id == match.entry_a_id else "B",
                "minutes": p.minutes_late,
                "games": p.games_lost,
            }
            for p in match.late_penalties.all()
        ],
        "audit": _audit_rows(match),
        "forms": page_forms,
        "choose_key": forms.new_key(),
        "open": bound[0] if bound else "",
        "error": error,
        "playable": match.kind != Match.Kind.BYE and match.entry_b_id is not None,
    }
    return render(request, "organizer/match.html", context, status=status)


def _match_action(name: str, call: Callable[..., Any], done: str):
    """A write of the result from the partida's page; ``call(match, form, request)``."""

    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int):
        match = _match(request, match_id)
        form = _form_class(name)(request.POST, prefix=name)
        if not form.is_valid():
            return match_detail(request, match.pk, bound=(name, request.POST), status=400)
        try:
            call(match, form, request)
        except USER_ERRORS as exc:
            return match_detail(
                request,
                match.pk,
                bound=(name, request.POST),
                error=error_text(exc),
                status=_status_of(exc),
            )
        messages.success(request, done)
        return redirect("web:organizer-match", match_id=match.pk)

    return view


def _common(form, request: HttpRequest) -> dict[str, Any]:
    return {
        "version": form.cleaned_data["version"],
        "actor": request.user,
        "via": VIA,
        "device": _device(request),
    }


def _key(form) -> str:
    return form.cleaned_data.get("idempotency_key") or forms.new_key()


match_result = _match_action(
    "result",
    lambda match, form, request: result_services.match_result_submit(
        match=match,
        side=result_services.ORGANIZER,
        payload=form.payload(),
        idempotency_key=_key(form),
        **_common(form, request),
    ),
    gettext_lazy("Resultado apuntado y confirmado."),
)
match_confirm = _match_action(
    "confirm",
    lambda match, form, request: result_services.match_result_confirm(
        match=match,
        side=result_services.ORGANIZER,
        idempotency_key=_key(form),
        **_common(form, request),
    ),
    gettext_lazy("Resultado confirmado."),
)
match_choose = _match_action(
    "choose",
    lambda match, form, request: result_services.match_dispute_resolve(
        match=match,
        submission_id=form.cleaned_data["submission"],
        idempotency_key=_key(form),
        **_common(form, request),
    ),
    gettext_lazy("Disputa resuelta."),
)
match_resolve = _match_action(
    "official",
    lambda match, form, request: result_services.match_dispute_resolve(
        match=match, payload=form.payload(), idempotency_key=_key(form), **_common(form, request)
    ),
    gettext_lazy("Disputa resuelta con el resultado oficial."),
)
match_correct = _match_action(
    "correct",
    lambda match, form, request: result_services.match_result_correct(
        match=match, payload=form.payload(), idempotency_key=_key(form), **_common(form, request)
    ),
    gettext_lazy("Resultado corregido. El cambio queda en el historial."),
)
match_forfeit = _match_action(
    "forfeit",
    lambda match, form, request: result_services.match_forfeit(
        match=match, absent_side=form.cleaned_data["absent_side"], **_common(form, request)
    ),
    gettext_lazy("Partida no presentada: gana la pareja presente."),
)
match_late = _match_action(
    "late",
    lambda match, form, request: result_services.match_late_penalty(
        match=match,
        side=form.cleaned_data["side"],
        minutes_late=form.cleaned_data["minutes_late"],
        **_common(form, request),
    ),
    gettext_lazy("Retraso apuntado."),
)


# --- URLs -------------------------------------------------------------------------------------

T = "organizador/torneos/<int:tournament_id>/"
E = T + "parejas/<int:entry_id>/"
R = "organizador/rondas/<int:round_id>/"
M = "organizador/partidas/<int:match_id>/"
F = "organizador/fases/<int:phase_id>/"

urlpatterns = [
    path("organizador/", home, name="organizer-home"),
    path("organizador/penas/nueva", club_create, name="organizer-club-create"),
    path(
        "organizador/penas/<slug:club_slug>/torneos/nuevo",
        tournament_create,
        name="organizer-tournament-create",
    ),
    path(T, tournament_desk, name="organizer-tournament"),
    path(T + "editar", tournament_edit, name="organizer-tournament-edit"),
    path(T + "estado", tournament_status, name="organizer-tournament-status"),
    path(T + "parejas", entries, name="organizer-entries"),
    path(T + "parejas/anadir", entry_add, name="organizer-entry-add"),
    path(T + "parejas/pegar", entries_paste, name="organizer-entries-paste"),
    path(E + "presente", entry_check_in, name="organizer-entry-check-in"),
    path(E + "ausente", entry_check_in_undo, name="organizer-entry-check-in-undo"),
    path(E + "retirar", entry_withdraw, name="organizer-entry-withdraw"),
    path(E + "cabeza-de-serie", entry_seed, name="organizer-entry-seed"),
    path(E + "mesa", entry_pin, name="organizer-entry-pin"),
    path(T + "fases/nueva", phase_create, name="organizer-phase-create"),
    path(F + "sortear", round_generate, name="organizer-round-generate"),
    path(F + "terminar", phase_finish, name="organizer-phase-finish"),
    path(F + "avanzar", phase_advance, name="organizer-phase-advance"),
    path(R, round_detail, name="organizer-round"),
    path(R + "cambiar-parejas", round_swap_entries, name="organizer-round-swap-entries"),
    path(R + "cambiar-mesas", round_swap_tables, name="organizer-round-swap-tables"),
    path(R + "mover-mesa", round_move_table, name="organizer-round-move-table"),
    path(R + "publicar", round_publish, name="organizer-round-publish"),
    path(R + "cerrar", round_close, name="organizer-round-close"),
    path(R + "imprimir", round_print, name="organizer-round-print"),
    path(R + "hojas", round_sheets, name="organizer-round-sheets"),
    path(R + "tablero", round_board, name="organizer-round-board"),
    path(M, match_detail, name="organizer-match"),
    path(M + "resultado", match_result, name="organizer-match-result"),
    path(M + "confirmar", match_confirm, name="organizer-match-confirm"),
    path(M + "elegir", match_choose, name="organizer-match-choose"),
    path(M + "resolver", match_resolve, name="organizer-match-resolve"),
    path(M + "corregir", match_correct, name="organizer-match-correct"),
    path(M + "no-presentada", match_forfeit, name="organizer-match-forfeit"),
    path(M + "retraso", match_late, name="organizer-match-late"),
]
