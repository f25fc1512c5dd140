"""Every error the rules engine raises: its class, its code, and a message naming what is wrong.

Plain Python, no database: the engine on its own. An error a player or organizer can act on is
a ``ScoringError`` subclass with a stable ``code`` and a message that names the lance, the card
or the number at fault (scoring/errors.py). Each case below triggers one error through the
public API (mostly the JSON form a table submits) and checks the three, and that the same
error reads in Spanish from the engine's own catalog (tests/scoring/spanish.py).
"""

from __future__ import annotations

import io
import json

import pytest

from scoring import (
    BettingError,
    CardError,
    DeclarationError,
    Declarations,
    EntryAfterEnd,
    FormatError,
    GameEntry,
    GameEntryError,
    HandRecord,
    MatchState,
    RuleSet,
    RuleSetError,
    ScoringError,
    apply_hand,
    hand_from_json,
    parse_card,
    parse_hand,
    play_match,
    record_games,
    run,
    score_hand,
)
from scoring.__main__ import main
from tests.scoring.spanish import check_spanish

# every test here runs with the C speed-up and in plain Python (tests/scoring/conftest.py)
pytestmark = pytest.mark.usefixtures("engine_path")

EIGHT = RuleSet()
# Seat order from mano. mano R-R-C-1: best grande, par de reyes, 31; second S-S-7-6: par de
# sotas, 33; third C-C-5-4: par de caballos, 29; postre 1-1-4-5: best chica, par de ases, 11.
DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]
# Only mano has pares (par de reyes) and juego (33); nobody else has either.
ONLY_MANO = ["Ro Rc 7e 6b", "So Ce 5o 4c", "Co 7o 6o 5e", "1o 4e 6c 7b"]
# Nobody has juego: punto is played.
NO_JUEGO = ["4o 5o 6o 7o", "4c 5c 6c 7c", "1o 2o 3o 4e", "1c 2c 5e 6e"]
NO_PARES = ["none"] * 4
# A played hand that ends a one-game match: mano's pair accepts an órdago in grande and wins it.
WINNING_HAND = {"cards": DEAL, "bets": {"grande": ["órdago", "quiero"]}}
ONE_GAME = RuleSet(games_per_vaca=1)


def score(hand: dict, rules: RuleSet = EIGHT):
    return score_hand(rules, hand_from_json(hand, rules))


def grande(*actions: str, cards=DEAL, rules: RuleSet = EIGHT):
    return score({"cards": cards, "bets": {"grande": list(actions)}}, rules)


def declared(**decl):
    return score({"declarations": decl})


def check(error: ScoringError, cls: type, code: str | None, *names: str) -> None:
    """The class, the code (None: any, for an error the engine does not raise yet), and the
    words the message must contain."""
    assert type(error) is cls, f"{type(error).__name__}: {error}"
    if code is not None:
        assert error.code == code
    assert error.message and str(error) == error.message
    for name in names:
        assert name in error.message, f"{name!r} not in {error.message!r}"
    assert json.loads(json.dumps(error.as_dict()))["code"] == error.code
    check_spanish(error, own_words=True)


def raises(call, cls: type, code: str | None, *names: str) -> ScoringError:
    with pytest.raises(ScoringError) as raised:
        call()
    check(raised.value, cls, code, *names)
    return raised.value


def case(id_: str, call, cls: type, code: str, *names: str):
    return pytest.param(call, cls, code, names, id=id_)


def run_case(call, cls, code, names):
    raises(call, cls, code, *names)


# ---------------------------------------------------------------------------------------------
# Cards

CARDS = [
    case("unknown-card", lambda: parse_card("Rx"), CardError, "unknown_card", "'Rx'"),
    case(
        "unknown-suit-word",
        lambda: parse_card("rey de copes"),
        CardError,
        "unknown_card",
        "rey de copes",
    ),
    case("empty-card", lambda: parse_card(""), CardError, "unknown_card", "''"),
    case("an-8", lambda: parse_card("8o"), CardError, "no_8_9", "'8o'", "8s and 9s"),
    case("a-9-long", lambda: parse_card("9 copas"), CardError, "no_8_9", "9 copas"),
    case("card-not-text", lambda: parse_card(7), CardError, "card_format", "7"),
    case("hand-of-3", lambda: parse_hand("Ro Rc 7e"), CardError, "hand_size", "3"),
    case(
        "hand-of-5", lambda: parse_hand(["Ro", "Rc", "7e", "1b", "2o"]), CardError, "hand_size", "5"
    ),
    case("hand-not-text", lambda: parse_hand(12), CardError, "hand_format"),
    case(
        "hand-of-3-in-a-deal",
        lambda: score({"cards": [DEAL[0], "So Sc 7e", *DEAL[2:]]}),
        CardError,
        "hand_size",
        "3",
        "second",
    ),
    case(
        "hand-of-5-in-a-deal",
        lambda: score({"cards": [*DEAL[:3], "1o 1c 4e 5b 6o"]}),
        CardError,
        "hand_size",
        "5",
        "postre",
    ),
    case(
        "duplicate-within-a-hand",
        lambda: score({"cards": ["Ro Ro Cc 1b", *DEAL[1:]]}),
        CardError,
        "card_twice_in_hand",
        "Ro",
        "rey de oros",
        "mano",
    ),
    case(
        "duplicate-within-a-hand-long-names",
        lambda: score({"cards": [["rey-oros", "Ro", "Cc", "1b"], *DEAL[1:]]}),
        CardError,
        "card_twice_in_hand",
        "Ro",
        "mano",
    ),
    case(
        "duplicate-across-hands",
        lambda: score({"cards": [*DEAL[:3], "1o 1c 4e Ro"]}),
        CardError,
        "duplicate_card",
        "Ro",
        "rey de oros",
        "two players",
    ),
    case(
        "duplicate-across-hands-lists",
        lambda: score({"cards": [DEAL[0].split(), "So Sc 7e 1b", *DEAL[2:]]}),
        CardError,
        "duplicate_card",
        "1b",
    ),
    case("three-hands", lambda: score({"cards": DEAL[:3]}), CardError, "four_hands"),
    case("cards-not-a-list", lambda: score({"cards": "Ro Rc Cc 1b"}), CardError, "four_hands"),
    case(
        "unknown-card-in-a-deal",
        lambda: score({"cards": [DEAL[0], "So Sc 7e 8b", *DEAL[2:]]}),
        CardError,
        "no_8_9",
        "8b",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), CARDS)
