"""Pages of circuits: the public ranking and the organizers' forms.

Responsible for: the circuits' list and a circuit's public ranking (100 players a page, each
player's results, the rules in words); a circuit's management page for its organizers (its
points table, best N and tiebreaks, its tournaments, peñas and named organizers) and the form
that creates a circuit. A POST calls the same service as the API and redirects
(POST/redirect/GET); an error is shown on the page that holds the form. Turning values into
display texts happens here; templates only print them. ``urlpatterns`` lists the paths
(config/urls.py mounts them in the namespace ``circuits``).

Must not: check a role (the selectors and services do), rank or score.

Terms: circuito, puesto (place), puntos, desempate (tiebreak).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.roles import clubs_organized_by
from config.errors import DomainError, Invalid, error_message
from config.views import error_response
from seasons.circuits import selectors, services
from seasons.circuits.ranking import Tiebreak
from seasons.page_helpers import int_list
from tournaments.models import Tournament


def _tiebreak_text(name: str) -> str:
    texts = {
        "best_place": _("mejor puesto"),
        "counted_results": _("mejores resultados"),
        "played": _("torneos jugados"),
        "latest": _("último torneo"),
    }
    return texts.get(name, name)


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
            "url": reverse("ratings:player-ratings", kwargs={"player_id": row.player_id}),
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
                        "points_table": int_list(
                            request.POST.get("points_table", ""), "points_table"
                        ),
                        "participation_points": (
                            int_list(request.POST.get("participation_points", "0"), "participation")
                            or [0]
                        )[0],
                        "best_results": int_list(best, "best_results")[0] if best else None,
                        "tiebreaks": request.POST.getlist("tiebreaks"),
                        "is_public": not request.POST.get("private"),
                    },
                )
            elif action == "tournament":
                services.circuit_tournament_add(
                    actor=request.user,
                    circuit=circuit,
                    tournament_id=int_list(request.POST.get("tournament_id", ""), "tournament")[0],
                )
            elif action == "club":
                services.circuit_club_add(
                    actor=request.user,
                    circuit=circuit,
                    club_id=int_list(request.POST.get("club_id", ""), "club")[0],
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


urlpatterns = [
    path("circuitos/", circuit_list, name="circuit-list"),
    path("circuitos/<slug:slug>/", circuit_ranking, name="circuit"),
    path("organizador/circuitos/nuevo/", circuit_new, name="circuit-new"),
    path("organizador/circuitos/<slug:slug>/", circuit_manage, name="circuit-manage"),
]
