"""Browser tests: Playwright driving Debian's Chromium at a phone's size, against a live server.

The server is pytest-django's live_server on the test database (PostgreSQL under CI=true).
Under CI a missing Chromium fails the run; on a laptop without it the tests are skipped.
Screenshots of the main pages are saved under test-results/screenshots/ as artifacts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

# Playwright's sync API keeps an event loop in the test thread; the ORM calls made by test
# code in that thread are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install -y chromium"
        if settings.CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _new_page(browser, **options):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES", **options
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


@pytest.fixture
def new_phone(browser, live_server) -> Iterator[Callable]:
    """Open another phone (its own cookies and storage), e.g. the second pair's."""
    contexts = []

    def open_phone(**options):
        context, page = _new_page(browser, **options)
        contexts.append(context)
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_phone):
    return new_phone()


@pytest.fixture
def screenshot() -> Callable:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def transferred() -> Callable:
    """Load a URL and return the bytes of every response it took (bodies, uncompressed)."""

    def load(page, url: str) -> int:
        sizes: list[int] = []

        def on_response(response):
            try:
                sizes.append(len(response.body()))
            except Exception:  # a redirect or aborted response has no body
                sizes.append(0)

        page.on("response", on_response)
        page.goto(url, wait_until="networkidle")
        page.remove_listener("response", on_response)
        return sum(sizes)

    return load
