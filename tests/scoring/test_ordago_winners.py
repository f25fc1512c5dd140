"""An órdago accepted in a later lance: the winners of the lances before it are not needed.

Sources: 001 «si el otro equipo acepta, el ganador habrá ganado directamente la partida … lo que
pase después no va a afectar»; 000 «'Órdago', which, if accepted, ends the whole game». So an
accepted bet or a lance en paso before the órdago is never counted, and a table entering the
hand without cards need not say who won it; a deje before it counts at once and needs no winner
either. A winner that is given must still agree with the declarations (or the cards).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import run
from scoring.errors import ScoringError

pytestmark = pytest.mark.usefixtures("engine_path")

SIDES = ("mano", "postre")
NONE4 = ["none"] * 4


def score(hand: dict) -> dict:
    return run({"rules": {}, "hand": hand})["hand"]


def test_ordago_in_chica_needs_no_winner_of_grande():
    # grande: envido querido (not counted); chica: órdago querido, won by the pareja postre
    hand = {
        "declarations": {"pares": NONE4, "juego": NONE4, "winners": {"chica": "postre"}},
        "bets": {"grande": ["envido", "quiero"], "chica": ["órdago", "quiero"]},
    }
    result = score(hand)
    assert result["ordago"] == {"lance": "chica", "pair": "postre", "stones": 0, "kind": "ordago"}
    assert result["events"] == []
    grande = result["lances"][0]
    assert grande["winner"] is None
    assert grande["reason"] == "not counted: the órdago accepted after grande ended the game"


def test_a_deje_before_the_ordago_stands_without_a_winner():
    hand = {
        "declarations": {"pares": NONE4, "juego": NONE4, "winners": {"punto": "mano"}},
        "bets": {"grande": ["envido", "no quiero"], "punto": ["paso", "órdago", "quiero"]},
    }
    result = score(hand)
    assert [(e["lance"], e["pair"], e["stones"], e["kind"]) for e in result["events"]] == [
        ("grande", "mano", 1, "deje")
    ]
    assert result["ordago"]["pair"] == "mano"


def test_without_an_accepted_ordago_the_winner_is_still_asked():
    hand = {
        "declarations": {"pares": NONE4, "juego": NONE4, "winners": {"chica": "postre"}},
        "bets": {"chica": ["órdago", "no quiero"]},
    }
    with pytest.raises(ScoringError) as error:
        score(hand)
    assert error.value.code == "winner_missing"


def test_a_given_winner_must_still_agree_with_the_declarations():
    # duples against par: pares is the pareja mano's, whatever the órdago in juego does
    hand = {
        "declarations": {
            "pares": ["duples", "par", "none", "none"],
            "juego": [31, 40, "none", "none"],
            "winners": {"pares": "postre", "juego": "mano"},
        },
        "bets": {"juego": ["órdago", "quiero"]},
    }
    with pytest.raises(ScoringError) as error:
        score(hand)
    assert error.value.code == "winner_contradicts"


PARES = st.sampled_from(("none", "par", "medias", "duples"))
JUEGO = st.sampled_from(("none", 31, 32, 40, "other"))
BETS = st.sampled_from(
    ([], ["envido", "quiero"], ["envido", "no quiero"], ["paso", "envido", "2 más", "no quiero"])
)


@st.composite
def ordago_hands(draw):
    """A hand without cards whose órdago is accepted in a lance after grande, the bettings
    before it anything, and each earlier winner given or not (as the pair or left out)."""
    pares = [draw(PARES) for _ in range(4)]
    juego = [draw(JUEGO) for _ in range(4)]
    sides_pares = {s % 2 for s in range(4) if pares[s] != "none"}
    sides_juego = {s % 2 for s in range(4) if juego[s] != "none"}
    last = "juego" if sides_juego else "punto"
    lances = ["grande", "chica", "pares", last]
    played = {
        "grande": True,
        "chica": True,
        "pares": len(sides_pares) == 2,
        last: last == "punto" or len(sides_juego) == 2,
    }
    ordago_at = draw(st.sampled_from([k for k in (1, 2, 3) if played[lances[k]]]))
    bets = {lances[k]: draw(BETS) for k in range(ordago_at) if played[lances[k]]}
    bets[lances[ordago_at]] = ["órdago", "quiero"]
    winners = {lances[ordago_at]: draw(st.sampled_from(SIDES))}
    earlier = {
        lances[k]: draw(st.sampled_from((None, *SIDES)))
        for k in range(ordago_at)
        if played[lances[k]]
    }
    declarations = {"pares": pares, "juego": juego, "winners": winners}
    return declarations, bets, {k: v for k, v in earlier.items() if v is not None}


def outcome(hand: dict):
    try:
        result = score(hand)
    except ScoringError as error:
        return error.code
    return result["ordago"], result["events"]


@given(ordago_hands())
def test_earlier_winners_are_never_needed_and_change_nothing(case):
    declarations, bets, earlier = case
    without = outcome({"declarations": declarations, "bets": bets})
    if without == "winner_contradicts":  # the órdago's own winner: the declarations decide it
        ((lance, side),) = declarations["winners"].items()
        declarations["winners"] = {lance: SIDES[1 - SIDES.index(side)]}
        without = outcome({"declarations": declarations, "bets": bets})
    # the winners before the órdago are never asked for
    assert without != "winner_missing"
    assert not isinstance(without, str), without
    ordago, events = without
    lance = next(name for name, said in bets.items() if said == ["órdago", "quiero"])
    assert ordago == {
        "lance": lance,
        "pair": declarations["winners"][lance],
        "stones": 0,
        "kind": "ordago",
    }
    # only the dejes before it count, each at once
    assert all(e["kind"] == "deje" for e in events)
    assert len(events) == sum(1 for said in bets.values() if said and said[-1] == "no quiero")
    # given, they change nothing, or are refused because the declarations say otherwise
    given_too = dict(declarations, winners={**declarations["winners"], **earlier})
    with_winners = outcome({"declarations": given_too, "bets": bets})
    assert with_winners in (without, "winner_contradicts", "winner_not_held"), with_winners
