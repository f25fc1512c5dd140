"""Writes of the prizes: awarding a tournament's prizes across its phases and storing them.

Responsible for: ``prizes_award`` (the declared prizes awarded from every phase's standings as
they stand, tournaments.draw.prizes deciding who wins each, stored on the tournament with the
winners' names as the standings write them, so the pages read them in one row) and
``prizes_refresh`` (the same for a finished tournament, under its lock, after a result changed:
services/standings.py calls it after each refresh of a finished tournament's standings, so a
correction after the end moves the prizes with the standings).

When: the tournament finishing awards them (services/tournaments.py), so they are published
with the final standings; a change of the prizes of a finished tournament awards them again.
Before the end nothing is stored: a prize is decided by the final standings.

Must not: decide who wins (tournaments.draw.prizes does) or compute standings (the selectors
do); be called while a phase is locked (it locks the tournament: the order of the locks is
the tournament, then its phases).

Terms: premio (prize), fase (phase), grupo (group), clasificación (standings), sorteo (lots).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.draw.prizes import StandingLine, prizes_from_list
from tournaments.draw.prizes import prizes_award as award_prizes
from tournaments.models import Tournament
from tournaments.selectors.prizes import prize_standings


def prizes_award(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Award the tournament's prizes now and store them (``prize_awards``); the caller holds
    the tournament's row lock inside its transaction. Returns the awards stored."""
    prizes = prizes_from_list(tournament.prizes or [])
    tables = prize_standings(tournament=tournament) if prizes else []
    names: dict[int, dict[str, Any]] = {}
    lines = []
    for table in tables:
        for row in table.rows:
            names.setdefault(row["entry_id"], row)
            lines.append(
                StandingLine(
                    phase=table.phase.order,
                    group=table.group,
                    entrant=row["entry_id"],
                    rank=row["rank"],
                    played=row["played"],
                    won=row["won"],
                    # without a points table a match won is a point (scoring.standings)
                    points=row.get("points", row["won"]),
                    games_won=row["games_won"],
                    games_lost=row["games_lost"],
                    stones_won=row["stones_won"],
                    stones_lost=row["stones_lost"],
                    withdrawn=bool(row.get("withdrawn")),
                )
            )
    phase_names = {table.phase.order: table.phase.name for table in tables}
    stored = []
    for award in award_prizes(prizes, lines, seed=tournament.draw_seed):
        prize = prizes[award.prize]
        stored.append(
            {
                "prize": award.prize,
                "name": prize.name,
                "kind": prize.kind.value,
                "measure": prize.measure,
                "phase": award.phase,
                "phase_name": phase_names.get(award.phase) if award.phase else None,
                "group": award.group,
                "winners": [
                    {
                        "entry_id": entrant,
                        "name": names[entrant]["name"],
                        "players": list(names[entrant]["players"]),
                    }
                    for entrant in award.winners
                ],
                "value": award.value,
                "shared": award.shared,
                "decided_by": award.decided_by,
            }
        )
    tournament.prize_awards = stored
    tournament.prizes_awarded_at = timezone.now() if prizes else None
    Tournament.objects.filter(pk=tournament.pk).update(
        prize_awards=stored, prizes_awarded_at=tournament.prizes_awarded_at
    )
    return stored


def prizes_refresh(*, tournament_id: int) -> bool:
    """Award again the prizes of a finished tournament that declares some, under its lock;
    False (nothing done) for any other tournament or one that no longer exists."""
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(of=("self",))
            .filter(pk=tournament_id, status=Tournament.Status.FINISHED)
            .first()
        )
        if tournament is None or not tournament.prizes:
            return False
        prizes_award(tournament=tournament)
    return True
