"""The browser plumbing itself: the home page at a phone's size, in Spanish and in English."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_home_page_on_a_phone(phone, live_server, screenshot, transferred):
    size = transferred(phone, live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Torneos de mus"
    assert size < 60_000
    screenshot(phone, "home")
    phone.select_option("#lang-select", "en")
    phone.wait_for_load_state()
    assert phone.locator("html").get_attribute("lang") == "en"
