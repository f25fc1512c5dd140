"""The ratings' public pages: a peña's ranking, a player's page with the SVG chart, head to
head; in Spanish and English, small enough for a phone, in a constant number of queries."""

from __future__ import annotations

import re

import pytest

from seasons.ratings.models import RankingRow, RankingSettings
from seasons.ratings.services import ratings_rebuild
from tests.factories import MatchFactory
from tests.seasons.ratings.ratings_data import season
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    tournament, matches = season(rounds=6, pairs=8, seed=9)
    ratings_rebuild()
    return tournament, matches


def test_the_penas_ranking_lists_its_players_with_links_to_their_pages(client, rated):
    tournament, _ = rated
    page = client.get(f"/penas/{tournament.club.slug}/ranking/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Ranking de jugadores" in html and "Por puntos" in html
    top = RankingRow.objects.order_by("-rating").first()
    assert f'href="/jugadores/{top.player_id}/"' in html
    assert html.index(str(top.player)) < html.index("</tbody>")
    assert len(page.content) < 60_000


def test_a_pena_that_shows_points_only_hides_the_rating(client, rated):
    tournament, _ = rated
    RankingSettings.objects.create(club=tournament.club, shows="points")
    html = client.get(f"/penas/{tournament.club.slug}/ranking/").content.decode()
    assert "Puntos" in html and "Valoración</th>" not in html and "Por valoración" not in html
    asked = client.get(f"/penas/{tournament.club.slug}/ranking/?orden=valoracion").content.decode()
    shown = [
        int(p)
        for p in re.findall(
            r'<td class="num">(-?\d+)</td>' + r'<td class="num">\d+</td>' * 3 + "</tr>",
            asked,
        )
    ]
    assert len(shown) == 16 and shown == sorted(shown, reverse=True)  # still by points


def test_the_ranking_page_in_english(client, rated):
    tournament, _ = rated
    html = client.get(
        f"/penas/{tournament.club.slug}/ranking/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Ranking of players" in html and "By points" in html


def test_the_ranking_page_costs_the_same_queries_for_more_players(
    client, rated, django_assert_max_num_queries
):
    tournament, _ = rated
    with django_assert_max_num_queries(6):
        client.get(f"/penas/{tournament.club.slug}/ranking/")
    big, _ = season(rounds=1, pairs=120, seed=3)
    ratings_rebuild()
    with django_assert_max_num_queries(6):
        page = client.get(f"/penas/{big.club.slug}/ranking/?orden=puntos&pagina=3")
    assert page.status_code == 200 and "Página 3 de 3" in page.content.decode()


def test_a_players_page_draws_the_rating_over_time_and_lists_partners_and_matches(
    client, rated, django_assert_max_num_queries
):
    _, matches = rated
    pair = matches[0].entry_a.pair
    with django_assert_max_num_queries(6):
        page = client.get(f"/jugadores/{pair.player_one_id}/")
    html = page.content.decode()
    assert page.status_code == 200 and len(page.content) < 60_000
    points = re.search(r'<polyline points="([^"]+)"', html).group(1).split()
    assert len(points) == 7  # the start and six matches
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "<script" not in svg and "https://" not in html  # drawn here, nothing fetched
    assert "Mejor compañero:" in html and str(pair.player_two) in html
    assert html.count('class="pm ') == 6
    assert f"/jugadores/{pair.player_one_id}/contra/" in html


def test_head_to_head_page(client, rated):
    _, matches = rated
    first = matches[0]
    me, them = first.entry_a.pair.player_one, first.entry_b.pair.player_one
    page = client.get(f"/jugadores/{me.pk}/contra/{them.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and str(me) in html and str(them) in html
    assert html.count('class="pm ') >= 1
    english = client.get(f"/jugadores/{me.pk}/contra/{them.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "between them" in english.content.decode()


def test_unknown_penas_and_players_are_404_pages(client, rated):
    assert client.get("/penas/no-existe/ranking/").status_code == 404
    assert client.get("/jugadores/999999/").status_code == 404
    page = client.get("/penas/no-existe/ranking/?pagina=x")
    assert page.status_code == 404 and "no-existe" in page.content.decode()


def test_the_ratings_pages_link_each_match_on_its_rounds_page(client):
    """Issue 23 #5: a rated match is named by the tournament match's id; its link goes to the
    round's page, at that match."""
    MatchFactory(kind=Match.Kind.BYE, status=Match.Status.CONFIRMED, entry_b=None)  # unrated
    _, matches = season(rounds=2, pairs=4, seed=5)
    ratings_rebuild()
    first = matches[0]
    me, them = first.entry_a.pair.player_one_id, first.entry_b.pair.player_one_id
    t = first.round.phase.tournament
    where = f"/torneos/{t.club.slug}/{t.slug}/rondas/{first.round_id}/"
    for path in (f"/jugadores/{me}/", f"/jugadores/{me}/contra/{them}/"):
        html = client.get(path).content.decode()
        assert f'href="{where}?partida={first.pk}#partida-{first.pk}"' in html, path
    round_page = client.get(where).content.decode()
    assert f'id="partida-{first.pk}"' in round_page
