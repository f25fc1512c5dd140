"""``manage.py demo``: load a realistic peña, a tournament half-way through and the season
around it, for a first look.

Responsible for: the command — load the demo once (seasons/demo.py calls each floor's part in
order, in one transaction: a failure leaves nothing half-loaded), finish what the tasks would
do, and print the way in (the login and a link to each kind of page). It lives in the top
floor because the demo spans every floor. Running it again finds the demo (by the peña's slug)
and says so; ``--reset`` deletes it and loads it again.

Must not: load anything itself (seasons/demo.py and each floor's demo module do).

Terms: peña, pareja, mesa, ronda, suizo (Swiss), eliminatoria, liga, circuito, interpeñas.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import NoReverseMatch, reverse

from clubs.demo import CLUB_NAME, CLUB_SLUG, PASSWORD, PLAYERS, USERNAME
from clubs.models import Club
from seasons.demo import demo_delete, demo_finish, demo_load
from seasons.leagues.demo import LEAGUE_NAME
from seasons.leagues.models import League
from tournaments.demo import TOURNAMENT_NAME
from tournaments.models import Match, Round, Tournament

API = "api:tournaments:"


class Command(BaseCommand):
    help = (
        "Load the demo peña (Peña Txoko) and its Torneo de San Fermín half-way through "
        "(once; --reset to load it again)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo first, then load it again"
        )
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the site runs, for the links printed at the end",
        )

    def handle(self, *args, reset: bool = False, base_url: str = "", **options) -> None:
        started = time.perf_counter()
        base_url = base_url.rstrip("/")
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is not None and not reset:
            self.stdout.write(
                f"The demo is already loaded ({CLUB_NAME}); nothing was changed. "
                "Run `manage.py demo --reset` to delete it and load it again."
            )
            tournament = club.tournaments.filter(name=TOURNAMENT_NAME).first()
            if tournament is not None:
                self._print_way_in(base_url, tournament)
            return
        quiet = options.get("verbosity", 1) < 2
        with _tasks_quiet(quiet), transaction.atomic():
            if club is not None:
                demo_delete(club)
                self.stdout.write("Deleted the earlier demo.")
            loaded = demo_load(log=self.stdout.write)
        # After the commit, as the tasks would: the standings show at once even when tasks go
        # to a worker that is not running; then the circuit's ranking and the ratings.
        rows = demo_finish(loaded)
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded in {elapsed:.1f} s: {CLUB_NAME} (Pamplona), {PLAYERS} players, "
                f"{PLAYERS // 2} pairs; {TOURNAMENT_NAME}: Swiss rounds 1–2 confirmed, round 3 "
                f"half played, knockout of the top 8 defined; standings of {rows} pairs."
            )
        )
        self._print_way_in(base_url, loaded.tournament.tournament)

    def _league_links(self, url, club: Club) -> list[tuple[str, str | None]]:
        league = League.objects.filter(club=club, name=LEAGUE_NAME).first()
        if league is None:
            return []
        public = {"club_slug": club.slug, "league_slug": league.slug}
        return [
            ("league standings", url("leagues:public-league", **public)),
            ("league desk", url("leagues:organizer-league", league_id=league.pk)),
        ]

    def _print_way_in(self, base_url: str, tournament: Tournament) -> None:
        swiss = tournament.phases.order_by("order").first()
        current = Round.objects.filter(phase=swiss, status=Round.Status.PUBLISHED).last()
        open_table = (
            Match.objects.filter(round=current, status=Match.Status.PENDING)
            .order_by("table_number")
            .last()
        )

        def url(name: str, **kwargs) -> str | None:
            # The site's pages are optional here: a page not written yet is left out.
            try:
                return base_url + reverse(name, kwargs=kwargs)
            except NoReverseMatch:
                return None

        public = {"club_slug": tournament.club.slug, "tournament_slug": tournament.slug}
        links = [
            ("site", url("home")),
            ("tournament", url("web:tournament", **public)),
            ("standings", url("web:public-standings", **public)),
            ("players' ranking", url("ratings:club-ranking", club_slug=tournament.club.slug)),
            *self._league_links(url, tournament.club),
            ("organizer's desk", url("web:organizer-tournament", tournament_id=tournament.id)),
            ("API: tournament", url(API + "tournament-detail", tournament_id=tournament.id)),
            ("API: phases", url(API + "rounds-phases", tournament_id=tournament.id)),
        ]
        if swiss is not None:
            links.append(("API: standings", url(API + "rounds-phase-standings", phase_id=swiss.id)))
        if current is not None:
            links += [
                (
                    f"round {current.number} board",
                    url("web:organizer-round-board", round_id=current.id),
                ),
                (f"API: round {current.number}", url(API + "rounds-round", round_id=current.id)),
            ]
        if open_table is not None:
            where = f"round {current.number}, mesa {open_table.table_number}, still to play"
            links += [
                (f"a table's page ({where})", url("web:table", token=open_table.token)),
                ("API: that table's link", url(API + "results-table", token=open_table.token)),
            ]
        plan = {"club_slug": tournament.club.slug, "tournament_slug": "san-juan"}
        links += [
            ("a four-phase plan (Torneo de San Juan)", url("web:tournament", **plan)),
            ("circuit", url("circuits:circuit", slug="circuito-de-navarra-2026")),
            ("interpeñas", url("interpenas:interpena-list")),
            (
                "league of peñas",
                url(
                    "leagues:public-team-league",
                    club_slug="pena-txoko",
                    league_slug="liga-de-penas-de-navarra-2026-27",
                ),
            ),
        ]
        links.append(("API docs", url("swagger-ui")))
        lines = [f"Log in at {base_url}{reverse('login')} as {USERNAME} / {PASSWORD}"]
        lines += [f"  {label}: {link}" for label, link in links if link is not None]
        self.stdout.write("\n".join(lines))


@contextmanager
def _tasks_quiet(quiet: bool) -> Iterator[None]:
    """Without a worker every task runs here and logs a line or two; the demo runs about three
    hundred. Hidden unless -v 2."""
    loggers = [logging.getLogger(name) for name in ("celery", "tournaments.tasks")]
    saved = [logger.level for logger in loggers]
    if quiet:
        for logger in loggers:
            logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, saved, strict=True):
            logger.setLevel(level)
