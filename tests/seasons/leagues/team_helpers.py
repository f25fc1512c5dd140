"""A league of peñas for the tests: peñas with an organizer and pairs each, and a fixture
played end to end through the interpeña's services (line-ups, boards, captains)."""

from __future__ import annotations

import datetime as dt
import itertools

from clubs.models import Membership
from seasons.interpenas.models import InterpenaBoard
from seasons.interpenas.result import signature
from seasons.interpenas.selectors import interpena_result
from seasons.interpenas.services import (
    interpena_board_confirm,
    interpena_board_submit,
    interpena_lineup_set,
    interpena_team_confirm,
)
from seasons.leagues.models import TeamFixture
from seasons.leagues.teams import services as team_services
from tests.factories import ClubFactory, MembershipFactory, PairFactory, UserFactory
from tests.seasons.circuits.helpers import GAMES_AWAY, GAMES_HOME

_keys = itertools.count()
_batches = itertools.count()

SUNDAYS = [dt.date(2026, 10, 4) + dt.timedelta(weeks=k) for k in range(30)]


def peñas(n: int, boards: int = 2):
    """``n`` peñas, each with its organizer (``org-<slug>``) and ``boards`` pairs."""
    out = []
    batch = next(_batches)
    suffix = f" {batch}" if batch else ""
    for i in range(n):
        club = ClubFactory(
            name=f"Peña {chr(65 + i)}{suffix}", slug=f"pena-{chr(97 + i)}{batch or ''}"
        )
        user = UserFactory(username=f"org-{club.slug}")
        MembershipFactory(club=club, user=user, role=Membership.Role.ORGANIZER)
        pairs = [PairFactory(club=club) for _ in range(boards)]
        out.append((club, user, pairs))
    return out


def team_league(n: int = 4, *, boards: int = 2, legs: int = 1, **kwargs):
    """A league of ``n`` peñas run by the first one; (league, peñas)."""
    teams = peñas(n, boards)
    rounds = (n if n % 2 else n - 1) * legs
    league = team_services.team_league_create(
        club=teams[0][0],
        actor=teams[0][1],
        name=kwargs.pop("name", "Liga de peñas"),
        season=kwargs.pop("season", "2026-27"),
        club_ids=[c.pk for c, _u, _p in teams],
        dates=kwargs.pop("dates", SUNDAYS[:rounds]),
        boards=boards,
        legs=legs,
        **kwargs,
    )
    return league, teams


def play(league, teams, fixture: TeamFixture, winners: list[str], *, captains=True):
    """Open ``fixture`` (by its home peña), field both sides, each board won by the side named
    in ``winners`` ("home"/"away"), and — ``captains`` — both captains confirm."""
    by_club = {c.pk: (u, p) for c, u, p in teams}
    home_org, home_pairs = by_club[fixture.home_club_id]
    away_org, away_pairs = by_club[fixture.away_club_id]
    fixture = team_services.team_fixture_open(league=league, fixture_id=fixture.pk, actor=home_org)
    interpena = fixture.interpena
    interpena_lineup_set(
        actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
    )
    interpena = interpena_lineup_set(
        actor=away_org, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
    )
    for number, winner in enumerate(winners, start=1):
        board = InterpenaBoard.objects.select_related("match").get(
            interpena=interpena, number=number
        )
        answer = interpena_board_submit(
            actor=home_org,
            interpena=interpena,
            board=number,
            side="home",
            payload=GAMES_HOME if winner == "home" else GAMES_AWAY,
            idempotency_key=f"k{next(_keys)}",
            version=board.match.version,
        )
        interpena_board_confirm(
            actor=away_org,
            interpena=interpena,
            board=number,
            side="away",
            idempotency_key=f"k{next(_keys)}",
            version=answer.match.version,
        )
    if captains:
        _result, boards = interpena_result(interpena=interpena)
        for side, user in (("home", home_org), ("away", away_org)):
            interpena_team_confirm(
                actor=user, interpena=interpena, side=side, result_version=signature(boards)
            )
    return fixture
