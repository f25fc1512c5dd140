"""How many taps each kind of hand costs on the anotador: a phone (Chromium at 390×844, touch
taps) enters a fixed set of hands of each kind on the table's pad, and this prints the taps of
each hand, then per kind the mean and the most, with the kind's target (README, "Taps per
hand"). It asserts nothing; tests/browser/test_browser_taps_kinds.py checks the same figures.

The hands, their kinds and the way a step is tapped are tests/browser/taps_hands.py: en paso,
an envite accepted (of 2 to 10 stones), raises, dejes (bets refused), several declarations, an
órdago accepted, an órdago refused (the first bet of its lance, and after an envite). Each kind
is played on a table of its own (games to 100, 9 games a vaca: no game ends in a hand's middle)
and every hand is checked by the server with the rules engine: a hand the pad wrote wrongly is
refused and the run stops there. The page counts the trusted touches it receives, so a step
that needed a second tap would show.

Run it from the repository root (Debian's Chromium at /usr/bin/chromium, the dev dependencies
installed), on SQLite in memory::

    .venv/bin/python benchmarks/taps.py

or on PostgreSQL (``DATABASE_URL``). It never touches the configured database: Django's test
database machinery creates ``test_<NAME>`` next to it and drops it at the end.

Terms: mano (hand), lance, envite, envido, más, quiero, deje, órdago, pares, juego, punto.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

import config.queue  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.browser.taps_hands import COUNTER, KINDS, RULES, play, report  # noqa: E402


def measure(url: str) -> list[tuple[str, int, str, int]]:
    """Every hand of every kind entered on a phone: (kind, target, what, taps)."""
    from playwright.sync_api import sync_playwright

    from tests.factories import MatchFactory, TournamentFactory
    from tournaments.models import Tournament

    figures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES"
        )
        context.add_init_script(COUNTER)
        page = context.new_page()
        page.set_default_timeout(15_000)
        for kind, target, hands in KINDS:
            tournament = TournamentFactory(status=Tournament.Status.RUNNING, **RULES)
            match = MatchFactory(round__phase__tournament=tournament)
            counted = play(page, f"{url}/mesa/{match.token}/anotador/", hands)
            for (what, _expected, _steps), taps in zip(hands, counted, strict=True):
                figures.append((kind, target, what, taps))
        browser.close()
        # the rows above were written from Playwright's greenlet, whose context has a database
        # connection of its own: closed here, or the test database cannot be dropped
        connections.close_all()
    return figures


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    setup_test_environment()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    config.queue._send = lambda task_name, kwargs: None  # no worker here: nothing to follow up
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    server = LiveServer("localhost")
    server._live_server_modified_settings.enable()
    try:
        started = time.monotonic()
        figures = measure(server.url)
        print(f"Taps per hand on the anotador, by kind (Chromium at 390×844, {connection.vendor}):")
        print("\n".join(report(figures)))
        print(f"\n{len(figures)} hands in {time.monotonic() - started:.0f} s")
    finally:
        server._live_server_modified_settings.disable()
        server.stop()
        drop(old_name)


def drop(old_name: str) -> None:
    """Drop the test database once the server's last request thread has closed its connection
    (they end with the browser's connections, a moment after it)."""
    from django.db import OperationalError

    for attempt in range(50):
        try:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            return
        except OperationalError:
            if attempt == 49:
                raise
            time.sleep(0.1)


if __name__ == "__main__":
    main()
