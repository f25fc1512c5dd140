"""Group ladders (ascensos y descensos) and the ladder of tables (sube y baja), drawn and played
through the rounds services: the options refused with the rule they break, the groups moving
after each cycle, the final groups feeding a knockout, the table order as the standings, for
pairs, trios, players alone and Mus francés tables."""

from __future__ import annotations

import pytest

from config.errors import Conflict, Invalid
from scoring.messages import MessageError
from tests.factories import MembershipFactory, TournamentFactory, tournament_field
from tournaments.models import Entry, FrancesTable, Group, Match, Phase, Round, Tournament
from tournaments.selectors.standings import standings_for_phase
from tournaments.services import results
from tournaments.services.entrants import individual_register_pasted
from tournaments.services.frances import frances_result_submit
from tournaments.services.rounds import (
    phase_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


def confirm(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 0) if a_wins else (0, 2)
    match.stones_a, match.stones_b = (80, 30) if a_wins else (30, 80)
    match.save()


def play(rnd: Round, organizer, winner=min) -> None:
    """Publish, confirm every match (won by ``winner`` of the two entry ids), close."""
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        confirm(m, winner(m.entry_a_id, m.entry_b_id))
    round_close(round=rnd, actor=organizer)


def group_ladder(t, organizer, **ladder):
    options = {"groups": 2, "cycle_rounds": 3, "cycles": 2, **ladder}
    return phase_create(
        tournament=t, actor=organizer, name="Escalera", format="group_ladder", ladder=options
    )


def members(phase) -> dict[str, set[int]]:
    return {
        g.name: {e.id for e in g.entries.all()}
        for g in Group.objects.filter(phase=phase).prefetch_related("entries")
    }


def test_group_ladder_options_are_checked_with_the_rule_they_break():
    t, organizer, _ = tournament_field(8, status=Tournament.Status.RUNNING)
    with pytest.raises(MessageError) as error:
        group_ladder(t, organizer, groups=5)
    assert error.value.code == "ladder_groups_too_many"
    assert error.value.params["entrants"] == 8 and error.value.params["needed"] == 10
    with pytest.raises(MessageError) as error:
        group_ladder(t, organizer, groups=1)
    assert error.value.code == "ladder_groups_too_few"
    with pytest.raises(MessageError) as error:
        group_ladder(t, organizer, move_by="place", moves=3)
    assert error.value.code == "ladder_moves_too_many"
    with pytest.raises(Invalid) as error:
        group_ladder(t, organizer, cycles=0)
    assert error.value.code == "phase_ladder_option"
    with pytest.raises(Invalid) as error:
        group_ladder(t, organizer, swap=True)
    assert error.value.code == "phase_option_unread"
    with pytest.raises(Invalid) as error:
        phase_create(
            tournament=t, actor=organizer, name="S", format="swiss", rounds_planned=3, ladder={}
        )
    assert error.value.code == "phase_option_unread"
    with pytest.raises(Invalid) as error:
        phase_create(
            tournament=t, actor=organizer, name="Sube", format="table_ladder", ladder={"swap": 1}
        )
    assert error.value.code == "phase_ladder_rounds"


def test_a_ladder_with_more_groups_than_the_field_allows_is_refused_when_drawn():
    t, organizer, _ = tournament_field(5)  # registration open: the field may still grow
    phase = group_ladder(t, organizer, groups=3)
    with pytest.raises(MessageError) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "ladder_groups_too_many"
    assert not Round.objects.filter(phase=phase).exists()


def test_group_ladder_moves_the_clean_winners_up_and_feeds_a_knockout_per_group():
    t, organizer, entries = tournament_field(8)
    ids = [e.id for e in entries]  # seeds 1..8 in id order
    phase = group_ladder(t, organizer)
    phase.refresh_from_db()
    assert phase.rounds_planned == 6
    knockout = phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        source_id=phase.id,
        qualifiers_per_group=2,
    )
    first = round_draw_generate(phase=phase, actor=organizer)
    assert members(phase) == {"A": set(ids[:4]), "B": set(ids[4:])}
    # cycle 1: in A the lowest id wins; in B the highest id wins everything (a giant killer)
    low = ids[:4]

    def winner(a, b):
        return min(a, b) if a in low else max(a, b)

    rnd = first
    for _ in range(3):
        for m in rnd.matches.all():
            assert m.group.name == ("A" if m.entry_a_id in low else "B")
        play(rnd, organizer, winner)
        rnd = round_draw_generate(phase=phase, actor=organizer) if rnd.number < 3 else None
    pairs_cycle1 = {
        frozenset((m.entry_a_id, m.entry_b_id)) for m in Match.objects.filter(round__phase=phase)
    }
    assert len(pairs_cycle1) == 12  # every group-mate met once: no rematch inside the cycle
    fourth = round_draw_generate(phase=phase, actor=organizer)
    # ids[3] lost everything in A, ids[7] won everything in B: they swapped groups
    assert members(phase) == {"A": {*ids[:3], ids[7]}, "B": {ids[3], *ids[4:7]}}
    phase.refresh_from_db()
    state = phase.settings["ladder_state"]
    assert state["cycles"][0]["up"] == [ids[7]] and state["cycles"][0]["down"] == [ids[3]]
    standings_refresh(phase=phase)
    tables = {g["group"]: g["rows"] for g in standings_for_phase(phase=phase)}
    assert {r["entry_id"]: r["ladder_move"] for r in tables["A"]}[ids[7]] == "up"
    assert {r["entry_id"]: r["ladder_move"] for r in tables["B"]}[ids[3]] == "down"
    rnd = fourth
    for n in range(3):
        play(rnd, organizer)  # cycle 2: the lower id always wins
        if n < 2:
            rnd = round_draw_generate(phase=phase, actor=organizer)
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_done"
    knockout_round = phase_advance(phase=phase, actor=organizer)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.FINISHED
    final = phase.settings["ladder_state"]["final"]
    assert [len(g) for g in final] == [4, 4]
    assert members(phase) == {"A": set(final[0]), "B": set(final[1])}
    # cycle 2 in A (ids 0,1,2,7): ids[0] won all, ids[7] lost all: ids[7] goes back down
    assert ids[7] in final[1] and ids[3] in final[0]
    standings_refresh(phase=phase)
    tables = {
        g["group"]: [r["entry_id"] for r in g["rows"]] for g in standings_for_phase(phase=phase)
    }
    assert tables == {"A": final[0], "B": final[1]}
    # the knockout takes the first two of each final group: 1A v 2B, 1B v 2A
    drawn = {
        frozenset((m.entry_a_id, m.entry_b_id))
        for m in knockout_round.matches.exclude(entry_b=None)
    }
    assert drawn == {
        frozenset((final[0][0], final[1][1])),
        frozenset((final[1][0], final[0][1])),
    }
    assert Phase.objects.get(pk=knockout.pk).status == Phase.Status.RUNNING


