"""Worked examples of the rules, each naming the rules source and the passage it follows.

The sources are numbered as in docs/rules.md: 000 an English encyclopedia article, 001 a
Spanish rules page, 002 and 004 the Polish and French translations of the Fournier rules, 003
an online Mus site's rules. Each example quotes the passage it follows, so it reads on its own.
"""

from __future__ import annotations

import pytest

from scoring import (
    GameEntry,
    MatchState,
    Real31,
    RuleSet,
    amarracos,
    apply_hand,
    hand_from_json,
    hand_value,
    parse_hand,
    play_match,
    record_games,
    score_hand,
)
from scoring.betting import Outcome

# every test here runs with the C speed-up and in plain Python (tests/scoring/conftest.py)
pytestmark = pytest.mark.usefixtures("engine_path")

EIGHT = RuleSet()  # 8 reyes, 40 stones, 3 games a vaca, dejes on
FOUR = RuleSet(kings=4)

# A deal where nobody ties in any lance (seat order from mano):
#   mano    R R C 1 : grande best, par de reyes, 31
#   second  S S 7 6 : par de sotas, 33
#   third   C C 5 4 : par de caballos (mano's partner), 29 — no juego
#   postre  1 1 4 5 : chica best (1-1-4-5), par de ases, 11
DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]


def score(cards=DEAL, rules=EIGHT, **bets):
    return score_hand(rules, hand_from_json({"cards": cards, "bets": bets}, rules))


def stones(result):
    return result.stones


class TestCards:
    def test_eight_kings_three_is_rey_and_two_is_as(self):
        # 000 «Pares»: "a hand such as 'King-3-2-Ace' is effectively a Two-pair of Kings and Aces"
        value = hand_value(parse_hand("Ro 3c 2e 1b"), kings=8)
        assert value.describe("pares") == "duples de reyes y ases"
        # 004 «Ordre et valeur»: with 4 kings "les trois et deux conservant leur valeur naturelle"
        assert hand_value(parse_hand("Ro 3c 2e 1b"), kings=4).pares == 0

    def test_eight_kings_juego_sum(self):
        # 000 «Juego»: "a hand like 'King-3-3-2' will add up to 31 points"
        assert hand_value(parse_hand("Ro 3c 3e 2b"), kings=8).points == 31
        assert hand_value(parse_hand("Ro 3c 3e 2b"), kings=4).points == 18

    def test_grande_compares_card_by_card(self):
        # 001 «La grande»: "tres reyes y una sota superará a tres reyes y un as"
        a = hand_value(parse_hand("Ro Rc Re So"))
        b = hand_value(parse_hand("3o 3c Rb 1o"))
        assert a.grande_rank > b.grande_rank
        # 000 «Grande»: 'King-King-Knight-7' better than 'King-Knight-Knight-7'
        assert (
            hand_value(parse_hand("Ro Rc Cc 7o")).grande_rank
            > hand_value(parse_hand("Re Co Ce 7c")).grande_rank
        )

    def test_chica_lowest_wins(self):
        # 000 «Chica»: 'Ace-Ace-5-Knight' better than 'Ace-Ace-5-King'
        assert (
            hand_value(parse_hand("1o 1c 5o Co")).chica_rank
            > hand_value(parse_hand("1e 1b 5c Ro")).chica_rank
        )

    def test_duples_compare_higher_pair_first(self):
        # 001 «Los pares»: "dos reyes y dos ases ganarán a 4 caballos"
        assert (
            hand_value(parse_hand("Ro Rc 1o 1c")).pares_rank
            > hand_value(parse_hand("Co Cc Ce Cb")).pares_rank
        )
        # 001: duples > medias > par
        medias = hand_value(parse_hand("Ro Rc Re 4o"))
        par = hand_value(parse_hand("Ro Rc 5e 4o"))
        duples = hand_value(parse_hand("4c 4e 5o 5c"))
        assert duples.pares_rank > medias.pares_rank > par.pares_rank

    def test_juego_order(self):
        # 001 «El juego»: "31, 32, 40, 37, 36, 35, 34, 33 (no es posible sumar 38 ni 39)"
        hands = {
            31: "Ro Rc Cc 1b",
            32: "Ro Rc Cc 2b",
            40: "Ro Rc Cc Sb",
            37: "Ro Rc Cc 7b",
            36: "Ro Rc Cc 6b",
            35: "Ro Rc Cc 5b",
            34: "Ro Rc Cc 4b",
            33: "Ro Rc Cc 3b",
        }
        ranks = [hand_value(parse_hand(hands[v]), kings=4).juego_rank for v in hands]
        assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 8

    def test_31_real(self):
        # 000 «Named hands»: "31 Real: Jack-7-7-7"; 003 «Table options»: sevens and a knave win
        # "including if there is a tie"
        real = hand_value(parse_hand("So 7c 7e 7b"), real_31=Real31.SOTA_777)
        plain = hand_value(parse_hand("Ro Rc Cc 1b"), real_31=Real31.SOTA_777)
        assert real.real and real.juego_rank > plain.juego_rank
        # "Some people would allow King-7-7-7": only with the figure option
        assert not hand_value(parse_hand("Ro 7c 7e 7b"), real_31=Real31.SOTA_777).real
        assert hand_value(parse_hand("Ro 7c 7e 7b"), real_31=Real31.FIGURE_777).real
        assert not hand_value(parse_hand("So 7c 7e 7b")).real


