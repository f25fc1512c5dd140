"""A match of trios entered hand by hand: six seats scored by the engine's trios form, on the
same result flow as pairs (versions, idempotency keys, confirmation), and the rule set's form
derived from the tournament's entrant kind."""

from __future__ import annotations

import pytest

from config.errors import Conflict, Invalid
from scoring import Form, ScoringError
from tests.factories import MembershipFactory, TournamentFactory
from tournaments.models import Match, Tournament
from tournaments.selectors.rounds import phase_rules, rule_form
from tournaments.services import results as svc
from tournaments.services.entrants import trio_register_pasted
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = pytest.mark.django_db

#: mano's side (seats 0, 2, 4) has the best grande and duples; postre's side (1, 3, 5) the best
#: chica and juego (31 and 32)
ORDINARY = {
    "bets": {"grande": ["envido", "quiero"], "chica": ["paso", "envido", "no quiero"]},
    "declarations": {
        "pares": ["duples", "none", "par", "none", "none", "none"],
        "juego": ["none", "31", "none", "32", "none", "none"],
        "winners": {"grande": "mano", "chica": "postre"},
    },
}


def trios_match(stones: int = 40) -> tuple[Match, object]:
    t = TournamentFactory(
        entrant_kind=Tournament.EntrantKind.TRIOS, tables_available=0, stones_per_game=stones
    )
    organizer = MembershipFactory(club=t.club).user
    trio_register_pasted(
        tournament=t, actor=organizer, text="\n".join(f"A{n} X / B{n} Y / C{n} Z" for n in range(2))
    )
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return rnd.matches.get(), organizer


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def add(match: Match, hand: dict, key: str, **kw):
    return svc.match_hand_add(
        match=match, hand=hand, idempotency_key=key, version=fresh(match).version, via="link", **kw
    )


@pytest.mark.parametrize(
    ("kind", "form"),
    [
        (Tournament.EntrantKind.PAIRS, Form.PAIRS),
        (Tournament.EntrantKind.INDIVIDUALS, Form.PAIRS),
        (Tournament.EntrantKind.TRIOS, Form.TRIOS),
        (Tournament.EntrantKind.FRANCES, Form.FRANCES),
    ],
)
def test_the_rule_set_plays_the_form_of_the_entrant_kind(kind, form):
    t = TournamentFactory(entrant_kind=kind, frances_table_size=5)
    organizer = MembershipFactory(club=t.club).user
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rules = phase_rules(phase)
    assert rule_form(t) is form and rules.form is form
    assert rules.players == {Form.PAIRS: 4, Form.TRIOS: 6, Form.FRANCES: 5}[form]


def test_a_trios_hand_is_scored_for_six_seats_by_sides():
    match, _ = trios_match()
    answer = add(match, ORDINARY, "h1")
    # grande querido 2 to mano's side; chica deje 1 to postre's; pares duples (3) + par (1) to
    # mano's side; juego: 31 (3) + 32 (2) to postre's side
    assert answer.hand["score"]["stones"] == {"mano": 6, "postre": 6}
    assert answer.running["state"]["stones"] == {"A": 6, "B": 6}
    assert fresh(match).status == Match.Status.IN_PROGRESS


def test_a_retried_trios_hand_stores_nothing_and_a_reused_key_is_refused():
    match, _ = trios_match()
    first = add(match, ORDINARY, "h1")
    again = svc.match_hand_add(
        match=match, hand=ORDINARY, idempotency_key="h1", version=0, via="link"
    )
    assert again.replayed and again.number == first.number == 1
    assert fresh(match).hands.count() == 1
    with pytest.raises(Conflict) as error:
        svc.match_hand_add(
            match=match, hand={"declarations": {}}, idempotency_key="h1", version=0, via="link"
        )
    assert error.value.code == "idempotency_key_reused"


def test_a_trios_hand_for_four_seats_is_refused_in_the_players_words_and_nothing_stored():
    match, _ = trios_match()
    four = {
        "declarations": {
            "pares": ["none"] * 4,
            "juego": ["none"] * 4,
            "punto": [30, 20, 25, 22],
            "winners": {"grande": "mano", "chica": "postre"},
        }
    }
    with pytest.raises(ScoringError) as error:
        add(match, four, "bad")
    assert "6" in str(error.value) and error.value.params.get("hand") == 1
    assert fresh(match).hands.count() == 0 and fresh(match).version == 0


