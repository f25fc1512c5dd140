"""Pages of championships: the public page, a centre's page and the organizers' desk.

Responsible for: the championships' list; a championship's public page (its stages, centres,
every tournament with its status and its qualified pairs, the final's bracket); a centre's
page (its qualifiers, its qualified pairs and how far they went; its organizers add their
qualifier there); the desk of the championship's organizers (its centres with their ranks and
quotas, its stages and quotas, its tournaments, the progress of every tournament at a glance
and what is late) and the form that creates a championship. A POST calls the same service as
the API and redirects (POST/redirect/GET); an error is shown on the page that holds the form.
Turning values into display texts happens here; templates only print them. ``urlpatterns``
lists the paths (config/urls.py mounts them in the namespace ``championships``).

Must not: check a role (the selectors and services do), decide who qualifies, or score.

Terms: campeonato (championship), centro (centre), fase (stage), clasificatoria (qualifier),
cupo (quota), clasificado (qualified), con retraso (late), cuadro (bracket).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Club
from clubs.roles import clubs_organized_by
from config.errors import DomainError, Invalid, error_message
from seasons.championships import selectors, services
from seasons.championships.live import championship_live
from seasons.championships.models import Centre, Championship, Stage
from seasons.championships.selectors import Board, StopView
from seasons.page_helpers import guard, int_list
from tournaments.models import Tournament


def _status_text(status: str) -> str:
    texts = {
        Tournament.Status.DRAFT: _("en preparación"),
        Tournament.Status.REGISTRATION: _("inscripción abierta"),
        Tournament.Status.RUNNING: _("en juego"),
        Tournament.Status.FINISHED: _("terminado"),
    }
    return texts.get(status, status)


def _note_text(note: str) -> str:
    texts = {
        "next_started": _("La fase siguiente ya ha empezado: sus clasificados ya no cambian."),
        "no_next_tournament": _(
            "La fase siguiente todavía no tiene torneo: sus clasificados pasarán cuando lo tenga."
        ),
        "choose_next_tournament": _(
            "La fase siguiente tiene varios torneos: elige a cuál pasan sus clasificados."
        ),
    }
    if not note:
        return ""
    return texts.get(note, _("Sus clasificados no han podido pasar (%(code)s).") % {"code": note})


def _quota_text(stage: Stage) -> str:
    if stage.kind == Stage.Kind.FINAL:
        return ""
    if stage.quota_rule == Stage.Quota.PROPORTIONAL:
        return _("Pasa una pareja por cada %(n)s que juegan, al menos %(m)s.") % {
            "n": stage.quota_number,
            "m": stage.quota_minimum,
        }
    if stage.quota_rule == Stage.Quota.RANKING:
        table = ", ".join(str(n) for n in stage.quota_table) or "—"
        return _(
            "Pasan según la clasificación del centro: %(table)s; los demás centros, %(m)s."
        ) % {"table": table, "m": stage.quota_minimum}
    return _("Pasan %(n)s parejas por centro (o las que tenga fijadas el centro).") % {
        "n": stage.quota_number
    }


def _stop_view(view: StopView, centres: dict[int, Centre]) -> dict:
    stop, tournament = view.stop, view.tournament
    centre = centres.get(stop.centre_id) if stop.centre_id else None
    return {
        "id": stop.pk,
        "name": tournament.name,
        "url": reverse(
            "web:tournament",
            kwargs={"club_slug": tournament.club.slug, "tournament_slug": tournament.slug},
        ),
        "club": tournament.club.name,
        "centre": centre.club.name if centre else "",
        "centre_url": _centre_url(stop.championship, centre) if centre else "",
        "date": tournament.starts_on,
        "status": tournament.status,
        "status_text": _status_text(tournament.status),
        "finished": view.finished,
        "late": view.late,
        "entries": view.entries,
        "rounds": view.rounds,
        "rounds_closed": view.rounds_closed,
        "matches": view.matches,
        "matches_confirmed": view.matches_confirmed,
        "pairs_played": stop.pairs_played,
        "players_played": stop.players_played,
        "quota": stop.quota,
        "note": _note_text(stop.flow_note),
        "qualified": [
            {
                "position": q.position,
                "place": q.place,
                "pair": str(q.pair),
                "centre": centres[q.centre_id].club.name if q.centre_id in centres else "",
                "next": q.target.tournament.name if q.target_id and q.target_entry_id else "",
            }
            for q in view.qualified
        ],
        "incoming": [
            {
                "pair": str(q.pair),
                "from": q.stop.tournament.name,
                "players": q.stop.players_played,
            }
            for q in view.incoming
        ],
    }


def _centre_url(championship: Championship, centre: Centre) -> str:
    return reverse(
        "championships:centre",
        kwargs={"slug": championship.slug, "club_slug": centre.club.slug},
    )


def _board_context(board: Board) -> dict:
    centres = {c.pk: c for c in board.centres}
    return {
        "championship": board.championship,
        "centres": [
            {
                "name": c.club.name,
                "url": _centre_url(board.championship, c),
                "rank": c.rank,
                "quota": c.quota,
                "id": c.pk,
            }
            for c in board.centres
        ],
        "stages": [
            {
                "id": s.stage.pk,
                "name": s.stage.name,
                "kind": s.stage.kind,
                # the kind, where the stage's name does not say it already
                "kind_text": ""
                if s.stage.get_kind_display().lower() == s.stage.name.lower()
                else s.stage.get_kind_display(),
                "quota_text": _quota_text(s.stage),
                "deadline": s.stage.deadline,
                "stops": [_stop_view(v, centres) for v in s.stops],
            }
            for s in board.stages
        ],
        "late": [_stop_view(v, centres) for v in board.late],
    }


def _bracket_context(board: Board) -> dict | None:
    """The final's bracket as columns of rounds, each match its two pairs and who won."""
    data = selectors.final_bracket(board=board)
    if data is None:
        return None
    names = {e["id"]: e["name"] for e in data["entries"]}
    rounds: dict[int, list[dict]] = {}
    for m in data["matches"]:
        if m["side"] not in ("W", "GF", "3P"):
            continue
        winner = (m["match"] or {}).get("winner_id")
        slots = []
        for slot in (m["a"], m["b"]):
            entry = slot["entry_id"]
            if entry is not None:
                text = names.get(entry, "?")
            elif slot["bye"]:
                text = _("descanso")
            else:
                text = "…"
            slots.append({"text": text, "won": entry is not None and entry == winner})
        rounds.setdefault(m["round"], []).append({"id": m["id"], "slots": slots})
    tournament = data["tournament"]
    return {
        "phase": data["phase_name"],
        "rounds": [rounds[n] for n in sorted(rounds)],
        "champion": names.get(data["champion_id"], ""),
        "url": reverse(
            "web:public-bracket",
            kwargs={"club_slug": tournament.club.slug, "tournament_slug": tournament.slug},
        ),
    }


