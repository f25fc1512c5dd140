"""The league's pages and API: how many queries (and how long) each read costs as the league
grows; prints figures, asserts nothing.

What it measures, on a league of two divisions of N fixed pairs each (N = 4, 12, 32), with its
first three jornadas drawn, published and played through the services (the organizer enters
every result, so the rows are exactly those a real night writes):

- ``GET /api/v1/leagues/<id>/standings`` and ``GET /api/v1/leagues/<id>/jornadas/1``;
- the public league page (standings of every division and the calendar), a jornada's page,
  the TV view, and the organizer's desk;

for each, the number of queries (which must not grow with N) and the median time of five runs,
and the size of the public pages (a phone's limit is 60 KB).

Run it from the repository root, on SQLite (an in-memory database)::

    .venv/bin/python benchmarks/leagues.py

or on PostgreSQL::

    CI=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/leagues.py

It never touches the configured database: Django's test database machinery creates a test
database next to it and drops it at the end (SQLite: in memory).

Terms: liga, división, jornada, clasificación (standings), pareja.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
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
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from clubs.models import Club, Membership, Pair, Player  # noqa: E402
from seasons.leagues import selectors, services  # noqa: E402
from tournaments.models import Match  # noqa: E402
from tournaments.services import results  # noqa: E402

SIZES = (4, 12, 32)
JORNADAS = 3
_keys = itertools.count()


def build(size: int, organizer) -> object:
    club = Club.objects.create(name=f"Peña {size}", slug=f"pena-{size}")
    Membership.objects.create(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    dates = [dt.date(2026, 10, 5) + dt.timedelta(weeks=k) for k in range(size)]
    league = services.league_create(
        club=club, actor=organizer, name="Liga", season="2026", dates=dates
    )
    for name in ("Primera", "Segunda"):
        pairs = []
        for k in range(size):
            one = Player.objects.create(first_name=f"Uno{k}", last_name=name)
            two = Player.objects.create(first_name=f"Dos{k}", last_name=name)
            pairs.append(Pair.objects.create(club=club, player_one=one, player_two=two).pk)
        services.division_create(
            league=league, actor=organizer, name=name, pair_ids=pairs, promote=2, relegate=2
        )
    for number in range(1, JORNADAS + 1):
        jornada = selectors.jornada_get(league=league, number=number)
        services.jornada_draw(jornada=jornada, actor=organizer)
        services.jornada_publish(jornada=jornada, actor=organizer)
        for m in Match.objects.filter(
            round__phase__league_division__league=league, round__number=number
        ):
            results.match_result_submit(
                match=m,
                side="organizer",
                payload={"games": [{"stones": [40, 10]}] * 3},
                idempotency_key=f"b{next(_keys)}",
                version=m.version,
                via="account",
                actor=organizer,
            )
    return league


def measure(client: Client, path: str) -> tuple[int, float, int]:
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    times = []
    for _ in range(5):
        started = time.perf_counter()
        client.get(path)
        times.append((time.perf_counter() - started) * 1000)
    return len(queries), statistics.median(times), len(response.content)


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run()
        run_teams()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> None:
    organizer = get_user_model().objects.create_user("organizador", password="x")
    public, desk = Client(), Client()
    desk.force_login(organizer)
    print(f"league of 2 divisions x N pairs, {JORNADAS} jornadas played; queries, median ms, KB")
    for size in SIZES:
        started = time.perf_counter()
        league = build(size, organizer)
        print(f"\nN = {size:>2} ({time.perf_counter() - started:.1f} s to build through services)")
        base = f"/ligas/{league.club.slug}/{league.slug}/"
        reads = [
            ("API standings", public, f"/api/v1/leagues/{league.pk}/standings"),
            ("API jornada 1", public, f"/api/v1/leagues/{league.pk}/jornadas/1"),
            ("league page", public, base),
            ("jornada page", public, base + "jornadas/1/"),
            ("TV view", public, base + "pantalla/"),
            ("organizer's desk", desk, f"/organizador/ligas/{league.pk}/"),
        ]
        for label, client, path in reads:
            count, median, size_bytes = measure(client, path)
            print(f"  {label:<18} {count:>3} queries {median:8.1f} ms {size_bytes / 1024:6.1f} KB")


# --- A league of peñas (seasons.leagues.teams) --------------------------------------------------

TEAM_SIZES = (4, 8, 16)
TEAM_BOARDS = 3
TEAM_JORNADAS = 2


def build_teams(size: int, organizer) -> object:
    """A league of ``size`` peñas (the organizer organizes all), its first jornadas played
    through the interpeñas' services: line-ups, every board entered and confirmed, captains."""
    from seasons.interpenas.result import signature
    from seasons.interpenas.selectors import interpena_result
    from seasons.interpenas.services import (
        interpena_board_confirm,
        interpena_board_submit,
        interpena_lineup_set,
        interpena_team_confirm,
    )
    from seasons.leagues.models import TeamFixture
    from seasons.leagues.teams import services as team_services

    clubs, pairs = [], {}
    for k in range(size):
        club = Club.objects.create(name=f"Peña {size}-{k}", slug=f"pena-t{size}-{k}")
        Membership.objects.create(club=club, user=organizer, role=Membership.Role.ORGANIZER)
        pairs[club.pk] = []
        for b in range(TEAM_BOARDS):
            one = Player.objects.create(first_name=f"Uno{b}", last_name=club.slug)
            two = Player.objects.create(first_name=f"Dos{b}", last_name=club.slug)
            pairs[club.pk].append(Pair.objects.create(club=club, player_one=one, player_two=two).pk)
        clubs.append(club)
    rounds = size - 1 if size % 2 == 0 else size
    dates = [dt.date(2026, 10, 4) + dt.timedelta(weeks=k) for k in range(rounds)]
    league = team_services.team_league_create(
        club=clubs[0],
        actor=organizer,
        name="Liga de peñas",
        season="2026",
        club_ids=[c.pk for c in clubs],
        dates=dates,
        boards=TEAM_BOARDS,
    )
    fixtures = TeamFixture.objects.filter(
        jornada__league=league, jornada__number__lte=TEAM_JORNADAS
    )
    for fixture in fixtures:
        fixture = team_services.team_fixture_open(
            league=league, fixture_id=fixture.pk, actor=organizer
        )
        interpena = fixture.interpena
        for side, club_id in (("home", fixture.home_club_id), ("away", fixture.away_club_id)):
            interpena = interpena_lineup_set(
                actor=organizer, interpena=interpena, side=side, pair_ids=pairs[club_id]
            )
        for board in range(1, TEAM_BOARDS + 1):
            match = Match.objects.get(round=interpena.round, table_number=board)
            answer = interpena_board_submit(
                actor=organizer,
                interpena=interpena,
                board=board,
                side="home",
                payload={"games": [{"stones": [40, 10]}] * 3},
                idempotency_key=f"t{next(_keys)}",
                version=match.version,
            )
            interpena_board_confirm(
                actor=organizer,
                interpena=interpena,
                board=board,
                side="away",
                idempotency_key=f"t{next(_keys)}",
                version=answer.match.version,
            )
        _result, boards = interpena_result(interpena=interpena)
        for side in ("home", "away"):
            interpena_team_confirm(
                actor=organizer, interpena=interpena, side=side, result_version=signature(boards)
            )
    return league


def run_teams() -> None:
    organizer = get_user_model().objects.get(username="organizador")
    public, desk = Client(), Client()
    desk.force_login(organizer)
    print(
        f"\nleague of N peñas, {TEAM_BOARDS} boards a fixture, {TEAM_JORNADAS} jornadas played; "
        "queries, median ms, KB"
    )
    for size in TEAM_SIZES:
        started = time.perf_counter()
        league = build_teams(size, organizer)
        print(f"\nN = {size:>2} ({time.perf_counter() - started:.1f} s to build through services)")
        base = f"/ligas-penas/{league.club.slug}/{league.slug}/"
        reads = [
            ("API league", public, f"/api/v1/team-leagues/{league.pk}"),
            ("API standings", public, f"/api/v1/team-leagues/{league.pk}/standings"),
            ("league page", public, base),
            ("TV view", public, base + "pantalla/"),
            ("organizer's desk", desk, f"/organizador/ligas-penas/{league.pk}/"),
        ]
        for label, client, path in reads:
            count, median, size_bytes = measure(client, path)
            print(f"  {label:<18} {count:>3} queries {median:8.1f} ms {size_bytes / 1024:6.1f} KB")


if __name__ == "__main__":
    main()
