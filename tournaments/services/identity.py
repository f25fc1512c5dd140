"""The tournaments' part of one person, one identity (clubs.identity): two player rows that
cannot be one person, and the standings that name them.

Responsible for: ``players_merge_check``, which TournamentsConfig.ready registers with
clubs.identity.references and the merge calls with both rows locked: two rows that take part in
one tournament (a pair's player, a trio's third, a player alone, a substitute or the player
replaced) are two people, or the tournament would hold one person twice; when they met in a
match, the error says where. ``players_standings_refresh``, run by the task
``tournaments.players_merged`` after a merge or its undo (and by beat's ``tournaments.reconcile``
for one whose task was lost): the standings snapshots of the tournaments either row plays in
are computed again, since a snapshot keeps the players' names as they were (a merged person
shows as who they are now; nothing else in them changes: entries keep their ids).

Must not: move a row (clubs.identity.services does, through model meta) or import a floor
above.

Terms: torneo, pareja (a pair's Entry), suplente (substitute), clasificación (standings).
"""

from __future__ import annotations

from django.db.models import Q

from clubs.identity.selectors import player_merges_pending
from clubs.identity.services import player_merge_follow_up_done
from clubs.models import Player, PlayerMerge
from config.errors import Conflict
from tournaments.models import Entry, IndividualEntry, Match, Phase, Substitution, Tournament
from tournaments.services.standings import standings_refresh

#: the name of the task that runs ``players_merged_follow_up``
TASK = "tournaments.players_merged"


def _entries_of(player_id: int) -> Q:
    return (
        Q(pair__player_one_id=player_id)
        | Q(pair__player_two_id=player_id)
        | Q(player_three_id=player_id)
    )


def tournaments_of(player_ids: list[int]) -> set[int]:
    """The tournaments these players take part in, however (three queries)."""
    found: set[int] = set()
    for pk in player_ids:
        found.update(Entry.objects.filter(_entries_of(pk)).values_list("tournament_id", flat=True))
    found.update(
        IndividualEntry.objects.filter(player_id__in=player_ids).values_list(
            "tournament_id", flat=True
        )
    )
    found.update(
        Substitution.objects.filter(
            Q(replaced_id__in=player_ids) | Q(substitute_id__in=player_ids)
        ).values_list("match__round__phase__tournament_id", flat=True)
    )
    return found


def players_merge_check(keep: Player, other: Player) -> None:
    """Refuse to make one person of two rows that take part in one tournament."""
    shared = tournaments_of([keep.pk]) & tournaments_of([other.pk])
    if not shared:
        return
    tournament = Tournament.objects.filter(pk__in=shared).order_by("starts_on", "pk").first()
    both = {"keep": str(keep), "keep_id": keep.pk, "other": str(other), "other_id": other.pk}
    theirs = Entry.objects.filter(tournament=tournament)
    ones = theirs.filter(_entries_of(keep.pk))
    twos = theirs.filter(_entries_of(other.pk))
    met = (
        Match.objects.filter(
            Q(entry_a__in=ones, entry_b__in=twos) | Q(entry_a__in=twos, entry_b__in=ones)
        )
        .select_related("round__phase")
        .order_by("round__phase__order", "round__number", "table_number")
        .first()
    )
    if met is not None:
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: they played against each other in {tournament} ({phase}, round {round}, "
            "table {table}).",
            code="player_merge_opponents",
            **both,
            tournament=tournament.name,
            tournament_id=tournament.pk,
            phase=met.round.phase.name,
            round=met.round.number,
            table=met.table_number,
            match_id=met.pk,
        )
    raise Conflict(
        "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one person: "
        "both play in {tournament}, and a person plays a tournament once.",
        code="player_merge_same_tournament",
        **both,
        tournament=tournament.name,
        tournament_id=tournament.pk,
    )


def players_standings_refresh(*, player_ids: list[int]) -> int:
    """Compute again the standings of every phase (with standings) of the tournaments these
    players take part in; returns how many phases."""
    phases = list(
        Phase.objects.filter(tournament_id__in=tournaments_of(player_ids), standings__isnull=False)
        .distinct()
        .order_by("pk")
    )
    for phase in phases:
        standings_refresh(phase=phase)
    return len(phases)


def players_merged_follow_up(*, merge: PlayerMerge, version: int) -> int:
    """What the task does for one merge (or undo, ``version``): the standings, then done."""
    refreshed = players_standings_refresh(player_ids=[merge.keep_id, merge.other_id])
    player_merge_follow_up_done(merge_id=merge.pk, task=TASK, version=version)
    return refreshed


def players_merged_reconcile() -> int:
    """Beat's repair: the follow-up of every merge or undo whose task was lost."""
    pending = player_merges_pending(task=TASK)
    for merge in pending:
        players_merged_follow_up(merge=merge, version=merge.version)
    return len(pending)
