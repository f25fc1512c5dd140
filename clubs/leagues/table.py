"""The league's standings (clasificación de la liga), over plain values: no Django, no database.

Responsible for: ordering a division's competitors by league points and the league's tiebreaks,
from the results of its jornadas (optionally only up to one jornada). A competitor is an opaque
id: a pareja's entry in a league of fixed pairs, a player in an individual league, a peña in a
league of peñas (interpeñas) — a side of a result is the ids it stands for (one pareja; the two
players of a drawn pair; one peña's team), so the same table serves the three.

Points are the league's (`Points`): a win, a loss played, a walkover lost (the side that did not
come, and both sides of a double loss). A walkover won counts as a win. A rest (descanso) is no
match at all and gives nothing.

Tiebreaks, in the league's order, each applied only among the competitors still level:

- ``head_to_head``: league points in the results among exactly the level competitors;
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

TIEBREAKS = ("head_to_head", "games", "stones", "wins")
DEFAULT_TIEBREAKS = ("head_to_head", "games", "stones")

#: how a result ended
A_WINS, B_WINS, DOUBLE_LOSS = "a", "b", "double_loss"


@dataclass(frozen=True)
class Points:
    win: int = 2
    loss: int = 1
    walkover_loss: int = 0


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

    def __post_init__(self) -> None:
        if self.outcome not in (A_WINS, B_WINS, DOUBLE_LOSS):
            raise ValueError(f"unknown outcome {self.outcome!r}")


@dataclass
class Row:
    competitor: int
    position: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    walkovers_lost: int = 0
    points: int = 0
    games_for: int = 0
    games_against: int = 0
    stones_for: int = 0
    stones_against: int = 0
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


def _sides(result: LeagueResult):
    """(competitors, own games, their games, own stones, their stones, won?, walkover lost?)."""
    a_won = result.outcome == A_WINS
    b_won = result.outcome == B_WINS
    double = result.outcome == DOUBLE_LOSS
    yield (
        result.side_a,
        result.games_a,
        result.games_b,
        result.stones_a,
        result.stones_b,
        a_won,
        double or (result.walkover and b_won),
    )
    yield (
        result.side_b,
        result.games_b,
        result.games_a,
        result.stones_b,
        result.stones_a,
        b_won,
        double or (result.walkover and a_won),
    )


def _points_of(won: bool, walkover_lost: bool, points: Points) -> int:
    if won:
        return points.win
    return points.walkover_loss if walkover_lost else points.loss


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
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tiebreaks {unknown}")
    counted = [r for r in results if upto is None or r.jornada <= upto]
    counted.sort(key=lambda r: r.jornada)
    rows: dict[int, Row] = {c: Row(c) for c in competitors}
    for result in counted:
        for ids, gf, ga, sf, sa, won, wo_lost in _sides(result):
            for c in ids:
                row = rows.setdefault(c, Row(c))
                row.played += 1
                row.won += won
                row.lost += not won
                row.walkovers_lost += wo_lost
                row.points += _points_of(won, wo_lost, points)
                row.games_for += gf
                row.games_against += ga
                row.stones_for += sf
                row.stones_against += sa
                row.form.append("W" if won else ("N" if wo_lost else "L"))
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
        for ids, *_scores, won, wo_lost in _sides(result):
            if c in ids:
                total += _points_of(won, wo_lost, points)
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
