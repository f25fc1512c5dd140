"""The circuit's ranking, as a pure function: final places in, points and positions out.

Responsible for:

- ``final_places``: a tournament's final place of each pair from its phases' standings, shared
  with the championships (seasons.competitions.places, where its rules are written);
- ``place_points``: the points of a place: the circuit's table (1st, 2nd, …); a place beyond
  the table earns the participation points. Pairs sharing a place all earn that place's
  points (not the average of the places they share: the table's numbers stay the ones shown).
- ``circuit_ranking``: each player's results (both players of a pair earn the pair's points),
  the best N counted (all when N is None), the total, and the order: total points, then the
  circuit's tiebreaks in its order (``Tiebreak``); players still equal share the position.

Must not: import Django or anything of the project (import-linter's ``circuits-ranking-pure``);
read the clock or draw lots: the same input always gives the same ranking.

Terms: circuito (circuit), puesto (place), pareja (pair), liguilla (group), desempate
(tiebreak).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from seasons.competitions.places import PhaseTable, final_places

__all__ = [
    "TIEBREAKS",
    "PhaseTable",
    "PlayerResult",
    "RankingRow",
    "Tiebreak",
    "TournamentResult",
    "circuit_ranking",
    "final_places",
    "place_points",
]


class Tiebreak(StrEnum):
    """How two players with the same points are ordered, as the circuit chooses.

    - ``best_place``: the better best place in any tournament of the circuit, then how many
      times it was reached;
    - ``counted_results``: the counted results compared from the best down (the better second
      best, then third…);
    - ``played``: more tournaments played in the circuit;
    - ``latest``: more points in the latest tournament either played, compared from the most
      recent tournament of the circuit back.
    """

    BEST_PLACE = "best_place"
    COUNTED_RESULTS = "counted_results"
    PLAYED = "played"
    LATEST = "latest"


#: the tiebreaks' names, as the API takes them
TIEBREAKS = tuple(t.value for t in Tiebreak)


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament of the circuit: its order in the circuit (by date), and each
    pair's final place with the players of the pair."""

    tournament: int
    order: int
    places: Mapping[int, int]  # pair id → place
    players: Mapping[int, tuple[int, ...]]  # pair id → its players


@dataclass(frozen=True)
class PlayerResult:
    tournament: int
    order: int
    place: int
    points: int
    counted: bool


@dataclass(frozen=True)
class RankingRow:
    player: int
    position: int
    points: int
    results: tuple[PlayerResult, ...]  # in the circuit's order
    separated_by: str  # the tiebreak that put it below the row above; "" for points or none

    @property
    def played(self) -> int:
        return len(self.results)


def place_points(place: int, table: Sequence[int], participation: int) -> int:
    return table[place - 1] if 1 <= place <= len(table) else participation


def circuit_ranking(
    tournaments: Iterable[TournamentResult],
    *,
    points_table: Sequence[int],
    participation: int,
    best_results: int | None,
    tiebreaks: Sequence[str],
) -> list[RankingRow]:
    """The ranking of every player with a result in a finished tournament of the circuit."""
    tournaments = sorted(tournaments, key=lambda t: (t.order, t.tournament))
    by_player: dict[int, dict[int, tuple[int, int, int]]] = {}
    for t in tournaments:
        for pair, place in t.places.items():
            points = place_points(place, points_table, participation)
            for player in t.players.get(pair, ()):
                mine = by_player.setdefault(player, {})
                earlier = mine.get(t.tournament)
                # a player in two pairs of one tournament keeps the better result
                if earlier is None or (points, -place) > (earlier[2], -earlier[1]):
                    mine[t.tournament] = (t.order, place, points)
    latest_first = [t.tournament for t in reversed(tournaments)]
    lines = []
    for player, results in by_player.items():
        best_first = sorted(results.items(), key=lambda r: (-r[1][2], r[1][1], r[1][0], r[0]))
        keep = len(best_first) if best_results is None else best_results
        counted = {tid for tid, _ in best_first[:keep]}
        rows = tuple(
            PlayerResult(tid, order, place, points, tid in counted)
            for tid, (order, place, points) in sorted(results.items(), key=lambda r: r[1][0])
        )
        total = sum(r.points for r in rows if r.counted)
        lines.append((player, total, rows, _keys(rows, tiebreaks, latest_first)))
    lines.sort(key=lambda line: (-line[1], [k for _, k in line[3]], line[0]))
    ranking: list[RankingRow] = []
    previous = None
    for index, (player, total, rows, keys) in enumerate(lines):
        separated_by = ""
        if previous is None:
            position = 1
        elif (total, keys) == (previous[1], previous[3]):
            position = ranking[-1].position
        else:
            position = index + 1
            if total == previous[1]:
                separated_by = next(
                    name for (name, k), (_, p) in zip(keys, previous[3], strict=True) if k != p
                )
        ranking.append(RankingRow(player, position, total, rows, separated_by))
        previous = (player, total, rows, keys)
    return ranking


def _keys(
    rows: tuple[PlayerResult, ...], tiebreaks: Sequence[str], latest_first: list[int]
) -> list[tuple[str, tuple]]:
    """Sort keys (smaller is better) of each tiebreak, in the circuit's order."""
    keys = []
    for name in tiebreaks:
        tiebreak = Tiebreak(name)
        if tiebreak is Tiebreak.BEST_PLACE:
            best = min(r.place for r in rows)
            key: tuple = (best, -sum(1 for r in rows if r.place == best))
        elif tiebreak is Tiebreak.COUNTED_RESULTS:
            key = tuple(sorted(-r.points for r in rows if r.counted))
        elif tiebreak is Tiebreak.PLAYED:
            key = (-len(rows),)
        else:
            points = {r.tournament: r.points for r in rows}
            key = tuple(-points.get(t, 0) for t in latest_first)
        keys.append((tiebreak.value, key))
    return keys
