"""Celery tasks of the championships: the flow of qualified pairs.

A task takes ids, calls a service and logs what it did; it holds no rule and is idempotent (a
flow run twice changes nothing the second time). ``championships.tournament_changed`` is
queued by name by tournaments (when a tournament finishes, and after each corrected result of
a finished one); ``championships.stage_flow`` by the championships' own services (a quota or
a stage's tournaments changed); ``championships.reconcile`` by Celery beat, to redo what a
lost task left undone; ``championships.players_merged`` by the merge of two players (clubs),
to name the registrations the merge made break a rule.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

log = logging.getLogger(__name__)

RETRY = {"autoretry_for": (OperationalError,), "max_retries": 5, "retry_backoff": True}


@shared_task(name="championships.tournament_changed", **RETRY)
def tournament_changed(tournament_id: int) -> int:
    """Flow the qualified pairs of this (finished) tournament, if it is a championship's."""
    from seasons.championships.services import tournament_flow

    flow = tournament_flow(tournament_id=tournament_id)
    if flow is not None:
        log.info(
            "tournament %s: %s pairs qualified (%s registered, %s withdrawn)",
            tournament_id,
            flow.qualified,
            flow.registered,
            flow.withdrawn,
        )
    return flow.qualified if flow is not None else 0


@shared_task(name="championships.stage_flow", **RETRY)
def stage_flow(stage_id: int) -> int:
    from seasons.championships.services import stage_flow as flow

    done = flow(stage_id=stage_id)
    log.info("stage %s: %s tournaments flowed", stage_id, done)
    return done


@shared_task(name="championships.reconcile", **RETRY)
def reconcile() -> int:
    """Beat's repair: flow every finished tournament whose last flow is older than its change."""
    from seasons.championships.services import championships_reconcile

    done = championships_reconcile()
    if done:
        log.warning("championship flows redone by the reconciliation: %s", done)
    return done


@shared_task(name="championships.players_merged", **RETRY)
def players_merged(merge_id: int, version: int) -> int:
    """Queued by name by the merge of two players into one person (clubs.identity), or its
    undo, after its commit: eligibility reads registrations by Player id at each registration,
    so the kept row's history (the merged one's included) counts from then on with nothing to
    recompute; this task only names what the merge brought to light — the same person now
    registered for two centres of a championship, or back after going out — which each
    championship's desk lists too (selectors.eligibility_conflicts). Returns how many."""
    from clubs.identity.services import player_merge_follow_up_done
    from clubs.models import PlayerMerge
    from seasons.championships.selectors import championships_of_player, eligibility_conflicts

    merge = PlayerMerge.objects.filter(pk=merge_id).first()
    if merge is None:
        return 0
    kept_id, merged_id = merge.keep_id, merge.other_id

    found = 0
    for championship in championships_of_player(player_id=kept_id):
        for conflict in eligibility_conflicts(championship=championship, players=[kept_id]):
            found += 1
            log.warning(
                "championship %s: player %s (merged %s) breaks %s: %s / %s",
                championship.slug,
                kept_id,
                merged_id,
                conflict.rule,
                conflict.tournament,
                conflict.other_tournament,
            )
    player_merge_follow_up_done(
        merge_id=merge_id, task="championships.players_merged", version=version
    )
    return found
