"""Writes of the identity: two player rows of one person made one, and that merge undone.

Responsible for: ``player_merge`` (an organizer says two rows are the same person: everything
that pointed at ``other`` points at ``keep``; ``other`` stays, marked merged, so that the merge
can be undone), ``player_merge_undo`` (puts back exactly which rows pointed where, from what
the merge row kept) and ``player_merge_follow_up_done`` (a floor above says its follow-up of
a merge or an undo is done).

A merge, in one transaction:

1. both player rows are locked, the lower id first (two organizers merging the same rows wait
   for each other; the second finds a row merged and is refused) and read again;
2. who may (clubs.roles.require_player_merge): an organizer of a peña of each, or of either
   when both have the same licence or e-mail;
3. what cannot be one person is refused, naming both rows and why: two different licences,
   two different user accounts, partners in one pair, one row holding both (a substitute for
   the other…), and what each floor above checks (both in one tournament, opponents in a
   match, players of one league division);
4. every foreign key to ``other`` found through model meta (clubs.identity.references), but
   the rows the floors above derive themselves, moves to ``keep``. A row whose unique key would
   then hold the same person twice is a peña both played for (``other``'s link is dropped,
   and kept in the merge row to be put back) or is refused;
5. ``keep`` takes what it lacks of ``other``: the licence, the user account, and the e-mail
   and phone when the actor answers for ``other``'s peñas (nobody reads a contact of a peña
   they do not organize through a merge);
6. ``other.merged_into`` is set, the merge row (PlayerMerge) written with the moved ids, the
   dropped rows and the fields' values before, and the floors' tasks queued by name after the
   commit (the ratings re-rate what the merge reaches, the circuits rebuild their rankings,
   the tournaments their standings).

The undo takes the same locks, refuses when ``keep`` has itself been merged since (that merge
is undone first), and puts everything back the other way, the fields only where they still
hold what the merge put there.

Must not: import a floor above (their part comes through the registry of
clubs.identity.references) or re-derive what they derive (their tasks do).

Terms: fusión (merge), jugador (player), licencia (federation licence number), peña.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs import roles
from clubs.identity import references
from clubs.identity.references import Relation
from clubs.models import Pair, Player, PlayerMerge
from clubs.services import licence_key, name_key, player_merged_error
from config.errors import Conflict, Invalid, NotFound
from config.queue import enqueue_on_commit

User = AbstractBaseUser | AnonymousUser

_CHUNK = 900
#: the fields a merge fills in ``keep`` from ``other`` when ``keep``'s is blank
_CONTACT = ("email", "phone")


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i : i + _CHUNK]


def _lock_players(*ids: int) -> dict[int, Player]:
    """The player rows, locked in the order of their ids (every merge and undo locks so)."""
    rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    for pk in ids:
        if pk not in rows:
            raise NotFound("There is no player {player_id}.", code="player_unknown", player_id=pk)
    return rows


def _clubs_of(*ids: int) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {pk: set() for pk in ids}
    link = Player.clubs.through.objects.filter(player_id__in=ids)
    for player, club in link.values_list("player_id", "club_id"):
        found[player].add(club)
    return found


def match_reason(keep: Player, other: Player) -> str:
    """Why the two rows look like one person: the same licence, e-mail or name, or none."""
    if keep.licence and licence_key(keep.licence) == licence_key(other.licence):
        return PlayerMerge.Reason.LICENCE
    if keep.email and keep.email.casefold() == other.email.casefold():
        return PlayerMerge.Reason.EMAIL
    if name_key(str(keep)) == name_key(str(other)):
        return PlayerMerge.Reason.NAME
    return PlayerMerge.Reason.ORGANIZER


# --- The merge ------------------------------------------------------------------------------


def player_merge(*, actor: User, keep: Player, other: Player) -> PlayerMerge:
    """Make ``other`` and ``keep`` one person, ``keep`` being the row that stays; see the
    module's docstring. Returns the merge row (its id undoes it)."""
    _not_itself(keep, other)
    with transaction.atomic():
        rows = _lock_players(keep.pk, other.pk)
        keep, other = rows[keep.pk], rows[other.pk]
        reason, clubs, plan = _checked(actor, keep, other)
        followers = list(references.FOLLOWERS.values())
        extra = {f.name: f.merged(keep, other) for f in followers if f.merged is not None}
        moved, dropped = _move(plan, keep, other)
        filled = _fill(keep, other, contacts=roles.organizes_players_of(actor, clubs[other.pk]))
        other.merged_into = keep
        other.save(update_fields=["merged_into"])
        merge = PlayerMerge.objects.create(
            keep=keep,
            other=other,
            reason=reason,
            actor=actor if actor is not None and actor.is_authenticated else None,
            moved=moved,
            dropped=dropped,
            filled=filled,
            extra=extra,
            pending=references.follow_up_tasks(),
        )
        merge.clubs.set(sorted(clubs[keep.pk] | clubs[other.pk]))
        _queue(merge)
    return merge


