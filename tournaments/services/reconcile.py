"""The periodic repair of follow-up work that a lost task left undone.

Responsible for: ``reconcile_pending``, run by Celery beat every RECONCILE_SECONDS (the task
tournaments.reconcile). A confirmed result queues one task (result_confirmed, or
frances_result_confirmed for a Mus francés table) that refreshes the standings, advances a
bracket and notifies a complete round; a worker killed mid-task or a broker down at the moment
of queueing loses it. This finds, in the running tournaments, every phase whose standings are
older than its last changed match or last confirmed francés table (a finished phase too: the
organizer may advance from a Swiss before its last results' tasks ran), every running
elimination phase (whose advance is idempotent and cheap when nothing is due), every published
or closed round whose matches and francés tables are all decided without its "round complete"
notification (the organizer may close the round before the task ran), and does that work
through the same services the task calls. Running it when nothing was lost changes nothing.
The floors above repair their own follow-ups with beat tasks of their own
(``ratings.reconcile``, ``circuits.reconcile``: config/settings.py's CELERY_BEAT_SCHEDULE);
this module never reads their rows.

Must not: decide anything the services decide; touch a tournament that is not running (a
correction there queues its own task, and nobody waits on those standings at a table).

Cost: three queries to find the work, then the services' own for each piece found.
"""

from __future__ import annotations

from django.db.models import CharField, Exists, F, Max, Min, OuterRef, Q, Subquery, Value
from django.db.models.functions import Cast, Concat

from tournaments.models import FrancesTable, Match, Notification, Phase, Round, Tournament
from tournaments.selectors.rounds import ELIMINATION_FORMATS
from tournaments.services.results import round_completion_notify
from tournaments.services.rounds import bracket_advance
from tournaments.services.standings import standings_refresh


def reconcile_pending() -> dict[str, int]:
    """Do the follow-up work that is due; returns how many of each piece were done."""
    # Every phase of a running tournament: a phase finished (or advanced from) right after its
    # last results may have lost their standings task, as a closed round its notification.
    phases = Phase.objects.filter(tournament__status=Tournament.Status.RUNNING)
    running = phases.filter(status=Phase.Status.RUNNING)
    # a Mus francés table has no updated_at: its confirmed_at is set by every confirmation and
    # correction of its order
    last_table = (
        FrancesTable.objects.filter(round__phase=OuterRef("pk"), confirmed_at__isnull=False)
        .order_by("-confirmed_at")
        .values("confirmed_at")[:1]
    )
    stale = (
        phases.annotate(
            last_change=Max("rounds__matches__updated_at"),
            last_table=Subquery(last_table),
            computed=Min("standings__computed_at"),
        )
        .filter(Q(last_change__isnull=False) | Q(last_table__isnull=False))
        .filter(
            Q(computed__isnull=True)
            | Q(computed__lt=F("last_change"))
            | Q(computed__lt=F("last_table"))
        )
    )
    done = {"standings": 0, "brackets": 0, "rounds": 0}
    for phase in list(stale):
        standings_refresh(phase=phase)
        done["standings"] += 1
    for phase in list(running.filter(format__in=ELIMINATION_FORMATS, bracket__isnull=False)):
        done["brackets"] += 1 if bracket_advance(phase=phase) else 0
    undecided = (
        Match.objects.filter(round=OuterRef("pk"))
        .exclude(kind=Match.Kind.BYE)
        .exclude(status=Match.Status.CONFIRMED)
    )
    unconfirmed_tables = FrancesTable.objects.filter(round=OuterRef("pk")).exclude(
        status=Match.Status.CONFIRMED
    )
    notified = Notification.objects.filter(
        tournament_id=OuterRef("phase__tournament_id"),
        key=Concat(Value("round-complete:"), Cast(OuterRef("pk"), CharField())),
    )
    complete = (
        Round.objects.filter(
            phase__in=phases,
            status__in=(Round.Status.PUBLISHED, Round.Status.CLOSED),
        )
        .filter(
            Exists(Match.objects.filter(round=OuterRef("pk")))
            | Exists(FrancesTable.objects.filter(round=OuterRef("pk")))
        )
        .filter(~Exists(undecided), ~Exists(unconfirmed_tables), ~Exists(notified))
    )
    for rnd in list(complete):
        done["rounds"] += 1 if round_completion_notify(round=rnd) else 0
    return done
