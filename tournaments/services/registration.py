"""Writes of registration: pairs entering a tournament, the waiting list, check-in, seeds,
pinned tables, substitutes and a member changed on the day.

Responsible for: registering a pair (one by one or a pasted list, all or nothing), putting the
pairs beyond max_pairs on the waiting list in order and promoting the first waiting pair when a
place frees up while registration is open, withdrawal, check-in on the day (one pair, or every
registered pair at once) and its undo, seeds (one per pair and tournament), pinning a pair to
a table (e.g. a wheelchair user), and the substitute who plays one partida for one player of a
pair, and a player who replaces one of a pair's players on the day, before the pair plays
(``entry_member_change``). Withdrawals, seed changes, promotions, substitutions and member
changes are written to the audit trail with who and through what.

Every write locks the tournament row first (tournament_lock_for_organizer), so two desks
registering at once cannot both take the last place.

Only a tournament of pairs takes pairs here; trios and players alone register through
entrants.py (``require_entrant_kind``). Withdrawal, check-in, seeds and pins work on a trio's
Entry as on a pair's. A player enters a tournament once: a pair one of whose players is already
in another entry (by id, by a pasted name, under another peña's pair) is refused, and so is a
substitute who is in another entry. The floor above adds its own rules to every registration
path (services/eligibility.py: a championship's eligibility).

Must not: touch a withdrawn pair's matches (services/results/ decides what happens to its
future partidas), draw rounds, or read a pasted list (bulk.py reads and registers it whole).

Terms: pareja (pair), entry (a pair registered in a tournament), lista de espera (waiting list),
cabeza de serie (seed), mesa (table), suplente (substitute), partida (a Match).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Pair, Player
from clubs.services import Roster, player_merged_error
from config.errors import Conflict, Invalid, NotFound
from scoring.messages import Term
from tournaments.models import Entry, Match, Substitution, Tournament
from tournaments.selectors.registration import entries_of_players, entry_waiting_queue
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES
from tournaments.services.base import (
    MAX_TABLES,
    REGISTRATION_OPEN,
    User,
    audit_write,
    lock_open_registration,
    player_entered_error,
    require_entrant_kind,
    require_not_finished,
    tournament_lock,
    tournament_lock_for_organizer,
)
from tournaments.services.bulk import entrants_register_text
from tournaments.services.eligibility import MEMBER, SUBSTITUTE, Candidate, eligibility_require

SEED_MAX = 32767  # the column is a PositiveSmallIntegerField

#: Each status of an entry as the reader's language names it (errors show it).
ENTRY_STATUS_TERMS = {
    Entry.Status.REGISTERED: Term("registered"),
    Entry.Status.WAITING: Term("waiting"),
    Entry.Status.CHECKED_IN: Term("checked in"),
    Entry.Status.WITHDRAWN: Term("withdrawn"),
}


@dataclasses.dataclass(frozen=True)
class Withdrawal:
    entry: Entry
    #: the waiting pair that took the freed place, if registration was open and one waited
    promoted: Entry | None


# --- Register -----------------------------------------------------------------------------


def entry_register(
    *,
    tournament: Tournament,
    pair_id: int,
    actor: User,
    seed: int | None = None,
    via: str = "api",
    device: str = "",
) -> Entry:
    """Register an existing pair; it waits if the tournament is full.

    A pair that had withdrawn is registered again (at the end of the queue). Conflict if it is
    already registered or waiting, if registration is closed, or if another pair has ``seed``.
    """
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, Tournament.EntrantKind.PAIRS)
        pair = Pair.objects.select_related("player_one", "player_two").filter(pk=pair_id).first()
        if pair is None:
            raise NotFound(
                "There is no pair {pair}; create the pair first or check its number.",
                code="pair_unknown",
                pair=pair_id,
            )
        if seed is not None:
            _check_seed(tournament, seed, entry_id=None)
        active = _active_count(tournament)
        return _register(
            tournament, pair, seed=seed, active=active, actor=actor, via=via, device=device
        )


def entry_register_pasted(
    *, tournament: Tournament, text: str, actor: User, via: str = "api", device: str = ""
) -> list[Entry]:
    """Register one pair per line ("Ana García / Luis Pérez", or "Los de la Txantrea: Ana
    García / Luis Pérez" with its team name), in order; blank lines are ignored and pairs
    beyond max_pairs wait, in the order of the lines.

    All or nothing (tournaments.services.bulk): if any line is wrong (cannot be read as a pair,
    repeats an earlier line or a player of one, names a pair already registered or a player
    already in another entry), nothing is stored — not even the players and pairs the other
    lines would create — and the error names the line (every wrong line, when there are
    several).
    """
    return entrants_register_text(
        tournament=tournament,
        text=text,
        actor=actor,
        kinds=(Tournament.EntrantKind.PAIRS,),
        empty=Invalid(
            'Paste at least one pair, one per line, like "Ana García / Luis Pérez".',
            code="paste_empty",
        ),
        via=via,
        device=device,
    ).entries


def _register(
    tournament: Tournament,
    pair: Pair,
    *,
    seed: int | None,
    active: int,
    actor: User,
    via: str,
    device: str,
) -> Entry:
    """The entry for ``pair`` (new or a withdrawn one again); the caller holds the lock."""
    status = Entry.Status.REGISTERED if _has_room(tournament, active) else Entry.Status.WAITING
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, pair=pair)
        .first()
    )
    if entry is None:
        _require_not_entered(tournament, pair)
        entry = Entry(tournament=tournament, pair=pair, seed=seed, status=status)
        _save_checking_seed(entry)
        return entry
    if entry.status == Entry.Status.WAITING:
        raise Conflict(
            "{pair} is already on the waiting list in this tournament.",
            code="already_waiting",
            entry=entry.pk,
            pair=str(pair),
        )
    if entry.status != Entry.Status.WITHDRAWN:
        raise Conflict(
            "{pair} is already registered in this tournament.",
            code="already_registered",
            entry=entry.pk,
            pair=str(pair),
        )
    _require_not_entered(tournament, pair)
    old = {"status": entry.status, "withdrawn_at": _iso(entry.withdrawn_at)}
    entry.status = status
    entry.withdrawn_at = None
    entry.checked_in_at = None
    entry.registered_at = timezone.now()  # back of the queue, like any new registration
    if seed is not None:
        entry.seed = seed
    _save_checking_seed(entry)
    audit_write(
        tournament=tournament,
        action="entry_registered_again",
        actor=actor,
        via=via,
        device=device,
        old=old,
        new={"entry": entry.pk, "pair": str(pair), "status": status},
    )
    return entry


def _require_not_entered(tournament: Tournament, pair: Pair) -> None:
    """A player enters a tournament once: Conflict if a player of ``pair`` is already in
    another entry (another peña's pair of the same two, a pair pasted by name…); then the
    floor above's rules (services/eligibility.py: a championship's)."""
    players = (pair.player_one, pair.player_two)
    entered = entries_of_players(tournament=tournament, player_ids=[p.pk for p in players])
    for player in players:
        if player.pk in entered:
            raise player_entered_error(player, entered[player.pk])
    eligibility_require(
        tournament=tournament,
        candidate=Candidate(players=(pair.player_one_id, pair.player_two_id), club_id=pair.club_id),
    )


# --- Waiting list -------------------------------------------------------------------------


def entry_waiting_promote(
    *, tournament: Tournament, actor: User, via: str = "api", device: str = ""
) -> list[Entry]:
    """Move waiting pairs, first come first served, into the free places.

    The caller holds the tournament's lock (tournament_lock_for_organizer) and has checked
    that registration is open.
    """
    promoted: list[Entry] = []
    active = _active_count(tournament)
    if not _has_room(tournament, active):
        return promoted
    queue = (
        entry_waiting_queue(tournament=tournament)
        .select_related("pair__player_one", "pair__player_two")
        .select_for_update(of=("self",))
    )
    if tournament.max_pairs is not None:
        queue = queue[: tournament.max_pairs - active]
    for entry in queue:
        entry.status = Entry.Status.REGISTERED
        entry.save(update_fields=["status"])
        audit_write(
            tournament=tournament,
            action="entry_promoted",
            actor=actor,
            via=via,
            device=device,
            old={"entry": entry.pk, "status": Entry.Status.WAITING},
            new={"entry": entry.pk, "pair": str(entry.pair), "status": entry.status},
        )
        promoted.append(entry)
    return promoted


# --- Withdraw -----------------------------------------------------------------------------


def entry_withdraw(
    *,
    tournament: Tournament,
    entry_id: int,
    actor: User,
    via: str = "api",
    device: str = "",
    trusted: bool = False,
) -> Withdrawal:
    """Withdraw a pair, before or during the tournament. While registration is open, the first
    waiting pair takes its place. Its partidas are left as they are (results decide).
    ``trusted``: as base.lock_open_registration's (a championship taking back a pair that no
    longer qualifies after a correction)."""
    with transaction.atomic():
        if trusted:
            tournament = tournament_lock(tournament)
        else:
            tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{pair} has already withdrawn from the tournament.",
                code="already_withdrawn",
                entry=entry.pk,
                pair=str(entry.pair),
                withdrawn_at=_iso(entry.withdrawn_at),
            )
        old_status = entry.status
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        audit_write(
            tournament=tournament,
            action="entry_withdrawn",
            actor=actor,
            via=via,
            device=device,
            old={"entry": entry.pk, "pair": str(entry.pair), "status": old_status},
            new={
                "entry": entry.pk,
                "status": entry.status,
                "withdrawn_at": _iso(entry.withdrawn_at),
            },
        )
        promoted: list[Entry] = []
        if old_status in ACTIVE_ENTRY_STATUSES and tournament.status in REGISTRATION_OPEN:
            promoted = entry_waiting_promote(
                tournament=tournament, actor=actor, via=via, device=device
            )
    return Withdrawal(entry=entry, promoted=promoted[0] if promoted else None)


# --- Check-in -----------------------------------------------------------------------------


def entry_check_in(
    *, tournament: Tournament, entry_id: int, actor: User, via: str = "api", device: str = ""
) -> Entry:
    """Mark a pair present on the day. Checking in twice changes nothing.

    A waiting pair can check in only if there is a free place (e.g. a pair withdrew once the
    tournament was running); it then takes that place.
    """
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        if entry.status == Entry.Status.CHECKED_IN:
            return entry
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{pair} has withdrawn; register it again before checking it in.",
                code="entry_withdrawn",
                entry=entry.pk,
                pair=str(entry.pair),
            )
        if entry.status == Entry.Status.WAITING:
            if not _has_room(tournament, _active_count(tournament)):
                raise Conflict(
                    "{pair} is on the waiting list and all {most} places are taken; withdraw "
                    "a pair or raise the maximum of pairs first.",
                    code="entry_waiting",
                    entry=entry.pk,
                    pair=str(entry.pair),
                    most=tournament.max_pairs,
                )
            audit_write(
                tournament=tournament,
                action="entry_promoted",
                actor=actor,
                via=via,
                device=device,
                old={"entry": entry.pk, "status": entry.status},
                new={"entry": entry.pk, "pair": str(entry.pair), "status": Entry.Status.CHECKED_IN},
            )
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


def entry_check_in_undo(
    *, tournament: Tournament, entry_id: int, actor: User, via: str = "api", device: str = ""
) -> Entry:
    """Undo a check-in made by mistake: the pair is registered but not present. Undoing for a
    pair that is registered and not checked in changes nothing."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        if entry.status == Entry.Status.REGISTERED:
            return entry
        if entry.status != Entry.Status.CHECKED_IN:
            raise Conflict(
                "{pair} is not checked in: it is {status}.",
                code="entry_not_checked_in",
                entry=entry.pk,
                pair=str(entry.pair),
                status=ENTRY_STATUS_TERMS[entry.status],
            )
        entry.status = Entry.Status.REGISTERED
        entry.checked_in_at = None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


