"""The circuit's ranking core, without a database: places, points, best N, tiebreaks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from seasons.circuits.ranking import (
    PhaseTable,
    Tiebreak,
    TournamentResult,
    circuit_ranking,
    final_places,
    place_points,
)
from seasons.interpenas.result import AWAY, DRAW, HOME, BoardResult, signature, team_result

TABLE = [100, 80, 65, 55]


def _t(tournament: int, places: dict[int, int], order: int | None = None) -> TournamentResult:
    # pair p is played by players 10p and 10p+1
    return TournamentResult(
        tournament=tournament,
        order=tournament if order is None else order,
        places=places,
        players={p: (10 * p, 10 * p + 1) for p in places},
    )


def _rank(tournaments, best=None, tiebreaks=("best_place", "counted_results", "played")):
    return circuit_ranking(
        tournaments,
        points_table=TABLE,
        participation=5,
        best_results=best,
        tiebreaks=list(tiebreaks),
    )


def test_the_last_phase_places_first_and_earlier_phases_place_who_did_not_go_on():
    groups = [PhaseTable(((1, 1), (2, 2), (3, 3))), PhaseTable(((1, 4), (2, 5), (3, 6)))]
    knockout = [PhaseTable(((1, 4), (2, 1), (3, 2), (3, 5)))]
    places = final_places([groups, knockout])
    assert places[4] == 1 and places[1] == 2
    assert places[2] == places[5] == 3  # out in the same round: a shared place
    assert places[3] == places[6] == 5  # both groups' thirds share the next place


def test_a_place_beyond_the_table_earns_participation():
    assert place_points(1, TABLE, 5) == 100
    assert place_points(4, TABLE, 5) == 55
    assert place_points(5, TABLE, 5) == 5


def test_both_players_of_a_pair_earn_its_points_and_best_n_counts():
    tournaments = [_t(1, {1: 1, 2: 2}), _t(2, {1: 4, 2: 1}), _t(3, {1: 2, 2: 5})]
    rows = {r.player: r for r in _rank(tournaments, best=2)}
    assert rows[10].points == rows[11].points == 100 + 80
    assert rows[20].points == 100 + 80
    assert [r.counted for r in rows[10].results] == [True, False, True]
    every = {r.player: r for r in _rank(tournaments)}
    assert every[10].points == 100 + 55 + 80


def test_equal_points_are_separated_by_the_circuits_tiebreaks_in_its_order():
    tournaments = [_t(1, {1: 1, 2: 2, 3: 3}), _t(2, {1: 9, 2: 3, 3: 2})]
    # pair 1: 100 + 5 = 105; pair 2: 80 + 65 = 145; pair 3: 65 + 80 = 145
    rows = _rank(tournaments, tiebreaks=["latest"])
    top = [r for r in rows if r.points == 145]
    assert [r.player for r in top][:2] == [30, 31]  # more in the latest tournament
    assert top[0].position == 1 and top[2].position == 3
    assert top[2].separated_by == "latest"
    rows = _rank(tournaments, tiebreaks=["best_place"])
    assert {r.player for r in rows if r.position == 1} == {20, 21, 30, 31}  # still equal


def test_players_equal_on_every_tiebreak_share_the_position():
    rows = _rank([_t(1, {1: 1, 2: 1})])
    assert {r.position for r in rows} == {1}


@given(
    st.lists(
        st.dictionaries(st.integers(1, 8), st.integers(1, 10), min_size=1, max_size=8),
        min_size=1,
        max_size=6,
    ),
    st.none() | st.integers(1, 4),
    st.permutations([t.value for t in Tiebreak]),
)
def test_the_ranking_is_ordered_and_counts_at_most_n_results(places, best, tiebreaks):
    rows = _rank([_t(i, p) for i, p in enumerate(places, start=1)], best, tiebreaks)
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)
    for index, row in enumerate(rows):
        counted = [r for r in row.results if r.counted]
        assert row.points == sum(r.points for r in counted)
        assert best is None or len(counted) == min(best, len(row.results))
        # the counted results are the best ones
        dropped = [r.points for r in row.results if not r.counted]
        assert not dropped or max(dropped) <= min(r.points for r in counted)
        assert row.position <= index + 1
        if index:
            assert row.position >= rows[index - 1].position


def _board(n, winner, gh, ga, confirmed=True):
    return BoardResult(n, 100 + n, 3, confirmed, winner, gh, ga)


def test_the_team_result_is_boards_then_games():
    boards = [_board(1, HOME, 3, 1), _board(2, AWAY, 2, 3), _board(3, HOME, 3, 2)]
    result = team_result(boards)
    assert (result.boards_home, result.boards_away, result.winner) == (2, 1, HOME)
    even = team_result([_board(1, HOME, 3, 2), _board(2, AWAY, 0, 3)])
    assert (even.games_home, even.games_away, even.winner) == (3, 5, AWAY)
    draw = team_result([_board(1, HOME, 3, 2), _board(2, AWAY, 2, 3)])
    assert draw.winner == DRAW


def test_an_unconfirmed_board_leaves_the_team_result_open():
    result = team_result([_board(1, HOME, 3, 0), _board(2, None, 0, 0, confirmed=False)])
    assert result.winner is None and not result.complete
    assert signature([_board(2, None, 0, 0), _board(1, HOME, 3, 0)]) == "101.3 102.3"
