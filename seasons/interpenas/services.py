"""Writes of an interpeña: create it, field each peña's pairs, play the boards, confirm.

Responsible for:

- ``interpena_create``: an organizer of the home peña names the away peña, the date and the
  number of boards (1–16); the interpeña gets its container, a private tournament of the home
  peña (tournaments.services.tournaments.tournament_create, rules from a preset as any
  tournament) with one phase, so that its boards are tournament matches. The tournament is
  ``managed_by`` the interpeña: the lists of tournaments leave it out, and its desk refuses
  draws, phases and status changes (they would break the boards) and links here instead;
- ``interpena_lineup_set``: each peña's organizers field its pairs, board A first (pairs of
  that peña, no player twice in the match), and may name their captain; once both sides are
  fielded, the boards are laid out: one round, published, one match per board (home pair as
  pareja A, table number = the board's number). The boards are the line-ups, not a draw, so
  this writes the round, entries and matches itself rather than through the draw manager;
- ``interpena_board_submit`` / ``interpena_board_confirm``: an organizer enters or confirms
  the board's result for their own side, through the same services as the table's link
  (tournaments.services.results: the pairs at the table can do the same from their phones,
  and the two versions confirm each other or go to dispute as in any tournament). A dispute is
  resolved by the home peña's organizers on the tournament's desk, as any match's;
- ``interpena_team_confirm``: once every board is confirmed, each peña's captain (or, with no
  captain named, any of its organizers) confirms the team result they saw (its
  ``result_version``, seasons.interpenas.result.signature); with both, the interpeña is confirmed.
  A board corrected afterwards changes the signature: the page says so, and the captains
  confirm again.

For a league of peñas (seasons/leagues/teams): ``interpena_create(…, league_key=…)`` schedules the
match of a fixture, and ``seasons.circuits.selectors.interpena_result`` gives its TeamResult.

Must not: validate a result or decide a dispute (the tournaments' result services do).

Terms: interpeñas, tablero (board), alineación (line-up), capitán (captain), pareja.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Pair
from clubs.roles import require_organizer
from config.errors import Conflict, Forbidden, Invalid, NotFound, StaleVersion
from seasons.interpenas.models import Interpena, InterpenaBoard, board_letter
from seasons.interpenas.result import signature
from seasons.interpenas.selectors import (
    AWAY,
    HOME,
    SIDES,
    User,
    interpena_can_act,
    interpena_can_confirm_team,
    interpena_result,
    interpena_side_club,
)
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.services.results import match_result_confirm, match_result_submit
from tournaments.services.results.common import LINK, ResultAnswer
from tournaments.services.tournaments import tournament_create

MAX_BOARDS = 16


def _lock(interpena: Interpena) -> Interpena:
    locked = (
        Interpena.objects.select_for_update(of=("self",))
        .select_related("home_club", "away_club", "tournament")
        .filter(pk=interpena.pk)
        .first()
    )
    if locked is None:
        raise NotFound("This interpeña no longer exists.", code="interpena_gone")
    return locked


def _require_side(actor: User, interpena: Interpena, side: str) -> Club:
    club = interpena_side_club(interpena, side)
    require_organizer(actor, club)
    return club


def _user(username: str):
    if not username:
        return None
    user = get_user_model().objects.filter(username=str(username)[:150]).first()
    if user is None:
        raise NotFound(
            "There is no user '{username}' to name captain.",
            code="interpena_captain_unknown",
            username=str(username)[:40],
        )
    return user


def interpena_create(
    *,
    actor: User,
    home_club: Club,
    away_club_id: int,
    played_on: dt.date,
    boards: int,
    name: str = "",
    venue: str = "",
    is_public: bool = True,
    preset: str | None = None,
    league_key: str = "",
) -> Interpena:
    require_organizer(actor, home_club)
    away = Club.objects.filter(pk=away_club_id).first()
    if away is None:
        raise NotFound("There is no peña {club_id}.", code="club_not_found", club_id=away_club_id)
    if away.pk == home_club.pk:
        raise Invalid("An interpeña is played against another peña.", code="interpena_same_club")
    if not isinstance(boards, int) or isinstance(boards, bool) or not 1 <= boards <= MAX_BOARDS:
        raise Invalid(
            "An interpeña has from 1 to {max_boards} boards, not {boards}.",
            code="interpena_boards",
            max_boards=MAX_BOARDS,
            boards=str(boards)[:20],
        )
    name = " ".join((name or "").split()) or f"{home_club.name} – {away.name}"
    with transaction.atomic():
        tournament = tournament_create(
            club_slug=home_club.slug,
            actor=actor,
            name=f"Interpeñas: {name}"[:160],
            starts_on=played_on,
            ends_on=played_on,
            venue=venue,
            is_public=False,
            tables_available=boards,
            preset=preset,
            managed_by=Tournament.ManagedBy.INTERPENA,
            managed_label=name,
            via="interpena",
        )
        interpena = Interpena.objects.create(
            home_club=home_club,
            away_club=away,
            name=name[:160],
            venue=venue[:160],
            played_on=played_on,
            boards=boards,
            is_public=bool(is_public),
            tournament=tournament,
            league_key=str(league_key or "")[:80],
            created_by=actor,
        )
        # the desk of its tournament links to the interpeña's page (known once it has an id)
        tournament.managed_url = reverse(
            "interpenas:interpena", kwargs={"interpena_id": interpena.pk}
        )
        tournament.save(update_fields=["managed_url"])
        InterpenaBoard.objects.bulk_create(
            [InterpenaBoard(interpena=interpena, number=n) for n in range(1, boards + 1)]
        )
    return interpena


def interpena_lineup_set(
    *,
    actor: User,
    interpena: Interpena,
    side: str,
    pair_ids: list[int],
    captain: str = "",
) -> Interpena:
    """Field one peña's pairs (board A first); the second side fielded lays out the boards."""
    with transaction.atomic():
        interpena = _lock(interpena)
        club = _require_side(actor, interpena, side)
        if interpena.status != Interpena.Status.LINEUPS:
            raise Conflict(
                "The boards are laid out already: the line-ups cannot change.",
                code="interpena_lineups_closed",
            )
        if len(pair_ids) != interpena.boards:
            raise Invalid(
                "Field {boards} pairs, one per board; {given} were given.",
                code="interpena_lineup_size",
                boards=interpena.boards,
                given=len(pair_ids),
            )
        pairs = {p.pk: p for p in Pair.objects.filter(pk__in=pair_ids, club=club)}
        players: set[int] = set()
        for number, pair_id in enumerate(pair_ids, start=1):
            pair = pairs.get(pair_id)
            if pair is None:
                raise Invalid(
                    "Board {board}: pair {pair_id} is not a pair of {club}.",
                    code="interpena_pair_unknown",
                    board=board_letter(number),
                    pair_id=pair_id,
                    club=club.name,
                )
            both = {pair.player_one_id, pair.player_two_id}
            if players & both:
                raise Invalid(
                    "Board {board}: a player of this pair already plays another board.",
                    code="interpena_player_twice",
                    board=board_letter(number),
                )
            players |= both
        boards = list(InterpenaBoard.objects.filter(interpena=interpena).order_by("number"))
        other = "away_pair_id" if side == HOME else "home_pair_id"
        for board in boards:
            theirs = getattr(board, other)
            if theirs is not None:
                pair = Pair.objects.get(pk=theirs)
                if {pair.player_one_id, pair.player_two_id} & players:
                    raise Invalid(
                        "A player cannot play for both peñas.", code="interpena_player_both"
                    )
        field = "home_pair_id" if side == HOME else "away_pair_id"
        for board, pair_id in zip(boards, pair_ids, strict=True):
            setattr(board, field, pair_id)
            board.save(update_fields=[field])
        if captain:
            setattr(interpena, f"{side}_captain", _user(captain))
        interpena.save()
        if all(b.home_pair_id and b.away_pair_id for b in boards):
            _lay_out(interpena, boards)
    return interpena


