"""Postponed matches, and what is decided after their deadline.

Responsible for: ``match_postpone`` (a published match without a confirmed result postponed
to a deadline after its jornada's date, or given a new one; its table link keeps working, and
a result entered before the organizer decides counts as played) and ``postponement_decide``
(after the deadline: the tournaments' one decision, tournaments.services.calendar's
deadline_decide — a walkover, the tournaments' forfeit with its full score, or a double loss,
the match confirmed with no winner, so its round can close — recorded on the postponement).

Must not: write a result but through tournaments' result services.

Terms: aplazada, no presentada (walkover), doble derrota, jornada.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from config.errors import Conflict, Invalid, NotFound
from seasons.leagues.models import Division, Jornada, League, Postponement
from seasons.leagues.services.checks import (
    User,
    _lock_league,
)
from tournaments.models import Match, Round
from tournaments.services import calendar as calendar_services


def _league_match(league: League, match_id: int) -> tuple[Match, Division]:
    match = (
        Match.objects.select_for_update(of=("self",))
        .filter(pk=match_id, round__phase__league_division__league=league)
        .first()
    )
    if match is None:
        raise NotFound(
            "The league has no match {match}.", code="league_match_not_found", match=match_id
        )
    division = Division.objects.get(phase_id=match.round.phase_id)
    return match, division


def match_postpone(
    *, league: League, actor: User, match_id: int, deadline: dt.date, reason: str = ""
) -> Postponement:
    """Postpone a match not played on its night until ``deadline`` (again: a new deadline)."""
    with transaction.atomic():
        league = _lock_league(league, actor)
        match, division = _league_match(league, match_id)
        if match.round.status == Round.Status.DRAFT:
            raise Conflict(
                "The jornada of this match is not published yet; publish it first.",
                code="postpone_draft",
            )
        if match.status == Match.Status.CONFIRMED:
            raise Conflict(
                "This match has a confirmed result; there is nothing to postpone.",
                code="postpone_played",
            )
        date = (
            Jornada.objects.filter(league=league, number=match.round.number)
            .values_list("date", flat=True)
            .first()
        )
        if date is not None and deadline <= date:
            raise Invalid(
                "The deadline must come after the jornada's date ({date}).",
                code="postpone_deadline",
                date=date.isoformat(),
            )
        post, _ = Postponement.objects.update_or_create(
            match=match,
            defaults={
                "division": division,
                "deadline": deadline,
                "reason": " ".join(str(reason or "").split())[:200],
                "outcome": "",
                "decided_at": None,
                "created_by": actor if actor is not None and actor.is_authenticated else None,
            },
        )
    return post


def postponement_decide(
    *,
    league: League,
    actor: User,
    match_id: int,
    outcome: str,
    absent_side: str = "",
    today: dt.date | None = None,
) -> Postponement:
    """After the deadline: a walkover (``absent_side`` lost, the tournaments' forfeit) or a
    double loss (both lose as a walkover lost): the tournaments' one decision after a deadline
    (tournaments.services.calendar.deadline_decide), recorded on the postponement."""
    today = today or timezone.localdate()
    with transaction.atomic():
        league = _lock_league(league, actor)
        match, _division = _league_match(league, match_id)
        post = Postponement.objects.select_for_update().filter(match=match).first()
        if post is None:
            raise Conflict(
                "This match was not postponed; record its result or its forfeit instead.",
                code="postponement_missing",
            )
        if post.outcome:
            raise Conflict("This postponed match is already decided.", code="postponement_decided")
        # a walkover is the tournaments' forfeit; a double loss is recorded in tournaments
        # (match_double_loss): the match is decided, the round can close
        post.outcome = calendar_services.deadline_decide(
            match=match,
            deadline=post.deadline,
            outcome=outcome,
            actor=actor,
            absent_side=absent_side,
            today=today,
            managed=True,
        )
        post.decided_at = timezone.now()
        post.save(update_fields=["outcome", "decided_at"])
    return post