class TestLances:
    def test_reasons_say_why(self):
        result = score()
        grande, chica, pares, juego = result.lances
        assert grande.seat == 0 and grande.reason == "R-R-C-1 beats S-S-7-6"
        assert chica.seat == 3 and chica.side == 1
        assert pares.reason == "par de reyes beats par de sotas"
        assert juego.reason == "juego de 31 beats juego de 33"

    def test_tie_goes_to_the_player_nearer_mano(self):
        # 001 «La grande»: "En el caso de que dos jugadores tengan las mismas cartas ganará el
        # jugador que sea mano, o el jugador más cercano a este"
        cards = ["Ro Cc 7e 6b", "Rc Co 7o 6c", "4o 4c 5e 5b", "1o 1c 2e 2b"]
        result = score(cards)
        grande = result.lances[0]
        assert grande.seat == 0 and grande.tie
        assert "the player nearer mano wins" in grande.reason
        # the same cards with mano's pair the other way round: the postre pair's player now
        # sits nearer mano and takes the tie
        swapped = score([cards[1], cards[0], cards[3], cards[2]])
        assert swapped.lances[0].seat == 0 and swapped.lances[0].side == 0

    def test_punto_when_nobody_has_juego(self):
        # 001 «El juego»: "En el caso de que ningún jugador tenga juego ... se pasará a jugar el
        # punto"; 004: "Jeu non ou point, 1 caillou"
        cards = ["Ro Cc 5e 4b", "So 7c 6e 1b", "1o 1c 2e 2b", "4o 4c 5o 6c"]
        result = score(cards)
        assert result.lances[3].lance == "punto"
        # mano's R-C-5-4 makes 29, the best punto
        assert result.lances[3].seat == 0
        assert result.lances[3].reason == "punto de 29 beats punto de 24"
        punto_events = [e for e in result.events if e.lance == "punto"]
        assert [(e.side, e.stones, e.kind) for e in punto_events] == [(0, 1, "bonus")]


class TestBetting:
    def test_refused_raise_gives_the_bet_before_it(self):
        # 001 «Sistema de apuestas»: "si empieza envidando, el siguiente sube la apuesta
        # diciendo 'tres más' (se jugarían 5), el siguiente vuelve a subir ... 'cuatro más' y el
        # otro equipo no quiere; se apuntarían cinco"
        result = score(grande=["envido", "tres más", "cuatro más", "no quiero"])
        dejes = [e for e in result.events if e.kind == "deje"]
        assert [(e.side, e.stones) for e in dejes] == [(0, 5)]

    def test_first_envite_refused_is_one_stone(self):
        # 000 «Playing»: "If the first bid is not accepted, the bidder scores one point right
        # away"; 003: "If it is the first bid, the pair scores 1 point"
        result = score(grande=["paso", "envido", "no quiero"])
        assert [(e.side, e.stones, e.kind) for e in result.events[:1]] == [(1, 1, "deje")]
        assert result.lances[0].outcome is Outcome.NO_QUERIDO and result.lances[0].side == 1

    def test_sin_deje(self):
        rules = RuleSet(dejes=False)
        result = score(rules=rules, grande=["envido", "no quiero"])
        assert not [e for e in result.events if e.kind == "deje"]
        assert result.lances[0].side == 0  # the lance still goes to the pair that bet

    def test_accepted_bet_goes_to_the_cards(self):
        # 001: "se dejará a un lado y al final ... El equipo ganador se llevará la cantidad"
        # postre opens with 4 and mano accepts: mano has the best grande
        result = score(grande=["paso", "envido 4", "quiero"])
        assert [(e.lance, e.side, e.stones, e.kind) for e in result.events][:1] == [
            ("grande", 0, 4, "envite")
        ]

    def test_raise_to_a_total_and_una_mas(self):
        result = score(chica=["envido", "a 5", "una más", "quiero"])
        chica = [e for e in result.events if e.lance == "chica"]
        assert [(e.side, e.stones) for e in chica] == [(1, 6)]

    def test_bets_above_the_target_are_counted_at_the_end(self):
        # 004 «Note»: "même lorsqu'elle est très supérieure aux 40 cailloux ... le jeu n'est
        # encore ni gagné ni perdu, et il faut continuer à jouer jusqu'à la fin"
        result = score(grande=["envido 50", "quiero"])
        assert result.events[0].stones == 50 and result.ordago is None