def test_card_errors(call, cls, code, names):
    run_case(call, cls, code, names)


# ---------------------------------------------------------------------------------------------
# Declarations (a hand entered without cards, or with both)

DECLARATIONS = [
    case(
        "juego-38",
        lambda: declared(pares=NO_PARES, juego=[38, None, None, None]),
        DeclarationError,
        "juego_no_8_9",
        "38",
        "mano",
    ),
    case(
        "juego-39-as-text",
        lambda: declared(pares=NO_PARES, juego=[None, None, "39", None]),
        DeclarationError,
        "juego_no_8_9",
        "39",
        "third",
    ),
    case(
        "juego-25-is-punto",
        lambda: declared(pares=NO_PARES, juego=[None, 25, None, None]),
        DeclarationError,
        "juego_is_punto",
        "25",
        "punto",
    ),
    case(
        "juego-50",
        lambda: declared(pares=NO_PARES, juego=[None, None, None, 50]),
        DeclarationError,
        "juego_value",
        "50",
        "postre",
    ),
    case(
        "punto-with-juego",
        lambda: declared(pares=NO_PARES, juego=[31, None, None, None], punto=[20, 20, 20, 20]),
        DeclarationError,
        "punto_with_juego",
        "juego",
    ),
    case(
        "punto-31",
        lambda: declared(pares=NO_PARES, punto=[31, 20, 20, 20], winners={"grande": "mano"}),
        DeclarationError,
        "punto_value",
        "31",
        "mano",
    ),
    case(
        "punto-3",
        lambda: declared(pares=NO_PARES, punto=[20, 20, 3, 20]),
        DeclarationError,
        "punto_value",
        "3",
        "third",
    ),
    case(
        "pares-value",
        lambda: score_hand(
            EIGHT, HandRecord(declarations=Declarations((5, 0, 0, 0), (0, 0, 0, 0)))
        ),
        DeclarationError,
        "pares_value",
        "mano",
    ),
    case(
        "winner-of-no-lance",
        lambda: declared(pares=NO_PARES, winners={"mus": "mano"}),
        DeclarationError,
        "winner_format",
        "'mus'",
    ),
    case(
        "winner-missing-grande",
        lambda: declared(pares=NO_PARES, punto=[20] * 4, winners={"chica": "mano"}),
        DeclarationError,
        "winner_missing",
        "grande",
    ),
    case(
        "winner-missing-juego-other",
        lambda: declared(
            pares=NO_PARES,
            juego=["other", "other", None, None],
            winners={"grande": "mano", "chica": "mano"},
        ),
        DeclarationError,
        "winner_missing",
        "juego",
    ),
    case(
        "pares-winner-contradicts-kinds",
        lambda: declared(
            pares=["duples", "par", "none", "none"],
            juego=[None] * 4,
            punto=[20] * 4,
            winners={"grande": "mano", "chica": "mano", "pares": "postre"},
        ),
        DeclarationError,
        "winner_contradicts",
        "pares",
        "duples",
    ),
    case(
        "juego-winner-contradicts-values",
        lambda: declared(
            pares=NO_PARES,
            juego=[31, 33, None, None],
            winners={"grande": "mano", "chica": "mano", "juego": "postre"},
        ),
        DeclarationError,
        "winner_contradicts",
        "juego",
    ),
    case(
        "punto-winner-contradicts-values",
        lambda: declared(
            pares=NO_PARES,
            punto=[20, 30, 20, 20],
            winners={"grande": "mano", "chica": "mano", "punto": "mano"},
        ),
        DeclarationError,
        "winner_contradicts",
        "punto",
        "30",
    ),
    case(
        "winner-contradicts-cards",
        lambda: score(
            {
                "cards": DEAL,
                "declarations": {
                    "pares": ["par"] * 4,
                    "juego": [31, 33, None, None],
                    "winners": {"grande": "postre"},
                },
            }
        ),
        DeclarationError,
        "winner_contradicts_cards",
        "grande",
        "postre",
    ),
    case(
        "pares-contradict-cards",
        lambda: score(
            {
                "cards": DEAL,
                "declarations": {
                    "pares": ["none", "par", "par", "par"],
                    "juego": [31, 33, None, None],
                },
            }
        ),
        DeclarationError,
        "pares_contradicts_cards",
        "mano",
        "par de reyes",
    ),
    case(
        "juego-contradicts-cards",
        lambda: score(
            {"cards": DEAL, "declarations": {"pares": ["par"] * 4, "juego": [40, 33, None, None]}}
        ),
        DeclarationError,
        "juego_contradicts_cards",
        "mano",
        "40",
        "31",
    ),
    case(
        "juego-other-for-a-31",
        lambda: score(
            {
                "cards": DEAL,
                "declarations": {"pares": ["par"] * 4, "juego": ["other", 33, None, None]},
            }
        ),
        DeclarationError,
        "juego_contradicts_cards",
        "mano",
        "31",
    ),
    case("nothing-recorded", lambda: score({}), DeclarationError, "nothing_recorded"),
    case(
        "nothing-recorded-bets-only",
        lambda: score({"bets": {"grande": ["paso"]}}),
        DeclarationError,
        "nothing_recorded",
        "cards",
    ),
    case(
        "bet-after-ordago",
        lambda: score(
            {"cards": DEAL, "bets": {"grande": ["órdago", "quiero"], "chica": ["envido", "quiero"]}}
        ),
        DeclarationError,
        "bet_after_ordago",
        "chica",
        "grande",
    ),
    case(
        "bet-in-punto-after-ordago",
        lambda: score(
            {
                "cards": NO_JUEGO,
                "bets": {"chica": ["órdago", "quiero"], "punto": ["envido", "no quiero"]},
            }
        ),
        DeclarationError,
        "bet_after_ordago",
        "punto",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), DECLARATIONS)
