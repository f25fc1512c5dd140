"""One round at the desk: adjusting the draw, publishing it, its live board and closing it.

Responsible for: the round's page (its partidas by mesa, the byes, the free mesas) with the
adjustments allowed before any partida starts (swap two pairs, swap two mesas, move a partida
to a free mesa), publishing the round, the live board of a published round (each mesa's state,
refreshed every ``BOARD_REFRESH`` seconds) and closing the round once every mesa has its result.

Must not: decide whether a round may still change, be published or be closed (the services
do); count a result (scoring/ does); write rows itself.

A Mus francés round shows its tables (players by seat, the link of each, and a form for the
organizer's official finishing order); an individual round also says who rests.

Terms: ronda (round), mesa (table), partida (a Match), pareja (pair), descanso (bye), tablero
(board), disputa.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import error_message
from config.live import live_stream
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.selectors import results as result_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.entrants import frances_table_get, frances_table_list, individual_list
from tournaments.services import rounds as round_services
from tournaments.services.frances import frances_result_submit
from tournaments.web.names import round_name
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, round_for, status_of

#: How often the board reloads itself, in seconds.
BOARD_REFRESH = 15

#: Tables a page of the round or of its board shows: a club's round (up to 50 tables) is one
#: page, and its forms choose the pairs and tables from lists; a federation's 500 tables come
#: 50 a page, and the forms take a table's number (and A or B for a pair) typed instead.
TABLES_PAGE_SIZE = 50

#: Tables the board's first page names as needing attention (in dispute, waiting for the
#: other pair's confirmation) before its link to all of them.
ATTENTION_SHOWN = 30


def _tables_page(request: HttpRequest, rows: list[Match], suffix: str = "") -> dict:
    """One page of ``rows`` (``?page=``; ``?partida=<id>``: the page holding that partida, which
    its ``#partida-<id>`` anchor then finds), and ``page`` when there are several."""
    paginator = Paginator(rows, TABLES_PAGE_SIZE)
    number = request.GET.get("page")
    wanted = request.GET.get("partida", "")
    if wanted.isdigit():
        at = next((n for n, m in enumerate(rows) if m.pk == int(wanted)), 0)
        number = at // TABLES_PAGE_SIZE + 1
    page = paginator.get_page(number)
    return {
        "tables": list(page),
        "page": page if paginator.num_pages > 1 else None,
        "page_suffix": suffix,
    }


def _typed(tabled: list[Match]) -> bool:
    """A round too large for its forms' lists: its pairs and tables are typed."""
    return len(tabled) > TABLES_PAGE_SIZE


def _form_options(form_class, matches: list[Match], tabled: list[Match]) -> dict:
    if form_class is forms.SwapEntriesForm:
        if _typed(tabled):
            return {"matches": matches}
        return {"entries": _round_entries(matches)}
    return {"matches": tabled, "typed": _typed(tabled)}


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
    rnd = round_for(request, round_id)
    matches = round_selectors.round_matches(rnd=rnd)
    tabled = [m for m in matches if m.kind != Match.Kind.BYE and m.table_number]
    used = {m.table_number for m in tabled}
    limit = rnd.phase.tournament.tables_available
    free = [n for n in range(1, limit + 1) if n not in used] if limit else []
    bound = bound or {}
    adjustable = rnd.status != Round.Status.CLOSED and not _started(matches)
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": matches,
        **_tables_page(request, [m for m in matches if m.kind != Match.Kind.BYE]),
        "byes": [m for m in matches if m.kind == Match.Kind.BYE],
        "adjustable": adjustable,
        "free_tables": free,
        "open": next(iter(bound), ""),
        # round 1 of a phase in groups: a pair may still move to another group
        "group_move": _group_move(rnd),
        "error": error,
        **_players_alone(request, rnd),
    }
    if adjustable:  # a started round has no forms: a large one's lists cost nothing then
        context.update(
            swap_entries_form=bound.get("swap_entries")
            or forms.SwapEntriesForm(**_form_options(forms.SwapEntriesForm, matches, tabled)),
            swap_tables_form=bound.get("swap_tables")
            or forms.SwapTablesForm(**_form_options(forms.SwapTablesForm, matches, tabled)),
            move_form=bound.get("move")
            or forms.MoveTableForm(
                **_form_options(forms.MoveTableForm, matches, tabled),
                initial={"table_number": free[0] if free else None},
            ),
        )
    return render(request, "organizer/round.html", context, status=status)


