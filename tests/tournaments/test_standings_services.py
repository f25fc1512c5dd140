"""standings_refresh: snapshots per phase and per group from confirmed matches; the real task;
what a row shows of its pair; queries that do not grow with the field."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    EntryFactory,
    PairFactory,
    PhaseFactory,
    PlayerFactory,
    tournament_field,
)
from tournaments.models import Entry, Match, Phase, Round, StandingsSnapshot
from tournaments.selectors.standings import standings_for_phase
from tournaments.services.rounds import (
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.tasks import standings_refresh as standings_refresh_task

field = tournament_field


def confirm(match: Match, winner_id: int, stones=(120, 60), kind=Match.Kind.PLAYED) -> None:
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.kind = kind
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, 1) if a_wins else (1, 2)
    match.stones_a, match.stones_b = stones if a_wins else stones[::-1]
    match.save()


def by_entry(rows: list[dict]) -> dict[int, dict]:
    return {row["entry_id"]: row for row in rows}


@pytest.mark.django_db
def test_swiss_standings_count_confirmed_matches_and_byes_of_published_rounds():
    t, organizer, entries = field(5, games_per_vaca=2, vacas_per_match=1)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    assert standings_for_phase(phase=phase) == []  # nothing stored yet
    standings_refresh(phase=phase)
    assert standings_for_phase(phase=phase)[0]["rows"] == []  # a draft is not public
    round_publish(round=rnd, actor=organizer)
    first, second = rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number")
    confirm(first, first.entry_a_id)
    second.status = Match.Status.SUBMITTED  # not confirmed yet: does not count
    second.save()

    assert standings_refresh(phase=phase) == 5

    (table,) = standings_for_phase(phase=phase)
    assert table["group"] is None
    rows = by_entry(table["rows"])
    bye = rnd.matches.get(kind=Match.Kind.BYE)
    assert (rows[bye.entry_a_id]["won"], rows[bye.entry_a_id]["games_won"]) == (1, 2)
    assert rows[bye.entry_a_id]["stones_won"] == 0
    assert rows[first.entry_a_id]["won"] == 1 and rows[first.entry_a_id]["stones_won"] == 120
    assert rows[first.entry_b_id]["lost"] == 1 and rows[first.entry_b_id]["games_won"] == 1
    assert rows[second.entry_a_id]["played"] == rows[second.entry_b_id]["played"] == 0
    leaders = {r["entry_id"] for r in table["rows"] if r["rank"] <= 2}
    assert leaders == {bye.entry_a_id, first.entry_a_id}
    assert StandingsSnapshot.objects.filter(phase=phase).count() == 1
    # Running it again replaces the snapshot, never adds one.
    confirm(second, second.entry_b_id)
    standings_refresh(phase=phase)
    assert StandingsSnapshot.objects.filter(phase=phase).count() == 1
    rows = by_entry(standings_for_phase(phase=phase)[0]["rows"])
    assert rows[second.entry_b_id]["won"] == 1


@pytest.mark.django_db
def test_each_row_says_which_tiebreak_separated_it():
    t, organizer, entries = field(4, tiebreaks=["matches_won", "stones_won", "lots"])
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    big, small = rnd.matches.order_by("table_number")
    confirm(big, big.entry_a_id, stones=(200, 10))
    confirm(small, small.entry_a_id, stones=(50, 40))
    standings_refresh(phase=phase)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    assert [r["entry_id"] for r in rows[:2]] == [big.entry_a_id, small.entry_a_id]
    assert [r["separated_by"] for r in rows] == [None, "stones_won", "matches_won", "stones_won"]
    assert rows[0]["tiebreaks"][:2] == [
        {"tiebreak": "matches_won", "value": 1},
        {"tiebreak": "stones_won", "value": 200},
    ]
    assert rows[0]["players"] and rows[0]["name"]


@pytest.mark.django_db
def test_a_liguilla_has_one_snapshot_per_group_with_head_to_head():
    t, organizer, entries = field(6)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=3
    )
    written = 0
    for _ in range(3):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.all():
            confirm(m, min(m.entry_a_id, m.entry_b_id))
        round_close(round=rnd, actor=organizer)
        written = standings_refresh(phase=phase)
    assert written == 6
    tables = standings_for_phase(phase=phase)
    assert [g["group"] for g in tables] == ["A", "B"]
    for table in tables:
        assert [r["won"] for r in table["rows"]] == [2, 1, 0]
        assert [r["played"] for r in table["rows"]] == [2, 2, 2]  # a rest is not a match
        ids = [r["entry_id"] for r in table["rows"]]
        assert ids == sorted(ids)  # the better seed won every match
    assert StandingsSnapshot.objects.filter(phase=phase).count() == 2


@pytest.mark.django_db
def test_a_forfeit_counts_as_a_match_the_absent_pair_lost():
    t, organizer, entries = field(2)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=1
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.get()
    confirm(match, match.entry_b_id, kind=Match.Kind.FORFEIT)
    standings_refresh(phase=phase)
    rows = by_entry(standings_for_phase(phase=phase)[0]["rows"])
    assert rows[match.entry_b_id]["won"] == 1 and rows[match.entry_a_id]["lost"] == 1


@pytest.mark.django_db
def test_refreshing_a_phase_that_no_longer_exists_writes_nothing():
    phase = PhaseFactory()
    Phase.objects.filter(pk=phase.pk).delete()

    assert standings_refresh(phase=phase) == 0
    assert standings_refresh_task(987_654) == 0


@pytest.mark.django_db
def test_publishing_and_closing_queue_a_refresh(django_capture_on_commit_callbacks):
    t, organizer, entries = field(3)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, actor=organizer)
    rows = standings_for_phase(phase=phase)[0]["rows"]
    assert sum(r["won"] for r in rows) == 1  # the bye counts once the round is public


@pytest.mark.django_db(transaction=True)
def test_the_real_worker_refreshes_the_standings(celery_worker):
    t, organizer, entries = field(4)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PUBLISHED)
    for m in rnd.matches.all():
        confirm(m, m.entry_a_id)

    # Results are not kept in production (nothing reads them); this call asks for its own.
    result = standings_refresh_task.apply_async((phase.id,), ignore_result=False)
    assert result.get(timeout=180) == 4

    # It went through Redis to the worker process, which read the committed rows.
    assert "tournaments.standings_refresh" in celery_worker.log_path.read_text()
    (table,) = standings_for_phase(phase=phase)
    assert sum(r["won"] for r in table["rows"]) == 2


@pytest.mark.django_db
def test_rows_show_the_pair_as_the_models_name_it():
    t, organizer, entries = field(3)
    named = PairFactory(club=t.club, name="Los de Ezcaray")
    no_club = PairFactory(
        club=None,
        player_one=PlayerFactory(first_name="Ane", last_name=""),
        player_two=PlayerFactory(first_name="Koldo", last_name="Sola Irujo"),
    )
    entries.append(EntryFactory(tournament=t, pair=named, status=Entry.Status.CHECKED_IN))
    entries.append(EntryFactory(tournament=t, pair=no_club, status=Entry.Status.CHECKED_IN))
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)
    standings_refresh(phase=phase)
    rows = by_entry(standings_for_phase(phase=phase)[0]["rows"])
    assert set(rows) == {e.id for e in entries}
    for entry in entries:
        row, pair = rows[entry.id], entry.pair
        assert row["name"] == str(pair)
        assert row["players"] == [str(pair.player_one), str(pair.player_two)]
        assert row["club"] == (pair.club.name if pair.club_id else None)
        assert row["seed"] == entry.seed
        assert row["withdrawn"] is (entry == entries[0])
    assert rows[entries[-1].id]["name"] == "Ane / Koldo Sola Irujo"
    assert rows[entries[-1].id]["club"] is None
    assert rows[entries[-2].id]["name"] == "Los de Ezcaray"


@pytest.mark.django_db
def test_a_refresh_updates_the_stored_snapshot_without_reading_it_back():
    t, organizer, entries = field(4)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    standings_refresh(phase=phase)
    first = StandingsSnapshot.objects.get(phase=phase)
    match = rnd.matches.order_by("table_number").first()
    confirm(match, match.entry_b_id)
    with CaptureQueriesContext(connection) as queries:
        standings_refresh(phase=phase)
    snapshots = [q["sql"] for q in queries if "standingssnapshot" in q["sql"]]
    assert len(snapshots) == 1 and snapshots[0].startswith("UPDATE")
    again = StandingsSnapshot.objects.get(phase=phase)
    assert again.pk == first.pk and again.computed_at > first.computed_at
    assert by_entry(again.rows)[match.entry_b_id]["won"] == 1


def _refresh_queries(phase) -> int:
    with CaptureQueriesContext(connection) as queries:
        standings_refresh(phase=phase)
    return len(queries)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fmt", "sizes"),
    [("swiss", ((4, None), (16, None))), ("round_robin", ((6, 3), (16, 8)))],
)
def test_refresh_queries_do_not_grow_with_the_field(fmt, sizes, django_assert_max_num_queries):
    counts = []
    for pairs, group_size in sizes:
        t, organizer, entries = field(pairs)
        phase = phase_create(
            tournament=t,
            actor=organizer,
            name="Fase",
            format=fmt,
            rounds_planned=3 if fmt == "swiss" else None,
            group_size=group_size,
        )
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            confirm(m, m.entry_a_id)
        standings_refresh(phase=phase)
        counts.append(_refresh_queries(phase))
    assert counts[0] == counts[1]  # a liguilla of 2 groups of 3 and one of 2 groups of 8
    # Lock, reads (a liguilla also its groups' members), one UPDATE per snapshot, savepoints.
    with django_assert_max_num_queries(9 if fmt == "round_robin" else 7):
        standings_refresh(phase=phase)


@pytest.mark.django_db
def test_a_burst_of_results_shares_one_refresh_but_never_loses_one():
    """The task of a result queued before a refresh started skips its own refresh (that
    refresh already read it); one queued after the last refresh still refreshes."""
    import datetime as dt

    from django.utils import timezone

    t, organizer, entries = field(4, games_per_vaca=2, vacas_per_match=1)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    first, second = rnd.matches.order_by("table_number")
    confirm(first, first.entry_a_id)
    queued_before = timezone.now() - dt.timedelta(seconds=5)
    assert standings_refresh(phase=phase) == 4
    shown = by_entry(standings_for_phase(phase=phase)[0]["rows"])
    assert shown[first.entry_a_id]["won"] == 1

    # The task of the first result, still in the queue: the refresh above already holds it.
    assert standings_refresh(phase=phase, queued_after=queued_before) is None
    assert standings_refresh_task(phase.pk, queued_before.isoformat()) is None

    # A result confirmed after that refresh: its task must refresh, and the row shows it.
    confirm(second, second.entry_b_id)
    queued_now = timezone.now()
    assert standings_refresh_task(phase.pk, queued_now.isoformat()) == 4
    shown = by_entry(standings_for_phase(phase=phase)[0]["rows"])
    assert shown[second.entry_b_id]["won"] == 1
