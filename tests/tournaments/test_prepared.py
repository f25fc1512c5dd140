"""Queries compiled once (tournaments/selectors/prepared.py): the same instances as the ORM
gives, with their select_related relations, for any value of the parameter; and a queryset
whose SQL would depend on the value is refused when it is compiled. The compiled writes store
what create() and save(update_fields=…) store; an insert that ignores conflicts leaves a
refused row out without breaking the transaction it runs in."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import F

from tests.factories import MatchFactory
from tournaments.models import AuditEntry, LatePenalty, Match, ResultSubmission
from tournaments.selectors.prepared import Prepared, PreparedInsert, PreparedUpdate
from tournaments.selectors.results import TABLE_RELATIONS, match_by_token, match_late_penalties

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_same_match_and_relations_as_the_orm_for_every_token(django_assert_num_queries):
    matches = [MatchFactory(), MatchFactory(entry_b=None, bracket_key="W1-1")]
    for match in matches:
        expected = Match.objects.select_related(*TABLE_RELATIONS).get(pk=match.pk)
        with django_assert_num_queries(1):  # the relations come with it
            found = match_by_token(match.token, relations=TABLE_RELATIONS)
            assert fields(found) == fields(expected)
            assert fields(found.round.phase.tournament.club) == fields(
                expected.round.phase.tournament.club
            )
            assert fields(found.entry_a.pair.player_two) == fields(expected.entry_a.pair.player_two)
            assert (found.entry_b is None) == (expected.entry_b is None)
    assert match_by_token("no-such-token", relations=TABLE_RELATIONS) is None
    assert match_by_token("", relations=TABLE_RELATIONS) is None


@pytest.mark.parametrize("other", [{"relations": ("round",)}, {"lock": True}])
def test_the_table_s_read_refuses_relations_or_a_lock_it_would_not_honour(other):
    # It reads TABLE_RELATIONS and no lock, whatever it is given: asking for less or for a lock
    # is a mistake to see at once, not a match read without what the caller counted on.
    with pytest.raises(ValueError, match="TABLE_RELATIONS"):
        match_by_token("x", **{"relations": TABLE_RELATIONS, **other}, table_read=True)


def test_under_a_lock_inside_a_transaction():
    match = MatchFactory()
    with transaction.atomic():
        locked = match_by_token(match.token, relations=("round",), lock=True)
    assert locked.pk == match.pk and Match.round.is_cached(locked)


def test_a_list_in_order_with_its_match_set(django_assert_num_queries):
    match = MatchFactory()
    late = [
        LatePenalty.objects.create(match=match, entry=match.entry_a, minutes_late=m, games_lost=1)
        for m in (5, 25)
    ]
    with django_assert_num_queries(1):
        found = match_late_penalties(match)
        assert [p.pk for p in found] == [p.pk for p in late]
        assert all(p.match is match for p in found)  # no query for it
    assert match_late_penalties(MatchFactory()) == []


@pytest.mark.django_db(transaction=True)  # the other thread's connection sees the rows
def test_compiled_once_for_the_process_and_run_on_each_thread_s_own_connection():
    # gunicorn's threads start as the first phones arrive: none may compile the SQL again.
    match = MatchFactory()
    read = Prepared(lambda pk: Match.objects.filter(pk=pk), -1)
    insert = PreparedInsert(LatePenalty)
    assert [m.pk for m in read.run(match.pk)] == [match.pk]
    insert.run(match=match, entry=match.entry_a, minutes_late=5, games_lost=1)
    compiled, main = (read.compiled, insert.compiled), connections["default"]
    seen = []

    def phone() -> None:
        try:
            found = read.run(match.pk)[0]
            late = insert.run(match=match, entry=match.entry_b, minutes_late=9, games_lost=1)
            seen.append((found.pk, found.created_at, late.minutes_late, connections["default"]))
            seen.append((read.compiled, insert.compiled))
        finally:
            connections.close_all()

    worker = threading.Thread(target=phone)
    worker.start()
    worker.join()

    [(pk, created_at, minutes, used), again] = seen
    assert (pk, created_at, minutes) == (match.pk, match.created_at, 9)  # converters applied
    assert used is not main  # its own connection
    assert again == compiled  # not compiled again
    assert LatePenalty.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(
    "build",
    [
        lambda pk: Match.objects.filter(pk=pk) | Match.objects.filter(round_id=pk),  # twice
        lambda pk: Match.objects.filter(round_id=7),  # not there at all
        lambda pk: Match.objects.filter(pk=pk).only("id"),
        lambda pk: Match.objects.filter(pk=pk).values("id"),
        lambda pk: Match.objects.filter(pk=pk).prefetch_related("hands"),
    ],
)
def test_what_cannot_be_prepared_is_refused(build):
    with pytest.raises(ValueError, match="Prepared"):
        Prepared(build, -1).run(1)


def submission_values(match, key: str) -> dict:
    return {
        "match": match,
        "side": "a",
        "via": "link",
        "payload": {"games": [{"stones": [40, 12]}]},
        "summary": {"winner": "A", "games": []},
        "idempotency_key": key,
        "based_on_version": 3,
        "device": "phone",
        "created_by": None,
    }


def test_an_insert_stores_what_create_stores(django_assert_num_queries):
    match = MatchFactory()
    expected = ResultSubmission.objects.create(**submission_values(match, "orm"))
    with django_assert_num_queries(1):
        stored = PreparedInsert(ResultSubmission).run(**submission_values(match, "prepared"))
    assert stored.pk is not None and stored.pk != expected.pk
    assert stored.created_at is not None and not stored._state.adding
    again = ResultSubmission.objects.get(pk=stored.pk)
    assert fields(again) == fields(stored)
    differ = {"id", "idempotency_key", "created_at"}
    assert {k: v for k, v in fields(again).items() if k not in differ} == {
        k: v for k, v in fields(expected).items() if k not in differ
    }
    audit = PreparedInsert(AuditEntry).run(
        tournament_id=match.round.phase.tournament_id, match=match, action="x", old=None, new={}
    )
    assert fields(AuditEntry.objects.get(pk=audit.pk)) == fields(audit)
    assert audit.old is None and audit.new == {}  # SQL NULL and an empty JSON object


def test_a_row_a_unique_constraint_refuses_is_left_out_and_the_transaction_goes_on():
    match = MatchFactory()
    insert = PreparedInsert(ResultSubmission, ignore_conflicts=True)
    with transaction.atomic():
        first = insert.run(**submission_values(match, "same-key"))
        assert insert.run(**submission_values(match, "same-key")) is None
        # on PostgreSQL an INSERT that failed would have aborted the transaction here
        assert ResultSubmission.objects.filter(match=match).count() == 1
        assert insert.run(**submission_values(match, "other-key")) is not None
    assert ResultSubmission.objects.get(match=match, idempotency_key="same-key").pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        PreparedInsert(ResultSubmission).run(**submission_values(match, "same-key"))


def test_an_update_saves_its_columns_only(django_assert_num_queries):
    match = MatchFactory(table_number=4)
    winner = match.entry_a_id
    Match.objects.filter(pk=match.pk).update(winner_id=winner, result={"x": 1})
    before = Match.objects.get(pk=match.pk).updated_at
    match.status, match.version, match.table_number = Match.Status.SUBMITTED, 5, 9
    match.winner_id, match.result = None, None
    update = PreparedUpdate(Match, ("status", "version", "winner", "result", "updated_at"))
    with django_assert_num_queries(1):
        update.run(match)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.version) == (Match.Status.SUBMITTED, 5)
    assert stored.winner_id is None and stored.result is None  # NULL, not JSON null
    assert stored.table_number == 4  # not among its columns
    assert stored.updated_at == match.updated_at and stored.updated_at > before  # auto_now
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update.run(match)


def test_what_cannot_be_written_so_is_refused():
    match = MatchFactory()
    with pytest.raises(ValueError, match="Prepared"):
        PreparedUpdate(Match, ("id", "status")).run(match)
    match.version = F("version") + 1
    with pytest.raises(ValueError, match="Prepared"):
        PreparedUpdate(Match, ("version",)).run(match)