def player_merge_check(*, actor: User, keep: Player, other: Player) -> str:
    """What ``player_merge`` would say, without merging: raises its error (who may, what
    cannot be one person), or returns why the rows look like one person (a PlayerMerge.Reason).
    The organizer's page asks it before offering the button."""
    _not_itself(keep, other)
    rows = {p.pk: p for p in Player.objects.filter(pk__in=(keep.pk, other.pk))}
    if keep.pk not in rows or other.pk not in rows:
        missing = other.pk if keep.pk in rows else keep.pk
        raise NotFound("There is no player {player_id}.", code="player_unknown", player_id=missing)
    reason, _, _ = _checked(actor, rows[keep.pk], rows[other.pk])
    return reason


def _not_itself(keep: Player, other: Player) -> None:
    if keep.pk == other.pk:
        raise Invalid(
            "'{player}' (player {player_id}) is one row already; choose two different players.",
            code="player_merge_itself",
            player=str(keep),
            player_id=keep.pk,
        )


def _checked(actor: User, keep: Player, other: Player) -> tuple[str, dict[int, set[int]], _Plan]:
    """Who may, and what cannot be one person (reads only): the merge's reason, each row's
    peñas and the plan of what moves."""
    for player in (keep, other):
        if player.merged_into_id is not None:
            raise player_merged_error(player)
    clubs = _clubs_of(keep.pk, other.pk)
    reason = match_reason(keep, other)
    roles.require_player_merge(
        actor,
        keep_id=keep.pk,
        other_id=other.pk,
        keep_clubs=clubs[keep.pk],
        other_clubs=clubs[other.pk],
        same_licence_or_email=reason in (PlayerMerge.Reason.LICENCE, PlayerMerge.Reason.EMAIL),
    )
    _refuse(keep, other)
    for follower in references.FOLLOWERS.values():
        if follower.check is not None:
            follower.check(keep, other)
    return reason, clubs, _plan(keep, other)


def _both(keep: Player, other: Player) -> dict:
    return {"keep": str(keep), "keep_id": keep.pk, "other": str(other), "other_id": other.pk}


def _refuse(keep: Player, other: Player) -> None:
    """What the clubs floor knows cannot be one person."""
    if keep.licence and other.licence and licence_key(keep.licence) != licence_key(other.licence):
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: their licences differ ({keep_licence} and {other_licence}).",
            code="player_merge_licences",
            **_both(keep, other),
            keep_licence=keep.licence,
            other_licence=other.licence,
        )
    if keep.user_id and other.user_id and keep.user_id != other.user_id:
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: each is the player of a different user account.",
            code="player_merge_accounts",
            **_both(keep, other),
        )
    pair = (
        Pair.objects.filter(
            Q(player_one=keep, player_two=other) | Q(player_one=other, player_two=keep)
        )
        .order_by("pk")
        .first()
    )
    if pair is not None:
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: they are partners in the pair '{pair}' (pair {pair_id}).",
            code="player_merge_partners",
            **_both(keep, other),
            pair=str(pair),
            pair_id=pair.pk,
        )


# --- Moving the references --------------------------------------------------------------------


class _Plan:
    """The rows to move, relation by relation, and the link rows to drop."""

    def __init__(self) -> None:
        self.moves: list[tuple[Relation, list[int]]] = []
        self.drops: list[tuple[Relation, list[int]]] = []


def _plan(keep: Player, other: Player) -> _Plan:
    """What moving every reference from ``other`` to ``keep`` does; refuses a row that would
    then hold the same person twice."""
    derived = references.derived_labels()
    plan = _Plan()
    relations = [r for r in references.relations() if r.label not in derived]
    _refuse_rows_holding_both(relations, keep, other)
    for relation in relations:
        manager = relation.model._default_manager
        ids = sorted(manager.filter(**{relation.field: other.pk}).values_list("pk", flat=True))
        if not ids:
            continue
        clashes = _clashes(relation, ids, to=keep.pk)
        if clashes and relation.model is Player.clubs.through:
            plan.drops.append((relation, sorted(clashes)))
            ids = [pk for pk in ids if pk not in clashes]
        elif clashes:
            raise _clash_error(relation, min(clashes), keep, other)
        if ids:
            plan.moves.append((relation, ids))
    return plan


