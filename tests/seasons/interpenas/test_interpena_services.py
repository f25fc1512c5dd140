"""Interpeñas on the database: line-ups, boards on the tournaments' result flow, the team
result and the captains' confirmation."""

from __future__ import annotations

import pytest

from config.errors import Conflict, Forbidden, Invalid, StaleVersion
from seasons.interpenas.models import Interpena
from seasons.interpenas.result import HOME, signature
from seasons.interpenas.selectors import interpena_result
from seasons.interpenas.services import (
    interpena_board_confirm,
    interpena_board_submit,
    interpena_lineup_set,
    interpena_team_confirm,
)
from tests.factories import PairFactory, UserFactory
from tests.seasons.circuits.helpers import GAMES_AWAY, GAMES_HOME, fielded, two_peñas
from tournaments.models import Match, Round
from tournaments.services.results import match_for_token, match_result_submit

pytestmark = pytest.mark.django_db


def test_each_peña_fields_its_own_pairs_and_the_second_lays_out_the_boards():
    interpena, home_org, away_org, home_pairs, away_pairs = two_peñas(2)
    with pytest.raises(Forbidden):  # the away organizer does not field the home side
        interpena_lineup_set(
            actor=away_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
        )
    with pytest.raises(Invalid) as error:  # a pair of the other peña
        interpena_lineup_set(
            actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in away_pairs]
        )
    assert error.value.code == "interpena_pair_unknown"
    twice = PairFactory(club=home_pairs[0].club, player_one=home_pairs[0].player_one)
    with pytest.raises(Invalid) as error:
        interpena_lineup_set(
            actor=home_org, interpena=interpena, side="home", pair_ids=[home_pairs[0].pk, twice.pk]
        )
    assert error.value.code == "interpena_player_twice"
    interpena_lineup_set(
        actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
    )
    assert Interpena.objects.get().status == Interpena.Status.LINEUPS
    interpena = interpena_lineup_set(
        actor=away_org, interpena=interpena, side="away", pair_ids=[p.pk for p in away_pairs]
    )
    assert interpena.status == Interpena.Status.PLAYING
    matches = list(Match.objects.filter(round=interpena.round).order_by("table_number"))
    assert [m.entry_a.pair_id for m in matches] == [p.pk for p in home_pairs]
    assert [m.entry_b.pair_id for m in matches] == [p.pk for p in away_pairs]
    assert interpena.round.status == Round.Status.PUBLISHED
    assert not interpena.tournament.is_public  # its container is no tournament of the lists
    with pytest.raises(Conflict):
        interpena_lineup_set(
            actor=home_org, interpena=interpena, side="home", pair_ids=[p.pk for p in home_pairs]
        )


def _play(interpena, home_org, away_org):
    """Board A through the organizers (home enters, away confirms), board B at the table."""
    answer = interpena_board_submit(
        actor=home_org,
        interpena=interpena,
        board=1,
        side="home",
        payload=GAMES_HOME,
        idempotency_key="a-home",
        version=0,
    )
    assert answer.match.status == Match.Status.SUBMITTED
    interpena_board_confirm(
        actor=away_org,
        interpena=interpena,
        board=1,
        side="away",
        idempotency_key="a-away",
        version=answer.match.version,
    )
    board_b = Match.objects.get(round=interpena.round, table_number=2)
    match = match_for_token(token=board_b.token)  # the table's link, as the phones use it
    first = match_result_submit(
        match=match, side="a", payload=GAMES_AWAY, idempotency_key="b-a", version=0, via="link"
    )
    match_result_submit(
        match=match,
        side="b",
        payload=GAMES_AWAY,
        idempotency_key="b-b",
        version=first.match.version,
        via="link",
    )


def test_boards_are_played_on_the_tournaments_result_flow_and_summed():
    interpena, home_org, away_org = fielded(2)
    with pytest.raises(Forbidden):  # an organizer enters only for their own peña's pair
        interpena_board_submit(
            actor=away_org,
            interpena=interpena,
            board=1,
            side="home",
            payload=GAMES_HOME,
            idempotency_key="x",
            version=0,
        )
    _play(interpena, home_org, away_org)
    result, boards = interpena_result(interpena=interpena)
    assert (result.boards_home, result.boards_away) == (1, 1)
    assert (result.games_home, result.games_away) == (3 + 0, 1 + 3)
    assert result.complete and result.winner == "away"  # equal boards, more juegos


def test_both_captains_confirm_the_team_result_they_saw():
    interpena, home_org, away_org = fielded(2)
    captain = UserFactory()
    interpena.away_captain = captain
    interpena.save()
    with pytest.raises(Conflict) as error:
        interpena_team_confirm(actor=home_org, interpena=interpena, side="home", result_version="")
    assert error.value.code == "interpena_boards_pending"
    _play(interpena, home_org, away_org)
    _, boards = interpena_result(interpena=interpena)
    seen = signature(boards)
    with pytest.raises(StaleVersion):
        interpena_team_confirm(actor=home_org, interpena=interpena, side=HOME, result_version="1.1")
    interpena = interpena_team_confirm(
        actor=home_org, interpena=interpena, side="home", result_version=seen
    )
    assert interpena.status == Interpena.Status.PLAYING
    with pytest.raises(Forbidden) as error:  # a captain is named: the organizer is not it
        interpena_team_confirm(
            actor=away_org, interpena=interpena, side="away", result_version=seen
        )
    assert error.value.code == "interpena_not_captain"
    interpena = interpena_team_confirm(
        actor=captain, interpena=interpena, side="away", result_version=seen
    )
    assert interpena.status == Interpena.Status.CONFIRMED and interpena.confirmed_at


def test_a_stranger_cannot_confirm_for_a_peña():
    interpena, *_ = fielded(1)
    with pytest.raises(Forbidden):
        interpena_team_confirm(
            actor=UserFactory(), interpena=interpena, side="home", result_version=""
        )
