"""Tables of a round: assignment, pins, and the organizer's changes before the round starts."""

from __future__ import annotations

import functools

import pytest
from django.utils import timezone

from config.errors import Conflict, Invalid
from tests.factories import EntryFactory, tournament_field
from tournaments.draw import DrawError
from tournaments.models import AuditEntry, Entry, Match, Round
from tournaments.services.rounds import (
    match_table_move,
    phase_create,
    round_close,
    round_draw_generate,
    round_entries_swap,
    round_publish,
    round_tables_swap,
)

pytestmark = pytest.mark.django_db


field = functools.partial(tournament_field, seeded=False)


def swiss_round(t, organizer) -> Round:
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    return round_draw_generate(phase=phase, actor=organizer)


def table_of(rnd: Round, entry: Entry) -> int | None:
    m = rnd.matches.filter(entry_a=entry).first() or rnd.matches.get(entry_b=entry)
    return m.table_number


def test_more_matches_than_tables_is_refused_with_the_draw_message():
    t, organizer, _ = field(10, tables=4)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    with pytest.raises(DrawError) as error:
        round_draw_generate(phase=phase, actor=organizer)
    assert error.value.code == "tables_too_few"
    assert "5 matches but only 4 tables" in str(error.value)
    assert not Round.objects.filter(phase=phase).exists()


def test_tables_available_are_used_from_table_one():
    t, organizer, _ = field(8, tables=6)
    rnd = swiss_round(t, organizer)
    assert sorted(rnd.matches.values_list("table_number", flat=True)) == [1, 2, 3, 4]


def test_a_pinned_pair_sits_at_its_table_and_the_top_match_takes_table_one():
    t, organizer, entries = field(8, tables=6)
    entries[5].pinned_table = 4
    entries[5].save()
    rnd = swiss_round(t, organizer)
    assert table_of(rnd, entries[5]) == 4
    tables = sorted(rnd.matches.values_list("table_number", flat=True))
    assert tables == [1, 2, 3, 4]
    top = rnd.matches.order_by("id").first()  # saved in draw order: the best match first
    assert top.table_number == 1 or entries[5].id in (top.entry_a_id, top.entry_b_id)


def test_a_pin_to_a_table_that_does_not_exist_is_refused():
    t, organizer, entries = field(4, tables=3)
    entries[0].pinned_table = 9
    entries[0].save()
    with pytest.raises(DrawError) as error:
        swiss_round(t, organizer)
    assert error.value.code == "tables_pin_missing"


def test_swapping_two_pairs_changes_both_matches_and_is_audited():
    t, organizer, entries = field(8)
    rnd = swiss_round(t, organizer)
    first, second = rnd.matches.order_by("table_number")[:2]
    versions = first.version, second.version
    moving, other = first.entry_a_id, second.entry_b_id
    round_entries_swap(round=rnd, actor=organizer, entry_id=moving, other_entry_id=other)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.entry_a_id == other and second.entry_b_id == moving
    assert (first.version, second.version) == versions  # results are untouched
    assert first.reasons[0]["code"] == "organizer_swap"
    audit = AuditEntry.objects.filter(action="match_entries_swapped").order_by("id")
    assert [a.match_id for a in audit] == [first.id, second.id]
    assert audit[0].old["entry_a"] == moving and audit[0].new["entry_a"] == other
    assert audit[0].actor == organizer


def test_a_pair_swapped_into_the_bye_gets_the_bye():
    t, organizer, entries = field(5)
    rnd = swiss_round(t, organizer)
    bye = rnd.matches.get(kind=Match.Kind.BYE)
    match = rnd.matches.exclude(kind=Match.Kind.BYE).first()
    resting, playing = bye.entry_a_id, match.entry_a_id
    round_entries_swap(round=rnd, actor=organizer, entry_id=resting, other_entry_id=playing)
    bye.refresh_from_db()
    match.refresh_from_db()
    assert bye.entry_a_id == bye.winner_id == playing
    assert match.entry_a_id == resting


