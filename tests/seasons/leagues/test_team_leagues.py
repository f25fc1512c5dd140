"""A league of peñas on the database: the calendar and its rests, fixtures played as
interpeñas, the standings from confirmed team results, walkovers, who may do what."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.interpenas.models import Interpena
from seasons.leagues.models import TeamFixture, TeamJornada
from seasons.leagues.teams import selectors as team_selectors
from seasons.leagues.teams import services as team_services
from tests.factories import MembershipFactory, UserFactory
from tests.seasons.leagues.team_helpers import SUNDAYS, peñas, play, team_league

pytestmark = pytest.mark.django_db


def _fixtures(league, number):
    return list(
        TeamFixture.objects.filter(jornada__league=league, jornada__number=number).order_by(
            "number"
        )
    )


def test_an_odd_league_rests_one_peña_a_jornada_and_everybody_meets_once():
    league, teams = team_league(5)
    jornadas = list(TeamJornada.objects.filter(league=league).order_by("number"))
    assert [j.date for j in jornadas] == SUNDAYS[:5]
    assert sorted(j.resting_id for j in jornadas) == sorted(c.pk for c, _u, _p in teams)
    meetings = Counter(
        frozenset((f.home_club_id, f.away_club_id))
        for f in TeamFixture.objects.filter(jornada__league=league)
    )
    assert len(meetings) == 10 and set(meetings.values()) == {1}


def test_a_double_league_plays_the_second_leg_with_home_and_away_swapped():
    league, _teams = team_league(4, legs=2)
    fixtures = TeamFixture.objects.filter(jornada__league=league)
    pairs = Counter((f.home_club_id, f.away_club_id) for f in fixtures)
    assert len(pairs) == 12 and set(pairs.values()) == {1}
    assert TeamJornada.objects.filter(league=league).count() == 6


def test_the_calendar_has_one_date_per_jornada():
    teams = peñas(4)
    with pytest.raises(Invalid) as error:
        team_services.team_league_create(
            club=teams[0][0],
            actor=teams[0][1],
            name="Liga",
            season="2026",
            club_ids=[c.pk for c, _u, _p in teams],
            dates=SUNDAYS[:2],
        )
    assert error.value.code == "team_league_dates_count"
    assert error.value.params["needed"] == 3


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"club_ids": [1]}, "team_league_clubs"),
        ({"points_win": 1, "points_draw": 1}, "team_league_points_order"),
        ({"tiebreaks": ["stones"]}, "team_league_tiebreaks"),
        ({"boards": 0}, "team_league_number"),
        ({"legs": 3}, "league_legs"),
        ({"dates": ["2026-13-01", "x", "y"]}, "league_calendar_date"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(changes, code):
    teams = peñas(4)
    values = {
        "club": teams[0][0],
        "actor": teams[0][1],
        "name": "Liga",
        "season": "2026",
        "club_ids": [c.pk for c, _u, _p in teams],
        "dates": SUNDAYS[:3],
    } | changes
    with pytest.raises(Invalid) as error:
        team_services.team_league_create(**values)
    assert error.value.code == code
    assert not TeamJornada.objects.exists()


def test_only_the_owning_peñas_organizers_create_it():
    teams = peñas(3)
    with pytest.raises(Forbidden):
        team_services.team_league_create(
            club=teams[0][0],
            actor=teams[1][1],
            name="Liga",
            season="2026",
            club_ids=[c.pk for c, _u, _p in teams],
            dates=SUNDAYS[:3],
        )


def test_a_fixture_is_an_interpeña_opened_by_its_home_peña():
    league, teams = team_league(4, boards=2)
    fixture = _fixtures(league, 1)[0]
    owner = teams[0][1]
    by_club = {c.pk: u for c, u, _p in teams}
    others = [u for c, u, _p in teams if c.pk != fixture.home_club_id]
    with pytest.raises(Forbidden):
        team_services.team_fixture_open(league=league, fixture_id=fixture.pk, actor=others[0])
    opened = team_services.team_fixture_open(
        league=league, fixture_id=fixture.pk, actor=by_club[fixture.home_club_id]
    )
    interpena = opened.interpena
    assert interpena.home_club_id == fixture.home_club_id
    assert interpena.away_club_id == fixture.away_club_id
    assert interpena.boards == 2 and interpena.played_on == SUNDAYS[0]
    assert interpena.league_key == f"team-league:{league.pk}:{fixture.pk}"
    again = team_services.team_fixture_open(
        league=league, fixture_id=fixture.pk, actor=by_club[fixture.home_club_id]
    )
    assert again.interpena_id == interpena.pk and Interpena.objects.count() == 1
    # the owner opens the fixtures of the jornada it hosts, and only those
    opened = team_services.team_jornada_open(league=league, number=1, actor=owner)
    assert all(f.home_club_id == teams[0][0].pk for f in opened)


def test_standings_count_confirmed_team_results_with_draws_and_board_points():
    league, teams = team_league(4, boards=2)
    first, second = _fixtures(league, 1)
    play(league, teams, first, ["home", "home"])  # home 2–0
    play(league, teams, second, ["home", "away"], captains=False)  # boards done, no captains
    rows = team_selectors.team_league_standings(league=league)
    by_club = {r.club.pk: r for r in rows}
    assert rows[0].club.pk == first.home_club_id
    assert by_club[first.home_club_id].points == 3
    assert by_club[first.home_club_id].boards_for == 2
    assert by_club[first.away_club_id].points == 0
    assert by_club[second.home_club_id].played == 0  # captains have not confirmed
    calendar = team_selectors.team_league_calendar(league=league)
    states = {f.fixture.pk: f.state for f in calendar[0].fixtures}
    assert states == {first.pk: "confirmed", second.pk: "to_confirm"}


def test_equal_board_points_are_decided_by_the_juegos_of_all_the_boards():
    league, teams = team_league(2, boards=2)
    (fixture,) = _fixtures(league, 1)
    # a board each; GAMES_HOME is 3–1 and GAMES_AWAY 0–3 for the home pair: 3–4 in juegos
    play(league, teams, fixture, ["home", "away"])
    rows = team_selectors.team_league_standings(league=league)
    assert [r.points for r in rows] == [3, 0]
    assert rows[0].club.pk == fixture.away_club_id  # more juegos on equal boards
    assert rows[0].boards_for == rows[0].boards_against == 1


def test_walkovers_and_double_losses_count_and_a_played_fixture_cannot_be_decided():
    league, teams = team_league(4, boards=1, points_walkover_loss=0, points_loss=1)
    first, second = _fixtures(league, 1)
    owner = teams[0][1]
    outsider = next(u for c, u, _p in teams if c.pk not in (teams[0][0].pk,))
    with pytest.raises(Forbidden):
        team_services.team_fixture_decide(
            league=league, fixture_id=first.pk, actor=outsider, decision="home_absent"
        )
    with pytest.raises(Invalid):
        team_services.team_fixture_decide(
            league=league, fixture_id=first.pk, actor=owner, decision="nobody"
        )
    team_services.team_fixture_decide(
        league=league, fixture_id=first.pk, actor=owner, decision="home_absent"
    )
    team_services.team_fixture_decide(
        league=league, fixture_id=second.pk, actor=owner, decision="double_loss"
    )
    by_club = {r.club.pk: r for r in team_selectors.team_league_standings(league=league)}
    assert by_club[first.away_club_id].points == 3
    assert by_club[first.home_club_id].points == 0
    assert by_club[first.home_club_id].walkovers_lost == 1
    assert by_club[second.home_club_id].points == by_club[second.away_club_id].points == 0
    with pytest.raises(Conflict):
        team_services.team_fixture_open(league=league, fixture_id=first.pk, actor=teams[0][1])
    third = _fixtures(league, 2)[0]
    play(league, teams, third, ["home"])
    with pytest.raises(Conflict) as error:
        team_services.team_fixture_decide(
            league=league, fixture_id=third.pk, actor=owner, decision="double_loss"
        )
    assert error.value.code == "team_fixture_confirmed"


def test_a_postponed_fixture_moves_its_interpeña_and_its_deadline_is_checked():
    league, teams = team_league(4, boards=1)
    fixture = _fixtures(league, 1)[0]
    owner = teams[0][1]
    by_club = {c.pk: u for c, u, _p in teams}
    team_services.team_fixture_open(
        league=league, fixture_id=fixture.pk, actor=by_club[fixture.home_club_id]
    )
    with pytest.raises(Invalid):
        team_services.team_fixture_postpone(
            league=league, fixture_id=fixture.pk, actor=owner, deadline=dt.date(2020, 1, 1)
        )
    team_services.team_fixture_postpone(
        league=league, fixture_id=fixture.pk, actor=owner, deadline=SUNDAYS[1]
    )
    fixture.refresh_from_db()
    assert fixture.postponed_to == SUNDAYS[1]
    assert fixture.interpena.played_on == SUNDAYS[1]


def test_standings_per_jornada_and_head_to_head_reuse_the_league_table():
    league, teams = team_league(4, boards=1, tiebreaks=["head_to_head", "boards"])
    for number in (1, 2):
        for fixture in _fixtures(league, number):
            play(league, teams, fixture, ["home"])
    after_one = team_selectors.team_league_standings(league=league, upto=1)
    after_two = team_selectors.team_league_standings(league=league, upto=2)
    assert sum(r.played for r in after_one) == 4
    assert sum(r.played for r in after_two) == 8


def test_a_private_league_is_invisible_outside_its_peñas():
    league, teams = team_league(3, is_public=False)
    member = UserFactory()
    MembershipFactory(club=teams[2][0], user=member)
    assert team_selectors.team_league_get(league_id=league.pk, user=member) == league
    stranger = UserFactory()
    with pytest.raises(NotFound):
        team_selectors.team_league_get(league_id=league.pk, user=stranger)
    assert not team_selectors.team_league_list(user=stranger).exists()
    assert list(team_selectors.team_league_list(user=member)) == [league]


def test_the_league_table_gives_a_draw_its_points_and_orders_by_board_points():
    from seasons.leagues import table

    results = [
        table.LeagueResult(1, (1,), (2,), table.DRAW, games_a=4, games_b=4, boards_a=1, boards_b=1),
        table.LeagueResult(1, (3,), (4,), table.A_WINS, games_a=6, games_b=2, boards_a=2),
        table.LeagueResult(2, (1,), (3,), table.DRAW, games_a=3, games_b=3, boards_a=1, boards_b=1),
        table.LeagueResult(2, (2,), (4,), table.A_WINS, games_a=9, games_b=0, boards_a=2),
    ]
    rows = table.league_table(
        [1, 2, 3, 4],
        results,
        points=table.Points(win=3, draw=1, loss=0),
        tiebreaks=("boards", "games"),
    )
    assert [(r.competitor, r.points, r.drawn) for r in rows] == [
        (2, 4, 1),
        (3, 4, 1),
        (1, 2, 2),
        (4, 0, 0),
    ]
    assert rows[1].tiebreak == "games"  # 2 and 3 have equal boards (+2): juegos decide
    assert rows[0].form == ["D", "W"]
