"""Writes of the clubs app: peñas, their members and roles, players, pairs and rule-set presets.

Responsible for: every change to those rows, each in its own ``transaction.atomic()`` that
re-reads what it changes under ``select_for_update()``, checks the caller's role through
clubs.roles (the only permission checks), and raises config.errors classes with an English
message that says what is wrong and how to fix it. A whole list of names (a tournament's pasted
or imported field) goes through ``Roster``: the peña's players read once, each person found by
licence or by name or planned, the pairs of those players read in one query, and what is new
written with one bulk query per kind of row (the caller, a tournament's registration, checks
the organizer's right). Membership changes lock the peña's row first, so two owners demoting
each other at the same moment cannot leave a peña without an owner.

Must not: decide a rule of Mus (rule-set values are validated by scoring.RuleSet through
``RuleSetPreset.rules()``, whose scoring.RuleSetError the API turns into a 400), read for
display (clubs/selectors.py), or build HTTP responses.

Terms: peña (club), pareja (pair: two players who play as one team), preset (a named rule set
such as "8 reyes a 40"), reyes, piedras, licencia (a player's federation licence number).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify

from clubs import roles
from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from config.errors import Conflict, Forbidden, Invalid, NotFound
from scoring.messages import Term

User = AbstractBaseUser | AnonymousUser

SLUG_MAX_LENGTH = Club._meta.get_field("slug").max_length


# --- Field checks -----------------------------------------------------------------------------
# Django's own validators speak the request's language (Spanish by default); services speak
# English with a stable code, and the UI translates. A field's label is a Term: the reader's
# language names the field in its own words.


def _text(value: Any, *, field: str, label: Term, max_length: int, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Invalid("{label} must be text.", code="invalid_field", field=field, label=label)
    value = " ".join(value.split())
    if required and not value:
        raise Invalid("{label} is required.", code="required", field=field, label=label)
    if len(value) > max_length:
        raise Invalid(
            "{label} is too long: at most {max_length} characters, not {length}.",
            code="too_long",
            field=field,
            label=label,
            max_length=max_length,
            length=len(value),
        )
    return value


def _email(value: Any, *, field: str, label: Term) -> str:
    value = _text(value, field=field, label=label, max_length=254)
    if value:
        try:
            validate_email(value)
        except ValidationError:
            raise Invalid(
                "{label} '{value}' is not an e-mail address; write it like ana@example.org.",
                code="email",
                field=field,
                label=label,
                value=value[:40],
            ) from None
    return value


def _slug(value: Any) -> str:
    slug = _text(
        value, field="slug", label=Term("The slug"), max_length=SLUG_MAX_LENGTH, required=True
    )
    if slug != slugify(slug):
        raise Invalid(
            "The slug '{slug}' may only hold lowercase letters, digits and hyphens, "
            "e.g. '{example}'.",
            code="slug",
            field="slug",
            slug=slug[:40],
            example=slugify(slug) or "pena-txoko",
        )
    return slug


CLUB_LABELS = {
    "name": Term("The name"),
    "town": Term("The town"),
    "region": Term("The region"),
    "contact_email": Term("The contact e-mail"),
    "contact_phone": Term("The contact phone"),
}
PLAYER_LABELS = {
    "first_name": Term("The first name"),
    "last_name": Term("The last name"),
    "email": Term("The e-mail"),
    "phone": Term("The phone"),
}


def _club_value(field: str, value: Any) -> str:
    if field == "slug":
        return _slug(value)
    if field == "language":
        return _language(value)
    if field == "contact_email":
        return _email(value, field=field, label=CLUB_LABELS[field])
    max_length = Club._meta.get_field(field).max_length
    return _text(
        value,
        field=field,
        label=CLUB_LABELS[field],
        max_length=max_length,
        required=field == "name",
    )


def _language(value: Any) -> str:
    """One of settings.LANGUAGES' codes: the language of the peña's e-mails."""
    codes = [code for code, _name in settings.LANGUAGES]
    language = value.strip().lower() if isinstance(value, str) else ""
    if language not in codes:
        raise Invalid(
            "The language of a peña's e-mails is one of {languages}, not '{language}'.",
            code="club_language",
            field="language",
            languages=codes,
            language=str(value)[:20],
        )
    return language


def _player_value(field: str, value: Any) -> str:
    if field == "email":
        return _email(value, field=field, label=PLAYER_LABELS[field])
    max_length = Player._meta.get_field(field).max_length
    return _text(
        value,
        field=field,
        label=PLAYER_LABELS[field],
        max_length=max_length,
        required=field == "first_name",
    )


def _only_known(data: Mapping[str, Any], known: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        # The views' serializers decide the keys, so an unknown one is a bug, not user input.
        raise TypeError(f"unknown fields {unknown}; expected some of {known}")


def _lock_club(club: Club) -> Club:
    """Re-read the peña under a row lock: the one lock that serialises its membership changes."""
    try:
        return Club.objects.select_for_update().get(pk=club.pk)
    except Club.DoesNotExist:
        raise NotFound("This peña no longer exists.", code="club_gone") from None


# --- Peñas ------------------------------------------------------------------------------------


def club_create(
    *,
    user: User,
    name: str,
    slug: str = "",
    town: str = "",
    region: str = "",
    contact_email: str = "",
    contact_phone: str = "",
    language: str = "es",
) -> Club:
    """Create a peña; its creator becomes its owner. Without a slug one is made from the name.

    ``language``: the language its tournaments' e-mails are written in (settings.LANGUAGES).
    """
    if user is None or not user.is_authenticated:
        raise Forbidden("Log in to create a peña.", code="not_authenticated")
    values = {
        field: _club_value(field, value)
        for field, value in {
            "name": name,
            "town": town,
            "region": region,
            "contact_email": contact_email,
            "contact_phone": contact_phone,
            "language": language,
        }.items()
    }
    with transaction.atomic():
        if slug:
            values["slug"] = _slug(slug)
            _slug_free_or_conflict(values["slug"])
        else:
            values["slug"] = _slug_from_name(values["name"])
        try:
            with transaction.atomic():
                club = Club.objects.create(**values)
        except IntegrityError:
            raise _slug_taken(values["slug"]) from None
        Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


def club_update(*, user: User, club: Club, data: Mapping[str, Any]) -> Club:
    """Change a peña's name, slug, town, region, contact or e-mail language; owners and
    organizers only."""
    _only_known(data, ("slug", "language", *CLUB_LABELS))
    roles.require_organizer(user, club)
    values = {field: _club_value(field, value) for field, value in data.items()}
    with transaction.atomic():
        club = _lock_club(club)
        if not values:
            return club
        if values.get("slug", club.slug) != club.slug:
            _slug_free_or_conflict(values["slug"], exclude_pk=club.pk)
        for field, value in values.items():
            setattr(club, field, value)
        try:
            with transaction.atomic():
                club.save(update_fields=list(values))
        except IntegrityError:
            raise _slug_taken(values.get("slug", club.slug)) from None
    return club


def club_default_preset_set(*, user: User, club: Club, preset_id: int | None) -> Club:
    """Set (or clear, with None) the rules a peña's new tournaments start from.

    The preset is a built-in one or one of this peña's own.
    """
    roles.require_organizer(user, club)
    with transaction.atomic():
        club = _lock_club(club)
        preset = None
        if preset_id is not None:
            preset = (
                RuleSetPreset.objects.filter(Q(club=None) | Q(club=club), pk=preset_id)
                .select_for_update()
                .first()
            )
            if preset is None:
                raise Invalid(
                    "Preset {preset_id} is neither a built-in preset nor one of "
                    "{club_name}'s; pick one from the peña's presets.",
                    code="preset_not_available",
                    preset_id=preset_id,
                    club_name=club.name,
                )
        club.default_preset = preset
        club.save(update_fields=["default_preset"])
    return club


def _slug_free_or_conflict(slug: str, *, exclude_pk: int | None = None) -> None:
    if Club.objects.filter(slug=slug).exclude(pk=exclude_pk).exists():
        raise _slug_taken(slug)


def _slug_taken(slug: str) -> Conflict:
    return Conflict(
        "Another peña already uses the slug '{slug}'; choose a different one.",
        code="slug_taken",
        slug=slug,
    )


def _slug_from_name(name: str) -> str:
    # Room for a "-NN" suffix within the column's length.
    base = slugify(name)[: SLUG_MAX_LENGTH - 6].strip("-")
    if not base:
        raise Invalid(
            "No slug can be made from the name '{name}'; give a slug such as 'pena-txoko'.",
            code="slug_from_name",
            field="slug",
            name=name[:40],
        )
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


# --- Members and roles ------------------------------------------------------------------------


#: each role as the reader's language names it
ROLE_TERMS = {
    Membership.Role.OWNER: Term("owner"),
    Membership.Role.ORGANIZER: Term("organizer"),
    Membership.Role.MEMBER: Term("member"),
}


def _role(role: Any) -> str:
    if role not in Membership.Role.values:
        raise Invalid(
            "Unknown role '{role}'; the roles are {roles}.",
            code="role",
            field="role",
            role=str(role)[:40],
            roles=[ROLE_TERMS[value] for value in Membership.Role.values],
        )
    return role


def membership_add(
    *, user: User, club: Club, username: str, role: str = Membership.Role.MEMBER
) -> Membership:
    """Make an existing user a member of the peña with a role; owners only."""
    role = _role(role)
    model = get_user_model()
    with transaction.atomic():
        club = _lock_club(club)
        # Checked under the peña's lock, and before saying whether the username exists.
        roles.require_owner(user, club)
        member = model.objects.filter(**{model.USERNAME_FIELD: username}).first()
        if member is None:
            raise Invalid(
                "There is no user called '{username}'; they must sign up before joining a peña.",
                code="unknown_user",
                field="username",
                username=str(username)[:40],
            )
        if Membership.objects.filter(club=club, user=member).exists():
            raise Conflict(
                "{username} is already a member of {club_name}; change their role instead.",
                code="already_member",
                username=username,
                club_name=club.name,
            )
        return Membership.objects.create(club=club, user=member, role=role)


def membership_role_change(*, user: User, club: Club, member_id: int, role: str) -> Membership:
    """Change a member's role; owners only. The last owner cannot stop being one."""
    role = _role(role)
    with transaction.atomic():
        club = _lock_club(club)
        # Checked under the peña's lock: a role taken away a moment ago counts.
        roles.require_owner(user, club)
        membership = _membership_locked(club, member_id)
        if membership.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
            _not_last_owner(club, membership, Term("demoted"))
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_remove(*, user: User, club: Club, member_id: int) -> None:
    """Remove a member; owners may remove anyone, and every member may leave.

    The last owner cannot be removed.
    """
    with transaction.atomic():
        club = _lock_club(club)
        if user is None or not user.is_authenticated or user.pk != member_id:
            roles.require_owner(user, club)
        membership = _membership_locked(club, member_id)
        if membership.role == Membership.Role.OWNER:
            _not_last_owner(club, membership, Term("removed"))
        membership.delete()


