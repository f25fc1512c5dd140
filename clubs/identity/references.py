"""What points at a player, found through Django's model meta, and what the floors above do
when two player rows become one person.

Responsible for: ``relations()``, every foreign key to clubs.Player in every installed app —
the link tables of many-to-many fields included (a peña's players, a league division's) — read
from ``Player._meta.get_fields(include_hidden=True)`` (``_meta.related_objects`` leaves out the
relations named "+", such as a pair's two players), each with the unique keys it takes part
in; and the registry of the floors above (``follower_register``, called from their
``AppConfig.ready``): the rows each re-derives itself (a merge leaves them alone), the check
that refuses two rows that cannot be one person, what each rewrites that model meta cannot see
(player ids in a JSON column) and the task it wants queued, by name, after a merge or an undo.

Must not: write (clubs.identity.services does), or import a floor above: the floors above come
to it.

Terms: fusión (merge), jugador (player).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import models
from django.db.models import Q

from clubs.models import Player, PlayerMerge


@dataclasses.dataclass(frozen=True)
class Relation:
    """One foreign key to Player: ``model.field``; ``uniques`` are the unique keys holding it
    (their fields, and the condition of a partial one), which a merge must not break."""

    model: type[models.Model]
    field: str
    uniques: tuple[tuple[tuple[str, ...], Q | None], ...]

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def link(self) -> bool:
        """A many-to-many field's link table (a peña's players, a division's players)."""
        return bool(self.model._meta.auto_created)

    def owner_field(self) -> str | None:
        """A link table's other column: the row that holds the many-to-many field."""
        if not self.link:
            return None
        for f in self.model._meta.concrete_fields:
            if f.is_relation and f.name != self.field:
                return f.name
        return None


def _uniques(model: type[models.Model], field: str) -> tuple:
    found = []
    if model._meta.get_field(field).unique:
        found.append(((field,), None))
    for together in model._meta.unique_together:
        if field in together:
            found.append((tuple(together), None))
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and field in (constraint.fields or ()):
            found.append((tuple(constraint.fields), constraint.condition))
    return tuple(found)


@cache
def relations() -> tuple[Relation, ...]:
    """Every foreign key to Player (the identity's own bookkeeping left out: a merge row and
    ``Player.merged_into``), in a fixed order."""
    found = []
    for rel in Player._meta.get_fields(include_hidden=True):
        if not (rel.auto_created and not rel.concrete) or rel.many_to_many:
            continue  # a many-to-many is reached through its link table's foreign key
        model, field = rel.related_model, rel.field.name
        if model is PlayerMerge or (model is Player and field == "merged_into"):
            continue
        found.append(Relation(model, field, _uniques(model, field)))
    return tuple(sorted(found, key=lambda r: (r.label, r.field)))


# --- The floors above ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Follower:
    """What a floor above does when two player rows become one person, and when that is undone.

    ``derived``: labels of its models ("ratings.ratingentry") whose rows it computes from
    others: a merge leaves them alone and the floor's ``task`` computes them again.
    ``check(keep, other)``: raises a config.errors.Conflict naming both when they cannot be one
    person (both entered in one tournament…), inside the merge's transaction, rows locked.
    ``merged(keep, other)``: rewrites what model meta cannot see, before the rows move; returns
    what its undo needs (JSON), which the merge row keeps. ``unmerged(keep, other, state)``:
    puts it back, after the rows moved back.
    ``task``: a Celery task's name, queued after the commit with ``merge_id`` and ``version``;
    it tells clubs.identity.services.player_merge_follow_up_done when it is done, and the
    floor's beat task runs it again for a merge it left pending.
    """

    name: str
    derived: tuple[str, ...] = ()
    check: Callable[[Player, Player], None] | None = None
    merged: Callable[[Player, Player], Any] | None = None
    unmerged: Callable[[Player, Player, Any], None] | None = None
    task: str = ""


#: by name, in the order they registered (the floors' apps' order)
FOLLOWERS: dict[str, Follower] = {}


def follower_register(follower: Follower) -> None:
    """Called by a floor above from its AppConfig.ready; registering again replaces."""
    FOLLOWERS[follower.name] = follower


def derived_labels() -> set[str]:
    return {label.lower() for f in FOLLOWERS.values() for label in f.derived}


def follow_up_tasks() -> list[str]:
    return [f.task for f in FOLLOWERS.values() if f.task]
