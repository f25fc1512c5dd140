"""The ratings' pure core (seasons/ratings/rate.py): OpenSkill over plain match records, no
database."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from seasons.ratings import rate
from seasons.ratings.rate import NEW, MatchRecord, Outcome, Result


def record(key, a, b, outcome=Outcome.A, *, forfeit=False):
    return MatchRecord(key=key, side_a=a, side_b=b, outcome=outcome, forfeit=forfeit, club_id=1)


def test_the_winners_go_up_the_losers_down_and_everybody_gets_surer():
    run = rate.rate([record("1", (1, 2), (3, 4))])
    for p in (1, 2):
        assert run.ratings[p].mu > NEW.mu
    for p in (3, 4):
        assert run.ratings[p].mu < NEW.mu
    assert all(r.sigma < NEW.sigma for r in run.ratings.values())
    assert [(h.player_id, h.side, h.result, h.points) for h in run.history] == [
        (1, "a", Result.WIN, 12),
        (2, "a", Result.WIN, 12),
        (3, "b", Result.LOSS, -10),
        (4, "b", Result.LOSS, -10),
    ]


def test_both_players_of_a_pair_move_by_the_team_result():
    run = rate.rate([record("1", (1, 2), (3, 4), Outcome.B)])
    assert run.ratings[1] == run.ratings[2]  # same start, same team: same rating
    assert run.ratings[3].mu > run.ratings[1].mu


def test_beating_a_stronger_pair_gains_more_than_beating_a_weaker_one():
    strong = {3: rate.Rating(35, 4), 4: rate.Rating(35, 4)}
    weak = {3: rate.Rating(15, 4), 4: rate.Rating(15, 4)}
    upset = rate.rate([record("1", (1, 2), (3, 4))], strong).ratings[1].mu
    expected = rate.rate([record("1", (1, 2), (3, 4))], weak).ratings[1].mu
    assert upset > expected > NEW.mu


def test_a_forfeit_counts_in_points_only():
    run = rate.rate([record("1", (1, 2), (3, 4), Outcome.B, forfeit=True)])
    assert run.ratings[1] == NEW and run.ratings[3] == NEW
    assert [h.points for h in run.history] == [-20, -20, 12, 12]
    assert [h.result for h in run.history][::2] == [Result.ABANDON, Result.WALKOVER]


def test_a_draw_moves_nobody_apart_when_they_were_equal():
    run = rate.rate([record("1", (1, 2), (3, 4), Outcome.DRAW)])
    assert run.ratings[1].mu == run.ratings[3].mu
    assert {h.points for h in run.history} == {0}


def test_a_newcomer_shows_zero():
    assert NEW.shown == 0.0


players = st.lists(st.integers(0, 9), min_size=4, max_size=4, unique=True)
records = st.lists(
    st.tuples(players, st.sampled_from(list(Outcome)), st.booleans()), min_size=1, max_size=30
).map(
    lambda rows: [
        record(f"{i:04d}", tuple(p[:2]), tuple(p[2:]), outcome, forfeit=forfeit)
        for i, (p, outcome, forfeit) in enumerate(rows)
    ]
)


@settings(max_examples=60)
@given(records, st.data())
def test_rating_in_two_pieces_is_rating_at_once(matches, data):
    """What a re-rating from a stored point relies on: continuing from the ratings after match
    k gives exactly (to the last bit) what one run gives."""
    cut = data.draw(st.integers(0, len(matches)))
    once = rate.rate(matches)
    first = rate.rate(matches[:cut])
    second = rate.rate(matches[cut:], first.ratings)
    assert second.ratings == once.ratings
    assert first.history + second.history == once.history


@settings(max_examples=60)
@given(records)
def test_points_are_the_sum_of_twelve_ten_and_twenty(matches):
    run = rate.rate(matches)
    for h in run.history:
        assert (
            h.points
            == {
                Result.WIN: 12,
                Result.WALKOVER: 12,
                Result.LOSS: -10,
                Result.ABANDON: -20,
                Result.DRAW: 0,
            }[h.result]
        )


def played(partners, opponents, result):
    return rate.PlayedMatch(key="", partners=partners, opponents=opponents, result=result)


def test_partners_best_partner_and_head_to_head():
    matches = [
        played((2,), (3, 4), Result.WIN),
        played((2,), (3, 5), Result.LOSS),
        played((2,), (6, 7), Result.LOSS),
        played((8,), (3, 4), Result.WIN),
        played((8,), (6, 5), Result.WIN),
        played((8,), (6, 7), Result.WALKOVER),
    ]
    assert [(t.player_id, t.matches, t.wins) for t in rate.partners(matches)] == [
        (8, 3, 3),
        (2, 3, 1),
    ]
    assert rate.best_partner(matches).player_id == 8
    assert rate.best_partner(matches[:2]) is None  # nobody with three matches yet
    assert rate.head_to_head(matches, 3) == [matches[0], matches[1], matches[3]]
    assert [t.player_id for t in rate.opponents(matches)][:2] == [3, 6]  # 3 each, 2 won
