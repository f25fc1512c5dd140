"""Merges that two organizers make at the same moment, on PostgreSQL with real row locks: one
wins, the other is refused, and nothing is left half-done."""

from __future__ import annotations

import pytest

from clubs.identity.services import player_merge, player_merge_undo
from clubs.models import Pair, Player, PlayerMerge
from config.errors import Conflict
from tests.clubs.identity_data import references, world
from tests.clubs.test_clubs_races import race
from tests.factories import MembershipFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def second_organizer(w):
    other = MembershipFactory(club=w.txoko).user
    MembershipFactory(club=w.lizarra, user=other)
    return other


def one_merge_whole(w) -> PlayerMerge:
    """Exactly one merge, and every reference where that merge put it."""
    [merge] = PlayerMerge.objects.all()
    keep, other = merge.keep, merge.other
    assert other.merged_into == keep and keep.merged_into is None
    assert not any(rows for rows in references(other).values())
    assert (
        Pair.objects.filter(player_one=keep).count() + Pair.objects.filter(player_two=keep).count()
        == 2
    )
    return merge


@pytest.mark.parametrize("attempt", range(3))
def test_two_organizers_merging_the_same_rows_at_once(attempt):
    w = world()
    two = second_organizer(w)
    results = race(
        lambda: player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra),
        lambda: player_merge(actor=two, keep=w.ana, other=w.ana_lizarra),
    )
    assert sum(isinstance(r, PlayerMerge) for r in results) == 1, results
    [refused] = [r for r in results if isinstance(r, Exception)]
    assert isinstance(refused, Conflict) and refused.code == "player_merged_already"
    one_merge_whole(w)


@pytest.mark.parametrize("attempt", range(3))
def test_two_organizers_merging_the_same_rows_each_into_the_other(attempt):
    w = world()
    two = second_organizer(w)
    results = race(
        lambda: player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra),
        lambda: player_merge(actor=two, keep=w.ana_lizarra, other=w.ana),
    )
    assert sum(isinstance(r, PlayerMerge) for r in results) == 1, results
    assert all(
        isinstance(r, PlayerMerge)
        or (isinstance(r, Conflict) and r.code == "player_merged_already")
        for r in results
    )
    one_merge_whole(w)


def test_two_organizers_undoing_one_merge_at_once():
    w = world()
    two = second_organizer(w)
    before = references(w.ana, w.ana_lizarra)
    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    results = race(
        lambda: player_merge_undo(actor=w.organizer_both, merge=merge),
        lambda: player_merge_undo(actor=two, merge=merge),
    )
    assert sum(isinstance(r, PlayerMerge) for r in results) == 1, results
    [refused] = [r for r in results if isinstance(r, Exception)]
    assert isinstance(refused, Conflict) and refused.code == "player_merge_undone_already"
    assert references(w.ana, w.ana_lizarra) == before
    assert Player.objects.get(pk=w.ana_lizarra.pk).merged_into is None