def test_declaration_errors(call, cls, code, names):
    run_case(call, cls, code, names)


@pytest.mark.parametrize(
    ("decl", "code", "lance"),
    [
        pytest.param(
            {
                "pares": ["par", "none", "none", "none"],
                "punto": [20] * 4,
                "winners": {"grande": "mano", "chica": "mano", "pares": "postre"},
            },
            "winner_not_held",
            "pares",
            id="pares-claimed-by-postre",
        ),
        pytest.param(
            {
                "pares": NO_PARES,
                "juego": [33, None, None, None],
                "winners": {"grande": "mano", "chica": "mano", "juego": "postre"},
            },
            "winner_not_held",
            "juego",
            id="juego-claimed-by-postre",
        ),
        pytest.param(
            {
                "pares": NO_PARES,
                "punto": [20] * 4,
                "winners": {"grande": "mano", "chica": "mano", "pares": "mano"},
            },
            "winner_nobody_has",
            "pares",
            id="pares-claimed-when-nobody-has-them",
        ),
        pytest.param(
            {
                "pares": ["par", "none", "none", "none"],
                "juego": [33, None, None, None],
                "winners": {"pares": "postre"},
                "cards": ONLY_MANO,
            },
            None,
            "pares",
            id="pares-claimed-by-postre-with-the-cards",
        ),
    ],
)
def test_a_lance_claimed_by_a_pair_without_it(decl, code, lance):
    decl = dict(decl)
    cards = decl.pop("cards", None)
    hand = {"declarations": decl} if cards is None else {"declarations": decl, "cards": cards}
    raises(lambda: score(hand), DeclarationError, code, lance)


def test_declared_punto_contradicting_the_cards():
    # NO_JUEGO: the four players have 22, 22, 16 (1+1+10+4 with 8 reyes) and 14
    decl = {"pares": ["none", "none", "par", "par"], "punto": [22, 22, 30, 14]}
    with pytest.raises(DeclarationError) as raised:  # the engine has no code for it yet
        score({"cards": NO_JUEGO, "declarations": decl})
    assert "third" in raised.value.message and "30" in raised.value.message


# ---------------------------------------------------------------------------------------------
# Betting

