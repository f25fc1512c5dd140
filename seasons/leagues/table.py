"""The league's standings (clasificación de la liga), over plain values: no Django, no database.

Responsible for: ordering a division's competitors by league points and the league's tiebreaks,
from the results of its jornadas (optionally only up to one jornada). A competitor is an opaque
id: a pareja's entry in a league of fixed pairs, a player in an individual league, a peña in a
league of peñas (interpeñas) — a side of a result is the ids it stands for (one pareja; the two
players of a drawn pair; one peña's team), so the same table serves the three.

Points are the league's (`Points`): a win, a draw (only a league of peñas has them: equal board
points and juegos), a loss played, a walkover lost (the side that did not come, and both sides
of a double loss). A walkover won counts as a win. A rest (descanso) is no match at all and
gives nothing.

Tiebreaks, in the league's order, each applied only among the competitors still level:

- ``head_to_head``: league points in the results among exactly the level competitors;
- ``boards``: board points won minus board points lost (a league of peñas: a board won is one);
- ``games``: juegos won minus juegos lost;
- ``stones``: piedras won minus piedras lost;
- ``wins``: matches won.

Competitors level after all of them keep the order of their ids (the oldest entry first), so
the table never changes between two reads; the row says ``tied`` for them.

Must not: read the clock, draw lots, or know where the results come from.

Terms: jornada, pareja, juego (game), piedras (stones), no presentada (walkover), doble derrota
(double loss), descanso (rest, bye), desempate (tiebreak).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: the tiebreaks of a league of pairs or players
TIEBREAKS = ("head_to_head", "games", "stones", "wins")
DEFAULT_TIEBREAKS = ("head_to_head", "games", "stones")
#: a league of peñas adds its board points (and has no stones: its juegos are summed)
TEAM_TIEBREAKS = ("head_to_head", "boards", "games", "wins")
DEFAULT_TEAM_TIEBREAKS = ("boards", "games", "head_to_head")
ALL_TIEBREAKS = (*TIEBREAKS, "boards")

#: how a result ended
A_WINS, B_WINS, DRAW, DOUBLE_LOSS = "a", "b", "draw", "double_loss"


@dataclass(frozen=True)
class Points:
    win: int = 2
    loss: int = 1
    walkover_loss: int = 0
    draw: int = 1


@dataclass(frozen=True)
class LeagueResult:
    """One confirmed league match: each side's competitor ids, how it ended, its score.

    ``walkover``: the loser did not play (no presentada); with DOUBLE_LOSS both sides lose so.
    """

    jornada: int
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    outcome: str
    walkover: bool = False
    games_a: int = 0
    games_b: int = 0
    stones_a: int = 0
    stones_b: int = 0
    boards_a: int = 0
    boards_b: int = 0

    def __post_init__(self) -> None:
        if self.outcome not in (A_WINS, B_WINS, DRAW, DOUBLE_LOSS):
            raise ValueError(f"unknown outcome {self.outcome!r}")


@dataclass
class Row:
    competitor: int
    position: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    walkovers_lost: int = 0
    points: int = 0
    games_for: int = 0
    games_against: int = 0
    stones_for: int = 0
    stones_against: int = 0
    boards_for: int = 0
    boards_against: int = 0
    #: the tiebreak that put this row below the one above when both had the same points
    #: ("" when the points did, "tied" when nothing did)
    tiebreak: str = ""
    #: jornada numbers of the results counted, for a "last five" column
    form: list[str] = field(default_factory=list)

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against

    @property
    def stones_diff(self) -> int:
        return self.stones_for - self.stones_against

    @property
    def boards_diff(self) -> int:
        return self.boards_for - self.boards_against


@dataclass(frozen=True)
class _Side:
    ids: tuple[int, ...]
    games: tuple[int, int]
    stones: tuple[int, int]
    boards: tuple[int, int]
    won: bool
    drawn: bool
    walkover_lost: bool


def _sides(result: LeagueResult):
    """Each side of the result, as that side sees it (own score first)."""
    a_won = result.outcome == A_WINS
    b_won = result.outcome == B_WINS
    drawn = result.outcome == DRAW
    double = result.outcome == DOUBLE_LOSS
    yield _Side(
        result.side_a,
        (result.games_a, result.games_b),
        (result.stones_a, result.stones_b),
        (result.boards_a, result.boards_b),
        a_won,
        drawn,
        double or (result.walkover and b_won),
    )
    yield _Side(
        result.side_b,
        (result.games_b, result.games_a),
        (result.stones_b, result.stones_a),
        (result.boards_b, result.boards_a),
        b_won,
        drawn,
        double or (result.walkover and a_won),
    )


def _points_of(side: _Side, points: Points) -> int:
    if side.won:
        return points.win
    if side.drawn:
        return points.draw
    return points.walkover_loss if side.walkover_lost else points.loss


def league_table(
    competitors: Iterable[int],
    results: Iterable[LeagueResult],
    *,
    points: Points = Points(),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    upto: int | None = None,
) -> list[Row]:
    """The rows best first. ``upto``: only the results of jornadas up to that number.
    A competitor of a result not in ``competitors`` is added (a player who came once)."""
    unknown = [t for t in tiebreaks if t not in ALL_TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tiebreaks {unknown}")
    counted = [r for r in results if upto is None or r.jornada <= upto]
    counted.sort(key=lambda r: r.jornada)
    rows: dict[int, Row] = {c: Row(c) for c in competitors}
    for result in counted:
        for side in _sides(result):
            for c in side.ids:
                row = rows.setdefault(c, Row(c))
                row.played += 1
                row.won += side.won
                row.drawn += side.drawn
                row.lost += not (side.won or side.drawn)
                row.walkovers_lost += side.walkover_lost
                row.points += _points_of(side, points)
                row.games_for += side.games[0]
                row.games_against += side.games[1]
                row.stones_for += side.stones[0]
                row.stones_against += side.stones[1]
                row.boards_for += side.boards[0]
                row.boards_against += side.boards[1]
                if side.won:
                    row.form.append("W")
                elif side.drawn:
                    row.form.append("D")
                else:
                    row.form.append("N" if side.walkover_lost else "L")
    ordered = _order(sorted(rows), rows, counted, points, tuple(tiebreaks))
    out = []
    for position, (competitor, reason) in enumerate(ordered, start=1):
        row = rows[competitor]
        row.position = position
        row.tiebreak = reason
        row.form = row.form[-5:]
        out.append(row)
    return out


def _order(
    ids: list[int],
    rows: dict[int, Row],
    results: list[LeagueResult],
    points: Points,
    tiebreaks: tuple[str, ...],
) -> list[tuple[int, str]]:
    """Ids best first, each with the reason it sits below the one before."""
    by_points = ("points", lambda c, _level: rows[c].points)
    return _split(ids, [by_points, *_criteria(rows, results, points, tiebreaks)])


def _criteria(rows, results, points, tiebreaks):
    out = []
    for name in tiebreaks:
        if name == "head_to_head":
            out.append((name, lambda c, level: _head_to_head(c, level, results, points)))
        elif name == "boards":
            out.append((name, lambda c, _level: rows[c].boards_diff))
        elif name == "games":
            out.append((name, lambda c, _level: rows[c].games_diff))
        elif name == "stones":
            out.append((name, lambda c, _level: rows[c].stones_diff))
        elif name == "wins":
            out.append((name, lambda c, _level: rows[c].won))
    return out


def _head_to_head(
    c: int, level: frozenset[int], results: list[LeagueResult], points: Points
) -> int:
    total = 0
    for result in results:
        inside = set(result.side_a) | set(result.side_b)
        if c not in inside or not inside <= level:
            continue
        for side in _sides(result):
            if c in side.ids:
                total += _points_of(side, points)
    return total


def _split(ids: list[int], criteria: list) -> list[tuple[int, str]]:
    """Order ``ids`` (all level so far) by the first criterion, then each group still level by
    the next ones. Each id's reason is the criterion that separated it from the one above."""
    if len(ids) == 1:
        return [(ids[0], "")]
    if not criteria:
        return [(c, "" if i == 0 else "tied") for i, c in enumerate(ids)]
    (name, value), rest = criteria[0], criteria[1:]
    level = frozenset(ids)
    values = {c: value(c, level) for c in ids}
    groups: dict[int, list[int]] = {}
    for c in ids:
        groups.setdefault(values[c], []).append(c)
    out: list[tuple[int, str]] = []
    for i, key in enumerate(sorted(groups, reverse=True)):
        inner = _split(groups[key], rest)
        first, reason = inner[0]
        inner[0] = (first, ("" if name == "points" else name) if i > 0 else reason)
        out.extend(inner)
    return out
