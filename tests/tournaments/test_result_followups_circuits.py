"""The hot path of a Saturday: a confirmed result queues the circuits' ranking task only when it
can change a ranking: a circuit ranks final placings, so only a correction in a finished tournament
that is a circuit's stop. A running tournament, in a circuit or not, and a finished one in no
circuit queue nothing for the circuits."""

from __future__ import annotations

import pytest
from celery import current_app

from seasons.circuits.models import Circuit, CircuitTournament
from tests.factories import MatchFactory, TournamentFactory
from tournaments import tasks
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch) -> list[dict]:
    sent: list[dict] = []
    task = current_app.tasks["circuits.tournament_changed"]
    monkeypatch.setattr(task, "delay", lambda **kwargs: sent.append(kwargs))
    return sent


def confirmed_match(status: str):
    tournament = TournamentFactory(status=status)
    return MatchFactory(round__phase__tournament=tournament, status="confirmed")


def test_a_result_of_a_running_tournament_in_no_circuit_queues_nothing_for_circuits(queued):
    match = confirmed_match(Tournament.Status.RUNNING)

    tasks.result_confirmed(match.pk)

    assert queued == []


def in_circuit(match) -> None:
    circuit = Circuit.objects.create(name="Circuito de verano", slug="verano")
    CircuitTournament.objects.create(circuit=circuit, tournament=match.round.phase.tournament)


def test_a_result_of_a_running_circuit_stop_queues_nothing_its_end_will(queued):
    match = confirmed_match(Tournament.Status.RUNNING)
    in_circuit(match)

    tasks.result_confirmed(match.pk)

    assert queued == []


def test_a_correction_after_the_end_of_a_circuit_stop_queues_the_circuits_task(queued):
    match = confirmed_match(Tournament.Status.FINISHED)
    in_circuit(match)

    tasks.result_confirmed(match.pk)

    assert queued == [{"tournament_id": match.round.phase.tournament_id}]


def test_a_correction_after_the_end_of_a_tournament_in_no_circuit_queues_nothing(queued):
    match = confirmed_match(Tournament.Status.FINISHED)

    tasks.result_confirmed(match.pk)

    assert queued == []


def test_a_francés_table_follows_the_same_rule(queued):
    from tournaments.models import FrancesTable

    running = FrancesTable.objects.create(
        round=MatchFactory(round__phase__tournament__status="running").round, table_number=1
    )
    tasks.frances_result_confirmed(running.pk)
    assert queued == []

    tournament = running.round.phase.tournament
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tasks.frances_result_confirmed(running.pk)
    assert queued == []

    circuit = Circuit.objects.create(name="Circuito de verano", slug="verano")
    CircuitTournament.objects.create(circuit=circuit, tournament=tournament)
    tasks.frances_result_confirmed(running.pk)
    assert queued == [{"tournament_id": tournament.pk}]
