"""Group ladders (ascensos y descensos) and the ladder of tables (sube y baja): the ladders
conserve their entrants, no rematch inside a cycle where one can be avoided, each group and
each table keeps its size, and the moves follow the rule."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, Entrant, Result
from tournaments.draw.ladder import (
    LadderRule,
    ladder_check,
    ladder_groups,
    ladder_moves,
    ladder_round,
)
from tournaments.draw.table_ladder import (
    TableLadder,
    table_ladder_next,
    table_ladder_order,
    table_ladder_pairings,
    table_ladder_start,
)

# --- Group ladder ----------------------------------------------------------------------------


@st.composite
def ladders(draw):
    groups = draw(st.integers(2, 5))
    n = draw(st.integers(2 * groups, 6 * groups))
    k = draw(st.integers(1, 5))
    rule = draw(
        st.one_of(
            st.builds(LadderRule, st.just("wins"), st.one_of(st.none(), st.integers(1, 3))),
            st.builds(LadderRule, st.just("place"), st.integers(1, 1)),
        )
    )
    return [Entrant(i, seed=i) for i in range(1, n + 1)], groups, k, rule


def _play(pairings, rnd, rng) -> list[Result]:
    return [
        Result(rnd, p.a_id, p.b_id, rng.choice((p.a_id, p.b_id)))
        for p in pairings
        if p.b_id is not None
    ]


@settings(max_examples=60, deadline=None)
@given(field=ladders(), seed=st.integers(0, 10**6), cycles=st.integers(1, 3))
def test_ladder_conserves_pairs_and_sizes_and_avoids_rematches(field, seed, cycles):
    import random

    entrants, g, k, rule = field
    groups = ladder_groups(entrants, groups=g, rng=seed)
    sizes = [len(x) for x in groups]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    # level groups: group A holds the best seeds
    assert groups[0][0] == 1
    rng = random.Random(seed)
    past: list[tuple[int, int]] = []
    for cycle in range(cycles):
        results = []
        met = Counter()
        for r in range(1, k + 1):
            pairings = ladder_round(
                groups, cycle_round=r, cycle_rounds=k, rng=seed + cycle, past=past
            )
            seen = Counter(e for p in pairings for e in p.entrant_ids)
            assert sorted(seen) == sorted(e.id for e in entrants)
            assert set(seen.values()) == {1}
            where = {pk: n for n, grp in enumerate(groups) for pk in grp}
            for p in pairings:
                if p.b_id is not None:
                    assert where[p.a_id] == where[p.b_id]  # inside the group
                    met[frozenset((p.a_id, p.b_id))] += 1
            results += _play(pairings, cycle * k + r, rng)
        # no rematch inside the cycle while the cycle fits in the group's round robin
        for grp in groups:
            span = len(grp) - 1 if len(grp) % 2 == 0 else len(grp)
            if k <= span:
                assert all(met[frozenset((a, b))] <= 1 for a in grp for b in grp if a < b)
        past += [(r.a_id, r.b_id) for r in results]
        moved = ladder_moves(groups, results, rule)
        assert [len(x) for x in moved.groups] == sizes
        assert sorted(pk for grp in moved.groups for pk in grp) == sorted(e.id for e in entrants)
        assert not set(moved.up) & set(moved.down)
        # each pair moves one group at most
        before = {pk: n for n, grp in enumerate(groups) for pk in grp}
        after = {pk: n for n, grp in enumerate(moved.groups) for pk in grp}
        for pk in before:
            step = after[pk] - before[pk]
            assert step == (-1 if pk in moved.up else 1 if pk in moved.down else 0)
        groups = moved.groups


def _cycle(groups, outcomes):
    """Results from ``outcomes``: (winner, loser) pairs."""
    return [Result(1, w, loser, w) for w, loser in outcomes]


def test_wins_rule_moves_the_pairs_that_won_or_lost_everything():
    groups = ((1, 2, 3, 4), (5, 6, 7, 8))
    # group A: 1 wins all; 4 loses all. group B: 5 wins all, 8 loses all
    results = _cycle(
        groups,
        [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (5, 6), (5, 7), (5, 8), (6, 7), (6, 8)]
        + [(7, 8)],
    )
    moved = ladder_moves(groups, results, LadderRule("wins"))
    assert moved.up == (5,) and moved.down == (4,)
    assert moved.groups == ((1, 2, 3, 5), (4, 6, 7, 8))


def test_wins_rule_fills_the_other_side_by_place():
    groups = ((1, 2, 3), (4, 5, 6))
    # nobody in A lost everything (a three-way cycle) but 4 won everything in B
    results = _cycle(groups, [(1, 2), (2, 3), (3, 1), (4, 5), (4, 6), (5, 6)])
    moved = ladder_moves(groups, results, LadderRule("wins"), order=[1, 2, 3])
    assert moved.up == (4,)
    assert moved.down == (3,)  # the last of A by the order handed in makes room
    assert moved.groups == ((1, 2, 4), (3, 5, 6))


def test_wins_rule_with_nobody_clean_moves_nobody():
    groups = ((1, 2, 3), (4, 5, 6))
    results = _cycle(groups, [(1, 2), (2, 3), (3, 1), (4, 5), (5, 6), (6, 4)])
    moved = ladder_moves(groups, results, LadderRule("wins"))
    assert moved.up == moved.down == ()
    assert [sorted(g) for g in moved.groups] == [[1, 2, 3], [4, 5, 6]]


def test_place_rule_moves_a_fixed_number():
    groups = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    results = _cycle(groups, [(1, 4), (2, 3), (5, 8), (6, 7), (9, 12), (10, 11)])
    moved = ladder_moves(groups, results, LadderRule("place", 1), order=list(range(1, 13)))
    assert set(moved.up) == {5, 9} and set(moved.down) == {4, 8}
    assert moved.groups == ((1, 2, 3, 5), (4, 6, 7, 9), (8, 10, 11, 12))


def test_cap_on_moves():
    groups = ((1, 2, 3, 4), (5, 6, 7, 8))
    results = _cycle(groups, [(1, 3), (2, 4), (5, 7), (6, 8)])
    moved = ladder_moves(groups, results, LadderRule("wins", 1), order=list(range(1, 9)))
    assert len(moved.up) == len(moved.down) == 1


def test_rules_refused_with_their_name():
    with pytest.raises(DrawError) as error:
        ladder_check(entrants=5, groups=3, rule=LadderRule())
    assert error.value.code == "ladder_groups_too_many"
    assert error.value.params["needed"] == 6
    with pytest.raises(DrawError) as error:
        ladder_check(entrants=12, groups=3, rule=LadderRule("place", 3))
    assert error.value.code == "ladder_moves_too_many"
    with pytest.raises(DrawError) as error:
        ladder_check(entrants=12, groups=1, rule=LadderRule())
    assert error.value.code == "ladder_groups_too_few"
    with pytest.raises(DrawError) as error:
        ladder_check(entrants=12, groups=2, rule=LadderRule("lots"))
    assert error.value.code == "ladder_rule"


# --- Ladder of tables ------------------------------------------------------------------------


@st.composite
def table_fields(draw):
    sizes = draw(
        st.one_of(
            st.lists(st.just(2), min_size=1, max_size=8),
            st.lists(st.integers(3, 6), min_size=1, max_size=5),
        )
    )
    bench = draw(st.integers(0, 2)) if set(sizes) == {2} else 0
    width = draw(st.sampled_from([1, 2])) if set(sizes) == {2} else 1
    count = sum(sizes) + bench
    sides = [tuple(range(width * i + 1, width * i + width + 1)) for i in range(count)]
    return sides, sizes


@settings(max_examples=80, deadline=None)
@given(field=table_fields(), seed=st.integers(0, 10**6), rounds=st.integers(1, 6))
def test_table_ladder_conserves_and_keeps_sizes(field, seed, rounds):
    import random

    sides, sizes = field
    rng = random.Random(seed)
    ladder = table_ladder_start(sides, sizes=sizes)
    ids = sorted(i for s in sides for i in s)
    previous = None
    for _ in range(rounds):
        finishes = [tuple(rng.sample(table, len(table))) for table in ladder.tables]
        step = table_ladder_next(ladder, finishes, previous=previous, swap=True)
        new = step.ladder
        assert [len(t) for t in new.tables] == sizes
        assert len(new.bench) == len(ladder.bench)
        seated = [i for t in new.tables for s in t for i in s] + [i for s in new.bench for i in s]
        assert sorted(seated) == ids  # nobody leaves the ladder, nobody is seated twice
        if step.swapped is None:
            where = {s: n for n, t in enumerate(new.tables) for s in t}
            for n, finish in enumerate(finishes):
                if n > 0:
                    assert where[finish[0]] == n - 1  # the winner went up a table
                else:
                    assert where[finish[0]] == 0
                if n < len(finishes) - 1:
                    assert where[finish[-1]] == n + 1  # the loser went down a table
        previous, ladder = finishes, new


def test_table_ladder_example_with_a_bench():
    ladder = table_ladder_start([(1,), (2,), (3,), (4,), (5,), (6,), (7,)], sizes=[2, 2, 2])
    assert ladder.tables == (((1,), (2,)), ((3,), (4,)), ((5,), (6,)))
    assert ladder.bench == ((7,),)
    # 2 beats 1, 3 beats 4, 6 beats 5
    step = table_ladder_next(ladder, [((2,), (1,)), ((3,), (4,)), ((6,), (5,))])
    assert step.ladder.tables == (((2,), (3,)), ((1,), (6,)), ((4,), (7,)))
    assert step.ladder.bench == ((5,),)
    assert [p.a_id for p in table_ladder_pairings(step.ladder)] == [2, 1, 4]
    assert table_ladder_order([((2,), (1,)), ((3,), (4,)), ((6,), (5,))], [(7,)]) == [
        (2,),
        (1,),
        (3,),
        (4,),
        (6,),
        (5,),
        (7,),
    ]


def test_swap_after_twice_at_the_top_and_the_bottom():
    top, mid, low = ((1, 2), (3, 4)), ((5, 6), (7, 8)), ((9, 10), (11, 12))
    ladder = TableLadder((top, mid, low))
    finishes = [((1, 2), (3, 4)), ((5, 6), (7, 8)), ((9, 10), (11, 12))]
    first = table_ladder_next(ladder, finishes, swap=True)
    assert first.swapped is None
    # round 2: (1, 2) wins table 1 again, (11, 12) loses the last table again
    t1, t2, t3 = first.ladder.tables
    finishes2 = [((1, 2), (5, 6)), ((3, 4), (9, 10)), ((7, 8), (11, 12))]
    assert sorted(finishes2[0]) == sorted(t1)
    step = table_ladder_next(first.ladder, finishes2, previous=finishes, swap=True)
    assert step.swapped == ((1, 12), (11, 2))
    assert (1, 12) in step.ladder.tables[0] and (11, 2) in step.ladder.tables[2]


def test_pairs_never_swap():
    ladder = TableLadder((((1,), (2,)), ((3,), (4,))))
    finishes = [((1,), (2,)), ((3,), (4,))]
    step = table_ladder_next(ladder, finishes, swap=True)
    step = table_ladder_next(
        step.ladder, [((1,), (3,)), ((2,), (4,))], previous=finishes, swap=True
    )
    assert step.swapped is None


def test_francés_tables_first_up_last_down():
    ladder = TableLadder((((1,), (2,), (3,), (4,)), ((5,), (6,), (7,))))
    step = table_ladder_next(ladder, [((4,), (3,), (2,), (1,)), ((7,), (6,), (5,))])
    assert step.ladder.tables == (((4,), (3,), (2,), (7,)), ((1,), (6,), (5,)))
