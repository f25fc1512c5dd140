"""Writes of standings: storing a phase's standings as snapshots.

Responsible for: `standings_refresh`, run by a task after each confirmed result (and after a
round is published, closed or a phase finished): it recomputes the phase's standings with
scoring.standings (through tournaments.selectors.standings.standings_compute, which also ranks
elimination phases by placing through tournaments.draw.placing) and stores them as
StandingsSnapshot rows, one per liguilla group or one for the whole phase (group None), so
that the read path never computes; then, for a finished tournament with prizes, the prizes
awarded again (services/prizes.py: a result corrected after the end moves them too). A
tournament of players alone (individual, Mus francés) stores the players' standings
(selectors.standings.individual_rows) in the phase's snapshot.

Must not: be called while a request holds row locks it would wait for (it runs from
transaction.on_commit through Celery); decide how a match counts (scoring.standings does) or
how far a pair got in a bracket (tournaments.draw.placing does): it only adapts rows.

Cost: a fixed number of queries whatever the number of pairs — the phase row locked, the
reads of standings_compute (plain values, no model instances), then one UPDATE of each
snapshot's JSON rows (an INSERT the first time). The old rows are never read back: at 1,024
pairs reading and decoding them cost as much as writing the new ones.

Concurrency: the phase row is locked while computing and writing, so two refreshes of one
phase run one after the other and the later one reads every result committed before it
started: the last snapshot written is never older than the last one. The lock also makes
"update, else insert" safe: nobody else can insert the phase's snapshot in between.

Coalescing: a burst of confirmations (a round's last results, all at once) queues one task
each. A refresh that started reading after a result was committed already holds it, so the
task of that result skips its own refresh when the phase's snapshots were computed after the
moment it was queued (``queued_after``, the time the web process sent it, after its commit):
the worker does one refresh per batch instead of one per result, and leaves the CPU to the
phones. A small margin covers the clocks of two machines; a snapshot that still missed a
result is found by the periodic reconciliation, which compares it with the matches' times.

Terms: clasificación (standings), desempate (tiebreak), liguilla (group), pareja.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from tournaments.models import Phase, StandingsSnapshot, Tournament
from tournaments.selectors.standings import individual_rows, rows_to_json, standings_compute
from tournaments.services.prizes import prizes_refresh

#: tournaments whose players entered alone: their standings are the players' (individual_rows)
ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)

#: how far apart the clocks of the web and worker machines may be (NTP keeps them far closer)
CLOCK_MARGIN = dt.timedelta(milliseconds=250)


def standings_refresh(*, phase: Phase, queued_after: dt.datetime | None = None) -> int | None:
    """Recompute and store the phase's standings; returns the number of rows written (0 for a
    phase that no longer exists), or None when ``queued_after`` is given and a refresh that
    started after that moment already wrote them (see "Coalescing" above)."""
    with transaction.atomic():
        phase = (
            Phase.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=phase.pk)
            .first()
        )
        if phase is None:
            return 0
        if queued_after is not None and _fresh_since(phase, queued_after + CLOCK_MARGIN):
            return None
        written = 0
        now = timezone.now()
        if phase.tournament.entrant_kind in ALONE:
            tables = [(None, individual_rows(phase=phase))]
        else:
            tables = [(t.group, rows_to_json(t)) for t in standings_compute(phase=phase)]
        for group, rows in tables:
            # computed_at is auto_now, which a queryset update does not apply: set it here.
            updated = StandingsSnapshot.objects.filter(phase=phase, group=group).update(
                rows=rows, computed_at=now
            )
            if not updated:
                StandingsSnapshot.objects.create(phase=phase, group=group, rows=rows)
            written += len(rows)
        finished = phase.tournament.status == Tournament.Status.FINISHED
    if finished and phase.tournament.prizes:
        # a result changed after the end: the prizes follow the standings (the phase's lock
        # is released: the tournament's comes first, services/prizes.py)
        prizes_refresh(tournament_id=phase.tournament_id)
    return written


def _fresh_since(phase: Phase, moment: dt.datetime) -> bool:
    """Whether every snapshot of the phase was computed at or after ``moment`` (read under the
    phase's lock, so no refresh is half-written)."""
    oldest = StandingsSnapshot.objects.filter(phase=phase).aggregate(oldest=Min("computed_at"))
    return oldest["oldest"] is not None and oldest["oldest"] >= moment
