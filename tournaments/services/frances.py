"""Writes of a Mus francés table's result: its finishing order, submitted and confirmed.

Responsible for: ``frances_table_for_token`` (the table behind its link), and
``frances_result_submit`` / ``frances_result_confirm``, the same guarantees as a match's result
(services/results/submission.py): through the table's link a player says their seat; the first
version puts the table in ``submitted``; a version from another seat that agrees confirms it,
one that differs puts it in ``disputed``; a seat may enter its version again before that (its
latest counts); another seat may also just confirm the latest version. An organizer's entry
(seat 0, through an account or the API) is official: it confirms at once, resolving a dispute
or correcting a confirmed order. Every version is kept as a FrancesSubmission, never edited; a
retried write (same idempotency key) answers what the first answered and stores nothing (the
unique (table, idempotency_key) constraint is the backstop); the client sends the table's
``version`` it saw (StaleVersion, 409, when stale).

A confirmed (or corrected) order queues, after the commit, the same follow-ups as a pair
match's result (the task ``tournaments.frances_result_confirmed``): the standings refresh
(coalesced, services/standings.py), the round-complete notification and e-mail once the round's
last table is confirmed, the peña's ``result.confirmed`` webhook and, for a tournament a circuit
holds or a finished one, the circuits' ranking. A lost task is repaired by beat's
reconciliation (services/reconcile.py), which reads the tables' ``confirmed_at``.

Two phones at once: the table row is locked, so the writers go one after the other; the second
finds the version moved on (StaleVersion, 409 ``stale_version``) or, once the first confirmed
the table, the link closed (409 ``frances_link_closed``); nothing is stored for it.

The finishing order is the list of the table's players (IndividualEntry ids), the winner —
the first to run out of chips — first; it must name each player of the table exactly once.

Must not: hold a rule of Mus, or send anything while the table row is locked.

Terms: mesa de mus francés (FrancesTable), asiento (seat), orden de llegada (finishing order),
disputa (dispute).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.roles import require_organizer
from config.errors import Conflict, Invalid, NotFound, StaleVersion
from config.live import live_publish
from config.queue import enqueue_on_commit
from tournaments.models import AuditEntry, FrancesSubmission, FrancesTable, Match, Round
from tournaments.services.results.access import check_via
from tournaments.services.results.common import (
    LINK,
    User,
    check_key,
    key_reused,
    store_keyed,
    user_or_none,
)

ORGANIZER_SEAT = 0
_RELATIONS = ("round__phase__tournament__club",)


@dataclass(frozen=True)
class FrancesAnswer:
    table: FrancesTable
    state: dict[str, Any]
    replayed: bool = False


def frances_table_for_token(*, token: str) -> FrancesTable:
    table = (
        FrancesTable.objects.select_related(*_RELATIONS).filter(token=token).first()
        if token
        else None
    )
    if table is None:
        raise NotFound(
            "This table link is not valid. Scan the QR code on the table again, or ask the "
            "organizers for the link.",
            code="table_link_unknown",
        )
    return table


def frances_state(table: FrancesTable) -> dict[str, Any]:
    """What an answer shows of the table: its status, version and confirmed order, and the
    latest version each seat entered."""
    latest = {s.seat: s.order for s in _versions(table)}
    return {
        "id": table.pk,
        "table_number": table.table_number,
        "status": table.status,
        "version": table.version,
        "order": table.order,
        "submitted": [{"seat": seat, "order": order} for seat, order in sorted(latest.items())],
    }


def _versions(table: FrancesTable) -> list[FrancesSubmission]:
    """The seats' own versions since the table was last confirmed (not confirmations)."""
    rows = list(table.submissions.order_by("id"))
    last = max((n for n, s in enumerate(rows) if s.seat == ORGANIZER_SEAT), default=-1)
    return [s for s in rows[last + 1 :] if s.seat != ORGANIZER_SEAT and not s.confirms]


def _lock(table: FrancesTable) -> FrancesTable:
    return (
        FrancesTable.objects.select_for_update(of=("self",))
        .select_related(*_RELATIONS)
        .get(pk=table.pk)
    )


