"""The engine names a match's teams with the word of its form: pareja in pairs, trío in trios
(scoring.errors.team_term), in English, Spanish, Basque and French, wherever a message names a
team — the games entered as stones and the betting of a lance — and a trio never reads "pair"."""

from __future__ import annotations

import pytest

from scoring import (
    BettingError,
    Form,
    GameEntry,
    GameEntryError,
    RuleSet,
    ScoringError,
    record_games,
    run,
)
from scoring.messages import scoring_translations

TRIOS = RuleSet(form=Form.TRIOS, players=6)
PAIRS = RuleSet()
SIX_NONE = ["none"] * 6


def _raised(call) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        call()
    return error.value


def _in(error: ScoringError, language: str) -> str:
    return error.render(scoring_translations(language))


@pytest.mark.parametrize(
    ("rules", "english", "spanish", "basque", "french"),
    [
        (
            TRIOS,
            "Game 1: trio B is given as the winner, but the stones 40-20 say trio A won.",
            "el ganador anotado es el trío B, pero con 40-20 ganó el trío A",
            "B hirukotea dago irabazle gisa markatuta, baina 40-20-rekin A hirukoteak",
            "le trio B est indiqué comme gagnant, mais avec 40-20 c'est le trio A",
        ),
        (
            PAIRS,
            "Game 1: pareja B is given as the winner, but the stones 40-20 say pareja A won.",
            "el ganador anotado es la pareja B, pero con 40-20 ganó la pareja A",
            "B bikotea dago irabazle gisa markatuta, baina 40-20-rekin A bikoteak",
            "le couple B est indiqué comme gagnant, mais avec 40-20 c'est le couple A",
        ),
    ],
)
def test_a_game_s_winner_is_named_with_the_form_s_word(rules, english, spanish, basque, french):
    error = _raised(lambda: record_games(rules, [GameEntry((40, 20), 1)]))
    assert isinstance(error, GameEntryError) and error.code == "winner_contradicts_stones"
    assert error.message == english
    assert spanish in _in(error, "es")
    assert basque in _in(error, "eu")
    assert french in _in(error, "fr")


def test_both_teams_at_the_target_are_both_trios_or_both_pairs():
    trios = _raised(lambda: record_games(TRIOS, [GameEntry((40, 41))]))
    pairs = _raised(lambda: record_games(PAIRS, [GameEntry((40, 41))]))
    assert trios.message.startswith("Game 1: both trios have 40 or more")
    assert pairs.message.startswith("Game 1: both pairs have 40 or more")
    assert _in(trios, "es").startswith("Juego 1: los dos tríos tienen 40 o más")
    assert _in(pairs, "es").startswith("Juego 1: las dos parejas tienen 40 o más")
    assert trios.code == pairs.code == "both_at_target"


def _hand(rules: RuleSet, bets: list[str], winners: dict) -> dict:
    seats = rules.players
    return {
        "rules": rules.as_dict(),
        "hand": {
            "bets": {"grande": bets},
            "declarations": {
                "pares": ["none"] * seats,
                "juego": ["none"] * seats,
                "punto": [30 - s for s in range(seats)],
                "winners": winners,
            },
        },
    }


@pytest.mark.parametrize(
    ("rules", "word", "palabra"), [(TRIOS, "trio", "el trío"), (PAIRS, "pareja", "la pareja")]
)
def test_a_bet_out_of_turn_names_the_form_s_teams(rules, word, palabra):
    error = _raised(
        lambda: run(_hand(rules, ["envido", "mano: quiero"], {"grande": "mano", "chica": "mano"}))
    )
    assert isinstance(error, BettingError) and error.code == "out_of_turn"
    assert f"after {word} mano bet, {word} postre answers" in error.message
    assert f"después de que envide {palabra} mano, contesta {palabra} postre" in _in(error, "es")
    if rules is TRIOS:
        assert "pair" not in error.message and "pareja" not in _in(error, "es")
