"""The desk of one tournament: creating it, its settings, its status and the next step.

Responsible for: creating a tournament from one of the peña's presets, editing its data and
rules, the desk page (the tournament's status, its phases and rounds with how many mesas have a
result, the one step the desk suggests doing now, the organizers' latest notifications in the
page's language, the matches late on the calendar, the prizes and what closing registration
would do under the bases' field), and changing its status (open the
registration, start, finish), with links to what the players see (the public page and the
venue's TV screen) once the tournament is published. A tournament a league or an interpeña runs
(``managed_by``) says so, links to it instead of suggesting a step, and shows no phase, round
or status action (the services refuse them: its calendar or its boards are the other app's).
A failed action posted from the desk comes back to it with the error shown (``desk_error``;
the phases' actions use it too).

Must not: decide which status may follow which, or whether a step is allowed: the suggested
next step is a hint, and the services refuse and say why; write rows itself.

Terms: torneo, peña, borrador (draft), inscripción (registration), fase (phase), ronda (round),
mesa (table), partida (a Match), suizo, liguilla, eliminatoria.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.roles import require_organizer
from config.errors import error_message
from tournaments import draw_manager
from tournaments.draw.entries import field_cut, format_for_entries
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.calendar import dates_of_rounds, late_matches
from tournaments.selectors.notifications import notification_text, notifications_for_tournament
from tournaments.selectors.plans import plan_picture, plan_problem
from tournaments.selectors.tournaments import preset_default_for_club, tournament_detail
from tournaments.services import tournaments as tournament_services
from tournaments.web.bases import award_in_words, format_in_words, prize_in_words
from tournaments.web.names import is_named, round_name
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import (
    USER_ERRORS,
    VIA,
    device_of,
    load,
    status_of,
    tournament_for,
)


def _club_for_organizer(request: HttpRequest, club_slug: str) -> Club:
    """The peña by its short name (public), once the user is known to organize it."""
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise Http404(_("No existe esa peña."))
    load(require_organizer, user=request.user, club=club)
    return club


@login_required
def tournament_create(request: HttpRequest, club_slug: str):
    club = _club_for_organizer(request, club_slug)
    presets = list(club_selectors.presets_for_club(club=club))
    error, status = "", 200
    default = preset_default_for_club(club=club)
    rules_initial = default.rule_values() if default else None
    if request.method == "POST":
        form = forms.TournamentForm(request.POST, presets=presets, rules_initial=rules_initial)
        if form.is_valid():
            try:
                tournament = tournament_services.tournament_create(
                    club_slug=club.slug,
                    actor=request.user,
                    via=VIA,
                    device=device_of(request),
                    **form.cleaned_data,
                )
            except USER_ERRORS as exc:
                error, status = error_message(exc), status_of(exc)
            else:
                created = _("Torneo creado, en borrador. Abre la inscripción para publicarlo.")
                messages.success(request, created)
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        form = forms.TournamentForm(
            presets=presets,
            rules_initial=rules_initial,
            initial={"preset": default.name if default else None, "tables_available": 0},
        )
    context = {"club": club, "form": form, "error": error}
    return render(request, "organizer/tournament_form.html", context, status=status)


@login_required
def tournament_edit(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    presets = list(club_selectors.presets_for_club(club=tournament.club))
    error, status = "", 200
    rules = {"rules_initial": tournament.rule_values(), "entrant_kind": tournament.entrant_kind}
    if request.method == "POST":
        form = forms.TournamentForm(request.POST, presets=presets, editing=True, **rules)
        if form.is_valid():
            changes = form.changes()
            try:
                tournament_services.tournament_update(
                    tournament=tournament,
                    actor=request.user,
                    changes=changes,
                    via=VIA,
                    device=device_of(request),
                )
            except USER_ERRORS as exc:
                error, status = error_message(exc), status_of(exc)
            else:
                messages.success(request, _("Datos del torneo guardados."))
                return redirect("web:organizer-tournament", tournament_id=tournament.pk)
        else:
            status = 400
    else:
        form = forms.TournamentForm(
            presets=presets,
            editing=True,
            **rules,
            initial={
                "preset": tournament.preset_name,
                "name": tournament.name,
                "starts_on": tournament.starts_on,
                "venue": tournament.venue,
                "tables_available": tournament.tables_available,
                "max_pairs": tournament.max_pairs,
                "late_minutes_per_game": tournament.late_minutes_per_game,
                "is_public": tournament.is_public,
                "entrant_kind": tournament.entrant_kind,
                "frances_table_size": tournament.frances_table_size,
                "points_win": tournament.points_win,
                "points_loss": tournament.points_loss,
                "points_walkover_loss": tournament.points_walkover_loss,
                "min_entries": tournament.min_entries,
                "field_sizes": ", ".join(str(n) for n in tournament.field_sizes or []),
                **forms.format_initial(tournament.rules_by_entries or []),
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
    tournament: Tournament,
    phases: list[Phase],
    progress: dict[int, dict[str, int]],
    checked_in: int = 0,
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
    if tournament.registered_count < 2 and tournament.status == Tournament.Status.REGISTRATION:
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
            if checked_in >= tournament.registered_count:  # nobody left to call
                return {
                    "text": _(
                        "Todas las parejas están presentes: empieza el torneo (la inscripción "
                        "se cierra)."
                    ),
                    "label": _("Empezar el torneo"),
                    "post": status_url,
                    "fields": {"status": Tournament.Status.RUNNING},
                }
            missing = tournament.registered_count - checked_in
            return {
                "text": ngettext(
                    "Falta %(n)s pareja por pasar lista. Luego empieza el torneo: la "
                    "inscripción se cierra.",
                    "Faltan %(n)s parejas por pasar lista. Luego empieza el torneo: la "
                    "inscripción se cierra.",
                    missing,
                )
                % {"n": missing}
                if checked_in
                else _("Pasa lista a las parejas y empieza el torneo: la inscripción se cierra."),
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
    # a knockout's round is named as its bracket names it ("Cuartos de final"), never "ronda 1"
    named = is_named(current)
    name = {"round": round_name(last, current)}
    if last.status == Round.Status.DRAFT:
        return {
            "text": _("%(round)s: sorteada. Revísala y publícala.") % name
            if named
            else _("La ronda %(n)s está sorteada: revísala y publícala.") % {"n": last.number},
            "label": _("Revisar y publicar"),
            "url": reverse("web:organizer-round", kwargs=round_kw),
        }
    done = progress.get(last.pk, {})
    if last.status == Round.Status.PUBLISHED:
        if done and done["confirmed"] == done["total"]:
            if named:
                text = _("%(round)s: todas las mesas tienen resultado.") % name
                label = _("Cerrar: %(round)s") % name
            else:
                text = _("Todas las mesas de la ronda %(n)s tienen resultado.") % {"n": last.number}
                label = _("Cerrar la ronda %(n)s") % {"n": last.number}
            return {
                "text": text,
                "label": label,
                "post": reverse("web:organizer-round-close", kwargs=round_kw),
            }
        return {
            "text": _("%(round)s: en juego. Sigue los resultados mesa a mesa.") % name
            if named
            else _("La ronda %(n)s está en juego: sigue los resultados mesa a mesa.")
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


def _managed(tournament: Tournament) -> dict[str, Any] | None:
    """What the desk says of a tournament a league or an interpeña runs: who runs it and a
    link to its page (its rounds and status change there; the services refuse them here)."""
    if tournament.managed_by == Tournament.ManagedBy.LEAGUE:
        return {
            "text": _(
                "Este torneo lo lleva la liga «%(name)s»: sus jornadas se sortean y se "
                "publican desde la liga."
            )
            % {"name": tournament.managed_label},
            "label": _("Ir a la liga"),
            "url": tournament.managed_url,
        }
    if tournament.managed_by == Tournament.ManagedBy.INTERPENA:
        return {
            "text": _(
                "Este torneo lo lleva el interpeñas «%(name)s»: sus tableros se alinean "
                "y se confirman desde el interpeñas."
            )
            % {"name": tournament.managed_label},
            "label": _("Ir al interpeñas"),
            "url": tournament.managed_url,
        }
    return None


def _field_preview(tournament: Tournament) -> dict[str, Any] | None:
    """What closing registration would do now, under the bases' minimum, field sizes and
    format by entries (tournaments.draw.entries): a hint, the services decide at the start."""
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return None
    if not (tournament.min_entries or tournament.field_sizes or tournament.rules_by_entries):
        return None
    count = tournament.registered_count
    cut = field_cut(count, minimum=tournament.min_entries, sizes=tournament.field_sizes or [])
    if cut.short:
        text = ngettext(
            "Para empezar falta %(n)s inscrito (hacen falta %(needed)s).",
            "Para empezar faltan %(n)s inscritos (hacen falta %(needed)s).",
            cut.needed - count,
        ) % {"n": cut.needed - count, "needed": cut.needed}
    elif cut.dropped:
        text = ngettext(
            "Si empieza ahora se juega con %(kept)s: el último inscrito se queda fuera.",
            "Si empieza ahora se juega con %(kept)s: los %(n)s últimos inscritos se quedan fuera.",
            cut.dropped,
        ) % {"kept": cut.kept, "n": cut.dropped}
    else:
        text = _("Si empieza ahora se juega con %(kept)s.") % {"kept": cut.kept}
    rules = format_for_entries(tournament.rules_by_entries or [], cut.kept)
    return {"text": text, "format": format_in_words(rules) if rules else "", "short": cut.short}


#: the newest notifications the desk shows (a round complete, a bracket that cannot advance)
NOTICES_SHOWN = 5


def _desk_context(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    tournament = load(tournament_detail, user=request.user, tournament_id=tournament_id)
    phases = round_selectors.phases_for_tournament(tournament=tournament, user=request.user)
    progress = _round_progress(tournament)
    dates = dates_of_rounds(
        tournament=tournament, rounds=[r for p in phases for r in p.visible_rounds]
    )
    for phase in phases:
        for rnd in phase.visible_rounds:
            rnd.when = dates.get(rnd.pk)  # when it is played (the calendar page changes it)
    for phase in phases:
        for rnd in phase.visible_rounds:
            rnd.progress = progress.get(rnd.pk, {"total": 0, "confirmed": 0, "disputed": 0})
        phase.has_next = any(p.order > phase.order for p in phases)
        # a knockout's length per round, changed on the desk (services.lengths)
        if round_selectors.phase_is_knockout(phase):
            phase.lengths_form = forms.RoundLengthsForm(phase=phase)
    checked_in = Entry.objects.filter(tournament=tournament, status=Entry.Status.CHECKED_IN).count()
    public_urls = {}
    if tournament.is_public and tournament.status != Tournament.Status.DRAFT:
        args = [tournament.club.slug, tournament.slug]
        public_urls = {
            "page": reverse("web:tournament", args=args),
            "screen": reverse("web:public-screen", args=args),
        }
    managed = _managed(tournament)
    notices = [
        {"kind": n.kind, "text": notification_text(n), "created_at": n.created_at}
        for n in notifications_for_tournament(tournament=tournament)[:NOTICES_SHOWN]
    ]
    finished = tournament.status == Tournament.Status.FINISHED
    running = tournament.status == Tournament.Status.RUNNING
    return {
        "tournament": tournament,
        # matches not played by their day (or their deadline): the organizer decides
        "late": late_matches(tournament=tournament) if running else [],
        "field": _field_preview(tournament),
        "prizes": [
            {"name": p["name"], "words": prize_in_words(p)} for p in tournament.prizes or []
        ],
        "awards": [award_in_words(a) for a in tournament.prize_awards or []] if finished else [],
        "notices": notices,
        "public_urls": public_urls,
        "phases": phases,
        # the plan as one picture (more than one phase) and what in it cannot work yet
        "plan": plan_picture(tournament, list(phases)) if len(phases) > 1 else [],
        "plan_problem": _plan_problem(tournament) if not finished and not running else "",
        "checked_in": checked_in,
        "managed": managed,
        "next_step": managed or _next_step(tournament, phases, progress, checked_in),
    }


def _plan_problem(tournament: Tournament) -> str:
    registered = len(draw_manager.playing_entries(tournament))
    problem = plan_problem(tournament, registered) if registered >= 2 else None
    return error_message(problem) if problem else ""


@login_required
def tournament_desk(request: HttpRequest, tournament_id: int, *, error: str = "", status=200):
    tournament_for(request, tournament_id)
    context = _desk_context(request, tournament_id)
    context["error"] = error
    return render(request, "organizer/desk.html", context, status=status)


def desk_error(request: HttpRequest, tournament_id: int, exc: Exception) -> HttpResponse:
    """The desk again, with the error of an action posted from it, in the error's status."""
    return tournament_desk(request, tournament_id, error=error_message(exc), status=status_of(exc))


STATUS_DONE = {
    Tournament.Status.REGISTRATION: gettext_lazy("Inscripción abierta: el torneo ya es visible."),
    Tournament.Status.RUNNING: gettext_lazy("El torneo ha empezado: la inscripción está cerrada."),
    Tournament.Status.FINISHED: gettext_lazy("Torneo terminado."),
}


@login_required
@require_POST
def tournament_status(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    try:
        tournament = tournament_services.tournament_status_change(
            tournament=tournament,
            actor=request.user,
            status=request.POST.get("status", ""),
            via=VIA,
            device=device_of(request),
        )
    except USER_ERRORS as exc:
        return desk_error(request, tournament.pk, exc)
    if tournament.status in STATUS_DONE:
        messages.success(request, STATUS_DONE[tournament.status])
    return redirect("web:organizer-tournament", tournament_id=tournament.pk)