BETTING = [
    case("action-not-text", lambda: grande(5), BettingError, "action_format", "grande", "5"),
    case("unknown-word", lambda: grande("mus"), BettingError, "unknown_action", "grande", "'mus'"),
    case(
        "garbage-amount",
        lambda: grande("envido mucho", "quiero"),
        BettingError,
        "unknown_action",
        "envido mucho",
    ),
    case(
        "unknown-act-object",
        lambda: score({"cards": DEAL, "bets": {"chica": [{"act": "subo"}]}}),
        BettingError,
        "unknown_act",
        "chica",
        "subo",
    ),
    case(
        "unknown-pair",
        lambda: grande("nadie: envido", "quiero"),
        BettingError,
        "unknown_pair",
        "grande",
        "nadie",
    ),
    case(
        "unknown-pair-object",
        lambda: score(
            {"cards": DEAL, "bets": {"grande": [{"act": "envido", "pair": "A"}, "quiero"]}}
        ),
        BettingError,
        "unknown_pair",
        "grande",
        "'A'",
    ),
    case(
        "stones-not-a-number",
        lambda: score(
            {"cards": DEAL, "bets": {"grande": [{"act": "envido", "stones": "2"}, "quiero"]}}
        ),
        BettingError,
        "stones_format",
        "grande",
        "'2'",
    ),
    case(
        "bet-in-pares-not-played",
        lambda: score({"cards": ONLY_MANO, "bets": {"pares": ["envido", "quiero"]}}),
        BettingError,
        "lance_not_played",
        "pares",
        "mano",
    ),
    case(
        "bet-in-juego-not-played",
        lambda: score({"cards": ONLY_MANO, "bets": {"juego": ["envido", "no quiero"]}}),
        BettingError,
        "lance_not_played",
        "juego",
    ),
    case(
        "bet-in-pares-nobody-has",
        lambda: score(
            {
                "cards": NO_JUEGO[:2] + ["So 2o 3o 4e", "Sc 2c 5e 6e"],
                "bets": {"pares": ["envido", "quiero"]},
            },
            RuleSet(kings=4),
        ),
        BettingError,
        "lance_nobody_has",
        "pares",
        "Nobody",
    ),
    case(
        "five-pasos",
        lambda: grande(*["paso"] * 5),
        BettingError,
        "too_many_pasos",
        "grande",
        "5",
        "4",
    ),
    case(
        "three-pasos-in-pares-of-two",
        lambda: score(
            {
                "cards": ["Ro Rc 7e 6b", "So Sc 5o 4c", "Co 7o 6o 5e", "1o 4e 6c 7b"],
                "bets": {"pares": ["paso"] * 3},
            }
        ),
        BettingError,
        "too_many_pasos",
        "pares",
        "3",
        "2",
    ),
    case(
        "quiero-before-any-bet",
        lambda: grande("quiero"),
        BettingError,
        "answer_without_bet",
        "grande",
        "quiero",
    ),
    case(
        "no-quiero-before-any-bet",
        lambda: grande("paso", "no quiero"),
        BettingError,
        "answer_without_bet",
        "no quiero",
    ),
    case(
        "raise-before-any-bet",
        lambda: grande("2 más", "quiero"),
        BettingError,
        "answer_without_bet",
        "2 más",
    ),
    case(
        "bet-after-all-passed",
        lambda: grande("paso", "paso", "paso", "paso", "envido"),
        BettingError,
        "bet_after_all_passed",
        "grande",
        "4",
    ),
    case(
        "envite-below-minimum",
        lambda: grande("envido 1", "quiero"),
        BettingError,
        "envite_below_minimum",
        "grande",
        "1",
        "2",
    ),
    case(
        "envite-below-a-minimum-of-4",
        lambda: grande("envido 3", "quiero", rules=RuleSet(min_envite=4)),
        BettingError,
        "envite_below_minimum",
        "3",
        "4",
    ),
    case(
        "same-pair-raises-twice",
        lambda: grande("mano: envido", "mano: 2 más", "quiero"),
        BettingError,
        "out_of_turn",
        "grande",
        "2 más",
        "postre",
    ),
    case(
        "actions-after-quiero",
        lambda: grande("envido", "quiero", "2 más"),
        BettingError,
        "action_after_end",
        "grande",
        "quiero",
        "2 más",
    ),
    case(
        "actions-after-no-quiero",
        lambda: grande("envido", "no quiero", "quiero"),
        BettingError,
        "action_after_end",
        "no quiero",
    ),
    case(
        "raise-over-ordago",
        lambda: grande("órdago", "2 más", "quiero"),
        BettingError,
        "raise_over_ordago",
        "grande",
        "2 más",
    ),
    case(
        "ordago-over-ordago",
        lambda: grande("envido", "órdago", "órdago", "quiero"),
        BettingError,
        "raise_over_ordago",
        "órdago",
    ),
    case(
        "paso-after-an-envite",
        lambda: grande("envido", "paso"),
        BettingError,
        "paso_after_bet",
        "grande",
        "paso",
    ),
    case(
        "raise-to-3-after-envido-4",
        lambda: grande("envido 4", "a 3", "quiero"),
        BettingError,
        "raise_not_higher",
        "grande",
        "3",
        "4",
    ),
    case(
        "raise-to-the-same",
        lambda: grande("envido", "a 2", "quiero"),
        BettingError,
        "raise_not_higher",
        "2",
    ),
    case(
        "raise-of-0",
        lambda: grande("envido", "0 más", "quiero"),
        BettingError,
        "raise_too_small",
        "grande",
        "0",
    ),
    case(
        "unanswered-envido",
        lambda: grande("envido"),
        BettingError,
        "unanswered_bet",
        "grande",
        "envido",
    ),
    case(
        "unanswered-raise",
        lambda: grande("paso", "envido", "2 más"),
        BettingError,
        "unanswered_bet",
        "2 más",
    ),
    case(
        "unanswered-in-punto",
        lambda: score({"cards": NO_JUEGO, "bets": {"punto": ["envido"]}}),
        BettingError,
        "unanswered_bet",
        "punto",
    ),
    case(
        "unanswered-in-juego-key-for-punto",
        lambda: score({"cards": NO_JUEGO, "bets": {"juego": ["órdago"]}}),
        BettingError,
        "unanswered_bet",
        "punto",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), BETTING)