def _membership_locked(club: Club, member_id: int) -> Membership:
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("user")
        # user__pk, not user_id: an id beyond the column's range finds nobody instead of
        # overflowing SQLite.
        .filter(club=club, user__pk=member_id)
        .first()
    )
    if membership is None:
        raise NotFound(
            "User {member_id} is not a member of {club_name}.",
            code="member_not_found",
            member_id=member_id,
            club_name=club.name,
        )
    return membership


def _not_last_owner(club: Club, membership: Membership, action: Term) -> None:
    # The peña row is locked by the caller, so this count cannot change before we commit.
    owners = Membership.objects.filter(club=club, role=Membership.Role.OWNER).count()
    if owners <= 1:
        raise Conflict(
            "{user} is the last owner of {club_name} and cannot be {action}; "
            "make another member an owner first.",
            code="last_owner",
            member_id=membership.user_id,
            user=str(membership.user),
            club_name=club.name,
            action=action,
        )


# --- Players ----------------------------------------------------------------------------------


def player_create(
    *,
    user: User,
    club: Club,
    first_name: str,
    last_name: str = "",
    email: str = "",
    phone: str = "",
) -> Player:
    """Create a player (who needs no login) as a player of this peña; organizers only."""
    roles.require_organizer(user, club)
    values = {
        field: _player_value(field, value)
        for field, value in {
            "first_name": first_name,
            "last_name": last_name,
            "email": email,
            "phone": phone,
        }.items()
    }
    with transaction.atomic():
        player = Player.objects.create(**values)
        player.clubs.add(club)
    return player