def entries_check_in_all(
    *, tournament: Tournament, actor: User, via: str = "api", device: str = ""
) -> list[Entry]:
    """Mark every registered pair present at once (the roll call starts from "todos
    presentes"; the absent ones are then undone one tap each). Pairs on the waiting list or
    withdrawn are left as they are; returns the pairs it checked in (none the second time)."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entries = list(
            Entry.objects.select_for_update()
            .filter(tournament=tournament, status=Entry.Status.REGISTERED)
            .order_by("id")
        )
        now = timezone.now()
        for entry in entries:
            entry.status = Entry.Status.CHECKED_IN
            entry.checked_in_at = now
        Entry.objects.bulk_update(entries, ["status", "checked_in_at"])
    return entries


# --- Seed and table -----------------------------------------------------------------------


def entry_seed_set(
    *,
    tournament: Tournament,
    entry_id: int,
    seed: int | None,
    actor: User,
    via: str = "api",
    device: str = "",
) -> Entry:
    """Give a pair a seed (1 = best), or none. Conflict naming the pair that holds it."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        if entry.seed == seed:
            return entry
        if seed is not None:
            _check_seed(tournament, seed, entry_id=entry.pk)
        old = entry.seed
        entry.seed = seed
        _save_checking_seed(entry)
        audit_write(
            tournament=tournament,
            action="entry_seed_changed",
            actor=actor,
            via=via,
            device=device,
            old={"entry": entry.pk, "pair": str(entry.pair), "seed": old},
            new={"entry": entry.pk, "pair": str(entry.pair), "seed": seed},
        )
    return entry