def _refuse_rows_holding_both(relations: list[Relation], keep: Player, other: Player) -> None:
    """A row pointing at both (a substitute for the other…) would point twice at one person."""
    by_model: dict[type, list[str]] = {}
    for relation in relations:
        by_model.setdefault(relation.model, []).append(relation.field)
    for model, fields in by_model.items():
        if len(fields) < 2:
            continue
        query = Q()
        for one in fields:
            for two in fields:
                if one != two:
                    query |= Q(**{one: keep.pk, two: other.pk})
        row = model._default_manager.filter(query).order_by("pk").first()
        if row is not None:
            raise Conflict(
                "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
                "person: one row of {model} ({row_id}, '{row}') holds both.",
                code="player_merge_same_row",
                **_both(keep, other),
                model=model._meta.label_lower,
                row_id=row.pk,
                row=str(row)[:80],
            )


def _clashes(relation: Relation, ids: list[int], *, to: int) -> set[int]:
    """The rows of ``ids`` whose unique key, once they point at ``to``, some row pointing at
    ``to`` already holds."""
    manager = relation.model._default_manager
    found: set[int] = set()
    for fields, condition in relation.uniques:
        rest = [f for f in fields if f != relation.field]
        theirs = manager.filter(**{relation.field: to})
        if condition is not None:
            theirs = theirs.filter(condition)
        if not rest:
            if theirs.exists():
                found.update(ids)
            continue
        held = set(theirs.values_list(*rest))
        for group in _chunks(ids):
            mine = manager.filter(pk__in=group)
            if condition is not None:
                mine = mine.filter(condition)
            for pk, *key in mine.values_list("pk", *rest):
                if tuple(key) in held:
                    found.add(pk)
    return found


def _clash_error(relation: Relation, row_id: int, keep: Player, other: Player) -> Conflict:
    row = relation.model._default_manager.get(pk=row_id)
    owner = relation.owner_field()
    if owner is not None:  # a many-to-many's link row: name the row holding the field
        row = getattr(row, owner)
    return Conflict(
        "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one person: "
        "both are in {model} '{row}' ({row_id}), which holds a person once.",
        code="player_merge_unique",
        **_both(keep, other),
        model=row._meta.label_lower,
        row_id=row.pk,
        row=str(row)[:80],
    )


def _move(plan: _Plan, keep: Player, other: Player) -> tuple[list[dict], list[dict]]:
    dropped = []
    for relation, ids in plan.drops:
        manager = relation.model._default_manager
        for row in manager.filter(pk__in=ids).order_by("pk").values():
            row.pop("id", None)
            dropped.append({"model": relation.label, "values": row})
        manager.filter(pk__in=ids).delete()
    moved = []
    for relation, ids in plan.moves:
        for group in _chunks(ids):
            relation.model._default_manager.filter(pk__in=group).update(**{relation.field: keep.pk})
        moved.append({"model": relation.label, "field": relation.field, "ids": ids})
    return moved, dropped


def _fill(keep: Player, other: Player, *, contacts: bool) -> dict:
    """Give ``keep`` what it lacks of ``other``; returns ``keep``'s values before."""
    before: dict = {}
    fields = ("licence", *(_CONTACT if contacts else ()))
    for field in fields:
        if not getattr(keep, field) and getattr(other, field):
            before[field] = getattr(keep, field)
            setattr(keep, field, getattr(other, field))
    if other.user_id and not keep.user_id:
        before["user"] = None
        before["other_user"] = other.user_id
        user_id = other.user_id
        other.user = None
        other.save(update_fields=["user"])  # the account is one player's at a time
        keep.user_id = user_id
    changed = [f for f in before if f != "other_user"]
    if changed:
        keep.save(update_fields=changed)
    return before


def _queue(merge: PlayerMerge) -> None:
    for task in merge.pending:
        enqueue_on_commit(task, merge_id=merge.pk, version=merge.version)


# --- The undo -------------------------------------------------------------------------------


