"""Writes of circuits: create and change one, its peñas, organizers and tournaments, and its
stored ranking.

Responsible for (a circuit is a competition of several peñas: its creation, name, peñas and
organizers are seasons.competitions.services', in a circuit's words): each write in its own
transaction with the circuit row locked, after the manager check (seasons.circuits.selectors:
an organizer of any of its peñas, or one it names); ``circuit_ranking_refresh``, which rebuilds
the stored ranking whole from the finished tournaments' standings (seasons.circuits.ranking
computes it), and is idempotent: run twice, it writes the same rows. A change that moves the
ranking (points table, best N, tiebreaks, a tournament added or taken out) queues
``circuits.ranking_refresh`` by name after the commit; tournaments queue
``circuits.tournament_changed`` when a tournament ends or a result of it is confirmed or
corrected, and ``circuits_reconcile`` (Celery beat, ``circuits.reconcile``) rebuilds every
ranking older than the last change of its finished tournaments. Two player
rows made one person (clubs.identity), or that undone: ``circuits_for_players_refresh`` rebuilds
the rankings that hold either row (the task ``circuits.players_merged``; beat's reconcile runs it
again for a merge whose task was lost), so a person's results of several peñas add up.

Rules of a circuit: a peña joins when one of its organizers who also manages the circuit adds
it (nobody adds another's peña); only public tournaments of its peñas join it; a tournament
counts once it is finished. A circuit is public unless its organizers make it private
(``is_public``: seasons.circuits.selectors hides it from all but its peñas' organizers and
members and its named organizers). The points table has 1 to 64 places, each 0–10,000 and
none above the one before; participation 0–10,000; best N from 1 to 100 or none.

Must not: compute standings (tournaments do) or rank (the pure core does).

Terms: circuito, puesto (place), peña, desempate (tiebreak).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from clubs.identity.selectors import player_merges_pending
from clubs.identity.services import player_merge_follow_up_done
from clubs.models import Club, PlayerMerge
from clubs.roles import can_organize
from config.errors import Invalid, NotFound
from config.queue import enqueue_on_commit
from seasons.circuits.models import Circuit, CircuitRankingRow, CircuitTournament
from seasons.circuits.ranking import Tiebreak, circuit_ranking
from seasons.circuits.selectors import (
    CIRCUIT,
    User,
    circuit_ranking_inputs,
    circuit_require_manager,
)
from seasons.competitions import services as competitions
from tournaments.models import Tournament

MAX_PLACES = 64
MAX_POINTS = 10000
MAX_BEST = 100
FIELDS = (
    "name",
    "region",
    "season",
    "points_table",
    "participation_points",
    "best_results",
    "tiebreaks",
    "is_public",
)


# --- Checks --------------------------------------------------------------------------------


def _points_table(value: Any) -> list[int]:
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= MAX_PLACES
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise Invalid(
            "The points table is a list of 1 to {max_places} whole numbers: the points of the "
            "1st place, the 2nd, and so on.",
            code="circuit_points_table",
            max_places=MAX_PLACES,
        )
    above_each = [MAX_POINTS, *value[:-1]]
    for place, (points, above) in enumerate(zip(value, above_each, strict=True), start=1):
        if not 0 <= points <= MAX_POINTS or points > above:
            raise Invalid(
                "Place {place} earns {points} points: each place earns from 0 to {max_points} "
                "and never more than the place above.",
                code="circuit_points_order",
                place=place,
                points=points,
                max_points=MAX_POINTS,
            )
    return list(value)


def _participation(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_POINTS:
        raise Invalid(
            "The participation points are a whole number from 0 to {max_points}.",
            code="circuit_participation",
            max_points=MAX_POINTS,
        )
    return value


def _best(value: Any) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_BEST:
        raise Invalid(
            "The results that count are a whole number from 1 to {max_best}, or none for all.",
            code="circuit_best_results",
            max_best=MAX_BEST,
        )
    return value


def _tiebreaks(value: Any) -> list[str]:
    known = [t.value for t in Tiebreak]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Invalid(
            "The tiebreaks are a list of: {known}.", code="circuit_tiebreaks", known=known
        )
    for name in value:
        if name not in known:
            raise Invalid(
                "Unknown tiebreak '{tiebreak}'; the circuit's tiebreaks are {known}.",
                code="circuit_tiebreak_unknown",
                tiebreak=name[:40],
                known=known,
            )
    if len(set(value)) != len(value):
        raise Invalid("A tiebreak is listed twice.", code="circuit_tiebreak_twice")
    return list(value)


CHECKS = {
    **competitions.common_checks(CIRCUIT),
    "points_table": _points_table,
    "participation_points": _participation,
    "best_results": _best,
    "tiebreaks": _tiebreaks,
}


def _lock(circuit: Circuit) -> Circuit:
    return competitions.competition_lock(CIRCUIT, circuit)


def _queue_refresh(circuit: Circuit) -> None:
    enqueue_on_commit("circuits.ranking_refresh", circuit_id=circuit.pk)


# --- Circuits ------------------------------------------------------------------------------


def circuit_create(*, actor: User, club: Club, slug: str = "", **fields: Any) -> Circuit:
    """A new circuit with ``club`` as its first peña (the actor organizes it)."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    return competitions.competition_create(
        CIRCUIT, actor=actor, club=club, slug=slug, fields=fields, checks=CHECKS
    )


