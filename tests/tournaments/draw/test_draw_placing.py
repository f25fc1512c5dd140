"""Placings of elimination phases (tournaments.draw.placing), without a database: worked
examples of single elimination with and without a third-place match, double elimination with
and without the grand-final reset, an a tres ceros, the phase while it is running, and
properties over random brackets played to the end.

Every example ranks through rank_by_placing over the real tiebreak standings of
scoring.standings, so the examples show the rule winning over matches won.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import Entry as StandingEntry
from scoring.standings import MatchRecord, Tiebreak, standings
from tournaments.draw import (
    DrawError,
    Entrant,
    Result,
    advance,
    double_elimination,
    resolve,
    single_elimination,
)
from tournaments.draw.placing import (
    PLACING,
    Placing,
    bracket_placings,
    lives_placings,
    rank_by_placing,
)

ORDER = (
    Tiebreak.MATCHES_WON,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.GAME_DIFFERENCE,
    Tiebreak.STONE_DIFFERENCE,
    Tiebreak.LOTS,
)


def seeded(n: int) -> list[Entrant]:
    return [Entrant(i, seed=i) for i in range(1, n + 1)]


def play(bracket, *results: tuple[int, int], winners: dict | None = None) -> dict[str, int]:
    """Record ``(winner, loser)`` results in order: each one is the ready match between the
    two (a rematch in a double elimination is the next one ready)."""
    winners = dict(winners or {})
    for winner, loser in results:
        ready = advance(bracket, winners, whole_rounds=False)
        match = next(m for m in ready if set(m.entrant_ids) == {winner, loser})
        winners[match.id] = winner
    return winners


def tiebreak_rows(bracket, winners, *, games=None):
    """scoring.standings rows of the bracket's decided matches: 2–1 in juegos, 120–100 in
    piedras unless ``games`` gives (winner's, loser's) juegos for a match id."""
    entries = [StandingEntry(pair=e, seed=e) for e in sorted(bracket.draw_order)]
    filled = {m.id: m for m in resolve(bracket, winners)}
    records = []
    for match_id, winner in winners.items():
        a, b = filled[match_id].entrant_ids
        won, lost = (games or {}).get(match_id, (2, 1))
        a_won = winner == a
        records.append(
            MatchRecord(
                pair_a=a,
                pair_b=b,
                winner=winner,
                games_a=won if a_won else lost,
                games_b=lost if a_won else won,
                stones_a=120 if a_won else 100,
                stones_b=100 if a_won else 120,
            )
        )
    return standings(entries, records, ORDER)


def ranked(bracket, winners, **kwargs) -> list[tuple[int, int, str | None]]:
    """(entrant, rank, separated_by) best first."""
    rows = tiebreak_rows(bracket, winners, **kwargs)
    placed = rank_by_placing(bracket_placings(bracket, winners), rows)
    return [(p.entrant_id, p.rank, p.separated_by) for p in placed]


# --- Single elimination -----------------------------------------------------------------------

# Eight seeded pairs (1v8, 4v5, 3v6, 2v7). Seed 5 beats seed 4 and then seed 1; seed 2 wins.
QUARTERS = ((1, 8), (5, 4), (3, 6), (2, 7))
SEMIS = ((5, 1), (2, 3))
FINAL = ((2, 5),)


def test_single_elimination_without_third_place_semi_final_losers_share_third():
    bracket = single_elimination(seeded(8), rng=1)
    winners = play(bracket, *QUARTERS, *SEMIS, *FINAL)
    assert ranked(bracket, winners) == [
        (2, 1, None),  # champion
        (5, 2, PLACING),  # the final's loser
        (1, 3, PLACING),  # the semi-final losers share 3rd, listed by seed
        (3, 3, None),
        (4, 5, PLACING),  # the quarter-final losers share 5th, listed by seed
        (6, 5, None),
        (7, 5, None),
        (8, 5, None),
    ]


def test_single_elimination_with_third_place_match():
    bracket = single_elimination(seeded(8), rng=1, third_place=True)
    winners = play(bracket, *QUARTERS, *SEMIS, (3, 1), *FINAL)
    assert ranked(bracket, winners) == [
        (2, 1, None),
        (5, 2, PLACING),
        (3, 3, PLACING),  # won the third-place match
        (1, 4, PLACING),  # lost it, though seed 1
        (4, 5, PLACING),
        (6, 5, None),
        (7, 5, None),
        (8, 5, None),
    ]
    placings = bracket_placings(bracket, winners)
    assert [placings[e].how for e in (2, 5, 3, 1, 4)] == [
        "champion",
        "runner_up",
        "third_place",
        "fourth_place",
        "lost_round",
    ]
    assert placings[4].round == 1


def test_a_shared_place_ignores_games_that_would_separate_the_pairs():
    bracket = single_elimination(seeded(8), rng=1)
    # Seed 8 lost its quarter-final 2–3 in juegos, the others 1–2 or worse: still 5th equal.
    games = {"W1-1": (3, 2), "W1-2": (3, 0), "W1-3": (3, 0), "W1-4": (3, 0)}
    winners = play(bracket, *QUARTERS, *SEMIS, *FINAL)
    rows = ranked(bracket, winners, games=games)
    assert [(e, r) for e, r, _ in rows[4:]] == [(4, 5), (6, 5), (7, 5), (8, 5)]


def test_a_running_single_elimination_ranks_what_is_decided():
    bracket = single_elimination(seeded(8), rng=1, third_place=True)
    # After the quarter-finals: the four still in share the top rank, by seed.
    winners = play(bracket, *QUARTERS)
    assert ranked(bracket, winners) == [
        (1, 1, None),
        (2, 1, None),
        (3, 1, None),
        (5, 1, None),
        (4, 5, PLACING),
        (6, 5, None),
        (7, 5, None),
        (8, 5, None),
    ]
    # Final played, third-place match not yet: its two pairs share 3rd.
    winners = play(bracket, *SEMIS, *FINAL, winners=winners)
    assert [(e, r) for e, r, _ in ranked(bracket, winners)[:4]] == [(2, 1), (5, 2), (1, 3), (3, 3)]
    assert bracket_placings(bracket, winners)[1].how == "third_place_pending"
    # Third-place match played, final not yet: the finalists share 1st.
    winners = play(bracket, *QUARTERS, *SEMIS, (3, 1))
    assert [(e, r) for e, r, _ in ranked(bracket, winners)[:4]] == [(2, 1), (5, 1), (3, 3), (1, 4)]


def test_byes_do_not_count_as_a_round_reached():
    # Six pairs: seeds 1 and 2 have byes in round 1 and lose their first match.
    bracket = single_elimination(seeded(6), rng=1)
    winners = play(bracket, (4, 5), (3, 6), (4, 1), (3, 2), (4, 3))
    assert ranked(bracket, winners) == [
        (4, 1, None),
        (3, 2, PLACING),
        (1, 3, PLACING),
        (2, 3, None),
        (5, 5, PLACING),
        (6, 5, None),
    ]


# --- Double elimination -----------------------------------------------------------------------

# Eight seeded pairs. Seed 2 loses in the winners' bracket to seed 3 and comes back through the
# repesca (L2, L3, L4), winning five matches to seed 1's four on the way.
WINNERS_BRACKET = ((1, 8), (4, 5), (3, 6), (2, 7), (1, 4), (3, 2), (1, 3))
REPESCA = ((5, 8), (6, 7), (2, 5), (4, 6), (2, 4), (2, 3))


def test_double_elimination_champion_of_the_reset_is_first_with_fewer_wins():
    bracket = double_elimination(seeded(8), rng=1, reset=True)
    winners = play(bracket, *WINNERS_BRACKET, *REPESCA, (2, 1), (1, 2))  # GF1, then GF2
    assert "GF2" in winners
    rows = {r.pair: r for r in tiebreak_rows(bracket, winners)}
    assert (rows[1].won, rows[2].won) == (4, 5)  # by matches won seed 2 would be first
    assert ranked(bracket, winners) == [
        (1, 1, None),  # champion: lost GF1, won the reset
        (2, 2, PLACING),  # grand final loser
        (3, 3, PLACING),  # lost the losers' final (L4)
        (4, 4, PLACING),  # lost L3
        (5, 5, PLACING),  # lost in L2, 5th equal
        (6, 5, None),
        (7, 7, PLACING),  # lost in L1
        (8, 7, None),
    ]


def test_double_elimination_without_the_reset_being_needed():
    bracket = double_elimination(seeded(8), rng=1, reset=True)
    winners = play(bracket, *WINNERS_BRACKET, *REPESCA, (1, 2))  # GF1 to the unbeaten pair
    assert "GF2" not in winners
    assert [e for e, _, _ in ranked(bracket, winners)] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert bracket_placings(bracket, winners)[2].how == "runner_up"


def test_double_elimination_without_a_reset_the_first_grand_final_decides():
    bracket = double_elimination(seeded(8), rng=1, reset=False)
    winners = play(bracket, *WINNERS_BRACKET, *REPESCA, (2, 1))
    assert ranked(bracket, winners)[:3] == [(2, 1, None), (1, 2, PLACING), (3, 3, PLACING)]


def test_a_running_double_elimination_keeps_every_pair_still_in_on_top():
    bracket = double_elimination(seeded(8), rng=1)
    # Round 1 and the first round of the repesca: 7 and 8 are out, six pairs still in.
    winners = play(bracket, *WINNERS_BRACKET[:4], (5, 8), (6, 7))
    assert ranked(bracket, winners) == [
        (1, 1, None),
        (2, 1, None),
        (3, 1, None),
        (4, 1, None),
        (5, 1, None),
        (6, 1, None),
        (7, 7, PLACING),
        (8, 7, None),
    ]
    # The reset is pending: both grand finalists are still in.
    winners = play(bracket, *WINNERS_BRACKET, *REPESCA, (2, 1))
    assert ranked(bracket, winners)[:3] == [(1, 1, None), (2, 1, None), (3, 3, PLACING)]


def test_two_pairs_in_a_double_elimination():
    bracket = double_elimination(seeded(2), rng=1)
    winners = play(bracket, (2, 1), (1, 2), (1, 2))  # W1-1, GF1, GF2
    assert ranked(bracket, winners) == [(1, 1, None), (2, 2, PLACING)]


def test_contradicting_results_raise_the_draw_error():
    bracket = single_elimination(seeded(4), rng=1)
    with pytest.raises(DrawError):
        bracket_placings(bracket, {"W1-1": 1, "W2-1": 3})  # 3 never reached the final


# --- A tres ceros -----------------------------------------------------------------------------


def lives_rows(entrants, history, order=ORDER):
    records = [
        MatchRecord(
            pair_a=r.a_id,
            pair_b=r.b_id,
            winner=r.winner_id,
            games_a=games[0] if r.b_id else 2,
            games_b=games[1] if r.b_id else 0,
            stones_a=0,
            stones_b=0,
            kind="played" if r.b_id else "bye",
        )
        for r, games in history
    ]
    entries = [StandingEntry(pair=e.id, seed=e.seed) for e in entrants]
    return standings(entries, records, order)


def lives_ranked(entrants, history, *, lives, withdrawn=()):
    rows = lives_rows(entrants, history)
    placings = lives_placings(entrants, [r for r, _ in history], lives=lives, withdrawn=withdrawn)
    return [(p.entrant_id, p.rank, p.separated_by) for p in rank_by_placing(placings, rows)]


def r(rnd, a, b=None, winner=None, games=(2, 1)):
    return Result(round=rnd, a_id=a, b_id=b, winner_id=a if b is None else winner), games


def test_a_tres_ceros_ranks_by_the_round_each_pair_went_out():
    # Two lives. Pair 4 is out in round 2, pair 3 in round 4, pair 2 in round 5: pair 1 stands.
    history = [
        r(1, 1, 4, 1),
        r(1, 2, 3, 2),
        r(2, 1, 2, 1),
        r(2, 3, 4, 3),  # 4: second defeat
        r(3, 1, 2, 2),
        r(3, 3),  # bye
        r(4, 2, 3, 2),  # 3: second defeat
        r(4, 1),
        r(5, 1, 2, 1),  # 2: second defeat
    ]
    entrants = seeded(4)
    assert lives_ranked(entrants, history, lives=2) == [
        (1, 1, None),
        (2, 2, PLACING),
        (3, 3, PLACING),
        (4, 4, PLACING),
    ]
    placings = lives_placings(entrants, [x for x, _ in history], lives=2)
    assert placings[1].how == "champion"
    assert (placings[3].how, placings[3].round) == ("out_round", 4)


def test_a_tres_ceros_pairs_out_in_the_same_round_are_split_by_tiebreaks():
    # One life: round 1 knocks out 5, 6, 7, 8; 7 lost 1–2 in juegos, the others 0–2.
    history = [
        r(1, 1, 8, 1, games=(2, 0)),
        r(1, 2, 7, 2, games=(2, 1)),
        r(1, 3, 6, 3, games=(2, 0)),
        r(1, 4, 5, 4, games=(2, 0)),
    ]
    ranking = lives_ranked(seeded(8), history, lives=1)
    assert ranking[4:] == [
        (7, 5, PLACING),  # the best game difference of round 1's losers
        (5, 6, "game_difference"),
        (6, 7, "lots"),  # level on everything else: the draw of lots is by seed
        (8, 8, "lots"),
    ]
    # Still running: the four pairs still in come first, ranked by their own tiebreaks.
    assert ranking[:4] == [(1, 1, None), (3, 2, "lots"), (4, 3, "lots"), (2, 4, "game_difference")]


def test_a_pair_that_withdrew_is_out_after_the_last_round_it_played():
    history = [r(1, 1, 2, 1), r(1, 3, 4, 3), r(2, 1, 3, 3), r(2, 2, 4, 2)]  # 4 out in round 2
    # Pair 1 withdraws after round 2 with one life left; 3 and 2 play on.
    history += [r(3, 3, 2, 3)]  # 2 out in round 3
    ranking = lives_ranked(seeded(4), history, lives=2, withdrawn={1})
    assert [e for e, _, _ in ranking] == [3, 2, 1, 4]
    placings = lives_placings(seeded(4), [x for x, _ in history], lives=2, withdrawn={1})
    assert (placings[1].how, placings[1].round) == ("withdrawn", 2)
    assert placings[3].how == "champion"


# --- rank_by_placing on its own ---------------------------------------------------------------


class Row:
    def __init__(self, pair, *values):
        self.pair = pair
        self.tiebreaks = tuple(zip(("matches_won", "lots"), values, strict=False))


def test_pairs_without_a_placing_come_last_and_placings_without_a_row_are_left_out():
    placings = {
        1: Placing(1, (0,), True, 2, "still_in"),
        2: Placing(2, (0,), True, 1, "still_in"),
        9: Placing(9, (0,), True, 3, "still_in"),  # no row: not shown
    }
    rows = [Row(3, 5, 3), Row(1, 1, 1), Row(4, 0, 4), Row(2, 0, 2)]
    assert [(p.entrant_id, p.rank, p.separated_by) for p in rank_by_placing(placings, rows)] == [
        (2, 1, None),  # shared group: by draw number, not by the rows' order
        (1, 1, None),
        (3, 3, PLACING),
        (4, 4, "matches_won"),
    ]
    assert rank_by_placing({}, []) == ()


def test_equal_tiebreak_values_share_the_rank():
    placings = {p: Placing(p, (1, -3), False, p, "out_round", 3) for p in (1, 2, 3)}
    rows = [Row(1, 2, None), Row(2, 2, None), Row(3, 1, None)]
    assert [(p.rank, p.separated_by) for p in rank_by_placing(placings, rows)] == [
        (1, None),
        (1, None),
        (3, "matches_won"),
    ]


# --- Properties over random brackets played to the end ----------------------------------------


def play_randomly(bracket, seed):
    rng = random.Random(seed)
    winners: dict[str, int] = {}
    while ready := advance(bracket, winners):
        for m in ready:
            winners[m.id] = rng.choice(m.entrant_ids)
    return winners


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10_000), reset=st.booleans())
def test_double_elimination_places_follow_the_repesca_round(n, seed, reset):
    bracket = double_elimination(seeded(n), rng=seed, reset=reset)
    winners = play_randomly(bracket, seed)
    placings = bracket_placings(bracket, winners)
    placed = rank_by_placing(placings, tiebreak_rows(bracket, winners))
    assert len(placed) == n
    rank = {p.entrant_id: p.rank for p in placed}
    hows = Counter(p.how for p in placings.values())
    assert hows["champion"] == hows["runner_up"] == 1 and hows["still_in"] == 0
    assert sorted(rank.values())[:2] == [1, 2]
    for a in placings.values():
        for b in placings.values():
            if a.how == b.how == "lost_losers_round":
                # a later round of the repesca is a better place; the same round shares it
                assert (rank[a.entrant_id] < rank[b.entrant_id]) == (a.round > b.round)
                assert (rank[a.entrant_id] == rank[b.entrant_id]) == (a.round == b.round)
    # competition ranking: a rank is one more than the rows above it
    ordered = [p.rank for p in placed]
    assert all(r == ordered.index(r) + 1 for r in ordered)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10_000), third=st.booleans())
def test_single_elimination_places_follow_the_round_lost(n, seed, third):
    third = third and n >= 4
    bracket = single_elimination(seeded(n), rng=seed, third_place=third)
    winners = play_randomly(bracket, seed)
    placings = bracket_placings(bracket, winners)
    placed = rank_by_placing(placings, tiebreak_rows(bracket, winners))
    rank = {p.entrant_id: p.rank for p in placed}
    top = [p.entrant_id for p in placed[: 4 if third else 2]]
    expected = ["champion", "runner_up"] + (["third_place", "fourth_place"] if third else [])
    assert [placings[e].how for e in top] == expected
    assert [rank[e] for e in top] == list(range(1, len(top) + 1))
    for a in placings.values():
        for b in placings.values():
            if a.how == b.how == "lost_round":
                assert (rank[a.entrant_id] < rank[b.entrant_id]) == (a.round > b.round)
