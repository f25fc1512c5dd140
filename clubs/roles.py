"""Who may do what in a peña: the one place roles are checked.

Responsible for: answering whether a user holds a role in a club, and raising the domain error
when a service is asked to act without it. Owners can do everything organizers can.

Must not: decide anything else; services call it before they write.
"""

from __future__ import annotations

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