class TestBonuses:
    def test_pares_and_juego_bonuses_when_only_one_pair_has_juego(self):
        # 000 «Juego»: "If none of the players of a team can play, the round is finished and
        # the other team will score the round"; 004 «Valeur des coups»
        result = score()
        by_lance = {(e.lance, e.kind): (e.side, e.stones) for e in result.events}
        assert by_lance[("grande", "paso")] == (0, 1)
        assert by_lance[("chica", "paso")] == (1, 1)
        assert by_lance[("pares", "bonus")] == (0, 2)  # par de reyes + par de caballos
        # mano's 31 beats 33; mano's partner has 29: 3 stones
        assert by_lance[("juego", "bonus")] == (0, 3)

    def test_31_and_40_make_five(self):
        # 001 «Recuento»: "si yo tengo 31 y mi compañero tiene 40, sumaríamos 5 puntos"
        cards = ["Ro Rc Cc 1b", "4o 5c 6e 7b", "So Sc Ce Cb", "1o 1c 2e 4e"]
        result = score(cards)
        juego = [e for e in result.events if e.lance == "juego"]
        assert [(e.side, e.stones) for e in juego] == [(0, 5)]

    def test_refusing_pares_loses_the_bonus_even_with_better_cards(self):
        # 001: "Si una pareja no ha querido un envite ... esa fase ya la han perdido ... estos
        # puntos extra se los seguirá apuntando la pareja que ha logrado ganar la fase"
        # postre (par de sotas, par de ases) bets pares; mano (better) refuses
        result = score(pares=["paso", "envido", "no quiero"])
        pares = [(e.side, e.stones, e.kind) for e in result.events if e.lance == "pares"]
        assert pares == [(1, 1, "deje"), (1, 2, "bonus")]

    def test_refused_punto_is_deje_plus_one(self):
        # 004 «Jeu non»: "il emporte sur-le-champ un caillou ... et il en encaissera un autre
        # pour le point à la fin, même si celui-ci était inférieur"
        cards = ["Ro Cc 5e 4b", "So 7c 6e 1b", "1o 1c 2e 2b", "4o 4c 5o 6c"]
        result = score(cards, punto=["paso", "paso", "envido", "no quiero"])
        punto = [(e.side, e.stones, e.kind) for e in result.events if e.lance == "punto"]
        assert punto == [(0, 1, "deje"), (0, 1, "bonus")]


