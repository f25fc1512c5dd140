"""Who may do what in a peña: the one place roles are checked.

Responsible for: answering whether a user holds a role in a club, and raising the domain error
when a service is asked to act without it. Owners can do everything organizers can.

Must not: decide anything else; services call it before they write.
"""

from __future__ import annotations

from collections.abc import Collection

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from clubs.models import Club, Membership
from config.errors import Forbidden

ORGANIZING_ROLES = (Membership.Role.OWNER, Membership.Role.ORGANIZER)


def club_role(user: AbstractBaseUser | AnonymousUser | None, club: Club) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.OWNER
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def can_organize(user: AbstractBaseUser | AnonymousUser | None, club: Club) -> bool:
    return club_role(user, club) in ORGANIZING_ROLES


def require_organizer(user: AbstractBaseUser | AnonymousUser | None, club: Club) -> None:
    if not can_organize(user, club):
        raise Forbidden(
            "Only the organizers of {club_name} can do this.",
            code="not_organizer",
            club=club.slug,
            club_name=club.name,
        )


def require_owner(user: AbstractBaseUser | AnonymousUser | None, club: Club) -> None:
    if club_role(user, club) != Membership.Role.OWNER:
        raise Forbidden(
            "Only the owners of {club_name} can do this.",
            code="not_owner",
            club=club.slug,
            club_name=club.name,
        )


def clubs_organized_by(user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Club]:
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__user=user, memberships__role__in=ORGANIZING_ROLES
    ).distinct()


# --- One person, one identity (clubs.identity) ------------------------------------------------


def organizes_players_of(
    user: AbstractBaseUser | AnonymousUser | None, club_ids: Collection[int]
) -> bool:
    """Whether the user answers for a player who plays for these peñas: an organizer of one of
    them (a player of no peña: an organizer of any peña)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    organized = Membership.objects.filter(user=user, role__in=ORGANIZING_ROLES)
    if club_ids:
        organized = organized.filter(club_id__in=list(club_ids))
    return organized.exists()


def require_player_merge(
    user: AbstractBaseUser | AnonymousUser | None,
    *,
    keep_id: int,
    other_id: int,
    keep_clubs: Collection[int],
    other_clubs: Collection[int],
    same_licence_or_email: bool,
) -> None:
    """Two player rows may be made one person by an organizer of a peña of each; or of a peña
    of either one when both have the same licence or the same e-mail (the federation's number,
    or the person's own address, says they are one)."""
    keep = organizes_players_of(user, keep_clubs)
    other = organizes_players_of(user, other_clubs)
    if (keep and other) or (same_licence_or_email and (keep or other)):
        return
    raise Forbidden(
        "Players {keep_id} and {other_id} can be made one person by an organizer of a peña of "
        "each, or of a peña of one of them when both have the same licence or e-mail.",
        code="player_merge_forbidden",
        keep_id=keep_id,
        other_id=other_id,
    )


def require_player_merge_undo(
    user: AbstractBaseUser | AnonymousUser | None, *, merge_id: int, club_ids: Collection[int]
) -> None:
    """A merge is undone by an organizer of a peña either row played for when it was made."""
    if not organizes_players_of(user, club_ids):
        raise Forbidden(
            "Merge {merge_id} can be undone by an organizer of a peña either player played for.",
            code="player_merge_undo_forbidden",
            merge_id=merge_id,
        )
