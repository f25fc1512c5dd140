"""One person, one identity: the suggestions of a peña among many players, and a merge with its
re-rating against rating from scratch; prints figures, asserts nothing.

What it measures:

- ``clubs.identity.selectors.player_duplicates`` for one peña of 400 players among
  ``--players`` (20,000 by default) in 50 peñas, one player in ten with a licence: its
  queries (a fixed number) and its time, median of 5; once with a region's names (120 first
  names, 400 surnames, two each: a few namesakes), once with 90 names in all (the worst case:
  every player has dozens of namesakes);
- a season of confirmed tournament matches (``--matches``, 4,000 by default: 2 peñas, one
  tournament each, 40 pairs, rounds of 20 tables, rounds of the two peñas alternating in time)
  rated from scratch (``ratings_rebuild``), then one person's two rows merged and re-rated by
  the ratings' follow-up (``ratings_players_sync``, what the task ``ratings.players_merged``
  runs), and the undo the same way: each time, and whether the result equals rating from
  scratch again.

On PostgreSQL, on a 2-core machine shared with other work (load average 4.7), 2026-11-28: the
suggestions of a peña of 400 players among 20,000, 5 queries, 186 ms with a region's names (2
suggestions) and 1.6 s with 90 names in all (9,668 suggestions: the page shows the surest 100);
4,000 matches rated from scratch in 5.6 s; the merge 298 ms, its re-rating 3,885 matches in
1.8 s (Ana's first match is early and her rivals meet everybody, so nearly all the season is
reached), the same as from scratch; the undo 27 ms, its re-rating 1.2 s, the state of before.

Run it from the repository root, on PostgreSQL::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/identity.py

or on SQLite (in memory) with no variables. It never touches the configured database: Django's
test machinery creates ``test_<NAME>``, migrates it and drops it at the end, even after an
error.

Terms: peña, jugador (player), fusión (merge), licencia, valoración (rating).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402  (needs the path and settings above)

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.identity import selectors  # noqa: E402
from clubs.identity.services import player_merge, player_merge_undo  # noqa: E402
from clubs.models import Club, Membership, Pair, Player  # noqa: E402
from seasons.ratings.models import RankingRow, RatingEntry  # noqa: E402
from seasons.ratings.services import ratings_players_sync, ratings_rebuild  # noqa: E402
from tournaments.models import Entry, Match, Phase, Round, Tournament  # noqa: E402

SEED = 20_261_128
FIRST = ["Ana", "Ángel", "Miren", "Jon", "Itziar", "Mikel", "Nerea", "Iñaki", "Carmen", "Luis"]
LAST = ["García", "Etxeberria", "Goñi", "Pérez", "Arana", "Urquijo", "Otxoa", "Sanz", "Ruiz"]
#: a region's names: 120 first names, 400 surnames (two each), so namesakes are a few
MANY_FIRST = [f"{name}{n}" for n in range(12) for name in FIRST]
MANY_LAST = [f"{name}{n}" for n in range(45) for name in LAST][:400]
START = dt.datetime(2026, 6, 1, 18, tzinfo=dt.UTC)


def suggestions(players: int, rng: random.Random, *, common: bool, label: str) -> None:
    first, last = (FIRST, LAST) if common else (MANY_FIRST, MANY_LAST)
    clubs = Club.objects.bulk_create(
        Club(name=f"Peña {label} {n}", slug=f"pena-{label}-{n}") for n in range(50)
    )
    rows = Player.objects.bulk_create(
        (
            Player(
                first_name=rng.choice(first),
                last_name=f"{rng.choice(last)} {rng.choice(last)}",
                licence=f"NA-{rng.randrange(players * 5)}" if rng.random() < 0.1 else "",
            )
            for _ in range(players)
        ),
        batch_size=2000,
    )
    link = Player.clubs.through
    link.objects.bulk_create(
        (link(player_id=p.pk, club_id=clubs[n % len(clubs)].pk) for n, p in enumerate(rows)),
        batch_size=2000,
    )
    user = get_user_model().objects.create_user(f"bench-identity-{label}")
    Membership.objects.create(club=clubs[0], user=user, role=Membership.Role.ORGANIZER)
    times = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            found = selectors.player_duplicates(user=user, club=clubs[0])
            times.append(time.perf_counter() - started)
    print(
        f"suggestions of a peña of {players // len(clubs):,} players among {players:,} in "
        f"{len(clubs)} peñas ({label}): {len(found):,} suggestions, "
        f"{len(queries.captured_queries)} queries, {statistics.median(times) * 1000:.0f} ms "
        "median of 5"
    )


def season(matches: int, rng: random.Random):
    """Two peñas' tournaments of 40 pairs whose rounds alternate in time; Ana plays in both
    as a row of each. Returns (Ana of the first peña, Ana of the second, an organizer of both)."""
    user = get_user_model().objects.create_user("bench-identity-organizer")
    anas = []
    tables = 20
    rounds = max(1, matches // (2 * tables))
    for n in range(2):
        club = Club.objects.create(name=f"Peña de la temporada {n}", slug=f"temporada-{n}")
        Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANIZER)
        ana = Player.objects.create(first_name="Ana", last_name="Uno")
        ana.clubs.add(club)
        anas.append(ana)
        people = [
            ana,
            *Player.objects.bulk_create(Player(first_name=f"J{n}-{i}") for i in range(79)),
        ]
        pairs = Pair.objects.bulk_create(
            Pair(player_one=people[i], player_two=people[i + 1], club=club) for i in range(0, 80, 2)
        )
        tournament = Tournament.objects.create(
            club=club, name=f"Torneo {n}", slug=f"torneo-{n}", starts_on=START.date(),
            status=Tournament.Status.RUNNING,
        )  # fmt: skip
        entries = Entry.objects.bulk_create(Entry(tournament=tournament, pair=p) for p in pairs)
        phase = Phase.objects.create(
            tournament=tournament, order=1, name="Suizo", rounds_planned=rounds
        )
        for number in range(1, rounds + 1):
            rnd = Round.objects.create(
                phase=phase, number=number, status=Round.Status.PUBLISHED,
                published_at=START + dt.timedelta(hours=2 * number + n),
            )  # fmt: skip
            order = entries[:]
            rng.shuffle(order)
            Match.objects.bulk_create(
                Match(
                    round=rnd,
                    table_number=t + 1,
                    entry_a=a,
                    entry_b=b,
                    status=Match.Status.CONFIRMED,
                    winner=rng.choice([a, b]),
                    games_a=1,
                    games_b=1,
                )  # fmt: skip
                for t, (a, b) in enumerate(zip(order[::2], order[1::2], strict=True))
            )
    return anas[0], anas[1], user


def everything():
    return (
        sorted(RatingEntry.objects.values_list("match_id", "player_id", "mu", "sigma", "points")),
        sorted(RankingRow.objects.values_list("club_id", "player_id", "matches", "points", "mu")),
    )


def merge_and_undo(matches: int, rng: random.Random) -> None:
    keep, other, user = season(matches, rng)
    started = time.perf_counter()
    rated = ratings_rebuild()
    print(f"season: {rated:,} matches rated from scratch in {time.perf_counter() - started:.1f} s")
    before = everything()
    started = time.perf_counter()
    merge = player_merge(actor=user, keep=keep, other=other)
    merged_in = time.perf_counter() - started
    started = time.perf_counter()
    rerated = ratings_players_sync(player_ids=[keep.pk, other.pk])
    synced_in = time.perf_counter() - started
    after = everything()
    started = time.perf_counter()
    ratings_rebuild()
    scratch_in = time.perf_counter() - started
    same = everything() == after
    print(
        f"merge of Ana's two rows: {merged_in * 1000:.0f} ms; the ratings' follow-up re-rated "
        f"{rerated:,} matches in {synced_in:.1f} s (from scratch: {scratch_in:.1f} s); the same "
        f"as from scratch: {same}"
    )
    started = time.perf_counter()
    player_merge_undo(actor=user, merge=merge)
    undone_in = time.perf_counter() - started
    started = time.perf_counter()
    rerated = ratings_players_sync(player_ids=[keep.pk, other.pk])
    print(
        f"undo: {undone_in * 1000:.0f} ms; the ratings' follow-up re-rated {rerated:,} matches "
        f"in {time.perf_counter() - started:.1f} s; the state of before: {everything() == before}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--matches", type=int, default=4_000)
    args = parser.parse_args()
    setup_test_environment()
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor} database {connection.settings_dict['NAME']} (created and "
            f"migrated in {time.perf_counter() - started:.1f} s; dropped at the end); "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        )
        suggestions(args.players, random.Random(SEED), common=False, label="a region's names")
        suggestions(args.players, random.Random(SEED), common=True, label="90 names in all")
        merge_and_undo(args.matches, random.Random(SEED))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
