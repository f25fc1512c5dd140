"""Swiss and a-tres-ceros pairing: properties over phases played through the pairer itself,
checked against a brute-force search of every possible pairing, plus worked examples."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawError,
    Entrant,
    Pairing,
    Reason,
    Result,
    lives_left,
    pair_lives,
    pair_swiss,
    records,
)


def play(entrants, rounds, seed, pair=pair_swiss, **options):
    """Play up to ``rounds`` rounds with random winners (stopping when a-tres-ceros is over).

    Returns [(history before the round, its pairings), ...] and the final history.
    """
    rng = random.Random(seed)
    history: list[Result] = []
    played = []
    for rnd in range(1, rounds + 1):
        try:
            pairings = pair(entrants, history, rng=seed, **options)
        except DrawError as error:
            assert error.code == "lives_over"
            break
        played.append((list(history), pairings))
        for p in pairings:
            winner = p.a_id if p.is_bye else rng.choice((p.a_id, p.b_id))
            history.append(Result(rnd, p.a_id, p.b_id, winner))
    return played, history


def met_sets(entrants, history):
    return {i: set(r.opponents) for i, r in records(entrants, history).items()}


def fewest_rematches(ids, met, bye):
    """Brute force: fewest rematches over every pairing of ``ids`` minus ``bye``."""
    best = [len(ids)]

    def search(rest, cost):
        if cost >= best[0]:
            return
        if not rest:
            best[0] = cost
            return
        a = rest[0]
        for k in range(1, len(rest)):
            search(rest[1:k] + rest[k + 1 :], cost + (rest[k] in met[a]))

    search([i for i in ids if i != bye], 0)
    return best[0]


def rematches(pairings, met):
    return sum(1 for p in pairings if not p.is_bye and p.b_id in met[p.a_id])


def check_round(entrants, history, pairings):
    ids = sorted(e.id for e in entrants)
    assert sorted(i for p in pairings for i in p.entrant_ids) == ids  # everyone exactly once
    byes = [p for p in pairings if p.is_bye]
    assert len(byes) == len(ids) % 2  # a bye only for an odd field, never two
    assert [p.table_order for p in pairings] == list(range(1, len(pairings) + 1))
    if byes:
        assert pairings[-1].is_bye
        counts = {i: r.byes for i, r in records(entrants, history).items()}
        assert counts[byes[0].a_id] == min(counts.values())  # no second bye before all had one
    met = met_sets(entrants, history)
    for p in pairings:
        if p.is_bye:
            continue
        codes = {r.code for r in p.reasons}
        repeat = p.b_id in met[p.a_id]
        assert ("rematch_unavoidable" in codes) == repeat
        assert ("not_met_before" in codes) != repeat


field_sizes = st.integers(min_value=2, max_value=10)


@settings(max_examples=60)
@given(n=field_sizes, rounds=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_small_fields_rematch_only_when_no_pairing_avoids_it(n, rounds, seed):
    # Distinct seeds make the ranking known: record first, then seed.
    entrants = [Entrant(i, seed=i) for i in range(1, n + 1)]
    ids = [e.id for e in entrants]
    for history, pairings in play(entrants, rounds, seed)[0]:
        check_round(entrants, history, pairings)
        met = met_sets(entrants, history)
        if n % 2 == 0:
            assert rematches(pairings, met) == fewest_rematches(ids, met, None)
            continue
        recs = records(entrants, history)
        fewest = min(r.byes for r in recs.values())
        ranked = sorted(ids, key=lambda i: (-recs[i].wins, i))
        candidates = [i for i in reversed(ranked) if recs[i].byes == fewest]
        cost = {c: fewest_rematches(ids, met, c) for c in candidates}
        best = min(cost.values())
        (bye,) = (p.a_id for p in pairings if p.is_bye)
        assert rematches(pairings, met) == best
        # The lowest-ranked eligible entrant gets the bye unless that costs a rematch.
        assert bye == next(c for c in candidates if cost[c] == best)


@settings(max_examples=25)
@given(n=st.integers(20, 90), seed=st.integers(0, 10**6))
def test_larger_fields_never_rematch_in_seven_rounds(n, seed):
    # With n >= 2r + 3 a rematch-free pairing always exists (Dirac), so there must be none.
    entrants = [Entrant(i, club=f"peña {i % 5}") for i in range(1, n + 1)]
    for history, pairings in play(entrants, 7, seed, separate_clubs_rounds=2)[0]:
        check_round(entrants, history, pairings)
        assert rematches(pairings, met_sets(entrants, history)) == 0


@settings(max_examples=40)
@given(n=st.integers(4, 60).filter(lambda n: n % 2 == 0), seed=st.integers(0, 10**6))
def test_round_two_keeps_records_together(n, seed):
    entrants = [Entrant(i) for i in range(1, n + 1)]
    (_, first), (history, second) = play(entrants, 2, seed)[0]
    recs = records(entrants, history)
    floats = [p for p in second if recs[p.a_id].wins != recs[p.b_id].wins]
    assert len(floats) == (n // 2) % 2  # only the odd winner out floats down
    for p in floats:
        assert p.reasons[0] == Reason("float_down", {"score": "1–0", "opponent_score": "0–1"})


@settings(max_examples=30)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6), played=st.integers(0, 4))
def test_same_seed_same_draw_whatever_the_input_order(n, seed, played):
    entrants = [Entrant(i, seed=i if i % 3 == 0 else None) for i in range(1, n + 1)]
    history = play(entrants, played, seed)[1]
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    first = pair_swiss(entrants, history, rng=seed)
    assert pair_swiss(entrants, history, rng=random.Random(seed)) == first
    assert pair_swiss(shuffled, list(reversed(history)), rng=seed) == first


def test_round_one_pairs_top_half_against_bottom_half():
    entrants = [Entrant(i, seed=i) for i in range(1, 9)]
    pairings = pair_swiss(entrants, [], rng=0)
    assert [(p.a_id, p.b_id) for p in pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert pairings[0].describe() == "same record 0–0, not met before"


def test_unseeded_round_one_uses_rating_then_lot():
    entrants = [Entrant(i, rating=float(100 - i)) for i in range(1, 7)]
    assert [(p.a_id, p.b_id) for p in pair_swiss(entrants, [], rng=5)] == [(1, 4), (2, 5), (3, 6)]
    by_lot = [Entrant(i) for i in range(1, 31)]
    draws = {tuple((p.a_id, p.b_id) for p in pair_swiss(by_lot, [], rng=s)) for s in range(5)}
    assert len(draws) > 1  # the lot depends on the seed


def test_round_two_example_with_a_float_and_a_bye():
    entrants = [Entrant(i, seed=i) for i in range(1, 8)]
    history = [
        Result(1, 1, 5, 1),
        Result(1, 2, 6, 6),
        Result(1, 3, 7, 3),
        Result(1, 4, None, 4),
    ]
    # Records: 1, 3, 4 (bye), 6 on 1–0; 2, 5, 7 on 0–1. The 1–0 group is even.
    pairings = pair_swiss(entrants, history, rng=0)
    assert [(p.a_id, p.b_id) for p in pairings] == [(1, 4), (3, 6), (2, 5), (7, None)]
    assert pairings[-1].describe() == ("bye, lowest-ranked entrant with the fewest byes, first bye")


def test_the_floater_meets_the_highest_resident_it_has_not_met():
    entrants = [Entrant(i, seed=i) for i in range(1, 7)]
    history = [Result(1, 1, 4, 1), Result(1, 2, 5, 2), Result(1, 3, 6, 6)]
    # 1–0: 1, 2, 6 (odd: 6 floats). 0–1: 3, 4, 5; 6 has met 3, so it meets 4.
    pairings = pair_swiss(entrants, history, rng=0)
    assert [(p.a_id, p.b_id) for p in pairings] == [(1, 2), (6, 4), (3, 5)]
    assert pairings[1].describe() == "floats down from 1–0 to meet 0–1, not met before"


def test_avoiding_a_second_bye_is_given_as_a_reason():
    entrants = [Entrant(i, seed=i) for i in range(1, 6)]
    history = [
        Result(1, 1, 3, 1),
        Result(1, 2, 4, 2),
        Result(1, 5, None, 5),
        Result(2, 1, 2, 1),
        Result(2, 5, 3, 3),
        Result(2, 4, None, 4),
    ]
    # 1 is 2–0; 2, 3, 4, 5 are 1–1, and 4 and 5 have had a bye. The lowest ranked without one
    # is 3, who gets the bye. 1 floats down to 4 (it has met 2); 2 meets 5.
    pairings = pair_swiss(entrants, history, rng=0)
    assert [(p.a_id, p.b_id) for p in pairings] == [(1, 4), (2, 5), (3, None)]
    assert pairings[1].describe() == "same record 1–1, not met before, avoids a second bye"
    assert Reason("avoids_second_bye") in pairings[0].reasons


def test_every_entrant_had_a_bye_before_anyone_gets_a_second():
    entrants = [Entrant(i, seed=i) for i in range(1, 6)]
    byes = Counter()
    for _, pairings in play(entrants, 10, seed=3)[0]:
        for p in pairings:
            if p.is_bye:
                byes[p.a_id] += 1
                assert max(byes.values()) - min(byes[e.id] for e in entrants) <= 1
    assert all(byes[e.id] == 2 for e in entrants)


def test_late_round_of_a_small_field_says_the_rematch_is_unavoidable():
    entrants = [Entrant(i, seed=i) for i in range(1, 5)]
    history, pairings = play(entrants, 4, seed=1)[0][
        3
    ]  # three rounds played: everybody has met everybody
    assert rematches(pairings, met_sets(entrants, history)) == 2
    assert all(p.reasons[1].code == "rematch_unavoidable" for p in pairings)
    assert "no pairing without one exists" in pairings[0].describe()


def test_club_mates_are_kept_apart_in_the_first_rounds_only():
    entrants = [Entrant(i, seed=i, club="Oria" if i in (1, 5) else f"c{i}") for i in range(1, 9)]
    apart = pair_swiss(entrants, [], rng=0, separate_clubs_rounds=1)
    assert all({1, 5} != set(p.entrant_ids) for p in apart)
    top = next(p for p in apart if 1 in p.entrant_ids)
    assert Reason("same_club_avoided") in top.reasons
    together = pair_swiss(entrants, [], rng=0)
    assert (together[0].a_id, together[0].b_id) == (1, 5)
    assert all(r.code != "same_club_avoided" for p in together for r in p.reasons)


def test_club_clash_is_reported_when_it_cannot_be_avoided():
    entrants = [Entrant(i, seed=i, club="Oria") for i in range(1, 5)]
    pairings = pair_swiss(entrants, [], rng=0, separate_clubs_rounds=3)
    assert all(Reason("same_club_unavoidable", {"club": "Oria"}) in p.reasons for p in pairings)


@settings(max_examples=40)
@given(clubs=st.lists(st.sampled_from("XYZW"), min_size=8, max_size=8), seed=st.integers(0, 99))
def test_round_one_separates_clubs_whenever_the_halves_allow(clubs, seed):
    entrants = [Entrant(i, seed=i, club=c) for i, c in enumerate(clubs, start=1)]
    pairings = pair_swiss(entrants, [], rng=seed, separate_clubs_rounds=1)
    clashes = sum(clubs[p.a_id - 1] == clubs[p.b_id - 1] for p in pairings)
    top, bottom = clubs[:4], clubs[4:]
    fewest = min(
        sum(top[i] == bottom[j] for i, j in enumerate(perm))
        for perm in itertools.permutations(range(4))
    )
    assert clashes == fewest


def test_standings_order_the_entrants_within_a_score_group():
    entrants = [Entrant(i) for i in range(1, 5)]
    pairings = pair_swiss(entrants, [], rng=0, standings=[4, 3, 2, 1])
    assert [(p.a_id, p.b_id) for p in pairings] == [(4, 2), (3, 1)]
    with pytest.raises(DrawError) as error:
        pair_swiss(entrants, [], rng=0, standings=[4, 3])
    assert error.value.code == "standings_missing"


def test_withdrawn_entrants_results_still_count_as_meetings():
    entrants = [Entrant(i, seed=i) for i in range(1, 5)]
    history = [Result(1, 1, 9, 1), Result(1, 2, 3, 2), Result(1, 4, None, 4)]
    assert records(entrants, history)[1].opponents == (9,)
    assert len(pair_swiss(entrants, history, rng=0)) == 2


@pytest.mark.parametrize(
    ("history", "code"),
    [
        ([Result(1, 1, 2, 3)], "history_winner"),
        ([Result(1, 1, 1, 1)], "history_self"),
        ([Result(1, 1, 2, 1), Result(1, 1, 3, 3)], "history_twice_in_round"),
        ([Result(1, 1, None, 2)], "history_bye_winner"),
    ],
)
def test_impossible_history_is_a_draw_error(history, code):
    entrants = [Entrant(i) for i in range(1, 5)]
    with pytest.raises(DrawError) as error:
        pair_swiss(entrants, history, rng=0)
    assert error.value.code == code
    assert error.value.message


def test_bad_fields_are_draw_errors():
    with pytest.raises(DrawError) as error:
        pair_swiss([Entrant(1)], [], rng=0)
    assert error.value.code == "too_few_entrants"
    with pytest.raises(DrawError) as error:
        pair_swiss([Entrant(1), Entrant(1)], [], rng=0)
    assert error.value.code == "entrant_duplicate"
    with pytest.raises(DrawError) as error:
        pair_swiss([Entrant(1, seed=1), Entrant(2, seed=1)], [], rng=0)
    assert error.value.code == "seed_duplicate"


def test_a_voided_match_is_not_drawn_again_but_scores_nothing():
    entrants = [Entrant(i, seed=i) for i in range(1, 5)]
    history = [Result(1, 1, 3, None), Result(1, 2, 4, 2)]
    recs = records(entrants, history)
    assert (recs[1].wins, recs[1].losses, recs[1].opponents) == (0, 0, (3,))
    pairings = pair_swiss(entrants, history, rng=0)
    assert all({1, 3} != set(p.entrant_ids) for p in pairings)


# --- Elimination after N losses (a tres ceros) ---------------------------------------------------


@settings(max_examples=40)
@given(n=st.integers(2, 24), lives=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_lives_out_after_exactly_n_losses_and_one_champion(n, lives, seed):
    entrants = [Entrant(i, seed=i) for i in range(1, n + 1)]
    rounds, final = play(entrants, 10 * n, seed, pair=pair_lives, lives=lives)
    for history, pairings in rounds:
        recs = records(entrants, history)
        alive = [e for e in entrants if recs[e.id].losses < lives]
        check_round(alive, history, pairings)
        for p in pairings:
            if not p.is_bye:
                same = recs[p.a_id].losses == recs[p.b_id].losses
                assert p.reasons[0].code == ("same_losses" if same else "loss_float")
    losses = {i: r.losses for i, r in records(entrants, final).items()}
    out = [i for i, lost in losses.items() if lost >= lives]
    assert len(out) == n - 1  # the phase ran to a single survivor
    assert all(losses[i] == lives for i in out)  # nobody is paired after the last cero
    left = lives_left(entrants, final, lives=lives)
    assert sum(1 for v in left.values() if v > 0) == 1


def test_lives_pairs_equal_losses_and_words_it():
    entrants = [Entrant(i, seed=i) for i in range(1, 7)]
    history = [Result(1, 1, 4, 1), Result(1, 2, 5, 2), Result(1, 3, 6, 6)]
    pairings = pair_lives(entrants, history, rng=0)
    assert all(isinstance(p, Pairing) for p in pairings)
    assert pairings[0].describe() == "same number of losses (0), not met before"
    assert len(pair_lives(entrants, [Result(1, 1, 2, 1)], rng=0, lives=1)) == 3  # 5 left
    with pytest.raises(DrawError) as error:
        pair_lives(entrants[:2], [Result(1, 1, 2, 1)], rng=0, lives=1)
    assert error.value.code == "lives_over"
