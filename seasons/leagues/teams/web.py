"""The pages of a league of peñas: public standings and calendar (phone first, and a TV view),
and the organizers' desk.

Responsible for: the public page (the standings, for the season or up to a jornada, and the
calendar: each jornada's fixtures with their state, board points and a link to the fixture's
interpeña page, and the peña resting), the TV view of the standings (large, reloading itself),
the peña's leagues of peñas with the form of a new one, and the league's desk: open a
fixture's interpeña (the home peña's organizers), postpone it or decide it as a walkover or a
double loss (the owning peña's). POSTs go to seasons.leagues.teams.services and redirect; an
error is shown on the desk.

Must not: hold a rule, or field pairs and enter boards (the interpeña's page does).

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), descanso,
aplazada, no presentada, doble derrota, clasificación.
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
from clubs.models import Club
from config.errors import DomainError, Forbidden, error_message
from seasons.leagues.live import team_league_live
from seasons.leagues.models import TeamFixture, TeamLeague
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams import services as team_services
from seasons.page_helpers import club_or_404, dates_from, guard, int_or_text, upto_param

#: seconds between two reloads of the TV view
SCREEN_REFRESH = 30

STATE_TEXT = {
    "scheduled": gettext_lazy("por abrir"),
    "lineups": gettext_lazy("alineaciones"),
    "playing": gettext_lazy("en juego"),
    "to_confirm": gettext_lazy("falta la firma de los capitanes"),
    "confirmed": gettext_lazy("confirmado"),
    "postponed": gettext_lazy("aplazada"),
    "home_absent": gettext_lazy("no presentada de la local"),
    "away_absent": gettext_lazy("no presentada de la visitante"),
    "double_loss": gettext_lazy("doble derrota"),
}
TIEBREAK_TEXT = {
    "": "",
    "tied": gettext_lazy("empate"),
    "head_to_head": gettext_lazy("enfrentamiento directo"),
    "boards": gettext_lazy("tableros"),
    "games": gettext_lazy("juegos"),
    "wins": gettext_lazy("victorias"),
}
MAX_CLUBS_LISTED = 300


def _urls(league: TeamLeague) -> dict:
    kwargs = {"club_slug": league.club.slug, "league_slug": league.slug}
    return {
        "league": reverse("leagues:public-team-league", kwargs=kwargs),
        "screen": reverse("leagues:public-team-screen", kwargs=kwargs),
        "desk": reverse("leagues:organizer-team-league", kwargs={"league_id": league.pk}),
    }


def _standings(rows) -> list[dict]:
    return [{"row": r, "tiebreak": TIEBREAK_TEXT.get(r.tiebreak, "")} for r in rows]


def _calendar(league: TeamLeague, calendar, clubs: dict[int, Club]) -> list[dict]:
    out = []
    for j in calendar:
        fixtures = []
        for f in j.fixtures:
            interpena_url = (
                reverse("interpenas:interpena", kwargs={"interpena_id": f.fixture.interpena_id})
                if f.fixture.interpena_id
                else ""
            )
            fixtures.append(
                {
                    "f": f,
                    "state": STATE_TEXT.get(f.state, f.state),
                    "url": interpena_url,
                    "scored": f.result is not None and f.result.boards_confirmed > 0,
                }
            )
        resting = clubs.get(j.jornada.resting_id) if j.jornada.resting_id else None
        out.append({"jornada": j.jornada, "fixtures": fixtures, "resting": resting})
    return out


# --- Public -------------------------------------------------------------------------------------


@require_safe
@guard
def team_league_page(request: HttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    league = team_selectors.team_league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=request.user
    )
    upto = upto_param(request.GET.get("jornada"))
    calendar = team_selectors.team_league_calendar(league=league)
    rows = team_selectors.team_league_standings(league=league, upto=upto, calendar=calendar)
    clubs = {r.club.pk: r.club for r in rows}
    context = {
        "league": league,
        "upto": upto,
        "standings": _standings(rows),
        "calendar": _calendar(league, calendar, clubs),
        "urls": _urls(league),
        "organizer": team_selectors.team_league_can_manage(league=league, user=request.user),
        "live": team_league_live(league),
    }
    return render(request, "leagues/teams/league.html", context)


@require_safe
@guard
def team_screen_page(request: HttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    """The standings on the peña's TV: large, reloading itself."""
    league = team_selectors.team_league_get_by_slug(
        club_slug=club_slug, league_slug=league_slug, user=request.user
    )
    rows = team_selectors.team_league_standings(league=league)
    context = {"league": league, "standings": _standings(rows), "refresh": SCREEN_REFRESH}
    return render(request, "leagues/teams/screen.html", context)


