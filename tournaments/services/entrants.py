"""Writes of registration for the entrants that are not pairs: trios and players alone.

Responsible for: registering a trio (three players, by id or as a pasted line "Ana García /
Luis Pérez / Eva Ruiz"), registering a player alone in an individual or Mus francés tournament
(by id or one name per pasted line), their withdrawal and check-in, and refusing an entrant of
the wrong kind for the tournament (``require_entrant_kind``, which registration.py asks too).
Pasted lists are all or nothing, like the pairs' (registration.py).

A trio is an Entry like a pair's, so the draw, the matches and the result flow are the pairs':
its ``pair`` is a team row (clubs.Pair) of its first two players named by all three, and its
``player_three`` the third. Nobody may be in two trios of one tournament. A player alone is an
IndividualEntry; an individual tournament has no waiting list (``max_pairs`` counts pairs and
trios only).

Must not: draw (draw_manager makes the round's partnerships and tables), or touch matches.

Terms: trío (trio), jugador inscrito (a player alone, IndividualEntry), pareja, mus francés.
"""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Club, Pair, Player
from config.errors import Conflict, DomainError, Invalid, NotFound
from scoring.messages import Term
from tournaments.models import Entry, IndividualEntry, Tournament
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES
from tournaments.services.base import (
    REGISTRATION_OPEN,
    STATUS_TERMS,
    User,
    audit_write,
    tournament_lock_for_organizer,
)

#: Each entrant kind as the reader's language names it (errors show it).
KIND_TERMS = {
    Tournament.EntrantKind.PAIRS: Term("pairs"),
    Tournament.EntrantKind.TRIOS: Term("trios"),
    Tournament.EntrantKind.INDIVIDUALS: Term("individual players"),
    Tournament.EntrantKind.FRANCES: Term("Mus francés players"),
}
ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)
MAX_PASTED_LINES = 1000


def require_entrant_kind(tournament: Tournament, *kinds: str) -> None:
    """Invalid unless the tournament's entrants are of one of ``kinds``."""
    if tournament.entrant_kind not in kinds:
        raise Invalid(
            "{tournament_name} is a tournament of {kind}; register its entrants as such.",
            code="entrant_kind_mismatch",
            tournament_name=tournament.name,
            kind=KIND_TERMS[tournament.entrant_kind],
        )


def require_registration_open(tournament: Tournament) -> None:
    if tournament.status not in REGISTRATION_OPEN:
        raise Conflict(
            "Registration for {tournament_name} is closed (the tournament is {status}); pairs "
            "can only be added before it starts.",
            code="registration_closed",
            status=STATUS_TERMS[tournament.status],
            tournament_name=tournament.name,
        )


def require_not_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(
            "{tournament_name} has finished; its registrations can no longer change.",
            code="entries_frozen",
            tournament_name=tournament.name,
        )


def lock_open_registration(tournament: Tournament, actor: User, *kinds: str) -> Tournament:
    """The tournament locked for its organizer, once its entrants are of one of ``kinds`` and
    its registration is open; every registration starts so. The caller holds a transaction."""
    tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
    require_entrant_kind(tournament, *kinds)
    require_registration_open(tournament)
    return tournament


def _require_players(player_ids: list[int]) -> None:
    """NotFound naming the first of ``player_ids`` that is no player."""
    found = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    for pk in player_ids:
        if pk not in found:
            raise NotFound(
                "There is no player {player}; check the number.",
                code="entrant_player_unknown",
                player=pk,
            )


# --- Names ----------------------------------------------------------------------------------


def _name_key(name: str) -> str:
    """A full name without case, accents or extra spaces (as clubs.services compares them)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _split_name(name: str) -> tuple[str, str]:
    first, _, last = " ".join(name.split()).partition(" ")
    first_max = Player._meta.get_field("first_name").max_length
    last_max = Player._meta.get_field("last_name").max_length
    if len(first) > first_max or len(last) > last_max:
        raise Invalid(
            'The name "{name}" is too long (at most {first_max} characters for the first name '
            "and {last_max} for the surnames).",
            code="player_name_too_long",
            name=name[:40],
            first_max=first_max,
            last_max=last_max,
        )
    return first, last


def _players_from_names(club: Club, names: list[str]) -> list[int]:
    """The peña's players of these full names (reused ignoring case and accents, the oldest if
    two share one), created in the peña when new. The caller holds a transaction."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    existing: dict[str, int] = {}
    rows = Player.objects.filter(clubs=club).order_by("pk")
    for pk, first, last in rows.values_list("pk", "first_name", "last_name"):
        existing.setdefault(_name_key(f"{first} {last}"), pk)
    ids = []
    for name in names:
        first, last = _split_name(name)
        key = _name_key(name)
        if key not in existing:
            player = Player.objects.create(first_name=first, last_name=last)
            player.clubs.add(club)
            existing[key] = player.pk
        ids.append(existing[key])
    return ids


