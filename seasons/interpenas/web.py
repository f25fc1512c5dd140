"""Pages of interpeñas: the public match and the organizers' forms.

Responsible for: the interpeñas' list; an interpeña's public page (boards, pairs, results, the
team result), on which its peñas' organizers field their pairs, open each board's table link,
confirm a board for their pair and, as captains, confirm the team result; the form that
creates an interpeña. A POST calls the same service as the API and redirects
(POST/redirect/GET); an error is shown on the page that holds the form. Turning values into
display texts happens here; templates only print them. ``urlpatterns`` lists the paths
(config/urls.py mounts them in the namespace ``interpenas``).

Must not: check a role (the selectors and services do) or score.

Terms: interpeñas, tablero (board), alineación (line-up), capitán (captain).
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Club, Pair
from clubs.roles import clubs_organized_by
from config.errors import DomainError, Invalid, error_message
from config.views import error_response
from seasons.interpenas import selectors, services
from seasons.interpenas.models import Interpena
from seasons.interpenas.result import AWAY, HOME, signature
from seasons.page_helpers import int_list
from tournaments.models import Match


@require_http_methods(["GET", "POST"])
def interpena_page(request: HttpRequest, interpena_id: int) -> HttpResponse:
    try:
        interpena = selectors.interpena_get(interpena_id=interpena_id, user=request.user)
    except DomainError as exc:
        return error_response(request, exc)
    error, status = "", 200
    if request.method == "POST":
        try:
            _interpena_post(request, interpena)
            return redirect("interpenas:interpena", interpena_id=interpena.pk)
        except DomainError as exc:
            error, status = error_message(exc), exc.status
    result, boards = selectors.interpena_result(interpena=interpena)
    rows = selectors.interpena_boards(interpena=interpena)
    sides = selectors.interpena_sides_of(user=request.user, interpena=interpena)
    current = signature(boards)
    board_rows = []
    for row, board in zip(rows, boards, strict=True):
        match = row.match
        submitted_by_other = {}
        if match is not None and match.status == Match.Status.SUBMITTED:
            latest = match.submissions.order_by("-id").values_list("side", flat=True).first()
            submitted_by_other = {HOME: latest == "b", AWAY: latest == "a"}
        board_rows.append(
            {
                "letter": row.letter,
                "number": row.number,
                "home": _pair_text(row.home_pair),
                "away": _pair_text(row.away_pair),
                "status": match.get_status_display() if match else "",
                "confirmed": board.confirmed,
                "games": f"{board.games_home}–{board.games_away}" if board.confirmed else "",
                "winner": board.winner or "",
                "table_url": reverse("web:table", kwargs={"token": match.token})
                if match is not None and sides and not board.confirmed
                else "",
                "confirm_sides": [s for s in sides if submitted_by_other.get(s)],
                "version": match.version if match else 0,
            }
        )
    lineup_forms = []
    if interpena.status == Interpena.Status.LINEUPS:
        for side in sides:
            club = interpena.home_club if side == HOME else interpena.away_club
            field = "home_pair_id" if side == HOME else "away_pair_id"
            pairs = [
                {"id": p.pk, "name": _pair_text(p)}
                for p in Pair.objects.filter(club=club)
                .select_related("player_one", "player_two")
                .order_by("id")
            ]
            lineup_forms.append(
                {
                    "side": side,
                    "club": club.name,
                    "pairs": pairs,
                    "boards": [
                        {
                            "letter": r.letter,
                            "default": getattr(r, field)
                            or (pairs[i]["id"] if i < len(pairs) else None),
                        }
                        for i, r in enumerate(rows)
                    ],
                }
            )
    confirms = []
    if result.complete:
        for side in (HOME, AWAY):
            done = getattr(interpena, f"{side}_confirmed") == current
            can = selectors.interpena_can_confirm_team(
                user=request.user, interpena=interpena, side=side
            )
            confirms.append(
                {
                    "side": side,
                    "club": (interpena.home_club if side == HOME else interpena.away_club).name,
                    "done": done,
                    "can": can and not done,
                }
            )
    context = {
        "interpena": interpena,
        "error": error,
        "boards": board_rows,
        "result": result,
        "result_version": current,
        "confirmed": all(c["done"] for c in confirms) and bool(confirms),
        "confirms": confirms,
        "lineup_forms": lineup_forms,
        "sides": sides,
        "team_league": _team_league_link(interpena),
    }
    return render(request, "interpenas/interpena.html", context, status=status)


#: the league key a league of peñas gives the interpeña of each of its fixtures
#: (seasons.leagues.teams.services: ``team-league:<league>:<fixture>``)
_TEAM_LEAGUE_KEY = "team-league:"


def _team_league_link(interpena: Interpena) -> dict | None:
    """The league of peñas and the jornada the interpeña is a fixture of, for the link back
    (one query, only for an interpeña a league opened; read through the fixture's reverse
    relation, as seasons.leagues sits above the circuits). Whoever sees the interpeña may read
    its league: a private league's interpeña is private too, seen only by its peñas."""
    if not interpena.league_key.startswith(_TEAM_LEAGUE_KEY):
        return None
    found = (
        Interpena.objects.filter(pk=interpena.pk, team_fixture__isnull=False)
        .values(
            "team_fixture__jornada__number",
            "team_fixture__jornada__league__name",
            "team_fixture__jornada__league__season",
            "team_fixture__jornada__league__slug",
            "team_fixture__jornada__league__club__slug",
        )
        .first()
    )
    if found is None:
        return None
    number = found["team_fixture__jornada__number"]
    url = reverse(
        "leagues:public-team-league",
        kwargs={
            "club_slug": found["team_fixture__jornada__league__club__slug"],
            "league_slug": found["team_fixture__jornada__league__slug"],
        },
    )
    return {
        "name": f"{found['team_fixture__jornada__league__name']} "
        f"{found['team_fixture__jornada__league__season']}",
        "url": url,
        "number": number,
        "jornada_url": f"{url}#j{number}",
    }


