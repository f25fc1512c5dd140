"""The championships' pure cores, without a database: quotas, the cut, the final places in
order, and the eligibility rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from seasons.championships.eligibility import Registration, Rule, Stop, refusal
from seasons.championships.quotas import qualified, quota
from seasons.competitions.places import PhaseTable, places_in_order


def test_a_fixed_quota_is_the_centres_own_number_first():
    assert quota("fixed", pairs=12, number=2) == 2
    assert quota("fixed", pairs=12, number=2, own=4) == 4
    assert quota("fixed", pairs=1, number=2) == 1  # never more than played


def test_one_pair_per_eight_at_least_one():
    per_eight = [quota("proportional", pairs=n, number=8, minimum=1) for n in (3, 7, 8, 16, 23, 24)]
    assert per_eight == [1, 1, 1, 2, 2, 3]
    assert quota("proportional", pairs=0, number=8, minimum=1) == 0


def test_a_quota_by_the_centres_ranking():
    table = [3, 2, 2]
    ranks = [
        quota("ranking", pairs=20, number=0, minimum=1, table=table, rank=r) for r in (1, 2, 3, 4)
    ]
    assert ranks == [3, 2, 2, 1]
    assert quota("ranking", pairs=20, number=0, minimum=1, table=table, rank=None) == 1


@given(
    pairs=st.integers(0, 200),
    number=st.integers(1, 50),
    minimum=st.integers(0, 10),
)
def test_a_quota_is_never_more_than_the_pairs_that_played(pairs, number, minimum):
    for rule in ("fixed", "proportional", "ranking"):
        got = quota(rule, pairs=pairs, number=number, minimum=minimum, table=[5, 4], rank=1)
        assert 0 <= got <= pairs


def test_the_cut_takes_the_first_places_and_says_when_it_splits_a_tie():
    places = [(10, 1), (11, 2), (12, 3), (13, 3), (14, 5)]
    assert qualified(places, 2).qualified == ((10, 1), (11, 2))
    assert not qualified(places, 2).tie_at_cut
    assert qualified(places, 3).tie_at_cut
    assert qualified(places, 9).qualified == tuple(places)


def test_places_in_order_break_a_shared_place_by_the_standings_order():
    groups = [PhaseTable(((1, 7), (2, 8))), PhaseTable(((1, 5), (2, 6)))]
    knockout = [PhaseTable(((1, 5), (2, 7)))]
    assert places_in_order([groups, knockout]) == [(5, 1), (7, 2), (8, 3), (6, 3)]


STOPS = {
    1: Stop(1, finished=True, qualifies=True, centre=100),  # qualifier of centre 100, over
    2: Stop(2, finished=False, qualifies=True, centre=200),  # qualifier of centre 200
    3: Stop(3, finished=False, qualifies=False, centre=None),  # the final
}


def test_a_player_eliminated_in_a_qualifier_does_not_come_back_even_as_a_substitute():
    out = Registration(player=1, stop=1, entry=50, centre=100, qualified=False)
    found = refusal(players=[1], stop=2, centre=200, stops=STOPS, registrations=[out])
    assert (found.rule, found.player, found.other) == (Rule.ELIMINATED, 1, out)
    # in the final, as a member changed on the day, the same
    found = refusal(
        players=[1],
        stop=3,
        centre=100,
        stops=STOPS,
        registrations=[out],
        member_change=True,
        changes_made=0,
        changes_allowed=1,
    )
    assert found.rule is Rule.ELIMINATED


def test_a_qualified_player_goes_on_for_the_centre_they_represent():
    went_through = Registration(player=1, stop=1, entry=50, centre=100, qualified=True)
    assert (
        refusal(players=[1], stop=3, centre=100, stops=STOPS, registrations=[went_through]) is None
    )


def test_a_player_represents_one_centre_substitutes_included():
    substitute = Registration(player=2, stop=2, entry=60, centre=200, substitute=True)
    found = refusal(players=[2], stop=1, centre=100, stops=STOPS, registrations=[substitute])
    assert (found.rule, found.other) == (Rule.ONE_CENTRE, substitute)
    # a substitute who was not in a pair is not eliminated when that pair goes out
    assert refusal(players=[2], stop=3, centre=200, stops=STOPS, registrations=[substitute]) is None


def test_a_pair_changes_only_as_many_players_as_the_championship_allows():
    assert (
        refusal(
            players=[9],
            stop=3,
            centre=None,
            stops=STOPS,
            registrations=[],
            member_change=True,
            changes_made=0,
            changes_allowed=1,
        )
        is None
    )
    found = refusal(
        players=[9],
        stop=3,
        centre=None,
        stops=STOPS,
        registrations=[],
        member_change=True,
        changes_made=1,
        changes_allowed=1,
    )
    assert found.rule is Rule.MEMBER_CHANGES
