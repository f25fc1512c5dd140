"""The organizer's page of the tournament's plan: the picture, what cannot work, and the plan as
data (download it, paste one, start from a built-in plan or one of the peña's, save it as the
peña's plan); and the round's form that moves a pair to another group before round 1 starts.

Must not: check a rule or replace phases itself (tournaments.services.plans does, naming the
rule that cannot work); hold the plan's format (tournaments.selectors.plans does).

Terms: plan, fase (phase), grupo (group), cuadro B.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import error_message
from tournaments import draw_manager
from tournaments.selectors.plans import (
    BUILT_IN_PLANS,
    plan_of,
    plan_picture,
    plan_presets,
    plan_problem,
)
from tournaments.services import plans as services
from tournaments.web.organizer.common import USER_ERRORS, phase_for, status_of, tournament_for
from tournaments.web.organizer.desk import desk_error


@login_required
def plan_page(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    if request.GET.get("download"):
        body = json.dumps(plan_of(tournament), ensure_ascii=False, indent=1)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="plan-{tournament.slug}.json"'
        return response
    error, status, pasted = "", 200, ""
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "import":
                pasted = request.POST.get("plan", "")
                try:
                    data = json.loads(pasted)
                except ValueError:
                    data = None
                services.plan_import(tournament=tournament, actor=request.user, plan=data)
                done = _("Plan importado.")
            elif action == "apply":
                choice = request.POST.get("choice", "")
                if choice.startswith("builtin:"):
                    key = choice.removeprefix("builtin:")
                    services.plan_preset_apply(tournament=tournament, actor=request.user, key=key)
                else:
                    preset = (
                        int(choice.removeprefix("preset:") or 0) if choice[-1:].isdigit() else 0
                    )
                    services.plan_preset_apply(
                        tournament=tournament, actor=request.user, preset_id=preset
                    )
                done = _("Plan aplicado: revisa sus fases.")
            elif action == "save":
                services.plan_preset_save(
                    tournament=tournament, actor=request.user, name=request.POST.get("name", "")
                )
                done = _("Plan guardado entre los de la peña.")
            else:
                return redirect("web:organizer-plan", tournament_id=tournament.pk)
        except (*USER_ERRORS, ValueError) as exc:
            error, status = (
                error_message(exc),
                status_of(exc) if not isinstance(exc, ValueError) else 400,
            )
        else:
            messages.success(request, done)
            return redirect("web:organizer-plan", tournament_id=tournament.pk)
    registered = len(draw_manager.playing_entries(tournament))
    problem = plan_problem(tournament, registered) if registered >= 2 else None
    context = {
        "tournament": tournament,
        "plan": plan_picture(tournament),
        "problem": error_message(problem) if problem else "",
        "registered": registered,
        "plan_json": json.dumps(plan_of(tournament), ensure_ascii=False, indent=1),
        "builtins": [(key, plan["name"]) for key, plan in BUILT_IN_PLANS.items()],
        "presets": plan_presets(tournament.club_id),
        "pasted": pasted,
        "error": error,
    }
    return render(request, "organizer/plan.html", context, status=status)


@login_required
@require_POST
def group_move(request: HttpRequest, phase_id: int):
    phase = phase_for(request, phase_id)
    try:
        entry_id = int(request.POST.get("entry_id", ""))
        services.phase_group_move(
            phase=phase, actor=request.user, entry_id=entry_id, group=request.POST.get("group", "")
        )
    except ValueError:
        return redirect("web:organizer-tournament", tournament_id=phase.tournament_id)
    except USER_ERRORS as exc:
        return desk_error(request, phase.tournament_id, exc)
    messages.success(request, _("Pareja cambiada de grupo; la ronda 1 se ha sorteado de nuevo."))
    rnd = phase.rounds.order_by("number").first()
    return redirect("web:organizer-round", round_id=rnd.pk)
