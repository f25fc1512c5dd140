"""Reads of the clubs app: peñas, members, players, pairs and rule-set presets.

Responsible for: the querysets the API and the HTML views show, each with the joins it needs so
that a list costs the same few queries whatever its length, and the read permissions: a peña's
name, town, region, contact and presets are public; its members are seen by its members; its
players (with their contacts) and pairs by its organizers. Roles are asked of clubs.roles only.

Must not: write. A missing row is config.errors.NotFound (404), a read without the role
Forbidden (403).

Terms: peña (club), pareja (pair), preset (a named rule set such as "8 reyes a 40").
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils.text import slugify

from clubs import roles
from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from config.errors import Forbidden, NotFound

User = AbstractBaseUser | AnonymousUser


def club_get(*, club_id: int) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound("There is no peña {club_id}.", code="club_not_found", club_id=club_id)
    return club


def clubs_named(*, names: list[str]) -> dict[str, Club]:
    """The peñas a list names (a federation's file has a column of centres), one query for all:
    each name maps to the peña whose slug is that name made a slug, or whose name is the same
    ignoring case, accents and punctuation ("Peña Txoko", "pena txoko", "pena-txoko"). A name
    no peña has is left out. A peña's name and slug are public."""
    wanted = {name: slugify(name) for name in names if name.strip()}
    if not wanted:
        return {}
    query = Q(slug__in=set(wanted.values()))
    for name in set(wanted):
        query |= Q(name__iexact=name)
    by_slug: dict[str, Club] = {}
    for club in Club.objects.filter(query).order_by("pk"):
        by_slug.setdefault(club.slug, club)
        by_slug.setdefault(slugify(club.name), club)
    return {name: by_slug[slug] for name, slug in wanted.items() if slug and slug in by_slug}


def club_list(*, search: str = "", user: User | None = None, mine: bool = False) -> QuerySet[Club]:
    """Every peña (public), optionally matching a word of its name, town or region.

    ``mine``: only the peñas the user belongs to, whatever the role.
    """
    clubs = Club.objects.order_by("name", "pk")
    for word in search.split():
        clubs = clubs.filter(
            Q(name__icontains=word) | Q(town__icontains=word) | Q(region__icontains=word)
        )
    if mine:
        if user is None or not user.is_authenticated:
            return clubs.none()
        clubs = clubs.filter(memberships__user=user)
    return clubs


def memberships_for_user(*, user: User) -> QuerySet[Membership]:
    """The peñas a user belongs to, with the user's role in each."""
    if user is None or not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name", "pk")


def members_for_club(*, user: User, club: Club) -> QuerySet[Membership]:
    """A peña's members, owners first; only its members may see them."""
    if roles.club_role(user, club) is None:
        raise Forbidden(
            "Only the members of {club_name} can see its members.",
            code="not_member",
            club=club.slug,
            club_name=club.name,
        )
    rank = Case(
        *(When(role=role, then=Value(i)) for i, role in enumerate(Membership.Role.values)),
        output_field=IntegerField(),
    )
    return (
        Membership.objects.filter(club=club).select_related("user").order_by(rank, "user__username")
    )


def players_for_club(*, user: User, club: Club, search: str = "") -> QuerySet[Player]:
    """A peña's players for its organizers; ``search``: every word in the first or last name."""
    roles.require_organizer(user, club)
    players = Player.objects.filter(clubs=club).order_by("last_name", "first_name", "pk")
    for word in search.split():
        players = players.filter(Q(first_name__icontains=word) | Q(last_name__icontains=word))
    return players


def player_get(*, user: User, club: Club, player_id: int) -> Player:
    roles.require_organizer(user, club)
    player = Player.objects.filter(clubs=club, pk=player_id).first()
    if player is None:
        raise NotFound(
            "Player {player_id} is not a player of {club_name}.",
            code="player_not_found",
            player_id=player_id,
            club_name=club.name,
        )
    return player


def pairs_for_club(*, user: User, club: Club) -> QuerySet[Pair]:
    """The parejas representing a peña, for its organizers."""
    roles.require_organizer(user, club)
    return (
        Pair.objects.filter(club=club)
        .select_related("player_one", "player_two")
        .order_by("player_one__last_name", "player_one__first_name", "pk")
    )


def pair_get(*, user: User, club: Club, pair_id: int) -> Pair:
    pair = pairs_for_club(user=user, club=club).filter(pk=pair_id).first()
    if pair is None:
        raise NotFound(
            "Pair {pair_id} is not a pair of {club_name}.",
            code="pair_not_found",
            pair_id=pair_id,
            club_name=club.name,
        )
    return pair


def presets_builtin() -> QuerySet[RuleSetPreset]:
    """The presets every peña can use ("8 reyes a 40", "4 reyes a 30", "4 reyes a 25")."""
    return RuleSetPreset.objects.filter(club=None).order_by("name")


def presets_for_club(*, club: Club) -> QuerySet[RuleSetPreset]:
    """The built-in presets, then the peña's own; public, like the rules of its tournaments."""
    return RuleSetPreset.objects.filter(Q(club=None) | Q(club=club)).order_by(
        Case(When(club=None, then=Value(0)), default=Value(1), output_field=IntegerField()),
        "name",
    )


def preset_get(*, club: Club, preset_id: int) -> RuleSetPreset:
    """A built-in preset or one of the peña's own."""
    preset = presets_for_club(club=club).filter(pk=preset_id).first()
    if preset is None:
        raise NotFound(
            "Preset {preset_id} is not a preset of {club_name}.",
            code="preset_not_found",
            preset_id=preset_id,
            club_name=club.name,
        )
    return preset
