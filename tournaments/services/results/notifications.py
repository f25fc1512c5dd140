"""Telling the organizers that a round is complete.

Responsible for: ``round_completion_notify``: once every match of a round is confirmed (byes
count as done), one Notification (its key makes it idempotent) and, after the commit, an
e-mail to the peña's organizers who have an address. Called by the task that follows a
confirmed result.

Must not: send mail while a row is locked (the e-mail goes on commit) or close the round (the
organizer does).

Terms: ronda (round), fase (phase), peña (club), organizadores.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction

from clubs.models import Membership
from clubs.roles import ORGANIZING_ROLES
from tournaments.models import Match, Notification, Round

log = logging.getLogger(__name__)


def round_completion_notify(*, round: Round) -> bool:
    """Tell the organizers once that every match of the round is confirmed.

    Creates one Notification (its key makes it idempotent: True only the first time) and, after
    the commit, e-mails the peña's organizers who have an address. Byes count as done.
    """
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round.pk).first()
    if rnd is None:
        return False
    matches = Match.objects.filter(round=rnd)
    if not matches.exists():
        return False
    if matches.exclude(kind=Match.Kind.BYE).exclude(status=Match.Status.CONFIRMED).exists():
        return False
    tournament = rnd.phase.tournament
    text = (
        f"{tournament.name}: every match of {rnd.phase.name}, round {rnd.number} is confirmed. "
        "The round can be closed."
    )[:300]
    with transaction.atomic():
        _, created = Notification.objects.get_or_create(
            tournament=tournament,
            key=f"round-complete:{rnd.pk}",
            defaults={"kind": "round_complete", "text": text},
        )
        if created:
            recipients = sorted(
                set(
                    Membership.objects.filter(club_id=tournament.club_id, role__in=ORGANIZING_ROLES)
                    .exclude(user__email="")
                    .values_list("user__email", flat=True)
                )
            )
            if recipients:
                transaction.on_commit(
                    partial(_email_organizers, text=text, recipients=recipients), robust=True
                )
    return created


def _email_organizers(*, text: str, recipients: list[str]) -> None:
    send_mail(
        subject=text[:120],
        message=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=recipients,
    )
    log.info("round completion e-mailed to %s organizers", len(recipients))
