"""A fixed-pairs league on the database: calendar, draw, publish, results, standings."""

from __future__ import annotations

import pytest

from seasons.leagues import selectors, services
from seasons.leagues.models import Jornada
from tests.seasons.leagues.conftest import pairs_league, win
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db


def test_a_jornada_is_drawn_published_and_played_on_the_tables_result_flow(club, organizer):
    league = pairs_league(club, organizer)
    jornada = selectors.jornada_get(league=league, number=1)
    services.jornada_draw(jornada=jornada, actor=organizer)
    rounds = list(Round.objects.filter(phase__league_division__league=league))
    assert {r.status for r in rounds} == {Round.Status.DRAFT}
    matches = list(Match.objects.filter(round__in=rounds).order_by("table_number"))
    # 5 pairs: 2 matches and a rest; 4 pairs: 2 matches. Tables run across the night.
    assert [m.table_number for m in matches] == [1, 2, 3, 4]
    services.jornada_publish(jornada=jornada, actor=organizer)
    assert Jornada.objects.get(pk=jornada.pk).status == Jornada.Status.PUBLISHED
    for m in matches:
        win(m, "a", organizer)
    standings = selectors.league_standings(league=league)
    primera = standings[0]
    assert [r.points for r in primera.rows] == [2, 2, 1, 1, 0]
    assert primera.rows[-1].played == 0  # the pair that rested
