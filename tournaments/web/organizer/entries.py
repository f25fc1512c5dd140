"""The pairs of a tournament: registering them, checking them in, seeds and pinned mesas.

A tournament of trios shows its trios on the same page (pasted three names a line); one of
players alone (individual, Mus francés) shows its players instead (organizer/individuals.html:
pasted one name a line, checked in and withdrawn one tap each).

Responsible for: the pairs page of a tournament (who is registered, present, on the waiting
list or withdrawn) and its one-tap actions: register one pair (two players of the peña, or two
typed names), a pasted list (a pair's team name before a colon) or a CSV file, first shown as
a preview of what it would register (new players, players found, pairs, places) when asked;
a list with wrong lines shows each of them; check every pair in at once ("todos presentes"),
check a pair in or undo it (with organizer.js, without reloading the page: the answer is the
row and the counts that changed, ``_fragment``), withdraw it (and say who leaves the waiting
list in its place), set its seed and the mesa it always plays at. Each action comes back to the
same row of the list, or shows the page again with the error and what was typed.

Must not: decide whether a pair may register, check in or withdraw, or who is promoted from the
waiting list (tournaments.services.registration and .bulk do); read a list or a file itself;
write rows itself.

Terms: pareja (pair; an Entry in a tournament), inscripción, pasar lista (check-in), lista de
espera (waiting list), cabeza de serie (seed), mesa fija (pinned table), peña.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs import services as club_services
from config.errors import Conflict, error_message
from tournaments.models import Entry, Tournament
from tournaments.selectors.entrants import individual_list
from tournaments.selectors.registration import entry_list, entry_team_players
from tournaments.services import bulk as bulk_services
from tournaments.services import entrants as entrant_services
from tournaments.services import registration as registration_services
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, VIA, device_of, status_of, tournament_for


@login_required
def entries(
    request: HttpRequest,
    tournament_id: int,
    *,
    add_form=None,
    paste_form=None,
    entry_forms: dict | None = None,
    error: str | Exception = "",
    preview: bulk_services.Registration | None = None,
    status: int = 200,
):
    tournament = tournament_for(request, tournament_id)
    shown = {**_error_context(error), **_paste_context(tournament, paste_form, preview)}
    if tournament.entrant_kind in entrant_services.ALONE:
        return _individuals(request, tournament, shown, status)
    context = {
        **_roll(tournament, entry_forms or {}, **_listing(request)),
        **shown,
        "add_form": add_form or forms.EntryAddForm(players=_choices(request, tournament)),
        "trios": tournament.entrant_kind == Tournament.EntrantKind.TRIOS,
    }
    return render(request, "organizer/entries.html", context, status=status)


#: The most players the "one pair" form lists to choose from; a larger peña's organizer types
#: the two names (found among the peña's players by name, as a pasted list's are).
MAX_CHOICES = 200


def _choices(request: HttpRequest, tournament) -> list | None:
    """The peña's players for the form's two lists, or None when there are too many."""
    players = club_selectors.players_for_club(user=request.user, club=tournament.club)
    listed = list(players[: MAX_CHOICES + 1])
    return listed if len(listed) <= MAX_CHOICES else None


def _error_context(error: str | Exception) -> dict[str, Any]:
    """The error box: a text, or an error of several lines of a list, each on its own."""
    if not isinstance(error, Exception):
        return {"error": error}
    if getattr(error, "code", "") != "lines_invalid":
        return {"error": error_message(error)}
    count = error.params["count"]
    lines = [error_message(line) for line in error.params["errors"]]
    if count > len(lines):
        lines.append(_("… y %(n)s líneas más.") % {"n": count - len(lines)})
    text = ngettext(
        "%(n)s línea no se puede inscribir y no se ha inscrito nada; corrígela y vuelve a "
        "intentarlo:",
        "%(n)s líneas no se pueden inscribir y no se ha inscrito nada; corrígelas todas y "
        "vuelve a intentarlo:",
        count,
    ) % {"n": count}
    return {"error": text, "error_lines": lines}


#: How the preview says each player was found (clubs.services.RosterPerson.match).
MATCH_TEXTS = {
    "new": gettext_lazy("nuevo"),
    "name": gettext_lazy("ya en la peña"),
    "licence": gettext_lazy("ya en la peña, por su licencia"),
}
PAIR_TEXTS = {
    "new": gettext_lazy("pareja nueva"),
    "existing": gettext_lazy("pareja ya creada"),
    "renamed": gettext_lazy("pareja ya creada, con nombre nuevo"),
}


def _paste_context(tournament, paste_form, preview) -> dict[str, Any]:
    """The paste form, and the preview of what it would register, in words."""
    context: dict[str, Any] = {"paste_form": paste_form or forms.EntriesPasteForm()}
    if preview is None:
        return context
    trios = preview.kind == Tournament.EntrantKind.TRIOS
    position = 0
    rows = []
    for planned in preview.lines:
        if planned.status == Entry.Status.WAITING:
            position += 1
            place = _("en lista de espera (%(n)sº)") % {"n": position}
        else:
            alone = preview.kind in entrant_services.ALONE
            if planned.again is not None:
                place = _("inscrito de nuevo") if alone else _("inscrita de nuevo")
            else:
                place = _("inscrito") if alone else _("inscrita")
        players = []
        for person in planned.people:
            note = str(MATCH_TEXTS[person.match])
            if person.licence_added:
                note += " · " + _("se le añade la licencia")
            players.append(
                {"name": str(person.player), "licence": person.player.licence, "note": note}
            )
        pair = planned.pair
        pair_note = ""
        if pair is not None:
            pair_note = str(_("trío nuevo") if trios else PAIR_TEXTS[pair.state])
            if pair.state == "renamed":
                pair_note += " " + _("(antes: %(name)s)") % {"name": pair.old_name or "—"}
        club = (
            planned.club if planned.club is not None and planned.club != tournament.club else None
        )
        rows.append(
            {
                "line": planned.line.number,
                "players": players,
                "team": planned.line.team,
                "pair_note": pair_note,
                "club": club.name if club is not None else "",
                "place": place,
                "waiting": planned.status == Entry.Status.WAITING,
            }
        )
    counts = [
        ngettext("%(n)s jugador nuevo", "%(n)s jugadores nuevos", preview.new_players)
        % {"n": preview.new_players},
        ngettext(
            "%(n)s jugador que ya estaba en la peña",
            "%(n)s jugadores que ya estaban en la peña",
            preview.matched_players,
        )
        % {"n": preview.matched_players},
    ]
    if preview.kind in entrant_services.ALONE:
        counts.append(
            ngettext("%(n)s inscrito", "%(n)s inscritos", preview.registered)
            % {"n": preview.registered}
        )
    else:
        counts.append(
            ngettext("%(n)s pareja nueva", "%(n)s parejas nuevas", preview.new_pairs)
            % {"n": preview.new_pairs}
        )
        counts.append(
            ngettext("%(n)s con plaza", "%(n)s con plaza", preview.registered)
            % {"n": preview.registered}
        )
        if preview.waiting:
            counts.append(_("%(n)s en lista de espera") % {"n": preview.waiting})
    context["preview"] = {
        "rows": rows,
        "counts": counts,
        "csv": preview.source == "csv",
        "teams": preview.kind not in entrant_services.ALONE,
    }
    return context


#: Pairs a page of the list shows: a club's tournament is one page; a federation's 1,000 pairs
#: are 20, each under 60 KB on a phone.
PAGE_SIZE = 50


def _matches(entry, words: list[str]) -> bool:
    """The search box: every word in the pair's name, its players' or its peña's, or a number
    that is its seed or its pinned table."""
    text = " ".join(
        [str(entry.pair), str(entry.pair.player_one), str(entry.pair.player_two)]
        + ([str(entry.player_three)] if entry.player_three_id else [])
        + ([entry.pair.club.name] if entry.pair.club_id else [])
    ).casefold()
    numbers = {str(entry.seed), str(entry.pinned_table)}
    return all(word in text or word in numbers for word in words)


def _roll(
    tournament,
    entry_forms: dict,
    *,
    page: Any = None,
    query: str = "",
    focus: int | None = None,
    options: int | None = None,
) -> dict[str, Any]:
    """The pairs with their row forms, and the counts over them (the page and its fragments).

    Counts are of every pair; the list is one page of ``PAGE_SIZE`` (the one holding ``focus``,
    or a pair with a form to show again, when there is one) of the pairs that match ``query``.
    A row's options (seed, pinned table, withdraw) are written out only for the row asked for
    (``options``) or one with a form to show again: each takes a kilobyte."""
    every = [e for e in entry_list(tournament=tournament) if not e.drawn]
    words = query.casefold().split()
    rows = [e for e in every if _matches(e, words)] if words else every
    focus = focus or next((key[1] for key in entry_forms), None)
    paginator = Paginator(rows, PAGE_SIZE)
    if focus is not None:
        at = next((n for n, e in enumerate(rows) if e.pk == focus), 0)
        page = at // PAGE_SIZE + 1
    shown = paginator.get_page(page)
    for entry in shown:
        entry.open = any(key[1] == entry.pk for key in entry_forms)
        entry.options = entry.open or entry.pk == options
        if entry.options:
            entry.seed_form = entry_forms.get(("seed", entry.pk)) or forms.SeedForm(
                initial={"seed": entry.seed}, prefix=f"seed{entry.pk}"
            )
            entry.pin_form = entry_forms.get(("pin", entry.pk)) or forms.PinForm(
                initial={"table": entry.pinned_table}, prefix=f"pin{entry.pk}"
            )
        entry.team_players = " / ".join(str(player) for player in entry_team_players(entry))
    counts = Counter(entry.status for entry in every)
    return {
        "tournament": tournament,
        "entries": list(shown),
        "page": shown,
        "paged": paginator.num_pages > 1,
        "query": query,
        "found": len(rows),
        "total": len(every),
        "counts": {
            "registered": counts[Entry.Status.REGISTERED] + counts[Entry.Status.CHECKED_IN],
            "checked_in": counts[Entry.Status.CHECKED_IN],
            "absent": counts[Entry.Status.REGISTERED],
            "waiting": counts[Entry.Status.WAITING],
            "withdrawn": counts[Entry.Status.WITHDRAWN],
        },
    }


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _listing(request: HttpRequest) -> dict[str, Any]:
    """What the list shows, from the address (GET) or the form sent (POST): its page, the
    search and the row whose options are open."""
    data = request.GET if request.method == "GET" else request.POST
    return {
        "page": data.get("page") or request.GET.get("page"),
        "query": (data.get("q") or request.GET.get("q") or "").strip()[:100],
        "options": _int(request.GET.get("opciones")),
    }


def _wants_fragment(request: HttpRequest) -> bool:
    """A tap sent by organizer.js (fetch): answer the changed pieces, not a redirect."""
    return request.headers.get("X-Fragment") == "1"


def _fragment(request: HttpRequest, tournament, entry_id: int | None = None) -> HttpResponse:
    """The counts and the one row that changed (or the whole roll): organizer.js puts each
    element of the answer in place of the element of the page with the same id."""
    context = _roll(tournament, {}, focus=entry_id, **_listing(request))
    if entry_id is not None:
        context["row"] = next((e for e in context["entries"] if e.pk == entry_id), None)
    response = render(request, "organizer/_entries_fragment.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _individuals(request: HttpRequest, tournament, shown: dict, status: int):
    rows = individual_list(tournament=tournament)
    counts = Counter(row.status for row in rows)
    context = {
        **shown,
        "tournament": tournament,
        "players": rows,
        "counts": {
            "registered": counts[Entry.Status.REGISTERED] + counts[Entry.Status.CHECKED_IN],
            "checked_in": counts[Entry.Status.CHECKED_IN],
            "withdrawn": counts[Entry.Status.WITHDRAWN],
        },
        "frances": tournament.entrant_kind == Tournament.EntrantKind.FRANCES,
    }
    return render(request, "organizer/individuals.html", context, status=status)


def _paste(tournament, text: str, **common) -> list:
    """The pasted list registered as the tournament's kind of entrant takes it."""
    return bulk_services.entrants_register_text(tournament=tournament, text=text, **common).entries