def test_a_group_ladder_is_refused_to_players_alone():
    t = TournamentFactory(entrant_kind=Tournament.EntrantKind.INDIVIDUALS)
    organizer = MembershipFactory(club=t.club).user
    with pytest.raises(Invalid) as error:
        group_ladder(t, organizer)
    assert error.value.code == "phase_format_alone"


# --- Ladder of tables --------------------------------------------------------------------------


def table_ladder(t, organizer, rounds=3, **ladder):
    return phase_create(
        tournament=t,
        actor=organizer,
        name="Sube y baja",
        format="table_ladder",
        rounds_planned=rounds,
        ladder=ladder or None,
    )


def tables_of(rnd) -> list[tuple[int, int]]:
    return [(m.entry_a_id, m.entry_b_id) for m in rnd.matches.order_by("table_number")]


def test_table_ladder_winners_go_up_losers_down_and_the_standings_are_the_table_order():
    t, organizer, entries = tournament_field(7)
    ids = [e.id for e in entries]
    phase = table_ladder(t, organizer)
    first = round_draw_generate(phase=phase, actor=organizer)
    assert tables_of(first) == [(ids[0], ids[1]), (ids[2], ids[3]), (ids[4], ids[5])]
    phase.refresh_from_db()
    assert phase.settings["ladder_bench"]["1"] == [[ids[6]]]  # the seventh rests
    play(first, organizer, winner=max)  # the higher id wins every table
    second = round_draw_generate(phase=phase, actor=organizer)
    # table 1: its winner (1) and table 2's winner (3); table 2: 0 down, 5 up; table 3: 2 down
    # and the bench's 6; 4 lost the last table and rests
    assert tables_of(second) == [(ids[1], ids[3]), (ids[0], ids[5]), (ids[2], ids[6])]
    play(second, organizer, winner=max)
    standings_refresh(phase=phase)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    order = [r["entry_id"] for r in rows]
    # the second round's tables in finishing order, then the bench
    assert order == [ids[3], ids[1], ids[5], ids[0], ids[6], ids[2], ids[4]]
    assert [r["rank"] for r in rows] == list(range(1, 8))
    third = round_draw_generate(phase=phase, actor=organizer)
    play(third, organizer)
    phase_finish(phase=phase, actor=organizer)


def test_a_pair_that_withdraws_leaves_the_table_ladder_and_those_below_move_up():
    t, organizer, entries = tournament_field(6)
    ids = [e.id for e in entries]
    phase = table_ladder(t, organizer)
    play(round_draw_generate(phase=phase, actor=organizer), organizer)  # the lower id wins
    Entry.objects.filter(pk=ids[2]).update(status=Entry.Status.WITHDRAWN)
    second = round_draw_generate(phase=phase, actor=organizer)
    # without the withdrawal: (0, 2), (1, 4), (3, 5); 2 withdrew: 1 moves up beside 0
    assert tables_of(second) == [(ids[0], ids[1]), (ids[4], ids[3])]
    phase.refresh_from_db()
    assert phase.settings["ladder_bench"]["2"] == [[ids[5]]]


