"""What the circuits' tests share: a finished tournament with stored standings, an interpeña."""

from __future__ import annotations

import datetime as dt

from seasons.interpenas.services import interpena_create, interpena_lineup_set
from tests.factories import (
    EntryFactory,
    MembershipFactory,
    PairFactory,
    PhaseFactory,
    TournamentFactory,
)
from tournaments.models import StandingsSnapshot, Tournament


def finished_tournament(club, pairs, *, day: int = 1, status=Tournament.Status.FINISHED):
    """A public tournament of ``club`` whose one phase's stored standings rank ``pairs`` in
    order (the first is first)."""
    tournament = TournamentFactory(
        club=club, status=status, starts_on=dt.date(2026, 7, day), is_public=True
    )
    phase = PhaseFactory(tournament=tournament, order=1)
    entries = [EntryFactory(tournament=tournament, pair=pair) for pair in pairs]
    StandingsSnapshot.objects.create(
        phase=phase,
        rows=[{"rank": i + 1, "entry_id": e.pk} for i, e in enumerate(entries)],
    )
    return tournament


def two_peñas(boards: int = 2):
    """Two peñas, an organizer each, ``boards`` pairs each, and an interpeña between them."""
    home = MembershipFactory().club
    away = MembershipFactory().club
    home_org = home.memberships.get().user
    away_org = away.memberships.get().user
    home_pairs = [PairFactory(club=home) for _ in range(boards)]
    away_pairs = [PairFactory(club=away) for _ in range(boards)]
    interpena = interpena_create(
        actor=home_org,
        home_club=home,
        away_club_id=away.pk,
        played_on=dt.date(2026, 12, 5),
        boards=boards,
    )
    return interpena, home_org, away_org, home_pairs, away_pairs


def fielded(boards: int = 2):
    interpena, home_org, away_org, home_pairs, away_pairs = two_peñas(boards)
    interpena_lineup_set(
        actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
    )
    interpena = interpena_lineup_set(
        actor=away_org, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
    )
    return interpena, home_org, away_org


#: the home pair wins 3–1, the away pair 3–0 (the default rules: three juegos of 40)
GAMES_HOME = {
    "games": [{"stones": [40, 20]}, {"stones": [40, 31]}, {"stones": [9, 40]}, {"stones": [40, 5]}]
}
GAMES_AWAY = {"games": [{"stones": [12, 40]}, {"stones": [30, 40]}, {"stones": [25, 40]}]}
