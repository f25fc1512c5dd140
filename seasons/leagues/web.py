"""The leagues' pages: public standings and jornadas (phone first, and a TV view), and the
organizer's league desk.

Responsible for: the public league page (each division's standings, for the season or up to a
jornada, and the calendar), a jornada's page (each division's tables and results, who rests),
the TV view of the standings (large, reloading itself), and the organizer's pages: the peña's
leagues (and a new one), a league's desk (divisions, calendar, each jornada's draw and
publishing with links to the tournaments' round pages that print the tables and the QR sheets,
postponed matches and what is decided after the deadline, the next season). POSTs go to
seasons.leagues.services and redirect; an error is shown on the desk, with the form kept.

Must not: hold a rule, or enter results (the tables' links and the tournaments' match pages do).

Terms: liga, temporada, división, jornada, descanso, aplazada, no presentada, doble derrota,
ascenso / descenso, pareja, mesa, clasificación.
"""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from clubs import roles
from clubs.models import Player
from config.errors import DomainError, Invalid, error_message
from seasons.leagues import selectors, services
from seasons.leagues.live import league_live
from seasons.leagues.models import League, Postponement
from seasons.leagues.table import TIEBREAKS
from seasons.page_helpers import club_or_404, dates_from, guard, int_or_text, upto_param

#: seconds between two reloads of the TV view
SCREEN_REFRESH = 30

STATE_TEXT = {
    "pending": gettext_lazy("pendiente"),
    "in_progress": gettext_lazy("en juego"),
    "submitted": gettext_lazy("enviado"),
    "disputed": gettext_lazy("en disputa"),
    "confirmed": gettext_lazy("confirmado"),
    "walkover": gettext_lazy("no presentada"),
    "double_loss": gettext_lazy("doble derrota"),
    "postponed": gettext_lazy("aplazada"),
}
TIEBREAK_TEXT = {
    "": "",
    "tied": gettext_lazy("empate"),
    "head_to_head": gettext_lazy("enfrentamiento directo"),
    "games": gettext_lazy("juegos"),
    "stones": gettext_lazy("piedras"),
    "wins": gettext_lazy("victorias"),
}


def _standings_ctx(league: League, upto: int | None) -> list[dict]:
    out = []
    for s in selectors.league_standings(league=league, upto=upto):
        rows = [
            {
                "row": r,
                "tiebreak": TIEBREAK_TEXT.get(r.tiebreak, ""),
                "url": reverse("ratings:player-ratings", kwargs={"player_id": r.player_id})
                if r.player_id
                else "",
            }
            for r in s.rows
        ]
        out.append({"division": s.division, "rows": rows})
    return out


def _urls(league: League) -> dict:
    kwargs = {"club_slug": league.club.slug, "league_slug": league.slug}
    return {
        "league": reverse("leagues:public-league", kwargs=kwargs),
        "screen": reverse("leagues:public-screen", kwargs=kwargs),
    }


def _jornada_url(league: League, number: int) -> str:
    return reverse(
        "leagues:public-jornada",
        kwargs={"club_slug": league.club.slug, "league_slug": league.slug, "number": number},
    )


# --- Public -------------------------------------------------------------------------------------


@require_safe
@guard
def league_page(request: HttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    league = selectors.league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=request.user
    )
    upto = upto_param(request.GET.get("jornada"))
    jornadas = selectors.jornadas_of(league=league)
    calendar = [
        {"jornada": j, "url": _jornada_url(league, j.number), "shown": j.status == "published"}
        for j in jornadas
    ]
    context = {
        "league": league,
        "upto": upto,
        "standings": _standings_ctx(league, upto),
        "calendar": calendar,
        "urls": _urls(league),
        "organizer": selectors.league_can_organize(league=league, user=request.user),
        "live": league_live(league),
    }
    return render(request, "leagues/league.html", context)


