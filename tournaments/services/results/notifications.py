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
from django.db import connection, transaction

from clubs.models import Membership
from clubs.roles import ORGANIZING_ROLES
from tournaments.models import FrancesTable, Match, Notification, Phase, Round
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
    if rnd is None:
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
    """The round with its peña when every match and francés table of it is confirmed (byes
    count as done) and its completion was not notified yet; else None. The task that follows
    every confirmed result calls this: most of the time the round is not complete (or was
    notified already), and one aggregate query is all it costs. Written in SQL: the ORM's
    subqueries cost more to build than the database spends on them."""
    qn = connection.ops.quote_name
    match, table = qn(Match._meta.db_table), qn(FrancesTable._meta.db_table)
    rnd, phase = qn(Round._meta.db_table), qn(Phase._meta.db_table)
    notification = qn(Notification._meta.db_table)
    confirmed = Match.Status.CONFIRMED
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT COUNT(*) FROM {match} WHERE round_id = %s)"
            f" + (SELECT COUNT(*) FROM {table} WHERE round_id = %s),"
            f" (SELECT COUNT(*) FROM {match} WHERE round_id = %s AND kind <> %s"
            f" AND status <> %s)"
            f" + (SELECT COUNT(*) FROM {table} WHERE round_id = %s AND status <> %s),"
            f" (SELECT COUNT(*) FROM {notification} WHERE {qn('key')} = %s AND tournament_id ="
            f" (SELECT {phase}.tournament_id FROM {rnd} INNER JOIN {phase}"
            f" ON {phase}.id = {rnd}.phase_id WHERE {rnd}.id = %s))",
            [
                round_id,
                round_id,
                round_id,
                Match.Kind.BYE,
                confirmed,
                round_id,
                confirmed,
                f"round-complete:{round_id}",
                round_id,
            ],
        )
        total, pending, notified = cursor.fetchone()
    if not total or pending or notified:
        return None
    return Round.objects.select_related("phase__tournament__club").filter(pk=round_id).first()


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
