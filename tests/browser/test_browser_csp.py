"""The Content-Security-Policy breaks nothing a person uses: the pages' scripts run, the
language menu changes the language, and the API's documentation (Swagger UI, from our own
files) renders — with no violation reported in the browser's console."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Tournament


def _violations(page) -> list[str]:
    seen: list[str] = []
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen


@pytest.mark.django_db(transaction=True)
def test_pages_and_the_api_docs_run_under_the_policy(phone, live_server):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(round__phase__tournament=tournament)
    violations = _violations(phone)

    phone.goto(live_server.url + f"/mesa/{match.token}/")
    phone.goto(live_server.url + "/api/docs/")
    phone.locator(".opblock").first.wait_for(timeout=20_000)
    phone.goto(live_server.url + "/")
    with phone.expect_navigation():
        phone.select_option("#lang-select", "en")
    phone.wait_for_function("document.documentElement.lang === 'en'")

    assert violations == []
    assert not phone.locator(".lang-submit").is_visible()  # the script hid the fallback button