def _lay_out(interpena: Interpena, boards: list[InterpenaBoard]) -> None:
    """One published round, a match per board: the tables' links open."""
    tournament = interpena.tournament
    phase = Phase.objects.create(
        tournament=tournament,
        order=1,
        name="Interpeñas",
        format=Phase.Format.ROUND_ROBIN,
        status=Phase.Status.RUNNING,
    )
    now = timezone.now()
    rnd = Round.objects.create(
        phase=phase, number=1, status=Round.Status.PUBLISHED, published_at=now
    )
    for board in boards:
        home = Entry.objects.create(
            tournament=tournament,
            pair_id=board.home_pair_id,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=now,
        )
        away = Entry.objects.create(
            tournament=tournament,
            pair_id=board.away_pair_id,
            status=Entry.Status.CHECKED_IN,
            checked_in_at=now,
        )
        board.match = Match.objects.create(
            round=rnd, table_number=board.number, entry_a=home, entry_b=away
        )
        board.save(update_fields=["match"])
    tournament.status = tournament.Status.RUNNING
    tournament.save(update_fields=["status", "updated_at"])
    interpena.round = rnd
    interpena.status = Interpena.Status.PLAYING
    interpena.save(update_fields=["round", "status", "updated_at"])


def _board(interpena: Interpena, number: int) -> InterpenaBoard:
    board = (
        InterpenaBoard.objects.select_related("match__round__phase__tournament__club")
        .filter(interpena=interpena, number=number)
        .first()
    )
    if board is None or board.match is None:
        raise NotFound(
            "Board {board} of this interpeña is not being played.",
            code="interpena_board_unknown",
            board=str(number)[:8],
        )
    return board