def entry_table_pin(
    *,
    tournament: Tournament,
    entry_id: int,
    table: int | None,
    actor: User,
    via: str = "api",
    device: str = "",
) -> Entry:
    """Pin a pair to a table for every round (e.g. the one a wheelchair reaches), or unpin it
    with ``None``. Two pairs still in the tournament cannot hold the same table."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        if table is not None:
            last = tournament.tables_available or MAX_TABLES
            if not 1 <= table <= last:
                raise Invalid(
                    "Table {table} does not exist; tables are numbered from 1 to {last}.",
                    code="table_out_of_range",
                    table=table,
                    last=last,
                )
            holder = (
                Entry.objects.filter(tournament=tournament, pinned_table=table)
                .exclude(pk=entry.pk)
                .exclude(status=Entry.Status.WITHDRAWN)
                .select_related("pair__player_one", "pair__player_two")
                .first()
            )
            if holder is not None:
                raise Conflict(
                    "Table {table} is already pinned for {pair}; unpin it first or "
                    "choose another table.",
                    code="table_pinned",
                    table=table,
                    entry=holder.pk,
                    pair=str(holder.pair),
                )
        if entry.pinned_table == table:
            return entry
        old = entry.pinned_table
        entry.pinned_table = table
        entry.save(update_fields=["pinned_table"])
        audit_write(
            tournament=tournament,
            action="entry_table_pinned",
            actor=actor,
            via=via,
            device=device,
            old={"entry": entry.pk, "pinned_table": old},
            new={"entry": entry.pk, "pinned_table": table},
        )
    return entry


# --- Substitutes --------------------------------------------------------------------------


def substitution_create(
    *,
    tournament: Tournament,
    match_id: int,
    entry_id: int,
    replaced_player_id: int,
    substitute_player_id: int,
    actor: User,
    via: str = "api",
    device: str = "",
) -> Substitution:
    """Record that ``substitute`` plays this one partida for ``replaced`` in the pair of
    ``entry``. The pair itself does not change, so its history and standings stay its own.
    One substitution per pair per partida."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        match = (
            Match.objects.select_related("round__phase")
            .filter(pk=match_id, round__phase__tournament=tournament)
            .first()
        )
        if match is None:
            raise NotFound(
                "There is no partida {match} in this tournament.",
                code="match_not_in_tournament",
                match=match_id,
            )
        entry = _lock_entry(tournament, entry_id)
        if entry.pk not in (match.entry_a_id, match.entry_b_id):
            raise Invalid(
                "{pair} does not play partida {match} (round {round}); choose a partida of theirs.",
                code="entry_not_in_match",
                match=match.pk,
                entry=entry.pk,
                pair=str(entry.pair),
                round=match.round.number,
                table=match.table_number,
            )
        pair = entry.pair
        # a trio's third player sits apart from its pair row (Entry.player_three)
        members = [pair.player_one, pair.player_two]
        if entry.player_three_id is not None:
            members.append(entry.player_three)
        member_ids = {player.pk for player in members}
        if replaced_player_id not in member_ids and len(members) == 3:
            raise Invalid(
                "Player {player} is not in the trio {pair}; the replaced player must be {one}, "
                "{two} or {three}.",
                code="replaced_not_in_trio",
                player=replaced_player_id,
                pair=str(pair),
                one=str(members[0]),
                two=str(members[1]),
                three=str(members[2]),
            )
        if replaced_player_id not in member_ids:
            raise Invalid(
                "Player {player} is not in the pair {pair}; the replaced player must be {one} "
                "or {two}.",
                code="replaced_not_in_pair",
                player=replaced_player_id,
                pair=str(pair),
                one=str(pair.player_one),
                two=str(pair.player_two),
            )
        substitute = (
            Player.objects.filter(pk=substitute_player_id).select_related("merged_into").first()
        )
        if substitute is None:
            raise NotFound(
                "There is no player {player}; add the substitute as a player first.",
                code="substitute_not_found",
                player=substitute_player_id,
            )
        if substitute.merged_into_id is not None:
            raise player_merged_error(substitute)
        if substitute.pk in member_ids:
            raise Invalid(
                "{substitute} already plays in the pair {pair}; a substitute must be someone else.",
                code="substitute_in_pair",
                player=substitute.pk,
                substitute=str(substitute),
                pair=str(pair),
            )
        opponent_id = match.entry_b_id if entry.pk == match.entry_a_id else match.entry_a_id
        if opponent_id is not None:
            other = Entry.objects.select_related("pair").get(pk=opponent_id)
            opponent = other.pair
            if substitute.pk in (
                opponent.player_one_id,
                opponent.player_two_id,
                other.player_three_id,
            ):
                raise Invalid(
                    "{substitute} plays for the other pair of this partida and cannot "
                    "substitute for its opponents.",
                    code="substitute_is_opponent",
                    player=substitute.pk,
                    substitute=str(substitute),
                )
        entered = entries_of_players(tournament=tournament, player_ids=[substitute.pk])
        if substitute.pk in entered:
            raise player_entered_error(substitute, entered[substitute.pk])
        eligibility_require(
            tournament=tournament,
            candidate=Candidate(
                players=(substitute.pk,),
                role=SUBSTITUTE,
                club_id=pair.club_id,
                entry_id=entry.pk,
                pair_players=tuple(sorted(member_ids)),
                replaced=replaced_player_id,
            ),
        )
        existing = (
            Substitution.objects.filter(match=match, entry=entry)
            .select_related("replaced", "substitute")
            .first()
        )
        if existing is not None:
            raise _substitution_exists(existing, pair)
        substitution = Substitution(
            match=match,
            entry=entry,
            replaced_id=replaced_player_id,
            substitute=substitute,
        )
        try:
            with transaction.atomic():
                substitution.save()
        except IntegrityError:  # the constraint is the backstop
            existing = Substitution.objects.select_related("replaced", "substitute").get(
                match=match, entry=entry
            )
            raise _substitution_exists(existing, pair) from None
        replaced = next(player for player in members if player.pk == replaced_player_id)
        audit_write(
            tournament=tournament,
            match_id=match.pk,
            action="substitution_recorded",
            actor=actor,
            via=via,
            device=device,
            new={
                "entry": entry.pk,
                "pair": str(pair),
                "replaced": {"id": replaced.pk, "name": str(replaced)},
                "substitute": {"id": substitute.pk, "name": str(substitute)},
            },
        )
    return substitution


