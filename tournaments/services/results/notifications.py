"""Telling the organizers that a round is complete.

Responsible for: ``round_completion_notify``: once every match of a round is confirmed (byes
count as done) and, in a Mus francés round, every table's finishing order, one Notification
(its key makes it idempotent) and, after the commit, an e-mail to the peña's organizers who
have an address, in the peña's language
(templates/emails/round_complete*.txt, through tournaments.services.mail), with the link to
the round's page where they close it. Called by the task that follows a confirmed result.

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
from django.db.models import CharField, Count, Exists, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat

from clubs.models import Membership
from clubs.roles import ORGANIZING_ROLES
from tournaments.models import FrancesTable, Match, Notification, Round
from tournaments.services.mail import EmailText, email_render, site_link

log = logging.getLogger(__name__)


def round_completion_notify(*, round: Round) -> bool:
    """Tell the organizers once that every match of the round is confirmed.

    Creates one Notification (its key makes it idempotent: True only the first time) and, after
    the commit, e-mails the peña's organizers who have an address. Byes count as done.
    One query when the round is not complete yet, or was notified already
    (``_round_with_counts``).
    """
    rnd = _round_with_counts(round.pk)
    if rnd is None or rnd.notified:
        return False
    if rnd.match_count + rnd.table_count == 0 or rnd.pending_count:
        return False
    matches = Match.objects.filter(round=rnd)
    tables = FrancesTable.objects.filter(round=rnd)
    tournament = rnd.phase.tournament
    text = (
        f"{tournament.name}: every match of {rnd.phase.name}, round {rnd.number} is confirmed. "
        "The round can be closed."
    )[:300]
    with transaction.atomic():
        _, created = Notification.objects.get_or_create(
            tournament=tournament,
            key=f"round-complete:{rnd.pk}",
            defaults={
                "kind": "round_complete",
                "text": text,
                # rendered in the reader's language (selectors.notifications)
                "params": {
                    "tournament": tournament.name,
                    "phase": rnd.phase.name,
                    "round": rnd.number,
                },
            },
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
                message = _round_complete_message(rnd, matches, tables)
                transaction.on_commit(
                    partial(_email_organizers, message=message, recipients=recipients),
                    robust=True,
                )
    return created


def _round_with_counts(round_id: int) -> Round | None:
    """The round with its peña, and, in the same single query: how many matches and francés
    tables it has, how many of them are still to confirm (byes count as done), and whether
    its completion was notified already. The task that follows every confirmed result calls
    this: most of the time the round is not complete, and this query is all it costs."""
    matches = Match.objects.filter(round=OuterRef("pk")).order_by().values("round")
    tables = FrancesTable.objects.filter(round=OuterRef("pk")).order_by().values("round")
    confirmed = Match.Status.CONFIRMED

    def count(rows) -> Subquery:
        return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)

    return (
        Round.objects.select_related("phase__tournament__club")
        .annotate(
            match_count=count(matches),
            table_count=count(tables),
            pending_count=count(matches.exclude(kind=Match.Kind.BYE).exclude(status=confirmed))
            + count(tables.exclude(status=confirmed)),
            notified=Exists(
                Notification.objects.filter(
                    tournament_id=OuterRef("phase__tournament_id"),
                    key=Concat(Value("round-complete:"), Cast(OuterRef("pk"), CharField())),
                )
            ),
        )
        .filter(pk=round_id)
        .first()
    )


def _round_complete_message(rnd: Round, matches, tables) -> EmailText:
    tournament = rnd.phase.tournament
    byes = matches.filter(kind=Match.Kind.BYE).count()
    context = {
        "tournament": tournament,
        "phase": rnd.phase,
        "round": rnd,
        "count": matches.count() - byes + tables.count(),
        "byes": byes,
        "round_url": site_link("web:organizer-round", rnd.id),
        "standings_url": (
            site_link("web:public-standings", tournament.club.slug, tournament.slug)
            if tournament.is_public
            else ""
        ),
    }
    return email_render(name="round_complete", context=context, language=tournament.club.language)


def _email_organizers(*, message: EmailText, recipients: list[str]) -> None:
    send_mail(
        subject=message.subject,
        message=message.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=recipients,
    )
    log.info("round completion e-mailed to %s organizers", len(recipients))
