"""What is printed for a round: the pairings for the wall and one sheet per mesa with its QR.

Responsible for: the printable pairings of a round (by mesa, and the byes), and the table
sheets: one per mesa with its two pairs, who is mano in the first hand, what the round is
played to (its own length: a final longer than the semi-finals) and the QR code of the
table's secret link (``/mesa/<token>/``, the table area's pages) as an inline SVG.

Must not: make or change a table's token (the services do), or change anything: these pages
only read.

Terms: ronda (round), mesa (table), emparejamientos (pairings), hoja de mesa (table sheet),
mano (who leads the first hand), descanso (bye).
"""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Match
from tournaments.selectors import rounds as round_selectors
from tournaments.web.bases import length_in_words
from tournaments.web.organizer.common import round_for


def _table_url(request: HttpRequest, match: Match) -> str:
    return request.build_absolute_uri(reverse("web:table", args=[match.token]))


@login_required
def round_print(request: HttpRequest, round_id: int):
    """The pairings by mesa, for the wall: one page."""
    rnd = round_for(request, round_id)
    matches = round_selectors.round_matches(rnd=rnd)
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "matches": [m for m in matches if m.kind != Match.Kind.BYE],
        "byes": [m for m in matches if m.kind == Match.Kind.BYE],
        "length": _length(rnd),
    }
    return render(request, "organizer/round_print.html", context)


def _length(rnd) -> str:
    """What the round is played to, as the bases write it ("al mejor de 5 juegos, juegos a 40
    piedras"): the round's own length when it has one (selectors.rounds.round_rules)."""
    values = round_selectors.round_length_values(rnd.phase, rnd.number)
    return _("%(length)s, juegos a %(n)s piedras") % {
        "length": length_in_words(values),
        "n": values["stones_per_game"],
    }


def _first_mano_player(match: Match) -> str:
    """Who is mano in the first hand: seats A1, B1, A2, B2 are each pair's first and second
    player (as the table's page seats them)."""
    seat = match.first_mano or "A1"
    entry = match.entry_a if seat[0] == "A" else match.entry_b
    if entry is None:
        return ""
    return str(entry.pair.player_one if seat[1:] == "1" else entry.pair.player_two)


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` that scales with its box (no fixed size)."""
    return segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#000")


@login_required
def round_sheets(request: HttpRequest, round_id: int):
    """One sheet per mesa with its pairs, the first mano and the QR code of the table's link."""
    rnd = round_for(request, round_id)
    sheets = []
    for match in round_selectors.round_matches(rnd=rnd):
        if match.kind == Match.Kind.BYE or match.entry_b_id is None:
            continue
        url = _table_url(request, match)
        sheets.append(
            {"match": match, "url": url, "qr": qr_svg(url), "mano": _first_mano_player(match)}
        )
    context = {
        "round": rnd,
        "phase": rnd.phase,
        "tournament": rnd.phase.tournament,
        "sheets": sheets,
        "length": _length(rnd),
    }
    return render(request, "organizer/round_sheets.html", context)
