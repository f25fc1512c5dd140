"""An interpeña that is a fixture of a league of peñas links back to its league and jornada
(templates/interpenas/interpena.html), for one query more than the same page of an interpeña
outside any league; an interpeña of no league shows no link."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from seasons.interpenas.models import Interpena
from seasons.leagues.models import TeamFixture
from seasons.leagues.teams import services as team_services
from tests.seasons.leagues.team_helpers import play, team_league

pytestmark = pytest.mark.django_db


def queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as seen:
        response = client.get(url)
    assert response.status_code == 200
    return len(seen), response.content.decode()


def test_the_interpeñas_page_links_to_its_league_and_jornada(client):
    league, teams = team_league(3, boards=2)
    fixture = TeamFixture.objects.filter(jornada__league=league).order_by("jornada__number").last()
    fixture = play(league, teams, fixture, ["home", "away"])
    url = f"/interpenas/{fixture.interpena_id}/"
    league_url = f"/ligas-penas/{league.club.slug}/{league.slug}/"
    number = fixture.jornada.number

    counted, text = queries(client, url)
    assert f'<a href="{league_url}">Liga de peñas 2026-27</a>' in text
    assert f'<a href="{league_url}#j{number}">Jornada {number}</a>' in text
    assert client.get(league_url).status_code == 200

    Interpena.objects.filter(pk=fixture.interpena_id).update(league_key="")
    alone, text = queries(client, url)
    assert 'id="team-league"' not in text
    assert counted == alone + 1


def test_a_private_leagues_interpeña_stays_hidden_and_links_for_its_peñas(client):
    league, teams = team_league(2, boards=1, is_public=False)
    fixture = TeamFixture.objects.get(jornada__league=league)
    home_org = next(u for c, u, _p in teams if c.pk == fixture.home_club_id)
    fixture = team_services.team_fixture_open(league=league, fixture_id=fixture.pk, actor=home_org)
    url = f"/interpenas/{fixture.interpena_id}/"
    assert client.get(url).status_code == 404
    client.force_login(home_org)
    assert f"/ligas-penas/{league.club.slug}/{league.slug}/#j1" in client.get(url).content.decode()
