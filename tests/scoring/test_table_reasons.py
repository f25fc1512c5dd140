"""Why each lance went where it did, in every form (trios, individual, Mus francés) as in pairs:
against the model of tests/scoring/forms_model.py, and worked examples."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from scoring import Form, RuleSet, hand_from_json, run, score_hand
from scoring.messages import scoring_translations
from tests.scoring import forms_model as model

pytestmark = pytest.mark.usefixtures("engine_path")

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _codes(score) -> list[tuple[str, str, int | None]]:
    found = []
    for lance in score.lances:
        why = lance.explanation
        taker = None
        if why.code in ("reason_takes_chips", "reason_takes_chips_cards"):
            taker = lance.taker
            why = why.params["reason"]
        found.append((lance.lance, why.code, taker))
    return found


@SETTINGS
@given(model.table_hands(Form.TRIOS))
def test_trios_give_the_reason_the_rules_give(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    assert _codes(score) == model.reasons(rules, hand)


@SETTINGS
@given(model.table_hands(Form.INDIVIDUAL))
def test_individual_gives_the_reason_the_rules_give(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    assert _codes(score) == model.reasons(rules, hand)


@SETTINGS
@given(model.table_hands(Form.FRANCES))
def test_frances_names_who_takes_the_chips(case):
    rules, hand = case
    score = score_hand(rules, hand_from_json(hand.json, rules))
    assert _codes(score) == model.reasons(rules, hand)
    for lance in score.lances:
        assert lance.reason  # English, every lance
        # and in each language of the engine's catalogue, with no blank left unfilled
        for language in ("es", "eu", "fr"):
            text = lance.explanation.render(scoring_translations(language))
            assert "{" not in text


def _hand(rules: RuleSet, hand: dict) -> dict:
    return run({"rules": rules.as_dict(), "hand": hand})["hand"]


def test_trios_name_the_side():
    rules = RuleSet(form=Form.TRIOS)
    result = _hand(
        rules,
        {
            "cards": [
                "Ro Rc Co So",
                "Rb Re 4o 5o",
                "7o 7c 7e Sc",
                "6o 6c 5c 4c",
                "1o 1c 2o 4e",
                "Ce Cc Sb 6e",
            ],  # fmt: skip
            "bets": {"chica": ["envido", "no quiero"]},
        },
    )
    reasons = {x["lance"]: x["reason"] for x in result["lances"]}
    # the seat nearer mano with the same grande: mano's R-R-C-S against the second's R-R-5-4
    assert reasons["grande"] == "R-R-C-S beats R-R-5-4"
    assert reasons["chica"] == "the mano's side bet and the envite was refused (no quiero)"


def test_individual_names_the_seat():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    result = _hand(
        rules,
        {
            "cards": ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"],
            "bets": {"grande": ["paso", "envido", "no quiero", "no quiero"]},
        },
    )
    reasons = [x["reason"] for x in result["lances"]]
    assert reasons[0] == "the second bet and the envite was refused (no quiero)"
    assert reasons[2] == "medias de sietes beats par de reyes"  # the postre's, en paso
    assert reasons[3] == "juego de 31 beats juego de 40"


def test_frances_says_the_worst_hand_takes_the_chips():
    """001: «se llevará las fichas apostadas el jugador con la peor mano»."""
    rules = RuleSet(form=Form.FRANCES, players=3)
    result = _hand(
        rules,
        {
            "cards": ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"],
            "bets": {"grande": ["envido", "quiero", "quiero"]},
        },
    )
    grande = result["lances"][0]
    assert grande["reason"] == (
        "R-R-C-S beats R-R-5-4; the postre has the worst hand (S-7-7-7) and takes the chips"
    )
    assert grande["taker"] == 2
