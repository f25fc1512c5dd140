"""The periodic reconciliation (Celery beat) repairs what a lost task left undone, and does
nothing when nothing was lost. A "lost task" here is a result stored without its follow-up
task, as when a worker is killed mid-task or the broker is down when the task is queued."""

from __future__ import annotations

import pytest

from seasons.ratings.models import RatedMatch
from seasons.ratings.services import ratings_reconcile
from tests.factories import tournament_field
from tournaments.models import Match, Notification, Round, StandingsSnapshot, Tournament
from tournaments.services.reconcile import reconcile_pending
from tournaments.services.rounds import (
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db

NOTHING = {"standings": 0, "brackets": 0, "rounds": 0}


def confirm_without_task(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 0) if a_wins else (0, 2)
    match.stones_a, match.stones_b = (80, 31) if a_wins else (31, 80)
    match.save()


def published_round(pairs: int, fmt: str):
    t, organizer, entries = tournament_field(pairs, status=Tournament.Status.RUNNING)
    planned = {"rounds_planned": 3} if fmt == "swiss" else {}  # a Swiss's option only
    phase = phase_create(tournament=t, actor=organizer, name="Fase", format=fmt, **planned)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return phase, rnd


def test_lost_results_are_put_in_the_standings_and_the_round_is_announced_once():
    phase, rnd = published_round(4, "swiss")
    standings_refresh(phase=phase)  # what publishing queued; the results' tasks are lost
    for match in rnd.matches.all():
        confirm_without_task(match, match.entry_a_id)

    assert reconcile_pending() == {"standings": 1, "brackets": 0, "rounds": 1}
    # the ratings, a floor above, repair their own part with their own beat task
    assert ratings_reconcile() == 2

    assert RatedMatch.objects.count() == 2  # the players' ratings took both results in
    rows = StandingsSnapshot.objects.get(phase=phase).rows
    assert sorted(row["won"] for row in rows) == [0, 0, 1, 1]
    assert Notification.objects.filter(key=f"round-complete:{rnd.pk}").count() == 1
    assert reconcile_pending() == NOTHING
    assert ratings_reconcile() == 0


def test_a_lost_last_result_of_a_knockout_stage_still_creates_the_next_stage():
    phase, rnd = published_round(4, "single_elimination")
    for match in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm_without_task(match, match.entry_a_id)

    done = reconcile_pending()

    assert done["brackets"] == 1
    final = Round.objects.get(phase=phase, number=2)
    assert final.matches.count() == 1
    assert reconcile_pending()["brackets"] == 0


def test_nothing_lost_means_nothing_done():
    phase, rnd = published_round(4, "swiss")
    standings_refresh(phase=phase)

    assert reconcile_pending() == NOTHING


def test_a_tournament_that_is_not_running_is_left_alone():
    phase, rnd = published_round(4, "swiss")
    for match in rnd.matches.all():
        confirm_without_task(match, match.entry_a_id)
    Tournament.objects.filter(pk=phase.tournament_id).update(status=Tournament.Status.FINISHED)

    assert reconcile_pending() == NOTHING
    assert ratings_reconcile() == 0


def test_a_round_closed_and_a_phase_finished_before_their_tasks_ran_are_still_repaired():
    # The soak (benchmarks/soak.py) found it: the organizer closes the round and finishes the
    # phase as soon as the last result is in, while its task is lost (Redis down, worker
    # killed); the phase is no longer running and the round no longer published.
    t, organizer, _ = tournament_field(4, status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=t, actor=organizer, name="Fase", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    standings_refresh(phase=phase)
    for match in rnd.matches.all():
        confirm_without_task(match, match.entry_a_id)
    round_close(round=rnd, actor=organizer)  # its own standings task is lost too
    phase_finish(phase=phase, actor=organizer)

    assert reconcile_pending() == {"standings": 1, "brackets": 0, "rounds": 1}
    assert ratings_reconcile() == 2

    rows = StandingsSnapshot.objects.get(phase=phase).rows
    assert sorted(row["won"] for row in rows) == [0, 0, 1, 1]
    assert Notification.objects.filter(key=f"round-complete:{rnd.pk}").count() == 1
    assert reconcile_pending() == NOTHING
