"""Trios and individual Mus entered as a paper anotador writes them (scoring.lances): against
the model of tests/scoring/forms_model.py, worked examples, and the errors. Mus francés keeps
no lance points: it is refused."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Form, MatchState, RuleSet, ScoringError, apply_hand, hand_from_json, run
from tests.scoring import forms_model as model
from tests.scoring.spanish import check_spanish
from tests.scoring.test_properties import mutated, only_scoring_errors

pytestmark = pytest.mark.usefixtures("engine_path")

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
CLASSIC = st.sampled_from([Form.TRIOS, Form.INDIVIDUAL])


def _score(rules: RuleSet, hand: dict) -> dict:
    return run({"rules": rules.as_dict(), "hand": hand})["hand"]


def _refused(rules: RuleSet, hand: dict) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        _score(rules, hand)
    return error.value


def _events(result: dict) -> list[tuple]:
    key = "side" if "side" in (result["events"] or [{}])[0] else "seat"
    return [
        (e["lance"], e.get(key), e["stones"], e["kind"])
        for e in result["events"]
        if e["kind"] != "ordago"
    ]


def _paper(rules: RuleSet, hand) -> dict:
    """The model's paper entry: every hand the betting can say, a deje of a whole game or more
    too (docs/rules.md, «Betting»: a bet has no ceiling, a refused raise leaves the bet before
    it)."""
    return model.paper(rules, hand)


def _model_events(rules: RuleSet, hand) -> list[tuple]:
    events, _ordago = model.classic_events(rules, hand)
    # a hand between two sides names them (individual Mus for two players too)
    two = model.two_sides(rules) or rules.players == 2
    word = (lambda s: ("mano", "postre")[s]) if two else (lambda s: s)
    return [(lance, word(side), stones, kind) for lance, side, stones, kind in events]


@SETTINGS
@given(CLASSIC.flatmap(model.table_hands), st.sampled_from(("cards", "declarations", "alone")))
def test_the_paper_entry_scores_what_the_rules_count(case, given_with):
    """What the anotador writes, with the cards, with the declarations or alone, scores the
    events the model counts from the betting, in the same order (dejes first, 004)."""
    rules, hand = case
    entry: dict = {"lances": _paper(rules, hand)}
    if given_with == "cards":
        entry["cards"] = hand.json["cards"]
    elif given_with == "declarations":
        entry["declarations"] = model.declared(rules, hand)
    totals = model.side_totals(rules, hand)
    entry["totals"] = {"mano": totals[0], "postre": totals[1]} if model.two_sides(rules) else totals
    result = _score(rules, entry)
    assert _events(result) == _model_events(rules, hand)
    stones = result["stones"]
    assert (list(stones.values()) if isinstance(stones, dict) else stones) == totals


@SETTINGS
@given(CLASSIC.flatmap(model.table_hands), st.integers(1, 4), st.data())
def test_a_bonus_the_cards_do_not_give_is_refused(case, off, data):
    rules, hand = case
    lances = _paper(rules, hand)
    with_bonus = [name for name, point in lances.items() if "bonus" in point]
    if not with_bonus:
        return
    name = data.draw(st.sampled_from(with_bonus))
    lances[name] = {**lances[name], "bonus": lances[name]["bonus"] + off}
    error = _refused(rules, {"lances": lances, "cards": hand.json["cards"]})
    assert error.code == "bonus_contradicts_table"
    assert error.params["expected"] == lances[name]["bonus"] - off


@SETTINGS
@given(CLASSIC.flatmap(model.table_hands), st.integers(1, 3), st.data())
def test_a_wrong_total_is_refused_for_the_side_it_names(case, off, data):
    rules, hand = case
    totals = model.side_totals(rules, hand)
    side = data.draw(st.integers(0, len(totals) - 1))
    totals[side] += off
    written = {"mano": totals[0], "postre": totals[1]} if model.two_sides(rules) else totals
    error = _refused(rules, {"lances": _paper(rules, hand), "totals": written})
    if model.classic_events(rules, hand)[1] is None:
        assert error.code == "total_not_sum_table"
        assert error.params["parts"] == totals[side] - off
    else:  # an accepted órdago ended it: its dejes alone were counted, and the message says so
        assert error.code == "total_not_sum_ordago_table"
        assert error.params["counted"] == totals[side] - off


def _possible_bonuses(values: tuple[int, ...], holders: int) -> set[int]:
    """000 «Scoring»: a sum of one value per holder on the side, from one holder up."""
    found = {0}
    sums = set()
    for _ in range(holders):
        found = {s + v for s in found for v in values}
        sums |= found
    return sums


@given(
    st.sampled_from([(Form.TRIOS, 6, 3), (Form.INDIVIDUAL, 4, 1)]),
    st.sampled_from(("pares", "juego")),
    st.integers(0, 12),
)
def test_a_bonus_is_possible_exactly_when_the_model_allows_it(form_seats, lance, bonus):
    form, players, holders = form_seats
    rules = RuleSet(form=form, players=players)
    values = (1, 2, 3) if lance == "pares" else (2, 3)
    to = "postre" if form is Form.TRIOS else 1
    lances = {
        "grande": {"to": to, "how": "paso"},
        "chica": {"to": to, "how": "paso"},
        lance: {"to": to, "how": "paso", "bonus": bonus},
    }
    if lance == "pares":
        lances["juego"] = {"to": to, "how": "paso", "bonus": 2}
    if bonus in _possible_bonuses(values, holders):
        assert _score(rules, {"lances": lances})
    else:
        assert _refused(rules, {"lances": lances}).code == "bonus_impossible_table"


# ---------------------------------------------------------------------------------------------
# Worked examples

TRIOS_CARDS = [
    "Ro Rc Co So",  # mano: R-R-C-S, par de reyes, 40
    "Rb Re 4o 5o",  # second (postre's side): par de reyes, 29
    "7o 7c 7e Sc",  # third (mano's side): medias de sietes, 31
    "6o 6c 5c 4c",  # fourth (postre's side): par de seises, 21
    "1o 1c 2o 4e",  # fifth (mano's side): 8 reyes: the 2 is an as, medias de ases, 7
    "Ce Cc Sb 6e",  # postre: par de caballos, 36
]


def test_trios_pay_the_pares_of_every_holder_of_the_side():
    """000: «for each player» of the side; the mano's side holds par, medias and medias."""
    rules = RuleSet(form=Form.TRIOS)
    result = _score(
        rules,
        {
            "cards": TRIOS_CARDS,
            "lances": {
                "grande": {"to": "mano", "how": "deje", "stones": 1},
                "chica": {"to": "postre", "how": "deje", "stones": 2},  # whatever its cards
                "pares": {"to": "mano", "how": "paso", "bonus": 5},
                "juego": {"to": "mano", "how": "paso"},  # 31 and 40: 3 + 2
            },
            "totals": {"mano": 11, "postre": 2},
        },
    )
    assert result["stones"] == {"mano": 11, "postre": 2}
    assert result["lances"][2]["reason"] == "the mano's side won pares (declared)"


