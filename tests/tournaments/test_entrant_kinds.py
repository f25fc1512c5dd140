"""Tournaments of trios, of players alone with partners drawn each round, and of Mus francés
tables: registration, draws, results and standings on the database."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from config.errors import Conflict, Invalid, NotFound, StaleVersion
from tests.factories import MembershipFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, FrancesTable, IndividualEntry, Match, Round, Tournament
from tournaments.selectors.standings import standings_for_phase
from tournaments.services import results
from tournaments.services.entrants import (
    individual_check_in,
    individual_register,
    individual_register_pasted,
    individual_withdraw,
    trio_register,
    trio_register_pasted,
)
from tournaments.services.frances import frances_result_confirm, frances_result_submit
from tournaments.services.registration import entry_register_pasted
from tournaments.services.rounds import (
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db

A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 30]}]}


def tournament(kind, **fields):
    t = TournamentFactory(entrant_kind=kind, tables_available=0, **fields)
    organizer = MembershipFactory(club=t.club).user
    return t, organizer


def names(count, prefix="Jugador"):
    return "\n".join(f"{prefix} {chr(65 + n // 26)}{chr(65 + n % 26)}" for n in range(count))


def swiss(t, organizer, rounds=3):
    return phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=rounds
    )


# --- Trios ----------------------------------------------------------------------------------


def test_registering_an_unknown_player_number_names_it_and_stores_nothing():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    ana, luis = PlayerFactory(), PlayerFactory()
    with pytest.raises(NotFound) as trio_error:
        trio_register(tournament=t, actor=organizer, player_ids=[ana.pk, 999999, luis.pk])
    assert trio_error.value.code == "entrant_player_unknown"
    assert trio_error.value.params["player"] == 999999
    t, organizer = tournament(Tournament.EntrantKind.INDIVIDUALS)
    with pytest.raises(NotFound) as alone_error:
        individual_register(tournament=t, actor=organizer, player_id=999998)
    assert alone_error.value.params["player"] == 999998
    assert not Entry.objects.exists() and not IndividualEntry.objects.exists()


def test_trios_register_from_a_pasted_list_named_by_their_three_players():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    entries = trio_register_pasted(
        tournament=t,
        actor=organizer,
        text="Ana García / Luis Pérez / Eva Ruiz\nJon Sarasola / Miren Etxeberria / Iker Goñi\n",
    )
    assert [str(e.pair) for e in entries] == [
        "Ana García / Luis Pérez / Eva Ruiz",
        "Jon Sarasola / Miren Etxeberria / Iker Goñi",
    ]
    assert all(e.player_three_id for e in entries)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("Ana García / Luis Pérez", "trio_line"),
        ("Ana García / Luis Pérez / ana garcia", "trio_same_player"),
        ("Ana / Luis / Eva / Jon", "trio_line"),
    ],
)
def test_a_bad_trio_line_is_refused_and_nothing_is_stored(line, code):
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    with pytest.raises(Invalid) as error:
        trio_register_pasted(
            tournament=t, actor=organizer, text=f"Pedro Sanz / Rosa Gil / Txema Ortiz\n{line}"
        )
    assert error.value.code == code
    assert "Line 2" in str(error.value)
    assert not Entry.objects.filter(tournament=t).exists()


def test_a_player_enters_one_trio_and_a_trio_has_three_players():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    p = PlayerFactory.create_batch(5)
    trio_register(tournament=t, actor=organizer, player_ids=[p[0].pk, p[1].pk, p[2].pk])
    with pytest.raises(Conflict) as error:
        trio_register(tournament=t, actor=organizer, player_ids=[p[2].pk, p[3].pk, p[4].pk])
    assert error.value.code == "player_already_entered"
    assert error.value.params["player"] == str(p[2])
    assert error.value.params["entrant"] == f"{p[0]} / {p[1]} / {p[2]}"
    with pytest.raises(Invalid) as error:
        trio_register(tournament=t, actor=organizer, player_ids=[p[3].pk, p[4].pk])
    assert error.value.code == "trio_size"
    with pytest.raises(Invalid) as error:
        trio_register(tournament=t, actor=organizer, player_ids=[p[3].pk, p[4].pk, p[3].pk])
    assert error.value.code == "trio_same_player"


def test_pairs_are_refused_in_a_tournament_of_trios():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    with pytest.raises(Invalid) as error:
        entry_register_pasted(tournament=t, actor=organizer, text="Ana García / Luis Pérez")
    assert error.value.code == "entrant_kind_mismatch"


def test_a_trios_swiss_round_plays_on_the_pairs_result_flow():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    trio_register_pasted(
        tournament=t,
        actor=organizer,
        text="\n".join(f"A{n} X / B{n} Y / C{n} Z" for n in range(4)),
    )
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.first()
    results.match_result_submit(
        match=match, side="a", payload=A_WINS, idempotency_key="k1", version=0, via="link"
    )
    match.refresh_from_db()
    results.match_result_confirm(
        match=match, side="b", idempotency_key="k2", version=match.version, via="link"
    )
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id


# --- Players alone: individual tournaments --------------------------------------------------


def individual_field(count, **fields):
    t, organizer = tournament(Tournament.EntrantKind.INDIVIDUALS, **fields)
    people = individual_register_pasted(tournament=t, actor=organizer, text=names(count))
    return t, organizer, people


def players_of(match):
    return (
        {match.entry_a.pair.player_one_id, match.entry_a.pair.player_two_id},
        {match.entry_b.pair.player_one_id, match.entry_b.pair.player_two_id},
    )


def confirm_all(rnd, organizer):
    for n, match in enumerate(rnd.matches.order_by("table_number")):
        results.match_result_submit(
            match=match,
            side="organizer",
            payload=A_WINS,
            idempotency_key=f"r{rnd.pk}-{n}",
            version=match.version,
            via="account",
            actor=organizer,
        )


def test_individuals_register_one_per_line_and_not_twice():
    t, organizer, people = individual_field(3)
    assert [str(p) for p in people] == ["Jugador AA", "Jugador AB", "Jugador AC"]
    with pytest.raises(Conflict) as error:
        individual_register(tournament=t, actor=organizer, player_id=people[0].player_id)
    assert error.value.code == "player_already_registered"
    with pytest.raises(Invalid) as error:
        individual_register_pasted(tournament=t, actor=organizer, text="Ana García / Luis")
    assert error.value.code == "individual_line"
    with pytest.raises(Invalid) as error:
        individual_register_pasted(tournament=t, actor=organizer, text="Rosa Gil\nrosa gil")
    assert error.value.code == "individual_repeated"


def test_an_individual_tournament_plays_only_swiss_rounds():
    t, organizer, _ = individual_field(8)
    with pytest.raises(Invalid) as error:
        phase_create(tournament=t, actor=organizer, name="Liga", format="round_robin", group_size=4)
    assert error.value.code == "phase_format_alone"


def test_individual_rounds_draw_new_partners_and_standings_count_each_players_games():
    t, organizer, people = individual_field(10)
    phase = swiss(t, organizer, rounds=3)
    partners, rests = Counter(), Counter()
    for number in (1, 2, 3):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        matches = list(rnd.matches.select_related("entry_a__pair", "entry_b__pair"))
        assert len(matches) == 2
        seated = set()
        for m in matches:
            a, b = players_of(m)
            seated |= a | b
            partners[frozenset(a)] += 1
            partners[frozenset(b)] += 1
            assert m.entry_a.drawn and m.reasons
        assert len(seated) == 8
        phase.refresh_from_db()
        for pk in phase.settings["rests"][str(number)]:
            rests[pk] += 1
        round_publish(round=rnd, actor=organizer)
        confirm_all(rnd, organizer)
        round_close(round=rnd, actor=organizer)
    assert max(partners.values()) == 1  # nobody partnered twice
    assert max(rests.values()) == 1  # six rests over ten players: nobody rests twice
    standings_refresh(phase=phase)
    (table,) = standings_for_phase(phase=phase)
    rows = table["rows"]
    assert len(rows) == 10
    assert {r["entry_id"] for r in rows} == {p.pk for p in people}
    top = rows[0]
    assert top["games_won"] >= rows[-1]["games_won"]
    assert sum(r["played"] for r in rows) == 3 * 10  # a rest counts as played (like a bye)
    assert sum(r["rests"] for r in rows) == 6


def test_a_withdrawn_player_is_not_drawn_and_check_in_chooses_who_plays():
    t, organizer, people = individual_field(9)
    individual_withdraw(tournament=t, actor=organizer, individual_id=people[0].pk)
    for p in people[1:5]:
        individual_check_in(tournament=t, actor=organizer, individual_id=p.pk)
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    (match,) = rnd.matches.all()
    a, b = players_of(match)
    assert a | b == {p.player_id for p in people[1:5]}


# --- Mus francés ----------------------------------------------------------------------------


def frances_field(count, size=4):
    t, organizer = tournament(Tournament.EntrantKind.FRANCES, frances_table_size=size)
    people = individual_register_pasted(tournament=t, actor=organizer, text=names(count))
    return t, organizer, people


def seats(table):
    return dict(table.seats.values_list("seat", "entry_id"))


def test_frances_tables_seat_everybody_and_the_order_is_confirmed_by_another_seat():
    t, organizer, people = frances_field(7)
    phase = swiss(t, organizer, rounds=2)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    tables = list(FrancesTable.objects.filter(round=rnd))
    assert sorted(len(seats(x)) for x in tables) == [3, 4]
    round_publish(round=rnd, actor=organizer)
    table = tables[0]
    order = list(seats(table).values())[::-1]
    answer = frances_result_submit(
        table=table, seat=1, order=order, idempotency_key="s1", version=0, via="link"
    )
    assert answer.state["status"] == "submitted"
    again = frances_result_submit(
        table=table, seat=1, order=order, idempotency_key="s1", version=0, via="link"
    )
    assert again.replayed and again.state == answer.state
    with pytest.raises(Conflict) as error:
        frances_result_confirm(table=table, seat=1, idempotency_key="c0", version=1, via="link")
    assert error.value.code == "frances_own_submission"
    with pytest.raises(StaleVersion):
        frances_result_confirm(table=table, seat=2, idempotency_key="c1", version=0, via="link")
    done = frances_result_confirm(table=table, seat=2, idempotency_key="c1", version=1, via="link")
    assert done.state["status"] == "confirmed" and done.state["order"] == order
    with pytest.raises(Conflict) as error:
        round_close(round=rnd, actor=organizer)
    assert error.value.code == "round_unfinished"
    other = tables[1]
    frances_result_submit(
        table=other,
        order=list(seats(other).values()),
        idempotency_key="o1",
        version=0,
        via="account",
        actor=organizer,
    )
    round_close(round=rnd, actor=organizer)
    standings_refresh(phase=phase)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    points = {r["entry_id"]: r["points"] for r in rows}
    size = len(order)
    assert points[order[0]] == size - 1 and points[order[-1]] == 0
    assert rows[0]["points"] == 3  # a winner of a table of four
    round_two = round_draw_generate(phase=phase, actor=organizer)
    assert round_two.number == 2 and round_two.frances_tables.count() == 2


def test_two_seats_that_disagree_put_the_table_in_dispute_and_the_organizer_decides():
    t, organizer, _ = frances_field(4)
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    table = rnd.frances_tables.get()
    order = list(seats(table).values())
    frances_result_submit(
        table=table, seat=1, order=order, idempotency_key="a", version=0, via="link"
    )
    answer = frances_result_submit(
        table=table, seat=3, order=order[::-1], idempotency_key="b", version=1, via="link"
    )
    assert answer.state["status"] == "disputed"
    final = frances_result_submit(
        table=table, order=order, idempotency_key="o", version=2, via="api", actor=organizer
    )
    assert final.state["status"] == "confirmed"


@pytest.mark.parametrize(
    ("order", "code"),
    [
        ("1,2,3", "frances_order_shape"),
        ([1, 1, 2, 3], "frances_order_twice"),
        ([], "frances_order_missing"),
        ([999999], "frances_order_unknown"),
    ],
)
def test_a_finishing_order_that_is_not_a_permutation_is_refused(order, code):
    t, organizer, _ = frances_field(4)
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    table = rnd.frances_tables.get()
    real = list(seats(table).values())
    if order == [1, 1, 2, 3]:
        order = [real[0], real[0], real[1], real[2]]
    with pytest.raises(Invalid) as error:
        frances_result_submit(
            table=table, seat=1, order=order, idempotency_key="x", version=0, via="link"
        )
    assert error.value.code == code
    table.refresh_from_db()
    assert table.status == Match.Status.PENDING and not table.submissions.exists()


def test_a_seat_outside_the_table_and_a_closed_round_are_refused():
    t, organizer, _ = frances_field(4)
    phase = swiss(t, organizer)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    table = rnd.frances_tables.get()
    order = list(seats(table).values())
    with pytest.raises(Invalid) as error:
        frances_result_submit(
            table=table, seat=7, order=order, idempotency_key="x", version=0, via="link"
        )
    assert error.value.code == "frances_seat"
    with pytest.raises(Conflict) as error:  # the round is still a draft
        frances_result_submit(
            table=table, seat=1, order=order, idempotency_key="x", version=0, via="link"
        )
    assert error.value.code == "round_not_open"
    assert rnd.status == Round.Status.DRAFT


def test_frances_needs_three_players():
    t, organizer, _ = frances_field(2)
    phase = swiss(t, organizer)
    from tournaments.draw import DrawError

    with pytest.raises(DrawError) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "draw_too_few_players"


def test_every_player_meets_new_table_mates_while_possible():
    t, organizer, _ = frances_field(16)
    phase = swiss(t, organizer, rounds=2)
    met = Counter()
    for _ in range(2):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for n, table in enumerate(rnd.frances_tables.all()):
            ids = list(seats(table).values())
            for x, y in combinations(sorted(ids), 2):
                met[(x, y)] += 1
            frances_result_submit(
                table=table,
                order=ids,
                idempotency_key=f"{rnd.pk}-{n}",
                version=0,
                via="api",
                actor=organizer,
            )
        round_close(round=rnd, actor=organizer)
    assert max(met.values()) == 1
    assert IndividualEntry.objects.filter(tournament=t).count() == 16


def test_a_trios_match_takes_its_hands_for_six_seats():
    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    trio_register_pasted(
        tournament=t,
        actor=organizer,
        text="\n".join(f"A{n} X / B{n} Y / C{n} Z" for n in range(2)),
    )
    rnd = round_draw_generate(phase=swiss(t, organizer), actor=organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.get()
    with pytest.raises(Invalid) as error:  # the engine's own check, not a refusal of trios
        results.match_result_submit(
            match=match,
            side="a",
            payload={"hands": []},
            idempotency_key="h",
            version=0,
            via="link",
        )
    assert error.value.code == "hands_not_finished"
    hand = {
        "declarations": {
            "pares": ["none"] * 6,
            "juego": ["none"] * 6,
            "punto": [30] * 6,  # a tie: the nearer to mano
            "winners": {"grande": "mano", "chica": "mano"},
        }
    }
    answer = results.match_hand_add(
        match=match, hand=hand, idempotency_key="h2", version=0, via="link"
    )
    assert answer.running["state"]["stones"] == {"A": 3, "B": 0}  # grande, chica, punto


def test_a_trios_match_rates_its_three_players_on_each_side():
    from seasons.ratings.models import RatedMatch
    from seasons.ratings.services import rating_tournament_match_sync

    t, organizer = tournament(Tournament.EntrantKind.TRIOS)
    trio_register_pasted(
        tournament=t,
        actor=organizer,
        text="\n".join(f"A{n} X / B{n} Y / C{n} Z" for n in range(2)),
    )
    rnd = round_draw_generate(phase=swiss(t, organizer), actor=organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.get()
    results.match_result_submit(
        match=match,
        side="organizer",
        payload=A_WINS,
        idempotency_key="o",
        version=0,
        via="account",
        actor=organizer,
    )
    rating_tournament_match_sync(match_id=match.pk)
    rated = RatedMatch.objects.get(source_id=match.pk)
    assert len(rated.players_a) == 3 and len(rated.players_b) == 3
