"""The leagues' services on the database: the calendar, double round robin, byes, postponed
matches and what the organizer decides after the deadline, permissions, the next season,
individual leagues, and ratings fed as from any tournament match."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from clubs.models import Membership
from config.errors import Conflict, Forbidden, Invalid, NotFound
from seasons.leagues import selectors, services
from seasons.leagues.models import Jornada, League, Postponement
from seasons.ratings.models import RatedMatch
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.seasons.leagues.conftest import MONDAYS, pairs_league, win
from tournaments.models import Entry, Match

pytestmark = pytest.mark.django_db


def play_jornada(league, number, organizer, side="a", skip=()):
    jornada = selectors.jornada_get(league=league, number=number)
    services.jornada_draw(jornada=jornada, actor=organizer)
    services.jornada_publish(jornada=jornada, actor=organizer)
    matches = list(
        Match.objects.filter(
            round__phase__league_division__league=league, round__number=number
        ).order_by("table_number")
    )
    for i, m in enumerate(matches):
        if i not in skip:
            win(m, side, organizer)
    return matches


def test_a_double_round_robin_meets_everybody_twice_with_the_sides_swapped(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),), legs=2)
    met = Counter()
    for number in range(1, 7):
        for m in play_jornada(league, number, organizer):
            met[(m.entry_a_id, m.entry_b_id)] += 1
    assert len(met) == 12 and set(met.values()) == {1}  # each ordered meeting once
    # a seventh jornada has nothing left to play
    services.jornada_draw(jornada=selectors.jornada_get(league=league, number=7), actor=organizer)
    assert not Match.objects.filter(round__number=7).exists()


def test_an_odd_division_rests_one_pair_each_jornada_and_a_rest_gives_no_points(club, organizer):
    league = pairs_league(club, organizer, divisions=((5, 0, 0),))
    for number in range(1, 6):
        play_jornada(league, number, organizer)
    division = selectors.divisions_of(league=league)[0]
    rested = list(division.__class__.objects.get(pk=division.pk).resting.values())
    assert sorted(e for ids in rested for e in ids) == sorted(division.schedule)
    rows = selectors.league_standings(league=league)[0].rows
    assert all(row.played == 4 for row in rows)


def test_a_postponed_match_is_decided_after_its_deadline(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    first, second = play_jornada(league, 1, organizer, skip=(0, 1))
    services.match_postpone(
        league=league, actor=organizer, match_id=first.pk, deadline=dt.date(2026, 10, 20)
    )
    services.match_postpone(
        league=league, actor=organizer, match_id=second.pk, deadline=dt.date(2026, 10, 20)
    )
    with pytest.raises(Conflict) as caught:
        services.postponement_decide(
            league=league,
            actor=organizer,
            match_id=first.pk,
            outcome="walkover",
            absent_side="b",
            today=dt.date(2026, 10, 20),
        )
    assert caught.value.code == "postponement_before_deadline"
    after = dt.date(2026, 10, 21)
    services.postponement_decide(
        league=league,
        actor=organizer,
        match_id=first.pk,
        outcome="walkover",
        absent_side="b",
        today=after,
    )
    services.postponement_decide(
        league=league, actor=organizer, match_id=second.pk, outcome="double_loss", today=after
    )
    first.refresh_from_db()
    assert first.kind == Match.Kind.FORFEIT and first.winner_id == first.entry_a_id
    points = {r.competitor: r.points for r in selectors.league_standings(league=league)[0].rows}
    assert points[first.entry_a_id] == 2 and points[first.entry_b_id] == 0
    assert points[second.entry_a_id] == 0 and points[second.entry_b_id] == 0
    assert Postponement.objects.get(match=second).outcome == "double_loss"
    assert (
        selectors.jornada_matches(jornada=selectors.jornada_get(league=league, number=1))[0]
        .matches[1]
        .state
        == "double_loss"
    )


def test_a_postponed_match_played_before_its_deadline_counts_as_played(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    first, _ = play_jornada(league, 1, organizer, skip=(0,))
    services.match_postpone(
        league=league, actor=organizer, match_id=first.pk, deadline=dt.date(2026, 10, 20)
    )
    win(first, "b", organizer)  # played later, on the same table link flow
    post = services.postponement_decide(
        league=league,
        actor=organizer,
        match_id=first.pk,
        outcome="double_loss",
        today=dt.date(2026, 10, 30),
    )
    assert post.outcome == Postponement.Outcome.PLAYED
    points = {r.competitor: r.points for r in selectors.league_standings(league=league)[0].rows}
    assert points[first.entry_b_id] == 2


def test_only_the_penas_organizers_write(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    member = MembershipFactory(club=club, role=Membership.Role.MEMBER).user
    jornada = selectors.jornada_get(league=league, number=1)
    with pytest.raises(Forbidden):
        services.jornada_draw(jornada=jornada, actor=member)
    private = pairs_league(club, organizer, divisions=(), is_public=False, name="Privada")
    with pytest.raises(NotFound):
        services.league_calendar_set(league=private, actor=UserFactory(), dates=[])
    assert Jornada.objects.get(pk=jornada.pk).status == Jornada.Status.PLANNED


def test_jornadas_are_drawn_in_order_and_divisions_added_before_the_first(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    with pytest.raises(Conflict) as caught:
        services.jornada_draw(
            jornada=selectors.jornada_get(league=league, number=2), actor=organizer
        )
    assert caught.value.code == "jornada_previous_open"
    services.jornada_draw(jornada=selectors.jornada_get(league=league, number=1), actor=organizer)
    with pytest.raises(Conflict) as caught:
        services.division_create(league=league, actor=organizer, name="Segunda", pair_ids=[])
    assert caught.value.code == "league_started"


def test_the_next_season_promotes_and_relegates_from_the_final_standings(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 1), (4, 1, 0)), dates=MONDAYS[:3])
    for number in (1, 2, 3):
        play_jornada(league, number, organizer)
    standings = selectors.league_standings(league=league)
    pair_of = dict(Entry.objects.values_list("id", "pair_id"))
    last_of_primera = pair_of[standings[0].rows[-1].competitor]
    first_of_segunda = pair_of[standings[1].rows[0].competitor]
    new = services.league_next_season(
        league=league, actor=organizer, season="2027", dates=MONDAYS[4:7]
    )
    assert new.previous_id == league.pk and new.season == "2027"
    new_standings = selectors.league_standings(league=new)
    new_pairs = [{_pair(r.competitor) for r in s.rows} for s in new_standings]
    assert first_of_segunda in new_pairs[0] and last_of_primera in new_pairs[1]
    assert last_of_primera not in new_pairs[0]


def _pair(entry_id):
    return Entry.objects.get(pk=entry_id).pair_id


def test_the_season_cannot_turn_before_every_jornada_is_published(club, organizer):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    with pytest.raises(Conflict):
        services.league_next_season(league=league, actor=organizer, season="2027")


def test_an_individual_league_draws_partners_and_opponents_among_who_came(club, organizer):
    league = services.league_create(
        club=club,
        actor=organizer,
        name="Individual",
        season="2026",
        kind=League.Kind.INDIVIDUAL,
        dates=MONDAYS[:3],
    )
    players = [PlayerFactory() for _ in range(9)]
    for p in players:
        p.clubs.add(club)
    division = services.division_create(
        league=league, actor=organizer, name="Única", player_ids=[p.pk for p in players]
    )
    with pytest.raises(Invalid) as caught:
        services.jornada_draw(
            jornada=selectors.jornada_get(league=league, number=1), actor=organizer, present={}
        )
    assert caught.value.code == "jornada_present_missing"
    partners = Counter()
    for number in (1, 2, 3):
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_draw(
            jornada=jornada, actor=organizer, present={division.pk: [p.pk for p in players]}
        )
        services.jornada_publish(jornada=jornada, actor=organizer)
        matches = list(Match.objects.filter(round__phase=division.phase, round__number=number))
        assert len(matches) == 2  # 9 came: 8 play, 1 rests
        for m in matches:
            for e in (m.entry_a, m.entry_b):
                partners[frozenset((e.pair.player_one_id, e.pair.player_two_id))] += 1
            win(m, "a", organizer)
    assert max(partners.values()) == 1  # nobody partnered twice
    rows = selectors.league_standings(league=league)[0].rows
    assert len(rows) == 9
    assert sum(r.played for r in rows) == 3 * 2 * 4  # each match counts for its four players
    assert (
        sum(len(ids) for ids in division.__class__.objects.get(pk=division.pk).resting.values())
        == 3
    )


def test_a_confirmed_league_match_is_rated_as_a_tournament_match(
    club, organizer, django_capture_on_commit_callbacks
):
    league = pairs_league(club, organizer, divisions=((4, 0, 0),))
    with django_capture_on_commit_callbacks(execute=True):
        matches = play_jornada(league, 1, organizer)
    rated = RatedMatch.objects.filter(source_id__in=[m.pk for m in matches])
    assert rated.count() == 2
    assert all("Liga de otoño" in r.event for r in rated)
