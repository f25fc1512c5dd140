"""The venue's big screen (`.../pantalla/`): a page that refreshes itself from a fragment.

Responsible for: the TV's context — the round's mesas in even pages (tournaments.web.screen_pages,
``SCREEN_TABLES_PER_PAGE`` measured at 1920×1080 by tests/browser/test_browser_tv.py), and the
standings or, during a knockout, the bracket — and its two views, the page and its fragment.

Must not: show what is not public (it reads as an anonymous visitor, though the venue's TV is
often signed in), or anything but display values.

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from __future__ import annotations

from dataclasses import replace

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
    round_matches,
)
from tournaments.web.public.brackets import bracket_view
from tournaments.web.public.display import (
    page_context,
    page_tournament,
    standings_view,
    table_views,
)
from tournaments.web.screen_pages import pages_of

#: how often the big screen fetches its content again, in seconds
SCREEN_REFRESH_SECONDS = 20


#: how long the big screen shows one slide (or one screenful of it) when both do not fit
SCREEN_SLIDE_SECONDS = 12


#: mesas on one page of the big screen (three columns of six at 1920×1080, or any 16:9 TV:
#: the type scales with the width); more are split evenly over pages (screen_pages)
SCREEN_TABLES_PER_PAGE = 18

#: pages of mesas one answer holds, the TV rotating through them: a club's round (up to 54
#: mesas) comes whole; a federation's 500 come one page an answer, each refresh asking for the
#: next (``?page=``), so that an answer stays a screenful (it was 336 KB with every mesa)
SCREEN_PAGES_AT_ONCE = 3

#: the lines of a group's standings the TV shows: the top of a federation's 1,000 pairs (the
#: rest are on the standings page); a club's field is shown whole
SCREEN_STANDINGS_LINES = 100


def _window(pages: list[list], request: HttpRequest) -> tuple[list[list], int, int]:
    """The pages of mesas of this answer, the number of its first and of the next answer's
    (0 when every page is in this one): one page at a time past ``SCREEN_PAGES_AT_ONCE``,
    ``?page=`` counted from 1 and coming back to the first after the last."""
    if len(pages) <= SCREEN_PAGES_AT_ONCE:
        return pages, 1, 0
    try:
        number = (int(request.GET.get("page", 1)) - 1) % len(pages) + 1
    except ValueError:
        number = 1
    return [pages[number - 1]], number, number % len(pages) + 1


def _screen_context(tournament: Tournament, request: HttpRequest) -> dict:
    """The TV's slides: the round's mesas (in even pages, a window of them for a large round),
    and the standings (their top) or, during a knockout, the bracket."""
    ctx = page_context(tournament)
    phase, rnd = ctx.current_phase, ctx.current_round
    tables = table_views(tournament, phase, round_matches(rnd=rnd)) if rnd else []
    all_pages = pages_of(tables, SCREEN_TABLES_PER_PAGE)
    table_pages, first, next_page = _window(all_pages, request)
    standings = []
    bracket = None
    if phase is not None and phase.format in ELIMINATION_FORMATS:
        bracket = bracket_view(tournament, phase)
    elif phase is not None:
        standings = standings_view(tournament, phase)
    shown = [replace(s, lines=s.lines[:SCREEN_STANDINGS_LINES]) for s in standings if s.lines]
    return {
        "ctx": ctx,
        "t": tournament,
        "tables": tables,
        "table_pages": table_pages,
        "page_first": first,
        "page_total": len(all_pages),
        "next_page": next_page,
        "standings": shown,
        "bracket": bracket,
        "now": timezone.localtime(),
    }


@require_safe
def screen_page(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    context = _screen_context(tournament, request)
    context.update(refresh=SCREEN_REFRESH_SECONDS, slide=SCREEN_SLIDE_SECONDS)
    return render(request, "public/screen.html", context)


@require_safe
def screen_fragment(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    tournament = page_tournament(club_slug, tournament_slug)
    response = render(request, "public/_screen_content.html", _screen_context(tournament, request))
    response["Cache-Control"] = "no-store"
    return response
