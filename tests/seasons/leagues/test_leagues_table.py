"""The league's standings table (pure): points, walkovers, double losses, tiebreaks, per
jornada, and properties over random seasons."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from seasons.leagues.table import (
    A_WINS,
    B_WINS,
    DOUBLE_LOSS,
    LeagueResult,
    Points,
    league_table,
)


def r(jornada, a, b, outcome, **kw):
    return LeagueResult(jornada, (a,), (b,), outcome, **kw)


def test_two_for_a_win_one_for_a_loss_played_none_for_a_walkover_lost():
    rows = league_table(
        [1, 2, 3],
        [r(1, 1, 2, A_WINS), r(2, 3, 1, B_WINS, walkover=True), r(3, 2, 3, DOUBLE_LOSS)],
    )
    by = {row.competitor: row for row in rows}
    assert by[1].points == 4 and by[1].won == 2
    assert by[2].points == 1 and by[2].lost == 2 and by[2].walkovers_lost == 1
    assert by[3].points == 0 and by[3].walkovers_lost == 2
    assert [row.competitor for row in rows] == [1, 2, 3]


def test_the_league_chooses_its_points():
    rows = league_table([1, 2], [r(1, 1, 2, A_WINS)], points=Points(win=3, loss=0))
    assert [(row.competitor, row.points) for row in rows] == [(1, 3), (2, 0)]


def test_head_to_head_breaks_a_tie_before_the_games():
    # 1 and 2 level on points; 2 has the better games, but 1 beat 2.
    results = [
        r(1, 1, 2, A_WINS, games_a=3, games_b=2),
        r(2, 2, 3, A_WINS, games_a=3, games_b=0),
        r(3, 3, 1, A_WINS, games_a=3, games_b=0),
        r(4, 2, 4, A_WINS, games_a=3, games_b=0),
        r(5, 1, 4, A_WINS, games_a=3, games_b=2),
    ]
    rows = league_table([1, 2, 3, 4], results)
    assert [row.competitor for row in rows][:2] == [1, 2]
    assert rows[1].tiebreak == "head_to_head"
    rows = league_table([1, 2, 3, 4], results, tiebreaks=["games"])
    assert [row.competitor for row in rows][:2] == [2, 1]
    assert rows[1].tiebreak == "games"


def test_standings_after_a_jornada_count_only_the_jornadas_up_to_it():
    results = [r(1, 1, 2, A_WINS), r(2, 2, 1, A_WINS), r(3, 2, 1, A_WINS)]
    assert league_table([1, 2], results, upto=1)[0].competitor == 1
    assert league_table([1, 2], results)[0].competitor == 2


def test_individual_results_count_for_each_player_of_the_pair():
    rows = league_table([], [LeagueResult(1, (1, 2), (3, 4), A_WINS)])
    assert {row.competitor: row.points for row in rows} == {1: 2, 2: 2, 3: 1, 4: 1}


outcomes = st.sampled_from([A_WINS, B_WINS, DOUBLE_LOSS])


@st.composite
def seasons(draw):
    n = draw(st.integers(2, 7))
    results = []
    for j in range(draw(st.integers(0, 12))):
        a, b = draw(st.lists(st.integers(1, n), min_size=2, max_size=2, unique=True))
        g = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        results.append(
            r(j + 1, a, b, draw(outcomes), walkover=draw(st.booleans()), games_a=g[0], games_b=g[1])
        )
    return list(range(1, n + 1)), results


@given(seasons())
def test_properties_of_any_season(season):
    competitors, results = season
    rows = league_table(competitors, results)
    assert sorted(row.competitor for row in rows) == competitors
    assert [row.position for row in rows] == list(range(1, len(rows) + 1))
    assert all(a.points >= b.points for a, b in zip(rows, rows[1:], strict=False))
    assert sum(row.played for row in rows) == 2 * len(results)
    assert all(row.won + row.lost == row.played for row in rows)
    # the order of the results does not change the table
    again = league_table(list(reversed(competitors)), list(reversed(results)))
    assert [row.competitor for row in again] == [row.competitor for row in rows]
