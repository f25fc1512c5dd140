"""Round robin (liguilla): groups by snake seeding with club-mates apart, and schedules in
which every pair of group-mates meets exactly once."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, Entrant, Group, round_robin_groups, round_robin_schedule


@st.composite
def fields(draw):
    n = draw(st.integers(2, 48))
    group_size = draw(st.integers(2, 8))
    assume(n >= 2 * math.ceil(n / group_size))
    clubs = draw(st.lists(st.sampled_from(["Oria", "Txoko", "Gure", None]), min_size=n, max_size=n))
    entrants = [Entrant(i, seed=i, club=clubs[i - 1]) for i in range(1, n + 1)]
    return entrants, group_size


@settings(max_examples=80)
@given(field=fields(), seed=st.integers(0, 10**6))
def test_groups_spread_seeds_and_clubs(field, seed):
    entrants, group_size = field
    groups = round_robin_groups(entrants, rng=seed, group_size=group_size)
    g = len(groups)
    assert g == math.ceil(len(entrants) / group_size)
    ids = sorted(i for group in groups for i in group.entrant_ids)
    assert ids == [e.id for e in entrants]  # a partition of the field
    sizes = [len(group.entrant_ids) for group in groups]
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= group_size
    group_of = {i: k for k, group in enumerate(groups) for i in group.entrant_ids}
    # One entrant of each pot (seeds 1..g, g+1..2g, …) per group.
    for start in range(0, len(entrants), g):
        pot = [group_of[s] for s in range(start + 1, min(start + g, len(entrants)) + 1)]
        assert len(pot) == len(set(pot))
    # Club-mates apart whenever possible; otherwise as evenly spread as possible.
    club = {e.id: e.club for e in entrants}
    members = Counter(c for c in club.values() if c)
    for group in groups:
        per_club = Counter(club[i] for i in group.entrant_ids if club[i])
        for name, count in per_club.items():
            assert count <= math.ceil(members[name] / g)


def test_snake_seeding_example():
    entrants = [Entrant(i, seed=i) for i in range(1, 9)]
    groups = round_robin_groups(entrants, rng=0, groups=2)
    assert groups == (Group("A", (1, 4, 5, 8)), Group("B", (2, 3, 6, 7)))


def test_club_mates_are_moved_within_their_pot():
    clubs = {1: "Oria", 4: "Oria"}  # the snake puts 1 and 4 in group A
    entrants = [Entrant(i, seed=i, club=clubs.get(i)) for i in range(1, 9)]
    groups = round_robin_groups(entrants, rng=0, groups=2)
    assert groups == (Group("A", (1, 3, 5, 8)), Group("B", (2, 4, 6, 7)))
    kept = round_robin_groups(entrants, rng=0, groups=2, separate_clubs=False)
    assert kept[0].entrant_ids == (1, 4, 5, 8)


@settings(max_examples=60)
@given(n=st.integers(2, 16))
def test_schedule_every_pair_meets_exactly_once(n):
    group = Group("C", tuple(range(101, 101 + n)))
    schedule = round_robin_schedule(group)
    assert len(schedule) == (n if n % 2 else n - 1)
    meetings = Counter()
    rests = Counter()
    for number, pairings in enumerate(schedule, start=1):
        playing = [i for p in pairings for i in p.entrant_ids]
        assert sorted(playing) == list(group.entrant_ids)  # each once per round
        for p in pairings:
            assert p.reasons[0].params == {"group": "C", "round": number, "rounds": len(schedule)}
            if p.is_bye:
                rests[p.a_id] += 1
                assert p == pairings[-1]
            else:
                meetings[frozenset(p.entrant_ids)] += 1
    assert set(meetings) == {frozenset(pair) for pair in combinations(group.entrant_ids, 2)}
    assert set(meetings.values()) == {1}
    assert set(rests.values()) <= {1} and len(rests) == n % 2 * n


def test_schedule_example_and_rest_reason():
    (first, *_) = round_robin_schedule(Group("A", (1, 2, 3)))
    assert [p.describe() for p in first] == [
        "group A, round 1 of 3",
        "group A, round 1 of 3, rests this round: group A has an odd number of entrants",
    ]


def test_impossible_group_shapes_are_draw_errors():
    entrants = [Entrant(i) for i in range(1, 4)]
    with pytest.raises(DrawError) as error:
        round_robin_groups(entrants, rng=0, group_size=2)  # 2 groups: one would have 1 entrant
    assert error.value.code == "groups_too_many"
    with pytest.raises(DrawError) as error:
        round_robin_groups(entrants, rng=0, group_size=1)
    assert error.value.code == "group_size_too_small"
    with pytest.raises(DrawError) as error:
        round_robin_schedule(Group("A", (1,)))
    assert error.value.code == "group_too_small"


def test_same_seed_same_groups():
    entrants = [Entrant(i, club=f"c{i % 3}") for i in range(1, 30)]
    one = round_robin_groups(entrants, rng=9, group_size=5)
    assert round_robin_groups(entrants[::-1], rng=9, group_size=5) == one
