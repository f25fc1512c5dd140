"""Reads of the entrants that are not pairs: players alone and Mus francés tables.

Responsible for: a tournament's players registered alone (IndividualEntry, with their player,
in registration order), a round's Mus francés tables with their seated players, and one table
for an organizer or behind its link — each list in a fixed number of queries whatever its
length. The visibility rule is the rounds' (a draft round only for the organizers).

Must not: write.

Terms: jugador inscrito (a player alone), mesa de mus francés (FrancesTable), asiento (seat).
"""

from __future__ import annotations

from django.db.models import Prefetch

from clubs.roles import can_organize
from config.errors import NotFound
from tournaments.models import FrancesSeat, FrancesTable, IndividualEntry, Round, Tournament
from tournaments.selectors.rounds import round_not_found
from tournaments.selectors.tournaments import User, tournament_is_published


def individual_list(*, tournament: Tournament, status: str | None = None) -> list[IndividualEntry]:
    """The players registered alone, in registration order (one query)."""
    qs = IndividualEntry.objects.filter(tournament=tournament).select_related("player")
    if status:
        qs = qs.filter(status=status)
    return list(qs.order_by("registered_at", "id"))


def _with_seats(qs):
    seats = FrancesSeat.objects.select_related("entry__player").order_by("seat")
    return qs.prefetch_related(Prefetch("seats", queryset=seats))


def frances_table_list(*, round: Round, user: User) -> list[FrancesTable]:
    """The round's Mus francés tables with their seats and players (two queries). A draft
    round only for the organizers of its peña (NotFound otherwise). Each table's
    ``link_token`` is its link's secret for those organizers (they hand it to the table, as
    a pair match's is in its history), None for anyone else."""
    tournament = round.phase.tournament
    organizer = can_organize(user, tournament.club)
    if not organizer and (
        round.status == Round.Status.DRAFT or not tournament_is_published(tournament)
    ):
        raise round_not_found(round.pk)
    tables = list(_with_seats(FrancesTable.objects.filter(round=round)).order_by("table_number"))
    for table in tables:
        table.link_token = table.token if organizer else None
    return tables


def frances_table_get(*, table_id: int) -> FrancesTable:
    """A table with its round, tournament and seats (no visibility check: writes check)."""
    table = (
        _with_seats(FrancesTable.objects.select_related("round__phase__tournament__club"))
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise NotFound(
            "There is no Mus francés table {table}.", code="frances_table_not_found", table=table_id
        )
    return table


def frances_table_for_link(*, token: str) -> FrancesTable | None:
    """The table behind a link, with its seats; None for a token of no table."""
    if not token:
        return None
    return (
        _with_seats(FrancesTable.objects.select_related("round__phase__tournament__club"))
        .filter(token=token)
        .first()
    )
