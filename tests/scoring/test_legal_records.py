"""An independent check of the entry forms: random legal records of each kind are accepted, and
the same records mutated into impossible ones are refused.

Each generator below builds a record from the rules sources, not from the engine (it imports
only its public ``run`` and its error classes), and knows what the record must score:

- a paper anotador's sheet (lance points, with its totals), which may end in an accepted órdago
  (003: the dejes before it stand, nothing else counts), mutated by a wrong total;
- the totals alone of a hand of individual Mus, mutated to pay more than four players (each of
  the four lances goes to one player: 000, 001);
- a hand whose tío Perete stone wins the game (000: shown «before starting to play», so counted
  first; 001/004: the first to reach the target wins there and then), mutated by a bet after it;
- a rule set of any form, mutated by an option its form does not play (the tío Perete outside
  pairs, chips outside Mus francés: 000, 001);
- a game ended by a bet of any size (004 «Note»: a bet has no ceiling), by its bets and as its
  final stones, mutated past what one bet can pay or past the largest bet recorded.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import ScoringError, run
from scoring.betting import MAX_BET

pytestmark = pytest.mark.usefixtures("engine_path")

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SIDES = ("mano", "postre")
PARES_VALUES = (1, 2, 3)  # par, medias, duples, per holder (000, 003, 004)
JUEGO_VALUES = (2, 3)  # any other juego, 31, per holder


def refused(request: dict) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        run(request)
    return error.value


def bonus_sums(values: tuple[int, ...], holders: int) -> list[int]:
    """A pair's bonus: one value for each of its holders, one or two of them."""
    one = set(values)
    return sorted(one | {a + b for a in values for b in values} if holders == 2 else one)


# ---------------------------------------------------------------------------------------------
# A paper anotador's sheet, which may end in an accepted órdago


@st.composite
def sheets(draw):
    """(rules, lances, totals): a pairs sheet and the stones each pair takes (004: the dejes at
    once, then the count; 003: an accepted órdago ends the hand, its dejes before it stand)."""
    dejes = draw(st.booleans())
    min_envite = draw(st.integers(1, 4))
    last = draw(st.sampled_from(("juego", "punto")))
    names = ["grande", "chica", *(["pares"] if draw(st.booleans()) else []), last]
    ordago_at = draw(st.sampled_from([None, *names]))
    lances: dict[str, dict] = {}
    dejes_taken, count = [0, 0], [0, 0]
    for name in names:
        side = draw(st.integers(0, 1))
        point: dict = {"to": SIDES[side]}
        if name == ordago_at:
            lances[name] = {**point, "how": "ordago"}
            return {"dejes": dejes, "min_envite": min_envite}, lances, dejes_taken
        how = draw(st.sampled_from(("paso", "deje", "querido")))
        point["how"] = how
        if how == "deje":
            if dejes:  # 1 for a first envite, else the bet before the raise (001)
                stones = draw(st.sampled_from((1, draw(st.integers(max(2, min_envite), 200)))))
                point["stones"] = stones
                dejes_taken[side] += stones
        elif how == "querido":
            point["stones"] = draw(st.integers(min_envite, 200))  # no ceiling: 004 «Note»
            count[side] += point["stones"]
        elif name in ("grande", "chica"):
            count[side] += 1  # 001: en paso, 1 to the winner
        if name in ("pares", "juego"):
            values = PARES_VALUES if name == "pares" else JUEGO_VALUES
            point["bonus"] = draw(st.sampled_from(bonus_sums(values, draw(st.integers(1, 2)))))
            count[side] += point["bonus"]
        elif name == "punto":
            count[side] += 1
        lances[name] = point
    return (
        {"dejes": dejes, "min_envite": min_envite},
        lances,
        [d + c for d, c in zip(dejes_taken, count, strict=True)],
    )


@SETTINGS
@given(sheets(), st.integers(-3, 3).filter(bool), st.integers(0, 1))
def test_a_sheet_is_taken_with_its_totals_and_refused_with_wrong_ones(case, off, side):
    rules, lances, totals = case
    written = {"mano": totals[0], "postre": totals[1]}
    result = run({"rules": rules, "hand": {"lances": lances, "totals": written}})["hand"]
    assert result["stones"] == written
    assume(totals[side] + off >= 0)
    written[SIDES[side]] += off
    error = refused({"rules": rules, "hand": {"lances": lances, "totals": written}})
    assert error.code in ("total_not_sum", "total_not_sum_ordago")


# ---------------------------------------------------------------------------------------------
# The totals alone of a hand of individual Mus


@st.composite
def individual_totals(draw):
    """(rules, totals): each lance goes to one player, so at most four players score; with
    dejes, grande and chica give 1 each and juego or punto 1 at least (001, 004)."""
    players = draw(st.integers(2, 6))
    dejes = draw(st.booleans())
    scorers = draw(
        st.lists(st.integers(0, players - 1), min_size=1, max_size=min(4, players), unique=True)
    )
    totals = [0] * players
    for seat in scorers:
        totals[seat] = draw(st.integers(1, 30))
    least = 3 if dejes else 1
    totals[scorers[0]] += max(0, least - sum(totals))
    return {"form": "individual", "players": players, "dejes": dejes}, totals


@SETTINGS
@given(individual_totals(), st.data())
def test_individual_totals_pay_four_players_at_most(case, data):
    rules, totals = case
    stones = run({"rules": rules, "hand": {"totals": totals}})["hand"]["stones"]
    # two players are named as the two sides of a table are: mano and postre
    assert (list(stones.values()) if isinstance(stones, dict) else stones) == totals
    if rules["players"] < 5:
        return
    spread = list(totals)
    for seat in data.draw(st.permutations(range(len(spread))))[:5]:
        spread[seat] = max(spread[seat], 1)  # five players or more score now
    error = refused({"rules": rules, "hand": {"totals": spread}})
    assert error.code == "totals_too_many_players"


