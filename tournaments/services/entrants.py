"""Writes of registration for the entrants that are not pairs: trios and players alone.

Responsible for: registering a trio (three players, by id or as a pasted line "Ana García /
Luis Pérez / Eva Ruiz"), registering a player alone in an individual or Mus francés tournament
(by id or one name per pasted line), their withdrawal and check-in. Pasted lists are all or
nothing and go through bulk.py, like the pairs'; the checks every registration makes (the
kind of entrant, registration open, a player already in) are base.py's.

A trio is an Entry like a pair's, so the draw, the matches and the result flow are the pairs':
its ``pair`` is a team row (clubs.Pair) of its first two players named by all three, and its
``player_three`` the third. Nobody may be in two trios of one tournament. A player alone is an
IndividualEntry; an individual tournament has no waiting list (``max_pairs`` counts pairs and
trios only). A player enters a tournament once, in one entry.

Must not: draw (draw_manager makes the round's partnerships and tables), or touch matches.

Terms: trío (trio), jugador inscrito (a player alone, IndividualEntry), pareja, mus francés.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from clubs.models import Pair, Player
from clubs.services import player_merged_error
from config.errors import Conflict, Invalid, NotFound
from tournaments.models import Entry, IndividualEntry, Tournament
from tournaments.selectors.registration import entries_of_players
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES
from tournaments.services.base import (
    ALONE,
    KIND_TERMS,
    User,
    audit_write,
    lock_open_registration,
    player_entered_error,
    require_entrant_kind,
    require_not_finished,
    require_registration_open,
    tournament_lock_for_organizer,
)
from tournaments.services.bulk import entrants_register_text, trio_same_player
from tournaments.services.eligibility import Candidate, eligibility_require

__all__ = [
    "ALONE",
    "KIND_TERMS",
    "individual_check_in",
    "individual_register",
    "individual_register_pasted",
    "individual_withdraw",
    "lock_open_registration",
    "require_entrant_kind",
    "require_not_finished",
    "require_registration_open",
    "trio_register",
    "trio_register_pasted",
]


def _require_players(player_ids: list[int]) -> None:
    """NotFound naming the first of ``player_ids`` that is no player; Conflict naming the first
    that was made one person with another (clubs.identity: that one is entered instead)."""
    found = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    merged = (
        Player.objects.filter(pk__in=player_ids, merged_into__isnull=False)
        .select_related("merged_into")
        .order_by("pk")
        .first()
    )
    if merged is not None:
        raise player_merged_error(merged)
    for pk in player_ids:
        if pk not in found:
            raise NotFound(
                "There is no player {player}; check the number.",
                code="entrant_player_unknown",
                player=pk,
            )


# --- Trios ----------------------------------------------------------------------------------


def trio_names(line: str) -> list[str]:
    """The three names of a line "Ana García / Luis Pérez / Eva Ruiz"; Invalid otherwise."""
    names = [" ".join(side.split()) for side in line.split("/")]
    if len(names) != 3 or not all(names):
        count = len([n for n in names if n])
        raise Invalid(
            '"{text}" names {count} players; a trio is three players separated by "/", e.g. '
            '"Ana García / Luis Pérez / Eva Ruiz".',
            code="trio_line",
            text=line[:120],
            count=count,
        )
    return names


def trio_register(
    *,
    tournament: Tournament,
    player_ids: list[int],
    actor: User,
    via: str = "api",
    device: str = "",
) -> Entry:
    """Register three existing players as a trio."""
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, Tournament.EntrantKind.TRIOS)
        if len(player_ids) != 3:
            raise Invalid(
                "A trio has three players; {count} were given.",
                code="trio_size",
                count=len(player_ids),
            )
        _require_players(player_ids)
        return _trio(tournament, player_ids, actor=actor, via=via, device=device)


def trio_register_pasted(
    *, tournament: Tournament, text: str, actor: User, via: str = "api", device: str = ""
) -> list[Entry]:
    """One trio per line ("Ana García / Luis Pérez / Eva Ruiz", or "Team: …"), all or nothing
    (tournaments.services.bulk)."""
    return entrants_register_text(
        tournament=tournament,
        text=text,
        actor=actor,
        kinds=(Tournament.EntrantKind.TRIOS,),
        via=via,
        device=device,
    ).entries


def _trio(tournament: Tournament, ids: list[int], *, actor: User, via: str, device: str) -> Entry:
    players = Player.objects.in_bulk(ids)
    if len(set(ids)) < 3:
        raise trio_same_player(" / ".join(str(players[i]) for i in ids))
    entered = entries_of_players(tournament=tournament, player_ids=ids)
    for pk in ids:
        if pk in entered:
            raise player_entered_error(players[pk], entered[pk])
    eligibility_require(
        tournament=tournament, candidate=Candidate(players=tuple(ids), club_id=tournament.club_id)
    )
    active = Entry.objects.filter(tournament=tournament, status__in=ACTIVE_ENTRY_STATUSES).count()
    full = tournament.max_pairs is not None and active >= tournament.max_pairs
    name = " / ".join(str(players[i]) for i in ids)
    team = Pair.objects.create(
        player_one_id=ids[0],
        player_two_id=ids[1],
        name=name[: Pair._meta.get_field("name").max_length],
        club=tournament.club,
    )
    entry = Entry.objects.create(
        tournament=tournament,
        pair=team,
        player_three_id=ids[2],
        status=Entry.Status.WAITING if full else Entry.Status.REGISTERED,
    )
    audit_write(
        tournament=tournament,
        action="trio_registered",
        actor=actor,
        via=via,
        device=device,
        new={"entry": entry.pk, "trio": name, "status": entry.status},
    )
    return entry


# --- Players alone --------------------------------------------------------------------------


def individual_register(
    *, tournament: Tournament, player_id: int, actor: User, via: str = "api", device: str = ""
) -> IndividualEntry:
    """Register an existing player alone (individual or Mus francés tournament)."""
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, *ALONE)
        _require_players([player_id])
        return _individual(tournament, player_id, actor=actor, via=via, device=device)


def individual_register_pasted(
    *, tournament: Tournament, text: str, actor: User, via: str = "api", device: str = ""
) -> list[IndividualEntry]:
    """One player per line ("Ana García"), all or nothing (tournaments.services.bulk)."""
    return entrants_register_text(
        tournament=tournament, text=text, actor=actor, kinds=ALONE, via=via, device=device
    ).entries


def _individual(
    tournament: Tournament, player_id: int, *, actor: User, via: str, device: str
) -> IndividualEntry:
    entry = (
        IndividualEntry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, player_id=player_id)
        .first()
    )
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        raise player_entered_error(entry.player, entry)
    if entry is None:
        entry = IndividualEntry.objects.create(tournament=tournament, player_id=player_id)
    else:
        entry.status = Entry.Status.REGISTERED
        entry.withdrawn_at = None
        entry.checked_in_at = None
        entry.registered_at = timezone.now()
        entry.save()
    audit_write(
        tournament=tournament,
        action="individual_registered",
        actor=actor,
        via=via,
        device=device,
        new={"individual": entry.pk, "player": player_id},
    )
    return entry


def _lock_individual(tournament: Tournament, individual_id: int) -> IndividualEntry:
    entry = (
        IndividualEntry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=individual_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise NotFound(
            "There is no registered player {individual} in {tournament_name}.",
            code="individual_not_found",
            individual=individual_id,
            tournament_name=tournament.name,
        )
    return entry


def individual_withdraw(
    *, tournament: Tournament, individual_id: int, actor: User, via: str = "api", device: str = ""
) -> IndividualEntry:
    """A player leaves the tournament: no later round seats them; their results stay."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_individual(tournament, individual_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{player} has already withdrawn from the tournament.",
                code="individual_already_withdrawn",
                player=str(entry.player),
            )
        old = entry.status
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        audit_write(
            tournament=tournament,
            action="individual_withdrawn",
            actor=actor,
            via=via,
            device=device,
            old={"individual": entry.pk, "status": old},
            new={"individual": entry.pk, "status": entry.status},
        )
    return entry


def individual_check_in(
    *,
    tournament: Tournament,
    individual_id: int,
    actor: User,
    present: bool = True,
    via: str = "api",
    device: str = "",
) -> IndividualEntry:
    """Mark a player present on the day (or not, ``present=False``). Twice changes nothing."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_individual(tournament, individual_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{player} has withdrawn; register them again before checking them in.",
                code="individual_withdrawn",
                player=str(entry.player),
            )
        entry.status = Entry.Status.CHECKED_IN if present else Entry.Status.REGISTERED
        entry.checked_in_at = timezone.now() if present else None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry
