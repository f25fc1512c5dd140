"""A peña with an organizer and its pairs, and helpers to play a league's matches through the
tournaments' result flow (the organizer's entry, which confirms at once)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from clubs.models import Membership
from seasons.leagues import services
from seasons.leagues.models import League
from tests.factories import ClubFactory, MembershipFactory, PairFactory, PlayerFactory, UserFactory
from tournaments.models import Match
from tournaments.services import results

_keys = itertools.count()

MONDAYS = [dt.date(2026, 10, 5) + dt.timedelta(weeks=k) for k in range(12)]


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def club(organizer):
    club = ClubFactory(name="Peña Txiki", slug="txiki")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    return club


def make_pairs(club, n):
    pairs = []
    for _ in range(n):
        one, two = PlayerFactory(), PlayerFactory()
        one.clubs.add(club)
        two.clubs.add(club)
        pairs.append(PairFactory(club=club, player_one=one, player_two=two))
    return pairs


def pairs_league(club, organizer, *, divisions=((5, 0, 1), (4, 1, 0)), legs=1, **kwargs):
    """A fixed-pairs league with a division per (pairs, promote, relegate), and its calendar."""
    league = services.league_create(
        club=club,
        actor=organizer,
        name=kwargs.pop("name", "Liga de otoño"),
        season=kwargs.pop("season", "2026"),
        legs=legs,
        dates=kwargs.pop("dates", MONDAYS),
        **kwargs,
    )
    for i, (n, promote, relegate) in enumerate(divisions):
        services.division_create(
            league=league,
            actor=organizer,
            name=["Primera", "Segunda", "Tercera"][i],
            pair_ids=[p.pk for p in make_pairs(club, n)],
            promote=promote,
            relegate=relegate,
        )
    return league


def win(match: Match, side: str, organizer) -> None:
    """The organizer enters the result: ``side`` wins 3–1 (games to 40, 3 games a vaca)."""
    match.refresh_from_db()
    games = [[40, 20], [20, 40], [40, 30], [40, 10]]
    if side == "b":
        games = [[b, a] for a, b in games]
    results.match_result_submit(
        match=match,
        side="organizer",
        payload={"games": [{"stones": g} for g in games]},
        idempotency_key=f"t{next(_keys)}",
        version=match.version,
        via="account",
        actor=organizer,
    )


def kinds():
    return League.Kind
