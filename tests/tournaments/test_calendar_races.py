"""Two organizers at once on PostgreSQL: the match's row lock lets exactly one decide a
postponed match after its deadline (the other is told it is decided)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.test_calendar import at, league_night
from tests.tournaments.test_rounds_race import at_once
from tournaments.models import AuditEntry, Match
from tournaments.services.calendar import match_deadline_decide, match_postpone, round_schedule

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_decisions_on_a_postponed_match_at_once_apply_one():
    t, organizer, rnd, match = league_night()
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 6)))
    match_postpone(
        match=match, actor=organizer, deadline=dt.date(2026, 10, 15), today=dt.date(2026, 10, 6)
    )
    results = at_once(
        lambda: match_deadline_decide(
            match=Match.objects.select_related("round__phase__tournament__club").get(pk=match.pk),
            actor=organizer,
            outcome="double_loss",
            today=dt.date(2026, 10, 20),
        )
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and errors[0].code == "postponement_decided", results
    assert [r for r in results if not isinstance(r, Exception)] == ["double_loss"]
    assert AuditEntry.objects.filter(tournament=t, action="match_deadline_decided").count() == 1
    assert Match.objects.get(pk=match.pk).kind == Match.Kind.DOUBLE_LOSS