def circuit_update(*, actor: User, circuit: Circuit, data: Mapping[str, Any]) -> Circuit:
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown fields {sorted(unknown)}")
    values = {name: CHECKS[name](value) for name, value in data.items()}
    with transaction.atomic():
        circuit = _lock(circuit)
        circuit_require_manager(user=actor, circuit=circuit)
        for name, value in values.items():
            setattr(circuit, name, value)
        circuit.save()
        _queue_refresh(circuit)
    return circuit


def circuit_club_add(*, actor: User, circuit: Circuit, club_id: int) -> Club:
    """A peña joins: the actor manages the circuit and organizes the peña."""
    return competitions.competition_club_add(
        CIRCUIT, actor=actor, competition=circuit, club_id=club_id
    )


def circuit_organizer_add(*, actor: User, circuit: Circuit, username: str) -> None:
    """Name a user an organizer of the circuit (besides its peñas' organizers)."""
    competitions.competition_organizer_add(
        CIRCUIT, actor=actor, competition=circuit, username=username
    )


def circuit_tournament_add(*, actor: User, circuit: Circuit, tournament_id: int) -> Tournament:
    """A public tournament of one of the circuit's peñas joins it."""
    with transaction.atomic():
        circuit = _lock(circuit)
        circuit_require_manager(user=actor, circuit=circuit)
        tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
        if tournament is None or not (tournament.is_public or can_organize(actor, tournament.club)):
            raise NotFound(
                "There is no tournament {tournament_id}.",
                code="circuit_tournament_unknown",
                tournament_id=tournament_id,
            )
        if not circuit.clubs.filter(pk=tournament.club_id).exists():
            raise Invalid(
                "{tournament} is a tournament of {club}, which is not a peña of this circuit; "
                "add the peña first.",
                code="circuit_tournament_club",
                tournament=tournament.name,
                club=tournament.club.name,
            )
        if not tournament.is_public:
            raise Invalid(
                "{tournament} is private; a circuit's ranking is public, so only public "
                "tournaments join it.",
                code="circuit_tournament_private",
                tournament=tournament.name,
            )
        _, created = CircuitTournament.objects.get_or_create(circuit=circuit, tournament=tournament)
        if created:
            circuit.save(update_fields=["updated_at"])
            _queue_refresh(circuit)
    return tournament


def circuit_tournament_remove(*, actor: User, circuit: Circuit, tournament_id: int) -> None:
    with transaction.atomic():
        circuit = _lock(circuit)
        circuit_require_manager(user=actor, circuit=circuit)
        deleted, _ = CircuitTournament.objects.filter(
            circuit=circuit, tournament_id=tournament_id
        ).delete()
        if not deleted:
            raise NotFound(
                "Tournament {tournament_id} is not in this circuit.",
                code="circuit_tournament_absent",
                tournament_id=tournament_id,
            )
        circuit.save(update_fields=["updated_at"])
        _queue_refresh(circuit)


# --- The ranking ---------------------------------------------------------------------------


