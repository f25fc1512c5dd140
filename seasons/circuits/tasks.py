"""Celery tasks of the circuits: their rankings.

A task takes ids, calls a service and logs what it did; it holds no rule and is idempotent (a
ranking rebuilt twice is the same ranking). ``circuits.tournament_changed`` is queued by name
by tournaments (when a tournament ends, and after each confirmed or corrected result);
``circuits.ranking_refresh`` by the circuits' own services; ``circuits.players_merged`` by
clubs.identity after a merge of two player rows or its undo; ``circuits.reconcile`` by Celery
beat, to redo what a lost task left undone.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

log = logging.getLogger(__name__)

RETRY = {"autoretry_for": (OperationalError,), "max_retries": 5, "retry_backoff": True}


@shared_task(name="circuits.tournament_changed", **RETRY)
def tournament_changed(tournament_id: int) -> int:
    """Rebuild the rankings of the circuits that hold this (finished) tournament."""
    from seasons.circuits.services import circuits_for_tournament_refresh

    refreshed = circuits_for_tournament_refresh(tournament_id=tournament_id)
    if refreshed:
        log.info("tournament %s: %s circuit rankings rebuilt", tournament_id, refreshed)
    return refreshed


@shared_task(name="circuits.ranking_refresh", **RETRY)
def ranking_refresh(circuit_id: int) -> int:
    from seasons.circuits.models import Circuit
    from seasons.circuits.services import circuit_ranking_refresh

    circuit = Circuit.objects.filter(pk=circuit_id).first()
    rows = circuit_ranking_refresh(circuit=circuit) if circuit else 0
    log.info("ranking of circuit %s rebuilt: %s players", circuit_id, rows)
    return rows


@shared_task(name="circuits.players_merged", **RETRY)
def players_merged(merge_id: int, version: int) -> int:
    """After two player rows were made one person (clubs.identity), or that was undone:
    rebuild the rankings that rank either."""
    from clubs.models import PlayerMerge
    from seasons.circuits.services import circuits_merge_follow_up

    merge = PlayerMerge.objects.filter(pk=merge_id).first()
    if merge is None:
        return 0
    rows = circuits_merge_follow_up(merge=merge, version=version)
    log.info("merge %s (version %s): %s circuit rankings rebuilt", merge_id, version, rows)
    return rows


@shared_task(name="circuits.reconcile", **RETRY)
def reconcile() -> int:
    """Beat's repair: rebuild every ranking older than its tournaments' last change, and those
    of a merge whose task was lost."""
    from seasons.circuits.services import circuits_merges_reconcile, circuits_reconcile

    done = circuits_reconcile() + circuits_merges_reconcile()
    if done:
        log.warning("circuit rankings rebuilt by the reconciliation: %s", done)
    return done
