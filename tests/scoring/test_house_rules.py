"""House rules (source 000 «Named hands», 004): the 31 real variants, the tío Perete and the
forgotten stone, as rule-set options."""

from __future__ import annotations

import pytest

from scoring import EntryAfterEnd, RuleSet, RuleSetError, ScoringError, run
from tests.scoring.spanish import check_spanish


def deal(postre: str) -> list[str]:
    return ["Ro Co So 1o", "4c 5c 6e 4o", "5o 6o 4e 5e", postre]


def juego_seat(rules: dict, postre: str) -> int:
    result = run({"rules": rules, "hand": {"cards": deal(postre)}})["hand"]
    [juego] = [r for r in result["lances"] if r["lance"] == "juego"]
    return juego["seat"]


@pytest.mark.parametrize(
    ("rules", "postre", "real"),
    [
        ({"real_31": "off"}, "Se 7b 7c 7e", False),
        ({"real_31": "sota_777"}, "Se 7b 7c 7e", True),
        ({"real_31": "sota_777"}, "Re 7b 7c 7e", False),
        ({"real_31": "figure_777"}, "Re 7b 7c 7e", True),
        # 000: «only when the Jack is of a specific suit»
        ({"real_31": "sota_of_suit", "real_31_suit": "espadas"}, "Se 7b 7c 7e", True),
        ({"real_31": "sota_of_suit", "real_31_suit": "bastos"}, "Se 7b 7c 7e", False),
        # 000: «requiring that the sevens be of different suit than the Jack»
        ({"real_31": "sota_apart"}, "Se 7b 7c 7e", False),
        ({"real_31": "sota_apart"}, "Sb 7o 7c 7e", True),
    ],
)
def test_31_real_in_every_variant_000_names(rules, postre, real):
    # mano holds a plain 31 and wins every tie; only a 31 real takes juego from postre
    assert juego_seat(rules, postre) == (3 if real else 0)


def test_sota_apart_with_the_sevens_of_the_other_suits():
    cards = ["Ro Co Sc 1o", "4c 5c 6e 4o", "5o 6o 4e 5e", "Sb 7o 7c 7e"]
    result = run({"rules": {"real_31": "sota_apart"}, "hand": {"cards": cards}})["hand"]
    [juego] = [r for r in result["lances"] if r["lance"] == "juego"]
    assert juego["seat"] == 3


def test_the_suit_is_given_exactly_for_sota_of_suit():
    with pytest.raises(RuleSetError) as error:
        RuleSet.from_dict({"real_31": "sota_of_suit"})
    assert error.value.code == "real_31_suit"
    with pytest.raises(RuleSetError) as error:
        RuleSet.from_dict({"real_31": "sota_777", "real_31_suit": "oros"})
    assert error.value.code == "real_31_suit_unused"


def test_declarations_can_say_31_real():
    hand = {
        "declarations": {
            "pares": ["none", "none", "none", "medias"],
            "juego": [31, "none", "none", "31 real"],
            "winners": {"grande": "mano", "chica": "postre"},
        }
    }
    result = run({"rules": {"real_31": "sota_777"}, "hand": hand})["hand"]
    assert [r["winner"] for r in result["lances"] if r["lance"] == "juego"] == ["postre"]


PERETE = ["Ro Co So 1o", "4c 5c 6c 7c", "5o 6o 4e 5e", "Se 7b 7o 7e"]


def test_the_tio_perete_scores_one_stone_before_play():
    # 000: «a single point to be awarded to a player that openly declares this hand»
    plain = run({"hand": {"cards": PERETE}})["hand"]
    perete = run({"rules": {"tio_perete": True}, "hand": {"cards": PERETE}})["hand"]
    assert perete["events"][0] == {
        "lance": "perete",
        "pair": "postre",
        "stones": 1,
        "kind": "perete",
    }
    assert perete["stones"]["postre"] == plain["stones"]["postre"] + 1


