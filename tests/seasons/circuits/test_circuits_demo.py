"""`manage.py demo` loads a season beyond its tournament: a circuit of three finished
tournaments with its ranking, and an interpeña half played."""

from __future__ import annotations

import pytest

from seasons.circuits.models import Circuit, CircuitRankingRow
from seasons.interpenas.models import Interpena
from seasons.interpenas.selectors import interpena_result
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_ranked_circuit_and_an_interpeña_half_played(client, shared_demo):
    circuit = Circuit.objects.get(slug="circuito-de-navarra-2026")
    assert circuit.clubs.count() == 2
    stops = Tournament.objects.filter(circuit_stops__circuit=circuit)
    assert stops.count() == 3 and set(stops.values_list("status", flat=True)) == {"finished"}
    top = CircuitRankingRow.objects.filter(circuit=circuit).order_by("position").first()
    assert top.position == 1 and top.points >= 100
    assert all(sum(r["counted"] for r in row.results) <= 2 for row in circuit.ranking_rows.all())
    interpena = Interpena.objects.get(league_key="")  # the others are the league of peñas'
    result, _ = interpena_result(interpena=interpena)
    assert (result.boards_confirmed, result.boards_total) == (2, 4)
    statuses = Match.objects.filter(round=interpena.round).order_by("table_number")
    assert list(statuses.values_list("status", flat=True)) == [
        "confirmed",
        "confirmed",
        "submitted",
        "pending",
    ]
    assert client.get(f"/circuitos/{circuit.slug}/").status_code == 200
    assert client.get(f"/interpenas/{interpena.pk}/").status_code == 200
    # that the command prints the circuit's address: tests/tournaments/test_demo_command.py
    # that --reset loads them once again: tests/tournaments/test_demo_command.py