def player_update(*, user: User, club: Club, player_id: int, data: Mapping[str, Any]) -> Player:
    """Change a player's name or contact; organizers of a peña the player belongs to."""
    _only_known(data, tuple(PLAYER_LABELS))
    roles.require_organizer(user, club)
    values = {field: _player_value(field, value) for field, value in data.items()}
    with transaction.atomic():
        player = _player_of_club_locked(club, player_id)
        for field, value in values.items():
            setattr(player, field, value)
        if values:
            player.save(update_fields=list(values))
    return player


def player_club_add(*, user: User, club: Club, player_id: int) -> Player:
    """Make an existing player a player of this peña too (a person may play for several).

    The caller must organize this peña and be allowed to see the player: the player belongs
    to no peña yet, to a peña the caller also organizes, or is the caller. Otherwise any
    organizer could read another peña's players' contacts by adding them. A row merged into
    another (clubs.identity) is refused, naming the row to add.
    """
    roles.require_organizer(user, club)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound(
                "There is no player {player_id}.", code="player_unknown", player_id=player_id
            )
        if player.merged_into_id is not None:
            raise player_merged_error(player)
        current = player.clubs.all()
        if current.filter(pk=club.pk).exists():
            return player
        visible = (
            not current.exists()
            or (player.user_id is not None and player.user_id == user.pk)
            or roles.clubs_organized_by(user).filter(players=player).exists()
        )
        if not visible:
            raise Forbidden(
                "{player} plays for peñas you do not organize; ask one of their organizers "
                "to add them to {club_name}, or create the player in {club_name}.",
                code="player_not_visible",
                player_id=player.pk,
                player=str(player),
                club_name=club.name,
            )
        player.clubs.add(club)
    return player


