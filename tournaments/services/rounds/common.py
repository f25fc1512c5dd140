"""What the writes of the rounds area share: the organizer check, the audit row, the row
locks (phase, then round — the order every write of tournaments/services/rounds/ takes), the
tasks queued on commit, and the errors several of them raise.

Must not: write anything on its own; each write lives in its sibling module.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from config.errors import Conflict, Invalid
from config.queue import enqueue_on_commit
from scoring.messages import Term
from tournaments.models import (
    AuditEntry,
    Match,
    Phase,
    Round,
    Tournament,
)
from tournaments.selectors.rounds import (
    phase_not_found,
    round_not_found,
)
from tournaments.selectors.tournaments import tournament_check_organizer

log = logging.getLogger("tournaments.services.rounds")

User = AbstractBaseUser | AnonymousUser | None

#: the status of a round that is no longer a draft, as its messages say it (a word the
#: reader's language translates)
_ROUND_STATUS = {Round.Status.PUBLISHED: Term("published"), Round.Status.CLOSED: Term("closed")}


# --- Shared helpers ---------------------------------------------------------------------------


def _require_organizer(actor: User, tournament: Tournament) -> None:
    """Organizers pass; others get 403 on a published tournament, 404 on one they cannot see."""
    tournament_check_organizer(user=actor, tournament=tournament)


def _audit(
    tournament: Tournament,
    action: str,
    actor: User,
    *,
    match: Match | None = None,
    old: dict | None = None,
    new: dict | None = None,
) -> None:
    AuditEntry.objects.create(
        tournament=tournament,
        match=match,
        action=action,
        actor=actor if actor is not None and actor.is_authenticated else None,
        old=old,
        new=new,
    )


def _lock_phase(phase_id: int) -> Phase:
    phase = Phase.objects.select_for_update(of=("self",)).filter(pk=phase_id).first()
    if phase is None:
        raise phase_not_found(phase_id)
    # Loaded apart so that the tournament and peña rows are not locked too.
    phase.tournament = Tournament.objects.select_related("club").get(pk=phase.tournament_id)
    return phase


def _lock_round(round_id: int) -> Round:
    """Lock the round's phase, then the round (the order every service uses)."""
    phase_id = Round.objects.filter(pk=round_id).values_list("phase_id", flat=True).first()
    if phase_id is None:
        raise round_not_found(round_id)
    phase = _lock_phase(phase_id)
    rnd = Round.objects.select_for_update(of=("self",)).get(pk=round_id)
    rnd.phase = phase
    return rnd


def _after_commit_standings(phase_id: int) -> None:
    enqueue_on_commit("tournaments.standings_refresh", phase_id=phase_id)


def _after_commit_email(round_id: int) -> None:
    enqueue_on_commit("tournaments.round_pairings_email", round_id=round_id)


def _tournament_finished(tournament: Tournament) -> Conflict:
    return Conflict(
        "{tournament} has finished; it can no longer change.",
        code="tournament_finished",
        tournament=tournament.name,
    )


def _phase_finished(phase: Phase) -> Conflict:
    return Conflict("{phase} is already finished.", code="phase_finished", phase=phase.name)


def _round_closed(rnd: Round) -> Conflict:
    return Conflict("Round {round} is closed.", code="round_closed", round=rnd.number)


def _round_drawn_twice(phase: Phase, number: int) -> Conflict:
    return Conflict(
        "Round {round} of {phase} was drawn at the same time by somebody else; reload the page.",
        code="round_drawn_twice",
        round=number,
        phase=phase.name,
    )


def _table_match_unknown(match_id: int, rnd: Round) -> Invalid:
    return Invalid(
        "Match {match} is not a match at a table in round {round}.",
        code="table_match_unknown",
        match=match_id,
        round=rnd.number,
    )


def _sides(match: Match) -> dict:
    return {"entry_a": match.entry_a_id, "entry_b": match.entry_b_id, "table": match.table_number}
