"""Mus francés entered without cards: the declarations, the winners of the lances, and the
player who takes the chips of each accepted bet where the declarations cannot say it. Against
the model of tests/scoring/forms_model.py, worked examples and the errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import DeclarationError, Form, RuleSet, ScoringError, hand_from_json, run, score_hand
from tests.scoring import forms_model as model

pytestmark = pytest.mark.usefixtures("engine_path")

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _chips(rules: RuleSet, hand: dict) -> tuple[list[int], tuple | None]:
    score = score_hand(rules, hand_from_json(hand, rules))
    ordago = None
    if score.ordago is not None:
        lance = next(x for x in score.lances if x.outcome.value == "ordago")
        ordago = (score.ordago.side, lance.taker)
    return list(score.chips), ordago


@SETTINGS
@given(model.table_hands(Form.FRANCES))
def test_declarations_with_the_takers_move_the_chips_the_cards_move(case):
    rules, hand = case
    declarations = model.declared(rules, hand)
    bets = hand.json["bets"]
    expected = list(model.frances_chips(rules, hand)[0]), model.frances_chips(rules, hand)[1]
    assert _chips(rules, {"declarations": declarations, "bets": bets}) == expected
    # with the cards too, every figure agrees
    both = {"cards": hand.json["cards"], "declarations": declarations, "bets": bets}
    assert _chips(rules, both) == expected


@SETTINGS
@given(model.table_hands(Form.FRANCES))
def test_a_taker_the_declarations_decide_need_not_be_named(case):
    """Without ``takers`` the engine derives the worst hand where the declarations say it (two
    players in the bet; pares of different kinds; juego or punto by number) and asks for it
    otherwise — never a different answer."""
    rules, hand = case
    declarations = model.declared(rules, hand)
    declarations.pop("takers", None)
    entry = {"declarations": declarations, "bets": hand.json["bets"]}
    try:
        got = _chips(rules, entry)
    except DeclarationError as error:
        assert error.code == "taker_missing"
        lance = error.params["lance"]
        assert lance in ("grande", "chica", "pares", "juego")  # punto always says it
        return
    assert got == (list(model.frances_chips(rules, hand)[0]), model.frances_chips(rules, hand)[1])


@SETTINGS
@given(model.table_hands(Form.FRANCES), st.data())
def test_a_wrong_taker_is_refused(case, data):
    rules, hand = case
    declarations = model.declared(rules, hand)
    takers = declarations.get("takers")
    if not takers:
        return
    lance = data.draw(st.sampled_from(sorted(takers)))
    wrong = data.draw(st.sampled_from([s for s in range(rules.players) if s != takers[lance]]))
    declarations["takers"] = {**takers, lance: wrong}
    entry = {"declarations": declarations, "bets": hand.json["bets"]}
    try:
        _chips(rules, entry)
    except DeclarationError as error:
        assert error.code in (
            "taker_not_in_bet",
            "taker_is_winner",
            "taker_contradicts_declarations",
        )
    else:
        # another player in the bet: the declarations alone cannot tell, so the table's word
        # stands; without it the engine asks
        alone = {**declarations, "takers": {k: v for k, v in takers.items() if k != lance}}
        with pytest.raises(DeclarationError) as error:
            _chips(rules, {**entry, "declarations": alone})
        assert error.value.code == "taker_missing"
    with pytest.raises(DeclarationError) as error:
        _chips(rules, {**entry, "cards": hand.json["cards"]})
    assert error.value.code in ("taker_not_in_bet", "taker_contradicts_cards")


# ---------------------------------------------------------------------------------------------
# Worked examples

RULES = RuleSet(form=Form.FRANCES, players=3)
DECLARED = {
    "pares": ["par", "par", "medias"],
    "juego": [40, None, 31],
    "winners": {"grande": 0, "chica": 1, "juego": 2},
}


def _hand(hand: dict, rules: RuleSet = RULES) -> dict:
    return run({"rules": rules.as_dict(), "hand": hand})["hand"]


def _refused(hand: dict, rules: RuleSet = RULES) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        _hand(hand, rules)
    return error.value


def test_three_in_a_grande_bet_name_who_takes_the_chips():
    """001: «si otro jugador quiere entrar serán 6 fichas … se llevará las fichas apostadas el
    jugador con la peor mano»: declarations do not rank grande hands, so the table names it."""
    bets = {"grande": ["envido", "quiero", "quiero"]}
    assert _refused({"declarations": DECLARED, "bets": bets}).code == "taker_missing"
    result = _hand({"declarations": {**DECLARED, "takers": {"grande": "postre"}}, "bets": bets})
    grande = result["lances"][0]
    assert grande["taker"] == 2
    assert grande["reason"] == (
        "the mano won grande (declared); the postre has the worst hand and takes the chips"
    )
    # the postre takes 2 from each of the others (+4), then pays pares 2 and juego 3 (-5);
    # the mano pays the grande bet (-2); the second pays 2 and chica en paso 1
    assert result["chips"] == [-2, -3, -1]


def test_two_in_a_bet_need_no_taker():
    """Two players in the bet: the one who did not win it holds the worst hand."""
    bets = {"grande": ["envido", "quiero", "no quiero"]}
    result = _hand({"declarations": DECLARED, "bets": bets})
    assert result["lances"][0]["taker"] == 1


def test_juego_by_number_says_the_worst_hand():
    """Juego by number orders the three in the bet (001: 31, 32, 40, 37 … 33 last): the
    postre's 31 wins, the second's 33 is the worst and takes the chips."""
    declared = {
        "pares": ["none", "none", "none"],
        "juego": [40, 33, 31],
        "winners": {"grande": 0, "chica": 1},
    }
    bets = {"juego": ["envido", "quiero", "quiero"]}
    result = _hand({"declarations": declared, "bets": bets})
    juego = result["lances"][3]
    assert (juego["winner"], juego["taker"]) == (2, 1)


def test_a_taker_for_a_lance_without_an_accepted_bet_is_refused():
    entry = {"declarations": {**DECLARED, "takers": {"chica": 0}}, "bets": {}}
    assert _refused(entry).code == "taker_without_bet"


def test_the_winner_cannot_also_take_the_chips():
    bets = {"grande": ["envido", "quiero", "quiero"]}
    entry = {"declarations": {**DECLARED, "takers": {"grande": 0}}, "bets": bets}
    assert _refused(entry).code == "taker_is_winner"


def test_takers_are_for_mus_frances_only():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    entry = {"declarations": {**DECLARED, "takers": {"grande": 1}}}
    assert _refused(entry, rules).code == "takers_not_frances"
    pairs = {"pares": ["none"] * 4, "juego": [None] * 4, "takers": {"grande": 1}}
    assert _refused({"declarations": pairs}, RuleSet()).code == "takers_not_frances"


def test_a_frances_match_runs_on_declarations():
    hands = [
        {
            "declarations": {**DECLARED, "takers": {"grande": 2}},
            "bets": {"grande": ["envido", "quiero", "quiero"]},
        },
    ]
    result = run({"rules": {"form": "frances", "players": 3, "chips": 10}, "hands": hands})
    assert result["match"]["chips"] == {"P1": 8, "P2": 7, "P3": 9}
