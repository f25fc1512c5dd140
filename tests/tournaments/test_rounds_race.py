"""Two organizers (or two task runs) at once: the phase lock lets exactly one of them write."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from config.errors import Conflict
from tests.factories import tournament_field
from tournaments.models import Match, Phase, Round
from tournaments.services.rounds import bracket_advance, round_draw_generate

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(call, times: int = 2) -> list:
    """Run ``call`` in ``times`` threads released together; return results or exceptions."""
    barrier = threading.Barrier(times)
    results: list = [None] * times

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def field(pairs: int):
    t, organizer, _ = tournament_field(pairs)
    return t, organizer


def test_two_draws_of_the_same_round_at_once_make_one_round():
    t, organizer = field(8)
    phase = Phase.objects.create(
        tournament=t, order=1, name="Suizo", format="swiss", rounds_planned=3
    )
    results = at_once(lambda: round_draw_generate(phase=phase, actor=organizer))
    rounds = [r for r in results if isinstance(r, Round)]
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(rounds) == 1, results
    assert len(errors) == 1 and isinstance(errors[0], Conflict)
    # It waited for the phase's lock, then found the round it came for drawn: it lost the race
    # (not "round 1 is not closed", which is what round 1 looks like once drawn).
    assert errors[0].code == "round_drawn_twice"
    assert errors[0].params == {"round": 1, "phase": "Suizo"}
    assert Round.objects.filter(phase=phase).count() == 1
    assert Match.objects.filter(round__phase=phase).count() == 4


def test_two_bracket_advances_at_once_create_each_match_once():
    t, organizer = field(4)
    phase = Phase.objects.create(tournament=t, order=1, name="Copa", format="single_elimination")
    rnd = round_draw_generate(phase=phase, actor=organizer)
    for m in rnd.matches.all():
        m.status, m.winner_id = Match.Status.CONFIRMED, m.entry_a_id
        m.save()
    results = at_once(lambda: bracket_advance(phase=phase))
    assert sorted(results) == [0, 1]
    assert Match.objects.filter(round__phase=phase, bracket_key="W2-1").count() == 1
