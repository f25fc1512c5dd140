"""Swiss and a-tres-ceros pairing: properties over phases played through the pairer itself,
checked against a brute-force search of every possible pairing, plus worked examples."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import example, given, settings
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
    swiss,
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
        said = codes & {"rematch_unavoidable", "rematch_keeps_byes_even"}
        assert len(said) == repeat
        assert ("not_met_before" in codes) != repeat


def draws(ids, bye_to):
    """Every draw of ``ids``: (pairs, bye) for each bye in ``bye_to`` (None: even field)."""

    def pairings(rest):
        if not rest:
            yield []
            return
        a = rest[0]
        for k in range(1, len(rest)):
            for more in pairings(rest[1:k] + rest[k + 1 :]):
                yield [(a, rest[k]), *more]

    for bye in bye_to:
        for pairs in pairings([i for i in ids if i != bye]):
            yield pairs, bye


def draw_cost(pairs, bye, met, score):
    """(rematches, widest score gap, pairings that wide, total score difference), the bye
    counted as a pairing with the lowest score: what an optimal draw minimises, in order."""
    rematch_count = sum(b in met[a] for a, b in pairs)
    gaps = [abs(score[a] - score[b]) for a, b in pairs]
    if bye is not None:
        gaps.append(score[bye] - min(score.values()))
    widest = max(gaps, default=0)
    return rematch_count, widest, gaps.count(widest), sum(gaps)


@st.composite
def random_phases(draw, largest=12):
    """A field of 2 to ``largest`` entrants and a history of random rounds: random pairings
    (rematches included), a random bye in an odd field, random winners, some matches voided."""
    n = draw(st.integers(2, largest))
    rounds = draw(st.integers(0, 9))
    rng = random.Random(draw(st.integers(0, 10**9)))
    history = []
    for rnd in range(1, rounds + 1):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        if n % 2:
            history.append(Result(rnd, order.pop(), None, None))
            history[-1] = Result(rnd, history[-1].a_id, None, history[-1].a_id)
        for a, b in zip(order[::2], order[1::2], strict=True):
            winner = rng.choice((a, b, a, b, None))
            history.append(Result(rnd, a, b, winner))
    lives = draw(st.booleans())
    return [Entrant(i, seed=i) for i in range(1, n + 1)], history, lives


ONLY_THE_SECOND_MAY_HAVE_THE_BYE = (
    [Entrant(i, seed=i) for i in range(1, 6)],
    [
        *(Result(1, 5, None, 5), Result(1, 1, 2, None), Result(1, 4, 3, 4)),
        *(Result(2, 4, None, 4), Result(2, 5, 1, 1), Result(2, 3, 2, 3)),
        *(Result(3, 3, None, 3), Result(3, 5, 2, None), Result(3, 1, 4, 1)),
        *(Result(4, 5, None, 5), Result(4, 4, 3, 3), Result(4, 1, 2, 1)),
        *(Result(5, 2, None, 2), Result(5, 5, 3, 3), Result(5, 1, 4, None)),
    ],
    False,
)


@settings(max_examples=400, deadline=None)
@given(phase=random_phases())
@example(phase=ONLY_THE_SECOND_MAY_HAVE_THE_BYE)
def test_the_draw_is_optimal_against_every_possible_draw(phase):
    # Brute force over every draw: no other has fewer rematches, or as few and a smaller total
    # score difference; the bye goes to an entrant with the fewest byes, the lowest-ranked one
    # among the best draws; every reason about rematches and the bye is true.
    entrants, history, lives = phase
    recs = records(entrants, history)
    if lives:  # a tres ceros with enough lives for everyone: groups by losses
        pairings = pair_lives(entrants, history, rng=0, lives=99)
        score = {i: -r.losses for i, r in recs.items()}
    else:
        pairings = pair_swiss(entrants, history, rng=0)
        score = {i: r.wins for i, r in recs.items()}
    check_round(entrants, history, pairings)
    ids = [e.id for e in entrants]
    met = met_sets(entrants, history)
    fewest = min(r.byes for r in recs.values())
    ranked = sorted(ids, key=lambda i: (-score[i], i))  # distinct seeds: the ranking is known
    odd = len(ids) % 2 == 1
    eligible = [i for i in ranked if recs[i].byes == fewest] if odd else [None]
    best = {}
    for pairs, bye in draws(ids, eligible):
        cost = draw_cost(pairs, bye, met, score)
        best[bye] = min(best.get(bye, cost), cost)
    pairs = [(p.a_id, p.b_id) for p in pairings if not p.is_bye]
    bye = next((p.a_id for p in pairings if p.is_bye), None)
    cost = draw_cost(pairs, bye, met, score)
    assert cost == min(best.values())
    if not odd:
        return
    # The lowest-ranked eligible entrant among the best draws gets the bye.
    assert bye == [c for c in eligible if best[c] == cost][-1]
    lower = eligible[eligible.index(bye) + 1 :]
    (bye_line,) = (p for p in pairings if p.is_bye)
    why = bye_line.reasons[1].code
    if not lower:
        assert why == "lowest_ranked_eligible"
    elif all(best[c][0] > cost[0] for c in lower):
        assert why == "bye_avoids_rematch"
    else:
        assert why == "bye_avoids_score_gap"
    # A rematch says whether a second bye would have avoided it.
    with_any_bye = min(draw_cost(p, b, met, score)[0] for p, b in draws(ids, ids))
    for p in pairings:
        codes = {r.code for r in p.reasons}
        if "rematch_keeps_byes_even" in codes:
            assert with_any_bye < cost[0]
        if "rematch_unavoidable" in codes:
            assert with_any_bye == cost[0]


def whole_field_optimum(ids, met, score, eligible):
    """The cost (as `draw_cost`) of the best draw of the whole field, computed here
    independently of the pairer's blocks by exact matchings of the complete graph (networkx):
    the fewest rematches; then the least cap on the gap at which a draw has that few; then,
    under that cap, the fewest pairings at the cap and the least total."""
    odd = len(ids) % 2 == 1
    vertices = [*ids, "bye"] if odd else list(ids)
    low = min(score.values())

    def gap(a, b):
        return score[a] - low if b == "bye" else abs(score[a] - score[b])

    def best(cost):
        graph = nx.Graph()
        for a, b in itertools.combinations(vertices, 2):
            if "bye" in (a, b) and (b if a == "bye" else a) not in eligible:
                continue
            a, b = (b, a) if a == "bye" else (a, b)
            c = cost(a, b)
            if c is not None:
                graph.add_edge(a, b, weight=10**12 - c)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(vertices):
            return None
        pairs = [(a, b) for a, b in matching if "bye" not in (a, b)]
        bye = next((a if b == "bye" else b for a, b in matching if "bye" in (a, b)), None)
        return draw_cost(pairs, bye, met, score)

    def rematch(a, b):
        return int(b != "bye" and b in met[a])

    fewest = best(rematch)[0]
    unit = len(vertices) * (max(score.values()) - low + 1)
    for cap in sorted({gap(a, b) for a, b in itertools.combinations(vertices, 2) if a != "bye"}):
        found = best(
            lambda a, b, cap=cap: (
                None
                if gap(a, b) > cap
                else (rematch(a, b) * (len(vertices) + 1) + (gap(a, b) == cap)) * unit + gap(a, b)
            )
        )
        if found is not None and found[0] == fewest:
            return found
    raise AssertionError("unreachable: the widest cap allows every draw")


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(13, 40),
    rounds=st.integers(3, 16),
    seed=st.integers(0, 10**6),
    clubs=st.booleans(),
)
def test_larger_fields_match_one_exact_matching_of_the_whole_field(n, rounds, seed, clubs):
    # Late rounds of small fields, played through the pairer (club-mates apart in the first
    # rounds): the draw by blocks costs what the exact matching of the whole field costs.
    entrants = [Entrant(i, club=f"peña {i % 4}" if clubs else None) for i in range(1, n + 1)]
    for history, pairings in play(entrants, rounds, seed, separate_clubs_rounds=3)[0][-3:]:
        check_round(entrants, history, pairings)
        recs = records(entrants, history)
        score = {i: r.wins for i, r in recs.items()}
        met = met_sets(entrants, history)
        fewest = min(r.byes for r in recs.values())
        eligible = {i for i, r in recs.items() if r.byes == fewest}
        pairs = [(p.a_id, p.b_id) for p in pairings if not p.is_bye]
        bye = next((p.a_id for p in pairings if p.is_bye), None)
        ids = [e.id for e in entrants]
        assert draw_cost(pairs, bye, met, score) == whole_field_optimum(ids, met, score, eligible)


def test_the_least_total_score_difference_beats_floating_group_by_group():
    # After four rounds: 1 on 4–0; 2 on 3–1; 5, 6, 8 on 2–2; 3, 4, 7 on 1–3. 1 has met 2, 3, 5
    # and 8, and 2 has met 1, 4, 5 and 6. Floating group by group from the top (1 v 7, 2 v 8,
    # 5 v 3, 6 v 4) costs 3 + 1 + 1 + 1 = 6 wins of difference; 1 v 6 and 2 v 7 cost 2 + 2,
    # and the other two meet their own group: 4, the least possible.
    entrants = [Entrant(i, seed=i) for i in range(1, 9)]
    won = {
        1: [(1, 5), (2, 6), (3, 7), (4, 8)],
        2: [(1, 3), (2, 4), (5, 7), (8, 6)],
        3: [(1, 2), (8, 3), (5, 4), (6, 7)],
        4: [(1, 8), (2, 5), (6, 3), (7, 4)],
    }
    history = [Result(rnd, a, b, a) for rnd, pairs in won.items() for a, b in pairs]
    pairings = pair_swiss(entrants, history, rng=0)
    assert [(p.a_id, p.b_id) for p in pairings] == [(1, 6), (2, 7), (5, 8), (3, 4)]
    wins = {i: r.wins for i, r in records(entrants, history).items()}
    assert sum(abs(wins[p.a_id] - wins[p.b_id]) for p in pairings) == 4
    assert pairings[0].describe() == "floats down from 4–0 to meet 2–2, not met before"


def history_of(won):
    """Results from {round: [(winner, loser), ...]}."""
    return [Result(rnd, a, b, a) for rnd, pairs in won.items() for a, b in pairs]


def test_the_leader_does_not_meet_the_last_when_floating_one_group_each_costs_the_same():
    # After three rounds of eight: 7 on 3–0; 2, 6, 8 on 2–1; 1, 3, 5 on 1–2; 4 on 0–3. Both
    # draws below are rematch-free with a total difference of 4 wins: 7 v 4 (the leader v the
    # last, three wins apart), 2 v 8, 6 v 1, 3 v 5; and 7 v 2, 6 v 1, 8 v 3, 5 v 4, each a
    # float of one group. The widest pairing comes before the total: the second is drawn.
    entrants = [Entrant(i, seed=i) for i in range(1, 9)]
    history = history_of(
        {
            1: [(5, 1), (6, 2), (7, 3), (8, 4)],
            2: [(7, 5), (8, 6), (3, 1), (2, 4)],
            3: [(7, 8), (2, 5), (6, 3), (1, 4)],
        }
    )
    pairings = pair_swiss(entrants, history, rng=0)
    check_round(entrants, history, pairings)
    assert [(p.a_id, p.b_id) for p in pairings] == [(7, 2), (6, 1), (8, 3), (5, 4)]
    assert pairings[0].describe() == "floats down from 3–0 to meet 2–1, not met before"


def test_a_narrower_widest_pairing_is_worth_a_larger_total():
    # After four rounds of eight: 2, 3, 5 on 3–1; 4, 7, 8 on 2–2; 1 on 1–3; 6 on 0–4. The least
    # total (4) needs 5 v 6, three wins apart (2 v 3, 5 v 6, 4 v 1, 7 v 8); no draw keeps every
    # pairing within one win; within two, the fewest pairings two apart is two, and the least
    # total then is 6: 2 v 8, 3 v 1, 5 v 7, 4 v 6.
    entrants = [Entrant(i, seed=i) for i in range(1, 9)]
    history = history_of(
        {
            1: [(5, 1), (2, 6), (3, 7), (4, 8)],
            2: [(4, 2), (5, 3), (7, 1), (8, 6)],
            3: [(5, 4), (2, 7), (3, 8), (1, 6)],
            4: [(2, 5), (3, 4), (8, 1), (7, 6)],
        }
    )
    pairings = pair_swiss(entrants, history, rng=0)
    check_round(entrants, history, pairings)
    assert [(p.a_id, p.b_id) for p in pairings] == [(2, 8), (3, 1), (5, 7), (4, 6)]
    wins = {i: r.wins for i, r in records(entrants, history).items()}
    assert sorted(abs(wins[p.a_id] - wins[p.b_id]) for p in pairings) == [1, 1, 2, 2]


def test_a_second_bye_is_not_given_to_avoid_a_rematch():
    # 7 entrants after 6 rounds: entrant r had the bye in round r, so only 7 has had none.
    # 1, 2, 3 have met each of 4, 5, 6 and nobody else among 1–6: with the bye to 7, pairing
    # 1–6 needs a rematch (two groups of three who have not met). A second bye, to 2, would
    # avoid it (1 v 3, 4 v 5, 6 v 7). The bye rule comes first, and the reason says so.
    entrants = [Entrant(i, seed=i) for i in range(1, 8)]
    schedule = {
        1: [(7, 4), (2, 5), (3, 6)],
        2: [(7, 5), (1, 4), (3, 6)],
        3: [(7, 4), (1, 5), (2, 6)],
        4: [(7, 1), (3, 5), (2, 6)],
        5: [(7, 2), (1, 6), (3, 4)],
        6: [(7, 3), (2, 4), (1, 5)],
    }
    history = []
    for rnd, pairs in schedule.items():
        history.append(Result(rnd, rnd, None, rnd))
        history += [Result(rnd, a, b, a) for a, b in pairs]
    met = met_sets(entrants, history)
    top, bottom = {1, 2, 3}, {4, 5, 6}
    assert all(met[i] & (top | bottom) == (bottom if i in top else top) for i in top | bottom)
    assert 6 not in met[7]
    pairings = pair_swiss(entrants, history, rng=0)
    assert pairings[-1].a_id == 7
    assert pairings[-1].describe() == ("bye, lowest-ranked entrant with the fewest byes, first bye")
    repeats = [p for p in pairings if not p.is_bye and p.b_id in met[p.a_id]]
    assert len(repeats) == 1
    assert Reason("rematch_keeps_byes_even", {"times": 1}) in repeats[0].reasons
    assert (
        "rematch (met 1 time before): avoiding it would give someone a second bye while "
        "others have had fewer"
    ) in repeats[0].describe()


def test_a_rematch_no_bye_can_avoid_is_unavoidable():
    # Three rounds of five: 1 and 2 have met everyone but each other and 3; any draw repeats.
    entrants = [Entrant(i, seed=i) for i in range(1, 4)]
    history = [Result(1, 1, 2, 1), Result(1, 3, None, 3), Result(2, 1, 3, 1), Result(2, 2, None, 2)]
    history += [Result(3, 2, 3, 2), Result(3, 1, None, 1)]
    pairings = pair_swiss(entrants, history, rng=0)
    (match,) = (p for p in pairings if not p.is_bye)
    assert match.reasons[1] == Reason("rematch_unavoidable", {"times": 1})


@settings(max_examples=25)
@given(n=st.integers(20, 90), seed=st.integers(0, 10**6))
def test_larger_fields_never_rematch_in_seven_rounds(n, seed):
    # With n >= 2r + 3 a rematch-free pairing always exists (Dirac), so there must be none.
    entrants = [Entrant(i, club=f"peña {i % 5}") for i in range(1, n + 1)]
    for history, pairings in play(entrants, 7, seed, separate_clubs_rounds=2)[0]:
        check_round(entrants, history, pairings)
        assert rematches(pairings, met_sets(entrants, history)) == 0


@pytest.mark.parametrize("seed", range(3))
def test_late_rounds_of_a_large_field_count_rematches_only_over_small_runs(seed, monkeypatch):
    # After ten rounds of 256 the top score groups hold a few entrants who have met each
    # other, so a block there repeats a match. Whether pairing across the even cuts below
    # saves it used to be asked of every run of blocks holding it, up to the whole field, each
    # time by a maximum matching whose last search fails through the whole run (round 16 of
    # 4,096: most of a second). Runs are now tried smallest first, the first that can save it
    # merged, and a run where everyone may meet at least half the others is rematch-free
    # (Dirac) without a matching. Work, not time: the entrants of those matchings.
    sizes = []
    fewest = swiss._Pairer._fewest_rematches

    def counted(self, members, *args, **kwargs):
        sizes.append(len(members))
        return fewest(self, members, *args, **kwargs)

    monkeypatch.setattr(swiss._Pairer, "_fewest_rematches", counted)
    entrants = [Entrant(i, seed=i) for i in range(1, 257)]
    rng = random.Random(seed)
    history: list[Result] = []
    for rnd in range(1, 13):
        sizes.clear()
        pairings = pair_swiss(entrants, history, rng=seed)
        check_round(entrants, history, pairings)
        assert max(sizes, default=0) < 64, (rnd, sizes)
        for p in pairings:
            history.append(Result(rnd, p.a_id, p.b_id, rng.choice((p.a_id, p.b_id))))


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