def pasted_lines(text: str, *, empty: Invalid | None = None) -> list[tuple[int, str]]:
    """The non-blank lines of a pasted list, numbered from 1, their spaces folded; ``empty``
    (or a generic Invalid) when there is none, Invalid when the list is too long."""
    lines = str(text).splitlines()
    numbered = [(n, " ".join(line.split())) for n, line in enumerate(lines, start=1)]
    numbered = [(n, line) for n, line in numbered if line]
    if not numbered:
        raise empty or Invalid(
            "Paste at least one entrant, one per line.",
            code="paste_empty_entrants",
        )
    if len(lines) > MAX_PASTED_LINES:
        raise Invalid(
            "The list has {lines} lines; paste at most {most} at a time.",
            code="paste_too_long",
            lines=len(lines),
            most=MAX_PASTED_LINES,
        )
    return numbered


def register_lines(numbered, register) -> list:
    """``register(line)`` for each line inside one transaction; the first error names its line
    and rolls every line back."""
    done = []
    for number, line in numbered:
        try:
            done.append(register(line))
        except DomainError as error:
            error.add_context(
                "Line {line}: {error} Nothing was registered; fix the line and paste the "
                "list again.",
                line=number,
            )
            raise
    return done


# --- Trios ----------------------------------------------------------------------------------


def trio_names(line: str) -> list[str]:
    """The three names of a line "Ana García / Luis Pérez / Eva Ruiz"; Invalid otherwise."""
    names = [" ".join(side.split()) for side in line.split("/")]
    if len(names) != 3 or not all(names):
        count = len([n for n in names if n])
        raise Invalid(
            '"{text}" names {count} players; a trio is three players separated by "/", e.g. '
            '"Ana García / Luis Pérez / Eva Ruiz".',
            code="trio_line",
            text=line[:120],
            count=count,
        )
    return names


def trio_register(
    *,
    tournament: Tournament,
    player_ids: list[int],
    actor: User,
    via: str = "api",
    device: str = "",
) -> Entry:
    """Register three existing players as a trio."""
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, Tournament.EntrantKind.TRIOS)
        if len(player_ids) != 3:
            raise Invalid(
                "A trio has three players; {count} were given.",
                code="trio_size",
                count=len(player_ids),
            )
        _require_players(player_ids)
        return _trio(tournament, player_ids, actor=actor, via=via, device=device)


def trio_register_pasted(
    *, tournament: Tournament, text: str, actor: User, via: str = "api", device: str = ""
) -> list[Entry]:
    """One trio per line ("Ana García / Luis Pérez / Eva Ruiz"), all or nothing."""
    numbered = pasted_lines(text)
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, Tournament.EntrantKind.TRIOS)

        def register(line: str) -> Entry:
            names = trio_names(line)
            keys = [_name_key(n) for n in names]
            if len(set(keys)) < 3:
                raise _same_player_twice(line)
            ids = _players_from_names(tournament.club, names)
            return _trio(tournament, ids, actor=actor, via=via, device=device)

        return register_lines(numbered, register)


def _same_player_twice(text: str) -> Invalid:
    return Invalid(
        '"{text}" names the same player twice; a trio needs three different players.',
        code="trio_same_player",
        text=text[:120],
    )


def _trio(tournament: Tournament, ids: list[int], *, actor: User, via: str, device: str) -> Entry:
    players = Player.objects.in_bulk(ids)
    if len(set(ids)) < 3:
        raise _same_player_twice(" / ".join(str(players[i]) for i in ids))
    taken = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .filter(Q(pair__player_one__in=ids) | Q(pair__player_two__in=ids) | Q(player_three__in=ids))
        .select_related("pair")
        .first()
    )
    if taken is not None:
        raise Conflict(
            "A player of this trio already plays in {trio}; a player enters one trio only.",
            code="trio_player_taken",
            trio=str(taken.pair),
            entry=taken.pk,
        )
    active = Entry.objects.filter(tournament=tournament, status__in=ACTIVE_ENTRY_STATUSES).count()
    full = tournament.max_pairs is not None and active >= tournament.max_pairs
    name = " / ".join(str(players[i]) for i in ids)
    team = Pair.objects.create(
        player_one_id=ids[0],
        player_two_id=ids[1],
        name=name[: Pair._meta.get_field("name").max_length],
        club=tournament.club,
    )
    entry = Entry.objects.create(
        tournament=tournament,
        pair=team,
        player_three_id=ids[2],
        status=Entry.Status.WAITING if full else Entry.Status.REGISTERED,
    )
    audit_write(
        tournament=tournament,
        action="trio_registered",
        actor=actor,
        via=via,
        device=device,
        new={"entry": entry.pk, "trio": name, "status": entry.status},
    )
    return entry