def _seats(table: FrancesTable) -> dict[int, int]:
    """seat → IndividualEntry id."""
    return dict(table.seats.values_list("seat", "entry_id"))


def _check_caller(table: FrancesTable, *, seat: Any, via: str, actor: User, seats: dict) -> int:
    check_via(via)
    if via != LINK:
        require_organizer(actor, table.round.phase.tournament.club)
        return ORGANIZER_SEAT
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in seats:
        raise Invalid(
            "Table {table} has seats 1 to {seats}; say which one is yours, not '{seat}'.",
            code="frances_seat",
            table=table.table_number,
            seats=len(seats),
            seat=str(seat)[:20],
        )
    return seat


def _check_open(table: FrancesTable, via: str) -> None:
    """Through the link, only while the table is unconfirmed and its round published."""
    if via != LINK:
        return
    if table.status == Match.Status.CONFIRMED:
        raise Conflict(
            "The result of this table is confirmed, so its link is closed. If it is wrong, "
            "ask the organizers to correct it.",
            code="frances_link_closed",
        )
    if table.round.status != Round.Status.PUBLISHED:
        raise Conflict(
            "Round {round} is not open: results are entered at the table only while the round "
            "is published. Ask the organizers.",
            code="round_not_open",
            round=table.round.number,
            status=table.round.status,
        )


def check_order(table: FrancesTable, order: Any, seats: dict[int, int]) -> list[int]:
    """The finishing order, checked: each player of the table exactly once."""
    if not isinstance(order, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in order
    ):
        raise Invalid(
            "The finishing order is a list of the table's players (their numbers), the winner "
            "first.",
            code="frances_order_shape",
        )
    players = set(seats.values())
    seen: set[int] = set()
    for p in order:
        if p not in players:
            raise Invalid(
                "Player {player} does not sit at table {table}.",
                code="frances_order_unknown",
                player=p,
                table=table.table_number,
            )
        if p in seen:
            raise Invalid(
                "Player {player} appears twice in the finishing order; each player finishes once.",
                code="frances_order_twice",
                player=p,
            )
        seen.add(p)
    missing = sorted(players - seen)
    if missing:
        raise Invalid(
            "The finishing order leaves out {players}; name every player of table {table} once.",
            code="frances_order_missing",
            players=missing,
            table=table.table_number,
        )
    return list(order)


def _replay(table: FrancesTable, key: str, *, seat: int, order: Any, confirms: bool):
    first = FrancesSubmission.objects.filter(table=table, idempotency_key=key).first()
    if first is None:
        return None
    same = first.seat == seat and first.confirms == confirms and (confirms or first.order == order)
    if not same:
        raise key_reused()
    audit = (
        AuditEntry.objects.filter(action__startswith="frances_", new__submission=first.pk)
        .order_by("id")
        .first()
    )
    state = audit.new["table"] if audit is not None else frances_state(table)
    return FrancesAnswer(table, state, replayed=True)


def _store(table, *, seat, via, order, confirms, key, device, actor) -> FrancesSubmission | None:
    return store_keyed(
        FrancesSubmission,
        key=key,
        version=table.version,
        device=device,
        actor=actor,
        table=table,
        seat=seat,
        via=via,
        order=order,
        confirms=confirms,
    )


def _check_version(table: FrancesTable, version: Any) -> None:
    if version != table.version:
        raise StaleVersion(
            "The result changed on another device; reload and try again.",
            code="stale_version",
            current=table.version,
            sent=version,
        )


def _confirm(table: FrancesTable, order: list[int]) -> None:
    table.order = order
    table.status = Match.Status.CONFIRMED
    table.confirmed_at = timezone.now()
    enqueue_on_commit("tournaments.frances_result_confirmed", stamped=True, table_id=table.pk)


