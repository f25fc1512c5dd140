"""Membership and pair writes that two phones race, on PostgreSQL with real row locks."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from clubs import services
from clubs.models import Membership, Pair, Player
from config.errors import Conflict
from tests.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

OWNER, MEMBER = Membership.Role.OWNER, Membership.Role.MEMBER


def race(*calls: Callable[[], object]) -> list[object]:
    """Run the calls at the same moment in threads; return each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=60)
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    return results


@pytest.mark.parametrize("attempt", range(3))
def test_two_owners_demoting_each_other_leave_exactly_one_owner(attempt):
    club = ClubFactory()
    one = MembershipFactory(club=club, role=OWNER).user
    two = MembershipFactory(club=club, role=OWNER).user
    results = race(
        lambda: services.membership_role_change(user=one, club=club, member_id=two.pk, role=MEMBER),
        lambda: services.membership_role_change(user=two, club=club, member_id=one.pk, role=MEMBER),
    )
    # The one that went second found itself no longer an owner (Forbidden) or the other one
    # the last owner (Conflict): never both demoted.
    assert sorted(type(r).__name__ for r in results)[0] in ("Conflict", "Forbidden")
    assert sum(isinstance(r, Membership) for r in results) == 1
    assert Membership.objects.filter(club=club, role=OWNER).count() == 1


def test_two_owners_leaving_at_once_leave_one_owner():
    club = ClubFactory()
    one = MembershipFactory(club=club, role=OWNER).user
    two = MembershipFactory(club=club, role=OWNER).user
    results = race(
        lambda: services.membership_remove(user=one, club=club, member_id=one.pk),
        lambda: services.membership_remove(user=two, club=club, member_id=two.pk),
    )
    assert sum(isinstance(r, Conflict) for r in results) == 1
    assert Membership.objects.filter(club=club, role=OWNER).count() == 1


def test_the_same_pasted_line_twice_at_once_creates_one_pair_and_two_players():
    club = ClubFactory()
    results = race(
        *[
            lambda: services.pair_get_or_create_from_names(
                club=club, text="Ana García / Luis Pérez"
            )
            for _ in range(3)
        ]
    )
    assert all(isinstance(r, Pair) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Player.objects.filter(clubs=club).count() == 2