def test_trios_a_wrong_pares_names_what_the_side_holds():
    rules = RuleSet(form=Form.TRIOS)
    error = _refused(
        rules,
        {
            "cards": TRIOS_CARDS,
            "lances": {
                "grande": {"to": "mano", "how": "paso"},
                "chica": {"to": "mano", "how": "paso"},  # the fifth's 1-1-1-4
                "pares": {"to": "mano", "how": "paso", "bonus": 4},
                "juego": {"to": "mano", "how": "paso"},
            },
        },
    )
    assert error.message == (
        "In pares, the mano's side claims a bonus of 4 but holds medias, medias and par: 5."
    )


def test_individual_a_player_alone_is_named_by_the_seat():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    cards = ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"]
    lances = {
        "grande": {"to": "mano", "how": "paso"},
        "chica": {"to": 1, "how": "paso"},
        "pares": {"to": "postre", "how": "paso", "bonus": 3},
        "juego": {"to": "postre", "how": "paso"},
    }
    error = _refused(rules, {"cards": cards, "lances": lances})
    assert error.message == "In pares, the postre claims a bonus of 3 but holds medias: 2."
    lances["pares"]["bonus"] = 2
    assert _score(rules, {"cards": cards, "lances": lances})["stones"] == [1, 1, 5]


def test_individual_an_accepted_bet_goes_to_one_who_beats_somebody_in_it():
    """The best hand among those in the bet takes it (docs/rules.md, «Forms»): the second can
    win grande over the third alone; the third beats nobody."""
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    cards = ["Ro Rc Co So", "Rb Re 4o 5o", "7o 7c 7e Sc"]
    lances = {
        "grande": {"to": 1, "how": "querido", "stones": 2},
        "chica": {"to": 1, "how": "paso"},
        "pares": {"to": 2, "how": "paso"},
        "juego": {"to": 2, "how": "paso"},
    }
    assert _score(rules, {"cards": cards, "lances": lances})["stones"] == [0, 3, 5]
    lances["grande"]["to"] = 2
    error = _refused(rules, {"cards": cards, "lances": lances})
    assert error.code == "taker_beats_nobody"
    # en paso everybody is in it: only the best hand takes it
    lances["grande"] = {"to": 1, "how": "paso"}
    assert _refused(rules, {"cards": cards, "lances": lances}).code == "taker_contradicts_table"


