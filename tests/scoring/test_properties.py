"""Properties of the rules engine over random deals, bets and rule sets (hypothesis).

Plain Python, no database. The engine's answers are compared with tests/scoring/strategies.py,
which evaluates the cards and models the betting from the rules themselves (docs/rules.md: the
Spanish rules page, 001, where the sources disagree; the English article, 000; an online Mus
site's rules, 003; the French translation of the Fournier rules, 004), not from the engine's
code. Every error the fuzzed inputs raise must also read in Spanish (tests/scoring/spanish.py).

Seats are numbered from mano (0 mano, 1, 2 mano's partner, 3 postre); side 0 is the pareja mano
(seats 0 and 2), side 1 the pareja postre. At match level the teams are A and B, sitting A1, B1,
A2, B2 (positions 0-3).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import (
    EntryAfterEnd,
    GameEntry,
    GameResult,
    HandRecord,
    MatchState,
    RuleSet,
    ScoringError,
    apply_hand,
    declarations_from_cards,
    hand_from_json,
    hand_values,
    play_match,
    record_games,
    run,
    score_hand,
)
from scoring.betting import Outcome
from scoring.hand import JUEGO_REAL
from tests.scoring.spanish import check_spanish
from tests.scoring.strategies import (
    KNOWN_KEYS,
    LANCE_KEYS,
    ODD_STRINGS,
    SIDE_WORDS,
    GeneratedHand,
    best_seat,
    flip_prefix,
    hands,
    json_values,
    lance_name,
    pair_tie,
    random_hand,
    render_hand,
    rule_sets,
    speakers_of,
    tied_deals,
)

# every test here runs with the C speed-up and in plain Python (tests/scoring/conftest.py)
pytestmark = pytest.mark.usefixtures("engine_path")

ROOT = Path(__file__).resolve().parents[2]

CHEAP = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MATCH = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)
DECIDED_BY_CARDS = (Outcome.PASO, Outcome.QUERIDO, Outcome.ORDAGO)
PARES_WORDS = ("none", "par", "medias", "duples")


def score(rules: RuleSet, hand_json: dict):
    return score_hand(rules, hand_from_json(hand_json, rules))


def as_tuples(events) -> list[tuple]:
    return [tuple(e) for e in events]


# ---------------------------------------------------------------------------------------------
# The rules, as a reference scorer over the generated hand


def lance_side(hand: GeneratedHand, index: int) -> int | None:
    """The pair a lance goes to by the rules (None: nobody has pares)."""
    expect = hand.expects[index]
    speakers = speakers_of(hand.refs, index)
    if expect.outcome == "not_played":
        return speakers[0] % 2 if speakers else None
    if expect.outcome == "no_querido":
        return expect.side  # 004: "Le joueur qui renonce à une mise ... perd tout droit"
    return best_seat(hand.refs, lance_name(hand.refs, index), speakers) % 2


def expected_events(rules: RuleSet, hand: GeneratedHand) -> tuple[list[tuple], tuple | None]:
    """Events in counting order (004 «Valeur des coups»: the "non" first, then the count);
    before them the tío Perete where the rule set plays it (000 «Named hands»: declared
    "before starting to play"), one stone for each player holding 4-5-6-7."""
    dejes: list[tuple] = []
    if rules.tio_perete:
        for seat, cards in enumerate(hand.deal):
            if sorted(c.rank for c in cards) == [4, 5, 6, 7]:
                dejes.append(("perete", seat % 2, 1, "perete"))
    count: list[tuple] = []
    for index, expect in enumerate(hand.expects):
        if expect is None:
            break
        name = lance_name(hand.refs, index)
        side = lance_side(hand, index)
        if expect.outcome == "no_querido" and rules.dejes:  # docs/rules.md: "sin deje"
            dejes.append((name, side, expect.stones, "deje"))
        if expect.outcome == "ordago":  # 003: "without considering any other bids made before"
            return dejes, (name, side, 0, "ordago")
        if side is None:
            continue
        if expect.outcome == "querido":
            count.append((name, side, expect.stones, "envite"))
        elif expect.outcome == "paso" and index < 2:  # 001: grande/chica en paso: 1 point
            count.append((name, side, 1, "paso"))
        winners = [hand.refs[side], hand.refs[side + 2]]
        if name == "pares":  # 000 «Scoring»: 1 per par, 2 per medias, 3 per duples
            bonus = sum(r.pares for r in winners)
        elif name == "juego":  # 3 for each 31, 2 for any other juego
            bonus = sum(3 if r.points == 31 else 2 if r.has_juego else 0 for r in winners)
        elif name == "punto":
            bonus = 1
        else:
            bonus = 0
        if bonus:
            count.append((name, side, bonus, "bonus"))
    return dejes + count, None


# ---------------------------------------------------------------------------------------------
# 1. Each lance has exactly one winning pair; ties go to the seat nearer mano


@CHEAP
@given(hands())
def test_each_lance_has_exactly_one_winning_pair(case):
    rules, hand = case
    result = score(rules, hand.json)
    played = [e for e in hand.expects if e is not None]
    assert len(result.lances) == len(played)
    for index, (expect, lance) in enumerate(zip(played, result.lances, strict=True)):
        name = lance_name(hand.refs, index)
        speakers = speakers_of(hand.refs, index)
        assert lance.lance == name
        assert lance.outcome.value == expect.outcome
        scorers = {e.side for e in result.events if e.lance == name}
        if result.ordago is not None and result.ordago.lance == name:
            scorers.add(result.ordago.side)
        assert len(scorers) <= 1, f"both pairs score in {name}"
        if expect.outcome == "not_played":
            assert len({s % 2 for s in speakers}) < 2
            assert lance.side == (speakers[0] % 2 if speakers else None)
            assert scorers <= {lance.side}
            continue
        assert lance.side in (0, 1)
        assert scorers <= {lance.side}
        if expect.outcome == "no_querido":
            assert lance.side == expect.side
            continue
        seat = best_seat(hand.refs, name, speakers)
        assert (lance.seat, lance.side) == (seat, seat % 2)
        assert lance.seat in speakers
        if name == "pares":
            assert hand.refs[seat].pares
        if name == "juego":
            assert hand.refs[seat].has_juego
        assert lance.tie == pair_tie(hand.refs, name, speakers)


@CHEAP
@given(hands())
def test_events_are_what_the_rules_count(case):
    """Every event, in counting order: dejes as they happen, then grande, chica, pares, juego."""
    rules, hand = case
    result = score(rules, hand.json)
    expected, ordago = expected_events(rules, hand)
    assert as_tuples(result.events) == expected
    assert (tuple(result.ordago) if result.ordago else None) == ordago
    if ordago is None:
        totals = [0, 0]
        for event in expected:
            totals[event[1]] += event[2]
        assert result.stones == tuple(totals)


@CHEAP
@given(rule_sets(), tied_deals())
def test_equal_cards_go_to_the_seat_nearer_mano(rules, tied):
    """Two players of different pairs with the same ranks: the later seat never wins a lance
    both are in (001: "ganará el jugador que sea mano, o el jugador más cercano a este")."""
    deal, (first, second) = tied
    result = score(rules, {"cards": [render_hand(h, 0) for h in deal], "bets": {}})
    for lance in result.lances:
        assert lance.seat != second
        if lance.seat == first:
            assert lance.tie


# (seat order from mano; the lance; the seat that must win; whether it was a tie between pairs)
TIES = [
    pytest.param(
        ["4o 5o 6o 7o", "Ro Co So 7c", "Rc Cc Sc 7e", "4c 5c 6c 1b"],
        "grande",
        1,
        True,
        id="grande-second-beats-third",
    ),
    pytest.param(
        ["1o 2o 4o 5o", "Ro Co So 7c", "Rc Cc Sc 7e", "1c 2c 4c 5c"],
        "chica",
        0,
        True,
        id="chica-mano-beats-postre",
    ),
    pytest.param(
        ["1o 6o 7o So", "1c 6c 7c Sc", "Co Cc 4o 5o", "Ce Cb 4c 5c"],
        "pares",
        2,
        True,
        id="pares-third-beats-postre",
    ),
    pytest.param(
        ["4o 5o 6o 7o", "4c 5c 6c 7c", "Ro Co So 1o", "Rc Cc Sc 1c"],
        "juego",
        2,
        True,
        id="juego-31-third-beats-postre",
    ),
    pytest.param(
        ["4o 4c 1o 1c", "Ro Co 5o 5c", "Rc Cc 5e 5b", "6o 6c 1e 1b"],
        "punto",
        1,
        True,
        id="punto-30-second-beats-third",
    ),
]


@pytest.mark.parametrize(("deal", "lance", "seat", "tie"), TIES)
@pytest.mark.parametrize("kings", [8, 4])
def test_worked_ties(deal, lance, seat, tie, kings):
    rules = RuleSet(kings=kings)
    result = score(rules, {"cards": deal, "bets": {}})
    [found] = [r for r in result.lances if r.lance == lance]
    assert (found.seat, found.side, found.tie) == (seat, seat % 2, tie)
    assert "nearer mano" in found.reason


def test_31_real_beats_mano_31_whatever_the_seat():
    # 000 «Juego»: 31 real wins "against other 31-point combinations regardless of speaking
    # order"; 003: "wins the round per Game, including if there is a tie"
    deal = ["Ro Co So 1o", "4c 5c 6c 4o", "5o 6o 4e 5e", "Se 7o 7c 7e"]
    for real in ("sota_777", "figure_777"):
        rules = RuleSet.from_dict({"real_31": real})
        [juego] = [r for r in score(rules, {"cards": deal}).lances if r.lance == "juego"]
        assert (juego.seat, juego.side, juego.tie) == (3, 1, False)
    [juego] = [r for r in score(RuleSet(), {"cards": deal}).lances if r.lance == "juego"]
    assert (juego.seat, juego.tie) == (0, True)


# ---------------------------------------------------------------------------------------------
# 2. Swapping the pairs swaps the points, except where seat order broke a tie

SWAPS = {
    # The pareja postre becomes mano: everybody moves one seat towards mano (old seat k sits at
    # k-1), i.e. the same deal one hand later in the rotation.
    "rotate": lambda d: (d[1], d[2], d[3], d[0]),
    # Each player changes places with the opponent on their left: seats 0↔1 and 2↔3.
    "exchange": lambda d: (d[1], d[0], d[3], d[2]),
}


def _implied_pasos(actions) -> list[str]:
    """The pasos before an opening bet that names its pair are implied: left out, so that the
    swapped betting does not say the named pair had already passed."""
    actions = list(actions)
    first = next((i for i, a in enumerate(actions) if a != "paso"), len(actions))
    if first < len(actions) and ":" in actions[first]:
        return actions[first:]
    return actions


@CHEAP
@pytest.mark.parametrize("swap", sorted(SWAPS))
@given(case=hands(prefix=True))
def test_swapping_the_pairs_swaps_the_points(swap, case):
    """The same sixteen cards dealt so that each pair holds what the other held, and the same
    betting said by the other pair, score the same events for the other pair.

    "Swap" is a seat permutation that maps every seat of the pareja mano to a seat of the
    pareja postre and back (see SWAPS); both keep each pair's two hands together. The betting
    is recorded with the opening bet naming its pair ("mano: envido" becomes "postre: envido"),
    so it does not depend on who speaks first; the answers alternate and need no name. The one
    asymmetry of Mus is seat order, which decides equal cards (000: "ties are solved by
    speaking order"): a lance where the best cards of the two pairs are equal may stay with the
    same seat order instead of swapping, so those lances are left out; when there is none, the
    whole hand's stones are swapped.
    """
    rules, hand = case
    swapped_deal = SWAPS[swap](hand.deal)
    swapped_json = {
        "cards": [render_hand(h, 0) for h in swapped_deal],
        "bets": {
            k: _implied_pasos(flip_prefix(a) for a in v) for k, v in hand.json["bets"].items()
        },
    }
    original = score(rules, hand.json)
    swapped = score(rules, swapped_json)
    assert [(r.lance, r.outcome) for r in swapped.lances] == [
        (r.lance, r.outcome) for r in original.lances
    ]
    tied = set()
    for index, (mine, theirs) in enumerate(zip(original.lances, swapped.lances, strict=True)):
        by_seat = mine.outcome in DECIDED_BY_CARDS and pair_tie(
            hand.refs, mine.lance, speakers_of(hand.refs, index)
        )
        assert mine.tie == theirs.tie == by_seat
        if by_seat:
            tied.add(mine.lance)
        elif mine.side is not None:
            assert theirs.side == 1 - mine.side
    for lance in {r.lance for r in original.lances} - tied:
        mine = [e for e in as_tuples(original.events) if e[0] == lance]
        theirs = [e for e in as_tuples(swapped.events) if e[0] == lance]
        assert theirs == [(e[0], 1 - e[1], e[2], e[3]) for e in mine]
    if original.ordago is not None and original.ordago.lance not in tied:
        assert swapped.ordago.side == 1 - original.ordago.side
    if not tied:
        assert swapped.stones == original.stones[::-1]
        assert as_tuples(swapped.events) == [(e[0], 1 - e[1], *e[2:]) for e in original.events]


# ---------------------------------------------------------------------------------------------
# 3. Cards and declarations give the same score


def honest_declarations(hand: GeneratedHand, pick, rules: RuleSet | None = None) -> dict:
    """What the four players declare for these cards, and the winner of each lance the cards
    decide, built from the reference evaluation (not from the engine)."""
    refs = hand.refs
    vague = False
    juego = []
    for r in refs:
        if not r.has_juego:
            juego.append(pick((None, "none", "no", False)))
        elif r.real:
            juego.append("31 real")
        elif r.points == 31:
            juego.append(pick((31, "31")))
        elif pick((True, False)):
            juego.append(pick(("other", "si", True)))  # a juego that is not 31, number unknown
            vague = True
        else:
            juego.append(pick((r.points, str(r.points))))
    decl: dict = {"pares": [PARES_WORDS[r.pares] for r in refs], "juego": juego}
    if not any(r.has_juego for r in refs):
        decl["punto"] = [r.points for r in refs]
    winners = {}
    for index, expect in enumerate(hand.expects):
        if expect is None or expect.outcome not in ("paso", "querido", "ordago"):
            continue
        name = lance_name(refs, index)
        side = best_seat(refs, name, speakers_of(refs, index)) % 2
        if name == "pares":
            derivable = max(refs[0].pares, refs[2].pares) != max(refs[1].pares, refs[3].pares)
        else:
            derivable = name == "punto" or (name == "juego" and not vague)
        if not derivable or pick((True, False)):
            winners[name] = SIDE_WORDS[side]
    decl["winners"] = winners
    if rules is not None and rules.tio_perete:  # 000: 4-5-6-7 shown before play
        decl["perete"] = [
            s for s, cards in enumerate(hand.deal) if sorted(c.rank for c in cards) == [4, 5, 6, 7]
        ]
    return decl


@CHEAP
@given(case=hands(), data=st.data())
def test_cards_and_declarations_give_the_same_score(case, data):
    rules, hand = case
    pick = lambda options: data.draw(st.sampled_from(options))  # noqa: E731
    decl = honest_declarations(hand, pick, rules)
    with_cards = score(rules, hand.json)
    declared = score(rules, {"bets": hand.json["bets"], "declarations": decl})
    both = score(rules, {**hand.json, "declarations": decl})
    for other in (declared, both):
        same_score(with_cards, other)


@CHEAP
@given(hands())
def test_declarations_from_cards_are_the_honest_declarations(case):
    rules, hand = case
    refs = hand.refs
    decl = declarations_from_cards(rules, hand_values(rules, hand.json["cards"]))
    assert decl.pares == tuple(r.pares for r in refs)
    assert decl.juego == tuple(
        (JUEGO_REAL if r.real else r.points) if r.has_juego else 0 for r in refs
    )
    nobody = not any(r.has_juego for r in refs)
    assert decl.punto == (tuple(r.points for r in refs) if nobody else None)
    for lance in ("grande", "chica"):
        assert decl.winners[lance] == best_seat(refs, lance, range(4)) % 2


def same_score(mine, theirs) -> None:
    assert as_tuples(theirs.events) == as_tuples(mine.events)
    assert theirs.ordago == mine.ordago
    assert [(r.lance, r.outcome, r.side) for r in theirs.lances] == [
        (r.lance, r.outcome, r.side) for r in mine.lances
    ]


@CHEAP
@given(hands())
def test_declarations_from_cards_score_like_the_cards(case):
    rules, hand = case
    record = hand_from_json(hand.json, rules)
    honest = declarations_from_cards(rules, record.cards)
    mine = score_hand(rules, record)
    # without the cards, a lance never played (after an accepted órdago) has no winner to give
    played = {r.lance for r in mine.lances}
    winners = {k: v for k, v in honest.winners.items() if k in played}
    declared = HandRecord(bets=record.bets, declarations=replace(honest, winners=winners))
    same_score(mine, score_hand(rules, declared))


def test_declarations_from_cards_name_the_pares_winner():
    # mano R-R-5-4 (par de reyes) and second C-C-5-4 (par de caballos): par against par, so
    # the kinds alone do not say who won pares
    rules = RuleSet()
    record = hand_from_json(
        {"cards": ["Ro Rc 4e 5b", "Co Cc 4o 5c", "6o 7o 4c 5e", "6c 7c 1e 1b"]}, rules
    )
    declared = HandRecord(
        bets=record.bets, declarations=declarations_from_cards(rules, record.cards)
    )
    same_score(score_hand(rules, record), score_hand(rules, declared))


# ---------------------------------------------------------------------------------------------
# 4. Folding hands one at a time equals play_match; states are never changed


@MATCH
@given(
    rules=rule_sets(stones=(10, 40)),
    seed=SEEDS,
    count=st.integers(1, 40),
    first=st.integers(0, 3),
)
def test_folding_hands_one_at_a_time_equals_play_match(rules, seed, count, first):
    rnd = random.Random(seed)
    records = [hand_from_json(random_hand(rnd, rules).json, rules) for _ in range(count)]
    state = MatchState.start(rules, first)
    folded = []
    refused_at = None
    for number, record in enumerate(records, start=1):
        before = repr(state)
        try:
            new, outcome = apply_hand(state, record)
        except EntryAfterEnd:
            refused_at = number
            break
        assert repr(state) == before, "apply_hand changed the old state"
        assert new is not state
        folded.append(outcome)
        state = new
    if refused_at is None:
        assert play_match(rules, records, first) == (state, tuple(folded))
    else:
        with pytest.raises(EntryAfterEnd, match=f"^Hand {refused_at}: "):
            play_match(rules, records, first)
        assert play_match(rules, records[: refused_at - 1], first) == (state, tuple(folded))
    # folding in two halves from a saved state gives the same too
    half = len(folded) // 2
    middle, _ = play_match(rules, records[:half], first)
    rest = middle
    for record in records[half : len(folded)]:
        rest, _ = apply_hand(rest, record)
    assert rest == state


# ---------------------------------------------------------------------------------------------
# 5 and 6. Games end once, at the target; the first pair to reach it wins


def check_hand_applied(state: MatchState, new: MatchState, outcome) -> None:
    """The events are added in counting order and the first pair to reach the target wins
    there and then (001: «si ambos lo consiguen el que lo haya hecho antes»)."""
    target = state.rules.stones_per_game
    stones = list(state.stones)
    applied = []
    winner = None
    for event in outcome.score.events:
        team = (outcome.mano + event.side) % 2
        stones[team] += event.stones
        applied.append(event)
        if stones[team] >= target:
            winner = team
            break
    by_ordago = False
    if winner is None and outcome.score.ordago is not None:
        winner = (outcome.mano + outcome.score.ordago.side) % 2
        applied.append(outcome.score.ordago)
        by_ordago = True
    assert outcome.mano == state.mano
    assert outcome.applied == tuple(applied)
    if winner is None:
        assert outcome.game is None
        assert new.stones == outcome.stones == tuple(stones)
        assert new.games == state.games
        return
    assert outcome.game == GameResult(tuple(stones), winner, by_ordago, vaca=sum(state.vacas))
    assert new.games == (*state.games, outcome.game)
    assert new.stones == (0, 0)
    assert outcome.stones == tuple(stones)
    assert outcome.vaca_ended == (sum(new.vacas) > sum(state.vacas))
    assert outcome.match_ended == new.finished


def check_games(rules: RuleSet, state: MatchState) -> None:
    target = rules.stones_per_game
    for game in state.games:
        won, lost = game.stones[game.winner], game.stones[1 - game.winner]
        assert lost < target
        assert won < target if game.ordago else target <= won <= rules.max_game_stones
    vacas = [0, 0]
    for vaca in range(sum(state.vacas) + (0 if state.finished else 1)):
        games = [g for g in state.games if g.vaca == vaca]
        wins = [sum(g.winner == t for g in games) for t in (0, 1)]
        if vaca < sum(state.vacas):  # a decided vaca: its last game gave it to its winner
            winner = games[-1].winner
            assert wins[winner] == rules.games_per_vaca > wins[1 - winner]
            vacas[winner] += 1
        else:
            assert max(wins, default=0) < rules.games_per_vaca
            assert tuple(wins) == state.vaca_games
    assert [g.vaca for g in state.games] == sorted(g.vaca for g in state.games)
    assert tuple(vacas) == state.vacas
    if state.finished:
        assert state.vacas[state.winner] == rules.vacas_per_match
        assert state.vacas[1 - state.winner] < rules.vacas_per_match
        low = rules.vacas_per_match * rules.games_per_vaca
        high = (2 * rules.vacas_per_match - 1) * (2 * rules.games_per_vaca - 1)
        assert low <= len(state.games) <= high
    else:
        assert max(state.vacas) < rules.vacas_per_match


MAX_HANDS = 5000


def as_played(state: MatchState, rules: RuleSet, hand: GeneratedHand) -> dict:
    """The hand's JSON as a table can have played it from ``state``: a deje that reaches the
    target wins the game there and then (004: the "non" is counted at once), so nothing is bet
    in the lances after it; their bets are left out. The tío Perete is counted before every
    lance (000: shown «before starting to play»): when it wins the game, nothing is bet."""
    stones = list(state.stones)
    if rules.tio_perete:
        for seat, cards in enumerate(hand.deal):
            if sorted(c.rank for c in cards) == [4, 5, 6, 7]:
                stones[state.team_of_side(seat % 2)] += 1
    if max(stones) >= rules.stones_per_game:
        return {**hand.json, "bets": {}}
    if not rules.dejes:
        return hand.json
    for index, expect in enumerate(hand.expects):
        if expect is None or expect.outcome != "no_querido":
            continue
        team = state.team_of_side(expect.side)
        stones[team] += expect.stones
        if stones[team] >= rules.stones_per_game:
            keep = {k: v for k, v in hand.json["bets"].items() if LANCE_KEYS.index(k) <= index}
            return {**hand.json, "bets": keep}
    return hand.json


def play_random_match(rules: RuleSet, rnd: random.Random, first: int):
    """Hands until the match ends, checking each one as it is applied."""
    state = MatchState.start(rules, first)
    game_first = first
    records = []
    for _ in range(MAX_HANDS):
        # an órdago in a few hands only, so that most games are won on stones
        hand = random_hand(rnd, rules, allow_ordago=rnd.random() < 0.04)
        record = hand_from_json(as_played(state, rules, hand), rules)
        new, outcome = apply_hand(state, record)
        check_hand_applied(state, new, outcome)
        records.append(record)
        # mano passes to the right each hand; a new game starts one further on than the last
        # game started (000: "the dealer will be the last game's first player")
        if outcome.game is None:
            assert new.mano == (outcome.mano + 1) % 4
        else:
            game_first = (game_first + 1) % 4
            assert new.mano == game_first
        assert new.hands == state.hands + 1
        state = new
        if state.finished:
            return state, records
    raise AssertionError(f"no winner after {MAX_HANDS} hands")


@MATCH
@given(rules=rule_sets(), seed=SEEDS, first=st.integers(0, 3))
def test_games_end_once_at_the_target(rules, seed, first):
    rnd = random.Random(seed)
    state, records = play_random_match(rules, rnd, first)
    check_games(rules, state)
    extra = hand_from_json(random_hand(rnd, rules).json, rules)
    with pytest.raises(EntryAfterEnd) as raised:
        apply_hand(state, extra)
    assert raised.value.code == "match_over"
    with pytest.raises(EntryAfterEnd, match=f"^Hand {len(records) + 1}: "):
        play_match(rules, [*records, extra], first)


def at(stones: tuple[int, int], rules: RuleSet, mano: int = 0) -> MatchState:
    """A match of these rules with the current game at these stones (A, B), mano at ``mano``."""
    start = MatchState.start(rules, mano)
    return dataclasses.replace(start, stones=stones)


# mano (A1) R-R-R-C: grande; second (B1) C-C-S-S and postre (B2) 7-7-6-6: duples for B (6);
# third (A2) 4-4-5-5 loses pares to the caballos, wins chica; juego 40 tie goes to mano.
FIRST_TO_REACH = ["Ro Rc Re Co", "Cc Ce So Sc", "4o 4c 5o 5c", "7o 7c 6o 6c"]


def test_first_pair_to_reach_the_target_wins_though_the_other_would_pass_it():
    # 001 «Cómo apuntar»: "Ganará el que consiga sumar 40 puntos o más y si ambos lo consiguen
    # el que lo haya hecho antes. Para esto es importante seguir el orden"
    rules = RuleSet()
    state = at((38, 36), rules)
    record = hand_from_json(
        {"cards": FIRST_TO_REACH, "bets": {"grande": ["envido", "quiero"]}}, rules
    )
    assert score_hand(rules, record).stones[1] >= 6  # B would pass 40 with pares later
    new, outcome = apply_hand(state, record)
    assert outcome.game == GameResult((40, 36), 0)
    assert as_tuples(outcome.applied) == [("grande", 0, 2, "envite")]
    assert new.stones == (0, 0) and new.vaca_games == (1, 0)


def test_a_deje_is_counted_before_the_count():
    # 004: "se rappeler que la première chose qui est encaissée est le "Non" ou "laissé""
    rules = RuleSet()
    state = at((38, 39), rules)
    record = hand_from_json(
        {
            "cards": FIRST_TO_REACH,
            "bets": {"grande": ["envido", "quiero"], "chica": ["paso", "envido", "no quiero"]},
        },
        rules,
    )
    _, outcome = apply_hand(state, record)
    assert outcome.game == GameResult((38, 40), 1)
    assert as_tuples(outcome.applied) == [("chica", 1, 1, "deje")]


@MATCH
@given(rules=rule_sets(), seed=SEEDS, mano=st.integers(0, 3), data=st.data())
def test_first_to_reach_from_any_score(rules, seed, mano, data):
    target = rules.stones_per_game
    a = data.draw(st.integers(0, target - 1), label="A")
    b = data.draw(st.integers(0, target - 1), label="B")
    state = at((a, b), rules, mano)
    hand = random_hand(random.Random(seed), rules)
    record = hand_from_json(as_played(state, rules, hand), rules)
    new, outcome = apply_hand(state, record)
    check_hand_applied(state, new, outcome)


# ---------------------------------------------------------------------------------------------
# 7. Quick entry: games given as final stones


@st.composite
def game_lists(draw, rules: RuleSet):
    """Valid games as a table reports them, and the state the rules say they lead to."""
    target = rules.stones_per_game
    entries: list[GameEntry] = []
    results: list[GameResult] = []
    vaca_games, vacas = [0, 0], [0, 0]
    for _ in range(draw(st.integers(0, 25))):
        winner = draw(st.sampled_from((0, 1)))
        ordago = draw(st.integers(0, 4)) == 0
        loser_stones = draw(st.integers(0, target - 1))
        if ordago:
            won = draw(st.integers(0, target - 1))
            named = winner
        else:
            won = draw(st.integers(target, rules.max_game_stones))
            named = draw(st.sampled_from((winner, None)))
        stones = (won, loser_stones) if winner == 0 else (loser_stones, won)
        if not ordago and draw(st.integers(0, 5)) == 0:
            entries.append(GameEntry(None, winner))  # just who won it
            stones = (0, 0)
        else:
            entries.append(GameEntry(stones, named, ordago))
        results.append(GameResult(stones, winner, ordago, vaca=sum(vacas)))
        vaca_games[winner] += 1
        if vaca_games[winner] == rules.games_per_vaca:
            vacas[winner] += 1
            vaca_games = [0, 0]
        if vacas[winner] == rules.vacas_per_match:
            return entries, results, tuple(vaca_games), tuple(vacas), winner
    return entries, results, tuple(vaca_games), tuple(vacas), None


@CHEAP
@given(rules=rule_sets(games_per_vaca=(1, 4), vacas_per_match=(1, 3)), data=st.data())
def test_record_games_accepts_valid_games(rules, data):
    entries, results, vaca_games, vacas, winner = data.draw(game_lists(rules))
    state = record_games(rules, entries)
    assert state.games == tuple(results)
    assert (state.vaca_games, state.vacas, state.winner) == (vaca_games, vacas, winner)
    if winner is None:
        with pytest.raises(ScoringError) as raised:
            record_games(rules, entries, complete=True)
        assert raised.value.code == "match_not_finished"
    else:
        assert record_games(rules, entries, complete=True) == state
    as_json = [
        {
            k: v
            for k, v in (
                ("stones", None if e.stones is None else list(e.stones)),
                ("winner", None if e.winner is None else "AB"[e.winner]),
                ("ordago", e.ordago),
            )
            if v is not None
        }
        for e in entries
    ]
    match = run({"rules": rules.as_dict(), "games": as_json})["match"]
    assert match["vacas"] == {"A": vacas[0], "B": vacas[1]}
    assert match["winner"] == (None if winner is None else "AB"[winner])


@MATCH
@given(rules=rule_sets(stones=(10, 40)), seed=SEEDS, named=st.booleans())
def test_a_played_match_fed_back_as_games_gives_the_same_result(rules, seed, named):
    state, _ = play_random_match(rules, random.Random(seed), 0)
    entries = [
        GameEntry(g.stones, g.winner if named or g.ordago else None, g.ordago) for g in state.games
    ]
    quick = record_games(rules, entries, complete=True)
    assert quick.games == state.games
    assert (quick.vacas, quick.vaca_games, quick.winner) == (
        state.vacas,
        state.vaca_games,
        state.winner,
    )


# ---------------------------------------------------------------------------------------------
# 8. No input makes the engine raise anything but its own error

DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]
NO_PARES = {"pares": ["none"] * 4}

#: Inputs on which the engine once raised a bare exception (the type and message it raised):
#: each must now raise the engine's own error.
KNOWN_CRASHES = [
    pytest.param(
        {"hand": {"cards": DEAL, "bets": {"grande": [{"act": "paso", "pair": []}]}}},
        TypeError,
        "unhashable",
        id="action-object-pair-is-a-list",
    ),
    pytest.param(
        {"hand": {"declarations": {**NO_PARES, "winners": {"grande": ["mano"]}}}},
        TypeError,
        "unhashable",
        id="declared-winner-is-a-list",
    ),
    pytest.param(
        {"hand": {"cards": [["Ro", "Rc", "Cc", ["1b"]], *DEAL[1:]]}},
        TypeError,
        "unhashable",
        id="card-is-a-list",
    ),
    pytest.param(
        {"hand": {"cards": [["Ro", "Rc", "Cc", {"card": "1b"}], *DEAL[1:]]}},
        TypeError,
        "unhashable",
        id="card-is-an-object",
    ),
    pytest.param(
        {"hand": {"cards": DEAL, "bets": {"chica": 2}}},
        TypeError,
        "not iterable",
        id="bets-of-a-lance-a-number",
    ),
    pytest.param(
        {"hand": {"declarations": {**NO_PARES, "juego": ["³³", None, None, None]}}},
        ValueError,
        "invalid literal",
        id="juego-superscript-digits",
    ),
    pytest.param(
        {"hand": {"declarations": {**NO_PARES, "juego": ["3" * 5000, None, None, None]}}},
        ValueError,
        "Exceeds the limit",
        id="juego-5000-digits",
    ),
    pytest.param(
        {"hand": {"cards": DEAL, "bets": {"grande": ["envido " + "9" * 5000, "quiero"]}}},
        ValueError,
        "Exceeds the limit",
        id="envido-5000-digits",
    ),
]


@pytest.mark.parametrize(("request_", "kind", "fragment"), KNOWN_CRASHES)
def test_known_crash_inputs_raise_the_engines_error(request_, kind, fragment):
    with pytest.raises(ScoringError) as raised:
        run(request_)
    check_error(raised.value)


def check_error(error: ScoringError) -> None:
    assert isinstance(error.message, str) and error.message.strip()
    assert isinstance(error.code, str) and error.code
    as_dict = error.as_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["message"] == error.message
    check_spanish(error)


def only_scoring_errors(call) -> None:
    try:
        call()
    except ScoringError as error:
        check_error(error)


#: what ``mutated`` puts in place of a leaf; built once (a strategy is immutable).
_ANY_LEAF = json_values(6) | st.sampled_from(ODD_STRINGS)


@st.composite
def mutated(draw, value, depth: int = 0):
    """The value with one thing changed somewhere inside: a field dropped, replaced by any
    JSON value or an odd string, an entry duplicated or inserted."""
    if isinstance(value, dict) and value and depth < 6 and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(value)))
        new = dict(value)
        op = draw(st.sampled_from(("descend", "descend", "delete", "replace", "add")))
        if op == "descend":
            new[key] = draw(mutated(value[key], depth + 1))
        elif op == "delete":
            del new[key]
        elif op == "replace":
            new[key] = draw(json_values(6))
        else:
            new[draw(st.sampled_from(KNOWN_KEYS))] = draw(json_values(6))
        return new
    if isinstance(value, list) and value and depth < 6 and draw(st.integers(0, 3)):
        i = draw(st.integers(0, len(value) - 1))
        new = list(value)
        op = draw(st.sampled_from(("descend", "descend", "delete", "replace", "dup", "insert")))
        if op == "descend":
            new[i] = draw(mutated(value[i], depth + 1))
        elif op == "delete":
            del new[i]
        elif op == "replace":
            new[i] = draw(json_values(6))
        elif op == "dup":
            new.insert(i, value[i])
        else:
            new.insert(i, draw(st.sampled_from(ODD_STRINGS)))
        return new
    if isinstance(value, str) and draw(st.booleans()):
        chars = draw(st.text(max_size=3))
        cut = draw(st.integers(0, len(value)))
        return value[:cut] + chars + value[cut + draw(st.integers(0, 2)) :]
    return draw(_ANY_LEAF)


@st.composite
def valid_requests(draw) -> dict:
    rules, hand = draw(hands())
    kind = draw(st.sampled_from(("hand", "declared", "hands", "games")))
    request: dict = {"rules": rules.as_dict()}
    if kind == "hand":
        request["hand"] = hand.json
    elif kind == "declared":
        pick = lambda options: draw(st.sampled_from(options))  # noqa: E731
        request["hand"] = {
            "bets": hand.json["bets"],
            "declarations": honest_declarations(hand, pick, rules),
        }
    elif kind == "hands":
        more = [draw(hands(rules))[1].json for _ in range(draw(st.integers(0, 2)))]
        first = draw(st.sampled_from(("A1", "B1", "A2", "B2")))
        # the first mano decides which pair each hand's points go to, so it decides when the
        # match ends: replay with the same one
        state = MatchState.start(rules, ("A1", "B1", "A2", "B2").index(first))
        played = []
        for one in [hand.json, *more]:  # no hand after the match is decided
            if not state.finished:
                try:
                    state, _ = apply_hand(state, hand_from_json(one, rules))
                except EntryAfterEnd as error:  # a bet after a deje (or the tío Perete) won
                    # the game: no table plays that hand
                    assert error.code in ("bet_after_game_won", "bet_after_perete_won")
                    break
                played.append(one)
        assume(played)
        request["hands"] = played
        request["first_mano"] = first
    else:
        entries, *_, winner = draw(game_lists(rules))
        request["games"] = [
            {
                "stones": list(e.stones) if e.stones else None,
                "winner": None if e.winner is None else "AB"[e.winner],
                "ordago": e.ordago,
            }
            for e in entries
        ]
        request["complete"] = winner is not None and draw(st.booleans())
    return request


@CHEAP
@given(json_values(20))
def test_run_on_any_json_raises_only_the_engines_error(value):
    only_scoring_errors(lambda: run(value))
    only_scoring_errors(lambda: run({"hand": value}))
    only_scoring_errors(lambda: hand_from_json(value, RuleSet()))


@CHEAP
@given(data=st.data())
def test_run_on_mutated_requests_raises_only_the_engines_error(data):
    request = data.draw(valid_requests())
    for _ in range(data.draw(st.integers(1, 3))):
        request = data.draw(mutated(request))
    only_scoring_errors(lambda: run(request))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=hands(), data=st.data())
def test_hand_from_json_on_mutated_hands_raises_only_the_engines_error(case, data):
    rules, hand = case
    broken = data.draw(mutated(hand.json))

    def call():
        score_hand(rules, hand_from_json(broken, rules))

    only_scoring_errors(call)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_requests())
def test_valid_requests_are_answered(request_):
    """The fuzz tests start from valid requests: make sure they are valid."""
    answer = run(request_)
    assert json.loads(json.dumps(answer)) == answer


def _cli(stdin: bytes, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, **env},
    )


CLI_BAD = [
    pytest.param(b"", "FormatError", "json", id="empty"),
    pytest.param(b"{", "FormatError", "json", id="truncated"),
    pytest.param(b"[]", "FormatError", "not_object", id="a-list"),
    pytest.param(b'{"hand": {}}', "DeclarationError", "nothing_recorded", id="empty-hand"),
    pytest.param(
        json.dumps({"hand": {"cards": ["Ro Rc Cc 8b", *DEAL[1:]]}}).encode(),
        "CardError",
        "no_8_9",
        id="an-8",
    ),
    pytest.param(
        b'{"games": [{"stones": [40, 40]}]}', "GameEntryError", "both_at_target", id="both-at-40"
    ),
    pytest.param(b'{"rules": {"kings": 6}, "games": []}', "RuleSetError", "kings", id="kings-6"),
]


@pytest.mark.parametrize(("stdin", "error", "code"), CLI_BAD)
def test_cli_bad_input_exits_2_with_a_json_error(stdin, error, code):
    result = _cli(stdin)
    assert result.returncode == 2, result.stderr
    out = json.loads(result.stdout)
    assert (out["error"], out["code"]) == (error, code)
    assert out["message"]


@pytest.mark.parametrize(
    ("stdin", "env", "code"),
    [
        pytest.param(
            b"[" * 100_000 + b"]" * 100_000, {}, "json_unreadable", id="nested-100000-deep"
        ),
        pytest.param(
            b'{"hand": ' + b"1" * 5000 + b"}", {}, "json_unreadable", id="number-of-5000-digits"
        ),
        # a UTF-8 locale other than C.UTF-8 (es_ES.UTF-8, en_US.UTF-8) reads stdin strictly
        pytest.param(
            b"\xff\xfe{}",
            {"PYTHONIOENCODING": "utf-8:strict"},
            "json_encoding",
            id="not-utf8-strict",
        ),
    ],
)
def test_cli_unreadable_json_exits_2_with_a_json_error(stdin, env, code):
    result = _cli(stdin, **env)
    assert result.returncode == 2, result.stderr[-300:]
    assert json.loads(result.stdout)["code"] == code


def test_cli_good_input_exits_0():
    request = {"hand": {"cards": DEAL, "bets": {"grande": ["envido", "quiero"]}}}
    result = _cli(json.dumps(request).encode())
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == run(request)


# ---------------------------------------------------------------------------------------------
# 9. Bets: dejes, refused raises, accepted totals, órdago

# mano R-R-C-1 has the best grande; postre 1-1-4-5 the best chica.


@CHEAP
@given(
    rules=rule_sets(),
    opening=st.sampled_from(("envido", "envido n", "órdago")),
    extra=st.integers(0, 5),
    pasos=st.integers(0, 3),
)
def test_refused_first_envite_is_one_stone_with_dejes(rules, opening, extra, pasos):
    # 000 «Playing»: "If the first bid is not accepted, the bidder scores one point right away"
    bet = {"envido": "envido", "envido n": f"envido {rules.min_envite + extra}"}.get(
        opening, opening
    )
    result = score(
        rules, {"cards": DEAL, "bets": {"grande": ["paso"] * pasos + [bet, "no quiero"]}}
    )
    bettor = pasos % 2
    dejes = [e for e in as_tuples(result.events) if e[3] == "deje"]
    assert dejes == ([("grande", bettor, 1, "deje")] if rules.dejes else [])
    assert result.lances[0].side == bettor
    assert not [e for e in result.events if e.lance == "grande" and e.kind != "deje"]


@CHEAP
@given(
    rules=rule_sets(),
    opening=st.integers(0, 5),
    raises=st.lists(st.integers(1, 6), min_size=1, max_size=4),
    accept=st.booleans(),
)
def test_raises_refused_and_accepted(rules, opening, raises, accept):
    # 001 «Sistema de apuestas»: "En el caso de no querer, el equipo contrario se apuntará
    # tantas fichas como se estén jugando hasta ese momento"; accepted: "la cantidad apostada"
    assume(rules.dejes)
    bet = rules.min_envite + opening
    actions = [f"envido {bet}"]
    total = bet
    for by in raises:
        actions.append(f"{by} más")
        before, total = total, total + by
    actions.append("quiero" if accept else "no quiero")
    result = score(rules, {"cards": DEAL, "bets": {"grande": actions}})
    grande = [e for e in as_tuples(result.events) if e[0] == "grande"]
    if accept:
        assert grande == [("grande", 0, total, "envite")]  # mano has the best grande
    else:
        last = len(raises) % 2  # the pair that raised last
        assert grande == [("grande", last, before, "deje")]
        assert result.lances[0].side == last


def test_refused_raise_without_dejes_gives_nothing():
    # docs/rules.md: with dejes=false "a refused envite gives no stone; the lance still goes
    # to the pair that bet" (a choice of the project: no source plays "sin deje")
    rules = RuleSet(dejes=False)
    result = score(rules, {"cards": DEAL, "bets": {"grande": ["envido", "2 más", "no quiero"]}})
    assert [e for e in result.events if e.lance == "grande"] == []
    assert result.lances[0].side == 1


@MATCH
@given(
    rules=rule_sets(),
    mano=st.integers(0, 3),
    refuse_grande=st.booleans(),
    ordago_in=st.sampled_from(("chica", "pares", "juego")),
    data=st.data(),
)
def test_ordago_accepted_ends_the_game_with_only_the_earlier_dejes(
    rules, mano, refuse_grande, ordago_in, data
):
    """The envite accepted in grande is not counted; a refused raise there is (at once).

    001: "si el otro equipo acepta, el ganador habrá ganado directamente la partida"; 003:
    "without considering any other bids made before"; 004: the "non" is counted "sur-le-champ".
    """
    target = rules.stones_per_game
    deje = rules.min_envite if refuse_grande and rules.dejes else 0
    postre_team = (mano + 1) % 2
    a = data.draw(st.integers(0, target - 1 - (deje if postre_team == 0 else 0)), label="A")
    b = data.draw(st.integers(0, target - 1 - (deje if postre_team == 1 else 0)), label="B")
    grande = ["envido", "2 más", "no quiero"] if refuse_grande else ["envido", "quiero"]
    bets = {"grande": grande, ordago_in: ["órdago", "quiero"]}
    state = at((a, b), rules, mano)
    _, outcome = apply_hand(state, hand_from_json({"cards": DEAL, "bets": bets}, rules))
    # DEAL: chica to postre (1-1-4-5), pares to mano (par de reyes vs par de sotas...),
    # juego to mano (31)
    side = 1 if ordago_in == "chica" else 0
    team = (mano + side) % 2
    stones = [a, b]
    dejes = []
    if deje:  # postre raised last and mano refused: what was bet before the raise, to postre
        stones[postre_team] += deje
        dejes = [("grande", 1, deje, "deje")]
    assert as_tuples(outcome.applied) == [*dejes, (ordago_in, side, 0, "ordago")]
    assert outcome.game == GameResult(tuple(stones), team, ordago=True)


@pytest.mark.parametrize("pasos", [4, 5])
def test_a_named_bet_after_everybody_passed_is_refused(pasos):
    rules = RuleSet()
    bets = {"grande": ["paso"] * pasos + ["mano: envido", "quiero"]}
    with pytest.raises(ScoringError):
        score(rules, {"cards": DEAL, "bets": bets})
