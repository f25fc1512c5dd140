"""The team result of an interpeña, as a pure function of its boards' results.

Responsible for: ``team_result``: each board won is one board point for its peña; the team
with more board points wins the interpeña; equal board points are decided by the juegos won
over all the boards, and equal juegos are a draw. A board not confirmed yet counts nothing,
and the result is ``complete`` only when every board is confirmed. ``signature``: a short
text naming every board's match and result version, which a captain's confirmation stores:
when a board is corrected afterwards, the signature changes and the team result waits for
both captains again. A league of peñas reads the same ``TeamResult`` (its points for a team
win, draw or loss are the league's).

Must not: import Django or anything of the project; score a partida (scoring does, through
the tournaments' result flow).

Terms: interpeñas, tablero (board), juego (game), capitán (captain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

HOME, AWAY, DRAW = "home", "away", "draw"


@dataclass(frozen=True)
class BoardResult:
    """A board as the team result sees it: its match, the match's version, and, once the
    match is confirmed, which side won it and the juegos of each."""

    number: int
    match: int | None
    version: int
    confirmed: bool
    winner: str | None  # HOME, AWAY or None
    games_home: int
    games_away: int


@dataclass(frozen=True)
class TeamResult:
    boards_home: int
    boards_away: int
    games_home: int
    games_away: int
    boards_confirmed: int
    boards_total: int
    winner: str | None  # HOME, AWAY, DRAW; None until every board is confirmed

    @property
    def complete(self) -> bool:
        return self.boards_confirmed == self.boards_total and self.boards_total > 0


def team_result(boards: Sequence[BoardResult]) -> TeamResult:
    done = [b for b in boards if b.confirmed]
    home = sum(1 for b in done if b.winner == HOME)
    away = sum(1 for b in done if b.winner == AWAY)
    games_home = sum(b.games_home for b in done)
    games_away = sum(b.games_away for b in done)
    winner = None
    if boards and len(done) == len(boards):
        if (home, games_home) > (away, games_away):
            winner = HOME
        elif (home, games_home) < (away, games_away):
            winner = AWAY
        else:
            winner = DRAW
    return TeamResult(home, away, games_home, games_away, len(done), len(boards), winner)


def signature(boards: Sequence[BoardResult]) -> str:
    """``"<match>.<version>"`` of each board, by number: what a captain confirms."""
    return " ".join(f"{b.match or 0}.{b.version}" for b in sorted(boards, key=lambda b: b.number))
