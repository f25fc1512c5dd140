"""A tournament's plan (tournaments.draw.plan): the entrants rules as real bases write them,
the whole plan checked before the start, groups seeded by results and partial round robins;
properties: every entrant of a phase comes from exactly one rule, seeded groups keep every
entrant once and respect their sizes, a partial round robin has no rematch."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError
from tournaments.draw.plan import (
    PhaseSpec,
    Rule,
    SourceResult,
    group_sizes,
    partial_schedule,
    plan_check,
    resolve_entrants,
    rule_from_dict,
    rule_to_dict,
    seed_groups,
)
from tournaments.draw.roundrobin import Group


def rule(**data):
    return rule_from_dict(data)


# --- Reading rules ------------------------------------------------------------------------------


def test_a_rule_reads_back_from_its_json():
    for data in (
        {"rule": "top", "phase": 1, "count": 8},
        {"rule": "places", "phase": 1, "first": 9, "last": 16},
        {"rule": "group", "phase": 2, "group": 3, "first": 1, "last": 2},
        {"rule": "losers", "phase": 2, "stage": 1},
        {"rule": "fixed", "entries": [4, 7]},
        {"rule": "not_qualified", "phase": 1},
        {"rule": "all"},
    ):
        assert rule_to_dict(rule_from_dict(data)) == data


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"rule": "best"}, "plan_rule_unknown"),
        ("top", "plan_rule_unknown"),
        ({"rule": "top", "phase": 1}, "plan_rule_missing"),
        ({"rule": "top", "phase": 0, "count": 3}, "plan_rule_number"),
        ({"rule": "places", "phase": 1, "first": 5, "last": 2}, "plan_rule_places"),
        ({"rule": "fixed", "entries": ["a"]}, "plan_rule_entries"),
    ],
)
def test_a_rule_that_cannot_be_read_says_why(data, code):
    with pytest.raises(DrawError) as error:
        rule_from_dict(data)
    assert error.value.code == code


def final_from(**data):
    return PhaseSpec(4, "Final", "single_elimination", (rule(**data),))


# --- The plan as a whole ------------------------------------------------------------------------


def four_phases():
    """Everybody plays a Swiss; the top 8 play two groups seeded by level, the rest a Cuadro B;
    each group's first two play a final."""
    return [
        PhaseSpec(1, "Suizo", "swiss", rounds=4),
        PhaseSpec(
            2,
            "Grupos",
            "round_robin",
            (rule(rule="top", phase=1, count=8),),
            group_sizes=(4, 4),
            rounds=3,
        ),
        PhaseSpec(3, "Cuadro B", "single_elimination", (rule(rule="not_qualified", phase=1),)),
        PhaseSpec(
            4,
            "Final",
            "single_elimination",
            (rule(rule="top_of_each_group", phase=2, count=2),),
        ),
    ]


def test_a_four_phase_plan_gives_each_phase_its_size():
    assert plan_check(four_phases(), 20) == {1: 20, 2: 8, 3: 12, 4: 4}


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        (
            lambda p: p.__setitem__(
                1, PhaseSpec(2, "Grupos", "round_robin", (rule(rule="top", phase=1, count=30),), 4)
            ),
            "plan_rule_places_beyond",
            "Grupos, entrants rule 1: Suizo has 20 entrants; it has no place 30.",
        ),
        (
            lambda p: p.__setitem__(
                3,
                final_from(rule="top", phase=4, count=2),
            ),
            "plan_rule_source",
            "Final, entrants rule 1: it takes from phase 4, which is not an earlier phase",
        ),
        (
            lambda p: p.__setitem__(
                3,
                PhaseSpec(
                    4, "Final", "single_elimination", (rule(rule="group", phase=2, group=3),)
                ),
            ),
            "plan_rule_group_unknown",
            "Grupos has 2 groups; there is no group 3.",
        ),
        (
            lambda p: p.__setitem__(
                3,
                PhaseSpec(
                    4, "Final", "single_elimination", (rule(rule="losers", phase=2, stage=1),)
                ),
            ),
            "plan_rule_losers_format",
            "only a single elimination has losers of a round",
        ),
        (
            lambda p: p.__setitem__(
                1,
                PhaseSpec(
                    2, "Grupos", "round_robin", (rule(rule="top", phase=1, count=8),), 4, rounds=4
                ),
            ),
            "plan_partial_rounds",
            "a group of 4 can play at most 3 rounds without a rematch, not 4.",
        ),
    ],
)
def test_a_rule_that_cannot_work_is_refused_naming_it(change, code, words):
    plan = four_phases()
    change(plan)
    with pytest.raises(DrawError) as error:
        plan_check(plan, 20)
    assert error.value.code == code
    assert words in error.value.message


