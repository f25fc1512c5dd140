"""Every form of Mus: trios, individual and Mus francés, against the model of the rules in
tests/scoring/forms_model.py, worked examples from the sources, and every error.

Sources by id: 001 (Spanish page, «Mus francés»), 002/004 (Fournier rules: «individually between
two or more players, up to six, or between four or six, forming two sides of two and three»).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import (
    BettingError,
    CardError,
    DeclarationError,
    EntryAfterEnd,
    Form,
    FormatError,
    MatchState,
    RuleSet,
    RuleSetError,
    ScoringError,
    apply_hand,
    hand_from_json,
    play_match,
    run,
    score_hand,
    score_table,
)
from scoring.match import playing
from tests.scoring import forms_model as model
from tests.scoring.spanish import check_spanish
from tests.scoring.test_properties import mutated, only_scoring_errors

pytestmark = pytest.mark.usefixtures("engine_path")

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _events(score) -> list[tuple]:
    return [(e.lance, e.side, e.stones, e.kind) for e in score.events]


# ---------------------------------------------------------------------------------------------
# Properties against the model


@SETTINGS
@given(model.table_hands(Form.TRIOS))
def test_trios_score_what_the_rules_count(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    events, ordago = model.classic_events(rules, hand)
    assert _events(score) == events
    got = (score.ordago.lance, score.ordago.side) if score.ordago else None
    assert got == ordago


@SETTINGS
@given(model.table_hands(Form.INDIVIDUAL))
def test_individual_scores_what_the_rules_count(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    events, ordago = model.classic_events(rules, hand)
    assert _events(score) == events
    got = (score.ordago.lance, score.ordago.side) if score.ordago else None
    assert got == ordago
    assert len(score.stones) == rules.players


@SETTINGS
@given(model.table_hands(Form.FRANCES))
def test_frances_moves_the_chips_the_rules_move(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    chips, ordago = model.frances_chips(rules, hand)
    assert list(score.chips) == chips
    if ordago is None:
        assert score.ordago is None
    else:
        lance = next(x for x in score.lances if x.outcome.value == "ordago")
        assert (score.ordago.side, lance.taker) == ordago


@SETTINGS
@given(model.table_hands(Form.PAIRS))
def test_the_generic_path_scores_pairs_as_the_four_seat_path(case):
    """One code path for every form: the path built for four seats is only faster."""
    rules, hand = case
    record = hand_from_json(hand.json, rules)
    fast = score_hand(rules, record)
    generic = score_table(rules, record)
    assert _events(generic) == _events(fast)
    assert generic.ordago == fast.ordago
    assert [(x.lance, x.outcome, x.side) for x in generic.lances] == [
        (x.lance, x.outcome, x.side) for x in fast.lances
    ]
    assert _events(fast) == model.classic_events(rules, hand)[0]


@SETTINGS
@given(st.sampled_from([Form.TRIOS, Form.INDIVIDUAL]), st.data())
def test_declarations_score_like_the_cards(form, data):
    """A hand entered without cards, from what honest players declare and the winners of the
    lances, scores as the cards do; with the cards too, they agree."""
    rules, hand = data.draw(model.table_hands(form))
    by_cards = score_hand(rules, hand_from_json(hand.json, rules))
    declarations = model.declared(rules, hand)
    bets = hand.json["bets"]
    words = {"declarations": declarations, "bets": bets}
    by_words = score_hand(rules, hand_from_json(words, rules))
    both = score_hand(rules, hand_from_json({**hand.json, "declarations": declarations}, rules))
    assert _events(by_words) == _events(by_cards) == _events(both)
    assert by_words.ordago == by_cards.ordago


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(
        [(Form.TRIOS, 6), (Form.INDIVIDUAL, 2), (Form.INDIVIDUAL, 3), (Form.INDIVIDUAL, 5)]
    ),
    st.integers(0, 2**32),
)
def test_games_end_when_the_first_side_reaches_the_target(form_seats, seed):
    form, seats = form_seats
    rnd = random.Random(seed)
    rules = model.form_rules(form, seats, rnd)
    state = MatchState.start(rules, rnd.randrange(seats))
    stones = [0] * rules.sides
    for _ in range(300):
        if state.finished:
            break
        hand = model.random_table_hand(rnd, rules)
        mano = state.mano
        try:
            state, outcome = apply_hand(state, hand_from_json(hand.json, rules))
        except EntryAfterEnd as error:  # a bet after a deje had won the game: draw another
            assert error.code == "bet_after_game_won"
            continue
        events, ordago = model.classic_events(rules, hand)
        winner = None
        for _lance, side, amount, _kind in events:
            team = (mano + side) % rules.sides
            stones[team] += amount
            if stones[team] >= rules.stones_per_game:
                winner = team
                break
        if winner is None and ordago is not None:
            winner = (mano + ordago[1]) % rules.sides
        if winner is None:
            assert outcome.game is None
            assert state.stones == tuple(stones)
            assert state.mano == (mano + 1) % seats
        else:
            assert outcome.game.winner == winner
            assert outcome.game.stones == tuple(stones)
            stones = [0] * rules.sides
            assert state.stones == tuple(stones)
    assert state.finished
    assert sum(state.vacas) == 1 and len(state.vacas) == rules.sides


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(3, 6), st.integers(0, 2**32))
def test_frances_table_plays_until_one_player_has_chips(seats, seed):
    rnd = random.Random(seed)
    rules = model.form_rules(Form.FRANCES, seats, rnd)
    state = MatchState.start(rules, rnd.randrange(seats))
    hands = 0
    while not state.finished and hands < 2000:
        hands += 1
        still = playing(state)
        hand = model.random_table_hand(rnd, rules, len(still))
        before = state.stones
        state, outcome = apply_hand(state, hand_from_json(hand.json, rules, len(still)))
        assert all(c >= 0 for c in state.stones)  # nobody pays chips they do not hold
        assert sum(state.stones) <= sum(before)  # chips only leave for the centre
        for position in range(seats):
            if position not in still:
                assert state.stones[position] == before[position] == 0
        if hands > 1500:  # a table that never gets rid of chips: bets only
            break
    if state.finished:
        assert sorted(state.out) == list(range(seats))
        assert state.winner == state.out[0]
        assert [state.stones[p] for p in state.out[:-1]] == [0] * (seats - 1)
        assert state.standings == state.out
    with_zero = [p for p in range(seats) if state.stones[p] == 0]
    assert set(with_zero) - set(state.out) <= set(state.out[-1:])


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([Form.TRIOS, Form.INDIVIDUAL, Form.FRANCES]), st.data())
def test_any_broken_request_of_any_form_raises_only_the_engines_error(form, data):
    """Bad input in any form is refused with the engine's error (a clear 400 through the
    service), never another exception."""
    rules, hand = data.draw(model.table_hands(form))
    request = data.draw(
        st.sampled_from(
            [
                {"rules": rules.as_dict(), "hand": hand.json},
                {"rules": rules.as_dict(), "hands": [hand.json, hand.json]},
            ]
        )
    )
    for _ in range(data.draw(st.integers(1, 3))):
        request = data.draw(mutated(request))
    only_scoring_errors(lambda: run(request))


# ---------------------------------------------------------------------------------------------
# Worked examples


def _rules(form: str, players: int, **options) -> RuleSet:
    return RuleSet.from_dict({"form": form, "players": players, **options})


def test_trios_pay_the_juego_bonus_of_every_player_of_the_side():
    """Issue 8, from 001 «Estos puntos son acumulables»: 31, 40 and 37 on one side are 3+2+2."""
    rules = _rules("trios", 6)
    answer = run(
        {
            "rules": rules.as_dict(),
            "hand": {
                "cards": [
                    "Ro Rc Co So",
                    "1o 1c 4o 5o",
                    "7o 7c 7e Sc",
                    "6o 6c 5c 4c",
                    "Re Ce Se 7b",
                    "1e 2e 4e 5e",
                ],
                "bets": {"grande": ["envido", "quiero"]},
            },
        }
    )["hand"]
    assert answer["stones"] == {"mano": 12, "postre": 1}
    assert {"lance": "juego", "side": "mano", "stones": 7, "kind": "bonus"} in answer["events"]


def test_trios_answer_side_against_side():
    """A trios envite is answered by the other side, as in pairs (002/004)."""
    rules = _rules("trios", 6)
    hand = {
        "cards": [
            "Ro Rc Co So",
            "1o 1c 4o 5o",
            "7o 7c 7e Sc",
            "6o 6c 5c 4c",
            "Re Ce Se 7b",
            "1e 2e 4e 5e",
        ],
        "bets": {"chica": ["paso", "paso", "envido", "2 más", "no quiero"]},
    }
    score = score_hand(rules, hand_from_json(hand, rules))
    assert _events(score)[0] == ("chica", 1, 2, "deje")  # seat 2 bet (mano's side), 3 raised


def test_trios_pares_are_bet_only_when_both_sides_hold_them():
    """Only mano's side holds pares (seats 0 and 2): nobody may bet them, and that side scores
    par + medias at the count."""
    rules = _rules("trios", 6)
    cards = [
        "Ro Rc Co So",
        "1o 4o 5o 6o",
        "7o 7c 7e Sc",
        "6c 5c 4c 1c",
        "Re Ce Se 7b",
        "1e 4e 5e 6e",
    ]
    with pytest.raises(BettingError) as error:
        score_hand(rules, hand_from_json({"cards": cards, "bets": {"pares": ["envido"]}}, rules))
    assert error.value.code == "lance_not_played"
    score = score_hand(rules, hand_from_json({"cards": cards}, rules))
    assert ("pares", 0, 3, "bonus") in _events(score)


def test_individual_declarations_name_the_winner_by_seat():
    rules = _rules("individual", 4)
    hand = {
        "declarations": {
            "pares": ["none", "par", "none", "none"],
            "juego": [None, None, None, None],
            "punto": [20, 25, 30, 29],
            "winners": {"grande": "postre", "chica": 1},
        },
    }
    score = score_hand(rules, hand_from_json(hand, rules))
    assert _events(score) == [
        ("grande", 3, 1, "paso"),
        ("chica", 1, 1, "paso"),
        ("pares", 1, 1, "bonus"),
        ("punto", 2, 1, "bonus"),  # the third's 30 is the best punto
    ]


def test_individual_a_bet_accepted_by_two_goes_to_the_best_of_the_three():
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["paso", "envido", "quiero", "quiero"]},
    }
    score = score_hand(rules, hand_from_json(hand, rules))
    assert ("grande", 0, 2, "envite") in _events(score)
    assert score.lances[0].players == (0, 1, 2)


def test_individual_a_player_who_refuses_gives_the_lance_up():
    """001: «si una pareja no ha querido un envite … esa fase ya la han perdido»."""
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"],
        # mano passes, the second bets, the third accepts, then mano (asked last) refuses
        "bets": {"grande": ["paso", "envido", "quiero", "no quiero"]},
    }
    score = score_hand(rules, hand_from_json(hand, rules))
    assert ("grande", 1, 2, "envite") in _events(score)  # R-R-5-4 over the sietes; mano is out
    assert score.lances[0].players == (1, 2)


def test_individual_refused_by_all_gives_the_deje_to_the_bettor():
    rules = _rules("individual", 4)
    hand = {
        "cards": ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc", "6o 6c 5c 4c"],
        "bets": {"grande": ["envido", "3 más", "no quiero", "no quiero", "no quiero"]},
    }
    score = score_hand(rules, hand_from_json(hand, rules))
    assert _events(score)[0] == ("grande", 1, 2, "deje")  # what was bet before the raise


def test_frances_three_players_in_one_bet_put_six_chips_in_play():
    """001 «Mus francés»: «si un jugador envida y otro quiere se jugarán 4 fichas (dos cada
    uno), si otro jugador quiere entrar serán 6 fichas … Se llevará las fichas apostadas el
    jugador con la peor mano»."""
    rules = _rules("frances", 3, chips=10)
    hand = {
        "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["envido", "quiero", "quiero"]},
    }
    answer = run({"rules": rules.as_dict(), "hands": [hand]})
    grande = answer["hands"][0]["score"]["lances"][0]
    assert grande["taker"] == 1  # the worst grande of the three
    chips = answer["match"]["chips"]
    # P2 takes the 6 chips (2 were its own), then puts 1 in the centre for the chica en paso
    assert chips["P2"] == 10 + 4 - 1
    assert chips["P1"] == 10 - 2
    assert answer["hands"][0]["score"]["chips"][0] == -2


def test_frances_the_first_out_of_chips_wins_and_the_table_plays_on():
    rules = _rules("frances", 3, chips=10)
    state = MatchState.start(rules)
    state = dataclasses.replace(state, stones=(3, 10, 10))
    hand = {
        "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["envido 4", "quiero", "no quiero"]},
    }
    state, outcome = apply_hand(state, hand_from_json(hand, rules))
    assert state.out == (0,)  # P1 had 3 and had to pay 4: out with no chips, the winner so far
    # P2 takes only the 3 P1 had, then puts 1 in the centre for the chica en paso
    assert state.stones[0] == 0 and state.stones[1] == 10 + 3 - 1
    assert not state.finished
    with pytest.raises(EntryAfterEnd) as error:
        apply_hand(state, hand_from_json(hand, rules))
    assert error.value.code == "player_out"
    assert "P1" in error.value.message


# ---------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"form": "trios", "players": 4}, "players_fixed"),
        ({"form": "pairs", "players": 6}, "players_fixed"),
        ({"form": "individual", "players": 7}, "players_range"),
        ({"form": "individual", "players": 1}, "players_range"),
        ({"form": "frances", "players": 2}, "players_range"),
        ({"form": "frances", "chips": 15}, "chips"),
        ({"form": "frances", "chips": -1}, "chips"),
        ({"form": "tute"}, "form"),
        ({"form": "trios", "real_31": "sota_apart"}, "real_31_form"),
    ],
)
def test_a_table_that_does_not_fit_the_form_is_refused(options, code):
    with pytest.raises(RuleSetError) as error:
        RuleSet.from_dict(options)
    assert error.value.code == code


@pytest.mark.parametrize("form", ["trios", "individual", "frances"])
def test_the_tio_perete_is_refused_where_no_pair_scores_it(form):
    # 000 «Named hands»: a point for the player who shows 4-5-6-7, counted for a pair; the
    # other forms count no such stone, so the option would be taken and mean nothing
    with pytest.raises(RuleSetError) as error:
        RuleSet.from_dict({"form": form, "tio_perete": True})
    assert error.value.code == "tio_perete_form"
    assert error.value.message.startswith("The tío Perete (tio_perete) is counted only between")
    check_spanish(error.value)
    assert RuleSet.from_dict({"form": form, "tio_perete": False}).tio_perete is False
    assert RuleSet.from_dict({"tio_perete": True}).tio_perete is True  # pairs


@pytest.mark.parametrize("form", ["pairs", "trios", "individual"])
@pytest.mark.parametrize("chips", [10, 20])
def test_chips_are_refused_where_nobody_counts_chips(form, chips):
    # 001 «Mus francés»: «cada jugador empezará con 10 o 20 fichas»; no other form has chips
    with pytest.raises(RuleSetError) as error:
        RuleSet.from_dict({"form": form, "chips": chips})
    assert error.value.code == "chips_form"
    assert error.value.params["value"] == chips
    check_spanish(error.value)
    assert "chips" not in RuleSet.from_dict({"form": form}).as_dict()
    frances = RuleSet.from_dict({"form": "frances", "chips": chips})
    assert frances.chips == chips and frances.as_dict()["chips"] == chips
    assert RuleSet.from_dict(frances.as_dict()) == frances
    assert RuleSet(form=Form.FRANCES).chips == 20  # the form's usual


def test_a_tio_perete_declared_in_another_form_is_refused():
    rules = {"form": "individual", "players": 4}
    declarations = {
        "pares": ["none"] * 4,
        "juego": ["none"] * 4,
        "punto": [20, 21, 22, 23],
        "winners": {"grande": 0, "chica": 1},
        "perete": [1],
    }
    with pytest.raises(ScoringError) as error:
        run({"rules": rules, "hand": {"declarations": declarations}})
    assert error.value.code == "perete_form"
    check_spanish(error.value)


def test_the_seat_count_must_fit_the_form():
    rules = _rules("trios", 6)
    with pytest.raises(CardError) as error:
        hand_from_json({"cards": ["Ro Rc Co So"] * 1 + ["1o 1c 4o 5o"]}, rules)
    assert error.value.code == "hands_count"
    assert error.value.params["count"] == 6


def test_individual_bets_name_no_pair():
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["postre: envido", "quiero", "quiero"]},
    }
    with pytest.raises(BettingError) as error:
        score_hand(rules, hand_from_json(hand, rules))
    assert error.value.code == "pair_in_individual"


def test_a_lance_held_by_one_player_is_not_bet_in_individual():
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "1o 4c 5o 6b", "7o 6c 5e Sc"],
        "bets": {"pares": ["envido", "quiero"]},
    }
    with pytest.raises(BettingError) as error:
        score_hand(rules, hand_from_json(hand, rules))
    assert error.value.code == "lance_one_player"


def test_an_answer_after_everybody_answered_is_refused():
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["envido", "quiero", "quiero", "quiero"]},
    }
    with pytest.raises(BettingError) as error:
        score_hand(rules, hand_from_json(hand, rules))
    assert error.value.code == "action_after_end"


def test_frances_without_cards_needs_the_winners_as_the_other_forms():
    """Mus francés is entered with declarations too (tests/scoring/test_frances_declared.py)."""
    rules = _rules("frances", 3)
    with pytest.raises(DeclarationError) as error:
        score_hand(rules, hand_from_json({"declarations": {"pares": ["none"] * 3}}, rules))
    assert error.value.code == "winner_missing"


def test_a_declared_winner_who_was_not_in_the_bet_is_refused():
    rules = _rules("individual", 3)
    hand = {
        "declarations": {
            "pares": ["none"] * 3,
            "juego": [None] * 3,
            "punto": [20, 25, 30],
            "winners": {"grande": 1, "chica": 0},
        },
        "bets": {"grande": ["envido", "no quiero", "quiero"]},
    }
    with pytest.raises(DeclarationError) as error:
        score_hand(rules, hand_from_json(hand, rules))
    assert error.value.code == "winner_not_in_lance"


def test_games_as_final_stones_are_for_pairs():
    with pytest.raises(FormatError) as error:
        run({"rules": {"form": "individual", "players": 3}, "games": []})
    assert error.value.code == "games_form"


def test_a_hand_after_the_frances_table_is_over_is_refused():
    rules = _rules("frances", 3, chips=10)
    rnd = random.Random(3)
    state = MatchState.start(rules)
    while not state.finished:
        hand = model.random_table_hand(rnd, rules, len(playing(state)))
        state, _ = apply_hand(state, hand_from_json(hand.json, rules, len(playing(state))))
    with pytest.raises(EntryAfterEnd) as error:
        apply_hand(state, hand_from_json(hand.json, rules, len(hand.json["cards"])))
    assert error.value.code == "match_over_table"


def test_pairs_rule_sets_keep_their_stored_form():
    assert RuleSet().as_dict() == RuleSet(form=Form.PAIRS, players=4).as_dict()
    assert "form" not in RuleSet().as_dict()
    rules = _rules("trios", 6)
    assert RuleSet.from_dict(rules.as_dict()) == rules


def test_play_match_works_for_every_form():
    rnd = random.Random(5)
    for form, seats in ((Form.TRIOS, 6), (Form.INDIVIDUAL, 4)):
        rules = RuleSet(form=form, players=seats, stones_per_game=100)
        records = [
            hand_from_json(
                model.make_table_hand(
                    lambda options: options[rnd.randrange(len(options))],
                    rules,
                    model.deal(rnd, seats),
                    ordago=False,
                ).json,
                rules,
            )
            for _ in range(3)
        ]
        state, outcomes = play_match(rules, records, first_mano=seats - 1)
        assert len(outcomes) == 3
        assert state.mano == (seats - 1 + 3) % seats
        assert [o.mano for o in outcomes] == [(seats - 1 + k) % seats for k in range(3)]


def test_every_player_asked_must_answer_in_individual():
    rules = _rules("individual", 3)
    hand = {
        "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
        "bets": {"grande": ["envido", "quiero"]},  # the third never answered
    }
    with pytest.raises(BettingError) as error:
        score_hand(rules, hand_from_json(hand, rules))
    assert error.value.code == "bet_not_answered_by_all"
    assert error.value.params["count"] == 1


def test_a_frances_table_resumes_from_its_chips():
    answer = run(
        {
            "rules": {"form": "frances", "players": 3, "chips": 10},
            "chips": {"P1": 2, "P2": 10, "P3": 6},
            "hands": [
                {
                    "cards": ["Ro Rc Co So", "1o 1c 4o 5o", "7o 7c 7e Sc"],
                    "bets": {"grande": ["envido", "quiero", "no quiero"]},
                }
            ],
        }
    )
    # P1 pays its 2 to P2 (the worse grande of the two in the bet) and is out first
    assert answer["match"]["out"] == ["P1"]
    assert answer["match"]["chips"]["P1"] == 0


@pytest.mark.parametrize(
    ("chips", "code"),
    [
        ({"P1": -1, "P2": 10, "P3": 10}, "chips_below_zero"),
        ({"P1": 0, "P2": 10, "P3": 10}, "chips_zero"),
        ({"P1": 10, "P2": 10, "P3": 11}, "chips_above_start"),
        ({"P1": 1.5, "P2": 10, "P3": 10}, "chips_value"),
        ([1, 2], "chips_count"),
        ({"P1": 1, "P2": 1, "P3": 1, "P4": 1}, "unknown_field"),
    ],
)
def test_a_chip_count_that_cannot_be_is_refused(chips, code):
    request = {"rules": {"form": "frances", "players": 3, "chips": 10}, "chips": chips}
    with pytest.raises((FormatError, ScoringError)) as error:
        run({**request, "hands": []})
    assert error.value.code == code


def test_chips_are_not_a_field_of_other_forms():
    with pytest.raises(FormatError) as error:
        run({"rules": {"form": "individual", "players": 3}, "chips": [1, 2, 3], "hands": []})
    assert error.value.code == "unknown_field"
