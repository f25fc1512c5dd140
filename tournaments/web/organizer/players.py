"""The organizer's page of a peña's players: who is probably the same person as one of them,
making two player rows one person, and the peña's merges with their undo.

Responsible for: the list of the peña's players (searched by name), the suggestions of the
players of other peñas who are probably one of them (the same licence, e-mail or name;
clubs.identity.selectors), the page that shows two rows side by side before they are merged
(with what stops it, asked of the service before offering the button), the merge and its undo
(POST, then back to the players' page), and the peña's merges. A domain error is shown on the
page that holds the form, in the reader's language.

Must not: decide who may merge or what cannot be one person (clubs.identity.services and
clubs.roles do), or show another peña's player's contact.

Terms: peña, jugador (player), fusión (merge), licencia (federation licence number).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.identity import selectors, services
from clubs.models import Club, PlayerMerge
from config.errors import error_message
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, load, status_of

#: players a page of the list shows (and the pick form offers, past one page): a peña's
#: players are one page; a federation's 2,000 are 20, found by the search box
PLAYERS_PAGE_SIZE = 100

#: the newest merges the page lists
MERGES_SHOWN = 50
#: the suggestions the page lists, strongest first (a common name may bring hundreds)
SUGGESTIONS_SHOWN = 100
REASONS = dict(PlayerMerge.Reason.choices)


def _reasons(codes) -> list[str]:
    return [str(REASONS[code]) for code in codes]


@login_required
def players(request: HttpRequest, club_slug: str, *, error: str = "", status: int = 200):
    club = get_object_or_404(Club, slug=club_slug)
    search = request.GET.get("q", "")[:80]
    found = load(club_selectors.players_for_club, user=request.user, club=club, search=search)
    paginator = Paginator(found, PLAYERS_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    listed = list(page)
    suggestions = selectors.player_duplicates(user=request.user, club=club)
    merges = list(selectors.player_merges_for_club(user=request.user, club=club)[:MERGES_SHOWN])
    # the pick form chooses among the whole peña when it fits one page, else among the page
    # shown (a search finds the two): two lists of a federation's 2,000 players were 0.5 MB
    every, from_page = listed, paginator.num_pages > 1
    if search and not from_page:
        whole = club_selectors.players_for_club(user=request.user, club=club)
        from_page = whole.count() > PLAYERS_PAGE_SIZE
        every = listed if from_page else list(whole)
    context = {
        "club": club,
        "search": search,
        "players": listed,
        "page": page if paginator.num_pages > 1 else None,
        "query": search,
        "found": paginator.count,
        "suggestions": [(s, _reasons(s.reasons)) for s in suggestions[:SUGGESTIONS_SHOWN]],
        "more_suggestions": max(0, len(suggestions) - SUGGESTIONS_SHOWN),
        "merges": [(m, REASONS[m.reason]) for m in merges],
        "pick_form": forms.PlayerPairPickForm(players=every) if len(every) > 1 else None,
        "pick_from_page": from_page,
        "error": error,
    }
    return render(request, "organizer/players.html", context, status=status)


@login_required
def player_merge(request: HttpRequest, club_slug: str):
    """GET: the two rows side by side, and whether they may be merged; POST: merge them."""
    club = get_object_or_404(Club, slug=club_slug)
    form = forms.PlayerMergeForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return players(request, club_slug, error=_("Elige los dos jugadores."), status=400)
    keep_id, other_id = form.cleaned_data["keep"], form.cleaned_data["other"]
    preview = load(
        selectors.player_merge_preview,
        user=request.user,
        club=club,
        keep_id=keep_id,
        other_id=other_id,
    )
    if request.method == "POST":
        try:
            merge = services.player_merge(
                actor=request.user, keep=preview.keep, other=preview.other
            )
        except USER_ERRORS as exc:
            return _preview(request, club, preview, error_message(exc), status_of(exc))
        messages.success(
            request,
            _("«%(other)s» y «%(keep)s» son ya una sola persona (fusión %(merge)s).")
            % {"other": preview.other, "keep": preview.keep, "merge": merge.pk},
        )
        return redirect("web:organizer-players", club.slug)
    try:
        services.player_merge_check(actor=request.user, keep=preview.keep, other=preview.other)
        problem = ""
    except USER_ERRORS as exc:
        problem = error_message(exc)
    return _preview(request, club, preview, problem, 200)


def _preview(request: HttpRequest, club: Club, preview, problem: str, status: int):
    context = {
        "club": club,
        "preview": preview,
        "reasons": _reasons(preview.reasons),
        "error": problem,
    }
    return render(request, "organizer/player_merge.html", context, status=status)


@login_required
@require_POST
def player_merge_undo(request: HttpRequest, club_slug: str, merge_id: int):
    club = get_object_or_404(Club, slug=club_slug)
    merge = load(selectors.player_merge_get, user=request.user, club=club, merge_id=merge_id)
    try:
        services.player_merge_undo(actor=request.user, merge=merge)
    except USER_ERRORS as exc:
        return players(request, club_slug, error=error_message(exc), status=status_of(exc))
    messages.success(
        request,
        _("Fusión %(merge)s deshecha: «%(other)s» y «%(keep)s» vuelven a ser dos jugadores.")
        % {"merge": merge.pk, "other": merge.other, "keep": merge.keep},
    )
    return redirect("web:organizer-players", club.slug)
