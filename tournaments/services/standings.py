"""Writes of standings: storing a phase's standings as snapshots.

Responsible for: `standings_refresh`, run by a task after each confirmed result (and after a
round is published, closed or a phase finished): it recomputes the phase's standings with
scoring.standings (through tournaments.selectors.standings.standings_compute) and stores them
as StandingsSnapshot rows, one per liguilla group or one for the whole phase (group None), so
that the read path never computes.

Must not: be called while a request holds row locks it would wait for (it runs from
transaction.on_commit through Celery); decide how a match counts (scoring.standings does).

Concurrency: the phase row is locked while computing and writing, so two refreshes of one
phase run one after the other and the later one reads every result committed before it
started: the last snapshot written is never older than the last one.

Terms: clasificación (standings), desempate (tiebreak), liguilla (group), pareja.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Phase, StandingsSnapshot
from tournaments.selectors.standings import rows_to_json, standings_compute


def standings_refresh(*, phase_id: int) -> int:
    """Recompute and store the phase's standings; returns the number of rows written (0 for a
    phase that no longer exists)."""
    with transaction.atomic():
        phase = (
            Phase.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=phase_id)
            .first()
        )
        if phase is None:
            return 0
        written = 0
        for table in standings_compute(phase=phase):
            rows = rows_to_json(table)
            StandingsSnapshot.objects.update_or_create(
                phase=phase, group=table.group, defaults={"rows": rows}
            )
            written += len(rows)
    return written
