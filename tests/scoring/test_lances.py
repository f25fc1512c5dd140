"""Hands written as an anotador writes them (scoring.lances): worked examples and properties
against a small model written here from the rules sources, not from the engine."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import DeclarationError, EntryAfterEnd, GameEntryError, RuleSet, run
from scoring.errors import ScoringError
from tests.scoring.spanish import check_spanish

SIDES = ("mano", "postre")

#: the issue's paper anotador: "grande, deje, 1 to A; chica 5 querido to B; pares: B duples and
#: par, 4; juego A 31 and 33, 5" (A the pareja mano)
PAPER = {
    "grande": {"to": "mano", "how": "deje", "stones": 1},
    "chica": {"to": "postre", "how": "querido", "stones": 5},
    "pares": {"to": "postre", "how": "paso", "bonus": 4},
    "juego": {"to": "mano", "how": "paso", "bonus": 5},
}
#: an órdago accepted in chica, taken by the pareja mano
PAPER_ORDAGO = {"to": "mano", "how": "ordago"}
#: cards that agree with PAPER
PAPER_CARDS = [
    "Ro Co 7o 4o",  # mano: 31 (10+10+7+4), no pares
    "Rb Rc 1b 1c",  # second: duples of reyes and ases, 22
    "Sc Se 6e 7e",  # third (mano's partner): par of sotas, 33... (10+10+6+7)
    "4c 4e 5c 6c",  # postre: par of cuatros, 19
]


def score(hand: dict, rules: dict | None = None) -> dict:
    return run({"rules": rules or {}, "hand": hand})["hand"]


def refused(hand: dict, rules: dict | None = None) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        score(hand, rules)
    return error.value


# ---------------------------------------------------------------------------------------------
# Worked examples


def test_the_paper_anotador_of_the_issue():
    result = score({"lances": PAPER})
    assert result["stones"] == {"mano": 6, "postre": 9}
    # 004 «la première chose qui est encaissée est le "Non"»: the deje first, then the count
    assert [(e["lance"], e["pair"], e["stones"], e["kind"]) for e in result["events"]] == [
        ("grande", "mano", 1, "deje"),
        ("chica", "postre", 5, "envite"),
        ("pares", "postre", 4, "bonus"),
        ("juego", "mano", 5, "bonus"),
    ]


def test_totals_must_be_the_sum_of_the_parts():
    assert score({"lances": PAPER, "totals": {"mano": 6, "postre": 9}})["stones"]["mano"] == 6
    error = refused({"lances": PAPER, "totals": {"mano": 7, "postre": 9}})
    assert error.code == "total_not_sum"
    assert error.message == ("Pareja mano has 7 written as its total, but its lances add up to 6.")


def test_every_figure_must_agree_with_the_cards_and_the_first_that_does_not_is_named():
    # pares: the pareja postre holds duples (second) and a par (postre): 3 + 1 = 4, as written;
    # the pareja mano's par of sotas is worse than duples. Writing 3 is refused:
    wrong = {**PAPER, "pares": {"to": "postre", "how": "paso", "bonus": 3}}
    cards = ["Ro Co 7o 4o", "Rb Rc 1b 1c", "Sc Se 6e 7e", "4c 4e 5c 6c"]
    error = refused({"lances": wrong, "cards": cards})
    assert error.code == "bonus_contradicts"
    assert error.message == "Pareja postre claims 3 for pares but holds duples and par: 4."


def test_a_bonus_written_for_one_holder_names_the_nothing_else():
    cards = ["Ro Co 7o 4o", "Rb Rc 1b 1c", "Sc Se 6e 7e", "4c 2e 5c 6c"]
    error = refused({"lances": PAPER, "cards": cards})
    assert error.message == (
        "Pareja postre claims 4 for pares but holds duples and nothing else: 3."
    )


def test_the_paper_entry_agrees_with_its_cards():
    cards = ["Ro Co 7o 4o", "Rb Rc 1b 1c", "Sc Se 6e 7e", "4c 4e 5c 6c"]
    result = score({"lances": PAPER, "cards": cards})
    assert result["stones"] == {"mano": 6, "postre": 9}


def test_a_deje_is_an_amount_a_refused_bet_can_leave():
    # 001: a first envite refused gives 1; a raise refused gives the bet before it, which is
    # at least the minimum envite and may be a whole game or more (004 «Note»: a bet above the
    # target is legal), as the betting says it: envido 40, órdago, no quiero leaves 40
    for stones, ok in ((0, False), (1, True), (2, False), (3, True), (39, True), (40, True)):
        hand = {**PAPER, "grande": {"to": "mano", "how": "deje", "stones": stones}}
        if ok:
            assert score({"lances": hand}, {"min_envite": 3})["stones"]["mano"] == 5 + stones
        else:
            assert refused({"lances": hand}, {"min_envite": 3}).code == "deje_impossible"


@pytest.mark.parametrize(
    ("bets", "point"),
    [
        # a bet of a whole game raised by an órdago and refused leaves the whole game
        (["envido 40", "órdago", "no quiero"], {"to": "postre", "how": "deje", "stones": 40}),
        # a bet above a game, raised and refused (004 «Note»: a bet above the target is legal)
        (["envido 50", "5 más", "no quiero"], {"to": "postre", "how": "deje", "stones": 50}),
        (["envido 50", "quiero"], {"to": "postre", "how": "querido", "stones": 50}),
    ],
)
def test_the_betting_and_the_anotador_take_the_same_bets_of_a_game_or_more(bets, point):
    """What the betting accepts, the paper entry of the same hand accepts too, and both score it
    alike: one rule on the size of a bet and of the deje it leaves (docs/rules.md, «Betting»)."""
    by_bets = score({"cards": PAPER_CARDS, "bets": {"grande": bets}})
    by_paper = score({"lances": {**PAPER, "grande": point}, "cards": PAPER_CARDS})
    grande = [
        (e["pair"], e["stones"], e["kind"]) for e in by_bets["events"] if e["lance"] == "grande"
    ]
    paper = [
        (e["pair"], e["stones"], e["kind"]) for e in by_paper["events"] if e["lance"] == "grande"
    ]
    assert (
        grande
        == paper
        == [(point["to"], point["stones"], "deje" if point["how"] == "deje" else "envite")]
    )


def test_sin_deje_a_refused_envite_gives_nothing():
    hand = {**PAPER, "grande": {"to": "mano", "how": "deje"}}
    assert score({"lances": hand}, {"dejes": False})["stones"]["mano"] == 5
    hand["grande"]["stones"] = 1
    assert refused({"lances": hand}, {"dejes": False}).code == "deje_sin_deje"


def test_impossible_bonuses_are_refused():
    assert refused({"lances": {**PAPER, "pares": {"to": "postre", "bonus": 7}}}).code == (
        "bonus_impossible"
    )
    assert refused({"lances": {**PAPER, "juego": {"to": "mano", "bonus": 1}}}).code == (
        "bonus_impossible"
    )
    punto = {k: v for k, v in PAPER.items() if k != "juego"}
    assert refused({"lances": {**punto, "punto": {"to": "mano", "bonus": 2}}}).code == (
        "punto_bonus"
    )


def test_lances_after_an_accepted_ordago_are_refused():
    hand = {"grande": PAPER["grande"], "chica": {"to": "postre", "how": "ordago"}}
    result = score({"lances": hand})
    assert result["ordago"] == {"lance": "chica", "pair": "postre", "stones": 0, "kind": "ordago"}
    assert result["events"] == [{"lance": "grande", "pair": "mano", "stones": 1, "kind": "deje"}]
    error = refused({"lances": {**hand, "pares": PAPER["pares"]}})
    assert error.code == "lance_after_ordago"


def test_totals_written_on_a_sheet_ended_by_an_ordago_are_what_it_counted():
    # 003: an accepted órdago wins "without considering any other bids made before", and the
    # dejes already scored stand: a sheet ended by one counts its dejes, and its totals must
    # say so like any other sheet's
    hand = {"grande": {"to": "mano", "how": "deje", "stones": 2}, "chica": PAPER_ORDAGO}
    ok = score({"lances": hand, "totals": {"mano": 2, "postre": 0}})
    assert ok["stones"] == {"mano": 2, "postre": 0} and ok["ordago"]["lance"] == "chica"
    error = refused({"lances": hand, "totals": {"mano": 1, "postre": 0}})
    assert error.code == "total_not_sum_ordago"
    assert error.message == (
        "Pareja mano has 1 written as its total, but the hand ended by the órdago in chica "
        "gives it 2 (the dejes before the órdago; nothing else counts)."
    )
    check_spanish(error)
    # an accepted bet before the órdago never reaches the count: it is not in the totals
    querido = {"grande": {"to": "postre", "how": "querido", "stones": 5}, "chica": PAPER_ORDAGO}
    assert refused({"lances": querido, "totals": {"mano": 0, "postre": 5}}).code == (
        "total_not_sum_ordago"
    )
    assert score({"lances": querido, "totals": {"mano": 0, "postre": 0}})["events"] == []


def test_totals_alone_are_checked_for_possibility():
    assert score({"totals": {"mano": 7, "postre": 3}})["stones"] == {"mano": 7, "postre": 3}
    assert refused({"totals": {"mano": 1, "postre": 1}}).code == "totals_too_few"
    assert refused({"totals": {"mano": -1, "postre": 5}}).code == "total_value"
    # a bet has no ceiling in the sources (004 «Note»): 400 can be one hand's; four lances won
    # with the largest bet recorded (9999) and every bonus is the most
    assert score({"totals": {"mano": 400, "postre": 5}})["stones"] == {"mano": 400, "postre": 5}
    assert refused({"totals": {"mano": 40_009, "postre": 5}}).code == "total_too_many"


def test_totals_alone_cannot_say_who_reached_the_target_first():
    with pytest.raises(DeclarationError) as error:
        run({"start": {"A": 38, "B": 38}, "hands": [{"totals": {"mano": 4, "postre": 4}}]})
    assert error.value.code == "totals_both_reach_target"
    done = run({"start": {"A": 38, "B": 30}, "hands": [{"totals": {"mano": 4, "postre": 4}}]})
    assert done["match"]["games"][0]["winner"] == "A"


def test_a_bet_after_a_deje_that_won_the_game_is_refused():
    # 004: the deje is counted at once; the pair that reaches 40 first wins there and then
    bets = {"grande": ["envido", "no quiero"], "chica": ["envido", "quiero"]}
    with pytest.raises(EntryAfterEnd) as error:
        run({"start": {"A": 39, "B": 0}, "hands": [{"cards": PAPER_CARDS, "bets": bets}]})
    assert error.value.code == "bet_after_game_won"
    lances = {**PAPER, "chica": {"to": "postre", "how": "querido", "stones": 2}}
    with pytest.raises(EntryAfterEnd):
        run({"start": {"A": 39, "B": 0}, "hands": [{"lances": lances}]})
    ok = {"grande": ["envido", "no quiero"]}
    won = run({"start": {"A": 39, "B": 0}, "hands": [{"cards": PAPER_CARDS, "bets": ok}]})
    assert won["match"]["games"][0]["stones"] == {"A": 40, "B": 0}


@pytest.mark.parametrize(
    ("start", "code"),
    [
        ((40, 0), "start_at_target"),
        ((0, -2), "start_stones_value"),
        ((3.5, 0), "start_stones_value"),
    ],
)
def test_a_start_score_at_the_target_negative_or_not_whole_is_refused(start, code):
    with pytest.raises(GameEntryError) as error:
        run({"start": list(start), "hands": []})
    assert error.value.code == code


def test_an_opening_bet_naming_a_pair_must_agree_with_the_pasos_before_it():
    # grande: mano, second and third passed; only postre is left, so "mano: envido" cannot be
    bets = {"grande": ["paso", "paso", "paso", "mano: envido", "quiero"]}
    error = refused({"cards": PAPER_CARDS, "bets": bets})
    assert error.code == "bet_after_own_pasos"
    # one paso: mano's partner has not spoken yet, and may open
    assert score({"cards": PAPER_CARDS, "bets": {"grande": ["paso", "mano: envido", "quiero"]}})


# ---------------------------------------------------------------------------------------------
# Properties against a model written from the sources


def model_deje(stones: int, min_envite: int) -> bool:
    """001: 1 for a first envite, else what was bet before the raise (≥ the minimum envite),
    whatever its size: 004 «Note», a bet above the target is legal."""
    return stones == 1 or min_envite <= stones


def model_bonuses(values: tuple[int, ...]) -> set[int]:
    """Sums of one value for each of one or two players of a pair (000 «Scoring»)."""
    return {sum(c) for n in (1, 2) for c in itertools.product(values, repeat=n)}


@given(
    stones=st.integers(0, 60),
    min_envite=st.integers(1, 5),
    target=st.integers(10, 50),
)
def test_a_deje_is_accepted_exactly_when_the_model_allows_it(stones, min_envite, target):
    hand = {"lances": {**PAPER, "chica": {"to": "postre", "how": "deje", "stones": stones}}}
    rules = {"min_envite": min_envite, "stones_per_game": target}
    if model_deje(stones, min_envite):
        assert score(hand, rules)["stones"]["postre"] == stones + 4
    else:
        assert refused(hand, rules).code == "deje_impossible"


@given(lance=st.sampled_from(("pares", "juego")), bonus=st.integers(0, 9))
def test_a_bonus_is_accepted_exactly_when_the_model_allows_it(lance, bonus):
    values = (1, 2, 3) if lance == "pares" else (2, 3)
    hand = {"lances": {**PAPER, lance: {"to": "postre", "how": "paso", "bonus": bonus}}}
    if bonus in model_bonuses(values):
        assert score(hand)
    else:
        assert refused(hand).code == "bonus_impossible"


@st.composite
def paper_hands(draw):
    """A hand as a paper anotador writes it, and the totals the sources give it."""
    min_envite = draw(st.integers(1, 3))
    totals = [0, 0]
    lances = {}
    for name in ("grande", "chica", "pares", "juego"):
        if name == "pares" and draw(st.booleans()):
            continue  # nobody had pares
        side = draw(st.integers(0, 1))
        how = draw(st.sampled_from(("paso", "deje", "querido")))
        point: dict = {"to": SIDES[side], "how": how}
        stones = 0
        if how == "deje":
            stones = draw(st.sampled_from((1, *range(max(2, min_envite), 61))))
            point["stones"] = stones
        elif how == "querido":
            stones = draw(st.integers(min_envite, 60))  # a bet may pass a game of 40
            point["stones"] = stones
        elif name in ("grande", "chica"):
            stones = 1  # 001: grande and chica en paso give 1
        if name in ("pares", "juego"):
            bonus = draw(
                st.sampled_from(sorted(model_bonuses((1, 2, 3) if name == "pares" else (2, 3))))
            )
            point["bonus"] = bonus
            stones += bonus
        totals[side] += stones
        lances[name] = point
    return {"min_envite": min_envite}, lances, totals


@given(paper_hands())
def test_a_valid_paper_hand_scores_its_totals(case):
    rules, lances, totals = case
    result = score({"lances": lances, "totals": {"mano": totals[0], "postre": totals[1]}}, rules)
    assert result["stones"] == {"mano": totals[0], "postre": totals[1]}
    dejes = [e for e in result["events"] if e["kind"] == "deje"]
    # 004: the dejes are counted first, in the order of the lances
    assert result["events"][: len(dejes)] == dejes


@given(paper_hands(), st.integers(1, 5), st.sampled_from((0, 1)))
def test_a_wrong_total_is_refused(case, off, side):
    rules, lances, totals = case
    totals[side] += off
    error = refused({"lances": lances, "totals": {"mano": totals[0], "postre": totals[1]}}, rules)
    assert error.code == "total_not_sum"


def test_rule_set_house_options_round_trip():
    rules = RuleSet.from_dict(
        {"real_31": "sota_of_suit", "real_31_suit": "oros", "tio_perete": True}
    )
    assert RuleSet.from_dict(rules.as_dict()) == rules


def test_a_tio_perete_declared_against_the_cards_is_named_in_a_paper_hand():
    """Lance points with both declarations and cards: a seat declared as showing the tío
    Perete (000 «Named hands») must hold 4-5-6-7, and the error names that seat."""
    declared = {
        "pares": ["none", "duples", "par", "par"],
        "juego": [31, "none", 33, "none"],
        "perete": [1],
    }
    hand = {"lances": PAPER, "cards": PAPER_CARDS, "declarations": declared}
    error = refused(hand, {"tio_perete": True})
    assert isinstance(error, DeclarationError)
    assert error.code == "perete_contradicts_cards"
    assert error.message.startswith(
        "The second was entered as showing the tío Perete (4-5-6-7), but holds "
    )
    check_spanish(error)
