"""Writes of standings: storing a phase's standings as snapshots.

Responsible for: `standings_refresh`, run by a task after each confirmed result (and after a
round is published, closed or a phase finished): it recomputes the phase's standings with
scoring.standings (through tournaments.selectors.standings.standings_compute, which also ranks
elimination phases by placing through tournaments.draw.placing) and stores them as
StandingsSnapshot rows, one per liguilla group or one for the whole phase (group None), so
that the read path never computes. A tournament of players alone (individual, Mus francés)
stores the players' standings (selectors.standings.individual_rows) in the phase's snapshot.

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

Terms: clasificación (standings), desempate (tiebreak), liguilla (group), pareja.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import Phase, StandingsSnapshot, Tournament
from tournaments.selectors.standings import individual_rows, rows_to_json, standings_compute

#: tournaments whose players entered alone: their standings are the players' (individual_rows)
ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)


def standings_refresh(*, phase: Phase) -> int:
    """Recompute and store the phase's standings; returns the number of rows written (0 for a
    phase that no longer exists)."""
    with transaction.atomic():
        phase = (
            Phase.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=phase.pk)
            .first()
        )
        if phase is None:
            return 0
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
    return written
