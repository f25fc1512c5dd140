"""What the worker's task costs after one confirmed result (tournaments/tasks.py
``result_confirmed``), counted in queries: a burst of results shares one standings refresh,
and the rest is a fixed number of queries whatever the tournament's size — the round's
completion one aggregate, a peña without webhooks one EXISTS, the ratings only the rows of
the match."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import MatchFactory
from tests.seasons.ratings.ratings_data import season
from tournaments import tasks
from tournaments.models import Match, Notification

pytestmark = pytest.mark.django_db


def burst(pairs):
    """A confirmed round of ``pairs`` pairs plus one match still being played; the first
    result's task has run (it refreshed the standings). Returns the other results, and when
    they were queued (before that refresh: they share it)."""
    _, matches = season(rounds=1, pairs=pairs, seed=4)
    MatchFactory(round=matches[0].round, status=Match.Status.PENDING)
    queued_at = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)).isoformat()
    tasks.result_confirmed(matches[0].pk, queued_at)
    return matches[1:], queued_at


@pytest.mark.parametrize("pairs", [8, 32])
def test_one_result_costs_a_fixed_number_of_queries(pairs, django_assert_max_num_queries):
    later, queued_at = burst(pairs)
    # the match (1); the standings, coalesced (2: the phase locked, its snapshots' age); the
    # round's completion (1); the ratings (10); webhooks (1 EXISTS); and, in a test, the
    # savepoint pairs of the standings' and the ratings' transactions (4): 19, whatever the
    # number of pairs
    with django_assert_max_num_queries(19):
        tasks.result_confirmed(later[-1].pk, queued_at)


def test_the_round_completion_check_is_one_query_until_the_round_is_complete(
    django_assert_num_queries,
):
    later, _ = burst(8)
    with django_assert_num_queries(1):
        assert tasks.round_completion_check(later[0].round_id) is False
    Match.objects.filter(round=later[0].round).update(status=Match.Status.CONFIRMED)
    assert tasks.round_completion_check(later[0].round_id) is True
    with django_assert_num_queries(1):  # notified already: nothing more
        assert tasks.round_completion_check(later[0].round_id) is False
    assert Notification.objects.filter(kind="round_complete").count() == 1


def test_a_peña_without_webhooks_costs_one_exists(django_assert_num_queries):
    later, _ = burst(4)
    club_id = later[0].round.phase.tournament.club_id
    with django_assert_num_queries(1):
        assert tasks.webhooks_result_confirmed(later[0].pk, club_id=club_id) == 0