def test_swap_errors_say_what_is_wrong():
    t, organizer, entries = field(4)
    rnd = swiss_round(t, organizer)
    match = rnd.matches.first()
    outsider = EntryFactory(tournament=t, status=Entry.Status.WITHDRAWN)
    with pytest.raises(Invalid) as error:
        round_entries_swap(
            round=rnd, actor=organizer, entry_id=match.entry_a_id, other_entry_id=outsider.id
        )
    assert error.value.code == "swap_entry_not_in_round"
    with pytest.raises(Invalid) as error:
        round_entries_swap(
            round=rnd,
            actor=organizer,
            entry_id=match.entry_a_id,
            other_entry_id=match.entry_b_id,
        )
    assert error.value.code == "swap_same_match"


def test_swapping_tables_and_moving_to_a_free_table():
    t, organizer, _ = field(8, tables=6)
    rnd = swiss_round(t, organizer)
    one = rnd.matches.get(table_number=1)
    three = rnd.matches.get(table_number=3)
    round_tables_swap(round=rnd, actor=organizer, match_id=one.id, other_match_id=three.id)
    one.refresh_from_db()
    three.refresh_from_db()
    assert (one.table_number, three.table_number) == (3, 1)
    match_table_move(round=rnd, actor=organizer, match_id=one.id, table_number=6)
    one.refresh_from_db()
    assert one.table_number == 6
    assert AuditEntry.objects.filter(action="match_tables_swapped").count() == 2
    moved = AuditEntry.objects.get(action="match_table_moved")
    assert (moved.old["table"], moved.new["table"]) == (3, 6)
    with pytest.raises(Conflict) as error:
        match_table_move(round=rnd, actor=organizer, match_id=one.id, table_number=1)
    assert error.value.code == "table_taken"
    with pytest.raises(Invalid) as error:
        match_table_move(round=rnd, actor=organizer, match_id=one.id, table_number=7)
    assert error.value.code == "table_out_of_range"


@pytest.mark.parametrize("how", ["in_progress", "started_at", "submitted"])
def test_changes_are_refused_once_a_match_of_the_round_started(how):
    t, organizer, _ = field(8, tables=6)
    rnd = swiss_round(t, organizer)
    round_publish(round=rnd, actor=organizer)
    first, second = rnd.matches.order_by("table_number")[:2]
    if how == "started_at":
        second.started_at = timezone.now()
    else:
        second.status = how
    second.save()
    attempts = [
        lambda: round_entries_swap(
            round=rnd, actor=organizer, entry_id=first.entry_a_id, other_entry_id=second.entry_a_id
        ),
        lambda: round_tables_swap(
            round=rnd, actor=organizer, match_id=first.id, other_match_id=second.id
        ),
        lambda: match_table_move(round=rnd, actor=organizer, match_id=first.id, table_number=6),
    ]
    for attempt in attempts:
        with pytest.raises(Conflict) as error:
            attempt()
        assert error.value.code == "round_started"
        assert error.value.params["tables"] == [second.table_number]
    first.refresh_from_db()
    assert first.table_number == 1
    assert not AuditEntry.objects.filter(action__startswith="match_").exists()


def test_changes_are_refused_in_a_closed_round():
    t, organizer, _ = field(2)
    rnd = swiss_round(t, organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.get()
    match.status, match.winner_id = Match.Status.CONFIRMED, match.entry_a_id
    match.save()
    round_close(round=rnd, actor=organizer)
    with pytest.raises(Conflict) as error:
        match_table_move(round=rnd, actor=organizer, match_id=match.id, table_number=2)
    assert error.value.code == "round_closed"


def test_a_change_after_publishing_emails_only_the_players_it_moved(
    mailoutbox, django_capture_on_commit_callbacks
):
    t, organizer, entries = field(6, tables=5)
    for n, entry in enumerate(entries):
        player = entry.pair.player_one
        player.email = f"p{n}@example.org"
        player.save()
    rnd = swiss_round(t, organizer)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, actor=organizer)
    assert len(mailoutbox) == 6
    a, b = rnd.matches.order_by("table_number")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match_table_move(round=rnd, actor=organizer, match_id=a.id, table_number=5)
    # The two players of the moved match hear about their new table, nobody else.
    assert len(mailoutbox) == 8
    assert all("mesa 5" in m.subject for m in mailoutbox[6:])
    moved = {e.pair.player_one.email for e in entries if e.id in (a.entry_a_id, a.entry_b_id)}
    assert {to for m in mailoutbox[6:] for to in m.to} == moved
