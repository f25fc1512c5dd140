"""Two phones at one Mus francés table, for real: row locks on PostgreSQL.

Two threads, each with its own database connection, write on one table at the same moment.
The table row's lock (select_for_update) makes them go one after the other; the version check
makes exactly one win, and the other gets the documented 409 (docs/api.md: ``stale_version``
while the table is open, ``frances_link_closed`` once the first confirmed it). Nothing is
stored for the loser, and the follow-ups (standings, the round's notification, the webhook)
happen once.
"""

from __future__ import annotations

import pytest

from clubs.models import Webhook, WebhookDelivery
from config.errors import Conflict, StaleVersion
from tests.clubs.webhook_receiver import receiver
from tests.factories import MembershipFactory, TournamentFactory
from tests.tournaments.test_results_concurrency import race
from tournaments.models import (
    AuditEntry,
    FrancesSubmission,
    FrancesTable,
    Notification,
    StandingsSnapshot,
    Tournament,
)
from tournaments.services.entrants import individual_register_pasted
from tournaments.services.frances import (
    FrancesAnswer,
    frances_result_confirm,
    frances_result_submit,
)
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> FrancesTable:
    tournament = TournamentFactory(
        entrant_kind=Tournament.EntrantKind.FRANCES, frances_table_size=4, tables_available=0
    )
    organizer = MembershipFactory(club=tournament.club).user
    individual_register_pasted(
        tournament=tournament, actor=organizer, text="Ane\nBeñat\nCarmen\nDavid"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=tournament, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return rnd.frances_tables.get()


def order_of(table: FrancesTable) -> list[int]:
    return [entry for _seat, entry in sorted(table.seats.values_list("seat", "entry_id"))]


def submitter(table, seat, order, key):
    return lambda: frances_result_submit(
        table=table, seat=seat, order=order, idempotency_key=key, version=0, via="link"
    )


def confirmer(table, seat, key):
    return lambda: frances_result_confirm(
        table=table, seat=seat, idempotency_key=key, version=1, via="link"
    )


def test_two_seats_submitting_at_once_store_exactly_one_order(table):
    order = order_of(table)

    outcomes = race(
        submitter(table, 1, order, "seat-1"), submitter(table, 3, order[::-1], "seat-3")
    )

    wins = [o for o in outcomes if isinstance(o, FrancesAnswer)]
    losses = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(wins) == 1 and len(losses) == 1, outcomes
    assert (losses[0].status, losses[0].code) == (409, "stale_version")
    assert losses[0].params == {"current": 1, "sent": 0}
    stored = FrancesTable.objects.get(pk=table.pk)
    assert (stored.status, stored.version) == ("submitted", 1)
    assert FrancesSubmission.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.filter(action__startswith="frances_").count() == 1
    winner = FrancesSubmission.objects.get(table=table)
    assert winner.order == wins[0].state["submitted"][0]["order"]


def test_two_seats_confirming_at_once_confirm_once_and_follow_up_once(table):
    order = order_of(table)
    frances_result_submit(
        table=table, seat=1, order=order, idempotency_key="seat-1", version=0, via="link"
    )
    with receiver() as server:
        Webhook.objects.create(
            club=table.round.phase.tournament.club,
            url=server.url,
            secret="s" * 32,
            events=["result.confirmed"],
        )

        outcomes = race(confirmer(table, 2, "seat-2"), confirmer(table, 4, "seat-4"))

        wins = [o for o in outcomes if isinstance(o, FrancesAnswer)]
        losses = [o for o in outcomes if isinstance(o, Conflict)]
        assert len(wins) == 1 and len(losses) == 1, outcomes
        assert (losses[0].status, losses[0].code) == (409, "frances_link_closed")
        assert server.events() == ["result.confirmed"]
    stored = FrancesTable.objects.get(pk=table.pk)
    assert (stored.status, stored.version, stored.order) == ("confirmed", 2, order)
    assert FrancesSubmission.objects.filter(table=table, confirms=True).count() == 1
    assert AuditEntry.objects.filter(action="frances_confirmed").count() == 1
    assert Notification.objects.filter(kind="round_complete").count() == 1
    assert WebhookDelivery.objects.count() == 1
    rows = StandingsSnapshot.objects.get(phase=table.round.phase).rows
    assert sorted(r["points"] for r in rows) == [0, 1, 2, 3]


def test_a_retry_racing_its_first_attempt_is_stored_once(table):
    order = order_of(table)

    outcomes = race(submitter(table, 1, order, "same"), submitter(table, 1, order, "same"))

    answers = [o for o in outcomes if isinstance(o, FrancesAnswer)]
    assert len(answers) == 2, outcomes  # the second answers the first answer again
    assert sorted(a.replayed for a in answers) == [False, True]
    assert FrancesSubmission.objects.filter(table=table).count() == 1
    assert FrancesTable.objects.get(pk=table.pk).version == 1
