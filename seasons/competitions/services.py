"""Writes every competition of several peñas makes the same way: create one, lock it, check
its common fields, add a peña or a named organizer.

Responsible for: ``competition_create`` (a free short name, the first peña, whose organizer
the actor is), ``competition_lock`` (the row read again under a lock, or the kind's ``gone``
error), the checks of the common fields (``COMMON_CHECKS``: name, region, season, public), and
``competition_club_add`` / ``competition_organizer_add``, each in its own transaction with the
competition locked, after the manager check (seasons.competitions.selectors). A peña joins
when one of its organizers who also manages the competition adds it: nobody adds another's
peña.

Must not: hold a rule of one kind (a circuit's points, a championship's quotas), or queue a
kind's follow-ups (its services do, after calling these).

Terms: peña (club), organizador (organizer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from clubs.models import Club
from clubs.roles import require_organizer
from config.errors import NotFound
from seasons.competitions.models import Competition
from seasons.competitions.selectors import (
    CompetitionKind,
    User,
    competition_require_manager,
)

NAME_MAX = 160
TEXT_MAX = 120


def competition_name(kind: CompetitionKind, value: Any) -> str:
    name = " ".join(str(value or "").split())
    if not name:
        raise kind.errors.name_required()
    if len(name) > NAME_MAX:
        raise kind.errors.name_long()
    return name


def competition_text(kind: CompetitionKind, value: Any, field: str) -> str:
    text = " ".join(str(value or "").split())
    if len(text) > TEXT_MAX:
        raise kind.errors.text_long(field)
    return text


def competition_public(kind: CompetitionKind, value: Any) -> bool:
    if not isinstance(value, bool):
        raise kind.errors.public_flag()
    return value


def common_checks(kind: CompetitionKind) -> dict[str, Callable[[Any], Any]]:
    """The checks of the fields every competition has, by field name."""
    return {
        "is_public": lambda v: competition_public(kind, v),
        "name": lambda v: competition_name(kind, v),
        "region": lambda v: competition_text(kind, v, "region"),
        "season": lambda v: competition_text(kind, v, "season"),
    }


def competition_lock(kind: CompetitionKind, competition: Competition) -> Competition:
    """The competition read again and locked until the caller's transaction ends."""
    locked = kind.model.objects.select_for_update().filter(pk=competition.pk).first()
    if locked is None:
        raise kind.errors.gone()
    return locked


def competition_create(
    kind: CompetitionKind,
    *,
    actor: User,
    club: Club,
    slug: str,
    fields: Mapping[str, Any],
    checks: Mapping[str, Callable[[Any], Any]],
) -> Competition:
    """A new competition with ``club`` as its first peña (the actor organizes it), its
    ``fields`` checked by ``checks`` (the kind's, by field name)."""
    require_organizer(actor, club)
    values = {name: checks[name](value) for name, value in fields.items()}
    if "name" not in values:
        values["name"] = competition_name(kind, "")
    slug = slugify(slug or values["name"])[:80]
    if not slug:
        raise kind.errors.slug_required()
    with transaction.atomic():
        if kind.model.objects.filter(slug=slug).exists():
            raise kind.errors.slug_taken(slug)
        try:
            with transaction.atomic():
                competition = kind.model.objects.create(slug=slug, created_by=actor, **values)
        except IntegrityError:
            raise kind.errors.slug_taken(slug) from None
        competition.clubs.add(club)
    return competition


def competition_club_add(
    kind: CompetitionKind, *, actor: User, competition: Competition, club_id: int
) -> Club:
    """A peña joins: the actor manages the competition and organizes the peña."""
    with transaction.atomic():
        competition = competition_lock(kind, competition)
        competition_require_manager(kind, user=actor, competition=competition)
        club = club_for_id(club_id)
        require_organizer(actor, club)
        competition.clubs.add(club)
    return club


def club_for_id(club_id: int) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound("There is no peña {club_id}.", code="club_not_found", club_id=club_id)
    return club


def competition_organizer_add(
    kind: CompetitionKind, *, actor: User, competition: Competition, username: str
) -> None:
    """Name a user an organizer of the competition (besides its peñas' organizers)."""
    with transaction.atomic():
        competition = competition_lock(kind, competition)
        competition_require_manager(kind, user=actor, competition=competition)
        user = get_user_model().objects.filter(username=str(username)[:150]).first()
        if user is None:
            raise kind.errors.user_unknown(str(username)[:40])
        competition.organizers.add(user)
