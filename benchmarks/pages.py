"""The organizer's and the public pages of a 1,000-pair tournament; prints figures, asserts
nothing.

The tournament is built through the services, as a federation's Saturday builds it: 1,000 pairs
pasted at once (tournaments.services.bulk), all checked in with one tap, a Swiss phase, then
three rounds drawn and published (500 tables a round). Rounds 1 and 2 have every result
entered by the organizer (confirmed at once) and are closed; in round 3, the one in play, most
tables are confirmed, some wait for the other pair's confirmation, a few are disputed and a few
have not been played yet. The follow-up task of a confirmed result is not run per result (it
refreshes the standings; 1,500 of them would take minutes): the standings are refreshed once a
round, as the coalescing task would.

Then every page is requested with Django's test client (the whole middleware stack: the
organizer signed in for the desk's pages, anonymous for the public ones), each ``RUNS`` times
after one warm-up request, and it prints per page: server time p50 and max, the HTML's size
(as a phone receives it uncompressed, and gzip-compressed: GZipMiddleware compresses the
answers of a client that accepts it, and every phone browser does), and the number of queries.
Pages over 300 ms or 60 KB are marked.

Run it from the repository root, on PostgreSQL (what the target is about)::

    CI=true CELERY_BROKER_URL= DATABASE_URL=postgres://postgres@127.0.0.1:5432/amarrako_bench \\
        .venv/bin/python benchmarks/pages.py

or on SQLite (in memory): ``.venv/bin/python benchmarks/pages.py``. It never touches the
configured database: Django's test database machinery creates ``test_<NAME>`` next to it,
migrates it and drops it at the end, even after an error. It takes a few minutes, most of it
entering 1,500 results through the services.

Terms: pareja (pair), mesa (table), ronda (round), clasificación (standings), desk (mesa del
organizador), pase de lista (check-in), disputa (dispute), pantalla (the TV view).
"""

from __future__ import annotations

import gzip
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
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