def _device(interpena: Interpena, side: str) -> str:
    club = interpena_side_club(interpena, side)
    return f"interpeña: organizer of {club.name}"[:200]


def interpena_board_submit(
    *,
    actor: User,
    interpena: Interpena,
    board: int,
    side: str,
    payload: dict,
    idempotency_key: str,
    version: int,
) -> ResultAnswer:
    """An organizer enters the board's result for their peña's pair (see the docstring)."""
    _require_side(actor, interpena, side)
    match = _board(interpena, board).match
    return match_result_submit(
        match=match,
        side="a" if side == HOME else "b",
        payload=payload,
        idempotency_key=idempotency_key,
        version=version,
        via=LINK,
        actor=actor,
        device=_device(interpena, side),
    )


def interpena_board_confirm(
    *,
    actor: User,
    interpena: Interpena,
    board: int,
    side: str,
    idempotency_key: str,
    version: int,
) -> ResultAnswer:
    """An organizer confirms, for their peña's pair, the result the other pair entered."""
    _require_side(actor, interpena, side)
    match = _board(interpena, board).match
    return match_result_confirm(
        match=match,
        side="a" if side == HOME else "b",
        idempotency_key=idempotency_key,
        version=version,
        via=LINK,
        actor=actor,
        device=_device(interpena, side),
    )


def interpena_team_confirm(
    *, actor: User, interpena: Interpena, side: str, result_version: str
) -> Interpena:
    """A captain confirms the team result they saw; with both, the interpeña is confirmed."""
    if side not in SIDES:
        interpena_side_club(interpena, side)  # raises the error of an unknown side
    with transaction.atomic():
        interpena = _lock(interpena)
        if not interpena_can_confirm_team(user=actor, interpena=interpena, side=side):
            if not interpena_can_act(user=actor, interpena=interpena, side=side):
                _require_side(actor, interpena, side)
            raise Forbidden(
                "Only the captain of {club} confirms its team result.",
                code="interpena_not_captain",
                club=interpena_side_club(interpena, side).name,
            )
        result, boards = interpena_result(interpena=interpena)
        if not result.complete:
            raise Conflict(
                "{missing} of the {boards} boards are not confirmed yet; the team result is "
                "confirmed once every board is.",
                code="interpena_boards_pending",
                missing=result.boards_total - result.boards_confirmed,
                boards=result.boards_total,
            )
        current = signature(boards)
        if str(result_version) != current:
            raise StaleVersion(
                "A board's result changed since you loaded the page; reload and check the team "
                "result again.",
                code="interpena_result_changed",
            )
        setattr(interpena, f"{side}_confirmed", current)
        if interpena.home_confirmed == current and interpena.away_confirmed == current:
            interpena.status = Interpena.Status.CONFIRMED
            interpena.confirmed_at = timezone.now()
        interpena.save()
    return interpena


__all__ = [
    "AWAY",
    "HOME",
    "interpena_board_confirm",
    "interpena_board_submit",
    "interpena_create",
    "interpena_lineup_set",
    "interpena_team_confirm",
]