def _pair_text(pair: Pair | None) -> str:
    if pair is None:
        return "—"
    return pair.name or f"{pair.player_one} / {pair.player_two}"


def _interpena_post(request: HttpRequest, interpena: Interpena) -> None:
    action = request.POST.get("action", "")
    side = request.POST.get("side", "")
    if action == "lineup":
        pair_ids = int_list(",".join(request.POST.getlist("pair")), "pair")
        services.interpena_lineup_set(
            actor=request.user,
            interpena=interpena,
            side=side,
            pair_ids=pair_ids,
            captain=request.POST.get("captain", "").strip(),
        )
    elif action == "board":
        services.interpena_board_confirm(
            actor=request.user,
            interpena=interpena,
            board=(int_list(request.POST.get("board", ""), "board") or [0])[0],
            side=side,
            idempotency_key=request.POST.get("key", "") or uuid.uuid4().hex,
            version=(int_list(request.POST.get("version", ""), "version") or [0])[0],
        )
    elif action == "team":
        services.interpena_team_confirm(
            actor=request.user,
            interpena=interpena,
            side=side,
            result_version=request.POST.get("result_version", ""),
        )
    else:
        raise Invalid("Unknown action '{action}'.", code="interpena_action", action=action[:40])


@login_required
@require_http_methods(["GET", "POST"])
def interpena_new(request: HttpRequest) -> HttpResponse:
    mine = list(clubs_organized_by(request.user))
    others = Club.objects.order_by("name")[:500]
    error = ""
    if request.method == "POST":
        try:
            home = next((c for c in mine if str(c.pk) == request.POST.get("home_club_id")), None)
            if home is None:
                raise Invalid("Choose one of your peñas.", code="circuit_club_choose")
            try:
                played_on = dt.date.fromisoformat(request.POST.get("played_on", ""))
            except ValueError:
                raise Invalid("Give the date as YYYY-MM-DD.", code="interpena_date") from None
            interpena = services.interpena_create(
                actor=request.user,
                home_club=home,
                away_club_id=(int_list(request.POST.get("away_club_id", ""), "away") or [0])[0],
                played_on=played_on,
                boards=(int_list(request.POST.get("boards", ""), "boards") or [0])[0],
                name=request.POST.get("name", ""),
                venue=request.POST.get("venue", ""),
            )
            return redirect("interpenas:interpena", interpena_id=interpena.pk)
        except DomainError as exc:
            error = error_message(exc)
    return render(
        request,
        "interpenas/new.html",
        {"mine": mine, "others": others, "error": error},
        status=400 if error else 200,
    )


@require_safe
def interpena_list(request: HttpRequest) -> HttpResponse:
    items = list(selectors.interpena_list(user=request.user)[:100])
    return render(request, "interpenas/list.html", {"interpenas": items})


urlpatterns = [
    path("interpenas/", interpena_list, name="interpena-list"),
    path("interpenas/<int:interpena_id>/", interpena_page, name="interpena"),
    path("organizador/interpenas/nuevo/", interpena_new, name="interpena-new"),
]
