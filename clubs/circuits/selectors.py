"""Reads of circuits and interpeñas, and who may manage them.

Responsible for: finding a circuit or an interpeña from a URL (NotFound otherwise; a private
circuit does not exist outside its peñas' organizers and members and its named organizers, a
private interpeña outside its two peñas), the circuits a user may list, who manages a circuit
(an organizer of any of its peñas, or one it names; clubs.roles decides who organizes a peña)
and who acts for a side of an interpeña (its peña's organizers; its captain, or any of them
when none is named, confirms the team result); a page of a circuit's stored ranking; the
inputs of the ranking (``circuit_ranking_inputs``: the finished tournaments' standings
snapshots, read in a fixed number of queries); an interpeña's boards and their results.

Must not: write, or compute a tournament's standings (it reads the stored snapshots).

Cost: a ranking page is two queries (the count and the page, players joined); the ranking's
inputs four (the tournaments, their phases, the snapshots, the entries' players), whatever the
number of tournaments and players; an interpeña's boards one.

Terms: circuito, puesto (place), interpeñas, tablero (board), capitán (captain).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs.circuits.models import Circuit, CircuitRankingRow, Interpena, InterpenaBoard
from clubs.circuits.ranking import PhaseTable, TournamentResult, final_places
from clubs.circuits.teams import AWAY, HOME, BoardResult, TeamResult, team_result
from clubs.models import Club
from clubs.roles import can_organize, clubs_organized_by
from config.errors import Forbidden, Invalid, NotFound
from tournaments.models import Entry, Match, Phase, StandingsSnapshot, Tournament

User = AbstractBaseUser | AnonymousUser | None

RANKING_PAGE_SIZE = 100
SIDES = (HOME, AWAY)


# --- Circuits ------------------------------------------------------------------------------


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


# --- Interpeñas ----------------------------------------------------------------------------


def interpena_can_see(*, user: User, interpena: Interpena) -> bool:
    return (
        interpena.is_public
        or can_organize(user, interpena.home_club)
        or can_organize(user, interpena.away_club)
    )


def interpena_get(*, interpena_id: int, user: User) -> Interpena:
    """The interpeña from a URL; a private one exists only for its peñas' organizers."""
    interpena = (
        Interpena.objects.select_related("home_club", "away_club", "tournament", "round")
        .filter(pk=interpena_id)
        .first()
    )
    if interpena is None or not interpena_can_see(user=user, interpena=interpena):
        raise NotFound(
            "There is no interpeña {interpena_id}.",
            code="interpena_not_found",
            interpena_id=interpena_id,
        )
    return interpena


def interpena_list(*, user: User) -> QuerySet[Interpena]:
    qs = Interpena.objects.select_related("home_club", "away_club")
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    mine = clubs_organized_by(user).values("pk")
    return qs.filter(Q(is_public=True) | Q(home_club__in=mine) | Q(away_club__in=mine))


def interpena_side_club(interpena: Interpena, side: str) -> Club:
    if side not in SIDES:
        raise Invalid("'side' is home or away, not '{side}'.", code="interpena_side", side=side)
    return interpena.home_club if side == HOME else interpena.away_club


def interpena_can_act(*, user: User, interpena: Interpena, side: str) -> bool:
    return can_organize(user, interpena_side_club(interpena, side))


def interpena_sides_of(*, user: User, interpena: Interpena) -> list[str]:
    """The sides the user acts for (both when they organize both peñas)."""
    return [s for s in SIDES if interpena_can_act(user=user, interpena=interpena, side=s)]


def interpena_can_confirm_team(*, user: User, interpena: Interpena, side: str) -> bool:
    captain_id = interpena.home_captain_id if side == HOME else interpena.away_captain_id
    if captain_id is not None:
        return user is not None and user.is_authenticated and user.pk == captain_id
    return interpena_can_act(user=user, interpena=interpena, side=side)


BOARD_RELATIONS = (
    "home_pair__player_one",
    "home_pair__player_two",
    "away_pair__player_one",
    "away_pair__player_two",
    "match",
)


def interpena_boards(*, interpena: Interpena) -> list[InterpenaBoard]:
    """The boards in order, with their pairs, players and match (one query)."""
    return list(
        InterpenaBoard.objects.filter(interpena=interpena)
        .select_related(*BOARD_RELATIONS)
        .order_by("number")
    )


def board_result(board: InterpenaBoard) -> BoardResult:
    match: Match | None = board.match
    if match is None:
        return BoardResult(board.number, None, 0, False, None, 0, 0)
    confirmed = match.status == Match.Status.CONFIRMED
    winner = None
    if confirmed and match.winner_id is not None:
        winner = HOME if match.winner_id == match.entry_a_id else AWAY
    return BoardResult(
        board.number, match.pk, match.version, confirmed, winner, match.games_a, match.games_b
    )


def interpena_result(*, interpena: Interpena) -> tuple[TeamResult, list[BoardResult]]:
    """The team result from the boards as they are now, and the boards' results."""
    boards = [board_result(b) for b in interpena_boards(interpena=interpena)]
    return team_result(boards), boards
