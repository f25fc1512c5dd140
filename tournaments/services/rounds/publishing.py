"""Publishing and closing rounds: a draft round becomes public (players e-mailed, webhooks
told, standings refreshed); a round closes once its matches are decided.

Must not: draw a round (drawing.py) or touch a match's result (tournaments/services/results/).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from config.errors import Conflict
from tournaments.models import (
    FrancesTable,
    Match,
    Round,
)
from tournaments.services.base import tournament_check_not_managed
from tournaments.services.rounds.common import (
    _ROUND_STATUS,
    User,
    _after_commit_email,
    _after_commit_standings,
    _audit,
    _lock_round,
    _require_organizer,
    _round_closed,
)
from tournaments.services.webhooks import webhooks_round_published

# --- Publishing and closing -------------------------------------------------------------------


def round_publish(*, round: Round, actor: User, managed: bool = False) -> Round:
    """Publish a draft round: pairs and tables become public and players are e-mailed."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        tournament_check_not_managed(tournament=rnd.phase.tournament, managed=managed)
        if rnd.status != Round.Status.DRAFT:
            raise Conflict(
                "Round {round} is already {status}.",
                code="round_not_draft",
                round=rnd.number,
                status=_ROUND_STATUS[rnd.status],
            )
        untabled = list(
            Match.objects.filter(round=rnd, table_number=None).exclude(kind=Match.Kind.BYE)
        )
        if untabled:
            raise Conflict(
                (
                    "{count} match of round {round} has no table; move it to a free table "
                    "before publishing.",
                    "{count} matches of round {round} have no table; move them to a free table "
                    "before publishing.",
                ),
                code="round_tables_missing",
                count=len(untabled),
                round=rnd.number,
                matches=[m.id for m in untabled],
            )
        rnd.status = Round.Status.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        _audit(rnd.phase.tournament, "round_published", actor, new={"round": rnd.id})
        webhooks_round_published(round=rnd)
        _after_commit_email(rnd.id)
        # Byes are confirmed when drawn: they count once the round is public.
        _after_commit_standings(rnd.phase_id)
    return rnd


def round_close(*, round: Round, actor: User, managed: bool = False) -> Round:
    """Close a published round once every match has a confirmed result."""
    with transaction.atomic():
        rnd = _lock_round(round.pk)
        _require_organizer(actor, rnd.phase.tournament)
        tournament_check_not_managed(tournament=rnd.phase.tournament, managed=managed)
        if rnd.status == Round.Status.CLOSED:
            raise _round_closed(rnd)
        if rnd.status == Round.Status.DRAFT:
            raise Conflict(
                "Round {round} is a draft; publish and play it before closing it.",
                code="round_not_published",
                round=rnd.number,
            )
        unfinished = sorted(
            [
                *Match.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED),
                # Mus francés tables: confirmed like matches (services/frances.py)
                *FrancesTable.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED),
            ],
            key=lambda m: (m.table_number is None, m.table_number or 0, m.id),
        )
        if unfinished:
            # A published round has every match at a table (round_publish sees to it).
            raise Conflict(
                (
                    "Round {round} cannot close: table {tables} has no confirmed result yet. "
                    "Confirm it (or record a forfeit) first.",
                    "Round {round} cannot close: tables {tables} have no confirmed result yet. "
                    "Confirm them (or record a forfeit) first.",
                ),
                code="round_unfinished",
                count=len(unfinished),
                round=rnd.number,
                tables=[m.table_number for m in unfinished],
                matches=[m.id for m in unfinished if isinstance(m, Match)],
            )
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        _audit(rnd.phase.tournament, "round_closed", actor, new={"round": rnd.id})
        _after_commit_standings(rnd.phase_id)
    return rnd
