"""A Mus francés table's confirmed finishing order is followed by what follows a pair match's
result: the standings refresh (coalesced), the peña's ``result.confirmed`` webhook, the "round
complete" notification and e-mail once the round's last table is confirmed, and — when that task
is lost — beat's reconciliation does the same work."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from clubs.models import Webhook, WebhookDelivery
from tests.clubs.webhook_receiver import receiver
from tests.factories import MembershipFactory, TournamentFactory, UserFactory
from tournaments import tasks
from tournaments.models import FrancesTable, Notification, StandingsSnapshot, Tournament
from tournaments.services.entrants import individual_register_pasted
from tournaments.services.frances import frances_result_confirm, frances_result_submit
from tournaments.services.reconcile import reconcile_pending
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db

NOTHING = {"standings": 0, "brackets": 0, "rounds": 0}


def frances_round(players: int, size: int = 4):
    tournament = TournamentFactory(
        entrant_kind=Tournament.EntrantKind.FRANCES,
        frances_table_size=size,
        tables_available=0,
    )
    organizer = MembershipFactory(club=tournament.club, user=UserFactory(email="org@example.com"))
    names = "\n".join(f"Jugador {chr(65 + n)}" for n in range(players))
    individual_register_pasted(tournament=tournament, actor=organizer.user, text=names)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=tournament, actor=organizer.user, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer.user)
    round_publish(round=rnd, actor=organizer.user)
    return phase, rnd, organizer.user


def order_of(table: FrancesTable) -> list[int]:
    return [entry for _seat, entry in sorted(table.seats.values_list("seat", "entry_id"))]


def play(table: FrancesTable, key: str) -> list[int]:
    """Seat 1 enters the order (seat order, seat 1 first), seat 2 confirms it."""
    order = order_of(table)
    frances_result_submit(
        table=table, seat=1, order=order, idempotency_key=f"{key}-s", version=0, via="link"
    )
    frances_result_confirm(table=table, seat=2, idempotency_key=f"{key}-c", version=1, via="link")
    return order


def test_a_confirmed_table_is_in_the_standings_at_once(django_capture_on_commit_callbacks):
    phase, rnd, _ = frances_round(8)
    table = rnd.frances_tables.order_by("table_number").first()

    with django_capture_on_commit_callbacks(execute=True):
        order = play(table, "t1")

    points = {r["entry_id"]: r["points"] for r in StandingsSnapshot.objects.get(phase=phase).rows}
    assert points[order[0]] == 3 and points[order[-1]] == 0


def test_the_task_of_a_burst_skips_a_refresh_that_already_holds_it(
    django_capture_on_commit_callbacks,
):
    phase, rnd, _ = frances_round(8)
    table = rnd.frances_tables.order_by("table_number").first()
    play(table, "t1")  # its task is not run: the refresh below stands for a later one
    standings_refresh(phase=phase)
    computed = StandingsSnapshot.objects.get(phase=phase).computed_at
    queued = (computed - dt.timedelta(seconds=5)).isoformat()

    tasks.frances_result_confirmed(table.pk, queued_at=queued)

    assert StandingsSnapshot.objects.get(phase=phase).computed_at == computed  # coalesced


def test_the_last_table_of_the_round_announces_it_once_by_notification_and_mail(
    django_capture_on_commit_callbacks,
):
    phase, rnd, organizer = frances_round(8)
    first, second = rnd.frances_tables.order_by("table_number")
    with django_capture_on_commit_callbacks(execute=True):
        play(first, "t1")
    assert not Notification.objects.filter(kind="round_complete").exists()
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        play(second, "t2")

    notice = Notification.objects.get(kind="round_complete")
    assert notice.key == f"round-complete:{rnd.pk}"
    assert [m.to for m in mail.outbox] == [["org@example.com"]]
    assert "2 partidas confirmadas" in mail.outbox[0].body
    # the task again (a retry): nothing more
    with django_capture_on_commit_callbacks(execute=True):
        tasks.frances_result_confirmed(second.pk)
    assert Notification.objects.filter(kind="round_complete").count() == 1
    assert len(mail.outbox) == 1


def test_the_pena_hears_result_confirmed_with_the_finishing_order(
    django_capture_on_commit_callbacks,
):
    phase, rnd, organizer = frances_round(4)
    table = rnd.frances_tables.get()
    with receiver() as server:
        Webhook.objects.create(
            club=phase.tournament.club, url=server.url, secret="s" * 32, events=["result.confirmed"]
        )
        with django_capture_on_commit_callbacks(execute=True):
            order = play(table, "t1")
        with django_capture_on_commit_callbacks(execute=True):
            tasks.frances_result_confirmed(table.pk)  # a retried task: recorded once

        assert server.events() == ["result.confirmed"]
        event = server.received[0].json
    table.refresh_from_db()
    assert event["id"] == f"result.confirmed:frances:{table.pk}:v{table.version}"
    data = event["data"]["frances_table"]
    assert [p["individual_id"] for p in data["order"]] == order
    assert [p["place"] for p in data["order"]] == [1, 2, 3, 4]
    assert [p["seat"] for p in data["players"]] == [1, 2, 3, 4]
    assert event["data"]["round"]["number"] == 1
    assert WebhookDelivery.objects.count() == 1


def test_an_organizers_correction_is_heard_again_as_a_new_version(
    django_capture_on_commit_callbacks,
):
    phase, rnd, organizer = frances_round(4)
    table = rnd.frances_tables.get()
    with receiver() as server:
        Webhook.objects.create(
            club=phase.tournament.club, url=server.url, secret="s" * 32, events=["result.confirmed"]
        )
        with django_capture_on_commit_callbacks(execute=True):
            order = play(table, "t1")
        with django_capture_on_commit_callbacks(execute=True):
            frances_result_submit(
                table=table,
                order=order[::-1],
                idempotency_key="fix",
                version=2,
                via="account",
                actor=organizer,
            )
        ids = [r.json["id"] for r in server.received]
    assert ids == [
        f"result.confirmed:frances:{table.pk}:v2",
        f"result.confirmed:frances:{table.pk}:v3",
    ]
    points = {r["entry_id"]: r["points"] for r in StandingsSnapshot.objects.get(phase=phase).rows}
    assert points[order[-1]] == 3  # the standings follow the correction


def confirm_without_task(table: FrancesTable) -> None:
    """A confirmed order whose follow-up task was lost (a worker killed, a broker down)."""
    table.order = order_of(table)
    table.status = "confirmed"
    table.confirmed_at = timezone.now()
    table.version = 2
    table.save()


def test_the_reconciliation_repairs_a_lost_francés_task():
    phase, rnd, _ = frances_round(8)
    standings_refresh(phase=phase)  # what publishing queued; the tables' tasks are lost
    for table in rnd.frances_tables.all():
        confirm_without_task(table)

    assert reconcile_pending() == {"standings": 1, "brackets": 0, "rounds": 1}

    rows = StandingsSnapshot.objects.get(phase=phase).rows
    assert sorted(r["points"] for r in rows) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert Notification.objects.filter(key=f"round-complete:{rnd.pk}").count() == 1
    assert reconcile_pending() == NOTHING


def test_a_round_with_a_table_still_to_play_is_not_announced_by_the_reconciliation():
    phase, rnd, _ = frances_round(8)
    standings_refresh(phase=phase)
    confirm_without_task(rnd.frances_tables.order_by("table_number").first())

    assert reconcile_pending() == {"standings": 1, "brackets": 0, "rounds": 0}
    assert not Notification.objects.exists()