def test_the_tio_perete_stands_after_an_accepted_ordago():
    bets = {"grande": ["órdago", "quiero"]}
    result = run({"rules": {"tio_perete": True}, "hand": {"cards": PERETE, "bets": bets}})
    assert result["hand"]["events"] == [
        {"lance": "perete", "pair": "postre", "stones": 1, "kind": "perete"}
    ]


@pytest.mark.parametrize(
    ("grande", "chica"),
    [
        (["envido", "quiero"], None),  # accepted: it would have been counted for nobody
        (["envido", "no quiero"], None),  # refused: its deje too
        (["paso", "paso", "paso", "paso"], ["órdago", "quiero"]),
    ],
)
def test_nothing_is_bet_after_the_tio_perete_won_the_game(grande, chica):
    # 000: the tío Perete is shown «before starting to play», so it is counted first, and the
    # first pair to reach the target wins there and then (001, 004): at 39 the pareja B (the
    # second seat holds 4-5-6-7) won before any lance, as after a deje that wins the game
    bets = {"grande": grande} | ({"chica": chica} if chica else {})
    request = {
        "rules": {"tio_perete": True},
        "start": {"A": 0, "B": 39},
        "hands": [{"cards": PERETE, "bets": bets}],
    }
    with pytest.raises(EntryAfterEnd) as error:
        run(request)
    assert error.value.code == "bet_after_perete_won"
    later = "chica" if chica else "grande"
    assert error.value.message == (
        f"Hand 1: The tío Perete's stone reached 40 and won the game before any lance was "
        f"played: nothing can be bet in {later}."
    )
    check_spanish(error.value)
    # the same hand without a bet wins the game 0-40 for the pareja B
    request["hands"] = [{"cards": PERETE, "bets": {"grande": ["paso"] * 4}}]
    assert run(request)["match"]["games"][0]["stones"] == {"A": 0, "B": 40}


def test_nothing_is_written_as_bet_after_the_tio_perete_won_the_game():
    declared = {
        "pares": ["none", "none", "par", "medias"],
        "juego": [31, "none", "none", 31],
        "perete": [1],
    }
    lances = {
        "grande": {"to": "mano", "how": "paso"},
        "chica": {"to": "postre", "how": "querido", "stones": 2},
        "pares": {"to": "postre", "how": "paso", "bonus": 2},
        "juego": {"to": "mano", "how": "paso", "bonus": 3},
    }
    request = {
        "rules": {"tio_perete": True},
        "start": {"A": 0, "B": 39},
        "hands": [{"lances": lances, "declarations": declared}],
    }
    with pytest.raises(EntryAfterEnd) as error:
        run(request)
    assert error.value.code == "bet_after_perete_won"
    lances["chica"] = {"to": "postre", "how": "paso"}
    assert run(request)["match"]["games"][0]["winner"] == "B"


def test_a_declared_tio_perete_must_be_played_and_held():
    decl = {
        "pares": ["none", "none", "par", "medias"],
        "juego": [31, "none", "none", 31],
        "winners": {"grande": "mano", "chica": "postre"},
        "perete": [1],
    }
    with pytest.raises(ScoringError) as error:
        run({"hand": {"declarations": decl}})
    assert error.value.code == "perete_off"
    decl["perete"] = [2]
    decl["winners"] = {}
    decl["pares"] = ["none", "none", "par", "medias"]
    with pytest.raises(ScoringError) as error:
        run({"rules": {"tio_perete": True}, "hand": {"declarations": decl, "cards": PERETE}})
    assert error.value.code == "perete_contradicts_cards"
    assert check_spanish(error.value) == (
        "Se ha anotado que el tercer jugador enseñó el tío Perete (4-5-6-7), pero tiene 6-5-5-4."
    )


def test_a_forgotten_stone_is_lost_once_the_next_hand_is_entered():
    # 004: «perd le droit à le faire lorsque le jeu de cartes est coupé»
    rules = RuleSet(forgotten_stones_lost=True)
    assert rules.hand_correctable(3, 3)
    assert not rules.hand_correctable(2, 3)
    assert RuleSet().hand_correctable(1, 3)