def _entries_url(tournament_id: int, entry_id: int | None = None) -> str:
    """The pairs page, at the row of ``entry_id`` (on the page of the list that holds it)."""
    url = reverse("web:organizer-entries", kwargs={"tournament_id": tournament_id})
    if not entry_id:
        return url
    order = [e.pk for e in entry_list(tournament=Tournament(pk=tournament_id)) if not e.drawn]
    page = order.index(entry_id) // PAGE_SIZE + 1 if entry_id in order else 1
    return f"{url}?page={page}#e{entry_id}" if page > 1 else f"{url}#e{entry_id}"


def _registered_text(registered: list, tournament=None) -> str:
    kind = tournament.entrant_kind if tournament is not None else Tournament.EntrantKind.PAIRS
    if kind in entrant_services.ALONE:
        n = len(registered)
        return ngettext("%(n)s jugador inscrito.", "%(n)s jugadores inscritos.", n) % {"n": n}
    waiting = sum(1 for e in registered if e.status == Entry.Status.WAITING)
    count = len(registered) - waiting
    if kind == Tournament.EntrantKind.TRIOS:
        text = ngettext("%(n)s trío inscrito.", "%(n)s tríos inscritos.", count) % {"n": count}
        if waiting:
            text += " " + ngettext(
                "%(n)s trío en lista de espera.", "%(n)s tríos en lista de espera.", waiting
            ) % {"n": waiting}
        return text
    text = ngettext("%(n)s pareja inscrita.", "%(n)s parejas inscritas.", count) % {"n": count}
    if waiting:
        text += " " + ngettext(
            "%(n)s pareja en lista de espera.", "%(n)s parejas en lista de espera.", waiting
        ) % {"n": waiting}
    return text