def circuit_ranking_refresh(*, circuit: Circuit) -> int:
    """Rebuild the circuit's stored ranking from its finished tournaments; returns its rows.

    The circuit row is locked, so two refreshes run one after the other; each reads the
    snapshots as they are then, so the last one leaves the newest ranking.
    """
    with transaction.atomic():
        circuit = Circuit.objects.select_for_update().filter(pk=circuit.pk).first()
        if circuit is None:
            return 0
        rows = circuit_ranking(
            circuit_ranking_inputs(circuit=circuit),
            points_table=circuit.points_table,
            participation=circuit.participation_points,
            best_results=circuit.best_results,
            tiebreaks=circuit.tiebreaks,
        )
        CircuitRankingRow.objects.filter(circuit=circuit).delete()
        CircuitRankingRow.objects.bulk_create(
            [
                CircuitRankingRow(
                    circuit=circuit,
                    player_id=row.player,
                    position=row.position,
                    points=row.points,
                    played=row.played,
                    results=[
                        {
                            "tournament": r.tournament,
                            "place": r.place,
                            "points": r.points,
                            "counted": r.counted,
                        }
                        for r in row.results
                    ],
                    separated_by=row.separated_by,
                )
                for row in rows
            ],
            batch_size=2000,
        )
        circuit.ranking_computed_at = timezone.now()
        circuit.save(update_fields=["ranking_computed_at"])
    return len(rows)


def circuits_for_tournament_refresh(*, tournament_id: int) -> int:
    """Refresh the rankings of every circuit holding a finished tournament; returns how many.

    Queued (by name) when a tournament ends and after each confirmed or corrected result; a
    tournament that is in no circuit, or not finished, costs one query.
    """
    circuits = list(
        Circuit.objects.filter(
            stops__tournament_id=tournament_id,
            stops__tournament__status=Tournament.Status.FINISHED,
        ).distinct()
    )
    for circuit in circuits:
        circuit_ranking_refresh(circuit=circuit)
    return len(circuits)


def circuits_reconcile() -> int:
    """Rebuild every ranking older than the last change of its circuit or of its finished
    tournaments (their status or standings): a lost task, a broker down, a worker killed.
    Returns how many. Nothing due: one query."""
    finished = Q(stops__tournament__status=Tournament.Status.FINISHED)
    circuits = Circuit.objects.annotate(
        ended=Max("stops__tournament__updated_at", filter=finished),
        computed=Max("stops__tournament__phases__standings__computed_at", filter=finished),
    )
    due = []
    for circuit in circuits:
        changes = [d for d in (circuit.updated_at, circuit.ended, circuit.computed) if d]
        if circuit.ranking_computed_at is None or circuit.ranking_computed_at < max(changes):
            due.append(circuit)
    for circuit in due:
        circuit_ranking_refresh(circuit=circuit)
    return len(due)


# --- One person, one identity (clubs.identity) ----------------------------------------------

#: the name of the task that runs ``circuits_merge_follow_up``
MERGE_TASK = "circuits.players_merged"


def circuits_for_players_refresh(*, player_ids: list[int]) -> int:
    """Rebuild the ranking of every circuit that ranks one of these players; returns how
    many. A ranking is read from the tournaments' pairs as they are, so it then ranks the
    person once (after a merge) or each row again (after an undo)."""
    circuits = list(
        Circuit.objects.filter(
            pk__in=CircuitRankingRow.objects.filter(player_id__in=player_ids).values("circuit_id")
        ).order_by("pk")
    )
    for circuit in circuits:
        circuit_ranking_refresh(circuit=circuit)
    return len(circuits)


def circuits_merge_follow_up(*, merge: PlayerMerge, version: int) -> int:
    """What the task does for a merge (or its undo, ``version``): the rankings, then done."""
    refreshed = circuits_for_players_refresh(player_ids=[merge.keep_id, merge.other_id])
    player_merge_follow_up_done(merge_id=merge.pk, task=MERGE_TASK, version=version)
    return refreshed


def circuits_merges_reconcile() -> int:
    """Beat's repair: the rankings of every merge or undo whose task was lost."""
    pending = player_merges_pending(task=MERGE_TASK)
    for merge in pending:
        circuits_merge_follow_up(merge=merge, version=merge.version)
    return len(pending)