# --- A member changed on the day ----------------------------------------------------------


def entry_member_change(
    *,
    tournament: Tournament,
    entry_id: int,
    replaced_player_id: int,
    player_id: int,
    actor: User,
    via: str = "api",
    device: str = "",
) -> Entry:
    """A pair changes one of its players on the day, before it plays: the entry's pair becomes
    the pair of the player who stays and ``player`` (the pair of those two for the same peña,
    or a new one), so the entry keeps its place, seed, table, check-in and drawn partidas.

    Refused once the pair has played (a partida of theirs started or has a result: a substitute
    plays one partida instead), for a player already in another entry of the tournament, and by
    the floor above's rules (services/eligibility.py: a championship allows so many changes on
    the day, and the new player must be eligible). Audited as ``entry_member_changed``."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_entrant_kind(tournament, Tournament.EntrantKind.PAIRS)
        require_not_finished(tournament)
        entry = _lock_entry(tournament, entry_id)
        pair = entry.pair
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{pair} has withdrawn; register the pair again before changing its players.",
                code="member_change_withdrawn",
                entry=entry.pk,
                pair=str(pair),
            )
        if replaced_player_id not in (pair.player_one_id, pair.player_two_id):
            raise Invalid(
                "Player {player} is not in the pair {pair}; the replaced player must be {one} "
                "or {two}.",
                code="replaced_not_in_pair",
                player=replaced_player_id,
                pair=str(pair),
                one=str(pair.player_one),
                two=str(pair.player_two),
            )
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise NotFound(
                "There is no player {player}; add them as a player first.",
                code="member_player_not_found",
                player=player_id,
            )
        if player.pk in (pair.player_one_id, pair.player_two_id):
            raise Invalid(
                "{player} already plays in the pair {pair}; choose someone else.",
                code="member_in_pair",
                player=str(player),
                player_id=player.pk,
                pair=str(pair),
            )
        played = (
            Match.objects.filter(Q(entry_a=entry) | Q(entry_b=entry))
            .exclude(kind=Match.Kind.BYE)
            .filter(~Q(status=Match.Status.PENDING) | Q(started_at__isnull=False))
            .select_related("round")
            .order_by("round__number", "pk")
            .first()
        )
        if played is not None:
            raise Conflict(
                "{pair} has already played partida {match} (round {round}); its players can no "
                "longer change: a substitute plays one partida for a player instead.",
                code="member_change_played",
                pair=str(pair),
                entry=entry.pk,
                match=played.pk,
                round=played.round.number,
            )
        entered = entries_of_players(tournament=tournament, player_ids=[player.pk])
        if player.pk in entered:
            raise player_entered_error(player, entered[player.pk])
        eligibility_require(
            tournament=tournament,
            candidate=Candidate(
                players=(player.pk,),
                role=MEMBER,
                club_id=pair.club_id,
                entry_id=entry.pk,
                pair_players=(pair.player_one_id, pair.player_two_id),
                replaced=replaced_player_id,
            ),
        )
        replaced = pair.player_one if pair.player_one_id == replaced_player_id else pair.player_two
        kept = pair.player_two if replaced is pair.player_one else pair.player_one
        one, two = (player, kept) if replaced is pair.player_one else (kept, player)
        roster = Roster(tournament.club, [])
        roster.pairs_load([(one, two, pair.club)])
        found = roster.pair(one, two, club=pair.club)
        if found.pair.pk is not None:
            other = Entry.objects.filter(tournament=tournament, pair=found.pair).first()
            if other is not None:
                raise Conflict(
                    "{pair} already has an entry in this tournament ({status}); register that "
                    "pair again instead of changing this one's players.",
                    code="member_pair_entered",
                    pair=str(found.pair),
                    entry=other.pk,
                    status=ENTRY_STATUS_TERMS[other.status],
                )
        roster.save()
        entry.pair = found.pair
        entry.save(update_fields=["pair"])
        audit_write(
            tournament=tournament,
            action="entry_member_changed",
            actor=actor,
            via=via,
            device=device,
            old={"entry": entry.pk, "pair": pair.pk, "name": str(pair)},
            new={
                "entry": entry.pk,
                "pair": found.pair.pk,
                "name": str(found.pair),
                "replaced": {"id": replaced.pk, "name": str(replaced)},
                "player": {"id": player.pk, "name": str(player)},
            },
        )
    return entry


def _substitution_exists(existing: Substitution, pair: Pair) -> Conflict:
    return Conflict(
        "{pair} already has a substitute in this partida: {substitute} for {replaced}. A pair "
        "can have one substitute per partida.",
        code="substitution_exists",
        substitution=existing.pk,
        pair=str(pair),
        substitute=str(existing.substitute),
        replaced=str(existing.replaced),
    )


# --- Helpers ------------------------------------------------------------------------------


def _lock_entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("pair__player_one", "pair__player_two")
        .filter(pk=entry_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise NotFound(
            "There is no registered pair {entry} in {tournament_name}.",
            code="entry_not_found",
            entry=entry_id,
            tournament_name=tournament.name,
        )
    return entry


def _active_count(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, status__in=ACTIVE_ENTRY_STATUSES).count()


def _has_room(tournament: Tournament, active: int) -> bool:
    return tournament.max_pairs is None or active < tournament.max_pairs


def _check_seed(tournament: Tournament, seed: int, *, entry_id: int | None) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= SEED_MAX:
        raise Invalid(
            "A seed is a whole number from 1 (the best pair) to {most}, not '{seed}'.",
            code="seed_range",
            seed=seed if isinstance(seed, int) else str(seed)[:40],
            most=SEED_MAX,
        )
    holder = (
        Entry.objects.filter(tournament=tournament, seed=seed)
        .exclude(pk=entry_id)
        .select_related("pair__player_one", "pair__player_two")
        .first()
    )
    if holder is not None:
        raise _seed_taken(holder, seed)


def _seed_taken(holder: Entry, seed: int) -> Conflict:
    if holder.status == Entry.Status.WITHDRAWN:
        return Conflict(
            "Seed {seed} is already held by {pair} (withdrawn); change or clear that pair's "
            "seed first, or choose another seed.",
            code="seed_taken_withdrawn",
            seed=seed,
            entry=holder.pk,
            pair=str(holder.pair),
        )
    return Conflict(
        "Seed {seed} is already held by {pair}; change or clear that pair's seed first, or "
        "choose another seed.",
        code="seed_taken",
        seed=seed,
        entry=holder.pk,
        pair=str(holder.pair),
    )


def _save_checking_seed(entry: Entry) -> None:
    # The unique constraint is the backstop; the tournament lock makes a clash here unlikely.
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        holder = (
            Entry.objects.filter(tournament_id=entry.tournament_id, seed=entry.seed)
            .exclude(pk=entry.pk)
            .select_related("pair__player_one", "pair__player_two")
            .first()
        )
        if entry.seed is not None and holder is not None:
            raise _seed_taken(holder, entry.seed) from None
        raise


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None
