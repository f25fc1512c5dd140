"""Celery tasks of the clubs app: the ratings.

A task takes ids, calls a service and logs what it did; it holds no rule and is idempotent (a
match already rated as it is changes nothing). ``clubs.ratings_match_sync`` is queued by name
by tournaments' ``result_confirmed`` after every confirmed or corrected result.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

log = logging.getLogger(__name__)

RETRY = {"autoretry_for": (OperationalError,), "max_retries": 5, "retry_backoff": True}


@shared_task(name="clubs.ratings_match_sync", **RETRY)
def ratings_match_sync(match_id: int) -> int:
    """Re-rate from a tournament match that was confirmed, corrected or unconfirmed."""
    from clubs.ratings_services import rating_tournament_match_sync

    rerated = rating_tournament_match_sync(match_id=match_id)
    log.info("ratings after match %s: %s matches re-rated", match_id, rerated)
    return rerated


@shared_task(name="clubs.ratings_rebuild", **RETRY)
def ratings_rebuild() -> int:
    """Read every confirmed match again and rate everything from scratch."""
    from clubs.ratings_services import ratings_rebuild as rebuild

    rated = rebuild()
    log.info("ratings rebuilt from scratch: %s matches", rated)
    return rated
