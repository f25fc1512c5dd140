"""Reads of registration: a tournament's entries (parejas inscritas) and substitutions.

Responsible for: the entry list with each pair, its two players and its peña in a fixed number
of queries whatever the number of entries, the order the desk reads it in (seeded pairs first,
then by registration), each waiting pair's place in the waiting list, and the substitutions
recorded in a tournament.

Must not: write, or check permissions (callers get the tournament through
tournaments.selectors.tournaments.tournament_get, which applies the visibility rule).

Terms: pareja (pair), entry (a pair registered in a tournament), lista de espera (waiting list),
cabeza de serie (seed), mesa fija (pinned table), suplente (substitute).
"""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from tournaments.models import Entry, Substitution, Tournament


def entry_list(*, tournament: Tournament, status: str | None = None) -> list[Entry]:
    """The tournament's entries in desk order; a waiting entry gets ``waiting_position`` (1 =
    next to be promoted), every other entry ``None``. The partnerships an individual
    tournament's draw made (``drawn``) are not registrations and are left out."""
    qs = (
        Entry.objects.filter(tournament=tournament, drawn=False)
        .select_related("pair__player_one", "pair__player_two", "pair__club")
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
