"""Writes of championships, a module for each part: ``championships`` (the championship, its
centres, stages, quotas and tournaments), ``flow`` (the qualified pairs and their flow into the
next stage), ``eligibility`` (the rules every registration in its tournaments keeps, through
tournaments' registry). Each write runs in its own transaction with its rows locked; each
queues its follow-ups by name (``championships.stage_flow``) after the commit."""

from seasons.championships.services.championships import (
    centre_add,
    centre_update,
    championship_club_add,
    championship_create,
    championship_organizer_add,
    championship_update,
    stage_add,
    stage_tournament_add,
    stage_update,
)
from seasons.championships.services.flow import (
    championships_reconcile,
    stage_flow,
    stop_flow,
    tournament_flow,
)

__all__ = [
    "centre_add",
    "centre_update",
    "championship_club_add",
    "championship_create",
    "championship_organizer_add",
    "championship_update",
    "championships_reconcile",
    "stage_add",
    "stage_flow",
    "stage_tournament_add",
    "stage_update",
    "stop_flow",
    "tournament_flow",
]
