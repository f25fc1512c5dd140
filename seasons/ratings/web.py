"""Public pages of the ratings: a peña's ranking of players and each player's page.

Responsible for: the peña's ranking (by rating, by points or both, as the peña chose; 100
players a page), a player's page (the rating now and over time as an SVG chart drawn here,
on the server, with no script; their lines in each peña; their matches; partners and the best
one; the people they met, each a link to head to head) and head to head between two players.
Turning what the selectors return into display values (texts, the chart's coordinates) happens
here; templates only print them.

Must not: write, rate, or show anything but names, ratings and results (no contacts).

Terms: valoración (rating: mu − 3·sigma), puntos (+12 ganada, −10 perdida, −20 abandono),
abandono (a forfeit lost), compañero (partner), cara a cara (head to head), peña (club).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from config.errors import DomainError
from config.views import error_response
from seasons.page_helpers import club_or_404
from seasons.ratings import rate
from seasons.ratings import selectors as ratings_selectors
from seasons.ratings.models import RankingSettings

#: the matches listed on a player's page (the newest); the chart and the tallies use them all
MATCHES_SHOWN = 30
#: the chart's points at most (a long history is thinned evenly, its last point kept)
CHART_POINTS = 240
CHART_W, CHART_H, CHART_PAD, CHART_LEFT = 600, 220, 16, 64

RESULT_TEXT = {
    rate.Result.WIN: gettext_lazy("Ganada"),
    rate.Result.LOSS: gettext_lazy("Perdida"),
    rate.Result.DRAW: gettext_lazy("Empate"),
    rate.Result.WALKOVER: gettext_lazy("Ganada (no se presentaron)"),
    rate.Result.ABANDON: gettext_lazy("Abandono"),
}
RESULT_CLASS = {
    rate.Result.WIN: "won",
    rate.Result.WALKOVER: "won",
    rate.Result.LOSS: "lost",
    rate.Result.ABANDON: "lost",
    rate.Result.DRAW: "draw",
}


def _player_url(player_id: int) -> str:
    return reverse("ratings:player-ratings", kwargs={"player_id": player_id})


@dataclass(frozen=True)
class Chart:
    """The rating over time, in the SVG's coordinates."""

    width: int
    height: int
    left: int  # where the plot starts (the labels are left of it)
    points: str  # "x,y x,y …" for a polyline
    last_x: float
    last_y: float
    ticks: list[tuple[float, str]]  # (y, label) of the horizontal lines
    first_label: str
    last_label: str


def _chart(history: list[ratings_selectors.HistoryPoint]) -> Chart | None:
    if not history:
        return None
    values = [history[0].rating_before] + [h.rating for h in history]
    n = len(values)
    if n > CHART_POINTS:
        step = (n - 1) / (CHART_POINTS - 1)
        keep = sorted({round(i * step) for i in range(CHART_POINTS)} | {n - 1})
    else:
        keep = list(range(n))
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    inner_w, inner_h = CHART_W - CHART_LEFT - CHART_PAD, CHART_H - 2 * CHART_PAD

    def x(i: int) -> float:
        return round(CHART_LEFT + inner_w * (i / max(1, n - 1)), 1)

    def y(v: float) -> float:
        return round(CHART_PAD + inner_h * (1 - (v - low) / (high - low)), 1)

    points = " ".join(f"{x(i)},{y(values[i])}" for i in keep)
    ticks = [(y(v), f"{v:.1f}") for v in (high, (high + low) / 2, low)]
    return Chart(
        width=CHART_W,
        height=CHART_H,
        left=CHART_LEFT,
        points=points,
        last_x=x(n - 1),
        last_y=y(values[-1]),
        ticks=ticks,
        first_label=f"{history[0].played_at:%d/%m/%Y}",
        last_label=f"{history[-1].played_at:%d/%m/%Y}",
    )


def _people(ids, names: dict[int, str]) -> list[dict]:
    return [{"name": names.get(p, "?"), "url": _player_url(p)} for p in ids]


def _match_rows(points, names: dict[int, str]) -> list[dict]:
    rows = []
    for h in points:
        delta = h.rating - h.rating_before
        rows.append(
            {
                "when": h.played_at,
                "event": h.event or _("un torneo privado"),
                "stage": h.stage,
                "url": h.url,
                "partners": _people(h.partners, names),
                "opponents": _people(h.opponents, names),
                "result": RESULT_TEXT[rate.Result(h.result)],
                "css": RESULT_CLASS[rate.Result(h.result)],
                "games": f"{h.games_for}–{h.games_against}"
                if h.games_for or h.games_against
                else "",
                "points": f"{h.points:+d}",
                "rating": f"{h.rating:.1f}",
                "delta": f"{delta:+.1f}",
            }
        )
    return rows


