"""A circuit ranks one person once (clubs.identity): after two player rows are made one, the
ranking is the one a fresh rebuild gives, the person's results of both peñas added up; after the
undo, the ranking of before."""

from __future__ import annotations

import pytest

from clubs.identity.services import player_merge, player_merge_undo
from seasons.circuits.models import CircuitRankingRow
from seasons.circuits.services import (
    circuit_club_add,
    circuit_create,
    circuit_ranking_refresh,
    circuit_tournament_add,
    circuits_merges_reconcile,
)
from tests.factories import MembershipFactory, PairFactory, PlayerFactory
from tests.seasons.circuits.helpers import finished_tournament
from tournaments.services import identity as tournament_identity

pytestmark = pytest.mark.django_db


def ranking(circuit):
    return sorted(
        CircuitRankingRow.objects.filter(circuit=circuit).values_list(
            "player_id", "position", "points", "played", "results", "separated_by"
        )
    )


@pytest.fixture
def circuit_of_two_peñas():
    one = MembershipFactory()
    organizer, txoko = one.user, one.club
    lizarra = MembershipFactory(user=organizer).club
    circuit = circuit_create(
        actor=organizer, club=txoko, name="Circuito", points_table=[100, 80, 65], best_results=3
    )
    circuit_club_add(actor=organizer, circuit=circuit, club_id=lizarra.pk)
    ana, ana_lizarra = (PlayerFactory(first_name="Ana", last_name="Uno") for _ in range(2))
    ana.clubs.add(txoko)
    ana_lizarra.clubs.add(lizarra)
    first = [PairFactory(club=txoko, player_one=ana), PairFactory(club=txoko)]
    second = [PairFactory(club=lizarra), PairFactory(club=lizarra, player_two=ana_lizarra)]
    for day, (club, pairs) in enumerate(((txoko, first), (lizarra, second)), start=1):
        tournament = finished_tournament(club, pairs, day=day)
        circuit_tournament_add(actor=organizer, circuit=circuit, tournament_id=tournament.pk)
    circuit_ranking_refresh(circuit=circuit)
    return circuit, organizer, ana, ana_lizarra


def test_the_ranking_adds_up_a_person_and_splits_again_on_undo(
    circuit_of_two_peñas, django_capture_on_commit_callbacks, monkeypatch
):
    circuit, organizer, ana, ana_lizarra = circuit_of_two_peñas
    # these tournaments' standings are written by hand, with no match behind them: their
    # refresh after the merge (the tournaments' follow-up) would empty them
    monkeypatch.setattr(tournament_identity, "players_standings_refresh", lambda **_: 0)
    before = ranking(circuit)
    rows = {row[0]: row for row in before}
    assert (rows[ana.pk][2], rows[ana_lizarra.pk][2]) == (100, 80)
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(actor=organizer, keep=ana, other=ana_lizarra)
    merged = ranking(circuit)
    rows = {row[0]: row for row in merged}
    assert ana_lizarra.pk not in rows
    assert (rows[ana.pk][1], rows[ana.pk][2], rows[ana.pk][3]) == (1, 180, 2)
    circuit_ranking_refresh(circuit=circuit)
    assert ranking(circuit) == merged
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(actor=organizer, merge=merge)
    assert ranking(circuit) == before


def test_a_lost_ranking_task_is_done_by_the_circuits_beat_task(circuit_of_two_peñas):
    circuit, organizer, ana, ana_lizarra = circuit_of_two_peñas
    player_merge(actor=organizer, keep=ana, other=ana_lizarra)  # its tasks never ran
    assert circuits_merges_reconcile() == 1
    assert ana_lizarra.pk not in {row[0] for row in ranking(circuit)}
    assert circuits_merges_reconcile() == 0