def player_merged_error(player: Player) -> Conflict:
    """The error of an action on a row that was merged into another one."""
    into = player.merged_into
    return Conflict(
        "'{player}' (player {player_id}) was made one person with '{into}' (player {into_id}); "
        "use player {into_id}.",
        code="player_merged_already",
        player=str(player),
        player_id=player.pk,
        into=str(into),
        into_id=into.pk,
    )


def player_club_remove(*, user: User, club: Club, player_id: int) -> None:
    """Stop a player being a player of this peña; the player and their pairs are kept."""
    roles.require_organizer(user, club)
    with transaction.atomic():
        player = _player_of_club_locked(club, player_id)
        player.clubs.remove(club)


def _player_of_club_locked(club: Club, player_id: int) -> Player:
    player = Player.objects.select_for_update().filter(pk=player_id, clubs=club).first()
    if player is None:
        raise NotFound(
            "Player {player_id} is not a player of {club_name}.",
            code="player_not_found",
            player_id=player_id,
            club_name=club.name,
        )
    return player


# --- Pairs ------------------------------------------------------------------------------------


def _pair_name(value: Any) -> str:
    max_length = Pair._meta.get_field("name").max_length
    return _text(value, field="name", label=Term("The pair's name"), max_length=max_length)


def pair_create(
    *, user: User, club: Club, player_one_id: int, player_two_id: int, name: str = ""
) -> Pair:
    """Create a pareja of two different players of this peña, representing it."""
    roles.require_organizer(user, club)
    name = _pair_name(name)
    if player_one_id == player_two_id:
        raise Invalid(
            "A pair needs two different players; the same player was chosen twice.",
            code="same_player",
            player_id=player_one_id,
        )
    with transaction.atomic():
        club = _lock_club(club)  # one pair per two players and peña, even when two phones race
        # Two exact lookups, not pk__in: Django answers an id beyond the column's range with
        # no row for exact lookups, where SQLite would overflow on an IN list.
        players = Player.objects.filter(clubs=club).filter(
            Q(pk=player_one_id) | Q(pk=player_two_id)
        )
        found = {player.pk: player for player in players}
        for player_id in (player_one_id, player_two_id):
            if player_id not in found:
                raise Invalid(
                    "Player {player_id} is not a player of {club_name}; add them to the "
                    "peña first.",
                    code="player_not_in_club",
                    player_id=player_id,
                    club_name=club.name,
                )
        one, two = found[player_one_id], found[player_two_id]
        existing = _pair_of(club, one.pk, two.pk)
        if existing is not None:
            raise Conflict(
                "{one} and {two} already are a pair of {club_name} (pair {pair_id}).",
                code="pair_exists",
                pair_id=existing.pk,
                one=str(one),
                two=str(two),
                club_name=club.name,
            )
        return Pair.objects.create(player_one=one, player_two=two, name=name, club=club)