def test_two_rules_of_a_phase_taking_the_same_places_are_refused():
    plan = [
        PhaseSpec(1, "Suizo", "swiss"),
        PhaseSpec(
            2,
            "Final",
            "single_elimination",
            (
                rule(rule="top", phase=1, count=8),
                rule(rule="places", phase=1, first=5, last=12),
            ),
        ),
    ]
    with pytest.raises(DrawError) as error:
        plan_check(plan, 16)
    assert error.value.code == "plan_rules_overlap"


def test_a_consolation_needs_somebody_left():
    plan = [
        PhaseSpec(1, "Suizo", "swiss"),
        PhaseSpec(2, "A", "single_elimination", (rule(rule="all", phase=1),)),
        PhaseSpec(3, "B", "single_elimination", (rule(rule="not_qualified", phase=1),)),
    ]
    with pytest.raises(DrawError) as error:
        plan_check(plan, 16)
    assert error.value.code == "plan_rule_nobody_left"
    assert error.value.params["phase"] == "B"


def test_losers_of_a_knockouts_first_round_count_its_byes():
    plan = [
        PhaseSpec(1, "Cuadro", "single_elimination"),
        PhaseSpec(2, "Repesca", "single_elimination", (rule(rule="losers", phase=1, stage=1),)),
        PhaseSpec(3, "Cuartos", "swiss", (rule(rule="losers", phase=1, stage=2),)),
    ]
    # 12 in a bracket of 16: 4 byes, 4 matches in round 1; round 2 has 4 matches
    assert plan_check(plan, 12) == {1: 12, 2: 4, 3: 4}


# --- Choosing the entrants ----------------------------------------------------------------------


GROUPS = SourceResult(groups=((1, 2, 3, 4), (5, 6, 7, 8)), losers={1: (3, 7)})


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"rule": "top", "phase": 1, "count": 3}, [1, 5, 2]),
        ({"rule": "top_of_each_group", "phase": 1, "count": 2}, [1, 5, 2, 6]),
        ({"rule": "group_winners", "phase": 1}, [1, 5]),
        ({"rule": "places", "phase": 1, "first": 3, "last": 4}, [2, 6]),
        ({"rule": "group", "phase": 1, "group": 2}, [5, 6, 7, 8]),
        ({"rule": "group", "phase": 1, "group": 2, "first": 1, "last": 2}, [5, 6]),
        ({"rule": "losers", "phase": 1, "stage": 1}, [3, 7]),
        ({"rule": "fixed", "entries": [8, 4]}, [8, 4]),
        ({"rule": "all", "phase": 1}, [1, 5, 2, 6, 3, 7, 4, 8]),
    ],
)
def test_each_rule_takes_what_the_bases_say(data, expected):
    got = resolve_entrants([rule_from_dict(data)], {1: GROUPS})
    assert [e for e, _ in got] == expected


def test_the_cuadro_b_takes_those_no_other_phase_took():
    final = [rule(rule="top_of_each_group", phase=1, count=2)]
    got = resolve_entrants([rule(rule="not_qualified", phase=1)], {1: GROUPS}, other_rules=final)
    assert [e for e, _ in got] == [3, 7, 4, 8]


def test_an_entrant_from_two_rules_is_refused():
    with pytest.raises(DrawError) as error:
        resolve_entrants(
            [rule(rule="group_winners", phase=1), rule(rule="fixed", entries=[5])], {1: GROUPS}
        )
    assert error.value.code == "plan_entrant_twice"


source_results = (
    st.integers(2, 5)
    .flatmap(lambda groups: st.lists(st.integers(2, 6), min_size=groups, max_size=groups))
    .map(
        lambda sizes: SourceResult(
            groups=tuple(
                tuple(range(sum(sizes[:g]) + 1, sum(sizes[: g + 1]) + 1)) for g in range(len(sizes))
            )
        )
    )
)