def _group_move(rnd: Round) -> dict | None:
    """The pairs and groups of round 1 of a phase in groups (for *Mover de grupo*), else None."""
    groups = (rnd.phase.settings or {}).get("groups")
    if rnd.number != 1 or not groups:
        return None
    names = {
        e.pk: str(e.pair)
        for e in Entry.objects.filter(
            pk__in=[i for g in groups for i in g["entry_ids"]]
        ).select_related("pair")
    }
    return {
        "entries": [
            (i, f"{names.get(i, i)} ({g['name']})") for g in groups for i in g["entry_ids"]
        ],
        "groups": [g["name"] for g in groups],
    }


def _players_alone(request: HttpRequest, rnd: Round) -> dict:
    """A round of players alone: its Mus francés tables (with their links and the order form)
    or the players who rest (individual); nothing for pairs."""
    tournament = rnd.phase.tournament
    if tournament.entrant_kind == Tournament.EntrantKind.FRANCES:
        tables = frances_table_list(round=rnd, user=request.user)
        for table in tables:
            table.seat_list = list(table.seats.all())
            table.place_numbers = range(1, len(table.seat_list) + 1)
            table.names = {s.entry_id: str(s.entry) for s in table.seat_list}
            table.final = [table.names.get(p, p) for p in (table.order or [])]
        return {"frances_tables": tables}
    if tournament.entrant_kind == Tournament.EntrantKind.INDIVIDUALS:
        ids = (rnd.phase.settings or {}).get("rests", {}).get(str(rnd.number), [])
        return {"rests": [str(p) for p in individual_list(tournament=tournament) if p.pk in ids]}
    return {}


@login_required
@require_POST
def frances_result(request: HttpRequest, round_id: int, table_id: int):
    """The organizer's finishing order of a Mus francés table: official at once."""
    rnd = round_for(request, round_id)
    table = frances_table_get(table_id=table_id)
    if table.round_id != rnd.pk:
        return round_detail(request, rnd.pk, status=404)
    count = table.seats.count()
    raw = [request.POST.get(f"t{table.pk}_place{n}", "") for n in range(1, count + 1)]
    try:
        frances_result_submit(
            table=table,
            order=[int(v) if v.isdigit() else v for v in raw],
            idempotency_key=request.POST.get("idempotency_key", ""),
            version=int(request.POST.get("version") or -1),
            via="account",
            actor=request.user,
            device=(request.headers.get("User-Agent") or "")[:200],
        )
    except USER_ERRORS as exc:
        return round_detail(request, rnd.pk, error=error_message(exc), status=status_of(exc))
    messages.success(request, _("Orden de la mesa %(n)s guardado.") % {"n": table.table_number})
    return redirect("web:organizer-round", round_id=rnd.pk)


def _table_text(match: Match | None) -> str:
    if match is None or match.kind == Match.Kind.BYE or not match.table_number:
        return _("descanso")
    return _("mesa %(n)s") % {"n": match.table_number}


def _match_text(match: Match) -> str:
    """A partida by its pairs: "Ana / Luis – Carmen / Pedro"."""
    pairs = [str(e.pair) for e in (match.entry_a, match.entry_b) if e is not None]
    return " – ".join(pairs)


def _swapped_entries(matches: list[Match], data: dict) -> str:
    """What a swap of pairs did, both ends named: "Ana / Luis (mesa 2) ↔ Rosa / Juan (mesa 3)"."""
    where = {e.pk: (e, m) for m in matches for e in (m.entry_a, m.entry_b) if e is not None}
    (one, first), (other, second) = where[data["entry_id"]], where[data["other_entry_id"]]
    return _("Parejas cambiadas: %(one)s (%(here)s) ↔ %(other)s (%(there)s).") % {
        "one": one.pair,
        "here": _table_text(first),
        "other": other.pair,
        "there": _table_text(second),
    }


def _swapped_tables(matches: list[Match], data: dict) -> str:
    by_id = {m.pk: m for m in matches}
    first, second = by_id[data["match_id"]], by_id[data["other_match_id"]]
    return _("Mesas cambiadas: %(here)s ↔ %(there)s. %(one)s juega en la %(there)s.") % {
        "here": _table_text(first),
        "there": _table_text(second),
        "one": _match_text(first),
    }


def _moved(matches: list[Match], data: dict) -> str:
    match = next(m for m in matches if m.pk == data["match_id"])
    return _("%(match)s: de la %(here)s a la mesa %(n)s.") % {
        "match": _match_text(match),
        "here": _table_text(match),
        "n": data["table_number"],
    }


