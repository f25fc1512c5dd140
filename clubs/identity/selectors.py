"""Reads of the identity: who is probably the same person, and the merges of a peña.

Responsible for: ``player_duplicates`` (for a peña's organizers: players of other peñas — or of
no peña — who are probably one of the peña's players: the same licence, the same e-mail, or the
same name ignoring accents, case and spacing; and two of the peña's own players with the same
licence or e-mail), in five queries whatever the number of players; a peña's merges, newest
first; one merge from an id in a URL; any player from an id in a request's body (the merge's
``other``: the service decides who may merge it); the merges a floor's task left pending.

Must not: write, or show a contact of another peña's player (a suggestion names the person,
their peñas and why; never their e-mail or phone).

Terms: fusión (merge), jugador (player), licencia (federation licence number), peña.
"""

from __future__ import annotations

import dataclasses

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, Func, Q, QuerySet, Value
from django.db.models.functions import Concat, Lower, Replace, Trim, Upper

from clubs import roles
from clubs.models import Club, Player, PlayerMerge
from config.errors import NotFound

User = AbstractBaseUser | AnonymousUser

#: the letters a name is compared without (the site's languages: Spanish, Basque, French)
_PLAIN = {
    **dict.fromkeys("áàâäãÁÀÂÄÃ", "a"),
    **dict.fromkeys("éèêëÉÈÊË", "e"),
    **dict.fromkeys("íìîïÍÌÎÏ", "i"),
    **dict.fromkeys("óòôöõÓÒÔÖÕ", "o"),
    **dict.fromkeys("úùûüÚÙÛÜ", "u"),
    **dict.fromkeys("ñÑ", "n"),
    **dict.fromkeys("çÇ", "c"),
    **dict.fromkeys("ÿŸ", "y"),
}


def name_key_expression() -> Func:
    """A player's full name without accents, case or extra spaces, computed by the database
    ("Ángel  MUÑOZ" → "angel munoz", as clubs.services.name_key does for the letters of the
    site's languages). The accents go before Lower: SQLite lowers ASCII letters only."""
    expression = Concat(F("first_name"), Value(" "), F("last_name"))
    for letter, plain in _PLAIN.items():
        expression = Replace(expression, Value(letter), Value(plain))
    for _ in range(2):  # a run of up to four spaces becomes one
        expression = Replace(expression, Value("  "), Value(" "))
    return Trim(Lower(expression))


def licence_key_expression() -> Func:
    """A licence number without case or spaces, as clubs.services.licence_key."""
    return Upper(Replace(F("licence"), Value(" "), Value("")))


@dataclasses.dataclass(frozen=True)
class Suggestion:
    """``player`` (of the peña) and ``candidate`` are probably one person: ``reasons`` says
    why, strongest first ("licence", "email", "name"); ``candidate_clubs`` are the candidate's
    peñas; ``may_merge``: whether the reader may make them one person (clubs.roles)."""

    player: Player
    candidate: Player
    reasons: tuple[str, ...]
    candidate_clubs: tuple[Club, ...]
    may_merge: bool


_STRENGTH = {PlayerMerge.Reason.LICENCE: 0, PlayerMerge.Reason.EMAIL: 1, PlayerMerge.Reason.NAME: 2}


def player_duplicates(*, user: User, club: Club) -> list[Suggestion]:
    """The players probably the same person as one of the peña's, for its organizers: five
    queries. A name alone suggests a player of another peña (or of none); a licence or an
    e-mail also two of the peña's own rows. Merged rows are never suggested."""
    roles.require_organizer(user, club)
    keys = {
        "name_key": name_key_expression(),
        "licence_key": licence_key_expression(),
        "email_key": Lower(F("email")),
    }
    mine = list(Player.objects.filter(clubs=club, merged_into=None).annotate(**keys).order_by("pk"))
    licences = {p.licence_key for p in mine if p.licence_key}
    emails = {p.email_key for p in mine if p.email_key}
    names = {p.name_key for p in mine if p.name_key}
    candidates = list(
        Player.objects.filter(merged_into=None)
        .annotate(**keys)
        .filter(Q(licence_key__in=licences) | Q(email_key__in=emails) | Q(name_key__in=names))
        .order_by("pk")
    )
    candidate_of = {p.pk: p for p in candidates}
    clubs_of: dict[int, list[Club]] = {p.pk: [] for p in candidates}
    links = Player.clubs.through.objects.filter(player_id__in=list(clubs_of)).select_related("club")
    for link in links.order_by("club__name", "club_id"):
        clubs_of[link.player_id].append(link.club)
    ours = {pk for pk, clubs in clubs_of.items() if any(c.pk == club.pk for c in clubs)}
    organized = set(roles.clubs_organized_by(user).values_list("pk", flat=True))
    by = {"licence_key": {}, "email_key": {}, "name_key": {}}
    for candidate in candidates:
        for key, index in by.items():
            value = getattr(candidate, key)
            if value:
                index.setdefault(value, []).append(candidate)
    found: dict[frozenset[int], Suggestion] = {}
    for player in mine:
        reasons: dict[int, list[str]] = {}
        for key, reason in (
            ("licence_key", PlayerMerge.Reason.LICENCE),
            ("email_key", PlayerMerge.Reason.EMAIL),
            ("name_key", PlayerMerge.Reason.NAME),
        ):
            value = getattr(player, key)
            for candidate in by[key].get(value, []) if value else []:
                if candidate.pk == player.pk or (
                    reason == PlayerMerge.Reason.NAME and candidate.pk in ours
                ):
                    continue
                reasons.setdefault(candidate.pk, []).append(reason)
        for candidate_id, why in reasons.items():
            candidate = candidate_of[candidate_id]
            pair = frozenset((player.pk, candidate.pk))
            if pair in found:
                continue
            theirs = clubs_of[candidate.pk]
            sees = user.is_superuser or (
                bool({c.pk for c in theirs} & organized) if theirs else bool(organized)
            )
            strong = bool({PlayerMerge.Reason.LICENCE, PlayerMerge.Reason.EMAIL} & set(why))
            found[pair] = Suggestion(
                player=player,
                candidate=candidate,
                reasons=tuple(sorted(why, key=_STRENGTH.get)),
                candidate_clubs=tuple(theirs),
                may_merge=sees or strong,
            )
    return sorted(
        found.values(),
        key=lambda s: (
            _STRENGTH[s.reasons[0]],
            s.player.last_name.casefold(),
            s.player.first_name.casefold(),
            s.player.pk,
            s.candidate.pk,
        ),
    )