def test_betting_errors(call, cls, code, names):
    run_case(call, cls, code, names)


# ---------------------------------------------------------------------------------------------
# Rule sets

RULES = [
    case("kings-6", lambda: RuleSet(kings=6), RuleSetError, "kings", "6"),
    case("kings-text", lambda: RuleSet.from_dict({"kings": "8"}), RuleSetError, "kings", "'8'"),
    case(
        "stones-9",
        lambda: RuleSet(stones_per_game=9),
        RuleSetError,
        "stones_per_game",
        "9",
        "10",
        "100",
    ),
    case(
        "stones-101", lambda: RuleSet(stones_per_game=101), RuleSetError, "stones_per_game", "101"
    ),
    case(
        "stones-text",
        lambda: RuleSet.from_dict({"stones_per_game": "40"}),
        RuleSetError,
        "stones_per_game",
        "'40'",
    ),
    case(
        "stones-true",
        lambda: RuleSet(stones_per_game=True),
        RuleSetError,
        "stones_per_game",
        "True",
    ),
    case(
        "stones-fraction",
        lambda: RuleSet(stones_per_game=40.5),
        RuleSetError,
        "stones_per_game",
        "40.5",
    ),
    case(
        "games-per-vaca-0", lambda: RuleSet(games_per_vaca=0), RuleSetError, "games_per_vaca", "0"
    ),
    case(
        "vacas-per-match-10",
        lambda: RuleSet(vacas_per_match=10),
        RuleSetError,
        "vacas_per_match",
        "10",
    ),
    case("min-envite-0", lambda: RuleSet(min_envite=0), RuleSetError, "min_envite", "0"),
    case(
        "real-31-unknown",
        lambda: RuleSet.from_dict({"real_31": "always"}),
        RuleSetError,
        "real_31",
        "always",
    ),
    case("real-31-not-the-enum", lambda: RuleSet(real_31="yes"), RuleSetError, "real_31"),
    case("dejes-text", lambda: RuleSet.from_dict({"dejes": "no"}), RuleSetError, "dejes"),
    case(
        "unknown-option",
        lambda: RuleSet.from_dict({"stones": 40}),
        RuleSetError,
        "unknown_option",
        "'stones'",
        "stones_per_game",
    ),
    case("rules-not-an-object", lambda: RuleSet.from_dict([8, 40]), RuleSetError, "format"),
    case(
        "unknown-option-in-a-request",
        lambda: run({"rules": {"reyes": 8}, "games": []}),
        RuleSetError,
        "unknown_option",
        "'reyes'",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), RULES)
def test_rule_set_errors(call, cls, code, names):
    run_case(call, cls, code, names)


def test_kings_must_be_a_whole_number():
    raises(lambda: RuleSet.from_dict({"kings": 8.0}), RuleSetError, "kings", "8.0")


# ---------------------------------------------------------------------------------------------
# Games, vacas and the match


def finished_match():
    state, _ = play_match(ONE_GAME, [hand_from_json(WINNING_HAND, ONE_GAME)])
    assert state.finished
    return state


