"""Two player rows made one person (clubs.identity, which LeaguesConfig.ready tells).

Responsible for: the leagues' part of a merge — two rows in one individual division are two
people (``players_merge_check``); an individual division keeps who rested as player ids in a
JSON column, which model meta cannot see, so ``players_merged`` writes ``keep`` for ``other``
there and ``players_unmerged`` puts ``other`` back where it was.

Must not: move any other row (clubs.identity moves every foreign key itself).

Terms: liga, división, jornada, descanso (rest), jugador.
"""

from __future__ import annotations

from clubs.models import Player
from config.errors import Conflict
from seasons.leagues.models import Division, League


def players_merge_check(keep: Player, other: Player) -> None:
    """Two rows that are players of one individual division are two people."""
    division = (
        Division.objects.filter(players=keep)
        .filter(pk__in=Division.objects.filter(players=other).values("pk"))
        .select_related("league")
        .order_by("pk")
        .first()
    )
    if division is not None:
        raise Conflict(
            "'{keep}' (player {keep_id}) and '{other}' (player {other_id}) cannot be one "
            "person: both are players of {division} of the league {league}.",
            code="player_merge_same_division",
            keep=str(keep),
            keep_id=keep.pk,
            other=str(other),
            other_id=other.pk,
            division=division.name,
            league=division.league.name,
            division_id=division.pk,
        )


def players_merged(keep: Player, other: Player) -> dict:
    """Write ``keep`` for ``other`` in the rests of its individual divisions; returns where
    (division id → jornada numbers) for the undo."""
    changed: dict[str, list[str]] = {}
    divisions = Division.objects.filter(
        players=other, league__kind=League.Kind.INDIVIDUAL
    ).select_for_update(of=("self",))
    for division in divisions.order_by("pk"):
        numbers = [n for n, ids in (division.resting or {}).items() if other.pk in ids]
        if not numbers:
            continue
        division.resting = {
            n: [keep.pk if pk == other.pk else pk for pk in ids] if n in numbers else ids
            for n, ids in division.resting.items()
        }
        division.save(update_fields=["resting"])
        changed[str(division.pk)] = numbers
    return {"resting": changed}


def players_unmerged(keep: Player, other: Player, state: dict) -> None:
    """Put ``other`` back in the rests ``players_merged`` gave to ``keep``."""
    for division_id, numbers in sorted((state or {}).get("resting", {}).items()):
        division = Division.objects.select_for_update().filter(pk=int(division_id)).first()
        if division is None:
            continue
        division.resting = {
            n: [other.pk if pk == keep.pk else pk for pk in ids] if n in numbers else ids
            for n, ids in (division.resting or {}).items()
        }
        division.save(update_fields=["resting"])
