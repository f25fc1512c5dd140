"""The ratings after a result of the round being played (seasons/ratings/services.py, the
"appended" path): only the rows the match touches are read and written, and the ranking rows
end exactly where rating everything from scratch ends — in two peñas at once, with forfeits;
a result that arrives after later ones of its round re-rates only itself."""

from __future__ import annotations

import datetime as dt

import pytest

from seasons.ratings.models import RankingRow, RatingEntry
from seasons.ratings.services import rating_tournament_match_sync, ratings_rebuild
from tests.factories import EntryFactory, MatchFactory, PairFactory, TournamentFactory
from tests.seasons.ratings.ratings_data import START, everything, season
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def test_results_in_the_order_played_end_where_rating_from_scratch_ends():
    _, matches = season(rounds=4, pairs=6, seed=5)
    # a forfeit, and players of this peña who also play in another one, between its rounds
    forfeit = matches[4]
    Match.objects.filter(pk=forfeit.pk).update(kind=Match.Kind.FORFEIT)
    other = TournamentFactory(status=Tournament.Status.RUNNING)
    visitors = [matches[0].entry_a.pair, matches[0].entry_b.pair]
    for hour, visitor in zip((2, 3), visitors, strict=True):
        away = EntryFactory(
            tournament=other,
            pair=PairFactory(
                club=other.club, player_one=visitor.player_one, player_two=visitor.player_two
            ),
        )
        matches.append(
            MatchFactory(
                round__phase__tournament=other,
                round__published_at=START + dt.timedelta(hours=hour, minutes=30),
                entry_a=away,
                entry_b=EntryFactory(tournament=other),
                status=Match.Status.CONFIRMED,
                winner=away,
            )
        )
    matches.sort(key=lambda m: (m.round.published_at, m.pk))
    for match in matches:  # each one after every rated match: appended
        assert rating_tournament_match_sync(match_id=match.pk) == 1
    appended = everything()
    assert len(appended[0]) == 4 * len(matches)
    assert RankingRow.objects.filter(club=other.club).count() == 8  # 4 visitors, 4 hosts
    ratings_rebuild()
    assert everything() == appended


def test_a_result_of_the_round_being_played_reads_and_writes_only_its_rows(
    django_assert_max_num_queries,
):
    _, matches = season(rounds=3, pairs=8, seed=2)
    for match in matches[:-1]:
        rating_tournament_match_sync(match_id=match.pk)
    # lock, match, its substitutions, its rated row, its insert, the matches from it, ratings
    # before, the entries' insert, ranking rows (upsert and rating update); the test's
    # savepoint and its release: 12, whatever the season's length
    with django_assert_max_num_queries(12):
        assert rating_tournament_match_sync(match_id=matches[-1].pk) == 1
    appended = everything()
    ratings_rebuild()
    assert everything() == appended


def test_a_result_arriving_after_later_ones_of_its_round_re_rates_only_what_its_pairs_reach():
    _, matches = season(rounds=2, pairs=8, seed=3)
    first_round = [m for m in matches if m.round_id == matches[0].round_id]
    late = first_round[0]  # the first in order: every other match of its round is after it
    pairs = {late.entry_a_id, late.entry_b_id}
    reached = [m for m in matches[len(first_round) :] if pairs & {m.entry_a_id, m.entry_b_id}]
    for match in matches:
        if match != late:
            rating_tournament_match_sync(match_id=match.pk)

    def kept():
        later = [m.pk for m in matches if m != late and m not in reached]
        return set(RatingEntry.objects.filter(match__source_id__in=later).values_list("pk", "mu"))

    before = kept()
    assert rating_tournament_match_sync(match_id=late.pk) == 1 + len(reached)
    assert kept() == before  # the same rows, not deleted and written again
    incremental = everything()
    ratings_rebuild()
    assert everything() == incremental


def test_a_late_result_of_the_round_being_played_costs_what_one_in_order_costs(
    django_assert_max_num_queries,
):
    _, matches = season(rounds=1, pairs=8, seed=3)
    for match in matches[1:]:
        rating_tournament_match_sync(match_id=match.pk)
    # its round's later matches share no player with it: nothing of theirs is read again,
    # deleted or written (the same 12 queries as above)
    with django_assert_max_num_queries(12):
        assert rating_tournament_match_sync(match_id=matches[0].pk) == 1
    incremental = everything()
    ratings_rebuild()
    assert everything() == incremental
