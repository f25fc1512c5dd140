"""Rated matches for the ratings' tests: a tournament whose rounds are all confirmed; what the
ratings store, to compare with rating from scratch."""

from __future__ import annotations

import datetime as dt
import random

from seasons.ratings.models import RankingRow, RatingEntry
from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory
from tournaments.models import Match, Tournament

START = dt.datetime(2026, 6, 1, 18, tzinfo=dt.UTC)


def season(*, rounds=6, pairs=8, seed=1):
    """A tournament of ``pairs`` pairs (16 players swapping partners between rounds is not
    needed: pairs meet each other) with ``rounds`` rounds of matches, confirmed, winners drawn
    by ``seed``. Returns the matches in the order they were played."""
    rng = random.Random(seed)
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    entries = [EntryFactory(tournament=tournament) for _ in range(pairs)]
    matches = []
    phase = None
    for number in range(1, rounds + 1):
        rnd = RoundFactory(
            number=number,
            published_at=START + dt.timedelta(hours=number),
            **({"phase": phase} if phase else {"phase__tournament": tournament}),
        )
        phase = rnd.phase
        order = entries[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            winner = rng.choice([a, b])
            matches.append(
                MatchFactory(
                    round=rnd,
                    entry_a=a,
                    entry_b=b,
                    status=Match.Status.CONFIRMED,
                    winner=winner,
                    games_a=2 if winner == a else 1,
                    games_b=2 if winner == b else 1,
                )
            )
    return tournament, matches


def everything():
    """Every rating entry and ranking row, every column the pages read (sorted)."""
    entries = sorted(
        RatingEntry.objects.values_list(
            "match__source_id", "player_id", "club_id", "order_key", "side", "result", "mu",
            "sigma", "rating", "mu_before", "sigma_before", "points",
        )
    )  # fmt: skip
    rows = sorted(
        RankingRow.objects.values_list(
            "club_id", "player_id", "matches", "wins", "losses", "abandons", "points", "mu",
            "sigma", "rating",
        )
    )  # fmt: skip
    return entries, rows