@require_safe
def championship_list(request: HttpRequest) -> HttpResponse:
    championships = list(selectors.championship_list(user=request.user)[:200])
    return render(request, "championships/list.html", {"championships": championships})


@require_safe
@guard
def championship_page(request: HttpRequest, slug: str) -> HttpResponse:
    championship = selectors.championship_get(slug=slug, user=request.user)
    board = selectors.championship_board(championship=championship, today=timezone.localdate())
    context = _board_context(board)
    context["bracket"] = _bracket_context(board)
    context["can_manage"] = selectors.championship_can_manage(
        user=request.user, championship=championship
    )
    context["live"] = championship_live(championship)
    return render(request, "championships/championship.html", context)


@require_http_methods(["GET", "POST"])
@guard
def centre_page(request: HttpRequest, slug: str, club_slug: str) -> HttpResponse:
    championship = selectors.championship_get(slug=slug, user=request.user)
    centre = selectors.centre_get(championship=championship, club_slug=club_slug)
    can_run = selectors.centre_can_run(user=request.user, centre=centre)
    error = ""
    if request.method == "POST":
        try:
            services.stage_tournament_add(
                actor=request.user,
                championship=championship,
                stage_id=_one(request.POST.get("stage_id", ""), "stage_id"),
                tournament_id=_one(request.POST.get("tournament_id", ""), "tournament_id"),
                centre_id=centre.pk,
            )
            return redirect(_centre_url(championship, centre))
        except DomainError as exc:
            error = error_message(exc)
    board = selectors.championship_board(
        championship=championship, today=timezone.localdate(), centre=centre
    )
    context = _board_context(board)
    qualifiers = next((s for s in context["stages"] if s["kind"] == Stage.Kind.QUALIFIERS), None)
    context.update(
        {
            "centre": centre,
            "can_run": can_run,
            "error": error,
            "qualifier_stage": qualifiers,
            "candidates": _candidates(centre.club) if can_run else [],
        }
    )
    return render(request, "championships/centre.html", context, status=400 if error else 200)


