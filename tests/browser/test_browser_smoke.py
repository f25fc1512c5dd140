"""The browser plumbing itself: the home page at a phone's size, in Spanish and in English."""

import pytest
from playwright.sync_api import expect


@pytest.mark.django_db(transaction=True)
def test_home_page_on_a_phone(phone, live_server, screenshot, transferred):
    size = transferred(phone, live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Torneos de mus"
    assert size < 60_000
    screenshot(phone, "home")
    with phone.expect_navigation():  # the menu posts the form on change, then redirects
        phone.select_option("#lang-select", "en")
    # a locator's expectation: polling a string predicate is an eval the CSP refuses
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    assert phone.locator("h1").inner_text() != "Torneos de mus"
