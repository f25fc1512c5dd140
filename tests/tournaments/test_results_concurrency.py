"""Two phones at one table, for real: row locks on PostgreSQL.

Two threads write against the same match version at the same moment. The match row's lock
(select_for_update) serializes them; the version check makes exactly one win and the other a
409; the (match, idempotency_key) constraint backs up a retry that races its first attempt.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from config.errors import StaleVersion
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import AuditEntry, Match, ResultSubmission, Tournament
from tournaments.services import results as svc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 10]}]}
B_WINS = {"games": [{"stones": [20, 40]}, {"stones": [10, 40]}]}


def race(*calls):
    """Run the calls in threads released together; each returns its result or its error."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=60)
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 - the error is the outcome under test
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    return outcomes


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament)


def submitter(match, side, payload, key):
    def call():
        return svc.match_result_submit(
            match=match,
            side=side,
            payload=payload,
            idempotency_key=key,
            version=0,
            via="link",
        )

    return call


def test_two_phones_on_the_same_version_exactly_one_wins(match):
    outcomes = race(
        submitter(match, "a", A_WINS, "phone-a"), submitter(match, "b", B_WINS, "phone-b")
    )

    wins = [o for o in outcomes if isinstance(o, svc.ResultAnswer)]
    losses = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(wins) == 1 and len(losses) == 1, outcomes
    assert losses[0].status == 409
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.version) == (Match.Status.SUBMITTED, 1)
    assert ResultSubmission.objects.filter(match=match).count() == 1
    assert ResultSubmission.objects.get(match=match).side == wins[0].submission.side


def test_a_retry_racing_its_first_attempt_is_stored_once(match):
    outcomes = race(*(submitter(match, "a", A_WINS, "same-key") for _ in range(2)))

    assert all(isinstance(o, svc.ResultAnswer) for o in outcomes), outcomes
    assert outcomes[0].submission.pk == outcomes[1].submission.pk
    assert outcomes[0].state == outcomes[1].state
    assert sorted(o.replayed for o in outcomes) == [False, True]
    assert ResultSubmission.objects.filter(match=match).count() == 1
    assert AuditEntry.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1
