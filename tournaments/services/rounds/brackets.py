"""Brackets as results come in: `bracket_advance` creates the next stage's matches once the
stage before is decided, re-points later matches after a correction, and tells the organizers
(a Notification) when a correction contradicts a result already played.
"""

from __future__ import annotations

from django.db import transaction

from scoring.messages import Term, jsonable
from tournaments import draw_manager
from tournaments.draw import DrawError
from tournaments.models import (
    Notification,
    Phase,
)
from tournaments.selectors.rounds import (
    ELIMINATION_FORMATS,
)
from tournaments.services.rounds.common import (
    _audit,
    _sides,
    log,
)

# --- Brackets ---------------------------------------------------------------------------------


def bracket_advance(*, phase: Phase) -> int:
    """Create the bracket matches whose two pairs are now known; returns how many.

    Called by the result_confirmed task after each confirmed (or corrected) result. A whole
    stage is created at once, as a draft Round numbered like the stage, once every match of
    the stage before is decided. Idempotent: running it again creates nothing. A corrected
    result re-points later matches that have not started; if a later match already has a
    result that the correction contradicts, nothing is created and the organizers get a
    Notification.
    """
    with transaction.atomic():
        # Read again under the lock: the caller's row may be older than the last result.
        phase = Phase.objects.select_for_update(of=("self",)).filter(pk=phase.pk).first()
        if phase is None or phase.format not in ELIMINATION_FORMATS or not phase.bracket:
            return 0
        try:
            advanced = draw_manager.advance_bracket(phase)
        except DrawError as error:
            log.error("bracket of phase %s cannot advance: %s", phase.pk, error)
            Notification.objects.get_or_create(
                tournament_id=phase.tournament_id,
                key=f"bracket:{phase.id}:{error.code}:{error.params.get('match', '')}"[:120],
                defaults={
                    "kind": "bracket_conflict",
                    "text": f"{phase.name}: {error.message}"[:300],
                    "params": {"phase": phase.name, "error": _error_params(error)},
                },
            )
            return 0
        tournament = phase.tournament
        for match, old, new in advanced.corrected:
            _audit(tournament, "bracket_match_repointed", None, match=match, old=old, new=new)
        for match in advanced.created:
            _audit(
                tournament,
                "bracket_match_created",
                None,
                match=match,
                new={"bracket_key": match.bracket_key, **_sides(match)},
            )
    return len(advanced.created)


def _error_params(error: DrawError) -> dict:
    """The draw's error as message id, code and params (plain JSON), for a notification that
    is rendered in its reader's language (selectors.notifications)."""
    return {
        "text": error.text,
        "code": error.code,
        "params": {k: jsonable(v) for k, v in error.params.items()},
        # the params that are game words the reader's language translates (scoring's Term)
        "terms": sorted(k for k, v in error.params.items() if isinstance(v, Term)),
    }