def _candidates(club: Club) -> list[Tournament]:
    return list(
        Tournament.objects.filter(
            club=club,
            is_public=True,
            entrant_kind=Tournament.EntrantKind.PAIRS,
            championship_stops=None,
            managed_by="",
        ).order_by("-starts_on")[:50]
    )


def _one(text: str, field: str) -> int:
    numbers = int_list(text, field)
    if len(numbers) != 1:
        raise Invalid(
            "'{field}' is one whole number.", code="championship_form_number", field=field
        )
    return numbers[0]


def _optional(text: str, field: str) -> int | None:
    text = (text or "").strip()
    return _one(text, field) if text else None


@login_required
@require_http_methods(["GET", "POST"])
@guard
def championship_desk(request: HttpRequest, slug: str) -> HttpResponse:
    championship = selectors.championship_get(slug=slug, user=request.user)
    selectors.championship_require_manager(user=request.user, championship=championship)
    error = ""
    if request.method == "POST":
        try:
            _desk_action(request, championship)
            return redirect("championships:desk", slug=championship.slug)
        except DomainError as exc:
            error = error_message(exc)
    board = selectors.championship_board(championship=championship, today=timezone.localdate())
    context = _board_context(board)
    taken = {c.club_id for c in board.centres}
    rules = {
        "one_centre": _("representa a dos centros"),
        "eliminated": _("vuelve tras quedar eliminado"),
    }
    context.update(
        {
            "conflicts": [
                {
                    "player": c.player,
                    "rule": rules.get(c.rule, c.rule),
                    "here": f"{c.tournament} ({c.pair})",
                    "there": f"{c.other_tournament} ({c.other_pair})",
                }
                for c in selectors.eligibility_conflicts(championship=championship)
            ],
            "error": error,
            "clubs_all": list(Club.objects.exclude(pk__in=taken).order_by("name")[:500]),
            "my_clubs": list(
                clubs_organized_by(request.user).exclude(pk__in=championship.clubs.values("pk"))
            ),
            "stage_kinds": Stage.Kind.choices,
            "quota_rules": Stage.Quota.choices,
            "candidates": _desk_candidates(championship, board),
            "stop_choices": [
                {"id": v.stop.pk, "name": v.tournament.name, "stage": v.stop.stage.name}
                for v in board.stops
            ],
        }
    )
    return render(request, "championships/desk.html", context, status=400 if error else 200)


