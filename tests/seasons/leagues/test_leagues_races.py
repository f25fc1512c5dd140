"""Two organizers at once on PostgreSQL: the league's row lock lets exactly one draw a jornada
and exactly one decide a postponed match."""

from __future__ import annotations

import datetime as dt

import pytest

from config.errors import Conflict, NotFound
from seasons.leagues import selectors, services
from seasons.leagues.models import Postponement
from tests.seasons.leagues.conftest import pairs_league
from tests.tournaments.test_rounds_race import at_once
from tournaments.models import Match, Round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_draws_of_the_same_jornada_at_once_draw_it_once(club, organizer):
    league = pairs_league(club, organizer)
    jornada = selectors.jornada_get(league=league, number=1)
    results = at_once(lambda: services.jornada_draw(jornada=jornada, actor=organizer))
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], Conflict), results
    assert errors[0].code == "jornada_drawn"
    assert Round.objects.filter(phase__league_division__league=league).count() == 2
    assert Match.objects.filter(round__phase__league_division__league=league).count() == 4


def test_two_decisions_on_a_postponed_match_at_once_apply_one(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    jornada = selectors.jornada_get(league=league, number=1)
    services.jornada_draw(jornada=jornada, actor=organizer)
    services.jornada_publish(jornada=jornada, actor=organizer)
    match = Match.objects.filter(round__phase__league_division__league=league).first()
    services.match_postpone(
        league=league, actor=organizer, match_id=match.pk, deadline=dt.date(2026, 10, 20)
    )
    results = at_once(
        lambda: services.postponement_decide(
            league=league,
            actor=organizer,
            match_id=match.pk,
            outcome="double_loss",
            today=dt.date(2026, 10, 21),
        )
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and errors[0].code == "postponement_decided", results
    assert Postponement.objects.get(match=match).outcome == "double_loss"


def test_removing_a_division_while_a_result_arrives_keeps_one_or_the_other(club, organizer):
    """The removal and the organizer's result on one of its matches at once: either the result
    is stored and the division stays (409), or the division is gone and the result finds no
    match; never a division removed under a stored result, never an unexpected error."""
    import threading

    from django.db import connection

    from config.errors import DomainError
    from tournaments.models import ResultSubmission
    from tournaments.services.results import match_result_submit

    league = pairs_league(club, organizer, divisions=((4, 0, 0), (4, 0, 0)))
    jornada = selectors.jornada_get(league=league, number=1)
    services.jornada_draw(jornada=jornada, actor=organizer)
    services.jornada_publish(jornada=jornada, actor=organizer)
    segunda = league.divisions.get(level=2)
    match = Match.objects.filter(round__phase=segunda.phase).first()
    calls = [
        lambda: services.division_remove(league=league, actor=organizer, division_id=segunda.pk),
        lambda: match_result_submit(
            match=match,
            side="organizer",
            payload={"games": [{"stones": [40, 20]}, {"stones": [40, 30]}, {"stones": [40, 9]}]},
            idempotency_key="race",
            version=match.version,
            via="account",
            actor=organizer,
        ),
    ]
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], DomainError), results
    stayed = league.divisions.filter(pk=segunda.pk).exists()
    if stayed:
        assert errors[0].code == "division_has_results"
        assert ResultSubmission.objects.filter(match=match).exists()
    else:
        assert errors[0].code == "match_gone", results
        assert not Match.objects.filter(pk=match.pk).exists()
        assert not ResultSubmission.objects.filter(match_id=match.pk).exists()


def test_a_result_sent_just_after_its_division_was_removed_finds_no_match(club, organizer):
    """The interleaving the race above reaches about once in 60 runs, made certain: the
    caller loaded the match (without its round) before the removal committed, and the result
    service reads the match's peña only after it. A 404 match_gone, not a 500."""
    from tournaments.models import ResultSubmission
    from tournaments.services.results import match_result_submit

    league = pairs_league(club, organizer, divisions=((4, 0, 0), (4, 0, 0)))
    jornada = selectors.jornada_get(league=league, number=1)
    services.jornada_draw(jornada=jornada, actor=organizer)
    services.jornada_publish(jornada=jornada, actor=organizer)
    segunda = league.divisions.get(level=2)
    match = Match.objects.filter(round__phase=segunda.phase).first()
    services.division_remove(league=league, actor=organizer, division_id=segunda.pk)
    with pytest.raises(NotFound) as error:
        match_result_submit(
            match=match,
            side="organizer",
            payload={"games": [{"stones": [40, 20]}, {"stones": [40, 30]}, {"stones": [40, 9]}]},
            idempotency_key="late",
            version=match.version,
            via="account",
            actor=organizer,
        )
    assert error.value.code == "match_gone"
    assert not ResultSubmission.objects.filter(match_id=match.pk).exists()