MATCH = [
    case(
        "hand-after-the-match",
        lambda: apply_hand(finished_match(), hand_from_json(WINNING_HAND, ONE_GAME)),
        EntryAfterEnd,
        "match_over",
        "A",
    ),
    case(
        "hand-after-the-match-names-the-hand",
        lambda: play_match(ONE_GAME, [hand_from_json(WINNING_HAND, ONE_GAME)] * 2),
        EntryAfterEnd,
        "match_over",
        "Hand 2",
    ),
    case(
        "hand-after-the-match-in-json",
        lambda: run({"rules": {"games_per_vaca": 1}, "hands": [WINNING_HAND] * 3}),
        EntryAfterEnd,
        "match_over",
        "Hand 2",
    ),
    case(
        "first-mano-4",
        lambda: MatchState.start(EIGHT, 4),
        GameEntryError,
        "first_mano_seat",
        "0 to 3",
    ),
    case(
        "game-after-the-match",
        lambda: record_games(ONE_GAME, [GameEntry((40, 10)), GameEntry((12, 40))]),
        EntryAfterEnd,
        "game_after_match",
        "Game 2",
        "A",
    ),
    case(
        "match-not-finished",
        lambda: record_games(EIGHT, [GameEntry((40, 10)), GameEntry((12, 40))], complete=True),
        GameEntryError,
        "match_not_finished",
        "A 1 - B 1",
    ),
    case(
        "game-winner-c",
        lambda: record_games(EIGHT, [GameEntry(winner=2)]),
        GameEntryError,
        "game_winner_format",
        "Game 1",
    ),
    case(
        "game-empty",
        lambda: record_games(EIGHT, [GameEntry((40, 1)), GameEntry()]),
        GameEntryError,
        "game_empty",
        "Game 2",
    ),
    case(
        "negative-stones",
        lambda: record_games(EIGHT, [GameEntry((-1, 40))]),
        GameEntryError,
        "stones_value",
        "-1",
    ),
    case(
        "stones-as-text",
        lambda: record_games(EIGHT, [GameEntry((40, "3"))]),
        GameEntryError,
        "stones_value",
        "'3'",
    ),
    case(
        "ordago-without-winner",
        lambda: record_games(EIGHT, [GameEntry((10, 20), None, True)]),
        GameEntryError,
        "ordago_winner_missing",
        "Game 1",
        "órdago",
    ),
    case(
        "ordago-after-40",
        lambda: record_games(EIGHT, [GameEntry((40, 20), 0, True)]),
        GameEntryError,
        "ordago_after_target",
        "40",
        "40-20",
    ),
    case(
        "both-at-40",
        lambda: record_games(EIGHT, [GameEntry((40, 40))]),
        GameEntryError,
        "both_at_target",
        "40-40",
    ),
    case(
        "both-past-30",
        lambda: record_games(RuleSet(stones_per_game=30), [GameEntry((31, 34))]),
        GameEntryError,
        "both_at_target",
        "30",
        "31-34",
    ),
    case(
        "game-not-finished",
        lambda: record_games(EIGHT, [GameEntry((39, 20))]),
        GameEntryError,
        "game_not_finished",
        "40",
        "39-20",
    ),
    case(
        "winner-contradicts-stones",
        lambda: record_games(EIGHT, [GameEntry((40, 20), 1)]),
        GameEntryError,
        "winner_contradicts_stones",
        "B",
        "40-20",
    ),
    case(
        "winner-past-the-limit",
        lambda: record_games(EIGHT, [GameEntry((10_039, 10))]),
        GameEntryError,
        "stones_above_limit",
        "Game 1",
        "10039",
        "10038",
        "9999",
    ),
    case(
        "stones-past-a-32-bit-column",
        lambda: run({"games": [{"stones": {"A": 2_147_483_648, "B": 3}}]}),
        GameEntryError,
        "stones_above_limit",
        "2147483648",
        "10038",
    ),
    case(
        "totals-past-the-limit",
        lambda: run({"start": [39, 0], "hands": [{"totals": {"mano": 10_000, "postre": 3}}]}),
        GameEntryError,
        "stones_above_limit",
        "Hand 1",
        "10039",
        "10038",
    ),
    case(
        "a-bet-past-what-can-be-recorded",
        lambda: run(
            {"hands": [{"cards": DEAL, "bets": {"grande": ["envido 9999", "9 más", "quiero"]}}]}
        ),
        BettingError,
        "bet_above_limit",
        "Hand 1",
        "10008",
        "9999",
    ),
    case(
        "lance-points-past-what-can-be-recorded",
        lambda: run(
            {"hand": {"lances": {"grande": {"to": "mano", "how": "querido", "stones": 10_000}}}}
        ),
        DeclarationError,
        "lance_stones_above_limit",
        "10000",
        "9999",
    ),
    case(
        "both-at-40-in-json",
        lambda: run({"games": [{"stones": {"A": 40, "B": 40}}]}),
        GameEntryError,
        "both_at_target",
        "40-40",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), MATCH)
def test_match_errors(call, cls, code, names):
    run_case(call, cls, code, names)


def test_hand_errors_in_a_match_name_the_hand():
    bad = {"cards": [DEAL[0], "So Sc 7e 9b", *DEAL[2:]]}
    error = raises(
        lambda: run({"hands": [{"cards": DEAL}, bad]}), CardError, "no_8_9", "Hand 2", "9b"
    )
    assert error.params["hand"] == 2


def test_betting_errors_in_a_match_name_the_hand():
    bad = {"cards": DEAL, "bets": {"chica": ["envido"]}}
    error = raises(
        lambda: run({"hands": [{"cards": DEAL}, bad]}),
        BettingError,
        "unanswered_bet",
        "Hand 2",
        "chica",
    )
    assert error.params["hand"] == 2


# ---------------------------------------------------------------------------------------------
# The JSON form

