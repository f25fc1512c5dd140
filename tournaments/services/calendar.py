"""Writes of a tournament's calendar: dates of rounds and matches, postponed matches, and what
is decided once a deadline passes — the one decision leagues take too.

Responsible for:

- ``round_schedule``: a round's date and time (empty: the tournament's calendar pattern, or
  nothing, says);
- ``match_schedule``: a match's own date, when its pairs agreed another than their round's
  ("dos tardes por semana, fechas movibles de mutuo acuerdo");
- ``match_postpone``: a match of a published round, not decided, postponed to a deadline (again:
  a new deadline), with a reason; its table's link keeps working, and a result entered before
  the organizer decides counts as played;
- ``deadline_decide``: after a deadline, a walkover (the absent pair loses: the results'
  forfeit, with the format's full score) or a double loss (both lose: the results'
  double loss) — or nothing, when the match was played meanwhile. The leagues' postponements
  (seasons.leagues, above this floor) decide through it, so the tournaments and the leagues
  apply one rule with one set of messages;
- ``match_deadline_decide``: that decision for a tournament's own postponed match.

A knockout's match needs a winner: a double loss is refused there. A tournament a league or an
interpeña runs has the league's calendar: these writes are refused on it unless the caller is
that app (``managed=True``).

Must not: write a result but through the results services; decide which matches are late (the
selectors and tournaments.draw.calendar do).

Terms: ronda (round), jornada, aplazada (postponed), fecha límite (deadline), no presentada
(walkover), doble derrota (double loss), eliminatoria (knockout), descanso (bye).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from config.errors import Conflict, Invalid
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.selectors.calendar import round_dates
from tournaments.selectors.rounds import ELIMINATION_FORMATS
from tournaments.selectors.tournaments import tournament_check_organizer
from tournaments.services import results as results_services
from tournaments.services.base import User, audit_write, tournament_check_not_managed
from tournaments.services.results.access import require_match_organizer
from tournaments.services.results.common import lock_match

#: what may be decided after a deadline (the leagues' Postponement.Outcome has the same values)
WALKOVER, DOUBLE_LOSS, PLAYED = "walkover", "double_loss", "played"
OUTCOMES = (WALKOVER, DOUBLE_LOSS)


def _iso(moment: dt.date | dt.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _require_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(
            "{tournament_name} is finished; its calendar can no longer change.",
            code="calendar_finished",
            tournament_name=tournament.name,
        )


# --- Dates --------------------------------------------------------------------------------------


def round_schedule(
    *,
    round: Round,
    actor: User,
    scheduled_at: dt.datetime | None,
    via: str = "api",
    device: str = "",
    managed: bool = False,
) -> Round:
    """Set (or, with None, clear) when ``round`` is played."""
    with transaction.atomic():
        rnd = (
            Round.objects.select_for_update(of=("self",))
            .select_related("phase__tournament__club")
            .get(pk=round.pk)
        )
        tournament = rnd.phase.tournament
        tournament_check_organizer(user=actor, tournament=tournament)
        tournament_check_not_managed(tournament=tournament, managed=managed)
        _require_open(tournament)
        old = rnd.scheduled_at
        rnd.scheduled_at = scheduled_at
        rnd.save(update_fields=["scheduled_at"])
        audit_write(
            tournament=tournament,
            action="round_scheduled",
            actor=actor,
            via=via,
            device=device,
            old={"round": rnd.pk, "scheduled_at": _iso(old)},
            new={"round": rnd.pk, "scheduled_at": _iso(scheduled_at)},
        )
    return rnd


def _lock(match: Match, actor: User, managed: bool) -> Match:
    require_match_organizer(match, actor)
    locked = lock_match(match)
    tournament = locked.round.phase.tournament
    tournament_check_not_managed(tournament=tournament, managed=managed)
    _require_open(tournament)
    return locked


def match_schedule(
    *,
    match: Match,
    actor: User,
    scheduled_at: dt.datetime | None,
    via: str = "api",
    device: str = "",
    managed: bool = False,
) -> Match:
    """Set (or, with None, clear) the date the match's pairs agreed, instead of their round's."""
    with transaction.atomic():
        locked = _lock(match, actor, managed)
        if locked.status == Match.Status.CONFIRMED:
            raise Conflict(
                "This match has a confirmed result; its date can no longer move.",
                code="match_schedule_played",
            )
        old = locked.scheduled_at
        locked.scheduled_at = scheduled_at
        locked.save(update_fields=["scheduled_at", "updated_at"])
        audit_write(
            tournament=locked.round.phase.tournament,
            action="match_scheduled",
            actor=actor,
            via=via,
            device=device,
            match_id=locked.pk,
            old={"scheduled_at": _iso(old)},
            new={"scheduled_at": _iso(scheduled_at)},
        )
    return locked


# --- Postponed matches ----------------------------------------------------------------------------


def match_postpone(
    *,
    match: Match,
    actor: User,
    deadline: dt.date,
    reason: str = "",
    via: str = "api",
    device: str = "",
    today: dt.date | None = None,
    managed: bool = False,
) -> Match:
    """Postpone a match of a published round not decided yet to ``deadline`` (again: a new
    deadline); the deadline comes after the day it was to be played and is not over."""
    today = today or timezone.localdate()
    with transaction.atomic():
        locked = _lock(match, actor, managed)
        if locked.round.status == Round.Status.DRAFT:
            raise Conflict(
                "The round of this match is not published yet; publish it before postponing "
                "one of its matches.",
                code="match_postpone_draft",
            )
        if locked.kind == Match.Kind.BYE:
            raise Conflict(
                "A bye is not played: there is nothing to postpone.", code="postpone_bye"
            )
        if locked.status == Match.Status.CONFIRMED:
            raise Conflict(
                "This match has a confirmed result; there is nothing to postpone.",
                code="postpone_played",
            )
        tournament = locked.round.phase.tournament
        planned = locked.scheduled_at or round_dates(tournament=tournament).get(locked.round_id)
        day = timezone.localtime(planned).date() if planned is not None else None
        if day is not None and deadline <= day:
            raise Invalid(
                "The deadline must come after the day the match was to be played ({date}).",
                code="match_deadline_before",
                date=day.isoformat(),
            )
        if deadline < today:
            raise Invalid(
                "The deadline {deadline} is already over; give a day from today on.",
                code="match_deadline_past",
                deadline=deadline.isoformat(),
            )
        old = {"deadline": _iso(locked.deadline), "reason": locked.postponed_reason}
        locked.deadline = deadline
        locked.postponed_reason = " ".join(str(reason or "").split())[:200]
        locked.save(update_fields=["deadline", "postponed_reason", "updated_at"])
        audit_write(
            tournament=tournament,
            action="match_postponed",
            actor=actor,
            via=via,
            device=device,
            match_id=locked.pk,
            old=old,
            new={"deadline": deadline.isoformat(), "reason": locked.postponed_reason},
        )
    return locked


def deadline_decide(
    *,
    match: Match,
    deadline: dt.date,
    outcome: str,
    actor: User,
    absent_side: str = "",
    today: dt.date | None = None,
    managed: bool = False,
) -> str:
    """What happens to a postponed match once ``deadline`` is over: a walkover for the pair
    that came (``absent_side`` lost it: the results' forfeit, with the format's full score) or
    a double loss (both lose: the results' double loss); "played" when a result was confirmed
    meanwhile (it counts as played, nothing changes). Returns what was decided.

    Invalid for another outcome; Conflict before the deadline is over, and for a double loss
    in a knockout (its match needs a winner). The caller holds the match's lock in its
    transaction (a league's postponement, or match_deadline_decide)."""
    today = today or timezone.localdate()
    if outcome not in OUTCOMES:
        raise Invalid(
            "After the deadline the organizer applies a walkover or a double loss: {outcomes}.",
            code="postponement_outcome",
            outcomes=list(OUTCOMES),
        )
    if today <= deadline:
        raise Conflict(
            "The deadline of this match is {deadline}; it can still be played until then.",
            code="postponement_before_deadline",
            deadline=deadline.isoformat(),
        )
    if match.status == Match.Status.CONFIRMED:
        return PLAYED
    if outcome == WALKOVER:
        results_services.match_forfeit(
            match=match, absent_side=absent_side, version=match.version, actor=actor
        )
        return WALKOVER
    phase: Phase = match.round.phase
    if phase.format in ELIMINATION_FORMATS:
        raise Conflict(
            "A knockout's match needs a winner: give the walkover to the pair that came.",
            code="double_loss_knockout",
        )
    results_services.match_double_loss(
        match=match, version=match.version, actor=actor, managed=managed
    )
    return DOUBLE_LOSS


def match_deadline_decide(
    *,
    match: Match,
    actor: User,
    outcome: str,
    absent_side: str = "",
    today: dt.date | None = None,
    via: str = "api",
    device: str = "",
) -> str:
    """After a tournament's postponed match's deadline: a walkover or a double loss
    (``deadline_decide``); "played" when it was played meanwhile."""
    with transaction.atomic():
        locked = _lock(match, actor, managed=False)
        if locked.deadline is None:
            raise Conflict(
                "This match was not postponed; record its result or its forfeit instead.",
                code="postponement_missing",
            )
        if locked.status == Match.Status.CONFIRMED and locked.kind in (
            Match.Kind.FORFEIT,
            Match.Kind.DOUBLE_LOSS,
        ):
            raise Conflict("This postponed match is already decided.", code="postponement_decided")
        decided = deadline_decide(
            match=locked,
            deadline=locked.deadline,
            outcome=outcome,
            actor=actor,
            absent_side=absent_side,
            today=today,
        )
        audit_write(
            tournament=locked.round.phase.tournament,
            action="match_deadline_decided",
            actor=actor,
            via=via,
            device=device,
            match_id=locked.pk,
            new={"deadline": locked.deadline.isoformat(), "outcome": decided},
        )
    return decided