@require_safe
@guard
def jornada_page(
    request: HttpRequest, club_slug: str, league_slug: str, number: int
) -> HttpResponse:
    league = selectors.league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=request.user
    )
    jornada = selectors.jornada_get(league=league, number=number)
    divisions = []
    for item in selectors.jornada_matches(jornada=jornada):
        if item.round is None:
            continue
        resting = (item.division.resting or {}).get(str(number), [])
        divisions.append(
            {
                "division": item.division,
                "matches": [
                    {"m": m, "state": STATE_TEXT.get(m.state, m.state)} for m in item.matches
                ],
                "resting": len(resting),
            }
        )
    context = {
        "league": league,
        "jornada": jornada,
        "divisions": divisions,
        "urls": _urls(league),
        "standings_url": _urls(league)["league"] + f"?jornada={number}",
    }
    return render(request, "leagues/jornada.html", context)


@require_safe
@guard
def screen_page(request: HttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    """The standings on the peña's TV: large, one division after another, reloading itself."""
    league = selectors.league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=request.user
    )
    context = {
        "league": league,
        "standings": _standings_ctx(league, None),
        "refresh": SCREEN_REFRESH,
    }
    return render(request, "leagues/screen.html", context)


# --- Organizer ----------------------------------------------------------------------------------


