"""Reads of interpeñas, and who may act for each side.

Responsible for: finding an interpeña from a URL (NotFound otherwise; a private interpeña does
not exist outside its two peñas' organizers), the interpeñas a user may list, who acts for a
side (its peña's organizers; clubs.roles decides who organizes a peña) and who confirms the team
result (the side's captain, or any of its organizers when none is named); an interpeña's boards
and their results.

Must not: write, or compute a team result (the pure core, result.py, does).

Cost: an interpeña's boards are one query.

Terms: interpeñas, tablero (board), capitán (captain), alineación (line-up).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from clubs.models import Club
from clubs.roles import can_organize, clubs_organized_by
from config.errors import Invalid, NotFound
from seasons.interpenas.models import Interpena, InterpenaBoard
from seasons.interpenas.result import AWAY, HOME, BoardResult, TeamResult, team_result
from tournaments.models import Match

User = AbstractBaseUser | AnonymousUser | None

SIDES = (HOME, AWAY)


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