@login_required
@require_POST
def entry_add(request: HttpRequest, tournament_id: int):
    tournament = tournament_for(request, tournament_id)
    form = forms.EntryAddForm(request.POST, players=_choices(request, tournament))
    if not form.is_valid():
        return entries(request, tournament.pk, add_form=form, status=400)
    data = form.cleaned_data
    common = {"tournament": tournament, "actor": request.user, "via": VIA}
    try:
        if data["names"]:
            registered = _paste(
                tournament,
                data["names"],
                actor=request.user,
                via=VIA,
                device=device_of(request),
            )
        else:
            try:
                pair = club_services.pair_create(
                    user=request.user,
                    club=tournament.club,
                    player_one_id=data["player_one"],
                    player_two_id=data["player_two"],
                )
                pair_id = pair.pk
            except Conflict as exc:
                if exc.code != "pair_exists":
                    raise
                pair_id = exc.params["pair_id"]  # the two already are a pair: register it
            registered = [
                registration_services.entry_register(
                    pair_id=pair_id, device=device_of(request), **common
                )
            ]
    except USER_ERRORS as exc:
        return entries(
            request, tournament.pk, add_form=form, error=error_message(exc), status=status_of(exc)
        )
    messages.success(request, _registered_text(registered))
    return redirect(_entries_url(tournament.pk))