import config.queue  # noqa: E402
from clubs.models import Club, Membership  # noqa: E402
from tournaments.demo import demo_games  # noqa: E402
from tournaments.models import Entry, Match, Phase, Round, Tournament  # noqa: E402
from tournaments.services.bulk import entrants_register_text  # noqa: E402
from tournaments.services.registration import entries_check_in_all  # noqa: E402
from tournaments.services.results import match_result_submit  # noqa: E402
from tournaments.services.rounds import (  # noqa: E402
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh  # noqa: E402
from tournaments.services.tournaments import (  # noqa: E402
    tournament_create,
    tournament_status_change,
)

PAIRS = int(os.environ.get("PAGES_PAIRS", "1000"))
ROUNDS = 3
RUNS = 5
SEED = 20_261_212
TARGET_MS = 300
TARGET_KB = 60


def build(user) -> tuple[Tournament, Phase, list[Round]]:
    club = Club.objects.create(name="Federación de Mus", slug="federacion")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    tournament = tournament_create(
        club_slug=club.slug,
        actor=user,
        name="Campeonato de 1000 parejas",
        slug="campeonato",
        starts_on="2026-12-12",
        venue="Frontón Labrit",
        tables_available=PAIRS // 2,
        preset="8 reyes a 40",
    )
    tournament_status_change(tournament=tournament, actor=user, status="registration")
    lines = "\n".join(
        f"Los de la Txantrea {n}: Ana{n} Uno / Bea{n} Dos" if n % 10 == 0 else
        f"Ana{n} Uno / Bea{n} Dos"
        for n in range(PAIRS)
    )  # fmt: skip
    entrants_register_text(tournament=tournament, text=lines, actor=user)
    entries_check_in_all(tournament=tournament, actor=user)
    tournament.refresh_from_db()
    tournament_status_change(tournament=tournament, actor=user, status="running")
    phase = phase_create(
        tournament=tournament,
        actor=user,
        name="Suizo",
        format=Phase.Format.SWISS,
        rounds_planned=5,
    )
    rng = random.Random(SEED)
    rounds = []
    for number in range(1, ROUNDS + 1):
        started = time.perf_counter()
        rnd = round_publish(round=round_draw_generate(phase=phase, actor=user), actor=user)
        matches = list(Match.objects.filter(round=rnd).exclude(kind=Match.Kind.BYE))
        last = number == ROUNDS
        for n, match in enumerate(matches):
            games = demo_games(rng, winner=rng.choice("ab"))
            if last and n % 25 == 24:
                continue  # not played yet
            if last and n % 25 in (20, 21, 22):  # one pair entered it, the other has not
                submit(match, "a", games)
            elif last and n % 25 == 23:  # the two pairs disagree
                first = submit(match, "a", games)
                other = demo_games(rng, winner="b" if games[-1]["stones"][0] == 40 else "a")
                submit(match, "b", other, version=first.match.version)
            else:
                match_result_submit(
                    match=match,
                    side="organizer",
                    payload={"games": games},
                    idempotency_key=f"o-{match.pk}",
                    version=0,
                    via="account",
                    actor=user,
                )
        standings_refresh(phase=phase)
        if not last:
            round_close(round=rnd, actor=user)
        rounds.append(rnd)
        print(
            f"  round {number}: {len(matches)} tables drawn and played in "
            f"{time.perf_counter() - started:.1f} s"
        )
    standings_refresh(phase=phase)
    return tournament, phase, rounds


def submit(match: Match, side: str, games: list, version: int = 0):
    return match_result_submit(
        match=match,
        side=side,
        payload={"games": games},
        idempotency_key=f"{side}-{match.pk}",
        version=version,
        via="link",
    )


def pages(tournament: Tournament, phase: Phase, rounds: list[Round]) -> list[tuple]:
    """(label, path, signed in) of every page of the tournament."""
    t = tournament.pk
    pub = (tournament.club.slug, tournament.slug)
    last = rounds[-1]
    entry = Entry.objects.filter(tournament=tournament).order_by("-pk").first()
    matches = Match.objects.filter(round=last).order_by("-status", "pk")  # disputed first
    match = matches.filter(status=Match.Status.DISPUTED).first() or matches.first()
    confirmed = Match.objects.filter(round=last, status=Match.Status.CONFIRMED).first()
    slug = tournament.club.slug

    def org(name: str, *args) -> str:
        return reverse(f"web:organizer-{name}", args=args)

    def public(name: str, *args) -> str:
        return reverse(f"web:{name}", args=[*pub, *args])

    return [
        ("organizer: desk", org("tournament", t), True),
        ("organizer: pairs (list, check-in)", org("entries", t), True),
        ("organizer: edit (bases)", org("tournament-edit", t), True),
        ("organizer: prizes", org("prizes", t), True),
        ("organizer: calendar", org("calendar", t), True),
        ("organizer: round 3 (tables, results)", org("round", last.pk), True),
        ("organizer: round 1 (closed)", org("round", rounds[0].pk), True),
        ("organizer: round 3 board", org("round-board", last.pk), True),
        ("organizer: round 3 print (paper)", org("round-print", last.pk), True),
        ("organizer: round 3 QR sheets (paper)", org("round-sheets", last.pk), True),
        ("organizer: a disputed match", org("match", match.pk), True),
        ("organizer: the peña's players", org("players", slug), True),
        ("organizer: home", org("home"), True),
        ("public: tournaments", reverse("web:public-tournaments"), False),
        ("public: tournament (bases, round, standings)", public("tournament"), False),
        ("public: standings", public("public-standings"), False),
        ("public: round 3", public("public-round", last.pk), False),
        ("public: pairs", public("public-pairs"), False),
        ("public: the 1,000th pair", public("public-pair", entry.pk), False),
        ("public: TV view", public("public-screen"), False),
        ("public: TV view's content", public("public-screen-fragment"), False),
        ("table's phone page", reverse("web:table", args=[confirmed.token]), False),
    ]


def measure(client: Client, path: str) -> tuple[list[float], int, int, int, bool]:
    client.get(path)  # warm-up (templates, caches kept between reads)
    timings = []
    for _ in range(RUNS):
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
            timings.append((time.perf_counter() - started) * 1000)
    assert response.status_code == 200, (path, response.status_code)
    served_gzip = response.get("Content-Encoding") == "gzip"
    body = gzip.decompress(response.content) if served_gzip else response.content
    return timings, len(queries), len(body), len(gzip.compress(body)), served_gzip


def run() -> None:
    config.queue._send = lambda task_name, kwargs: None  # noqa: SLF001  (see the docstring)
    user = get_user_model().objects.create_user("federacion", password="x")
    started = time.perf_counter()
    print(f"building a tournament of {PAIRS} pairs through the services:")
    tournament, phase, rounds = build(user)
    print(f"built in {time.perf_counter() - started:.0f} s\n")
    organizer, anonymous = Client(), Client()
    organizer.force_login(user)
    print(f"{'page':46} {'p50 ms':>7} {'max ms':>7} {'HTML KB':>8} {'gzip KB':>8} {'queries':>8}")
    over = []
    gzipped = set()
    for label, path, signed_in in pages(tournament, phase, rounds):
        timings, queries, size, packed, served = measure(
            organizer if signed_in else anonymous, path
        )
        gzipped.add(served)
        p50 = statistics.median(timings)
        flags = []
        if p50 > TARGET_MS:
            flags.append("SLOW")
        if size > TARGET_KB * 1024:
            flags.append("BIG")
        if flags:
            over.append(label)
        print(
            f"{label:46} {p50:7.0f} {max(timings):7.0f} {size / 1024:8.1f} {packed / 1024:8.1f}"
            f" {queries:>8}  {' '.join(flags)}"
        )
    print(
        f"\n{RUNS} requests a page after a warm-up; gzip served to a client that accepts it: "
        f"{'yes' if gzipped == {True} else 'not always' if True in gzipped else 'no'}; "
        f"targets < {TARGET_MS} ms and < {TARGET_KB} KB of HTML; over: {len(over)}"
        + (f" ({', '.join(over)})" if over else "")
    )


def main() -> None:
    setup_test_environment()
    database = connection.settings_dict["NAME"]
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(
            f"{connection.vendor} database {connection.settings_dict['NAME']} (created and "
            f"migrated in {time.perf_counter() - started:.1f} s; dropped at the end); "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n"
        )
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"dropped the benchmark database; {database} was not touched")


if __name__ == "__main__":
    main()