# ---------------------------------------------------------------------------------------------
# A hand whose tío Perete wins the game

#: every card but the sevens, sixes, fives and fours of oros, which the tío Perete holds
_REST = [
    f"{rank}{suit}"
    for rank in ("1", "2", "3", "4", "5", "6", "7", "S", "C", "R")
    for suit in "ocbe"
    if not (suit == "o" and rank in "4567")
]
PERETE = "4o 5o 6o 7o"


def _perete(hand: list[str]) -> bool:
    return sorted(card[0] for card in hand) == ["4", "5", "6", "7"]


@st.composite
def perete_wins(draw):
    """(request, team, target): the first hand of a game where one seat shows 4-5-6-7 (000) and
    its team, at the target less one, wins with it before any lance."""
    target = draw(st.integers(10, 100))
    seat = draw(st.integers(0, 3))
    rest = draw(st.permutations(_REST))[:12]
    hands = [" ".join(rest[i : i + 4]) for i in range(0, 12, 4)]
    hands.insert(seat, PERETE)
    assume(sum(_perete(h.split()) for h in hands) == 1)
    team = seat % 2  # hand 1: mano is A1, seats alternate A, B
    other = draw(st.integers(0, target - 1))
    start = {"A": target - 1, "B": other} if team == 0 else {"A": other, "B": target - 1}
    request = {
        "rules": {"stones_per_game": target, "tio_perete": True},
        "start": start,
        "hands": [{"cards": hands, "bets": {"grande": ["paso"] * 4}}],
    }
    return request, "AB"[team], target


@SETTINGS
@given(
    perete_wins(),
    st.sampled_from(("grande", "chica")),
    st.sampled_from(
        (["envido", "quiero"], ["envido", "no quiero"], ["órdago", "quiero"], ["envido 50", "a 60"])
    ),
    st.integers(0, 3),
)
def test_nothing_follows_the_tio_perete_that_wins_the_game(case, lance, bet, pasos):
    request, team, target = case
    game = run(request)["match"]["games"][0]
    assert game["winner"] == team and game["stones"][team] == target
    actions = ["paso"] * pasos + bet
    if bet[-1] == "a 60":
        actions.append("no quiero")
    request["hands"][0]["bets"] = {lance: actions}
    assert refused(request).code == "bet_after_perete_won"


# ---------------------------------------------------------------------------------------------
# A rule set of any form


@st.composite
def rule_sets(draw):
    form = draw(st.sampled_from(("pairs", "trios", "individual", "frances")))
    players = {"pairs": (4, 4), "trios": (6, 6), "individual": (2, 6), "frances": (3, 6)}[form]
    rules: dict = {"form": form, "players": draw(st.integers(*players))}
    if form == "pairs":
        rules["tio_perete"] = draw(st.booleans())  # 000: a house rule of pairs
    if form == "frances":
        rules["chips"] = draw(st.sampled_from((10, 20)))  # 001: «10 o 20 fichas»
    return rules


@SETTINGS
@given(rule_sets(), st.sampled_from((10, 20)))
def test_an_option_is_taken_only_where_its_form_plays_it(rules, chips):
    assert run({"rules": rules, "hands": []})["match"]["hands"] == 0
    if rules["form"] != "pairs":
        assert refused({"rules": {**rules, "tio_perete": True}, "hands": []}).code == (
            "tio_perete_form"
        )
    if rules["form"] != "frances":
        assert refused({"rules": {**rules, "chips": chips}, "hands": []}).code == "chips_form"


# ---------------------------------------------------------------------------------------------
# A game ended by a bet of any size

# mano (A1) holds the best grande; nobody holds the tío Perete
DEAL = ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]


@st.composite
def big_bets(draw):
    """(request, team, stones): a game that a deje or an accepted envite of any size ends: the
    deje goes at once to the pair that raised (001, 004), the envite at the count to mano's
    pair, which holds the best grande; either ends the game at what was before plus the bet."""
    target = draw(st.integers(10, 100))
    bet = draw(st.integers(2, MAX_BET - 1))
    refusal = draw(st.booleans())
    team = 1 if refusal else 0
    before = draw(st.integers(max(0, target - bet), target - 1))  # the bet reaches the target
    start = [draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1))]
    start[team] = before
    actions = [f"envido {bet}", "1 más", "no quiero"] if refusal else [f"envido {bet}", "quiero"]
    request = {
        "rules": {"stones_per_game": target},
        "start": {"A": start[0], "B": start[1]},
        "hands": [{"cards": DEAL, "bets": {"grande": actions}}],
    }
    return request, "AB"[team], before + bet


@SETTINGS
@given(big_bets())
def test_a_game_ended_by_a_bet_of_any_size_is_taken_by_every_door(case):
    request, team, stones = case
    game = run(request)["match"]["games"][0]
    assert game["winner"] == team and game["stones"][team] == stones
    rules = request["rules"]
    as_stones = {"rules": rules, "games": [{"stones": game["stones"]}]}
    assert run(as_stones)["match"]["games"][0]["stones"] == game["stones"]
    # what no bet can pay: past the target less one and the largest bet recorded
    past = dict(game["stones"], **{team: rules["stones_per_game"] + MAX_BET})
    error = refused({"rules": rules, "games": [{"stones": past}]})
    assert error.code == "stones_above_limit"
    # and a bet past the largest recorded
    request["hands"][0]["bets"]["grande"] = [f"envido {MAX_BET}", "1 más", "quiero"]
    assert refused(request).code == "bet_above_limit"