@login_required
@require_POST
def entries_paste(request: HttpRequest, tournament_id: int):
    """A pasted list or a CSV file: "Vista previa" (``preview``) shows what it would register
    and keeps the list (a file's text in ``csv_text``) for "Inscribir la lista"."""
    tournament = tournament_for(request, tournament_id)
    form = forms.EntriesPasteForm(request.POST, request.FILES)
    if not form.is_valid():
        return entries(request, tournament.pk, paste_form=form, status=400)
    data = form.cleaned_data
    common = {
        "tournament": tournament,
        "actor": request.user,
        "via": VIA,
        "device": device_of(request),
        "preview": bool(request.POST.get("preview")),
    }
    content: bytes | str = data["csv_text"]
    if data["file"] is not None:
        # One byte beyond the limit is enough to refuse a larger file.
        content = data["file"].read(bulk_services.MAX_CSV_BYTES + 1)
    try:
        if content:
            registration = bulk_services.entrants_register_csv(data=content, **common)
        else:
            registration = bulk_services.entrants_register_text(text=data["text"], **common)
    except USER_ERRORS as exc:
        return entries(request, tournament.pk, paste_form=form, error=exc, status=status_of(exc))
    if registration.preview:
        if content:  # the file's text goes back with the form, to be registered as previewed
            text = content.decode("utf-8-sig") if isinstance(content, bytes) else content
            form = forms.EntriesPasteForm({"text": "", "csv_text": text})
        return entries(request, tournament.pk, paste_form=form, preview=registration)
    messages.success(request, _registered_text(registration.entries, tournament))
    return redirect(_entries_url(tournament.pk))


