"""Reads of circuits, and who may manage them.

Responsible for (a circuit is a competition of several peñas: seasons.competitions.selectors
answers the first four, in a circuit's words, ``CIRCUIT``): finding a circuit from a URL
(NotFound otherwise; a private circuit does not exist outside its peñas' organizers and members
and its named organizers), the circuits a user may list, who manages a circuit (an organizer of
any of its peñas, or one it names; clubs.roles decides who organizes a peña); a page of a
circuit's stored ranking; the inputs of the ranking (``circuit_ranking_inputs``: the finished
tournaments' standings snapshots, read in a fixed number of queries).

Must not: write, or compute a tournament's standings (it reads the stored snapshots).

Cost: a ranking page is two queries (the count and the page, players joined); the ranking's
inputs four (the tournaments, their phases, the snapshots, the entries' players), whatever the
number of tournaments and players.

Terms: circuito, puesto (place), puntos, desempate (tiebreak).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from django.db.models import QuerySet

from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.circuits.models import Circuit, CircuitRankingRow
from seasons.circuits.ranking import TournamentResult, final_places
from seasons.competitions import selectors as competitions
from seasons.competitions.selectors import CompetitionErrors, CompetitionKind, User
from tournaments.models import Entry, Tournament

RANKING_PAGE_SIZE = 100


class CircuitErrors(CompetitionErrors):
    """A circuit's words for what every competition may refuse."""

    def not_found(self, slug: str) -> NotFound:
        return NotFound("There is no circuit '{slug}'.", code="circuit_not_found", slug=slug)

    def not_found_id(self, competition_id: int) -> NotFound:
        return NotFound(
            "There is no circuit {circuit_id}.",
            code="circuit_id_not_found",
            circuit_id=competition_id,
        )

    def not_manager(self, competition) -> Forbidden:
        return Forbidden(
            "Only the organizers of the circuit {circuit} can change it.",
            code="not_circuit_organizer",
            circuit=competition.name,
        )

    def gone(self) -> NotFound:
        return NotFound("This circuit no longer exists.", code="circuit_gone")

    def name_required(self) -> Invalid:
        return Invalid("Give the circuit a name.", code="circuit_name_required")

    def name_long(self) -> Invalid:
        return Invalid(
            "The circuit's name is too long: at most 160 characters.", code="circuit_name_long"
        )

    def text_long(self, field: str) -> Invalid:
        return Invalid(
            "'{field}' is too long: at most 120 characters.", code="circuit_text_long", field=field
        )

    def public_flag(self) -> Invalid:
        return Invalid(
            "Whether the circuit is public is true or false.", code="circuit_public_flag"
        )

    def slug_required(self) -> Invalid:
        return Invalid(
            "Give the circuit a short name of letters and digits.", code="circuit_slug_required"
        )

    def slug_taken(self, slug: str) -> Conflict:
        return Conflict(
            "There is already a circuit '{slug}'; choose another short name.",
            code="circuit_slug_taken",
            slug=slug,
        )

    def user_unknown(self, username: str) -> NotFound:
        return NotFound(
            "There is no user '{username}'.", code="circuit_user_unknown", username=username
        )


#: a circuit as the shared reads and writes of competitions see it
CIRCUIT = CompetitionKind(
    model=Circuit, stops="circuit_stops", stop_field="circuit", errors=CircuitErrors()
)


def circuit_can_see(*, user: User, circuit: Circuit) -> bool:
    """A public circuit is for everybody; a private one for the organizers and members of its
    peñas (any role) and the organizers it names."""
    return competitions.competition_can_see(CIRCUIT, user=user, competition=circuit)


def circuit_list(*, user: User) -> QuerySet[Circuit]:
    """The circuits ``user`` may see: the public ones, and the private ones of their peñas."""
    return competitions.competition_list(CIRCUIT, user=user)


def circuit_get(*, slug: str, user: User) -> Circuit:
    """The circuit from a URL; a private one does not exist for who may not see it."""
    return competitions.competition_get(CIRCUIT, slug=slug, user=user)


def circuit_get_by_id(*, circuit_id: int, user: User) -> Circuit:
    return competitions.competition_get_by_id(CIRCUIT, competition_id=circuit_id, user=user)


def circuit_can_manage(*, user: User, circuit: Circuit) -> bool:
    return competitions.competition_can_manage(CIRCUIT, user=user, competition=circuit)


def circuit_require_manager(*, user: User, circuit: Circuit) -> None:
    competitions.competition_require_manager(CIRCUIT, user=user, competition=circuit)


def circuits_managed_by(*, user: User) -> QuerySet[Circuit]:
    return competitions.competitions_managed_by(CIRCUIT, user=user)


def circuit_tournaments(*, circuit: Circuit) -> list[Tournament]:
    """The circuit's tournaments by date, with their peña (one query)."""
    return competitions.competition_tournaments(CIRCUIT, competition=circuit)


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
    tables = competitions.phase_tables(tournaments)
    players: dict[int, tuple[int, int]] = {}
    for entry_id, one, two in Entry.objects.filter(tournament_id__in=tournaments).values_list(
        "id", "pair__player_one_id", "pair__player_two_id"
    ):
        players[entry_id] = (one, two)
    results = []
    for order, tournament_id in enumerate(tournaments):
        places = final_places(tables[tournament_id])
        results.append(
            TournamentResult(
                tournament=tournament_id,
                order=order,
                places=places,
                players={pair: players[pair] for pair in places if pair in players},
            )
        )
    return results
