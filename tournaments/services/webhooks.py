"""What a tournament's webhook events say, and where they are recorded.

Responsible for: the three events a peña's webhooks hear (clubs.webhooks.services delivers
them), each with a stable id so that recording it twice records it once:

- ``result.confirmed`` (``result.confirmed:<match>:v<version>``): after a match's result is
  confirmed or corrected; recorded by the task that follows the confirmation
  (tournaments.tasks ``result_confirmed``), never in the request that confirmed it; for a Mus
  francés table (``result.confirmed:frances:<table>:v<version>``) the same, by the task
  ``frances_result_confirmed``, its data a ``frances_table`` (players by seat and the finishing
  order) instead of a ``match``;
- ``round.published`` (``round.published:<round>``): recorded in round_publish's transaction;
- ``tournament.finished`` (``tournament.finished:<tournament>``): recorded in the transaction
  of the status change to finished.

Each first asks whether the peña has a webhook for it (one query), and builds nothing when not.
The data name the tournament, phase and round by id and name, and the pairs by name, so that a
receiver needs no call back.

Must not: deliver (a task does, after the commit), or be called while a receiver is waited for.

Terms: peña, pareja, ronda, mesa, partida, juego, piedras, mus francés, orden de llegada
(finishing order).
"""

from __future__ import annotations

from typing import Any

from clubs.models import Webhook
from clubs.webhooks.services import webhook_event_record, webhooks_hearing
from tournaments.models import Entry, FrancesTable, Match, Round, Tournament


def _tournament(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "slug": tournament.slug,
        "name": tournament.name,
        "club": tournament.club.slug,
        "status": tournament.status,
    }


def _pair(entry: Entry | None) -> dict[str, Any] | None:
    return None if entry is None else {"entry_id": entry.pk, "name": str(entry.pair)}


def webhooks_result_confirmed(*, match: Match) -> int:
    """Record ``result.confirmed`` for a match once it is confirmed (re-read: the task may run
    after a later change); returns the deliveries recorded."""
    match = (
        Match.objects.select_related("round__phase__tournament__club")
        .filter(pk=match.pk, status=Match.Status.CONFIRMED)
        .first()
    )
    if match is None:
        return 0
    tournament = match.round.phase.tournament
    event = Webhook.Event.RESULT_CONFIRMED
    hooks = webhooks_hearing(club_id=tournament.club_id, event=event)
    if not hooks:
        return 0
    match = Match.objects.select_related(
        "entry_a__pair__player_one",
        "entry_a__pair__player_two",
        "entry_b__pair__player_one",
        "entry_b__pair__player_two",
    ).get(pk=match.pk)
    data = {
        "tournament": _tournament(tournament),
        "phase": {"id": match.round.phase_id, "name": match.round.phase.name},
        "round": {"id": match.round_id, "number": match.round.number},
        "match": {
            "id": match.pk,
            "version": match.version,
            "table_number": match.table_number,
            "bracket_key": match.bracket_key,
            "kind": match.kind,
            "pair_a": _pair(match.entry_a),
            "pair_b": _pair(match.entry_b),
            "winner_entry_id": match.winner_id,
            "games": [match.games_a, match.games_b],
            "stones": [match.stones_a, match.stones_b],
            "confirmed_at": match.confirmed_at.isoformat() if match.confirmed_at else None,
        },
    }
    return webhook_event_record(
        club_id=tournament.club_id,
        event=event,
        event_id=f"{event}:{match.pk}:v{match.version}",
        data=data,
        hooks=hooks,
    )


def webhooks_frances_result_confirmed(*, table: FrancesTable) -> int:
    """Record ``result.confirmed`` for a Mus francés table once its order is confirmed (re-read:
    the task may run after a later change); returns the deliveries recorded."""
    table = (
        FrancesTable.objects.select_related("round__phase__tournament__club")
        .filter(pk=table.pk, status=Match.Status.CONFIRMED)
        .first()
    )
    if table is None:
        return 0
    tournament = table.round.phase.tournament
    event = Webhook.Event.RESULT_CONFIRMED
    hooks = webhooks_hearing(club_id=tournament.club_id, event=event)
    if not hooks:
        return 0
    seats = list(table.seats.select_related("entry__player").order_by("seat"))
    names = {s.entry_id: str(s.entry.player) for s in seats}
    data = {
        "tournament": _tournament(tournament),
        "phase": {"id": table.round.phase_id, "name": table.round.phase.name},
        "round": {"id": table.round_id, "number": table.round.number},
        "frances_table": {
            "id": table.pk,
            "version": table.version,
            "table_number": table.table_number,
            "players": [
                {"seat": s.seat, "individual_id": s.entry_id, "name": names[s.entry_id]}
                for s in seats
            ],
            "order": [
                {"place": n, "individual_id": entry_id, "name": names.get(entry_id, "")}
                for n, entry_id in enumerate(table.order or [], start=1)
            ],
            "confirmed_at": table.confirmed_at.isoformat() if table.confirmed_at else None,
        },
    }
    return webhook_event_record(
        club_id=tournament.club_id,
        event=event,
        event_id=f"{event}:frances:{table.pk}:v{table.version}",
        data=data,
        hooks=hooks,
    )


def webhooks_round_published(*, round: Round) -> int:
    """Record ``round.published`` (call in the publishing transaction)."""
    tournament = round.phase.tournament
    event = Webhook.Event.ROUND_PUBLISHED
    hooks = webhooks_hearing(club_id=tournament.club_id, event=event)
    if not hooks:
        return 0
    matches = (
        Match.objects.filter(round=round)
        .select_related(
            "entry_a__pair__player_one",
            "entry_a__pair__player_two",
            "entry_b__pair__player_one",
            "entry_b__pair__player_two",
        )
        .order_by("table_number", "id")
    )
    data = {
        "tournament": _tournament(tournament),
        "phase": {"id": round.phase_id, "name": round.phase.name},
        "round": {
            "id": round.pk,
            "number": round.number,
            "matches": [
                {
                    "id": m.pk,
                    "table_number": m.table_number,
                    "kind": m.kind,
                    "pair_a": _pair(m.entry_a),
                    "pair_b": _pair(m.entry_b),
                }
                for m in matches
            ],
        },
    }
    return webhook_event_record(
        club_id=tournament.club_id,
        event=event,
        event_id=f"{event}:{round.pk}",
        data=data,
        hooks=hooks,
    )


def webhooks_tournament_finished(*, tournament: Tournament) -> int:
    """Record ``tournament.finished`` (call in the status change's transaction)."""
    event = Webhook.Event.TOURNAMENT_FINISHED
    hooks = webhooks_hearing(club_id=tournament.club_id, event=event)
    if not hooks:
        return 0
    phases = list(tournament.phases.order_by("order").values("id", "name", "format", "status"))
    return webhook_event_record(
        club_id=tournament.club_id,
        event=event,
        event_id=f"{event}:{tournament.pk}",
        data={"tournament": _tournament(tournament), "phases": phases},
        hooks=hooks,
    )
