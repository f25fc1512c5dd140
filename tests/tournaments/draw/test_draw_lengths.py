"""Match length per round (tournaments.draw.lengths): a knockout's rounds counted from the final,
the effective length of a round (tournament → phase → round), the lengths as the bases group
them, and every refusal. Worked examples from real bases, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.draw import DrawError, Entrant, double_elimination, single_elimination
from tournaments.draw.lengths import (
    STAGES,
    length_of,
    lengths_clean,
    lengths_grouped,
    round_length,
    stage_of,
)

BASE = {"stones_per_game": 40, "games_per_vaca": 3, "vacas_per_match": 1}
BEST_OF_3 = {"games_per_vaca": 2}
BEST_OF_5 = {"games_per_vaca": 3}


def _final_stage(bracket) -> int:
    return bracket.match(bracket.finals[0]).stage


def test_quarters_and_semis_best_of_3_the_final_best_of_5():
    # Bases: "cuartos y semifinales al mejor de 3 juegos, la final al mejor de 5"
    lengths = lengths_clean(
        {"final": BEST_OF_5, "semifinal": BEST_OF_3, "quarterfinal": BEST_OF_3}, knockout=True
    )
    bracket = single_elimination([Entrant(i) for i in range(1, 9)], rng=1)
    final = _final_stage(bracket)
    assert final == 3
    played = {
        n: length_of(BASE, {}, round_length(lengths, round_number=n, final_stage=final))
        for n in (1, 2, 3)
    }
    assert played[1]["games_per_vaca"] == 2  # quarter-finals
    assert played[2]["games_per_vaca"] == 2  # semi-finals
    assert played[3]["games_per_vaca"] == 3  # the final, longer: never refused
    assert lengths_grouped(lengths, BASE, knockout=True) == [
        (["quarterfinal", "semifinal"], {**BASE, "games_per_vaca": 2})
    ]


def test_a_group_stage_to_40_and_a_knockout_to_30_are_the_phases_own_lengths():
    group = length_of(BASE, {"stones_per_game": None}, {})
    knockout = length_of(BASE, {"stones_per_game": 30}, {})
    assert group["stones_per_game"] == 40
    assert knockout["stones_per_game"] == 30
    # a round's length is laid over the phase's, which is laid over the tournament's
    final = length_of(BASE, {"stones_per_game": 30}, {"games_per_vaca": 4})
    assert final == {"stones_per_game": 30, "games_per_vaca": 4, "vacas_per_match": 1}


def test_the_third_place_match_and_the_reset_count_as_the_final():
    bracket = single_elimination([Entrant(i) for i in range(1, 9)], rng=1, third_place=True)
    final = _final_stage(bracket)
    assert stage_of(bracket.match("3P").stage, final) == "final"
    double = double_elimination([Entrant(i) for i in range(1, 9)], rng=1, reset=True)
    final = _final_stage(double)
    assert stage_of(double.match("GF2").stage, final) == "final"
    assert stage_of(double.match("GF1").stage, final) == "final"


def test_other_phases_by_round_number():
    lengths = lengths_clean({5: {"vacas_per_match": 2}}, knockout=False)
    assert lengths == {"5": {"vacas_per_match": 2}}
    assert round_length(lengths, round_number=5) == {"vacas_per_match": 2}
    assert round_length(lengths, round_number=4) == {}


def test_grouped_by_round_number_only_when_consecutive():
    lengths = lengths_clean(
        {"1": BEST_OF_3, "2": BEST_OF_3, "4": BEST_OF_3, "5": BASE}, knockout=False
    )
    assert lengths_grouped(lengths, BASE, knockout=False) == [
        (["1", "2"], {**BASE, **BEST_OF_3}),
        (["4"], {**BASE, **BEST_OF_3}),
    ]


@pytest.mark.parametrize(
    ("value", "knockout", "code"),
    [
        ([1, 2], True, "round_lengths_shape"),
        ({"semis": BEST_OF_3}, True, "round_lengths_stage"),
        ({"final": {}}, True, "round_length_options"),
        ({"final": {"kings": 8}}, True, "round_length_options"),
        ({"final": {"games_per_vaca": "3"}}, True, "round_length_options"),
        ({"final": {"games_per_vaca": True}}, True, "round_length_options"),
        ({"final": BEST_OF_5}, False, "round_lengths_number"),
        ({"0": BEST_OF_5}, False, "round_lengths_number"),
        ({"100": BEST_OF_5}, False, "round_lengths_number"),
        ({"3": BEST_OF_5, 3: BEST_OF_3}, False, "round_lengths_twice"),
    ],
)
def test_refusals_name_what_is_wrong(value, knockout, code):
    with pytest.raises(DrawError) as caught:
        lengths_clean(value, knockout=knockout)
    assert caught.value.code == code


def test_none_or_empty_is_no_lengths():
    assert lengths_clean(None, knockout=True) == {}
    assert lengths_clean({}, knockout=False) == {}
    assert round_length({}, round_number=3, final_stage=3) == {}


options = st.fixed_dictionaries(
    {},
    optional={
        "stones_per_game": st.integers(10, 100),
        "games_per_vaca": st.integers(1, 9),
        "vacas_per_match": st.integers(1, 9),
    },
).filter(bool)


@given(
    st.integers(2, 64),
    st.dictionaries(st.sampled_from(STAGES), options, max_size=4),
)
def test_every_round_of_a_knockout_plays_the_length_of_its_stage(entrants, declared):
    lengths = lengths_clean(declared, knockout=True)
    assert lengths_clean(lengths, knockout=True) == lengths  # reads back as written
    bracket = single_elimination([Entrant(i) for i in range(1, entrants + 1)], rng=entrants)
    final = _final_stage(bracket)
    for m in bracket.matches:
        stage = stage_of(m.stage, final)
        played = length_of(BASE, {}, round_length(lengths, round_number=m.stage, final_stage=final))
        # the final plays the final's length whatever the earlier rounds play
        assert played == length_of(BASE, {}, lengths.get(stage, {}))
        if m.id == bracket.finals[0]:
            assert stage == "final"
        # semi-finals are the two matches before the final, quarter-finals the four before
        if stage == "semifinal":
            assert len([x for x in bracket.matches if x.stage == m.stage]) == 2
        if stage == "quarterfinal":
            assert len([x for x in bracket.matches if x.stage == m.stage]) == 4


@given(st.integers(1, 20), st.integers(1, 20))
def test_stages_never_get_further_from_the_final_as_rounds_go_on(first, final):
    later = first + 1
    assert STAGES.index(stage_of(later, final)) <= STAGES.index(stage_of(first, final))


@given(st.dictionaries(st.sampled_from(STAGES), options, max_size=4))
def test_grouped_lengths_cover_each_stage_that_differs_once(declared):
    lengths = lengths_clean(declared, knockout=True)
    grouped = lengths_grouped(lengths, BASE, knockout=True)
    named = [key for keys, _ in grouped for key in keys]
    assert len(named) == len(set(named))
    differing = {k for k, v in lengths.items() if length_of(BASE, {}, v) != BASE}
    assert set(named) == differing
    for keys, whole in grouped:
        for key in keys:
            assert length_of(BASE, {}, lengths[key]) == whole