def _desk_candidates(championship: Championship, board: Board) -> list[dict]:
    """Public tournaments of pairs of its centres and peñas that are in no championship."""
    clubs = {c.club_id for c in board.centres} | set(
        championship.clubs.values_list("pk", flat=True)
    )
    rows = (
        Tournament.objects.filter(
            club_id__in=clubs,
            is_public=True,
            entrant_kind=Tournament.EntrantKind.PAIRS,
            championship_stops=None,
            managed_by="",
        )
        .select_related("club")
        .order_by("-starts_on")[:200]
    )
    return [{"id": t.pk, "text": f"{t.name} ({t.club.name})"} for t in rows]


def _desk_action(request: HttpRequest, championship: Championship) -> None:
    post = request.POST
    action = post.get("action", "")
    actor = request.user
    if action == "rules":
        services.championship_update(
            actor=actor,
            championship=championship,
            data={
                "name": post.get("name", ""),
                "member_changes": _one(post.get("member_changes", "0") or "0", "member_changes"),
                "is_public": not post.get("private"),
            },
        )
    elif action == "centre":
        services.centre_add(
            actor=actor,
            championship=championship,
            club_id=_one(post.get("club_id", ""), "club_id"),
            rank=_optional(post.get("rank", ""), "rank"),
            quota=_optional(post.get("quota", ""), "quota"),
        )
    elif action == "centre_update":
        services.centre_update(
            actor=actor,
            championship=championship,
            centre_id=_one(post.get("centre_id", ""), "centre_id"),
            data={
                "rank": _optional(post.get("rank", ""), "rank"),
                "quota": _optional(post.get("quota", ""), "quota"),
            },
        )
    elif action == "stage":
        table = post.get("quota_table", "").strip()
        services.stage_add(
            actor=actor,
            championship=championship,
            kind=post.get("kind", ""),
            name=post.get("name", ""),
            quota_rule=post.get("quota_rule", Stage.Quota.FIXED),
            quota_number=_one(post.get("quota_number", "2") or "2", "quota_number"),
            quota_minimum=_one(post.get("quota_minimum", "1") or "1", "quota_minimum"),
            quota_table=int_list(table, "quota_table") if table else [],
            deadline=post.get("deadline") or None,
        )
    elif action == "tournament":
        services.stage_tournament_add(
            actor=actor,
            championship=championship,
            stage_id=_one(post.get("stage_id", ""), "stage_id"),
            tournament_id=_one(post.get("tournament_id", ""), "tournament_id"),
            feeds_id=_optional(post.get("feeds_id", ""), "feeds_id"),
        )
    elif action == "club":
        services.championship_club_add(
            actor=actor, championship=championship, club_id=_one(post.get("club_id", ""), "club")
        )
    elif action == "organizer":
        services.championship_organizer_add(
            actor=actor, championship=championship, username=post.get("username", "")
        )


@login_required
@require_http_methods(["GET", "POST"])
def championship_new(request: HttpRequest) -> HttpResponse:
    clubs = list(clubs_organized_by(request.user))
    error = ""
    if request.method == "POST":
        try:
            club = next((c for c in clubs if str(c.pk) == request.POST.get("club_id")), None)
            if club is None:
                raise Invalid("Choose one of your peñas.", code="circuit_club_choose")
            championship = services.championship_create(
                actor=request.user,
                club=club,
                name=request.POST.get("name", ""),
                region=request.POST.get("region", ""),
                season=request.POST.get("season", ""),
                is_public=not request.POST.get("private"),
            )
            return redirect("championships:desk", slug=championship.slug)
        except DomainError as exc:
            error = error_message(exc)
    return render(
        request,
        "championships/new.html",
        {"clubs": clubs, "error": error},
        status=400 if error else 200,
    )


urlpatterns = [
    path("campeonatos/", championship_list, name="list"),
    path("campeonatos/<slug:slug>/", championship_page, name="championship"),
    path("campeonatos/<slug:slug>/centros/<slug:club_slug>/", centre_page, name="centre"),
    path("organizador/campeonatos/nuevo/", championship_new, name="new"),
    path("organizador/campeonatos/<slug:slug>/", championship_desk, name="desk"),
]
