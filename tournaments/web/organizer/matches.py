"""One partida at the desk: its page, disputes, corrections, no-shows and lateness.

Responsible for: the partida's page (the official result, each pair's version when they
disagree, the late penalties, when it is played and its deadline if postponed, the audit
trail) and its writes: the organizer's result, confirming a pair's version, resolving a
dispute by choosing a version or writing the official result, correcting a confirmed result
(its field starts with the stored result, a juego won by an órdago marked as such), a no-show
(forfeit), lateness, and its calendar: its own date (moved by agreement), postponing it to a
deadline, and after the deadline a walkover or a double loss (tournaments.services.calendar).
Every write of the result sends the version the page showed and an idempotency key, so a
double tap or a stale page records nothing twice; a failed write shows the page again with the
current state and what was typed.

Must not: decide whether a result ends the partida or who wins (scoring/ does), or whether a
write is allowed (tournaments.services.results does); write rows itself.

Terms: partida (a Match), pareja A/B, juego, piedras, vaca, disputa, resultado oficial, no
presentada (forfeit), retraso (lateness), historial (audit trail).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.errors import error_message
from tournaments.models import Match, Tournament
from tournaments.selectors import results as result_selectors
from tournaments.selectors.calendar import match_when
from tournaments.services import calendar as calendar_services
from tournaments.services import results as result_services
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, VIA, device_of, match_for, status_of
from tournaments.web.organizer.history import audit_rows, mark_differences, version_view

MATCH_FORMS = {
    "result": forms.GamesForm,
    "confirm": forms.VersionForm,
    "official": forms.GamesForm,
    "correct": forms.GamesForm,
    "forfeit": forms.ForfeitForm,
    "late": forms.LatePenaltyForm,
    # the calendar: its date (moved by agreement), postponed to a deadline, decided after it
    "schedule": forms.ScheduleForm,
    "postpone": forms.PostponeForm,
    "decide": forms.DeadlineDecisionForm,
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
    match = result_selectors.match_history(match=match_for(request, match_id))
    versions = {}
    for submission in match.submissions.all():
        if submission.side in ("a", "b") and "confirms" not in (submission.payload or {}):
            versions[submission.side] = submission  # a pair's latest version counts
    initial = {"version": match.version, "idempotency_key": forms.new_key()}
    page_forms = {
        name: form_class(initial=initial, prefix=name) for name, form_class in MATCH_FORMS.items()
    }
    if match.status == Match.Status.CONFIRMED and match.result:
        # a correction starts from the stored result, órdagos marked (the games a late pair
        # lost are not typed: the services add them again)
        page_forms["correct"] = forms.GamesForm(
            initial={**initial, "games": _typed_games(match)}, prefix="correct"
        )
    when = match_when(match=match)
    if match.scheduled_at:
        page_forms["schedule"] = forms.ScheduleForm(
            initial={"scheduled_at": timezone.localtime(match.scheduled_at)}, prefix="schedule"
        )
    if bound is not None:
        name, data = bound
        data = data.copy()
        data[f"{name}-version"] = str(match.version)
        page_forms[name] = _form_class(name)(data, prefix=name)
    trios = match.round.phase.tournament.entrant_kind == Tournament.EntrantKind.TRIOS
    side_a = _("Trío A · %(pair)s") if trios else _("Pareja A · %(pair)s")
    side_b = _("Trío B · %(pair)s") if trios else _("Pareja B · %(pair)s")
    sides = [
        ("a", side_a % {"pair": match.entry_a.pair if match.entry_a else "—"}),
        ("b", side_b % {"pair": match.entry_b.pair if match.entry_b else "—"}),
    ]
    page_forms["forfeit"].fields["absent_side"].choices = sides
    if trios:
        games_label = _("Piedras de cada juego (trío A - trío B)")
        for name, form_class in MATCH_FORMS.items():
            if form_class is forms.GamesForm:
                page_forms[name].fields["games"].label = games_label
    page_forms["late"].fields["side"].choices = sides
    shown = [
        {"side": side, "submission": versions[side], "view": version_view(versions[side].summary)}
        for side in ("a", "b")
        if side in versions
    ]
    mark_differences([v["view"] for v in shown])
    context = {
        "match": match,
        "round": match.round,
        "tournament": match.round.phase.tournament,
        "result": version_view(match.result),
        "versions": shown,
        "penalties": [
            {
                "side": "A" if p.entry_id == match.entry_a_id else "B",
                "minutes": p.minutes_late,
                "games": p.games_lost,
            }
            for p in match.late_penalties.all()
        ],
        "audit": audit_rows(match),
        "forms": page_forms,
        "when": when,
        "deadline_over": when.deadline is not None and when.deadline < timezone.localdate(),
        "choose_key": forms.new_key(),
        "open": bound[0] if bound else "",
        "error": error,
        "playable": match.kind != Match.Kind.BYE and match.entry_b_id is not None,
    }
    return render(request, "organizer/match.html", context, status=status)


def _typed_games(match: Match) -> str:
    """The stored result's games as an organizer types them (forms.games_text): without those
    a late pair lost before the first game (the results services put them first again)."""
    rules = result_selectors.match_rules(match=match)
    lost = result_selectors.match_penalty_games(
        match=match, rules=rules, penalties=list(match.late_penalties.all())
    )
    games = match.result.get("games", [])[len(lost) :]
    return forms.games_text(games, target=rules.stones_per_game)


def _named(match: Match, done: str) -> str:
    """A message about a partida that says which: "Mesa 3 · Ana / Luis – Rosa / Juan: …"."""
    pairs = " – ".join(str(e.pair) for e in (match.entry_a, match.entry_b) if e is not None)
    if match.table_number:
        where = _("Mesa %(n)s · %(pairs)s") % {"n": match.table_number, "pairs": pairs}
    else:
        where = pairs
    return _("%(where)s: %(done)s") % {"where": where, "done": done}


def _match_action(name: str, call: Callable[..., Any], done: str):
    """A write of the result from the partida's page; ``call(match, form, request)``."""

    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int):
        match = match_for(request, match_id)
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
                error=error_message(exc),
                status=status_of(exc),
            )
        messages.success(request, _named(match, str(done)))
        return redirect("web:organizer-match", match_id=match.pk)

    return view


def _common(form, request: HttpRequest) -> dict[str, Any]:
    return {
        "version": form.cleaned_data["version"],
        "actor": request.user,
        "via": VIA,
        "device": device_of(request),
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


def _calendar(form, request: HttpRequest) -> dict[str, Any]:
    return {"actor": request.user, "via": VIA, "device": device_of(request)}


match_schedule = _match_action(
    "schedule",
    lambda match, form, request: calendar_services.match_schedule(
        match=match, scheduled_at=form.cleaned_data["scheduled_at"], **_calendar(form, request)
    ),
    gettext_lazy("Fecha de la partida guardada."),
)
match_postpone = _match_action(
    "postpone",
    lambda match, form, request: calendar_services.match_postpone(
        match=match,
        deadline=form.cleaned_data["deadline"],
        reason=form.cleaned_data["reason"],
        **_calendar(form, request),
    ),
    gettext_lazy("Partida aplazada."),
)
match_deadline_decide = _match_action(
    "decide",
    lambda match, form, request: calendar_services.match_deadline_decide(
        match=match, **form.decision(), **_calendar(form, request)
    ),
    gettext_lazy("Decidido lo de la partida aplazada."),
)
