"""Interpeña and circuit writes that two organizers race, on PostgreSQL with real row locks."""

from __future__ import annotations

import pytest

from seasons.circuits.models import Circuit, CircuitRankingRow
from seasons.circuits.services import (
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
)
from seasons.interpenas.models import Interpena
from seasons.interpenas.services import interpena_lineup_set
from tests.clubs.test_clubs_races import race
from tests.factories import MembershipFactory, PairFactory
from tests.seasons.circuits.helpers import finished_tournament, two_peñas
from tournaments.models import Match, Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(3))
def test_both_peñas_fielding_at_once_lay_out_the_boards_once(attempt):
    interpena, home_org, away_org, home_pairs, away_pairs = two_peñas(3)
    results = race(
        lambda: interpena_lineup_set(
            actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
        ),
        lambda: interpena_lineup_set(
            actor=away_org, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
        ),
    )
    assert all(isinstance(r, Interpena) for r in results), results
    interpena.refresh_from_db()
    assert interpena.status == Interpena.Status.PLAYING
    assert Round.objects.filter(phase__tournament=interpena.tournament).count() == 1
    assert Match.objects.filter(round=interpena.round).count() == 3


def test_two_refreshes_at_once_leave_one_whole_ranking():
    membership = MembershipFactory()
    circuit = circuit_create(actor=membership.user, club=membership.club, name="Carrera")
    pairs = [PairFactory(club=membership.club) for _ in range(6)]
    tournament = finished_tournament(membership.club, pairs)
    circuit_tournament_add(actor=membership.user, circuit=circuit, tournament_id=tournament.pk)
    results = race(*[lambda: circuit_ranking_refresh(circuit=circuit) for _ in range(3)])
    assert results == [12, 12, 12]
    assert CircuitRankingRow.objects.filter(circuit=circuit).count() == 12
    assert Circuit.objects.get().ranking_computed_at is not None