JSON = [
    case("request-not-an-object", lambda: run([]), FormatError, "not_object", "request"),
    case(
        "hand-not-an-object",
        lambda: run({"hand": ["Ro Rc Cc 1b"]}),
        FormatError,
        "not_object",
        "hand",
    ),
    case("no-kind", lambda: run({}), FormatError, "request_kind", "hand", "games"),
    case(
        "two-kinds",
        lambda: run({"hand": {"cards": DEAL}, "games": []}),
        FormatError,
        "request_kind",
    ),
    case(
        "unknown-request-field",
        lambda: run({"games": [], "mano": "A1"}),
        FormatError,
        "unknown_field",
        "'mano'",
    ),
    case(
        "unknown-hand-field",
        lambda: run({"hand": {"cards": DEAL, "mus": True}}),
        FormatError,
        "unknown_field",
        "'mus'",
    ),
    case(
        "bets-not-an-object",
        lambda: run({"hand": {"cards": DEAL, "bets": ["paso"]}}),
        FormatError,
        "not_object",
        "bets",
    ),
    case(
        "unknown-lance",
        lambda: run({"hand": {"cards": DEAL, "bets": {"mus": ["paso"]}}}),
        FormatError,
        "unknown_lance",
        "'mus'",
    ),
    case(
        "lance-bets-not-a-list",
        lambda: run({"hand": {"cards": DEAL, "bets": {"grande": {"act": "paso"}}}}),
        FormatError,
        "not_list",
        "bets.grande",
    ),
    case(
        "juego-and-punto",
        lambda: run({"hand": {"cards": NO_JUEGO, "bets": {"juego": [], "punto": []}}}),
        FormatError,
        "juego_and_punto",
        "juego",
        "punto",
    ),
    case(
        "punto-bets-with-juego",
        lambda: run({"hand": {"cards": DEAL, "bets": {"punto": ["paso"]}}}),
        FormatError,
        "punto_bets_with_juego",
        "punto",
        "juego",
    ),
    case(
        "pares-not-a-list",
        lambda: run({"hand": {"declarations": {"pares": "none"}}}),
        FormatError,
        "not_list",
        "declarations.pares",
    ),
    case(
        "pares-of-3",
        lambda: run({"hand": {"declarations": {"pares": ["none"] * 3}}}),
        FormatError,
        "wrong_length",
        "declarations.pares",
        "3",
    ),
    case(
        "pares-word",
        lambda: run({"hand": {"declarations": {"pares": ["trío", *NO_PARES[1:]]}}}),
        FormatError,
        "pares_word",
        "'trío'",
    ),
    case(
        "juego-word",
        lambda: run(
            {"hand": {"declarations": {"pares": NO_PARES, "juego": ["mucho", None, None, None]}}}
        ),
        FormatError,
        "juego_word",
        "'mucho'",
    ),
    case(
        "punto-of-5",
        lambda: run({"hand": {"declarations": {"pares": NO_PARES, "punto": [20] * 5}}}),
        FormatError,
        "wrong_length",
        "declarations.punto",
        "5",
    ),
    case(
        "winners-not-an-object",
        lambda: run({"hand": {"declarations": {"pares": NO_PARES, "winners": ["mano"]}}}),
        FormatError,
        "not_object",
        "declarations.winners",
    ),
    case(
        "winner-word",
        lambda: run({"hand": {"declarations": {"pares": NO_PARES, "winners": {"grande": "A"}}}}),
        FormatError,
        "winner_word",
        "grande",
        "'A'",
    ),
    case(
        "team-word",
        lambda: run({"games": [{"winner": "C"}]}),
        FormatError,
        "team_word",
        "games[1].winner",
        "'C'",
    ),
    case("games-not-a-list", lambda: run({"games": {"A": 40}}), FormatError, "not_list", "games"),
    case(
        "game-not-an-object",
        lambda: run({"games": [[40, 20]]}),
        FormatError,
        "not_object",
        "games[1]",
    ),
    case(
        "stones-of-3",
        lambda: run({"games": [{"stones": [40, 20, 1]}]}),
        FormatError,
        "wrong_length",
        "games[1].stones",
        "3",
    ),
    case(
        "hands-not-a-list",
        lambda: run({"hands": {"cards": DEAL}}),
        FormatError,
        "not_list",
        "hands",
    ),
    case(
        "first-mano-c1",
        lambda: run({"hands": [], "first_mano": "C1"}),
        FormatError,
        "first_mano",
        "'C1'",
    ),
    case(
        "complete-text",
        lambda: run({"games": [], "complete": "yes"}),
        FormatError,
        "complete_format",
        "complete",
    ),
]


@pytest.mark.parametrize(("call", "cls", "code", "names"), JSON)
def test_json_errors(call, cls, code, names):
    run_case(call, cls, code, names)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("{", ("line 1", "column 2"), id="truncated"),
        pytest.param("", ("line 1", "column 1"), id="empty"),
        pytest.param('{"hand": {}}\n{"hand": {}}', ("line 2",), id="two-documents"),
        pytest.param("{'hand': {}}", ("line 1",), id="single-quotes"),
    ],
)
def test_bad_json_on_the_command_line(text, names):
    out = io.StringIO()
    assert main(stdin=io.StringIO(text), stdout=out) == 2
    error = json.loads(out.getvalue())
    assert (error["error"], error["code"]) == ("FormatError", "json")
    for name in names:
        assert name in error["message"]