def player_merge_undo(*, actor: User, merge: PlayerMerge) -> PlayerMerge:
    """Make the two rows of ``merge`` two players again, exactly as they were: the rows the
    merge moved point at ``other`` again (those deleted since are gone), the link rows it
    dropped come back, ``keep``'s fields get back what the merge replaced (where they still
    hold what it put there), the floors above put back their part and re-derive theirs."""
    merge_id = merge.pk
    with transaction.atomic():
        merge = PlayerMerge.objects.select_for_update().filter(pk=merge_id).first()
        if merge is None:
            raise NotFound(
                "There is no merge {merge_id}.", code="player_merge_not_found", merge_id=merge_id
            )
        rows = _lock_players(merge.keep_id, merge.other_id)
        keep, other = rows[merge.keep_id], rows[merge.other_id]
        club_ids = set(merge.clubs.values_list("pk", flat=True))
        roles.require_player_merge_undo(actor, merge_id=merge.pk, club_ids=club_ids)
        if merge.undone_at is not None:
            raise Conflict(
                "Merge {merge_id} of '{other}' into '{keep}' was undone already.",
                code="player_merge_undone_already",
                merge_id=merge.pk,
                keep=str(keep),
                other=str(other),
            )
        if keep.merged_into_id is not None:
            later = PlayerMerge.objects.filter(other=keep, undone_at=None).first()
            raise Conflict(
                "'{keep}' (player {keep_id}) was made one person with '{into}' since (merge "
                "{later_id}); undo that merge first.",
                code="player_merge_undo_later",
                keep=str(keep),
                keep_id=keep.pk,
                into=str(keep.merged_into),
                later_id=later.pk if later else None,
            )
        _move_back(merge, keep, other)
        for name, follower in reversed(references.FOLLOWERS.items()):
            if follower.unmerged is not None and name in merge.extra:
                follower.unmerged(keep, other, merge.extra[name])
        _unfill(merge.filled, keep, other)
        other.merged_into = None
        other.save(update_fields=["merged_into"])
        merge.undone_at = timezone.now()
        merge.undone_by = actor if actor is not None and actor.is_authenticated else None
        merge.version += 1
        merge.pending = references.follow_up_tasks()
        merge.save(update_fields=["undone_at", "undone_by", "version", "pending"])
        _queue(merge)
    return merge


def _relation(label: str, field: str) -> Relation | None:
    for relation in references.relations():
        if relation.label == label and relation.field == field:
            return relation
    return None


def _move_back(merge: PlayerMerge, keep: Player, other: Player) -> None:
    for move in merge.moved:
        relation = _relation(move["model"], move["field"])
        if relation is None:  # a model removed since the merge: nothing of it to put back
            continue
        manager = relation.model._default_manager
        ids = sorted(
            pk
            for group in _chunks(move["ids"])
            for pk in manager.filter(pk__in=group, **{relation.field: keep.pk}).values_list(
                "pk", flat=True
            )
        )
        clashes = _clashes(relation, ids, to=other.pk) if ids else set()
        if clashes:
            raise _clash_error(relation, min(clashes), keep, other)
        for group in _chunks(ids):
            manager.filter(pk__in=group).update(**{relation.field: other.pk})
    for drop in merge.dropped:
        model = next((r.model for r in references.relations() if r.label == drop["model"]), None)
        if model is None:
            continue
        values = drop["values"]
        if not model._default_manager.filter(**values).exists():
            model._default_manager.create(**values)


def _unfill(filled: dict, keep: Player, other: Player) -> None:
    changed = []
    for field, value in filled.items():
        if field in ("user", "other_user"):
            continue
        if getattr(keep, field) == getattr(other, field):  # still what the merge put there
            setattr(keep, field, value)
            changed.append(field)
    user = filled.get("other_user")
    if user is not None and keep.user_id == user:
        keep.user = None
        changed.append("user")
    if changed:
        keep.save(update_fields=changed)
    if user is not None and keep.user_id is None and other.user_id is None:
        other.user_id = user
        other.save(update_fields=["user"])


# --- The floors' follow-ups -------------------------------------------------------------------


def player_merge_follow_up_done(*, merge_id: int, task: str, version: int) -> bool:
    """A floor's task ``task`` has re-derived what the merge (or its undo: ``version``) changed;
    returns whether it was still pending. A task of an older version leaves the newer pending."""
    with transaction.atomic():
        merge = PlayerMerge.objects.select_for_update().filter(pk=merge_id).first()
        if merge is None or merge.version != version or task not in merge.pending:
            return False
        merge.pending = [t for t in merge.pending if t != task]
        merge.save(update_fields=["pending"])
    return True