@dataclasses.dataclass(frozen=True)
class MergePreview:
    """Two rows as the organizer sees them before making them one person: ``keep`` (a player
    of the peña) stays; ``other`` is merged into it; each with their peñas; ``reasons``: what
    they share ("licence", "email", "name"), strongest first, none when nothing does."""

    keep: Player
    other: Player
    keep_clubs: tuple[Club, ...]
    other_clubs: tuple[Club, ...]
    reasons: tuple[str, ...]


def player_merge_preview(*, user: User, club: Club, keep_id: int, other_id: int) -> MergePreview:
    """``keep`` must be a player of the peña (organizers only); ``other`` a row the reader
    answers for (an organizer of one of its peñas; of any, for a row of no peña) or one that
    shares a licence, an e-mail or a name with ``keep`` (a suggestion): anybody else's row is
    NotFound, so that nobody reads another peña's players by trying ids. Four queries."""
    roles.require_organizer(user, club)
    keys = {
        "name_key": name_key_expression(),
        "licence_key": licence_key_expression(),
        "email_key": Lower(F("email")),
    }
    rows = {
        p.pk: p
        for p in Player.objects.filter(pk__in=(keep_id, other_id))
        .select_related("merged_into")
        .annotate(**keys)
    }
    keep, other = rows.get(keep_id), rows.get(other_id)
    clubs_of: dict[int, list[Club]] = {pk: [] for pk in rows}
    links = Player.clubs.through.objects.filter(player_id__in=list(rows)).select_related("club")
    for link in links.order_by("club__name", "club_id"):
        clubs_of[link.player_id].append(link.club)
    if keep is None or club not in clubs_of[keep_id]:
        raise NotFound(
            "Player {player_id} is not a player of {club_name}.",
            code="player_not_found",
            player_id=keep_id,
            club_name=club.name,
        )
    reasons = tuple(
        reason
        for key, reason in (
            ("licence_key", PlayerMerge.Reason.LICENCE),
            ("email_key", PlayerMerge.Reason.EMAIL),
            ("name_key", PlayerMerge.Reason.NAME),
        )
        if other is not None and getattr(keep, key) and getattr(keep, key) == getattr(other, key)
    )
    if other is None or not (
        reasons or roles.organizes_players_of(user, [c.pk for c in clubs_of[other_id]])
    ):
        raise NotFound("There is no player {player_id}.", code="player_unknown", player_id=other_id)
    return MergePreview(
        keep=keep,
        other=other,
        keep_clubs=tuple(clubs_of[keep_id]),
        other_clubs=tuple(clubs_of[other_id]),
        reasons=reasons,
    )


def player_merges_for_club(*, user: User, club: Club) -> QuerySet[PlayerMerge]:
    """The merges of the peña's players (either row played for it when merged), newest first,
    for its organizers."""
    roles.require_organizer(user, club)
    return (
        PlayerMerge.objects.filter(clubs=club)
        .select_related("keep", "other", "actor", "undone_by")
        .order_by("-created_at", "-pk")
    )


def player_merge_get(*, user: User, club: Club, merge_id: int) -> PlayerMerge:
    merge = player_merges_for_club(user=user, club=club).filter(pk=merge_id).first()
    if merge is None:
        raise NotFound(
            "{club_name} has no merge {merge_id}.",
            code="player_merge_not_in_club",
            merge_id=merge_id,
            club_name=club.name,
        )
    return merge


def player_lookup(*, player_id: int) -> Player:
    """Any player row, from an id a request's body names (whose right to act on it the
    service checks)."""
    player = Player.objects.filter(pk=player_id).select_related("merged_into").first()
    if player is None:
        raise NotFound(
            "There is no player {player_id}.", code="player_unknown", player_id=player_id
        )
    return player


def player_now(*, player_id: int) -> Player | None:
    """The row a player row stands for now: itself, or the row it was merged into (through a
    merge of a merge too); None when there is no such row. A query per merge followed."""
    player = Player.objects.filter(pk=player_id).first()
    seen: set[int] = set()
    while player is not None and player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        player = Player.objects.filter(pk=player.merged_into_id).first()
    return player


def player_merges_pending(*, task: str) -> list[PlayerMerge]:
    """The merges (or undos) whose follow-up ``task`` has not said it is done: what a floor's
    beat task runs again. One query; the list is short (a lost task)."""
    return [m for m in PlayerMerge.objects.exclude(pending=[]).order_by("pk") if task in m.pending]
