"""Circuits on the database: who manages them, their rules, the stored ranking and when it
is rebuilt (a tournament's end, a correction, the reconciliation)."""

from __future__ import annotations

import pytest

from config.errors import Forbidden, Invalid, NotFound
from seasons.circuits.models import CircuitRankingRow
from seasons.circuits.services import (
    circuit_club_add,
    circuit_create,
    circuit_organizer_add,
    circuit_ranking_refresh,
    circuit_tournament_add,
    circuit_tournament_remove,
    circuit_update,
    circuits_reconcile,
)
from tests.factories import MembershipFactory, PairFactory, TournamentFactory, UserFactory
from tests.seasons.circuits.helpers import finished_tournament
from tournaments.models import Tournament
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit():
    membership = MembershipFactory()
    made = circuit_create(
        actor=membership.user,
        club=membership.club,
        name="Circuito de Navarra",
        points_table=[100, 80, 65],
        participation_points=5,
        best_results=2,
    )
    made.organizer = membership.user
    return made


def _ranking(circuit):
    return {
        r.player_id: (r.position, r.points)
        for r in CircuitRankingRow.objects.filter(circuit=circuit)
    }


def test_the_ranking_counts_each_players_best_results(circuit):
    club = circuit.clubs.get()
    a, b, c = (PairFactory(club=club) for _ in range(3))
    for day, order in ((1, (a, b, c)), (8, (b, a, c)), (15, (c, b, a))):
        tournament = finished_tournament(club, order, day=day)
        circuit_tournament_add(
            actor=circuit.organizer, circuit=circuit, tournament_id=tournament.pk
        )
    assert circuit_ranking_refresh(circuit=circuit) == 6
    ranking = _ranking(circuit)
    assert ranking[b.player_one_id] == (1, 180)  # 80 + 100 + 80: the best two
    assert ranking[a.player_two_id][1] == 180  # 100 + 80 + 65
    assert ranking[c.player_one_id] == (5, 100 + 65)


def test_only_finished_tournaments_count(circuit):
    club = circuit.clubs.get()
    pair = PairFactory(club=club)
    running = finished_tournament(club, [pair], status=Tournament.Status.RUNNING)
    circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=running.pk)
    assert circuit_ranking_refresh(circuit=circuit) == 0


def test_the_tournaments_end_rebuilds_the_ranking(circuit, django_capture_on_commit_callbacks):
    club = circuit.clubs.get()
    pair = PairFactory(club=club)
    tournament = finished_tournament(club, [pair], status=Tournament.Status.RUNNING)
    circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_status_change(tournament=tournament, actor=circuit.organizer, status="finished")
    assert _ranking(circuit)[pair.player_one_id] == (1, 100)


def test_the_reconciliation_rebuilds_a_ranking_whose_task_was_lost(circuit):
    club = circuit.clubs.get()
    pair = PairFactory(club=club)
    tournament = finished_tournament(club, [pair])
    circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=tournament.pk)
    # the task queued on commit never ran (not captured here): the ranking is empty and old
    assert _ranking(circuit) == {}
    assert circuits_reconcile() == 1
    assert _ranking(circuit)[pair.player_one_id] == (1, 100)
    assert circuits_reconcile() == 0  # nothing due any more


def test_changing_the_points_table_is_checked_and_reranks(
    circuit, django_capture_on_commit_callbacks
):
    club = circuit.clubs.get()
    pair = PairFactory(club=club)
    tournament = finished_tournament(club, [pair])
    circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        circuit_update(actor=circuit.organizer, circuit=circuit, data={"points_table": [50]})
    assert _ranking(circuit)[pair.player_one_id] == (1, 50)
    with pytest.raises(Invalid) as error:
        circuit_update(actor=circuit.organizer, circuit=circuit, data={"points_table": [50, 60]})
    assert error.value.code == "circuit_points_order"
    with pytest.raises(Invalid) as error:
        circuit_update(actor=circuit.organizer, circuit=circuit, data={"tiebreaks": ["lots"]})
    assert error.value.code == "circuit_tiebreak_unknown"


def test_only_its_peñas_organizers_or_those_it_names_manage_a_circuit(circuit):
    stranger = UserFactory()
    with pytest.raises(Forbidden):
        circuit_update(actor=stranger, circuit=circuit, data={"name": "Mío"})
    circuit_organizer_add(actor=circuit.organizer, circuit=circuit, username=stranger.username)
    circuit_update(actor=stranger, circuit=circuit, data={"name": "Circuito de la Ribera"})
    # an organizer of another peña who joins it manages it too
    other = MembershipFactory()
    with pytest.raises(Forbidden):  # nobody adds a peña they do not organize
        circuit_club_add(actor=circuit.organizer, circuit=circuit, club_id=other.club_id)
    circuit_organizer_add(actor=circuit.organizer, circuit=circuit, username=other.user.username)
    circuit_club_add(actor=other.user, circuit=circuit, club_id=other.club_id)
    assert circuit.clubs.count() == 2


def test_a_tournament_joins_only_from_its_peñas_and_public(circuit):
    foreign = TournamentFactory()
    with pytest.raises(Invalid) as error:
        circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=foreign.pk)
    assert error.value.code == "circuit_tournament_club"
    private = TournamentFactory(club=circuit.clubs.get(), is_public=False)
    with pytest.raises(Invalid) as error:
        circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=private.pk)
    assert error.value.code == "circuit_tournament_private"
    with pytest.raises(NotFound):
        circuit_tournament_remove(
            actor=circuit.organizer, circuit=circuit, tournament_id=foreign.pk
        )


def test_a_correction_in_a_finished_tournament_reranks_through_the_tasks(circuit):
    """tournaments' result_confirmed task (run after a confirmation or a correction) refreshes
    the standings, then queues circuits.tournament_changed by its name."""
    from tests.factories import EntryFactory, MatchFactory, PhaseFactory, RoundFactory
    from tournaments.models import Match
    from tournaments.tasks import result_confirmed

    club = circuit.clubs.get()
    tournament = TournamentFactory(club=club, status=Tournament.Status.FINISHED, is_public=True)
    circuit_tournament_add(actor=circuit.organizer, circuit=circuit, tournament_id=tournament.pk)
    phase = PhaseFactory(tournament=tournament, format="swiss")
    rnd = RoundFactory(phase=phase, status="closed")
    a, b = (EntryFactory(tournament=tournament) for _ in range(2))
    match = MatchFactory(
        round=rnd, entry_a=a, entry_b=b, status=Match.Status.CONFIRMED, winner=a, games_a=2
    )
    result_confirmed(match.pk)
    assert _ranking(circuit)[a.pair.player_one_id] == (1, 100)
    Match.objects.filter(pk=match.pk).update(winner=b, games_a=0, games_b=2)  # corrected
    result_confirmed(match.pk)
    assert _ranking(circuit)[b.pair.player_one_id] == (1, 100)
    assert _ranking(circuit)[a.pair.player_one_id] == (3, 80)
