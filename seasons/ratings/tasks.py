"""Celery tasks of the ratings.

A task takes ids, calls a service and logs what it did; it holds no rule and is idempotent (a
match already rated as it is changes nothing). ``ratings.match_sync`` is queued by name by
tournaments' ``result_confirmed`` after every confirmed or corrected result;
``ratings.players_merged`` by clubs.identity after two player rows were made one person (or
that was undone); ``ratings.reconcile`` by Celery beat, to rate what a lost task left unrated
and re-rate for a merge whose task was lost.

The names ``clubs.ratings_match_sync`` and ``clubs.ratings_rebuild`` are the ones these tasks
had while the ratings lived in the clubs app: a message queued under them before an upgrade is
still run.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

log = logging.getLogger(__name__)

RETRY = {"autoretry_for": (OperationalError,), "max_retries": 5, "retry_backoff": True}


def _match_sync(match_id: int) -> int:
    from seasons.ratings.services import rating_tournament_match_sync

    rerated = rating_tournament_match_sync(match_id=match_id)
    log.info("ratings after match %s: %s matches re-rated", match_id, rerated)
    return rerated


def _rebuild() -> int:
    from seasons.ratings.services import ratings_rebuild as rebuild

    rated = rebuild()
    log.info("ratings rebuilt from scratch: %s matches", rated)
    return rated


@shared_task(name="ratings.match_sync", **RETRY)
def ratings_match_sync(match_id: int) -> int:
    """Re-rate from a tournament match that was confirmed, corrected or unconfirmed."""
    return _match_sync(match_id)


@shared_task(name="ratings.rebuild", **RETRY)
def ratings_rebuild() -> int:
    """Read every confirmed match again and rate everything from scratch."""
    return _rebuild()


@shared_task(name="ratings.reconcile", **RETRY)
def ratings_reconcile() -> int:
    """Beat's repair: rate every confirmed match of a running tournament that the ratings have
    not taken in since it last changed (its task was lost)."""
    from seasons.ratings.services import ratings_merges_reconcile
    from seasons.ratings.services import ratings_reconcile as reconcile

    done = reconcile() + ratings_merges_reconcile()
    if done:
        log.warning("matches rated by the reconciliation: %s", done)
    return done


@shared_task(name="ratings.players_merged", **RETRY)
def ratings_players_merged(merge_id: int, version: int) -> int:
    """After two player rows were made one person (clubs.identity), or that was undone:
    re-rate what changed hands."""
    from clubs.models import PlayerMerge
    from seasons.ratings.services import ratings_merge_follow_up

    merge = PlayerMerge.objects.filter(pk=merge_id).first()
    if merge is None:
        return 0
    rerated = ratings_merge_follow_up(merge=merge, version=version)
    log.info("ratings after merge %s (version %s): %s matches re-rated", merge_id, version, rerated)
    return rerated


@shared_task(name="clubs.ratings_match_sync", **RETRY)
def ratings_match_sync_before_the_move(match_id: int) -> int:
    return _match_sync(match_id)


@shared_task(name="clubs.ratings_rebuild", **RETRY)
def ratings_rebuild_before_the_move() -> int:
    return _rebuild()
