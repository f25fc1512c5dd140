"""A jornada of a league of peñas on phones (390×844): the home peña's organizer opens the
fixture on the league's desk, the boards are played, the away organizer confirms the board and
both captains the team result on the interpeña's page, and the public standings show it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from seasons.interpenas.services import interpena_board_submit, interpena_lineup_set
from seasons.leagues.models import TeamFixture
from tests.browser.test_browser_circuits import BUDGET, log_in, no_sideways_scroll
from tests.seasons.circuits.helpers import GAMES_HOME
from tests.seasons.leagues.team_helpers import team_league

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_jornada_from_the_fixture_to_the_published_standings(
    new_phone, live_server, screenshot, transferred
):
    league, teams = team_league(3, boards=1)
    fixture = TeamFixture.objects.filter(jornada__league=league, jornada__number=1).first()
    by_club = {c.pk: (c, u, p) for c, u, p in teams}
    home_club, home_org, home_pairs = by_club[fixture.home_club_id]
    away_club, away_org, away_pairs = by_club[fixture.away_club_id]

    home = new_phone()
    log_in(home, live_server, home_org)
    home.goto(f"{live_server.url}/organizador/ligas-penas/{league.pk}/")
    home.get_by_role("button", name="Abrir el interpeñas").first.click()
    expect(home.get_by_text("Hecho.")).to_be_visible()
    assert no_sideways_scroll(home)
    fixture.refresh_from_db()
    interpena = fixture.interpena
    assert interpena is not None

    interpena_lineup_set(
        actor=home_org, interpena=interpena, side="home", pair_ids=[home_pairs[0].pk]
    )
    interpena = interpena_lineup_set(
        actor=away_org, interpena=interpena, side="away", pair_ids=[away_pairs[0].pk]
    )
    interpena_board_submit(
        actor=home_org,
        interpena=interpena,
        board=1,
        side="home",
        payload=GAMES_HOME,
        idempotency_key="tl-h",
        version=0,
    )
    url = f"{live_server.url}/interpenas/{interpena.pk}/"
    away = new_phone()
    log_in(away, live_server, away_org)
    away.goto(url)
    away.get_by_role("button", name="Confirmar tablero A").click()
    away.get_by_role("button", name=f"Confirmar el resultado por {away_club.name}").click()
    expect(away.get_by_text(f"{away_club.name} ha confirmado el resultado.")).to_be_visible()
    home.goto(url)
    home.get_by_role("button", name=f"Confirmar el resultado por {home_club.name}").click()
    expect(home.locator("#team-result")).to_contain_text("confirmado por los dos capitanes")

    public = new_phone()
    standings = f"{live_server.url}/ligas-penas/{league.club.slug}/{league.slug}/"
    size = transferred(public, standings)
    assert size < BUDGET, f"league of peñas page: {size} bytes"
    first = public.locator("table.standings tbody tr").first
    expect(first).to_contain_text(home_club.name)
    expect(first.locator("td").nth(2)).to_have_text("3")
    expect(public.get_by_role("link", name="interpeñas").first).to_have_attribute(
        "href", f"/interpenas/{interpena.pk}/"
    )
    assert no_sideways_scroll(public)
    screenshot(public, "team-league-standings")
