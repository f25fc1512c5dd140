"""Storing and re-rating (seasons/ratings/services.py): a confirmed match in, every rating after
it out; late confirmations and corrections end exactly where rating from scratch ends."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from config.errors import Forbidden, Invalid
from seasons.ratings.models import RankingRow, RankingSettings, RatedMatch, RatingEntry
from seasons.ratings.services import (
    ranking_settings_set,
    rating_tournament_match_sync,
    ratings_rebuild,
)
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.seasons.ratings.ratings_data import START, season
from tournaments.models import Match, Substitution, Tournament

pytestmark = pytest.mark.django_db


def snapshot():
    entries = sorted(
        RatingEntry.objects.values_list(
            "match__source_id", "player_id", "order_key", "result", "mu", "sigma", "points"
        )
    )
    rows = sorted(
        RankingRow.objects.values_list(
            "club_id", "player_id", "matches", "wins", "losses", "abandons", "points", "mu"
        )
    )
    return entries, rows


def test_a_confirmed_match_rates_its_four_players():
    _, matches = season(rounds=1, pairs=2)
    match = matches[0]
    assert rating_tournament_match_sync(match_id=match.pk) == 1
    rated = RatedMatch.objects.get()
    winner = match.winner.pair
    assert set(rated.players_a) == {
        match.entry_a.pair.player_one_id,
        match.entry_a.pair.player_two_id,
    }
    entries = {e.player_id: e for e in RatingEntry.objects.all()}
    assert len(entries) == 4
    assert (
        entries[winner.player_one_id].rating
        > 0
        > entries[
            (match.entry_b if match.winner == match.entry_a else match.entry_a).pair.player_one_id
        ].mu
        - 25
    )
    assert entries[winner.player_one_id].points == 12
    row = RankingRow.objects.get(player_id=winner.player_two_id)
    assert (row.matches, row.wins, row.points, row.club_id) == (
        1,
        1,
        12,
        match.round.phase.tournament.club_id,
    )


def test_running_the_task_twice_changes_nothing_more():
    _, matches = season(rounds=1, pairs=2)
    rating_tournament_match_sync(match_id=matches[0].pk)
    before = snapshot()
    assert rating_tournament_match_sync(match_id=matches[0].pk) == 0
    assert snapshot() == before


def test_late_confirmations_in_any_order_end_where_rating_from_scratch_ends():
    _, matches = season(rounds=6, pairs=8, seed=7)
    arrival = matches[:]
    random.Random(3).shuffle(arrival)  # results arrive in any order: each is late for some
    for match in arrival:
        rating_tournament_match_sync(match_id=match.pk)
    incremental = snapshot()
    assert len(incremental[0]) == 4 * len(matches)
    ratings_rebuild()
    assert snapshot() == incremental


@pytest.mark.parametrize("in_limit", [900, 2])
def test_a_correction_re_rates_what_it_reaches_as_from_scratch(in_limit, monkeypatch):
    # in_limit 2: the reads and deletes of long lists of ids (in chunks, or one array on
    # PostgreSQL), which a season needs, on this small one
    monkeypatch.setattr("seasons.ratings.services._IN_LIMIT", in_limit)
    _, matches = season(rounds=5, pairs=6, seed=11)
    for match in matches:
        rating_tournament_match_sync(match_id=match.pk)
    early = matches[1]
    key = RatedMatch.objects.get(source_id=early.pk).order_key

    def later():
        entries = RatingEntry.objects.filter(order_key__gt=key).order_by("order_key", "player_id")
        return list(entries.values_list("match__source_id", "mu"))

    later_before = later()
    early.winner = early.entry_b if early.winner == early.entry_a else early.entry_a
    early.save()
    # its round's third match (later, no pair in common) keeps its ratings; what its pairs
    # played since, and what their opponents played after that, move
    assert 1 < rating_tournament_match_sync(match_id=early.pk) < len(matches) - 1
    corrected = later()
    moved = {
        m for (m, mu), (_, mu_was) in zip(corrected, later_before, strict=True) if mu != mu_was
    }
    assert matches[2].pk not in moved and matches[-1].pk in moved
    snapshot_after = snapshot()
    ratings_rebuild()
    assert snapshot() == snapshot_after


def test_a_result_no_longer_confirmed_leaves_the_ratings():
    _, matches = season(rounds=3, pairs=4, seed=5)
    for match in matches:
        rating_tournament_match_sync(match_id=match.pk)
    gone = matches[0]
    Match.objects.filter(pk=gone.pk).update(status=Match.Status.DISPUTED)
    rating_tournament_match_sync(match_id=gone.pk)
    assert not RatedMatch.objects.filter(source_id=gone.pk).exists()
    after = snapshot()
    ratings_rebuild()
    assert snapshot() == after
    assert RatingEntry.objects.count() == 4 * (len(matches) - 1)


def test_a_forfeit_counts_minus_twenty_for_the_pair_that_did_not_play_and_no_rating():
    _, matches = season(rounds=1, pairs=2)
    match = matches[0]
    Match.objects.filter(pk=match.pk).update(kind=Match.Kind.FORFEIT, winner=match.entry_a)
    rating_tournament_match_sync(match_id=match.pk)
    lost = RatingEntry.objects.get(player_id=match.entry_b.pair.player_one_id)
    won = RatingEntry.objects.get(player_id=match.entry_a.pair.player_one_id)
    assert (lost.result, lost.points, won.result, won.points) == ("abandon", -20, "walkover", 12)
    assert lost.mu == lost.mu_before == won.mu == 25.0
    assert RankingRow.objects.get(player_id=lost.player_id).abandons == 1


def test_a_bye_and_an_unconfirmed_match_are_not_rated():
    _, matches = season(rounds=1, pairs=4)
    Match.objects.filter(pk=matches[0].pk).update(kind=Match.Kind.BYE)
    Match.objects.filter(pk=matches[1].pk).update(status=Match.Status.SUBMITTED)
    for match in matches:
        assert rating_tournament_match_sync(match_id=match.pk) == 0
    assert not RatedMatch.objects.exists()


def test_a_substitute_is_rated_instead_of_the_player_replaced():
    _, matches = season(rounds=1, pairs=2)
    match = matches[0]
    substitute = PlayerFactory(first_name="Suplente")
    replaced = match.entry_a.pair.player_one
    Substitution.objects.create(
        match=match, entry=match.entry_a, replaced=replaced, substitute=substitute
    )
    rating_tournament_match_sync(match_id=match.pk)
    rated = set(RatingEntry.objects.values_list("player_id", flat=True))
    assert substitute.pk in rated and replaced.pk not in rated


def test_a_player_of_two_peñas_has_a_row_in_each_with_one_rating():
    player = PlayerFactory()
    rows = []
    for hour in (1, 2):
        t = TournamentFactory(status=Tournament.Status.RUNNING)
        a = EntryFactory(tournament=t, pair=PairFactory(player_one=player, club=t.club))
        b = EntryFactory(tournament=t)
        m = MatchFactory(
            round__phase__tournament=t,
            round__published_at=START + dt.timedelta(hours=hour),
            entry_a=a,
            entry_b=b,
            status=Match.Status.CONFIRMED,
            winner=a,
        )
        rating_tournament_match_sync(match_id=m.pk)
        rows.append(t.club_id)
    mine = RankingRow.objects.filter(player=player).order_by("club_id")
    assert [r.club_id for r in mine] == sorted(rows)
    assert [r.points for r in mine] == [12, 12]
    assert (
        mine[0].rating == mine[1].rating == RatingEntry.objects.filter(player=player).last().rating
    )


def test_the_peña_chooses_its_ranking_and_only_its_organizers_can():
    organizer = MembershipFactory().user
    club = organizer.memberships.get().club
    assert ranking_settings_set(user=organizer, club=club, shows="points").shows == "points"
    assert RankingSettings.objects.get(club=club).shows == "points"
    with pytest.raises(Forbidden):
        ranking_settings_set(user=UserFactory(), club=club, shows="both")
    with pytest.raises(Invalid) as error:
        ranking_settings_set(user=organizer, club=club, shows="elo")
    assert error.value.code == "ranking_shows_unknown"


def test_a_result_confirmed_at_the_table_reaches_the_ratings(django_capture_on_commit_callbacks):
    """The whole flow: both pairs enter the same games, result_confirmed runs (eagerly here)
    and queues ratings.match_sync by its name."""
    from tournaments.services import results as svc

    match = MatchFactory(
        round__phase__tournament=TournamentFactory(status=Tournament.Status.RUNNING)
    )
    games = {"games": [{"stones": [40, 20]}, {"stones": [30, 40]}, {"stones": [40, 10]}]}
    with django_capture_on_commit_callbacks(execute=True):
        svc.match_result_submit(
            match=match, side="a", payload=games, idempotency_key="k1", version=0, via="link"
        )
        svc.match_result_confirm(
            match=match,
            side="b",
            idempotency_key="k2",
            version=Match.objects.get(pk=match.pk).version,
            via="link",
        )
    won = RatingEntry.objects.get(player_id=match.entry_a.pair.player_one_id)
    assert (won.result, won.points) == ("win", 12) and won.rating > 0


def test_a_private_tournaments_match_rates_but_its_pages_do_not_name_it(client):
    from seasons.ratings.selectors import player_ratings

    tournament, matches = season(rounds=1, pairs=2)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False, name="Torneo secreto")
    rating_tournament_match_sync(match_id=matches[0].pk)
    player = matches[0].entry_a.pair.player_one
    (point,) = player_ratings(player=player).history
    assert (point.event, point.url) == ("", "") and point.rating != 0
    html = client.get(f"/jugadores/{player.pk}/").content.decode()
    assert "Torneo secreto" not in html and "un torneo privado" in html


def test_a_player_deleted_since_takes_their_matches_out_of_the_ratings():
    from django.db.models import Q

    from clubs.models import Player

    _, matches = season(rounds=3, pairs=4, seed=8)
    for match in matches:
        rating_tournament_match_sync(match_id=match.pk)
    entry = matches[0].entry_a
    pair, gone = entry.pair, entry.pair.player_one_id
    Match.objects.filter(Q(entry_a=entry) | Q(entry_b=entry)).delete()
    entry.delete()
    pair.delete()
    Player.objects.filter(pk=gone).delete()  # with their history (cascade)
    assert ratings_rebuild(resync=False) == len(matches) - 3  # the three matches of that pair
    assert RatingEntry.objects.count() == 4 * (len(matches) - 3)
    assert not RankingRow.objects.filter(player_id=gone).exists()


def test_a_correction_that_reaches_a_player_deleted_since_takes_their_matches_out():
    from django.db.models import Q

    from clubs.models import Player

    _, matches = season(rounds=3, pairs=4, seed=8)
    for match in matches:
        rating_tournament_match_sync(match_id=match.pk)
    entry = matches[1].entry_a  # a pair that plays after the first match, never in it
    pair, gone = entry.pair, entry.pair.player_one_id
    Match.objects.filter(Q(entry_a=entry) | Q(entry_b=entry)).delete()  # no sync: still rated
    entry.delete()
    pair.delete()
    Player.objects.filter(pk=gone).delete()  # with their history (cascade)
    first = matches[0]  # the first match: what it reaches includes that pair's matches
    first.winner = first.entry_b if first.winner == first.entry_a else first.entry_a
    first.save()
    rating_tournament_match_sync(match_id=first.pk)
    assert all(gone not in r.players_a + r.players_b for r in RatedMatch.objects.all())
    corrected = snapshot()
    assert len(corrected[0]) == 4 * (len(matches) - 3)
    ratings_rebuild()
    assert snapshot() == corrected
