"""Pages of circuits and interpeñas: the public ranking and match, and the organizers' forms.

Responsible for: the circuits' list and a circuit's public ranking (100 players a page, each
player's results, the rules in words); a circuit's management page for its organizers (its
points table, best N and tiebreaks, its tournaments, peñas and named organizers); an
interpeña's public page (boards, pairs, results, the team result), on which its peñas'
organizers field their pairs, open each board's table link, confirm a board for their pair and,
as captains, confirm the team result; the form that creates an interpeña. A POST calls the
same service as the API and redirects (POST/redirect/GET); an error is shown on the page that
holds the form. Turning values into display texts happens here; templates only print them.

Must not: check a role (the selectors and services do), rank or score.

Terms: circuito, puesto (place), interpeñas, tablero (board), alineación (line-up), capitán.
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.circuits import interpenas, selectors, services
from clubs.circuits.models import Interpena
from clubs.circuits.ranking import Tiebreak
from clubs.circuits.teams import AWAY, HOME, signature
from clubs.models import Club, Pair
from clubs.roles import clubs_organized_by
from config.errors import DomainError, Invalid, error_message
from config.views import error_response
from tournaments.models import Match, Tournament


def _tiebreak_text(name: str) -> str:
    texts = {
        "best_place": _("mejor puesto"),
        "counted_results": _("mejores resultados"),
        "played": _("torneos jugados"),
        "latest": _("último torneo"),
    }
    return texts.get(name, name)


# --- Circuits ------------------------------------------------------------------------------


@require_safe
def circuit_list(request: HttpRequest) -> HttpResponse:
    circuits = list(selectors.circuit_list(user=request.user)[:200])
    return render(request, "circuits/list.html", {"circuits": circuits})


@require_safe
def circuit_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        circuit = selectors.circuit_get(slug=slug, user=request.user)
        page = selectors.circuit_ranking_page(circuit=circuit, page=request.GET.get("pagina", "1"))
    except DomainError as exc:
        return error_response(request, exc)
    tournaments = selectors.circuit_tournaments(circuit=circuit)
    short = {t.pk: f"T{n}" for n, t in enumerate(tournaments, start=1)}
    rows = [
        {
            "position": row.position,
            "name": str(row.player),
            "url": reverse("web:player-ratings", kwargs={"player_id": row.player_id}),
            "points": row.points,
            "played": row.played,
            "results": [
                {
                    "label": short.get(r["tournament"], "?"),
                    "place": r["place"],
                    "points": r["points"],
                    "counted": r["counted"],
                }
                for r in row.results
            ],
            "separated_by": _tiebreak_text(row.separated_by) if row.separated_by else "",
        }
        for row in page.rows
    ]
    base = reverse("circuits:circuit", kwargs={"slug": circuit.slug})
    table = circuit.points_table
    context = {
        "circuit": circuit,
        "page": page,
        "rows": rows,
        "tournaments": [
            {
                "label": short[t.pk],
                "name": t.name,
                "club": t.club.name,
                "date": t.starts_on,
                "finished": t.status == Tournament.Status.FINISHED,
            }
            for t in tournaments
        ],
        "points_text": ", ".join(str(p) for p in table[:8]) + (" …" if len(table) > 8 else ""),
        "tiebreaks_text": ", ".join(_tiebreak_text(t) for t in circuit.tiebreaks),
        "can_manage": selectors.circuit_can_manage(user=request.user, circuit=circuit),
        "previous_url": f"{base}?pagina={page.page - 1}" if page.page > 1 else "",
        "next_url": f"{base}?pagina={page.page + 1}" if page.page < page.pages else "",
    }
    return render(request, "circuits/ranking.html", context)


def _ints(text: str, field: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise Invalid(
            "'{field}' is a list of whole numbers separated by commas.",
            code="circuit_numbers",
            field=field,
        ) from None


@login_required
@require_http_methods(["GET", "POST"])
def circuit_manage(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        circuit = selectors.circuit_get(slug=slug, user=request.user)
        selectors.circuit_require_manager(user=request.user, circuit=circuit)
    except DomainError as exc:
        return error_response(request, exc)
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "rules":
                best = request.POST.get("best_results", "").strip()
                services.circuit_update(
                    actor=request.user,
                    circuit=circuit,
                    data={
                        "name": request.POST.get("name", ""),
                        "points_table": _ints(request.POST.get("points_table", ""), "points_table"),
                        "participation_points": (
                            _ints(request.POST.get("participation_points", "0"), "participation")
                            or [0]
                        )[0],
                        "best_results": _ints(best, "best_results")[0] if best else None,
                        "tiebreaks": request.POST.getlist("tiebreaks"),
                        "is_public": not request.POST.get("private"),
                    },
                )
            elif action == "tournament":
                services.circuit_tournament_add(
                    actor=request.user,
                    circuit=circuit,
                    tournament_id=_ints(request.POST.get("tournament_id", ""), "tournament")[0],
                )
            elif action == "club":
                services.circuit_club_add(
                    actor=request.user,
                    circuit=circuit,
                    club_id=_ints(request.POST.get("club_id", ""), "club")[0],
                )
            elif action == "organizer":
                services.circuit_organizer_add(
                    actor=request.user, circuit=circuit, username=request.POST.get("username", "")
                )
            return redirect("circuits:circuit-manage", slug=circuit.slug)
        except (DomainError, IndexError) as exc:
            error = error_message(exc) if isinstance(exc, DomainError) else _("Falta un valor.")
    in_circuit = {t.pk for t in selectors.circuit_tournaments(circuit=circuit)}
    candidates = (
        Tournament.objects.filter(club__in=circuit.clubs.all(), is_public=True)
        .exclude(pk__in=in_circuit)
        .select_related("club")
        .order_by("-starts_on")[:100]
    )
    context = {
        "circuit": circuit,
        "error": error,
        "tournaments": selectors.circuit_tournaments(circuit=circuit),
        "candidates": candidates,
        "clubs": list(circuit.clubs.all()),
        "my_clubs": clubs_organized_by(request.user).exclude(pk__in=circuit.clubs.values("pk")),
        "points_table": ", ".join(str(p) for p in circuit.points_table),
        "tiebreaks": [
            {"value": t.value, "label": _tiebreak_text(t.value), "on": t.value in circuit.tiebreaks}
            for t in Tiebreak
        ],
    }
    return render(request, "circuits/manage.html", context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def circuit_new(request: HttpRequest) -> HttpResponse:
    clubs = list(clubs_organized_by(request.user))
    error = ""
    if request.method == "POST":
        try:
            club = next((c for c in clubs if str(c.pk) == request.POST.get("club_id")), None)
            if club is None:
                raise Invalid("Choose one of your peñas.", code="circuit_club_choose")
            circuit = services.circuit_create(
                actor=request.user,
                club=club,
                name=request.POST.get("name", ""),
                region=request.POST.get("region", ""),
                season=request.POST.get("season", ""),
                is_public=not request.POST.get("private"),
            )
            return redirect("circuits:circuit-manage", slug=circuit.slug)
        except DomainError as exc:
            error = error_message(exc)
    return render(
        request,
        "circuits/circuit_new.html",
        {"clubs": clubs, "error": error},
        status=400 if error else 200,
    )


# --- Interpeñas ----------------------------------------------------------------------------


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
            return redirect("circuits:interpena", interpena_id=interpena.pk)
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
    return render(request, "circuits/interpena.html", context, status=status)


#: the league key a league of peñas gives the interpeña of each of its fixtures
#: (clubs.leagues.teams_league: ``team-league:<league>:<fixture>``)
_TEAM_LEAGUE_KEY = "team-league:"


def _team_league_link(interpena: Interpena) -> dict | None:
    """The league of peñas and the jornada the interpeña is a fixture of, for the link back
    (one query, only for an interpeña a league opened; read through the fixture's reverse
    relation, as clubs.leagues sits above the circuits). Whoever sees the interpeña may read
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
        pair_ids = _ints(",".join(request.POST.getlist("pair")), "pair")
        interpenas.interpena_lineup_set(
            actor=request.user,
            interpena=interpena,
            side=side,
            pair_ids=pair_ids,
            captain=request.POST.get("captain", "").strip(),
        )
    elif action == "board":
        interpenas.interpena_board_confirm(
            actor=request.user,
            interpena=interpena,
            board=(_ints(request.POST.get("board", ""), "board") or [0])[0],
            side=side,
            idempotency_key=request.POST.get("key", "") or uuid.uuid4().hex,
            version=(_ints(request.POST.get("version", ""), "version") or [0])[0],
        )
    elif action == "team":
        interpenas.interpena_team_confirm(
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
            interpena = interpenas.interpena_create(
                actor=request.user,
                home_club=home,
                away_club_id=(_ints(request.POST.get("away_club_id", ""), "away") or [0])[0],
                played_on=played_on,
                boards=(_ints(request.POST.get("boards", ""), "boards") or [0])[0],
                name=request.POST.get("name", ""),
                venue=request.POST.get("venue", ""),
            )
            return redirect("circuits:interpena", interpena_id=interpena.pk)
        except DomainError as exc:
            error = error_message(exc)
    return render(
        request,
        "circuits/interpena_new.html",
        {"mine": mine, "others": others, "error": error},
        status=400 if error else 200,
    )


@require_safe
def interpena_list(request: HttpRequest) -> HttpResponse:
    items = list(selectors.interpena_list(user=request.user)[:100])
    return render(request, "circuits/interpena_list.html", {"interpenas": items})


__all__ = [
    "circuit_list",
    "circuit_manage",
    "circuit_new",
    "circuit_ranking",
    "interpena_list",
    "interpena_new",
    "interpena_page",
]