@settings(max_examples=150)
@given(source=source_results, data=st.data())
def test_every_entrant_of_a_phase_comes_from_exactly_one_rule(source, data):
    smallest = min(len(g) for g in source.groups)
    everybody = len(source.everybody)
    each = data.draw(st.integers(1, smallest))
    cut = data.draw(st.integers(0, everybody))
    rules = [rule(rule="top_of_each_group", phase=1, count=each)]
    other = []
    if cut:
        other = [rule(rule="places", phase=1, first=1, last=cut)]
    consolation = resolve_entrants(
        [rule(rule="not_qualified", phase=1)], {1: source}, other_rules=rules
    )
    final = resolve_entrants(rules, {1: source})
    ids = [e for e, _ in final] + [e for e, _ in consolation]
    # the final and the consolation share nobody and together hold the whole source
    assert sorted(ids) == sorted(source.everybody)
    assert all(index == 0 for _, index in final + consolation)
    if other:
        top = resolve_entrants(other, {1: source})
        assert len(top) == cut == len({e for e, _ in top})


# --- Groups -------------------------------------------------------------------------------------


def test_groups_of_unequal_size_as_the_bases_write_them():
    assert group_sizes(10, sizes=(4, 6)) == (4, 6)
    assert group_sizes(10, group_size=4) == (4, 3, 3)
    with pytest.raises(DrawError) as error:
        group_sizes(10, sizes=(4, 5))
    assert error.value.code == "plan_group_sizes"


def test_snake_and_level_seeding():
    ranked = list(range(1, 13))
    snake = seed_groups(ranked, (4, 4, 4), method="snake", rng=1)
    assert [g.entrant_ids for g in snake] == [(1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10)]
    level = seed_groups(list(range(1, 17)), (8, 8), method="level", rng=1)
    assert level[0].entrant_ids == tuple(range(1, 9))
    assert level[1].entrant_ids == tuple(range(9, 17))


def test_pots_put_one_of_each_pot_in_each_group():
    ranked = list(range(1, 13))
    pots = seed_groups(ranked, (4, 4, 4), method="pots", rng=7)
    for g in pots:
        assert [(e - 1) // 3 for e in g.entrant_ids] == [0, 1, 2, 3]


@settings(max_examples=150)
@given(
    sizes=st.lists(st.integers(2, 7), min_size=1, max_size=6),
    method=st.sampled_from(["lot", "snake", "level", "pots"]),
    seed=st.integers(0, 10_000),
)
def test_seeded_groups_keep_every_entrant_once_at_their_sizes(sizes, method, seed):
    ranked = list(range(100, 100 + sum(sizes)))
    groups = seed_groups(ranked, sizes, method=method, rng=seed)
    assert [len(g.entrant_ids) for g in groups] == list(sizes)
    assert sorted(e for g in groups for e in g.entrant_ids) == ranked
    for g in groups:  # best first inside each group
        assert list(g.entrant_ids) == sorted(g.entrant_ids)


@settings(max_examples=100)
@given(size=st.integers(2, 12), data=st.data())
def test_a_partial_round_robin_has_no_rematch(size, data):
    full = size - 1 if size % 2 == 0 else size
    rounds = data.draw(st.integers(1, full))
    schedule = partial_schedule(Group("A", tuple(range(1, size + 1))), rounds)
    assert len(schedule) == rounds
    met = [frozenset((p.a_id, p.b_id)) for r in schedule for p in r if not p.is_bye]
    assert len(met) == len(set(met))
    played = dict.fromkeys(range(1, size + 1), 0)
    for m in met:
        for e in m:
            played[e] += 1
    # everybody plays every round but the one they rest in (odd groups)
    assert all(rounds - 1 <= n <= rounds for n in played.values())


def test_rules_of_the_plan_dataclass_are_plain():
    assert Rule("top", phase=1, count=2) == rule(rule="top", phase=1, count=2)


def test_a_group_ladder_s_level_groups_feed_a_final_per_group():
    """A group ladder has no group size: its count of level groups (``groups``) makes its
    groups, so a final per group may take group 1 or 2 of it, and no group 3."""
    ladder = PhaseSpec(2, "Escalera", "group_ladder", (), groups=2)
    swiss = PhaseSpec(1, "Suizo", "swiss", rounds=3)
    first = PhaseSpec(
        3, "Final grupo 1", "single_elimination", (rule(rule="group", phase=2, group=1),)
    )
    second = PhaseSpec(
        4, "Final grupo 2", "single_elimination", (rule(rule="group", phase=2, group=2),)
    )

    sizes = plan_check([swiss, ladder, first, second], 16)

    assert sizes[3] == 8 and sizes[4] == 8
    third = PhaseSpec(
        5, "Final grupo 3", "single_elimination", (rule(rule="group", phase=2, group=3),)
    )
    with pytest.raises(DrawError) as error:
        plan_check([swiss, ladder, first, second, third], 16)
    assert error.value.code == "plan_rule_group_unknown"
