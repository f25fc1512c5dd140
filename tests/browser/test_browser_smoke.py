"""The browser plumbing itself: the home page at a phone's size, in Spanish and in English."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_home_page_on_a_phone(phone, live_server, screenshot, transferred):
    size = transferred(phone, live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Torneos de mus"
    assert size < 60_000
    screenshot(phone, "home")
    with phone.expect_navigation():  # the menu posts the form on change, then redirects
        phone.select_option("#lang-select", "en")
    phone.wait_for_function("document.documentElement.lang === 'en'")
    assert phone.locator("h1").inner_text() != "Torneos de mus"
