"""The table's first visit fills the offline copy without downloading the page again (Chromium
at 390×844).

The page asked the server for itself twice more to keep its copy: once as "this page" and once
as its own tab's link. Now the copy of the page just loaded comes from the browser's cache (the
response it has, never the network); only the other tab's page, which was not loaded, is
fetched, once. Counted at the server: the requests that reach it for each page.
"""

from __future__ import annotations

import pytest
from django.core.signals import request_started

from tests.browser.test_browser_offline import kept_pages
from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def served():
    """Every (method, path) the live server is asked for, in order."""
    seen: list[tuple[str, str]] = []

    def record(sender, environ, **kwargs):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))

    request_started.connect(record)
    yield seen
    request_started.disconnect(record)


@pytest.mark.parametrize("tab", ["", "anotador/"])
def test_the_first_visit_downloads_the_table_page_once(phone, live_server, served, tab):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round__phase__tournament=tournament)
    page, other = (
        f"/mesa/{match.token}/{tab}",
        f"/mesa/{match.token}/{'anotador/' if not tab else ''}",
    )
    phone.goto(f"{live_server.url}{page}")
    for _ in range(100):  # until both tabs are kept for offline use
        if {page, other} <= set(kept_pages(phone)):
            break
        phone.wait_for_timeout(100)
    assert {page, other} <= set(kept_pages(phone)), kept_pages(phone)
    phone.wait_for_timeout(500)  # anything still on its way
    gets = [path for method, path in served if method == "GET"]
    assert gets.count(page) == 1, gets
    assert gets.count(other) == 1, gets
    # the kept copy is the page as the server wrote it (not the page after its scripts ran)
    kept = phone.evaluate(
        "url => caches.open('amarrako-table-v1').then(c => c.match(url)).then(r => r.text())",
        f"{live_server.url}{page}",
    )
    assert 'id="t-script"' in kept and 'class="t-pad"' not in kept.split("<template")[0]
