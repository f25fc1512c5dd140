"""The tasks that follow a write, run by a real Celery worker (another process, through Redis),
as in production: the services queue them with transaction.on_commit, the worker reads the
committed rows and writes what the read path shows.

Needs CI=true (PostgreSQL, Redis and the worker the ``celery_worker`` fixture starts). The rows
the worker must see are committed, so the tests use ``transaction=True``; they poll the
database with a bounded wait, since the worker answers in its own time.

E-mail: the worker is another process, so the locmem outbox of this one never sees its
messages, and the worker's log does not keep what the console backend prints. What is checked
is the service's own record of what it sent, written after each message left (an AuditEntry
``round_pairings_emailed`` keyed by player and table), and the worker's log line for the task.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.factories import EntryFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import (
    AuditEntry,
    Entry,
    Match,
    Notification,
    Round,
    StandingsSnapshot,
    Tournament,
)
from tournaments.services.results import match_result_submit
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 180  # a hang guard: the wait ends as soon as the worker has done it


def wait_for(check: Callable[[], object], *, what: str, worker) -> object:
    """Poll ``check`` until it returns something true, at most WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"the worker did not {what} within {WAIT_SECONDS} s:\n{worker.log_tail()}")


def published_round(tag: str) -> tuple[Tournament, object, Round, list[str]]:
    """Four pairs whose players have e-mail addresses, a Swiss round drawn and published."""
    tournament = TournamentFactory(tables_available=0, status=Tournament.Status.RUNNING)
    organizer = UserFactory(username=f"org-{tag}", email=f"org-{tag}@example.org")
    MembershipFactory(club=tournament.club, user=organizer)
    emails = []
    for n in range(4):
        one, two = f"{tag}-{n}-uno@example.org", f"{tag}-{n}-dos@example.org"
        EntryFactory(
            tournament=tournament,
            status=Entry.Status.CHECKED_IN,
            pair__player_one__email=one,
            pair__player_two__email=two,
        )
        emails += [one, two]
    phase = phase_create(
        tournament=tournament, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)  # commits, then queues the e-mail to the worker
    return tournament, organizer, rnd, emails


def test_the_worker_emails_each_player_their_table(celery_worker):
    tournament, _, rnd, emails = published_round("mesa")

    def emailed():
        entry = AuditEntry.objects.filter(
            tournament=tournament, action="round_pairings_emailed"
        ).first()
        return entry.new["sent"] if entry else None

    sent = wait_for(emailed, what="e-mail the pairings", worker=celery_worker)
    # One message per player (each key names the player, the match and the table).
    assert len(sent) == len(emails) == 8
    assert {key.split(":")[1] for key in sent} == set(
        map(str, rnd.matches.values_list("pk", flat=True))
    )
    # Sent by the worker process, not run eagerly here.
    log = celery_worker.log_path.read_text()
    assert f"round {rnd.pk} pairings e-mailed to 8 players" in log


def test_a_confirmed_result_runs_the_result_confirmed_chain_on_the_worker(celery_worker):
    tournament, organizer, rnd, _ = published_round("chain")
    matches = list(rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number"))
    assert len(matches) == 2
    phase = rnd.phase

    def snapshot_wins() -> int:
        snapshot = StandingsSnapshot.objects.filter(phase=phase).first()
        return sum(row["won"] for row in snapshot.rows) if snapshot else 0

    for done, match in enumerate(matches, start=1):
        answer = match_result_submit(
            match=match,
            side="organizer",
            payload={"games": [{"stones": [40, 12]}, {"stones": [40, 31]}]},
            idempotency_key=f"worker-{match.pk}",
            version=match.version,
            via="api",
            actor=organizer,
        )
        assert answer.match.status == Match.Status.CONFIRMED  # the service's part, at once
        # The worker's part: the standings snapshot counts the result.
        wait_for(
            lambda done=done: snapshot_wins() == done,
            what=f"refresh the standings after result {done}",
            worker=celery_worker,
        )
        if done < len(matches):
            assert not Notification.objects.filter(tournament=tournament).exists()

    note = wait_for(
        lambda: Notification.objects.filter(tournament=tournament, kind="round_complete").first(),
        what="notify that the round is complete",
        worker=celery_worker,
    )
    assert note.key == f"round-complete:{rnd.pk}" and "round 1" in note.text
    snapshot = StandingsSnapshot.objects.get(phase=phase)
    winners = {m.entry_a_id for m in matches}
    assert {row["entry_id"] for row in snapshot.rows if row["won"] == 1} == winners
    # The worker process did it (this process runs nothing eagerly with the fixture).
    log = celery_worker.log_path.read_text()
    assert f"standings of phase {phase.pk} refreshed: 4 rows" in log
    assert f"round {rnd.pk} completion checked: notified=True" in log
