"""Reads of registration: a tournament's entries (parejas inscritas) and substitutions.

Responsible for: the entry list with each pair, its two players and its peña in a fixed number
of queries whatever the number of entries, the order the desk reads it in (seeded pairs first,
then by registration), each waiting pair's place in the waiting list, which players are already
in a tournament (a player enters once), and the substitutions recorded in a tournament.

Must not: write, or check permissions (callers get the tournament through
tournaments.selectors.tournaments.tournament_get, which applies the visibility rule).

Terms: pareja (pair), entry (a pair registered in a tournament), lista de espera (waiting list),
cabeza de serie (seed), mesa fija (pinned table), suplente (substitute).
"""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from clubs.models import Pair
from tournaments.models import Entry, IndividualEntry, Substitution, Tournament


def entry_list(*, tournament: Tournament, status: str | None = None) -> list[Entry]:
    """The tournament's entries in desk order; a waiting entry gets ``waiting_position`` (1 =
    next to be promoted), every other entry ``None``. The partnerships an individual
    tournament's draw made (``drawn``) are not registrations and are left out."""
    qs = (
        Entry.objects.filter(tournament=tournament, drawn=False)
        .select_related("pair__player_one", "pair__player_two", "pair__club", "player_three")
        .order_by(F("seed").asc(nulls_last=True), "registered_at", "id")
    )
    entries = list(qs)
    waiting = sorted(
        (e for e in entries if e.status == Entry.Status.WAITING),
        key=lambda e: (e.registered_at, e.id),
    )
    positions = {e.pk: n for n, e in enumerate(waiting, start=1)}
    for entry in entries:
        entry.waiting_position = positions.get(entry.pk)
    if status:
        entries = [e for e in entries if e.status == status]
    return entries


def entries_of_players(
    *, tournament: Tournament, player_ids: list[int]
) -> dict[int, Entry | IndividualEntry]:
    """Who of ``player_ids`` is already in the tournament, and in which entry that is not
    withdrawn: a pair's or a trio's (any of its players), or their own as a player alone. One
    query (two in a tournament of players alone, whose partnerships drawn for a round are not
    registrations and are left out)."""
    ids = [pk for pk in player_ids if pk is not None]
    if not ids:
        return {}
    found: dict[int, Entry | IndividualEntry] = {}
    entries = (
        Entry.objects.filter(tournament=tournament, drawn=False)
        .exclude(status=Entry.Status.WITHDRAWN)
        .filter(Q(pair__player_one__in=ids) | Q(pair__player_two__in=ids) | Q(player_three__in=ids))
        .select_related("pair__player_one", "pair__player_two")
        .order_by("pk")
    )
    for entry in entries:
        for pk in (entry.pair.player_one_id, entry.pair.player_two_id, entry.player_three_id):
            if pk in ids:
                found.setdefault(pk, entry)
    if tournament.entrant_kind in (
        Tournament.EntrantKind.INDIVIDUALS,
        Tournament.EntrantKind.FRANCES,
    ):
        alone = (
            IndividualEntry.objects.filter(tournament=tournament, player__in=ids)
            .exclude(status=Entry.Status.WITHDRAWN)
            .select_related("player")
        )
        for row in alone:
            found.setdefault(row.player_id, row)
    return found


def entry_team_players(entry: Entry) -> list:
    """The players of an entry that has a team name of its own, to show under that name
    ("Los de la Txantrea": Ana Uno, Bea Dos); none for an entry its players name (a pair
    without a name, a trio named by its three players). The caller loaded the players (and a
    trio's ``player_three``)."""
    pair = entry.pair
    players = [pair.player_one, pair.player_two]
    if entry.player_three_id is not None:
        players.append(entry.player_three)
    # a trio's row is named by its three players (cut to the column) unless it has a team name
    named_by_players = " / ".join(str(p) for p in players)[
        : Pair._meta.get_field("name").max_length
    ]
    if not pair.name or (entry.player_three_id is not None and pair.name == named_by_players):
        return []
    return players


def entry_waiting_queue(*, tournament: Tournament) -> QuerySet[Entry]:
    """Waiting entries, first to be promoted first (first come, first served)."""
    return Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING).order_by(
        "registered_at", "id"
    )


def entry_waiting_position(*, entry: Entry) -> int | None:
    """The entry's place on the waiting list (1 = next in), None if it is not waiting."""
    if entry.status != Entry.Status.WAITING:
        return None
    ahead = Entry.objects.filter(
        tournament_id=entry.tournament_id, status=Entry.Status.WAITING
    ).filter(
        Q(registered_at__lt=entry.registered_at)
        | Q(registered_at=entry.registered_at, id__lt=entry.pk)
    )
    return ahead.count() + 1


def substitution_list(*, tournament: Tournament) -> QuerySet[Substitution]:
    return (
        Substitution.objects.filter(entry__tournament=tournament)
        .select_related(
            "match__round__phase",
            "entry__pair__player_one",
            "entry__pair__player_two",
            "replaced",
            "substitute",
        )
        .order_by("match__round__phase__order", "match__round__number", "match_id", "id")
    )