def _answer(table, *, action, old, submission, actor, via, device) -> FrancesAnswer:
    table.version += 1
    table.save()
    state = frances_state(table)
    AuditEntry.objects.create(
        tournament_id=table.round.phase.tournament_id,
        action=action,
        actor=user_or_none(actor),
        via=via,
        device=(device or "")[:200],
        old=old,
        new={"table": state, "submission": submission.pk},
    )
    # the screens: the table's phones (another seat's order, a dispute), the organizer's board;
    # the public ones once confirmed
    live_publish(
        tournament_id=table.round.phase.tournament_id,
        kind=action,
        public=table.status == Match.Status.CONFIRMED,
        frances_table=table.pk,
        status=table.status,
        version=table.version,
    )
    return FrancesAnswer(table, state)


def frances_result_submit(
    *,
    table: FrancesTable,
    order: Any,
    idempotency_key: str,
    version: int,
    via: str,
    seat: Any = None,
    actor: User = None,
    device: str = "",
) -> FrancesAnswer:
    """Store a seat's (or the organizer's) finishing order and move the table on (see the
    module docstring)."""
    key = check_key(idempotency_key)
    with transaction.atomic():
        locked = _lock(table)
        seats = _seats(locked)
        who = _check_caller(locked, seat=seat, via=via, actor=actor, seats=seats)
        replay = _replay(locked, key, seat=who, order=order, confirms=False)
        if replay is not None:
            return replay
        _check_open(locked, via)
        _check_version(locked, version)
        checked = check_order(locked, order, seats)
        old = frances_state(locked)
        others = [s for s in _versions(locked) if s.seat != who]
        submission = _store(
            locked,
            seat=who,
            via=via,
            order=checked,
            confirms=False,
            key=key,
            device=device,
            actor=actor,
        )
        if submission is None:
            raise StaleVersion(
                "The result changed on another device; reload and try again.",
                code="stale_version",
            )
        if who == ORGANIZER_SEAT:
            action = "frances_corrected" if old["status"] == "confirmed" else "frances_confirmed"
            _confirm(locked, checked)
        elif not others:
            locked.status, action = Match.Status.SUBMITTED, "frances_submitted"
        elif others[-1].order == checked:
            _confirm(locked, checked)
            action = "frances_confirmed"
        else:
            locked.status, action = Match.Status.DISPUTED, "frances_disputed"
        return _answer(
            locked,
            action=action,
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
        )


def frances_result_confirm(
    *,
    table: FrancesTable,
    idempotency_key: str,
    version: int,
    via: str,
    seat: Any = None,
    actor: User = None,
    device: str = "",
) -> FrancesAnswer:
    """Another seat (or an organizer) agrees with the latest order entered; the table is
    confirmed. In a dispute it accepts the latest version."""
    key = check_key(idempotency_key)
    with transaction.atomic():
        locked = _lock(table)
        seats = _seats(locked)
        who = _check_caller(locked, seat=seat, via=via, actor=actor, seats=seats)
        replay = _replay(locked, key, seat=who, order=None, confirms=True)
        if replay is not None:
            return replay
        _check_open(locked, via)
        _check_version(locked, version)
        if locked.status == Match.Status.CONFIRMED:
            raise Conflict(
                "The result of this table is already confirmed. An organizer can correct it.",
                code="frances_already_confirmed",
            )
        versions = _versions(locked)
        if not versions:
            raise Conflict(
                "There is no result to confirm yet: enter the result first.",
                code="nothing_to_confirm",
            )
        latest = versions[-1]
        if latest.seat == who:
            raise Conflict(
                "Seat {seat} entered this order; another player of the table has to confirm it.",
                code="frances_own_submission",
                seat=who,
            )
        old = frances_state(locked)
        submission = _store(
            locked,
            seat=who,
            via=via,
            order=latest.order,
            confirms=True,
            key=key,
            device=device,
            actor=actor,
        )
        if submission is None:
            raise StaleVersion(
                "The result changed on another device; reload and try again.",
                code="stale_version",
            )
        _confirm(locked, latest.order)
        return _answer(
            locked,
            action="frances_confirmed",
            old=old,
            submission=submission,
            actor=actor,
            via=via,
            device=device,
        )