def _round_change(form_class, key: str, service: Callable[..., Any], done: Callable[..., str]):
    """A change to a round before it starts: swap two pairs, swap two tables, move a table.
    ``done`` says what changed, naming the pairs and mesas, from the round as it was."""

    @login_required
    @require_POST
    def view(request: HttpRequest, round_id: int):
        rnd = round_for(request, round_id)
        matches = round_selectors.round_matches(rnd=rnd)
        tabled = [m for m in matches if m.kind != Match.Kind.BYE and m.table_number]
        form = form_class(request.POST, **_form_options(form_class, matches, tabled))
        if not form.is_valid():
            return round_detail(request, rnd.pk, bound={key: form}, status=400)
        try:
            service(round=rnd, actor=request.user, **form.cleaned_data)
        except USER_ERRORS as exc:
            return round_detail(
                request,
                rnd.pk,
                bound={key: form},
                error=error_message(exc),
                status=status_of(exc),
            )
        messages.success(request, done(list(matches), form.cleaned_data))
        return redirect("web:organizer-round", round_id=rnd.pk)

    return view


round_swap_entries = _round_change(
    forms.SwapEntriesForm, "swap_entries", round_services.round_entries_swap, _swapped_entries
)
round_swap_tables = _round_change(
    forms.SwapTablesForm, "swap_tables", round_services.round_tables_swap, _swapped_tables
)
round_move_table = _round_change(
    forms.MoveTableForm, "move", round_services.match_table_move, _moved
)


@login_required
@require_POST
def round_publish(request: HttpRequest, round_id: int):
    rnd = round_for(request, round_id)
    try:
        round_services.round_publish(round=rnd, actor=request.user)
    except USER_ERRORS as exc:
        return round_detail(request, rnd.pk, error=error_message(exc), status=status_of(exc))
    messages.success(
        request,
        _("Publicada: %(round)s. Imprime las hojas de mesa con su código QR.")
        % {"round": round_name(rnd)},
    )
    return redirect("web:organizer-round", round_id=rnd.pk)


@login_required
def round_board(request: HttpRequest, round_id: int, *, error: str = "", status: int = 200):
    rnd = round_for(request, round_id)
    matches = list(result_selectors.round_board(rnd=rnd))
    played = [m for m in matches if m.kind != Match.Kind.BYE]
    counts = Counter(m.status for m in played)
    summary = [
        (value, label, counts[value])
        for value, label in Match.Status.choices
        if counts[value] or value == Match.Status.CONFIRMED  # never a "0 en disputa"
    ]
    rows = sorted(matches, key=lambda m: (m.kind == Match.Kind.BYE, m.table_number or 0, m.id))
    wanted = request.GET.get("estado", "")
    shown = [m for m in rows if m.status == wanted] if wanted in counts else rows
    suffix = f"&estado={wanted}" if wanted in counts else ""
    paged = _tables_page(request, shown, suffix)
    attention = []
    if paged["page"] is not None and not suffix:
        attention = [
            (value, label, [m for m in rows if m.status == value][:ATTENTION_SHOWN], counts[value])
            for value, label in Match.Status.choices
            if value in (Match.Status.DISPUTED, Match.Status.SUBMITTED) and counts[value]
        ]
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": paged["tables"],
        "page": paged["page"],
        "page_suffix": suffix,
        "status_filter": wanted if suffix else "",
        "filterable": paged["page"] is not None or bool(suffix),
        "attention": attention,
        "summary": summary,
        "complete": bool(played) and counts[Match.Status.CONFIRMED] == len(played),
        "refresh": BOARD_REFRESH if rnd.status == Round.Status.PUBLISHED and not error else 0,
        "error": error,
        # the organizer's stream (their session): each table's state as it changes
        "live": live_stream(f"organizador/{rnd.phase.tournament_id}", rnd.phase.tournament_id)
        if rnd.status == Round.Status.PUBLISHED
        else None,
    }
    return render(request, "organizer/board.html", context, status=status)


@login_required
@require_POST
def round_close(request: HttpRequest, round_id: int):
    rnd = round_for(request, round_id)
    try:
        round_services.round_close(round=rnd, actor=request.user)
    except USER_ERRORS as exc:
        return round_board(request, rnd.pk, error=error_message(exc), status=status_of(exc))
    messages.success(request, _("Cerrada: %(round)s.") % {"round": round_name(rnd)})
    return redirect("web:organizer-tournament", tournament_id=rnd.phase.tournament_id)