def _entry_action(service: Callable[..., Any]) -> Callable[..., HttpResponse]:
    """A one-tap POST on one entry (check in, undo, withdraw): back to the list at that row."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, entry_id: int):
        tournament = tournament_for(request, tournament_id)
        try:
            result = service(
                tournament=tournament,
                entry_id=entry_id,
                actor=request.user,
                via=VIA,
                device=device_of(request),
            )
        except USER_ERRORS as exc:
            return entries(request, tournament.pk, error=error_message(exc), status=status_of(exc))
        if _wants_fragment(request) and not isinstance(result, registration_services.Withdrawal):
            return _fragment(request, tournament, entry_id)
        if isinstance(result, registration_services.Withdrawal):
            text = _("%(pair)s se ha retirado.") % {"pair": result.entry.pair}
            if result.promoted is not None:
                text += " " + _("%(pair)s sale de la lista de espera y ocupa su plaza.") % {
                    "pair": result.promoted.pair
                }
            messages.success(request, text)
        return redirect(_entries_url(tournament.pk, entry_id))

    return view


entry_check_in = _entry_action(registration_services.entry_check_in)
entry_check_in_undo = _entry_action(registration_services.entry_check_in_undo)
entry_withdraw = _entry_action(registration_services.entry_withdraw)


@login_required
@require_POST
def entries_check_in_all(request: HttpRequest, tournament_id: int):
    """ "Todos presentes": every registered pair present; the absent ones are undone one by one."""
    tournament = tournament_for(request, tournament_id)
    try:
        done = registration_services.entries_check_in_all(
            tournament=tournament, actor=request.user, via=VIA, device=device_of(request)
        )
    except USER_ERRORS as exc:
        return entries(request, tournament.pk, error=error_message(exc), status=status_of(exc))
    if _wants_fragment(request):
        return _fragment(request, tournament)
    messages.success(
        request,
        ngettext("%(n)s pareja marcada presente.", "%(n)s parejas marcadas presentes.", len(done))
        % {"n": len(done)},
    )
    return redirect(_entries_url(tournament.pk))


def _entry_form_action(form_class, name: str, service, argument: str, done: str):
    """A one-field form on a row of the pairs page (seed, pinned table): validate, call the
    service, and come back to the same row, or show the page again with the error."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, entry_id: int):
        tournament = tournament_for(request, tournament_id)
        form = form_class(request.POST, prefix=f"{name}{entry_id}")
        bound = {(name, entry_id): form}
        if not form.is_valid():
            return entries(request, tournament.pk, entry_forms=bound, status=400)
        try:
            service(
                tournament=tournament,
                entry_id=entry_id,
                actor=request.user,
                via=VIA,
                device=device_of(request),
                **{argument: form.cleaned_data[argument]},
            )
        except USER_ERRORS as exc:
            return entries(
                request,
                tournament.pk,
                entry_forms=bound,
                error=error_message(exc),
                status=status_of(exc),
            )
        messages.success(request, done)
        return redirect(_entries_url(tournament.pk, entry_id))

    return view


entry_seed = _entry_form_action(
    forms.SeedForm,
    "seed",
    registration_services.entry_seed_set,
    "seed",
    gettext_lazy("Cabeza de serie guardada."),
)
entry_pin = _entry_form_action(
    forms.PinForm,
    "pin",
    registration_services.entry_table_pin,
    "table",
    gettext_lazy("Mesa fija guardada."),
)


def _individual_action(service: Callable[..., Any], **fixed) -> Callable[..., HttpResponse]:
    """A one-tap POST on one player alone (present, absent, withdraw): back to their row."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, individual_id: int):
        tournament = tournament_for(request, tournament_id)
        try:
            row = service(
                tournament=tournament,
                individual_id=individual_id,
                actor=request.user,
                via=VIA,
                device=device_of(request),
                **fixed,
            )
        except USER_ERRORS as exc:
            return entries(request, tournament.pk, error=error_message(exc), status=status_of(exc))
        if row.status == Entry.Status.WITHDRAWN:
            messages.success(request, _("%(player)s se ha retirado.") % {"player": row.player})
        url = reverse("web:organizer-entries", kwargs={"tournament_id": tournament.pk})
        return redirect(f"{url}#i{individual_id}")

    return view


individual_check_in = _individual_action(entrant_services.individual_check_in)
individual_check_in_undo = _individual_action(entrant_services.individual_check_in, present=False)
individual_withdraw = _individual_action(entrant_services.individual_withdraw)