def test_every_error_is_a_value_error_with_a_code():
    # the web layer catches ScoringError; each subclass has its own default code
    for cls in (
        RuleSetError,
        CardError,
        BettingError,
        DeclarationError,
        EntryAfterEnd,
        GameEntryError,
        FormatError,
    ):
        assert issubclass(cls, ScoringError) and issubclass(cls, ValueError)
        error = cls("something is wrong")
        assert error.code == cls.code != ScoringError.code
        assert error.as_dict() == {
            "error": cls.__name__,
            "code": cls.code,
            "message": "something is wrong",
            "params": {},
        }


@pytest.mark.parametrize("word", ["other", "31 real"])
def test_juego_contradiction_names_what_was_declared(word):
    rules = RuleSet.from_dict({"real_31": "sota_777"})
    decl = {"pares": ["par"] * 4, "juego": [word, 33, None, None]}  # mano holds a plain 31
    error = raises(
        lambda: score({"cards": DEAL, "declarations": decl}, rules),
        DeclarationError,
        "juego_contradicts_cards",
        "mano",
        "31",
    )
    assert word in error.message


def test_game_stones_of_the_wrong_length_name_the_pairs():
    error = raises(
        lambda: run({"games": [{"stones": [40, 20, 1]}]}),
        FormatError,
        "wrong_length",
        "games[1].stones",
        "3",
    )
    assert "player" not in error.message


# ---------------------------------------------------------------------------------------------
# In Spanish, from the engine's own catalog (no Django)


def spanish(call) -> str:
    with pytest.raises(ScoringError) as raised:
        call()
    return check_spanish(raised.value, own_words=True)


def test_a_card_error_in_a_match_names_the_hand_and_the_player_in_spanish():
    bad = {"cards": [DEAL[0], "So Sc 7e 9b", *DEAL[2:]]}
    assert spanish(lambda: run({"hands": [{"cards": DEAL}, bad]})) == (
        "Mano n.º 2: Cartas para el segundo jugador: «9b» no está en la baraja española: al mus "
        "se juega sin ochos ni nueves."
    )


def test_seats_and_pares_are_said_in_spanish():
    assert (
        spanish(
            lambda: score({"cards": DEAL, "declarations": {"pares": ["none", "par", "par", "par"]}})
        )
        == "En pares, el jugador mano declaró «sin pares», pero tiene par de reyes."
    )
    assert spanish(lambda: declared(pares=NO_PARES, juego=[None, 25, None, None])) == (
        "Con 25, el segundo jugador no tiene juego (el juego es de 31 en adelante): decláralo "
        "como punto."
    )


def test_why_the_cards_decided_a_lance_is_said_in_spanish():
    message = spanish(
        lambda: score(
            {
                "cards": DEAL,
                "declarations": {
                    "pares": ["par"] * 4,
                    "juego": [31, 33, None, None],
                    "winners": {"grande": "postre"},
                },
            }
        )
    )
    assert message == (
        "Se ha anotado a la pareja postre como ganadora de grande, pero las cartas dicen otra "
        "cosa: R-R-C-1 gana a S-S-7-6."
    )


def test_a_figure_in_the_message_is_a_param():
    error = raises(
        lambda: record_games(EIGHT, [GameEntry((40, 20), 1)]),
        GameEntryError,
        "winner_contradicts_stones",
    )
    assert error.params == {
        "game": 1,
        "given": "B",
        "a": 40,
        "b": 20,
        "winner": "A",
        "team": "pareja",
    }
    assert error.as_dict()["params"] == error.params


@pytest.mark.parametrize(
    ("argv", "environ", "words"),
    [
        pytest.param(["--lang", "es"], None, "las dos parejas tienen 40 o más", id="--lang-es"),
        pytest.param([], {"LANG": "es_ES.UTF-8"}, "las dos parejas tienen", id="LANG-es"),
        pytest.param([], {"LANGUAGE": "es:en", "LANG": "C.UTF-8"}, "las dos", id="LANGUAGE"),
        pytest.param([], {"LANG": "C.UTF-8"}, "both pairs have 40 or more", id="LANG-C"),
        pytest.param([], None, "both pairs have 40 or more", id="no-language"),
        pytest.param(["--lang", "en"], {"LANG": "es_ES.UTF-8"}, "both pairs", id="--lang-wins"),
        pytest.param(["--lang", "fr"], None, "les deux couples ont 40 ou plus", id="--lang-fr"),
        pytest.param(["--lang", "eu"], None, "bi bikoteek 40 edo gehiago dute", id="--lang-eu"),
        pytest.param(["--lang", "de"], None, "both pairs have", id="no-catalog-english"),
    ],
)
def test_the_command_line_speaks_the_language_asked_for(argv, environ, words):
    out = io.StringIO()
    request = io.StringIO('{"games": [{"stones": [40, 41]}]}')
    assert main(request, out, argv, environ) == 2
    error = json.loads(out.getvalue())
    assert words in error["message"]
    # the code and the params do not depend on the language
    assert error["code"] == "both_at_target"
    assert error["params"] == {"game": 1, "target": 40, "a": 40, "b": 41, "both": "both pairs"}
