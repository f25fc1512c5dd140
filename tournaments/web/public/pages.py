"""The public pages' views and their paths: the home page, the list of public tournaments, a
tournament's page, the standings of every phase, the brackets, each round's tables, the pairs
and each pair's matches.

Responsible for: each view reading through the selectors and the display values
(display.py, brackets.py), and ``urlpatterns`` with the big screen's paths (screen.py).

Must not: write anything, or hold a rule.

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from config.errors import NotFound
from config.live_pages import live_cached
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors.entrants import frances_table_list
from tournaments.selectors.plans import plan_picture
from tournaments.selectors.registration import entry_list
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    round_get_readable,
    round_matches,
)
from tournaments.selectors.standings import standings_for_phase, tiebreak_order
from tournaments.selectors.tournaments import tournament_list
from tournaments.web.public.brackets import bracket_view
from tournaments.web.public.display import (
    TIEBREAK_NAME,
    Context,
    entry_matches,
    page_context,
    page_tournament,
    pair_view,
    standings_html,
    standings_view,
    table_view,
    table_views,
)
from tournaments.web.public.screen import screen_fragment, screen_page

# --- Reads these pages need -------------------------------------------------------------------
# The selectors give everything else; these two are the public pages' own lookups (by slug, and
# one pair's matches), kept here until tournaments/selectors offers them.


# --- Display values ---------------------------------------------------------------------------


# --- Brackets ---------------------------------------------------------------------------------


# --- Views ------------------------------------------------------------------------------------


def _sections(
    tournaments: Iterable[Tournament], limit_finished: int | None = None
) -> list[tuple[str, list[Tournament]]]:
    """Published tournaments in three lists: in play, to come (soonest first), finished."""
    running, upcoming, finished = [], [], []
    for t in tournaments:
        if t.status == Tournament.Status.RUNNING:
            running.append(t)
        elif t.status == Tournament.Status.FINISHED:
            finished.append(t)
        else:
            upcoming.append(t)
    upcoming.reverse()  # the list comes newest first; the next one to be played goes first
    return [
        (title, items)
        for title, items in (
            (_("En juego"), running),
            (_("Próximos"), upcoming),
            (_("Terminados"), finished[:limit_finished] if limit_finished else finished),
        )
        if items
    ]


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The home page with the public tournaments in it (for config/urls.py's "" route)."""
    return render(request, "home.html", {"sections": _sections(tournament_list(user=None), 5)})


@require_safe
def home_fragment(request: HttpRequest) -> HttpResponse:
    """The home page's list of tournaments alone, for the home page served without a view."""
    sections = _sections(tournament_list(user=None), 5)
    return render(request, "public/_tournament_cards.html", {"sections": sections})


@require_safe
def tournaments_page(request: HttpRequest) -> HttpResponse:
    sections = _sections(tournament_list(user=None))
    return render(request, "public/tournament_list.html", {"sections": sections})


@require_safe
def tournament_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    ctx = page_context(tournament)
    phase, rnd = ctx.current_phase, ctx.current_round
    tables = table_views(tournament, phase, round_matches(rnd=rnd)) if rnd else []
    more_tables = max(len(tables) - HOME_TABLES, 0)
    tables = tables[:HOME_TABLES]
    standings = ""
    bracket = None
    if phase is not None:
        if phase.format in ELIMINATION_FORMATS:
            bracket = bracket_view(tournament, phase)
        else:
            standings = standings_html(tournament, phase, compact=True)
    return render(
        request,
        "public/tournament.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "tournament",
            "tables": tables,
            "more_tables": more_tables,
            "standings": standings,
            "bracket": bracket,
            "champion": _champion(tournament, ctx) if tournament.status == "finished" else "",
            # the plan as one picture, once it has more than one phase
            "plan": plan_picture(tournament, list(ctx.phases)) if len(ctx.phases) > 1 else [],
        },
    )