def _tally_rows(tallies, names: dict[int, str], *, player_id: int | None = None) -> list[dict]:
    return [
        {
            "name": names.get(t.player_id, "?"),
            "url": _player_url(t.player_id)
            if player_id is None
            else reverse(
                "ratings:player-head-to-head",
                kwargs={"player_id": player_id, "other_id": t.player_id},
            ),
            "matches": t.matches,
            "wins": t.wins,
            "losses": t.losses,
        }
        for t in tallies
    ]


@require_safe
def ranking_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    try:
        club = club_or_404(club_slug)
        order = {"puntos": "points", "valoracion": "rating"}.get(request.GET.get("orden", ""), "")
        if ratings_selectors.ranking_shows(club=club) != RankingSettings.Shows.BOTH:
            order = ""  # one ranking shown: in its own order
        page = ratings_selectors.ranking_page(
            club=club, order=order, page=request.GET.get("pagina", "1")
        )
    except DomainError as exc:
        return error_response(request, exc)
    rows = [
        {
            "position": page.first_position + i,
            "name": str(row.player),
            "url": _player_url(row.player_id),
            "rating": f"{row.rating:.1f}",
            "points": row.points,
            "matches": row.matches,
            "wins": row.wins,
            "losses": row.losses,
            "abandons": row.abandons,
        }
        for i, row in enumerate(page.rows)
    ]
    order_param = "puntos" if page.order == "points" else "valoracion"
    base = reverse("ratings:club-ranking", kwargs={"club_slug": club.slug})
    context = {
        "club": club,
        "page": page,
        "rows": rows,
        "show_rating": page.shows in ("both", "rating"),
        "show_points": page.shows in ("both", "points"),
        "by_rating_url": f"{base}?orden=valoracion",
        "by_points_url": f"{base}?orden=puntos",
        "previous_url": f"{base}?orden={order_param}&pagina={page.page - 1}"
        if page.page > 1
        else "",
        "next_url": f"{base}?orden={order_param}&pagina={page.page + 1}"
        if page.page < page.pages
        else "",
    }
    return render(request, "ratings/ranking.html", context)


@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    try:
        player = ratings_selectors.rated_player_get(player_id=player_id)
    except DomainError as exc:
        if exc.code == "rated_player_merged":  # the person's page, where their history is now
            return redirect("ratings:player-ratings", player_id=exc.params["into_id"])
        return error_response(request, exc)
    found = ratings_selectors.player_ratings(player=player)
    played = found.played()
    best = rate.best_partner(played)
    current = found.current
    context = {
        "player": player,
        "rating": f"{current.rating:.1f}",
        "mu": f"{current.mu:.2f}",
        "sigma": f"{current.sigma:.2f}",
        "count": len(found.history),
        "chart": _chart(found.history),
        "clubs": [
            {
                "name": row.club.name,
                "url": reverse("ratings:club-ranking", kwargs={"club_slug": row.club.slug}),
                "points": row.points,
                "matches": row.matches,
                "wins": row.wins,
                "losses": row.losses,
                "abandons": row.abandons,
            }
            for row in found.rows
        ],
        "best": _tally_rows([best], found.names)[0] if best else None,
        "partners": _tally_rows(rate.partners(played), found.names),
        "opponents": _tally_rows(rate.opponents(played), found.names, player_id=player.pk),
        "matches": _match_rows(reversed(found.history[-MATCHES_SHOWN:]), found.names),
        "more": max(0, len(found.history) - MATCHES_SHOWN),
    }
    return render(request, "ratings/player.html", context)


@require_safe
def head_to_head_page(request: HttpRequest, player_id: int, other_id: int) -> HttpResponse:
    try:
        player = ratings_selectors.rated_player_get(player_id=player_id)
        found, other, matches = ratings_selectors.head_to_head(player=player, other_id=other_id)
    except DomainError as exc:
        return error_response(request, exc)
    won = sum(RESULT_CLASS[rate.Result(h.result)] == "won" for h in matches)
    lost = sum(RESULT_CLASS[rate.Result(h.result)] == "lost" for h in matches)
    names = {**found.names, other.pk: str(other)}
    context = {
        "player": player,
        "player_url": _player_url(player.pk),
        "other": other,
        "other_url": _player_url(other.pk),
        "won": won,
        "lost": lost,
        "matches": _match_rows(reversed(matches), names),
        "title": _("%(a)s contra %(b)s") % {"a": player, "b": other},
    }
    return render(request, "ratings/head_to_head.html", context)


urlpatterns = [
    path("penas/<slug:club_slug>/ranking/", ranking_page, name="club-ranking"),
    path("jugadores/<int:player_id>/", player_page, name="player-ratings"),
    path(
        "jugadores/<int:player_id>/contra/<int:other_id>/",
        head_to_head_page,
        name="player-head-to-head",
    ),
]