class TestGame:
    def _state(self, a, b, mano=0, rules=EIGHT):
        state = MatchState.start(rules, mano)
        return state.__class__(
            **{**{f: getattr(state, f) for f in state.__slots__}, "stones": (a, b)}
        )

    def test_dejes_count_first(self):
        # 004 «Valeur des coups»: "la première chose qui est encaissée est le 'Non' ou
        # 'laissé'"; 002 likewise. A (mano, 39) would take grande en paso at the count, but B's
        # deje in pares (A refuses) comes first: B reaches 40 and wins.
        state = self._state(39, 39)
        record = hand_from_json(
            {"cards": DEAL, "bets": {"pares": ["paso", "envido", "no quiero"]}}, EIGHT
        )
        state, outcome = apply_hand(state, record)
        assert outcome.game.winner == 1 and outcome.game.stones == (39, 40)
        assert [e.kind for e in outcome.applied] == ["deje"]

    def test_first_to_reach_wins_there_and_then(self):
        # 001 «Cómo apuntar»: "Ganará el que consiga sumar 40 puntos o más y si ambos lo consiguen
        # el que lo haya hecho antes. Para esto es importante seguir el orden"
        state = self._state(35, 39)
        record = hand_from_json({"cards": DEAL, "bets": {"grande": ["envido 5", "quiero"]}}, EIGHT)
        state, outcome = apply_hand(state, record)
        # A reaches 40 with grande; B's chica stone never counts
        assert outcome.game.winner == 0 and outcome.game.stones == (40, 39)
        assert state.stones == (0, 0) and state.vaca_games == (1, 0)

    def test_ordago_accepted_ends_the_game(self):
        # 001: "Si un jugador dice 'órdago' ... si el otro equipo acepta, el ganador habrá
        # ganado directamente la partida"; 003: "without considering any other bids made before"
        state = self._state(10, 30)
        record = hand_from_json(
            {
                "cards": DEAL,
                "bets": {
                    "grande": ["envido", "quiero"],
                    "chica": ["envido", "no quiero"],
                    "pares": ["órdago", "quiero"],
                },
            },
            EIGHT,
        )
        state, outcome = apply_hand(state, record)
        # the deje in chica stands (A 11), grande's accepted envite does not count
        assert outcome.game.winner == 0 and outcome.game.ordago
        assert outcome.game.stones == (11, 30)

    def test_ordago_refused_is_a_deje(self):
        result = score(grande=["envido", "órdago", "no quiero"])
        assert [(e.side, e.stones, e.kind) for e in result.events][:1] == [(1, 2, "deje")]

    def test_mano_passes_to_the_right_and_games_rotate(self):
        # 001 «Preparación»/«Recuento»: "pasará a repartir el jugador de la derecha"; 000: "the
        # dealer will be the last game's first player"
        rules = RuleSet(stones_per_game=10, games_per_vaca=2)
        hand = {"cards": DEAL, "bets": {"grande": ["envido 10", "quiero"]}}
        small = {"cards": DEAL}
        state, outcomes = play_match(
            rules, [hand_from_json(h, rules) for h in (small, hand, small)], first_mano=0
        )
        assert [o.mano for o in outcomes] == [0, 1, 1]
        # hand 2: mano is B1, so B holds the R-R-C-1 and wins grande: B wins game 1
        assert state.games[0].winner == 1
        # game 2 starts one position further on than game 1 started
        assert state.game_first_mano == 1 and state.mano == 2

    def test_vaca_and_match(self):
        # 004: "c'est le couple de joueurs qui gagne le premier 3 jeux complets ... qui gagne"
        rules = RuleSet(games_per_vaca=3, vacas_per_match=1)
        state = record_games(
            rules,
            [GameEntry((40, 10)), GameEntry((12, 40)), GameEntry((40, 39)), GameEntry((41, 0))],
            complete=True,
        )
        assert state.winner == 0 and state.vacas == (1, 0)

    def test_amarracos(self):
        # 004 «Mots employés»: "Amarrako. Représente la valeur de 5 cailloux."
        assert amarracos(23) == (4, 3)
        assert amarracos(40) == (8, 0)


def test_four_kings_rule_set():
    # 004: "on peut aussi jouer seulement avec les 4 rois et les 4 as"
    cards = ["3o 3c 2e 2b", "Ro Rc Co 1b", "4o 5c 6e 7b", "So Sc 7o 6c"]
    four = score(cards, rules=FOUR)
    eight = score(cards, rules=EIGHT)
    # with 8 reyes mano's 3-3-2-2 is R-R-1-1: the best chica; with 4 reyes the second's as wins
    assert eight.lances[1].seat == 0 and four.lances[1].seat == 1
    assert eight.lances[2].reason.startswith("duples de reyes y ases beats")
    assert four.lances[2].reason.startswith("duples de treses y doses beats")


@pytest.mark.parametrize("preset", ["8 reyes a 40", "4 reyes a 30", "4 reyes a 25"])
def test_presets(preset):
    from scoring import PRESETS

    rules = PRESETS[preset]
    assert RuleSet.from_dict(rules.as_dict()) == rules
