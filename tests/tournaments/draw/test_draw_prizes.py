"""Prizes across phases (tournaments.draw.prizes): worked examples from real bases, every
refusal, and properties over random standings checked against the obvious definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError
from tournaments.draw.prizes import (
    MEASURES,
    Prize,
    PrizeKind,
    StandingLine,
    prize_from_dict,
    prize_to_dict,
    prizes_award,
    prizes_from_list,
)
from tournaments.draw.prizes import Ties as T


def line(phase, entrant, won, *, group=None, rank=1, played=3, stones=(0, 0), withdrawn=False):
    return StandingLine(
        phase=phase,
        group=group,
        entrant=entrant,
        rank=rank,
        played=played,
        won=won,
        points=2 * won,
        games_won=won,
        games_lost=played - won,
        stones_won=stones[0],
        stones_lost=stones[1],
        withdrawn=withdrawn,
    )


# --- Worked examples ----------------------------------------------------------------------------


def test_most_matches_won_over_phases_one_and_two_leaves_the_final_phase_out():
    # Bases: "premio a la pareja con más partidas ganadas entre la 1.ª y la 2.ª fase"
    lines = [
        line(1, 10, 3), line(2, 10, 2), line(3, 10, 3),  # 5 in phases 1-2 (and 3 in the final)
        line(1, 11, 2), line(2, 11, 4),  # 6
        line(1, 12, 1), line(2, 12, 1), line(3, 12, 9),  # the final does not count
    ]  # fmt: skip
    prize = Prize("Regularidad", PrizeKind.MOST, phases=(1, 2))

    (award,) = prizes_award([prize], lines, seed=1)

    assert award.winners == (11,) and award.value == 6
    assert not award.shared and award.decided_by is None


def test_the_worst_pair_prize_goes_to_the_fewest_won_and_its_ties_count_the_other_way():
    # "premio a la peor pareja": fewest matches won; level on wins, the worst stone difference
    lines = [
        line(1, 1, 4, stones=(400, 300)),
        line(1, 2, 0, stones=(200, 400)),
        line(1, 3, 0, stones=(250, 400)),
    ]
    prize = Prize("Premio a la peor pareja", PrizeKind.FEWEST, tiebreaks=("stone_difference",))

    (award,) = prizes_award([prize], lines, seed=1)

    assert award.winners == (2,) and award.value == 0
    assert award.decided_by == "stone_difference"


def test_a_tie_left_standing_is_shared_or_drawn_by_lot_as_the_bases_say():
    lines = [line(1, 1, 3), line(1, 2, 3), line(1, 3, 1)]
    shared = Prize("Más ganadas", PrizeKind.MOST)
    by_lot = Prize("Más ganadas", PrizeKind.MOST, ties=T.LOTS)

    first, second = prizes_award([shared, by_lot], lines, seed=7)

    assert first.winners == (1, 2) and first.shared
    assert len(second.winners) == 1 and second.winners[0] in (1, 2)
    assert second.decided_by == "lots" and not second.shared
    # the same standings and seed, the same winner
    assert prizes_award([shared, by_lot], lines, seed=7)[1] == second


def test_best_stone_difference():
    lines = [line(1, 1, 3, stones=(300, 290)), line(1, 2, 1, stones=(320, 200))]
    (award,) = prizes_award(
        [Prize("Mejor diferencia", PrizeKind.MOST, measure="stone_difference")], lines, seed=1
    )
    assert award.winners == (2,) and award.value == 120


def test_the_best_pair_of_each_group_follows_the_groups_standings():
    lines = [
        line(1, 1, 2, group="A", rank=1),
        line(1, 2, 2, group="A", rank=2),  # level on wins, below on the group's tiebreaks
        line(1, 3, 1, group="B", rank=1, withdrawn=True),  # withdrew: the next one wins
        line(1, 4, 1, group="B", rank=2),
        line(2, 1, 1, rank=1),  # phase 2 is not counted
    ]
    awards = prizes_award(
        [Prize("Mejor de grupo", PrizeKind.GROUP_BEST, phases=(1,))], lines, seed=1
    )

    assert [(a.phase, a.group, a.winners) for a in awards] == [(1, "A", (1,)), (1, "B", (4,))]


def test_nobody_played_the_phases_named_nobody_wins():
    (award,) = prizes_award([Prize("Final", PrizeKind.MOST, phases=(4,))], [line(1, 1, 3)], seed=1)
    assert award.winners == () and award.value is None


def test_a_withdrawn_pair_or_one_that_never_played_does_not_win():
    lines = [line(1, 1, 5, withdrawn=True), line(1, 2, 0, played=0), line(1, 3, 1)]
    most, fewest = prizes_award(
        [Prize("Más", PrizeKind.MOST), Prize("Menos", PrizeKind.FEWEST)], lines, seed=1
    )
    assert most.winners == (3,) and fewest.winners == (3,)


# --- Reading --------------------------------------------------------------------------------------


def test_a_prize_reads_back_as_it_was_written():
    data = {
        "name": "  Premio a la  peor pareja ",
        "kind": "fewest",
        "measure": "won",
        "phases": [2, 1],
        "tiebreaks": ["stone_difference"],
        "ties": "lots",
    }
    prize = prize_from_dict(data)
    assert prize.name == "Premio a la peor pareja" and prize.phases == (1, 2)
    assert prize_from_dict(prize_to_dict(prize)) == prize
    assert prize_from_dict({"name": "X", "kind": "most"}) == Prize("X", PrizeKind.MOST)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("premio", "prize_shape"),
        ({"name": "X", "kind": "most", "winners": 3}, "prize_key"),
        ({"name": " ", "kind": "most"}, "prize_name"),
        ({"name": "X" * 81, "kind": "most"}, "prize_name"),
        ({"name": "X", "kind": "best"}, "prize_kind"),
        ({"name": "X", "kind": "most", "measure": "vacas"}, "prize_measure"),
        ({"name": "X", "kind": "most", "phases": [0]}, "prize_phases"),
        ({"name": "X", "kind": "most", "phases": [1, 1]}, "prize_phases"),
        ({"name": "X", "kind": "most", "phases": "1-2"}, "prize_phases"),
        ({"name": "X", "kind": "most", "phases": [True]}, "prize_phases"),
        ({"name": "X", "kind": "most", "tiebreaks": ["won"]}, "prize_tiebreaks"),
        ({"name": "X", "kind": "most", "tiebreaks": ["lots"]}, "prize_tiebreaks"),
        ({"name": "X", "kind": "group_best", "tiebreaks": ["stones_won"]}, "prize_group_tiebreaks"),
        ({"name": "X", "kind": "most", "ties": "split"}, "prize_ties"),
    ],
)
def test_a_wrong_prize_is_refused_naming_it(data, code):
    with pytest.raises(DrawError) as caught:
        prizes_from_list([{"name": "Bien", "kind": "most"}, data])
    assert caught.value.code == code
    assert caught.value.params["prize"] == 2


def test_the_list_of_prizes_is_a_list_of_at_most_twenty():
    with pytest.raises(DrawError) as caught:
        prizes_from_list({"name": "X"})
    assert caught.value.code == "prizes_shape"
    with pytest.raises(DrawError) as caught:
        prizes_from_list([{"name": "X", "kind": "most"}] * 21)
    assert caught.value.code == "prizes_too_many"


# --- Properties ---------------------------------------------------------------------------------


@st.composite
def standings(draw):
    entrants = draw(st.lists(st.integers(1, 40), min_size=1, max_size=8, unique=True))
    lines = []
    for phase in draw(st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True)):
        groups = draw(st.sampled_from([(None,), ("A", "B")]))
        for entrant in entrants:
            if draw(st.integers(0, 4)) == 0:
                continue  # not in this phase
            played = draw(st.integers(0, 4))
            won = draw(st.integers(0, played))
            lines.append(
                StandingLine(
                    phase=phase,
                    group=groups[entrant % len(groups)],
                    entrant=entrant,
                    rank=draw(st.integers(1, 4)),
                    played=played,
                    won=won,
                    points=draw(st.integers(0, 8)),
                    games_won=draw(st.integers(0, 9)),
                    games_lost=draw(st.integers(0, 9)),
                    stones_won=draw(st.sampled_from((0, 40, 80, 120))),
                    stones_lost=draw(st.sampled_from((0, 40, 80, 120))),
                    withdrawn=draw(st.integers(0, 9)) == 0,
                )
            )
    return lines


prizes = st.builds(
    lambda kind, measure, phases, tiebreaks, ties: Prize(
        "P",
        kind,
        measure,
        tuple(sorted(phases)),
        () if kind is PrizeKind.GROUP_BEST else tuple(t for t in tiebreaks if t != measure),
        ties,
    ),
    st.sampled_from(list(PrizeKind)),
    st.sampled_from(MEASURES),
    st.lists(st.integers(1, 3), unique=True, max_size=2),
    st.lists(st.sampled_from(MEASURES), unique=True, max_size=2),
    st.sampled_from(list(T)),
)


def _eligible_totals(prize: Prize, lines: list[StandingLine]) -> dict[int, tuple[int, ...]]:
    """The obvious definition: every entrant of the phases counted who played and never
    withdrew, with its sums of the measure and the tiebreaks."""
    counted = [x for x in lines if not prize.phases or x.phase in prize.phases]
    entrants = {x.entrant for x in counted}
    out = {}
    for e in entrants:
        mine = [x for x in counted if x.entrant == e]
        if any(x.withdrawn for x in mine) or not sum(x.played for x in mine):
            continue
        out[e] = tuple(sum(x.figure(m) for x in mine) for m in (prize.measure, *prize.tiebreaks))
    return out


@settings(max_examples=300, deadline=None)
@given(standings(), prizes, st.integers(0, 2**31))
def test_the_winners_are_exactly_the_best_eligible(lines, prize, seed):
    awards = prizes_award([prize], lines, seed=seed)
    if prize.kind is PrizeKind.GROUP_BEST:
        counted = [x for x in lines if not prize.phases or x.phase in prize.phases]
        groups = {(x.phase, x.group) for x in counted}
        assert [(a.phase, a.group) for a in awards] == sorted(
            groups, key=lambda g: (g[0], g[1] or "")
        )
        for award in awards:
            rows = [
                x
                for x in counted
                if (x.phase, x.group) == (award.phase, award.group) and not x.withdrawn and x.played
            ]
            best = {x.entrant for x in rows if x.rank == min((r.rank for r in rows), default=0)}
            if prize.ties is T.SHARED:
                assert set(award.winners) == best
            else:
                assert len(award.winners) == (1 if best else 0) and set(award.winners) <= best
        return
    (award,) = awards
    totals = _eligible_totals(prize, lines)
    if not totals:
        assert award.winners == ()
        return
    sign = -1 if prize.kind is PrizeKind.MOST else 1
    best = min(tuple(sign * v for v in key) for key in totals.values())
    level = {e for e, key in totals.items() if tuple(sign * v for v in key) == best}
    if prize.ties is T.SHARED:
        assert set(award.winners) == level
        assert award.shared == (len(level) > 1)
    else:
        assert len(award.winners) == 1 and award.winners[0] in level
        assert (award.decided_by == "lots") == (len(level) > 1)
    assert award.value == totals[award.winners[0]][0]


@settings(max_examples=100, deadline=None)
@given(st.data(), standings(), st.lists(prizes, min_size=1, max_size=3), st.integers(0, 99))
def test_the_order_of_the_rows_does_not_matter(data, lines, declared, seed):
    shuffled = data.draw(st.permutations(lines))
    assert prizes_award(declared, shuffled, seed=seed) == prizes_award(declared, lines, seed=seed)


@settings(max_examples=100, deadline=None)
@given(standings(), prizes, st.integers(0, 99))
def test_the_phases_a_prize_does_not_name_never_change_it(lines, prize, seed):
    if not prize.phases:
        return
    kept = [x for x in lines if x.phase in prize.phases]
    assert prizes_award([prize], kept, seed=seed) == prizes_award([prize], lines, seed=seed)
