"""Two phones of a trios table race on PostgreSQL (row locks, the unique hand number): the same
hand sent twice with one key is stored once; two different hands on the same version, one
wins and the other is told to reload. Run with CI=true and a PostgreSQL DATABASE_URL."""

from __future__ import annotations

import pytest

from config.errors import StaleVersion
from tests.factories import MatchFactory, TournamentFactory
from tests.tournaments.test_results_concurrency import race
from tournaments.models import HandEntry, Match, Tournament
from tournaments.services import results as svc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def hand(grande: str) -> dict:
    return {
        "declarations": {
            "pares": ["none"] * 6,
            "juego": ["none"] * 6,
            "punto": [30, 29, 28, 27, 26, 25],
            "winners": {"grande": grande, "chica": "postre"},
        }
    }


@pytest.fixture
def match():
    tournament = TournamentFactory(
        status=Tournament.Status.RUNNING, entrant_kind=Tournament.EntrantKind.TRIOS
    )
    return MatchFactory(round__phase__tournament=tournament)


def adder(match, payload, key):
    def call():
        return svc.match_hand_add(
            match=match, hand=payload, idempotency_key=key, version=0, via="link"
        )

    return call


def test_two_phones_send_different_trios_hands_on_one_version_exactly_one_is_stored(match):
    outcomes = race(adder(match, hand("mano"), "phone-1"), adder(match, hand("postre"), "phone-2"))
    stored = [o for o in outcomes if isinstance(o, svc.HandAnswer)]
    stale = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(stored) == 1 and len(stale) == 1, outcomes
    assert HandEntry.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1


def test_a_trios_hand_retried_while_its_first_attempt_runs_is_stored_once(match):
    outcomes = race(*(adder(match, hand("mano"), "same-key") for _ in range(2)))
    assert all(isinstance(o, svc.HandAnswer) for o in outcomes), outcomes
    assert sorted(o.replayed for o in outcomes) == [False, True]
    assert outcomes[0].running["state"]["stones"] == {"A": 2, "B": 1}
    assert HandEntry.objects.filter(match=match).count() == 1
