"""Standings snapshots of elimination phases rank by placing (tournaments.draw.placing): brackets
and an a tres ceros played through the services, a running bracket, the end-to-end double
elimination through the API with its champion first, and query counts that do not grow.

The API run reuses the helpers of tests/api/test_api_full_tournament.py (the organizer's desk,
the tables' links, play_round/play_bracket) rather than copying them.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.test_api_full_tournament import (  # noqa: F401  (desk, table: fixtures)
    add_phase,
    desk,
    open_tournament,
    pair_ids,
    play_at_table,
    play_bracket,
    play_round,
    standings,
    table,
)
from tests.factories import tournament_field
from tournaments.models import Match, Phase, Round
from tournaments.selectors.standings import standings_for_phase
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db


field = tournament_field


def confirm(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 1) if a_wins else (1, 2)
    match.stones_a, match.stones_b = (80, 60) if a_wins else (60, 80)
    match.save()


def play_bracket_rounds(phase: Phase, organizer, pick, *, rounds: int | None = None) -> None:
    """Publish, play (``pick(match)`` names the winner) and close the bracket's rounds as
    bracket_advance creates them; stop after ``rounds`` rounds if given."""
    rnd = round_draw_generate(phase=phase, actor=organizer)
    played = 0
    while rnd is not None and (rounds is None or played < rounds):
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            confirm(m, pick(m))
            bracket_advance(phase=phase)
        round_close(round=rnd, actor=organizer)
        played += 1
        rnd = Round.objects.filter(phase=phase, number=rnd.number + 1).first()


def snapshot(phase: Phase) -> list[dict]:
    standings_refresh(phase=phase)
    (table_,) = standings_for_phase(phase=phase)
    return table_["rows"]


def seed_picker(seed_of: dict[int, int], upsets: dict[str, int] | None = None):
    """The better seed wins, except in the bracket matches of ``upsets`` (key -> winning seed)."""
    by_seed = {s: e for e, s in seed_of.items()}

    def pick(match: Match) -> int:
        if upsets and match.bracket_key in upsets:
            return by_seed[upsets[match.bracket_key]]
        a, b = match.entry_a_id, match.entry_b_id
        return a if seed_of[a] < seed_of[b] else b

    return pick


def test_double_elimination_ranks_the_reset_champion_first():
    t, organizer, entries = field(8)
    seed_of = {e.id: e.seed for e in entries}
    phase = phase_create(tournament=t, actor=organizer, name="Doble", format="double_elimination")
    # Seed 3 beats seed 2 in the winners' bracket (W2-2); seed 2 comes back through the
    # repesca and wins the first grand final; seed 1 wins the reset.
    play_bracket_rounds(phase, organizer, seed_picker(seed_of, {"W2-2": 3, "GF1": 2}))
    assert Match.objects.filter(round__phase=phase, bracket_key="GF2").exists()

    rows = snapshot(phase)
    assert [seed_of[r["entry_id"]] for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 5, 7, 7]
    assert [r["separated_by"] for r in rows] == [
        None,
        "placing",
        "placing",
        "placing",
        "placing",
        None,
        "placing",
        None,
    ]
    # Ranked by matches won, the losers' bracket champion would have been first.
    assert (rows[0]["won"], rows[0]["lost"]) == (4, 1)
    assert (rows[1]["won"], rows[1]["lost"]) == (5, 2)


def test_a_running_double_elimination_shares_the_top_among_pairs_still_in():
    t, organizer, entries = field(8)
    seed_of = {e.id: e.seed for e in entries}
    phase = phase_create(tournament=t, actor=organizer, name="Doble", format="double_elimination")
    play_bracket_rounds(phase, organizer, seed_picker(seed_of), rounds=2)
    # Two stages: winners' round 1, then winners' round 2 with the repesca's round 1.
    rows = snapshot(phase)
    assert [(seed_of[r["entry_id"]], r["rank"]) for r in rows] == [
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 7),
        (8, 7),
    ]
    assert rows[6]["separated_by"] == "placing"


def test_single_elimination_with_a_third_place_match():
    t, organizer, entries = field(8)
    seed_of = {e.id: e.seed for e in entries}
    phase = phase_create(
        tournament=t,
        actor=organizer,
        name="Cuadro",
        format="single_elimination",
        third_place=True,
    )
    play_bracket_rounds(phase, organizer, seed_picker(seed_of, {"W1-2": 5, "3P": 3}))
    rows = snapshot(phase)
    # 5 beat 4 in round 1 and lost to 1 in the semi-final, then the third-place match to 3.
    assert [(seed_of[r["entry_id"]], r["rank"]) for r in rows] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (5, 4),
        (4, 5),
        (6, 5),
        (7, 5),
        (8, 5),
    ]


def test_single_elimination_without_a_third_place_match_semi_final_losers_share_third():
    t, organizer, entries = field(4)
    seed_of = {e.id: e.seed for e in entries}
    phase = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    play_bracket_rounds(phase, organizer, seed_picker(seed_of, {"W2-1": 2}))
    rows = snapshot(phase)
    assert [(seed_of[r["entry_id"]], r["rank"], r["separated_by"]) for r in rows] == [
        (2, 1, None),
        (1, 2, "placing"),
        (3, 3, "placing"),
        (4, 3, None),
    ]


def test_a_tres_ceros_ranks_the_last_pair_standing_first():
    t, organizer, entries = field(4)
    seed_of = {e.id: e.seed for e in entries}
    phase = phase_create(tournament=t, actor=organizer, name="A un cero", format="lives", lives=1)
    for _ in range(2):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            confirm(m, seed_picker(seed_of)(m))
        round_close(round=rnd, actor=organizer)
    rows = snapshot(phase)
    assert [seed_of[r["entry_id"]] for r in rows[:2]] == [1, 2]  # the final of the last two
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [r["separated_by"] for r in rows[:3]] == [None, "placing", "placing"]
    # Out in the same round (the first), 2–1 in juegos each: the draw of lots by seed decides.
    assert rows[3]["separated_by"] == "lots"


def test_the_end_to_end_double_elimination_puts_its_champion_first(desk, table):  # noqa: F811
    tournament = open_tournament(desk, preset="4 reyes a 30")
    strongest, second = tournament["entries"][:2]
    phase = add_phase(desk, tournament, name="Doble", format="double_elimination")

    def script(match: dict) -> bool:
        # The second strongest pair loses its first match, comes back through the repesca and
        # wins the first grand final; the strongest pair wins the reset.
        key = match["bracket_key"]
        if key.startswith("W1-") and second in pair_ids(match):
            play_at_table(desk, table, match, "b" if match["entry_a"]["id"] == second else "a")
            return True
        if key == "GF1":
            assert pair_ids(match) == {strongest, second}
            play_at_table(desk, table, match, "a" if match["entry_a"]["id"] == second else "b")
            return True
        return False

    first = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
    play_round(desk, table, first, special=script)
    play_bracket(desk, table, phase["id"], special=script)
    desk.post(f"phases/{phase['id']}/finish")

    bracket = desk.get(f"phases/{phase['id']}/bracket")
    assert bracket["champion_id"] == strongest
    rows = standings(desk, phase["id"])
    assert [r["entry_id"] for r in rows[:2]] == [strongest, second]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 5, 7, 7]
    assert rows[1]["separated_by"] == "placing"
    assert rows[0]["won"] < rows[1]["won"]  # 4 matches won against 5: placing, not wins


# --- Query counts -----------------------------------------------------------------------------


def refresh_queries(phase: Phase) -> int:
    with CaptureQueriesContext(connection) as queries:
        standings_refresh(phase=phase)
    return len(queries)


@pytest.mark.parametrize("fmt", ["double_elimination", "single_elimination", "lives"])
def test_refreshing_an_elimination_phase_takes_the_same_queries_at_any_size(
    fmt, django_assert_max_num_queries
):
    counts = []
    for pairs in (4, 16):
        t, organizer, entries = field(pairs)
        seed_of = {e.id: e.seed for e in entries}
        phase = phase_create(tournament=t, actor=organizer, name="Fase", format=fmt)
        if fmt == "lives":
            rnd = round_draw_generate(phase=phase, actor=organizer)
            round_publish(round=rnd, actor=organizer)
            for m in rnd.matches.exclude(kind=Match.Kind.BYE):
                confirm(m, seed_picker(seed_of)(m))
        else:
            play_bracket_rounds(phase, organizer, seed_picker(seed_of))
        standings_refresh(phase=phase)  # the snapshot exists: this is the usual path
        counts.append(refresh_queries(phase))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(7):  # lock, 3 reads, 1 update, savepoints
        standings_refresh(phase=phase)
