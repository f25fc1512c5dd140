"""A points table in the standings: "2 puntos por partida ganada, 1 por perdida, 0 por no
presentada", as a tournament's rules (bases) write it. Worked examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import (
    Entry,
    MatchKind,
    MatchRecord,
    PointsTable,
    StandingsError,
    Tiebreak,
    standings,
)

POINTS = Tiebreak.POINTS
MW = Tiebreak.MATCHES_WON
LOTS = Tiebreak.LOTS
TABLE = PointsTable(win=2, loss=1, walkover_loss=0)


def field(*pairs: int) -> list[Entry]:
    return [Entry(pair=p, seed=p, name=f"Pareja {p}") for p in pairs]


def test_two_a_win_one_a_loss_none_for_not_showing_up():
    matches = [
        MatchRecord(1, 2, 1, 3, 1, 160, 120),  # 1 beats 2
        MatchRecord(1, 3, 3, 1, 3, 120, 160),  # 3 beats 1
        MatchRecord(2, 3, 2, 3, 0, 120, 0, MatchKind.FORFEIT),  # 3 did not come
        MatchRecord(4, None, 4, 3, 0, 0, 0, MatchKind.BYE),
    ]
    rows = standings(field(1, 2, 3, 4), matches, [POINTS, LOTS], points=TABLE)

    by_pair = {row.pair: row for row in rows}
    assert by_pair[1].points == 2 + 1  # a win and a loss played
    assert by_pair[2].points == 1 + 2  # a loss played and a walkover won
    assert by_pair[3].points == 2 + 0  # a win and a walkover lost
    assert by_pair[4].points == 2  # a bye is a match won
    assert [row.pair for row in rows] == [1, 2, 3, 4]  # 3, 3 (lots), 2, 2 (lots)
    assert rows[0].value(POINTS) == 3


def test_points_rank_before_matches_won_where_they_differ():
    # 1 played three and won one; 2 played one and won it: by points (2 a win, 1 a loss) 1 is
    # ahead, by matches won they are level.
    matches = [
        MatchRecord(1, 3, 1, 3, 0, 120, 0),
        MatchRecord(1, 4, 4, 0, 3, 0, 120),
        MatchRecord(1, 5, 5, 0, 3, 0, 120),
        MatchRecord(2, 6, 2, 3, 0, 120, 0),
    ]
    rows = standings(field(1, 2, 3, 4, 5, 6), matches, [POINTS, MW, LOTS], points=TABLE)

    assert [row.pair for row in rows][:2] == [1, 2]
    assert rows[0].points == 4 and rows[1].points == 2
    assert rows[1].separated_by is POINTS


def test_a_double_loss_is_lost_by_not_showing_up_for_both():
    matches = [MatchRecord(1, 2, None, 0, 0, 0, 0, MatchKind.DOUBLE_LOSS)]
    rows = standings(field(1, 2), matches, [POINTS, LOTS], points=PointsTable(3, 1, 0))
    assert [row.points for row in rows] == [0, 0]


def test_a_negative_point_is_refused():
    with pytest.raises(StandingsError) as caught:
        PointsTable(win=2, loss=-1)
    assert caught.value.code == "points_negative"
    assert caught.value.params["field"] == "loss"


@st.composite
def records(draw):
    ids = draw(st.lists(st.integers(1, 30), min_size=2, max_size=6, unique=True))
    matches = []
    for _ in range(draw(st.integers(0, 14))):
        a, b = draw(st.permutations(ids))[:2]
        kind = draw(st.sampled_from(list(MatchKind)))
        if kind is MatchKind.BYE:
            matches.append(MatchRecord(a, None, a, 3, 0, 0, 0, kind))
        elif kind is MatchKind.DOUBLE_LOSS:
            matches.append(MatchRecord(a, b, None, 0, 0, 0, 0, kind))
        else:
            winner = draw(st.sampled_from((a, b)))
            matches.append(MatchRecord(a, b, winner, 1, 0, 40, 0, kind))
    return field(*ids), matches


tables = st.builds(PointsTable, st.integers(0, 5), st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=200, deadline=None)
@given(records(), tables)
def test_points_add_up_the_table_over_every_match(phase, table):
    entries, matches = phase
    rows = standings(entries, matches, [POINTS, LOTS], points=table)
    for row in rows:
        mine = [m for m in matches if row.pair in (m.pair_a, m.pair_b)]
        walkovers = sum(
            1
            for m in mine
            if m.kind is MatchKind.DOUBLE_LOSS
            or (m.kind is MatchKind.FORFEIT and m.winner != row.pair)
        )
        expected = (
            table.win * row.won
            + table.loss * (row.played - row.won - walkovers)
            + table.walkover_loss * walkovers
        )
        assert row.points == expected
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)


@settings(max_examples=100, deadline=None)
@given(records())
def test_without_a_table_points_order_as_matches_won(phase):
    entries, matches = phase
    by_points = standings(entries, matches, [POINTS, LOTS])
    by_wins = standings(entries, matches, [MW, LOTS])
    assert [row.pair for row in by_points] == [row.pair for row in by_wins]
    assert all(row.points == row.won for row in by_points)
