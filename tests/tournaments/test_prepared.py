"""Querysets compiled once (tournaments/selectors/prepared.py): the same instances as the ORM
gives, with their select_related relations, for any value of the parameter; and a queryset
whose SQL would depend on the value is refused when it is compiled."""

from __future__ import annotations

import threading

import pytest
from django.db import transaction

from tests.factories import MatchFactory
from tournaments.models import LatePenalty, Match
from tournaments.selectors.prepared import Prepared
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


def test_each_thread_compiles_its_own():
    match = MatchFactory()
    prepared = Prepared(lambda pk: Match.objects.filter(pk=pk), -1)
    assert [m.pk for m in prepared.run(match.pk)] == [match.pk]
    seen = []
    worker = threading.Thread(target=lambda: seen.append(prepared._local.__dict__.get("compiled")))
    worker.start()
    worker.join()
    assert seen == [None]


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
