"""What every write on a tournament shares: its lock, its audit row and its limits.

Responsible for: ``tournament_lock_for_organizer``, the helper a tournament write starts with
(lock the row once the actor is known to organize its peña: NotFound for what the actor may
not see, Forbidden for a published tournament of another peña), ``audit_write`` (one
AuditEntry for a write of the tournament or its registration; ``audit_entry`` builds one
unsaved, for a write that stores many at once), the limits and status words both
tournaments.py and registration.py need, and ``tournament_check_not_managed`` (a tournament a
league or an interpeña runs refuses the writes of its own desk). For registration (pairs one
by one, trios and players alone, whole lists): ``lock_open_registration`` and the checks it
makes (the kind of entrant, registration still open), and ``player_entered_error``, the one
error every registration path raises for a player who is already in the tournament.

Sits below the modules of the tournament's writes: tournaments.py imports registration.py (a
raised max_pairs promotes waiting pairs), registration.py and entrants.py import bulk.py (whole
lists), and all of them import this module, which imports none of them.

Must not: import another module of tournaments/services, or decide anything a write decides.

Terms: peña (club), inscripción (registration), mesa (table).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from config.errors import Conflict, Invalid
from scoring.messages import Term
from tournaments.models import AuditEntry, Entry, IndividualEntry, Tournament
from tournaments.selectors.tournaments import tournament_check_organizer, tournament_not_found

User = AbstractBaseUser | AnonymousUser | None

# Bounds well inside the columns (small integers) and beyond any real Mus tournament.
MAX_TABLES = 1000
MAX_PAIRS = 10000
MAX_LATE_MINUTES = 600

#: Statuses in which pairs are added and the waiting list moves up on its own.
REGISTRATION_OPEN = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)

#: Each status as the reader's language names it (errors show it).
STATUS_TERMS = {
    Tournament.Status.DRAFT: Term("draft"),
    Tournament.Status.REGISTRATION: Term("registration"),
    Tournament.Status.RUNNING: Term("running"),
    Tournament.Status.FINISHED: Term("finished"),
}


def tournament_lock_for_organizer(*, tournament: Tournament, actor: User) -> Tournament:
    """``tournament`` read again and locked until the caller's transaction ends, once ``actor``
    is known to organize its peña. Call inside ``transaction.atomic()``; use the returned row
    (the caller's instance may be stale).

    NotFound if it does not exist or the actor may not see it (a private or draft tournament of
    another peña); Forbidden if the actor sees it (published) but does not organize it.
    """
    # of=("self",): lock the tournament, not the peña row the join brings along.
    locked = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament.pk)
        .first()
    )
    if locked is None:
        raise tournament_not_found(tournament.pk)
    tournament_check_organizer(user=actor, tournament=locked)
    return locked


def tournament_lock(tournament: Tournament) -> Tournament:
    """``tournament`` read again and locked, with no check of who asks: only for a caller that
    has checked its right itself (``lock_open_registration(trusted=True)``)."""
    locked = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament.pk)
        .first()
    )
    if locked is None:
        raise tournament_not_found(tournament.pk)
    return locked


#: What runs a managed tournament, as the reader's language names it (errors show it).
MANAGER_TERMS = {
    Tournament.ManagedBy.LEAGUE: Term("the league"),
    Tournament.ManagedBy.INTERPENA: Term("the interpeña"),
}


def tournament_check_not_managed(*, tournament: Tournament, managed: bool) -> None:
    """Conflict if ``tournament`` is run by a league or an interpeña (``managed_by``) and the
    caller is not that app's service (``managed=True``): its rounds, phases and status are the
    league's calendar or the interpeña's boards, and a write from the tournament's own desk
    would leave them out of step (a stray round, a phase the league does not know)."""
    if managed or not tournament.managed_by:
        return
    raise Conflict(
        "{tournament_name} is run by {manager} '{name}': draw, publish and close its rounds "
        "and change its status there, not on the tournament's desk.",
        code="tournament_managed",
        tournament_name=tournament.name,
        manager=MANAGER_TERMS.get(tournament.managed_by, Term("the league")),
        name=tournament.managed_label,
        url=tournament.managed_url,
    )


def audit_write(
    *,
    tournament: Tournament,
    action: str,
    actor: User,
    via: str,
    device: str = "",
    old: Any = None,
    new: Any = None,
    match_id: int | None = None,
) -> AuditEntry:
    """One audit row. Only for writes of the tournament and its registration."""
    entry = audit_entry(
        tournament=tournament,
        action=action,
        actor=actor,
        via=via,
        device=device,
        old=old,
        new=new,
        match_id=match_id,
    )
    entry.save()
    return entry


def audit_entry(
    *,
    tournament: Tournament,
    action: str,
    actor: User,
    via: str,
    device: str = "",
    old: Any = None,
    new: Any = None,
    match_id: int | None = None,
) -> AuditEntry:
    """The audit row ``audit_write`` saves, unsaved: a write of many rows stores its audit
    rows with one ``bulk_create``."""
    return AuditEntry(
        tournament=tournament,
        match_id=match_id,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        via=via[:16],
        device=device[:200],
        old=old,
        new=new,
    )


# --- Registration -----------------------------------------------------------------------------

#: Each entrant kind as the reader's language names it (errors show it).
KIND_TERMS = {
    Tournament.EntrantKind.PAIRS: Term("pairs"),
    Tournament.EntrantKind.TRIOS: Term("trios"),
    Tournament.EntrantKind.INDIVIDUALS: Term("individual players"),
    Tournament.EntrantKind.FRANCES: Term("Mus francés players"),
}
#: The kinds of tournament whose players enter alone (IndividualEntry rows).
ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)


def require_entrant_kind(tournament: Tournament, *kinds: str) -> None:
    """Invalid unless the tournament's entrants are of one of ``kinds``."""
    if tournament.entrant_kind not in kinds:
        raise Invalid(
            "{tournament_name} is a tournament of {kind}; register its entrants as such.",
            code="entrant_kind_mismatch",
            tournament_name=tournament.name,
            kind=KIND_TERMS[tournament.entrant_kind],
        )


def require_registration_open(tournament: Tournament) -> None:
    if tournament.status not in REGISTRATION_OPEN:
        raise Conflict(
            "Registration for {tournament_name} is closed (the tournament is {status}); pairs "
            "can only be added before it starts.",
            code="registration_closed",
            status=STATUS_TERMS[tournament.status],
            tournament_name=tournament.name,
        )


def require_not_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(
            "{tournament_name} has finished; its registrations can no longer change.",
            code="entries_frozen",
            tournament_name=tournament.name,
        )


def lock_open_registration(
    tournament: Tournament, actor: User, *kinds: str, trusted: bool = False
) -> Tournament:
    """The tournament locked for its organizer, once its entrants are of one of ``kinds`` and
    its registration is open; every registration starts so. The caller holds a transaction.

    ``trusted``: the caller is a service of the floor above acting on its own authority,
    which has checked its right itself (a championship's qualified pairs registered in the next
    stage by a task, when nobody is signed in): the organizer's check is skipped, nothing
    else."""
    if trusted:
        tournament = tournament_lock(tournament)
    else:
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
    require_entrant_kind(tournament, *kinds)
    require_registration_open(tournament)
    return tournament


def player_entered_error(player: Any, entry: Entry | IndividualEntry) -> Conflict:
    """A player plays once per tournament: the error naming ``player`` (a Player) and the
    entry of this tournament they are already in (a pair, a trio, or themselves alone), which
    is not withdrawn."""
    if isinstance(entry, IndividualEntry):
        return Conflict(
            "{player} is already registered in this tournament.",
            code="player_already_registered",
            player=str(player),
            player_id=player.pk,
            entry=entry.pk,
        )
    return Conflict(
        "{player} is already in this tournament, in {entrant} (entry {entry}); a player "
        "enters a tournament once. Withdraw that entry first, or choose another player.",
        code="player_already_entered",
        player=str(player),
        player_id=player.pk,
        entrant=str(entry),
        entry=entry.pk,
        status=entry.status,
    )