def test_table_ladder_for_trios():
    t, organizer, entries = tournament_field(4, entrant_kind=Tournament.EntrantKind.TRIOS)
    phase = table_ladder(t, organizer, rounds=2)
    first = round_draw_generate(phase=phase, actor=organizer)
    assert len(tables_of(first)) == 2


A_WINS = {"games": [{"stones": [40, 20]}, {"stones": [40, 30]}]}


def players_alone(kind, count, **fields):
    t = TournamentFactory(entrant_kind=kind, tables_available=0, **fields)
    organizer = MembershipFactory(club=t.club).user
    text = "\n".join(f"Jugador {chr(65 + n)}" for n in range(count))
    people = individual_register_pasted(tournament=t, actor=organizer, text=text)
    return t, organizer, people


def partnerships(rnd):
    return [
        (
            frozenset((m.entry_a.pair.player_one_id, m.entry_a.pair.player_two_id)),
            frozenset((m.entry_b.pair.player_one_id, m.entry_b.pair.player_two_id)),
        )
        for m in rnd.matches.order_by("table_number").select_related(
            "entry_a__pair", "entry_b__pair"
        )
    ]


def a_wins_everywhere(rnd, organizer):
    round_publish(round=rnd, actor=organizer)
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
    round_close(round=rnd, actor=organizer)


def test_players_alone_keep_their_partner_and_the_top_and_bottom_swap_after_two_rounds():
    t, organizer, people = players_alone(Tournament.EntrantKind.INDIVIDUALS, 12)
    phase = table_ladder(t, organizer, rounds=3, swap=True)
    first = round_draw_generate(phase=phase, actor=organizer)
    one = partnerships(first)
    assert len(one) == 3
    a_wins_everywhere(first, organizer)
    second = round_draw_generate(phase=phase, actor=organizer)
    two = partnerships(second)
    # partnerships are kept: table 1 = its winner and table 2's winner
    assert two[0] == (one[0][0], one[1][0])
    assert two[2] == (one[1][1], one[2][1])
    a_wins_everywhere(second, organizer)
    third = round_draw_generate(phase=phase, actor=organizer)
    three = partnerships(third)
    # one[0][0] won table 1 twice and one[2][1] lost table 3 twice: they swapped a player
    top, bottom = set(one[0][0]), set(one[2][1])
    new_top, new_bottom = three[0][0], three[2][1]
    assert len(new_top & top) == 1 and len(new_top & bottom) == 1
    assert len(new_bottom & top) == 1 and len(new_bottom & bottom) == 1
    standings_refresh(phase=phase)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    assert len(rows) == 12 and rows[0]["rank"] == rows[1]["rank"] == 1


def test_swap_is_refused_to_registered_pairs():
    t, organizer, _ = tournament_field(6)
    with pytest.raises(Invalid) as error:
        table_ladder(t, organizer, swap=True)
    assert error.value.code == "phase_ladder_swap"


def test_an_odd_number_of_players_alone_is_refused_when_drawn():
    t, organizer, _ = players_alone(Tournament.EntrantKind.INDIVIDUALS, 9)
    phase = table_ladder(t, organizer)
    with pytest.raises(MessageError) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "table_ladder_players_odd"


def test_frances_tables_first_up_last_down():
    t, organizer, people = players_alone(Tournament.EntrantKind.FRANCES, 8, frances_table_size=4)
    phase = table_ladder(t, organizer, rounds=2)
    first = round_draw_generate(phase=phase, actor=organizer)
    tables = list(FrancesTable.objects.filter(round=first).order_by("table_number"))
    seats = [list(x.seats.order_by("seat").values_list("entry_id", flat=True)) for x in tables]
    assert [len(s) for s in seats] == [4, 4]
    round_publish(round=first, actor=organizer)
    for n, table in enumerate(tables):
        frances_result_submit(
            table=table,
            order=seats[n],
            idempotency_key=f"f{n}",
            version=0,
            via="account",
            actor=organizer,
        )
    round_close(round=first, actor=organizer)
    second = round_draw_generate(phase=phase, actor=organizer)
    again = [
        set(x.seats.values_list("entry_id", flat=True))
        for x in FrancesTable.objects.filter(round=second).order_by("table_number")
    ]
    assert again == [set(seats[0][:3]) | {seats[1][0]}, {seats[0][3], *seats[1][1:]}]
    standings_refresh(phase=phase)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    assert [r["entry_id"] for r in rows] == seats[0] + seats[1]
    assert Entry.objects.filter(tournament=t).count() == 0