def pair_update(*, user: User, club: Club, pair_id: int, name: str) -> Pair:
    """Rename a pareja of this peña (an empty name shows the two players' names)."""
    roles.require_organizer(user, club)
    name = _pair_name(name)
    with transaction.atomic():
        pair = (
            Pair.objects.select_for_update(of=("self",))
            .select_related("player_one", "player_two")
            .filter(pk=pair_id, club=club)
            .first()
        )
        if pair is None:
            raise NotFound(
                "Pair {pair_id} is not a pair of {club_name}.",
                code="pair_not_found",
                pair_id=pair_id,
                club_name=club.name,
            )
        pair.name = name
        pair.save(update_fields=["name"])
    return pair


def pair_get_or_create_from_names(*, club: Club, text: str) -> Pair:
    """The pareja of this peña written as one line, "Ana García / Luis Pérez".

    Each side's first word is the first name and the rest the surnames. A player of the peña
    whose full name matches ignoring case, accents and extra spaces is reused (the oldest one
    if two share it); otherwise a player is created in the peña. An existing pair of the same
    two players in the peña, in either order, is returned instead of a new one.

    The caller checks permissions. One line at a time: a whole list goes through ``Roster``,
    which reads the peña once for all its lines.
    Raises Invalid naming the line (``pair_line_names``).
    """
    names = pair_line_names(text)
    with transaction.atomic():
        # Serialises pasted lists of the same peña so no player is created twice.
        roster = roster_load(club=club)
        one, two = (roster.person(first, last).player for first, last in names)
        roster.pairs_load([(one, two, roster.club)])
        pair = roster.pair(one, two, club=roster.club).pair
        roster.save()
    return Pair.objects.select_related("player_one", "player_two", "club").get(pk=pair.pk)


def pair_from_names(*, user: User, club: Club, text: str) -> Pair:
    """``pair_get_or_create_from_names`` for one organizer typing one pair of this peña."""
    roles.require_organizer(user, club)
    return pair_get_or_create_from_names(club=club, text=text)


def pair_line_names(text: str) -> list[tuple[str, str]]:
    """The two (first name, surnames) of a line "Ana García / Luis Pérez".

    Raises Invalid (param ``text``; ``reason`` says what is wrong, each reason its own code:
    "pair_line" for a line without a "/", "pair_line_<reason>" otherwise) when it is not
    exactly two names separated by "/" or names the same player twice.
    """
    line = " ".join(str(text).split())
    sides = [" ".join(side.split()) for side in line.split("/")]
    if not line:
        raise Invalid(
            'The line is empty; write a pair as e.g. "Ana García / Luis Pérez".',
            code="pair_line_empty",
            text=line,
            reason="empty",
        )
    if len(sides) == 1:
        raise Invalid(
            '"{text}" has no "/" between the two players; write it as e.g. '
            '"Ana García / Luis Pérez".',
            code="pair_line",
            text=line,
            reason="no_slash",
        )
    named = [side for side in sides if side]
    if len(named) > 2:
        raise Invalid(
            '"{text}" names {count} players; a pair is exactly two names separated by one "/", '
            'e.g. "Ana García / Luis Pérez".',
            code="pair_line_too_many_names",
            text=line,
            count=len(named),
            reason="too_many_names",
        )
    if len(sides) > 2:
        raise Invalid(
            '"{text}" has more than one "/"; separate the two players with one, e.g. '
            '"Ana García / Luis Pérez".',
            code="pair_line_extra_slash",
            text=line,
            reason="extra_slash",
        )
    if not all(sides):
        raise Invalid(
            '"{text}" is missing a name on one side of the "/"; write both players, e.g. '
            '"Ana García / Luis Pérez".',
            code="pair_line_missing_name",
            text=line,
            reason="missing_name",
        )
    first_max = Player._meta.get_field("first_name").max_length
    last_max = Player._meta.get_field("last_name").max_length
    names = []
    for side in sides:
        first, _, last = side.partition(" ")
        if len(first) > first_max or len(last) > last_max:
            raise Invalid(
                '"{text}": the name "{name}" is too long (at most {first_max} characters for '
                "the first name and {last_max} for the surnames).",
                code="pair_line_too_long",
                text=line,
                name=side[:40],
                first_max=first_max,
                last_max=last_max,
                reason="too_long",
            )
        names.append((first, last))
    if name_key(sides[0]) == name_key(sides[1]):
        raise Invalid(
            '"{text}" names the same player twice; a pair needs two different players.',
            code="pair_line_same_player",
            text=line,
            reason="same_player",
        )
    return names