def test_a_stale_version_is_refused_for_a_trios_hand():
    match, _ = trios_match()
    add(match, ORDINARY, "h1")
    with pytest.raises(Conflict) as error:
        svc.match_hand_add(match=match, hand=ORDINARY, idempotency_key="h2", version=0, via="link")
    assert error.value.code == "stale_version"


def ordago(side_wins: str) -> dict:
    """An accepted órdago at grande that ``side_wins`` takes (mano or postre)."""
    return {
        "bets": {"grande": ["órdago", "quiero"]},
        "declarations": {
            "pares": ["none"] * 6,
            "juego": ["none"] * 6,
            "punto": [30, 29, 28, 27, 26, 25],
            "winners": {"grande": side_wins},
        },
    }


def test_a_trios_match_is_recorded_hand_by_hand_submitted_and_confirmed():
    match, _ = trios_match(stones=10)
    # first mano A1: mano's side is A in hand 1, then mano moves one seat on each hand
    add(match, ordago("mano"), "h1")  # game 1 to A
    state = add(match, ordago("mano"), "h2").running["state"]  # mano is now B's: game 2 to B
    assert [g["winner"] for g in state["games"]] == ["A", "B"]
    add(match, ordago("postre"), "h3")  # hand 3: A is mano again; postre's side B wins
    with pytest.raises(ScoringError) as error:
        add(match, ordago("mano"), "h4")
    assert error.value.code == "match_over_table"
    m = fresh(match)
    svc.match_result_submit(
        match=m,
        side="a",
        payload={"hands": "recorded"},
        idempotency_key="s1",
        version=m.version,
        via="link",
    )
    m = fresh(match)
    assert m.status == Match.Status.SUBMITTED
    svc.match_result_confirm(match=m, side="b", idempotency_key="c1", version=m.version, via="link")
    m = fresh(match)
    assert m.status == Match.Status.CONFIRMED
    assert m.winner_id == m.entry_b_id and (m.games_a, m.games_b) == (1, 2)


def test_a_trios_result_sent_as_a_list_of_hands_is_checked_by_the_engine():
    match, organizer = trios_match(stones=10)
    with pytest.raises(Invalid) as error:
        svc.match_result_submit(
            match=match,
            side="organizer",
            payload={"hands": [ordago("mano")]},
            idempotency_key="o1",
            version=0,
            via="account",
            actor=organizer,
        )
    assert error.value.code == "hands_not_finished"
    svc.match_result_submit(
        match=match,
        side="organizer",
        payload={"hands": [ordago("mano"), ordago("postre")]},
        idempotency_key="o2",
        version=0,
        via="account",
        actor=organizer,
    )
    m = fresh(match)
    assert m.status == Match.Status.CONFIRMED and m.winner_id == m.entry_a_id


PAPER = {  # ORDINARY as a paper anotador writes it
    "lances": {
        "grande": {"to": "mano", "how": "querido", "stones": 2},
        "chica": {"to": "postre", "how": "deje", "stones": 1},
        "pares": {"to": "mano", "how": "paso", "bonus": 4},
        "juego": {"to": "postre", "how": "paso", "bonus": 5},
    },
    "declarations": {
        "pares": ["duples", "none", "par", "none", "none", "none"],
        "juego": ["none", "31", "none", "32", "none", "none"],
    },
}


def test_a_trios_hand_written_as_lance_points_is_scored_and_checked():
    match, _ = trios_match()
    wrong = {**PAPER, "lances": {**PAPER["lances"], "pares": {**PAPER["lances"]["pares"]}}}
    wrong["lances"]["pares"]["bonus"] = 5  # duples (3) and par (1) make 4
    with pytest.raises((Invalid, ScoringError)) as error:
        add(match, wrong, "p0")
    assert "4" in str(error.value) and fresh(match).hands.count() == 0

    answer = add(match, PAPER, "p1")
    assert answer.hand["score"]["stones"] == {"mano": 6, "postre": 6}  # as ORDINARY's bets say


def test_a_trios_hand_with_both_bets_and_lance_points_is_refused_and_nothing_stored():
    match, _ = trios_match()
    with pytest.raises((Invalid, ScoringError)) as error:
        add(match, {**ORDINARY, "totals": {"mano": 9, "postre": 3}}, "p1")
    assert error.value.code == "bets_and_points" and "Hand 1" in str(error.value)
    assert fresh(match).hands.count() == 0