def _champion(tournament: Tournament, ctx: Context) -> str:
    """Who won a finished tournament: its last phase's bracket champion or standings leader."""
    played = [p for p in ctx.phases if p.visible_rounds]
    if not played:
        return ""
    last = played[-1]
    if last.format in ELIMINATION_FORMATS:
        bracket = bracket_view(tournament, last)
        return bracket.champion if bracket else ""
    for group in standings_for_phase(phase=last):
        if group["group"] is None and group["rows"]:
            return group["rows"][0]["name"]
    return ""


@require_safe
def standings_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    ctx = page_context(tournament)
    phases = [p for p in ctx.phases if p.visible_rounds]
    phases.sort(key=lambda p: p != ctx.current_phase)  # the phase in play first
    # An elimination phase is read on its bracket: its standings would only count wins.
    order = [
        (
            p,
            [str(TIEBREAK_NAME.get(t, t)) for t in tiebreak_order(p)],
            standings_html(tournament, p, page=_page(request)),
        )
        if p.format not in ELIMINATION_FORMATS
        else (p, [], None)
        for p in phases
    ]
    return render(
        request,
        "public/standings.html",
        {"ctx": ctx, "t": tournament, "tab": "standings", "phases": order},
    )


#: Tables or pairs a page of a round or of the pairs shows (a club's tournament is one page),
#: and tables the tournament's page shows before its link to the round's page.
PAGE_SIZE = 100
HOME_TABLES = 40


def _paged(request: HttpRequest, items: list, name: str) -> dict:
    """One page of ``items`` (``?page=``; ``?partida=<id>``: the page of that match's table,
    which its ``#partida-<id>`` anchor then finds) as ``name``, and ``page`` when there are
    several."""
    paginator = Paginator(items, PAGE_SIZE)
    number = _page(request)
    wanted = request.GET.get("partida", "")
    if wanted.isdigit():
        at = next(
            (n for n, item in enumerate(items) if getattr(item, "match_id", None) == int(wanted)), 0
        )
        number = at // PAGE_SIZE + 1
    page = paginator.get_page(number)
    return {name: list(page), "page": page if paginator.num_pages > 1 else None}


def _page(request: HttpRequest) -> int:
    """The page asked for (``?page=``), 1 when it is not a number."""
    try:
        return int(request.GET.get("page", 1))
    except ValueError:
        return 1


@require_safe
def bracket_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    ctx = page_context(tournament)
    brackets = [
        b
        for p in ctx.phases
        if p.format in ELIMINATION_FORMATS and p.bracket
        for b in [bracket_view(tournament, p)]
        if b is not None
    ]
    return render(
        request,
        "public/bracket.html",
        {"ctx": ctx, "t": tournament, "tab": "bracket", "brackets": brackets},
    )


@require_safe
def round_page(
    request: HttpRequest, club_slug: str, tournament_slug: str, round_id: int
) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    try:
        rnd = round_get_readable(round_id=round_id, user=None)
    except NotFound:
        raise Http404(_("Esta ronda no existe o todavía no se ha publicado.")) from None
    if rnd.phase.tournament_id != tournament.id:
        raise Http404(_("Esta ronda no es de este torneo."))
    ctx = page_context(tournament)
    phase = next((p for p in ctx.phases if p.id == rnd.phase_id), rnd.phase)
    rnd.when = next((r.when for _p, r in ctx.rounds if r.id == rnd.id), rnd.scheduled_at)
    return render(
        request,
        "public/round.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "round",
            "round": rnd,
            "phase": phase,
            **_paged(request, table_views(tournament, phase, rnd.match_list), "tables"),
            "frances_tables": _frances_tables(tournament, rnd),
        },
    )