def test_individual_totals_alone_are_a_list_in_seat_order():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    assert _score(rules, {"totals": [3, 0, 2]})["stones"] == [3, 0, 2]
    assert _refused(rules, {"totals": [3, 0]}).code == "totals_list"
    assert _refused(rules, {"totals": [0, 1, 0]}).code == "totals_too_few_table"
    assert _refused(rules, {"lances": {"grande": {"to": 5}}}).code == "lance_to_seat"


def test_individual_totals_pay_four_players_at_the_most():
    # 000 «Every hand consists of four rounds», 001: each lance goes to one player (en paso
    # the best hand, a refused bet the one who bet, an accepted one the best hand in it), and
    # its deje and bonus with it: four lances pay four players at the most
    rules = RuleSet(form=Form.INDIVIDUAL, players=6)
    assert _score(rules, {"totals": [1, 0, 1, 1, 3, 0]})["stones"] == [1, 0, 1, 1, 3, 0]
    error = _refused(rules, {"totals": [1, 1, 1, 1, 1, 1]})
    assert error.code == "totals_too_many_players"
    assert error.message == (
        "The totals give stones to 6 players, but a hand pays 4 at the most: each lance "
        "(grande, chica, pares, juego or punto) goes to one player, with its deje and its bonus."
    )
    check_spanish(error)


@SETTINGS
@given(st.integers(2, 6).flatmap(lambda n: st.lists(st.integers(0, 4), min_size=n, max_size=n)))
def test_individual_totals_are_refused_exactly_when_more_than_four_players_score(totals):
    rules = RuleSet(form=Form.INDIVIDUAL, players=len(totals))
    scorers = sum(1 for total in totals if total)
    try:
        _score(rules, {"totals": totals})
    except ScoringError as error:
        assert (error.code == "totals_too_many_players") is (scorers > 4), error.code
        if scorers > 4:
            assert error.params["count"] == scorers
    else:
        assert scorers <= 4


def test_individual_totals_that_end_the_game_for_two_players_are_refused():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3, stones_per_game=10)
    state = MatchState.start(rules)
    state, _ = apply_hand(state, hand_from_json({"totals": [8, 8, 0]}, rules))
    with pytest.raises(ScoringError) as error:
        # mano is now P2: seat 0 is P2, seat 1 P3, seat 2 P1; P2 and P1 would both reach 10
        apply_hand(state, hand_from_json({"totals": [3, 0, 3]}, rules))
    assert error.value.code == "totals_many_reach_target"


def test_a_match_of_individual_mus_counts_paper_hands_from_each_mano():
    rules = RuleSet(form=Form.INDIVIDUAL, players=3)
    hands = [
        {"totals": [3, 4, 5]},  # mano P1
        {  # mano P2: seat 0 is P2, seat 1 P3, seat 2 P1
            "lances": {
                "grande": {"to": 1, "how": "paso"},
                "chica": {"to": 2, "how": "paso"},
                "pares": {"to": 2, "how": "paso", "bonus": 3},
                "juego": {"to": 0, "how": "paso", "bonus": 3},
            }
        },
    ]
    result = run({"rules": rules.as_dict(), "hands": hands})
    assert result["match"]["stones"] == {"P1": 7, "P2": 7, "P3": 6}


def test_frances_keeps_no_lance_points():
    rules = RuleSet(form=Form.FRANCES, players=4)
    error = _refused(rules, {"totals": [1, 2, 3, 0]})
    assert error.code == "lance_points_frances"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([Form.TRIOS, Form.INDIVIDUAL, Form.FRANCES]), st.data())
def test_any_broken_paper_entry_raises_only_the_engines_error(form, data):
    """A paper entry (or a Mus francés declaration with its takers) broken anywhere is refused
    with the engine's error — a clear 400 through the service — never another exception."""
    rules, hand = data.draw(model.table_hands(form))
    if form is Form.FRANCES:
        entry = {"declarations": model.declared(rules, hand), "bets": hand.json["bets"]}
    else:
        entry = {"lances": model.paper(rules, hand), "cards": hand.json["cards"]}
        totals = model.side_totals(rules, hand)
        entry["totals"] = (
            {"mano": totals[0], "postre": totals[1]} if model.two_sides(rules) else totals
        )
    request = data.draw(
        st.sampled_from(
            [
                {"rules": rules.as_dict(), "hand": entry},
                {"rules": rules.as_dict(), "hands": [entry, entry]},
            ]
        )
    )
    for _ in range(data.draw(st.integers(1, 3))):
        request = data.draw(mutated(request))
    only_scoring_errors(lambda: run(request))