@login_required
@guard
def club_leagues(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The peña's leagues, and the form of a new one."""
    club = club_or_404(club_slug)
    roles.require_organizer(request.user, club)
    form = {
        "season": str(timezone.localdate().year),
        "legs": "1",
        "points_win": "2",
        "points_loss": "1",
        "points_walkover_loss": "0",
        "kind": "pairs",
        "is_public": True,
    }
    error = ""
    if request.method == "POST":
        form = request.POST.dict()
        form["is_public"] = bool(request.POST.get("is_public"))
        try:
            league = services.league_create(
                club=club,
                actor=request.user,
                name=form.get("name", ""),
                season=form.get("season", ""),
                kind=form.get("kind", League.Kind.PAIRS),
                legs=int_or_text(form.get("legs"), 1),
                is_public=form["is_public"],
                points_win=int_or_text(form.get("points_win"), 2),
                points_loss=int_or_text(form.get("points_loss"), 1),
                points_walkover_loss=int_or_text(form.get("points_walkover_loss"), 0),
                dates=dates_from(form.get("dates", "")),
            )
        except DomainError as exc:
            error = error_message(exc)
        else:
            return redirect("leagues:organizer-league", league_id=league.pk)
    context = {
        "club": club,
        "leagues": selectors.league_list(user=request.user, club=club),
        "form": form,
        "error": error,
        "kinds": League.Kind.choices,
    }
    return render(request, "leagues/organizer_list.html", context, status=400 if error else 200)


def _round_url(name: str, rnd) -> str:
    return reverse(name, kwargs={"round_id": rnd.pk})


def _desk_context(request: HttpRequest, league: League) -> dict:
    jornadas = selectors.jornadas_of(league=league)
    divisions = selectors.divisions_of(league=league)
    current = next((j for j in jornadas if j.status != "published"), None)
    rounds = []
    if current is not None and current.status == "drawn":
        current.league = league
        for item in selectors.jornada_matches(jornada=current, organizer=True):
            if item.round is not None:
                rounds.append(
                    {
                        "division": item.division,
                        "round": item.round,
                        "matches": item.matches,
                        "print": _round_url("web:organizer-round-print", item.round),
                        "sheets": _round_url("web:organizer-round-sheets", item.round),
                        "desk": _round_url("web:organizer-round", item.round),
                    }
                )
    last = next((j for j in reversed(jornadas) if j.status == "published"), None)
    played = []
    if last is not None:
        last.league = league
        for item in selectors.jornada_matches(jornada=last, organizer=True):
            for m in item.matches:
                if m.state not in ("confirmed", "walkover", "double_loss"):
                    played.append(
                        {
                            "m": m,
                            "state": STATE_TEXT.get(m.state, m.state),
                            "match_url": reverse(
                                "web:organizer-match", kwargs={"match_id": m.match.pk}
                            ),
                        }
                    )
    players = (
        Player.objects.filter(clubs=league.club).order_by("first_name", "last_name")
        if league.kind == League.Kind.INDIVIDUAL
        else []
    )
    return {
        "league": league,
        "divisions": divisions,
        "jornadas": jornadas,
        "current": current,
        "rounds": rounds,
        "open_matches": played,
        "last": last,
        "close_last": last is not None
        and not played
        and selectors.jornada_has_open_rounds(league=league, number=last.number),
        "postponements": [
            {"p": p, "overdue": p.deadline < timezone.localdate()}
            for p in selectors.postponements_due(league=league)
        ],
        "players": players,
        "urls": _urls(league),
        "started": any(j.status != "planned" for j in jornadas),
        "tiebreak_slots": _tiebreak_slots(league),
        "finished": bool(jornadas) and all(j.status == "published" for j in jornadas),
    }


def _tiebreak_slots(league: League) -> list[dict]:
    """One select per tiebreak the league may use, each with the one in that place chosen."""
    order = list(selectors.league_tiebreaks(league))
    choices = [(name, TIEBREAK_TEXT[name]) for name in TIEBREAKS]
    return [
        {"place": n, "chosen": order[n - 1] if n <= len(order) else "", "choices": choices}
        for n in range(1, len(choices) + 1)
    ]


def _league_for_organizer(request: HttpRequest, league_id: int) -> League:
    league = selectors.league_get(league_id=league_id, user=request.user)
    roles.require_organizer(request.user, league.club)
    return league


@login_required
@require_safe
@guard
def league_desk(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league_for_organizer(request, league_id)
    return render(request, "leagues/desk.html", _desk_context(request, league))


def _desk_action(request: HttpRequest, league_id: int, action, done: str) -> HttpResponse:
    """Run ``action(league)``; on success back to the desk with ``done`` said, on a domain
    error the desk again with the message and what was typed."""
    league = _league_for_organizer(request, league_id)
    try:
        action(league)
    except DomainError as exc:
        context = _desk_context(request, league)
        context["error"] = error_message(exc)
        context["posted"] = request.POST
        return render(request, "leagues/desk.html", context, status=exc.status)
    messages.success(request, done)
    return redirect("leagues:organizer-league", league_id=league.pk)


@login_required
@require_POST
@guard
def division_add(request: HttpRequest, league_id: int) -> HttpResponse:
    def act(league: League) -> None:
        lines = [line for line in request.POST.get("pairs", "").splitlines() if line.strip()]
        player_ids = [int(p) for p in request.POST.getlist("players") if p.isdigit()]
        services.division_create(
            league=league,
            actor=request.user,
            name=request.POST.get("name", ""),
            pair_lines=lines,
            player_ids=player_ids,
            promote=int_or_text(request.POST.get("promote")),
            relegate=int_or_text(request.POST.get("relegate")),
        )

    return _desk_action(request, league_id, act, _("División añadida."))


@login_required
@require_POST
@guard
def division_remove(request: HttpRequest, league_id: int, division_id: int) -> HttpResponse:
    def act(league: League) -> None:
        services.division_remove(
            league=league, actor=request.user, division_id=division_id, via="web"
        )

    return _desk_action(request, league_id, act, _("División quitada."))


@login_required
@require_POST
@guard
def league_rules(request: HttpRequest, league_id: int) -> HttpResponse:
    def act(league: League) -> None:
        services.league_rules_update(
            league=league,
            actor=request.user,
            via="web",
            points_win=int_or_text(request.POST.get("points_win")),
            points_loss=int_or_text(request.POST.get("points_loss")),
            points_walkover_loss=int_or_text(request.POST.get("points_walkover_loss")),
            tiebreaks=[t for t in request.POST.getlist("tiebreaks") if t],
        )

    return _desk_action(request, league_id, act, _("Puntos y desempates guardados."))


@login_required
@require_POST
@guard
def jornada_draw(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    def act(league: League) -> None:
        jornada = selectors.jornada_get(league=league, number=number)
        present = None
        if league.kind == League.Kind.INDIVIDUAL:
            present = {}
            for division in selectors.divisions_of(league=league):
                ids = request.POST.getlist(f"present-{division.pk}")
                present[division.pk] = [int(p) for p in ids if p.isdigit()]
        services.jornada_draw(jornada=jornada, actor=request.user, present=present)

    done = _("Jornada sorteada: revisa las mesas y publícala.")
    return _desk_action(request, league_id, act, done)


@login_required
@require_POST
@guard
def jornada_publish(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    def act(league: League) -> None:
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_publish(jornada=jornada, actor=request.user)

    return _desk_action(request, league_id, act, _("Jornada publicada."))


@login_required
@require_POST
@guard
def jornada_close(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    def act(league: League) -> None:
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_close(jornada=jornada, actor=request.user)

    return _desk_action(request, league_id, act, _("Jornada cerrada."))


@login_required
@require_POST
@guard
def match_postpone(request: HttpRequest, league_id: int, match_id: int) -> HttpResponse:
    def act(league: League) -> None:
        value = request.POST.get("deadline", "")
        try:
            deadline = dt.date.fromisoformat(value)
        except ValueError:
            deadline = None
        if deadline is None:
            raise Invalid(
                "'{value}' is not a date; write it as 2026-10-01.",
                code="league_calendar_date",
                value=value[:20],
            )
        services.match_postpone(
            league=league,
            actor=request.user,
            match_id=match_id,
            deadline=deadline,
            reason=request.POST.get("reason", ""),
        )

    return _desk_action(request, league_id, act, _("Partida aplazada."))


@login_required
@require_POST
@guard
def match_decide(request: HttpRequest, league_id: int, match_id: int) -> HttpResponse:
    def act(league: League) -> None:
        outcome = request.POST.get("outcome", "")
        absent = ""
        if outcome.startswith(Postponement.Outcome.WALKOVER + "-"):
            outcome, absent = outcome.split("-", 1)
        services.postponement_decide(
            league=league,
            actor=request.user,
            match_id=match_id,
            outcome=outcome,
            absent_side=absent,
        )

    return _desk_action(request, league_id, act, _("Decidido."))


@login_required
@require_POST
@guard
def next_season(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league_for_organizer(request, league_id)
    try:
        new = services.league_next_season(
            league=league,
            actor=request.user,
            season=request.POST.get("season", ""),
            dates=dates_from(request.POST.get("dates", "")),
        )
    except DomainError as exc:
        context = _desk_context(request, league)
        context["error"] = error_message(exc)
        context["posted"] = request.POST
        return render(request, "leagues/desk.html", context, status=exc.status)
    messages.success(request, _("Nueva temporada creada con ascensos y descensos."))
    return redirect("leagues:organizer-league", league_id=new.pk)


_P = "ligas/<slug:club_slug>/<slug:league_slug>/"
_O = "organizador/ligas/<int:league_id>/"

urlpatterns = [
    path(_P, league_page, name="public-league"),
    path(_P + "jornadas/<int:number>/", jornada_page, name="public-jornada"),
    path(_P + "pantalla/", screen_page, name="public-screen"),
    path("organizador/penas/<slug:club_slug>/ligas/", club_leagues, name="organizer-leagues"),
    path(_O, league_desk, name="organizer-league"),
    path(_O + "divisiones", division_add, name="organizer-division-add"),
    path(
        _O + "divisiones/<int:division_id>/quitar",
        division_remove,
        name="organizer-division-remove",
    ),
    path(_O + "reglas", league_rules, name="organizer-league-rules"),
    path(_O + "jornadas/<int:number>/sortear", jornada_draw, name="organizer-jornada-draw"),
    path(_O + "jornadas/<int:number>/publicar", jornada_publish, name="organizer-jornada-publish"),
    path(_O + "jornadas/<int:number>/cerrar", jornada_close, name="organizer-jornada-close"),
    path(_O + "partidas/<int:match_id>/aplazar", match_postpone, name="organizer-match-postpone"),
    path(_O + "partidas/<int:match_id>/decidir", match_decide, name="organizer-match-decide"),
    path(_O + "temporada", next_season, name="organizer-next-season"),
]
