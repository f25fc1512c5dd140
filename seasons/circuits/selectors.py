"""Reads of circuits, and who may manage them.

Responsible for: finding a circuit from a URL (NotFound otherwise; a private circuit does not
exist outside its peñas' organizers and members and its named organizers), the circuits a user
may list, who manages a circuit (an organizer of any of its peñas, or one it names; clubs.roles
decides who organizes a peña); a page of a circuit's stored ranking; the inputs of the ranking
(``circuit_ranking_inputs``: the finished tournaments' standings snapshots, read in a fixed
number of queries).

Must not: write, or compute a tournament's standings (it reads the stored snapshots).

Cost: a ranking page is two queries (the count and the page, players joined); the ranking's
inputs four (the tournaments, their phases, the snapshots, the entries' players), whatever the
number of tournaments and players.

Terms: circuito, puesto (place), puntos, desempate (tiebreak).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs.roles import clubs_organized_by
from config.errors import Forbidden, Invalid, NotFound
from seasons.circuits.models import Circuit, CircuitRankingRow
from seasons.circuits.ranking import PhaseTable, TournamentResult, final_places
from tournaments.models import Entry, Phase, StandingsSnapshot, Tournament

User = AbstractBaseUser | AnonymousUser | None

RANKING_PAGE_SIZE = 100


def circuit_can_see(*, user: User, circuit: Circuit) -> bool:
    """A public circuit is for everybody; a private one for the organizers and members of its
    peñas (any role) and the organizers it names."""
    if circuit.is_public:
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser or circuit.organizers.filter(pk=user.pk).exists():
        return True
    return circuit.clubs.filter(memberships__user=user).exists()


def circuit_list(*, user: User) -> QuerySet[Circuit]:
    """The circuits ``user`` may see: the public ones, and the private ones of their peñas."""
    qs = Circuit.objects.order_by("-created_at", "name")
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_public=True)
    theirs = Circuit.objects.filter(Q(clubs__memberships__user=user) | Q(organizers=user)).values(
        "pk"
    )
    return qs.filter(Q(is_public=True) | Q(pk__in=theirs))


def _circuit_visible(circuit: Circuit | None, user: User) -> Circuit | None:
    if circuit is None or not circuit_can_see(user=user, circuit=circuit):
        return None
    return circuit


def circuit_get(*, slug: str, user: User) -> Circuit:
    """The circuit from a URL; a private one does not exist for who may not see it."""
    circuit = _circuit_visible(Circuit.objects.filter(slug=slug).first(), user)
    if circuit is None:
        raise NotFound(
            "There is no circuit '{slug}'.", code="circuit_not_found", slug=str(slug)[:80]
        )
    return circuit


def circuit_get_by_id(*, circuit_id: int, user: User) -> Circuit:
    circuit = _circuit_visible(Circuit.objects.filter(pk=circuit_id).first(), user)
    if circuit is None:
        raise NotFound(
            "There is no circuit {circuit_id}.", code="circuit_id_not_found", circuit_id=circuit_id
        )
    return circuit


def circuit_can_manage(*, user: User, circuit: Circuit) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser or circuit.organizers.filter(pk=user.pk).exists():
        return True
    return circuit.clubs.filter(pk__in=clubs_organized_by(user).values("pk")).exists()


def circuit_require_manager(*, user: User, circuit: Circuit) -> None:
    if not circuit_can_manage(user=user, circuit=circuit):
        raise Forbidden(
            "Only the organizers of the circuit {circuit} can change it.",
            code="not_circuit_organizer",
            circuit=circuit.name,
        )


def circuits_managed_by(*, user: User) -> QuerySet[Circuit]:
    if user is None or not user.is_authenticated:
        return Circuit.objects.none()
    if user.is_superuser:
        return circuit_list(user=user)
    clubs = clubs_organized_by(user).values("pk")
    ids = (
        Circuit.objects.filter(clubs__in=clubs)
        .values("pk")
        .union(Circuit.objects.filter(organizers=user).values("pk"))
    )
    return circuit_list(user=user).filter(pk__in=[row["pk"] for row in ids])


def circuit_tournaments(*, circuit: Circuit) -> list[Tournament]:
    """The circuit's tournaments by date, with their peña (one query)."""
    return list(
        Tournament.objects.filter(circuit_stops__circuit=circuit)
        .select_related("club")
        .order_by("starts_on", "id")
    )


@dataclass(frozen=True)
class RankingPage:
    rows: list[CircuitRankingRow]
    page: int
    pages: int
    count: int


def circuit_ranking_page(*, circuit: Circuit, page: int | str = 1) -> RankingPage:
    try:
        number = int(page)
    except (TypeError, ValueError):
        number = 0
    if number < 1:
        raise Invalid(
            "'page' is a whole number from 1, not '{page}'.",
            code="circuit_page_invalid",
            page=str(page)[:20],
        )
    rows = CircuitRankingRow.objects.filter(circuit=circuit)
    count = rows.count()
    pages = max(1, ceil(count / RANKING_PAGE_SIZE))
    start = (min(number, pages) - 1) * RANKING_PAGE_SIZE
    shown = list(
        rows.select_related("player").order_by("position", "player__last_name", "player_id")[
            start : start + RANKING_PAGE_SIZE
        ]
    )
    return RankingPage(shown, min(number, pages), pages, count)


def circuit_ranking_inputs(*, circuit: Circuit) -> list[TournamentResult]:
    """The finished tournaments of the circuit as the ranking core reads them."""
    tournaments = list(
        Tournament.objects.filter(circuit_stops__circuit=circuit, status=Tournament.Status.FINISHED)
        .order_by("starts_on", "id")
        .values_list("id", flat=True)
    )
    if not tournaments:
        return []
    phases: dict[int, list[int]] = {t: [] for t in tournaments}
    for phase_id, tournament_id in (
        Phase.objects.filter(tournament_id__in=tournaments)
        .order_by("tournament_id", "order")
        .values_list("id", "tournament_id")
    ):
        phases[tournament_id].append(phase_id)
    tables: dict[int, list[PhaseTable]] = {}
    for phase_id, rows in StandingsSnapshot.objects.filter(
        phase__tournament_id__in=tournaments
    ).values_list("phase_id", "rows"):
        table = PhaseTable(tuple((row["rank"], row["entry_id"]) for row in rows))
        tables.setdefault(phase_id, []).append(table)
    players: dict[int, tuple[int, int]] = {}
    for entry_id, one, two in Entry.objects.filter(tournament_id__in=tournaments).values_list(
        "id", "pair__player_one_id", "pair__player_two_id"
    ):
        players[entry_id] = (one, two)
    results = []
    for order, tournament_id in enumerate(tournaments):
        places = final_places([tables.get(p, []) for p in phases[tournament_id]])
        results.append(
            TournamentResult(
                tournament=tournament_id,
                order=order,
                places=places,
                players={pair: players[pair] for pair in places if pair in players},
            )
        )
    return results