def _frances_tables(tournament: Tournament, rnd: Round) -> list[dict]:
    """A Mus francés round's tables: the players by seat and, once confirmed, the finishing
    order (two queries); nothing for other tournaments."""
    if tournament.entrant_kind != Tournament.EntrantKind.FRANCES:
        return []
    views = []
    for table in frances_table_list(round=rnd, user=None):
        seats = list(table.seats.all())
        names = {s.entry_id: str(s.entry) for s in seats}
        views.append(
            {
                "number": table.table_number,
                "players": [str(s.entry) for s in seats],
                "order": [names.get(p, "?") for p in (table.order or [])],
            }
        )
    return views


@require_safe
def pairs_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    ctx = page_context(tournament)
    entries = entry_list(tournament=tournament)
    playing = [pair_view(tournament, e) for e in entries if e.status != Entry.Status.WAITING]
    withdrawn = {e.id for e in entries if e.status == Entry.Status.WITHDRAWN}
    # left out when registration closed (the bases' field sizes): not "withdrawn" by choice
    dropped = {e.id for e in entries if e.dropped_at is not None}
    waiting = sum(1 for e in entries if e.status == Entry.Status.WAITING)
    return render(
        request,
        "public/pairs.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "pairs",
            **_paged(request, playing, "pairs"),
            "count": len(playing),
            "withdrawn": withdrawn,
            "dropped": dropped,
            "waiting": waiting,
        },
    )


@require_safe
def pair_page(
    request: HttpRequest, club_slug: str, tournament_slug: str, entry_id: int
) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id)
        .select_related("pair__player_one", "pair__player_two", "pair__club", "player_three")
        .first()
    )
    if entry is None:
        raise Http404(_("Esta pareja no está inscrita en este torneo."))
    ctx = page_context(tournament)
    phases = {p.id: p for p in ctx.phases}
    matches = []
    for m in entry_matches(tournament, entry):
        phase = phases.get(m.round.phase_id, m.round.phase)
        view = table_view(tournament, m, phase)
        own_a = m.entry_a_id == entry.id
        outcome = score = ""
        if view.score_a or view.state == "forfeit":
            outcome = "won" if m.winner_id == entry.id else "lost"
        if view.score_a:
            own, other = (view.score_a, view.score_b) if own_a else (view.score_b, view.score_a)
            score = f"{own}–{other}"
        view = replace(view, outcome=outcome, score=score, opponent=view.b if own_a else view.a)
        matches.append((phase, m.round, view))
    standing = []
    for phase in ctx.phases:
        if not phase.visible_rounds:
            continue
        for view in standings_view(tournament, phase):
            for line in view.lines:
                if line.entry_id == entry.id:
                    standing.append((view, line))
    return render(
        request,
        "public/pair.html",
        {
            "ctx": ctx,
            "t": tournament,
            "tab": "pairs",
            "entry": entry,
            "pair": pair_view(tournament, entry),
            "matches": matches,
            "standing": standing,
        },
    )


def _topic(club_slug: str, tournament_slug: str, **_: object) -> int:
    """The live topic of a tournament's public page: the tournament (404 as its page)."""
    return page_tournament(club_slug, tournament_slug).pk


_T = "torneos/<slug:club_slug>/<slug:tournament_slug>/"
# what the live push makes every spectator fetch again comes from the cache, once per event
_live = live_cached(_topic)

urlpatterns = [
    path("torneos/", tournaments_page, name="public-tournaments"),
    path("torneos/portada/", home_fragment, name="public-home-fragment"),
    path(_T, _live(tournament_page), name="tournament"),
    path(_T + "clasificacion/", _live(standings_page), name="public-standings"),
    path(_T + "cuadro/", _live(bracket_page), name="public-bracket"),
    path(_T + "rondas/<int:round_id>/", _live(round_page), name="public-round"),
    path(_T + "parejas/", _live(pairs_page), name="public-pairs"),
    path(_T + "parejas/<int:entry_id>/", _live(pair_page), name="public-pair"),
    path(_T + "pantalla/", screen_page, name="public-screen"),
    path(_T + "pantalla/contenido/", _live(screen_fragment), name="public-screen-fragment"),
]
