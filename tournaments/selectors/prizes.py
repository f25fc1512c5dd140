"""Reads for the prizes: the standings rows every prize is awarded from, and what is shown.

Responsible for: ``prize_standings``: every phase's standings as they stand now, computed from
the confirmed matches (selectors.standings: ``standings_compute`` for pairs and trios,
``individual_rows`` for players alone), as snapshot rows with the phase and group they belong
to — the same rows the pages show, so a prize's winner is named as the standings name it;
``prizes_of_tournament``: the declared prizes and the stored awards of a tournament the reader
may see.

Must not: write, decide who wins a prize (tournaments.draw.prizes does), or read the stored
snapshots for an award: a snapshot may still be on its way after the last result.

Terms: premio (prize), fase (phase), grupo (group), clasificación (standings).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import Phase, Tournament
from tournaments.selectors.standings import individual_rows, rows_to_json, standings_compute
from tournaments.selectors.tournaments import User, tournament_get

ALONE = (Tournament.EntrantKind.INDIVIDUALS, Tournament.EntrantKind.FRANCES)


@dataclass(frozen=True)
class PhaseRows:
    """The rows of one phase's standings, or of one group of it (``group`` None: the phase)."""

    phase: Phase
    group: str | None
    rows: list[dict[str, Any]]


def prize_standings(*, tournament: Tournament) -> list[PhaseRows]:
    """Every phase's standings of the tournament now, a table per group, in phase order. A
    few queries per phase (those of standings_compute or individual_rows)."""
    out = []
    for phase in Phase.objects.filter(tournament=tournament).select_related("tournament"):
        if tournament.entrant_kind in ALONE:
            out.append(PhaseRows(phase, None, individual_rows(phase=phase)))
            continue
        for table in standings_compute(phase=phase):
            name = table.group.name if table.group is not None else None
            out.append(PhaseRows(phase, name, rows_to_json(table)))
    return out


@dataclass(frozen=True)
class TournamentPrizes:
    tournament: Tournament
    prizes: list[dict[str, Any]]
    awards: list[dict[str, Any]]
    awarded_at: Any


def prizes_of_tournament(*, user: User, tournament_id: int) -> TournamentPrizes:
    """The prizes declared and, once the tournament finished, those awarded; NotFound for a
    tournament ``user`` may not see. One query."""
    tournament = tournament_get(user=user, tournament_id=tournament_id)
    awarded = tournament.status == Tournament.Status.FINISHED
    return TournamentPrizes(
        tournament=tournament,
        prizes=list(tournament.prizes or []),
        awards=list(tournament.prize_awards or []) if awarded else [],
        awarded_at=tournament.prizes_awarded_at if awarded else None,
    )
