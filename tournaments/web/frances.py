"""Pages of a Mus francés table: what the phones at the table show through its secret link.

Responsible for: the page behind ``/mesa-frances/<token>/`` (the QR of the table's sheet): who
sits at the table and in which seat, the finishing order to enter (1st, 2nd, … each a choice
among the table's players: the first to run out of chips wins) with the seat of who enters it,
the version another seat entered and the button to confirm it, and the final order once
confirmed. Each POST calls the same service as the API's link door (tournaments.services.frances)
and redirects (POST/redirect/GET); an error is shown on the same page with what was chosen
kept. As on the pairs' table pages the token is the credential: no login, no CSRF token; every
write carries the table's version and an idempotency key rendered into the form.

Must not: decide whether an order is valid or confirms (the service does).

Terms: mesa de mus francés, asiento (seat), orden de llegada (finishing order), fichas (chips).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from config.errors import DomainError, error_message
from config.live import live_stream
from tournaments.models import FrancesTable, Match
from tournaments.selectors.entrants import frances_table_for_link
from tournaments.services.frances import (
    frances_result_confirm,
    frances_result_submit,
    frances_state,
)
from tournaments.web.names import round_name


def _number(raw: Any) -> Any:
    raw = str(raw or "").strip()
    return int(raw) if raw.isdigit() else raw


def _render(
    request: HttpRequest,
    table: FrancesTable,
    *,
    error: Exception | None = None,
    post: Any = None,
    status: int = 200,
) -> HttpResponse:
    seats = list(table.seats.all())
    names = {s.entry_id: str(s.entry) for s in seats}
    seat_of = {s.entry_id: s.seat for s in seats}
    state = frances_state(table)
    chosen = [_number(post.get(f"place{n}")) for n in range(1, len(seats) + 1)] if post else []
    places = [
        {"n": n, "chosen": chosen[n - 1] if chosen else None} for n in range(1, len(seats) + 1)
    ]
    latest = state["submitted"][-1] if state["submitted"] else None
    my_seat = _number(post.get("seat")) if post else request.session.get(_seat_key(table))
    # who confirms: this phone's seat unless it entered the latest order, else the next seat
    others = [s.seat for s in seats if latest is None or s.seat != latest["seat"]]
    confirm_seat = my_seat if my_seat in others else (others[0] if others else None)
    context = {
        "table": table,
        "round_label": round_name(table.round),
        "tournament": table.round.phase.tournament,
        "seats": seats,
        "places": places,
        "state": state,
        "latest": (
            {
                "seat": latest["seat"],
                "order": [
                    {"name": names.get(p, p), "seat": seat_of.get(p)} for p in latest["order"]
                ],
            }
            if latest
            else None
        ),
        "final": [names.get(p, p) for p in (table.order or [])],
        "open": table.status != Match.Status.CONFIRMED and table.round.status == "published",
        "error": error_message(error) if error is not None else "",
        "my_seat": my_seat,
        "confirm_seat": confirm_seat,
        "key": uuid.uuid4().hex,
    }
    # the table's stream: another seat's order, a dispute, the confirmation, shown as they
    # happen (static/js/live.js swaps the page when the table's status changes)
    live = live_stream(f"mesa-frances/{table.token}", table.round.phase.tournament_id)
    if live is not None:
        context["live"] = {**live, "state": table.status}
    return render(request, "tables/frances.html", context, status=status)


def _seat_key(table: FrancesTable) -> str:
    return f"frances-seat-{table.pk}"


def _table_or_404(request: HttpRequest, token: str) -> FrancesTable | HttpResponse:
    table = frances_table_for_link(token=token)
    if table is None:
        context = {
            "error": _("Este enlace de mesa no es válido. Vuelve a escanear el QR de la mesa."),
            "missing": True,
        }
        return render(request, "tables/error.html", context, status=404)
    return table


@require_GET
def frances_page(request: HttpRequest, token: str) -> HttpResponse:
    table = _table_or_404(request, token)
    if isinstance(table, HttpResponse):
        return table
    return _render(request, table)


def _version(post: Any) -> Any:
    return _number(post.get("version"))


@csrf_exempt
@require_POST
def frances_submit(request: HttpRequest, token: str) -> HttpResponse:
    """A seat's finishing order: place 1, 2, … each one of the table's players."""
    table = _table_or_404(request, token)
    if isinstance(table, HttpResponse):
        return table
    post = request.POST
    count = table.seats.count()
    try:
        frances_result_submit(
            table=table,
            seat=_number(post.get("seat")),
            order=[_number(post.get(f"place{n}")) for n in range(1, count + 1)],
            idempotency_key=post.get("idempotency_key", ""),
            version=_version(post),
            via="link",
            device=(request.headers.get("User-Agent") or "")[:200],
        )
    except DomainError as exc:
        return _render(request, table, error=exc, post=post, status=exc.status)
    request.session[_seat_key(table)] = _number(post.get("seat"))
    return redirect("web:frances-table", token=token)


@csrf_exempt
@require_POST
def frances_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Another seat agrees with the latest order entered."""
    table = _table_or_404(request, token)
    if isinstance(table, HttpResponse):
        return table
    post = request.POST
    try:
        frances_result_confirm(
            table=table,
            seat=_number(post.get("seat")),
            idempotency_key=post.get("idempotency_key", ""),
            version=_version(post),
            via="link",
            device=(request.headers.get("User-Agent") or "")[:200],
        )
    except DomainError as exc:
        return _render(request, table, error=exc, post=post, status=exc.status)
    request.session[_seat_key(table)] = _number(post.get("seat"))
    return redirect("web:frances-table", token=token)


urlpatterns = [
    path("mesa-frances/<str:token>/", frances_page, name="frances-table"),
    path("mesa-frances/<str:token>/orden", frances_submit, name="frances-submit"),
    path("mesa-frances/<str:token>/confirmar", frances_confirm, name="frances-confirm"),
]
