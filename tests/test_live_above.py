"""The live push of the pages above tournaments: a league's, a league of peñas' and a
championship's. A result confirmed in one of their tournaments reaches their stream (published
by tournaments' follow-up, after its commit, on the topics the apps above register); each
stream opens to whom may see its page, as the page does: a private one does not exist for an
outsider (404), its organizer hears it."""

from __future__ import annotations

import pytest

from clubs.models import Membership
from config import live
from seasons.championships.live import championship_topic
from seasons.championships.live import topics_of as championship_topics
from seasons.leagues import selectors, services
from seasons.leagues.live import team_league_topic
from seasons.leagues.live import topics_of as league_topics
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.live_support import Stream, connected, get
from tests.seasons.championships.helpers import season
from tests.seasons.leagues.conftest import MONDAYS, pairs_league, win
from tests.seasons.leagues.team_helpers import team_league
from tests.test_live import session_cookie
from tournaments.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def a_league(public: bool = True):
    organizer = UserFactory()
    club = ClubFactory()
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    league = pairs_league(club, organizer, divisions=((4, 0, 0),), dates=MONDAYS)
    if not public:
        league.is_public = False
        league.save(update_fields=["is_public"])
    jornada = selectors.jornada_get(league=league, number=1)
    services.jornada_draw(jornada=jornada, actor=organizer)
    services.jornada_publish(jornada=jornada, actor=organizer)
    matches = Match.objects.filter(round__phase__league_division__league=league)
    return league, organizer, list(matches.order_by("table_number"))


def test_a_leagues_page_hears_its_divisions_results(live_push, client):
    league, organizer, matches = a_league()
    page = client.get(f"/ligas/{league.club.slug}/{league.slug}/")
    assert b'data-live-stream="' + f"{live_push}/live/ligas/".encode() in page.content
    stream = Stream(f"{live_push}/live/ligas/{league.club.slug}/{league.slug}/")
    try:
        assert stream.status == 200
        connected()
        win(matches[0], "a", organizer)  # the organizer's entry confirms at once
        events = stream.events(1)
        assert [(e["kind"], e["tournament"]) for e in events] == [
            ("standings", matches[0].round.phase.tournament_id)
        ]
    finally:
        stream.close()
    assert get(f"{live_push}/live/ligas/{league.club.slug}/no-such-league/")[0] == 404


def test_a_private_leagues_stream_is_nothing_to_an_outsider(live_push):
    league, organizer, matches = a_league(public=False)
    url = f"{live_push}/live/ligas/{league.club.slug}/{league.slug}/"
    assert get(url)[0] == 404
    assert get(url, {"Cookie": session_cookie(UserFactory())})[0] == 404
    stream = Stream(url, {"Cookie": session_cookie(organizer)})
    try:
        assert stream.status == 200
        connected()
        win(matches[0], "b", organizer)
        assert [e["kind"] for e in stream.events(1)] == ["standings"]
    finally:
        stream.close()


def test_a_league_of_penas_and_a_championship_open_as_their_pages(live_push):
    league, _teams = team_league(4)
    url = f"{live_push}/live/ligas-penas/{league.club.slug}/{league.slug}/"
    stream = Stream(url)
    assert stream.status == 200
    stream.close()
    league.is_public = False
    league.save(update_fields=["is_public"])
    assert get(url)[0] == 404
    assert get(url, {"Cookie": session_cookie(UserFactory())})[0] == 404
    assert team_league_topic(league.pk) == f"teamleague:{league.pk}"

    s = season()
    url = f"{live_push}/live/campeonatos/{s.championship.slug}/"
    stream = Stream(url)
    assert stream.status == 200
    stream.close()
    # a result of a stage's tournament reaches the championship's topic
    assert championship_topics(s.final.pk) == [championship_topic(s.championship.pk)]
    assert league_topics(s.final.pk) == []
    s.championship.is_public = False
    s.championship.save(update_fields=["is_public"])
    assert get(url)[0] == 404
    assert get(url, {"Cookie": session_cookie(UserFactory())})[0] == 404
    stream = Stream(url, {"Cookie": session_cookie(s.organizer)})
    assert stream.status == 200
    stream.close()


def test_a_tournament_in_nothing_above_publishes_nothing_above(live_push):
    league, organizer, matches = a_league()
    tournament_id = matches[0].round.phase.tournament_id
    assert league_topics(tournament_id) == [f"league:{league.pk}"]
    before = live.live_seq(f"league:{league.pk}")
    live.live_publish_above(tournament_id=tournament_id, kind="standings")  # outside a commit
    assert live.live_seq(f"league:{league.pk}") == before + 1
