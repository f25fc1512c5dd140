"""Tournaments tell the championships by name: a corrected result of a finished qualifier
queues ``championships.tournament_changed`` (a running one's results queue nothing: its end
will), and the task corrects the final. Tournaments never import the championships."""

from __future__ import annotations

import pytest
from celery import current_app

from tests.factories import MatchFactory, PhaseFactory, RoundFactory
from tests.seasons.championships.helpers import final_pairs, finish, qualifier, season
from tournaments import tasks
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch) -> list[dict]:
    sent: list[dict] = []
    task = current_app.tasks["championships.tournament_changed"]
    monkeypatch.setattr(task, "delay", lambda **kwargs: sent.append(kwargs))
    return sent


def _match(tournament, entries):
    phase = tournament.phases.first() or PhaseFactory(tournament=tournament, order=1)
    return MatchFactory(
        round=RoundFactory(phase=phase),
        entry_a=entries[0],
        entry_b=entries[1],
        status=Match.Status.CONFIRMED,
    )


def test_a_running_qualifiers_results_queue_nothing_for_the_championship(queued):
    s = season()
    tournament, entries = qualifier(s, 0, pairs=2)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tasks.result_confirmed(_match(tournament, entries).pk)
    assert queued == []


def test_a_correction_after_a_qualifiers_end_queues_the_championships_task(queued):
    s = season()
    tournament, entries = qualifier(s, 0, pairs=2)
    finish(tournament, entries)
    tasks.result_confirmed(_match(tournament, entries).pk)
    assert queued == [{"tournament_id": tournament.pk}]


def test_the_task_corrects_the_final():
    s = season()
    tournament, entries = qualifier(s, 0, pairs=4)
    finish(tournament, entries)
    current_app.tasks["championships.tournament_changed"](tournament_id=tournament.pk)
    assert final_pairs(s) == [entries[0].pair_id]
    finish(tournament, [entries[1], entries[0], *entries[2:]])
    current_app.tasks["championships.tournament_changed"](tournament_id=tournament.pk)
    assert final_pairs(s) == [entries[1].pair_id]