def name_key(name: str) -> str:
    """A full name without case, accents or extra spaces: "Ángel  MUÑOZ" → "angel munoz"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def licence_key(licence: str) -> str:
    """A licence number without case or spaces: " na-0012 " → "NA-0012"."""
    return "".join(str(licence).split()).upper()


def _pair_of(club: Club, one_id: int, two_id: int) -> Pair | None:
    return (
        Pair.objects.filter(club=club)
        .filter(
            Q(player_one_id=one_id, player_two_id=two_id)
            | Q(player_one_id=two_id, player_two_id=one_id)
        )
        .order_by("pk")
        .first()
    )


# --- Many players and pairs at once -----------------------------------------------------------


@dataclasses.dataclass(eq=False)
class RosterPerson:
    """A person of a list as the peña knows them: ``player`` is its row (saved, or one
    ``Roster.save`` will create); ``match`` says how it was found: "licence", "name" or "new";
    ``licence_added``: an existing player who had no licence gets the one the list gives."""

    player: Player
    match: str
    licence_added: bool = False


@dataclasses.dataclass(eq=False)
class RosterPair:
    """A pair of a list: ``pair`` is its row (saved, or one ``Roster.save`` will create);
    ``state`` is "existing", "new" or "renamed" (an existing pair given another name, which
    was ``old_name``)."""

    pair: Pair
    state: str
    old_name: str = ""


class Roster:
    """A peña's players, read once, so that a whole list of names (a pasted list, an imported
    file) finds each person and pair, or plans it, without a query per line; ``save`` then
    writes what is new in a fixed number of queries (a preview never calls it).

    A person is found by licence first (a player of the peña with the same licence, whatever
    the name), then by full name ignoring case, accents and extra spaces (the oldest player of
    the name; with a licence, the oldest of the name who has none yet, who then gets it);
    otherwise a player is planned, who will belong to the peña. Players of other peñas are
    never matched: an organizer sees only their own peña's players. The same person named on
    two lines is the same row (the caller refuses the second line).

    A pair is the oldest pair of the same two players, in either order, representing the same
    peña (``pairs_load`` reads them for the whole list in one query); otherwise it is planned.
    """

    def __init__(self, club: Club, rows: list[Player]) -> None:
        self.club = club
        self._by_licence: dict[str, Player] = {}
        self._by_name: dict[str, list[Player]] = {}
        for player in rows:  # oldest first
            if player.licence:
                self._by_licence.setdefault(licence_key(player.licence), player)
            self._by_name.setdefault(name_key(str(player)), []).append(player)
        self._pairs: dict[tuple[int | None, frozenset[int]], Pair] = {}
        self._planned_pairs: dict[tuple[int | None, int, int], RosterPair] = {}
        self.new_players: list[Player] = []
        self.licensed: list[Player] = []
        self.new_pairs: list[Pair] = []
        self.renamed: list[RosterPair] = []

    # --- People

    def person(self, first: str, last: str, licence: str = "") -> RosterPerson:
        """The person of this name (and licence, "" when the list gives none)."""
        key = name_key(f"{first} {last}")
        wanted = licence_key(licence)
        if wanted:
            player = self._by_licence.get(wanted)
            if player is not None:
                return RosterPerson(player, "licence" if player.pk else "new")
            for player in self._by_name.get(key, []):
                if not player.licence:
                    player.licence = licence
                    self._by_licence[wanted] = player
                    if player.pk is None:
                        return RosterPerson(player, "new")
                    self.licensed.append(player)
                    return RosterPerson(player, "name", licence_added=True)
        else:
            namesakes = self._by_name.get(key)
            if namesakes:
                player = namesakes[0]
                return RosterPerson(player, "name" if player.pk else "new")
        player = Player(first_name=first, last_name=last, licence=licence)
        self.new_players.append(player)
        self._by_name.setdefault(key, []).append(player)
        if wanted:
            self._by_licence[wanted] = player
        return RosterPerson(player, "new")

    # --- Pairs

    def pairs_load(self, couples: list[tuple[Player, Player, Club | None]]) -> None:
        """Read the existing pairs of these couples (two players and the peña the pair
        represents), one query for all; couples with a player still to create have none."""
        ids = {p.pk for one, two, _ in couples for p in (one, two) if p.pk is not None}
        clubs = {club.pk for _, _, club in couples if club is not None}
        if not ids or not clubs:
            return
        rows = (
            Pair.objects.filter(club_id__in=clubs, player_one_id__in=ids, player_two_id__in=ids)
            .order_by("pk")
            .only("pk", "name", "club_id", "player_one_id", "player_two_id")
        )
        for pair in rows:
            key = (pair.club_id, frozenset((pair.player_one_id, pair.player_two_id)))
            self._pairs.setdefault(key, pair)

    def pairs_known(self, pairs: list[Pair]) -> None:
        """Take these pairs (rows already read) as the pairs of their two players and peña, so
        that ``pair`` finds each of them rather than the oldest of its kind or a new one."""
        for pair in pairs:
            key = (pair.club_id, frozenset((pair.player_one_id, pair.player_two_id)))
            self._pairs[key] = pair

    def pair(self, one: Player, two: Player, *, club: Club | None, name: str = "") -> RosterPair:
        """The pair of ``one`` and ``two`` representing ``club``, its name set to ``name`` when
        one is given; ``pairs_load`` has read the existing pairs of these two."""
        club_id = club.pk if club is not None else None
        if one.pk is not None and two.pk is not None:
            pair = self._pairs.get((club_id, frozenset((one.pk, two.pk))))
            if pair is not None:
                # The rows the list already holds, so that showing the pair reads nothing more.
                if pair.player_one_id == one.pk:
                    pair.player_one, pair.player_two = one, two
                else:
                    pair.player_one, pair.player_two = two, one
                pair.club = club
                if name and pair.name != name:
                    found = RosterPair(pair, "renamed", old_name=pair.name)
                    pair.name = name
                    self.renamed.append(found)
                    return found
                return RosterPair(pair, "existing")
        planned = self._planned_pairs.get((club_id, *sorted((id(one), id(two)))))
        if planned is not None:
            return planned
        pair = Pair(player_one=one, player_two=two, club=club, name=name)
        self.new_pairs.append(pair)
        found = RosterPair(pair, "new")
        self._planned_pairs[(club_id, *sorted((id(one), id(two))))] = found
        return found

    def team(self, one: Player, two: Player, *, club: Club | None, name: str) -> Pair:
        """A new team row of its first two players (a trio's: it is named by all three, or by
        its team name), created by ``save``."""
        pair = Pair(player_one=one, player_two=two, club=club, name=name)
        self.new_pairs.append(pair)
        return pair

    # --- Writing

    def save(self) -> None:
        """Create the planned players (in the peña) and pairs, give the matched players their
        licences and the renamed pairs their names: at most five queries, whatever the list's
        length. The caller holds the transaction ``roster_load`` started in."""
        if self.new_players:
            Player.objects.bulk_create(self.new_players)
            link = Player.clubs.through
            link.objects.bulk_create(
                link(player_id=player.pk, club_id=self.club.pk) for player in self.new_players
            )
        if self.licensed:
            Player.objects.bulk_update(self.licensed, ["licence"])
        if self.new_pairs:
            Pair.objects.bulk_create(self.new_pairs)
        if self.renamed:
            Pair.objects.bulk_update([found.pair for found in self.renamed], ["name"])


def roster_load(*, club: Club) -> Roster:
    """The peña's roster, its row locked until the caller's transaction ends so that two lists
    of the same peña never create the same player twice: two queries. The caller holds a
    transaction and has checked the actor's right (a tournament's organizer)."""
    club = _lock_club(club)
    rows = list(
        Player.objects.filter(clubs=club)
        .order_by("pk")
        .only("pk", "first_name", "last_name", "licence")
    )
    return Roster(club, rows)


# --- Rule-set presets -------------------------------------------------------------------------


def _preset_name(value: Any) -> str:
    max_length = RuleSetPreset._meta.get_field("name").max_length
    return _text(
        value, field="name", label=Term("The preset's name"), max_length=max_length, required=True
    )


def _preset_apply(preset: RuleSetPreset, rules: Mapping[str, Any]) -> None:
    """Set the rule values and let the engine judge them (scoring.RuleSetError is a 400)."""
    _only_known(rules, RuleSetPreset.RULE_FIELDS)
    for field, value in rules.items():
        setattr(preset, field, value)
    checked = preset.rules()
    preset.real_31 = checked.real_31.value  # stored as the engine spells it


def _preset_name_free_or_conflict(club: Club, name: str, *, exclude_pk: int | None = None) -> None:
    clash = (
        RuleSetPreset.objects.filter(Q(club=None) | Q(club=club), name__iexact=name)
        .exclude(pk=exclude_pk)
        .first()
    )
    if clash is not None and clash.club_id is None:
        raise Conflict(
            "'{name}' is already a built-in preset; choose another name.",
            code="preset_name_builtin",
            name=clash.name,
        )
    if clash is not None:
        raise _preset_name_taken(club, clash.name)


def _preset_name_taken(club: Club, name: str) -> Conflict:
    return Conflict(
        "'{name}' is already a preset of {club_name}; choose another name.",
        code="preset_name_taken",
        name=name,
        club_name=club.name,
    )


def preset_create(
    *, user: User, club: Club, name: str, rules: Mapping[str, Any] | None = None
) -> RuleSetPreset:
    """A peña's own named rule set; unspecified values take the engine's defaults."""
    roles.require_organizer(user, club)
    name = _preset_name(name)
    preset = RuleSetPreset(club=club, name=name)
    _preset_apply(preset, rules or {})
    with transaction.atomic():
        club = _lock_club(club)
        _preset_name_free_or_conflict(club, name)
        try:
            with transaction.atomic():
                preset.save()
        except IntegrityError:
            raise _preset_name_taken(club, name) from None
    return preset


def preset_update(
    *, user: User, club: Club, preset_id: int, data: Mapping[str, Any]
) -> RuleSetPreset:
    """Rename a peña's preset or change its values; built-in presets cannot change."""
    _only_known(data, ("name", *RuleSetPreset.RULE_FIELDS))
    roles.require_organizer(user, club)
    with transaction.atomic():
        club = _lock_club(club)
        preset = _preset_of_club_locked(club, preset_id)
        _preset_apply(preset, {field: value for field, value in data.items() if field != "name"})
        if "name" in data:
            preset.name = _preset_name(data["name"])
            _preset_name_free_or_conflict(club, preset.name, exclude_pk=preset.pk)
        preset.save()
    return preset


def preset_delete(*, user: User, club: Club, preset_id: int) -> None:
    """Delete a peña's preset (a peña using it as default falls back to none)."""
    roles.require_organizer(user, club)
    with transaction.atomic():
        _preset_of_club_locked(club, preset_id).delete()


def _preset_of_club_locked(club: Club, preset_id: int) -> RuleSetPreset:
    preset = (
        RuleSetPreset.objects.select_for_update()
        .filter(Q(club=None) | Q(club=club), pk=preset_id)
        .first()
    )
    if preset is None:
        raise NotFound(
            "Preset {preset_id} is not a preset of {club_name}.",
            code="preset_not_found",
            preset_id=preset_id,
            club_name=club.name,
        )
    if preset.club_id is None:
        raise Forbidden(
            "'{preset_name}' is a built-in preset and cannot be changed or deleted; "
            "create a preset of your peña with the values you want instead.",
            code="builtin_preset",
            preset_id=preset.pk,
            preset_name=preset.name,
        )
    return preset