# --- Organizer ----------------------------------------------------------------------------------


@login_required
@guard
def club_team_leagues(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The peña's leagues of peñas, and the form of a new one."""
    club = club_or_404(club_slug)
    roles.require_organizer(request.user, club)
    form: dict = {
        "season": str(timezone.localdate().year),
        "legs": "1",
        "boards": "3",
        "points_win": "3",
        "points_draw": "1",
        "points_loss": "0",
        "is_public": True,
        "clubs": [str(club.pk)],
    }
    error = ""
    if request.method == "POST":
        form = request.POST.dict()
        form["is_public"] = bool(request.POST.get("is_public"))
        form["clubs"] = request.POST.getlist("clubs")
        try:
            league = team_services.team_league_create(
                club=club,
                actor=request.user,
                name=form.get("name", ""),
                season=form.get("season", ""),
                club_ids=[int_or_text(c) for c in form["clubs"]],
                dates=dates_from(form.get("dates", "")),
                boards=int_or_text(form.get("boards"), 3),
                legs=int_or_text(form.get("legs"), 1),
                is_public=form["is_public"],
                points_win=int_or_text(form.get("points_win"), 3),
                points_draw=int_or_text(form.get("points_draw"), 1),
                points_loss=int_or_text(form.get("points_loss"), 0),
            )
        except DomainError as exc:
            error = error_message(exc)
        else:
            return redirect("leagues:organizer-team-league", league_id=league.pk)
    context = {
        "club": club,
        "leagues": team_selectors.team_league_list(user=request.user, club=club),
        "all_clubs": Club.objects.order_by("name")[:MAX_CLUBS_LISTED],
        "form": form,
        "error": error,
    }
    return render(
        request, "leagues/teams/organizer_list.html", context, status=400 if error else 200
    )


def _league_for_desk(request: HttpRequest, league_id: int) -> TeamLeague:
    """The league for an organizer of its peña or of one of the peñas that play it."""
    league = team_selectors.team_league_get(league_id=league_id, user=request.user)
    if not team_selectors.team_league_can_manage(
        league=league, user=request.user
    ) and not _organized(request, league):
        raise Forbidden(
            "Only the organizers of {club_name} can do this.",
            code="not_organizer",
            club=league.club.slug,
            club_name=league.club.name,
        )
    return league


def _organized(request: HttpRequest, league: TeamLeague) -> set[int]:
    """The league's peñas the user organizes (one query)."""
    return set(
        roles.clubs_organized_by(request.user)
        .filter(pk__in=league.schedule or [])
        .values_list("pk", flat=True)
    )


#: jornadas with a fixture still to play that the desk shows with their forms (the next ones);
#: a later one is listed without them, so the desk stays small in a long season
DESK_OPEN_JORNADAS = 2


def _desk(request: HttpRequest, league: TeamLeague, *, error: str = "", status: int = 200):
    calendar = team_selectors.team_league_calendar(league=league)
    rows = team_selectors.team_league_standings(league=league, calendar=calendar)
    clubs = {r.club.pk: r.club for r in rows}
    organized = _organized(request, league)
    manager = team_selectors.team_league_can_manage(league=league, user=request.user)
    days = _calendar(league, calendar, clubs)
    pending = 0
    for day in days:
        undone = [
            i
            for i in day["fixtures"]
            if not i["f"].fixture.decision and i["f"].state != "confirmed"
        ]
        current = bool(undone) and pending < DESK_OPEN_JORNADAS
        pending += bool(undone)
        for item in day["fixtures"]:
            fixture = item["f"].fixture
            started = fixture.interpena_id is not None or fixture.postponed_to is not None
            open_ = item in undone and (current or started)
            item["can_open"] = (
                open_ and not fixture.interpena_id and fixture.home_club_id in organized
            )
            item["can_manage"] = manager and open_
        day["can_open"] = any(i["can_open"] for i in day["fixtures"])
    context = {
        "league": league,
        "calendar": days,
        "standings": _standings(rows),
        "urls": _urls(league),
        "manager": manager,
        "decisions": [c for c in TeamFixture.Decision.choices if c[0]],
        "error": error,
        "today": timezone.localdate(),
    }
    return render(request, "leagues/teams/desk.html", context, status=status)


@require_safe
@login_required
@guard
def team_league_desk(request: HttpRequest, league_id: int) -> HttpResponse:
    return _desk(request, _league_for_desk(request, league_id))


def _act(request: HttpRequest, league_id: int, action) -> HttpResponse:
    league = _league_for_desk(request, league_id)
    try:
        action(league)
    except DomainError as exc:
        return _desk(request, league, error=error_message(exc), status=exc.status)
    messages.success(request, _("Hecho."))
    return redirect("leagues:organizer-team-league", league_id=league.pk)


@require_POST
@login_required
@guard
def team_jornada_open(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda league: team_services.team_jornada_open(
            league=league, number=number, actor=request.user
        ),
    )


@require_POST
@login_required
@guard
def team_fixture_open(request: HttpRequest, league_id: int, fixture_id: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda league: team_services.team_fixture_open(
            league=league, fixture_id=fixture_id, actor=request.user
        ),
    )


@require_POST
@login_required
@guard
def team_fixture_postpone(request: HttpRequest, league_id: int, fixture_id: int) -> HttpResponse:
    try:
        deadline = dt.date.fromisoformat(request.POST.get("deadline", ""))
    except ValueError:
        deadline = None
    return _act(
        request,
        league_id,
        lambda league: team_services.team_fixture_postpone(
            league=league, fixture_id=fixture_id, actor=request.user, deadline=deadline
        ),
    )


@require_POST
@login_required
@guard
def team_fixture_decide(request: HttpRequest, league_id: int, fixture_id: int) -> HttpResponse:
    return _act(
        request,
        league_id,
        lambda league: team_services.team_fixture_decide(
            league=league,
            fixture_id=fixture_id,
            actor=request.user,
            decision=request.POST.get("decision", ""),
        ),
    )


_P = "ligas-penas/<slug:club_slug>/<slug:league_slug>/"
_O = "organizador/ligas-penas/<int:league_id>/"
_F = _O + "enfrentamientos/<int:fixture_id>/"

urlpatterns = [
    path(_P, team_league_page, name="public-team-league"),
    path(_P + "pantalla/", team_screen_page, name="public-team-screen"),
    path(
        "organizador/penas/<slug:club_slug>/ligas-penas/",
        club_team_leagues,
        name="organizer-team-leagues",
    ),
    path(_O, team_league_desk, name="organizer-team-league"),
    path(_O + "jornadas/<int:number>/abrir", team_jornada_open, name="organizer-team-jornada-open"),
    path(_F + "abrir", team_fixture_open, name="organizer-team-fixture-open"),
    path(_F + "aplazar", team_fixture_postpone, name="organizer-team-fixture-postpone"),
    path(_F + "decidir", team_fixture_decide, name="organizer-team-fixture-decide"),
]