# --- Players alone --------------------------------------------------------------------------


def individual_register(
    *, tournament: Tournament, player_id: int, actor: User, via: str = "api", device: str = ""
) -> IndividualEntry:
    """Register an existing player alone (individual or Mus francés tournament)."""
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, *ALONE)
        _require_players([player_id])
        return _individual(tournament, player_id, actor=actor, via=via, device=device)


def individual_register_pasted(
    *, tournament: Tournament, text: str, actor: User, via: str = "api", device: str = ""
) -> list[IndividualEntry]:
    """One player per line ("Ana García"), all or nothing."""
    numbered = pasted_lines(text)
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, *ALONE)
        seen: dict[str, str] = {}

        def register(line: str) -> IndividualEntry:
            if "/" in line:
                raise Invalid(
                    '"{text}" names more than one player; write one player per line.',
                    code="individual_line",
                    text=line[:120],
                )
            key = _name_key(line)
            if key in seen:
                raise Invalid(
                    "{player} is already on an earlier line; remove one of the two lines.",
                    code="individual_repeated",
                    player=line[:80],
                )
            seen[key] = line
            (player_id,) = _players_from_names(tournament.club, [line])
            return _individual(tournament, player_id, actor=actor, via=via, device=device)

        return register_lines(numbered, register)


def _individual(
    tournament: Tournament, player_id: int, *, actor: User, via: str, device: str
) -> IndividualEntry:
    entry = (
        IndividualEntry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, player_id=player_id)
        .first()
    )
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        raise Conflict(
            "{player} is already registered in this tournament.",
            code="player_already_registered",
            player=str(entry.player),
            entry=entry.pk,
        )
    if entry is None:
        entry = IndividualEntry.objects.create(tournament=tournament, player_id=player_id)
    else:
        entry.status = Entry.Status.REGISTERED
        entry.withdrawn_at = None
        entry.checked_in_at = None
        entry.registered_at = timezone.now()
        entry.save()
    audit_write(
        tournament=tournament,
        action="individual_registered",
        actor=actor,
        via=via,
        device=device,
        new={"individual": entry.pk, "player": player_id},
    )
    return entry


def _lock_individual(tournament: Tournament, individual_id: int) -> IndividualEntry:
    entry = (
        IndividualEntry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=individual_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise NotFound(
            "There is no registered player {individual} in {tournament_name}.",
            code="individual_not_found",
            individual=individual_id,
            tournament_name=tournament.name,
        )
    return entry


def individual_withdraw(
    *, tournament: Tournament, individual_id: int, actor: User, via: str = "api", device: str = ""
) -> IndividualEntry:
    """A player leaves the tournament: no later round seats them; their results stay."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_individual(tournament, individual_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{player} has already withdrawn from the tournament.",
                code="individual_already_withdrawn",
                player=str(entry.player),
            )
        old = entry.status
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        audit_write(
            tournament=tournament,
            action="individual_withdrawn",
            actor=actor,
            via=via,
            device=device,
            old={"individual": entry.pk, "status": old},
            new={"individual": entry.pk, "status": entry.status},
        )
    return entry


def individual_check_in(
    *,
    tournament: Tournament,
    individual_id: int,
    actor: User,
    present: bool = True,
    via: str = "api",
    device: str = "",
) -> IndividualEntry:
    """Mark a player present on the day (or not, ``present=False``). Twice changes nothing."""
    with transaction.atomic():
        tournament = tournament_lock_for_organizer(tournament=tournament, actor=actor)
        require_not_finished(tournament)
        entry = _lock_individual(tournament, individual_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(
                "{player} has withdrawn; register them again before checking them in.",
                code="individual_withdrawn",
                player=str(entry.player),
            )
        entry.status = Entry.Status.CHECKED_IN if present else Entry.Status.REGISTERED
        entry.checked_in_at = timezone.now() if present else None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry
