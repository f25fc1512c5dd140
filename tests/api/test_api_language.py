"""The API answers in the client's language: English unless Accept-Language asks for another
one it speaks; the error body keeps its code and params whatever the language, and the
response names its language in Content-Language."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Membership
from config.errors import Invalid, error_message
from config.views import api_language
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("", "en"),
        ("es-ES,es;q=0.9,en;q=0.5", "es"),
        ("en-GB,en;q=0.9", "en"),
        ("de-DE,de;q=0.9", "en"),
        ("de;q=0.9,es;q=0.8", "es"),
        ("*", "en"),
        ("es;q=garbage", "en"),
    ],
)
def test_the_language_is_the_first_the_client_asks_for_that_the_api_speaks(header, language):
    assert api_language(header) == language


def _create_without_a_name(headers: dict) -> dict:
    organizer = MembershipFactory(role=Membership.Role.ORGANIZER)
    client = Client()
    client.force_login(organizer.user)
    response = client.post(
        f"{API}/tournaments/create",
        {"club": organizer.club.slug, "starts_on": "2026-07-07"},
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 400, response.content
    return response


def test_without_accept_language_the_api_speaks_english():
    response = _create_without_a_name({})

    assert response["Content-Language"] == "en"
    error = response.json()["error"]
    assert error["code"] == "validation"
    assert error["fields"]["name"] == ["This field is required."]


def test_with_accept_language_es_the_same_error_comes_in_spanish_with_the_same_code():
    response = _create_without_a_name({"Accept-Language": "es-ES,es;q=0.9"})

    assert response["Content-Language"] == "es"
    error = response.json()["error"]
    assert error["code"] == "validation"
    assert error["fields"]["name"] == ["Este campo es requerido."]
    assert error["message"].startswith("name: Este campo")


def test_the_pages_still_default_to_spanish():
    response = Client().get("/")

    assert response["Content-Language"] == "es"


def test_an_error_without_a_translation_is_shown_in_english_rather_than_not_at_all():
    exc = Invalid("A text nobody translated: {n}.", code="untranslated", n=3)

    assert error_message(exc, "es") == "A text nobody translated: 3."


def test_with_accept_language_eu_drf_s_own_messages_are_basque_not_spanish():
    """DRF ships no Basque catalog: its messages fell back to Django's LANGUAGE_CODE, Spanish."""
    response = _create_without_a_name({"Accept-Language": "eu"})
    anonymous = Client().get(f"{API}/me", headers={"Accept-Language": "eu"})

    assert response["Content-Language"] == "eu"
    assert response.json()["error"]["fields"]["name"] == ["Eremu hau beharrezkoa da."]
    assert anonymous.json()["error"]["message"] == "Ez da autentifikazio-kredentzialik eman."


#: DRF's words of its browsable pages, its schema and its admin, which the API never answers
DRF_PAGE_WORDS = {
    "A page number within the paginated result set.",
    "A search term.",
    "A {value_type} identifying this {name}.",
    "Auth Token",
    "Created",
    "Extra Actions",
    "Filters",
    "Key",
    "More than {count} items...",
    "No items to select.",
    "None",
    "Number of results to return per page.",
    "Ordering",
    "Password",
    "Search",
    "The initial index from which to return the results.",
    "The pagination cursor value.",
    "Token",
    "Tokens",
    "UUID string",
    "User",
    "Username",
    "Which field to use when ordering the results.",
    "ascending",
    "descending",
    "unique integer value",
    "unique value",
}


def test_every_message_drf_can_answer_has_its_basque():
    """The messages are those of DRF's own Spanish catalog: a DRF upgrade that adds one fails
    here until locale/rest_framework/eu holds it."""
    import gettext
    from pathlib import Path

    import rest_framework
    from django.conf import settings

    drf = Path(rest_framework.__file__).parent / "locale" / "es" / "LC_MESSAGES" / "django.mo"
    with drf.open("rb") as catalog:
        messages = {m for m in gettext.GNUTranslations(catalog)._catalog if isinstance(m, str)}
    ours = Path(settings.BASE_DIR) / "locale" / "rest_framework" / "eu" / "LC_MESSAGES"
    with (ours / "django.mo").open("rb") as catalog:
        basque = gettext.GNUTranslations(catalog)

    missing = sorted(m for m in messages - DRF_PAGE_WORDS - {""} if basque.gettext(m) == m)
    assert not missing
    # the committed .mo is its .po compiled
    from scripts.catalogs import read_po

    written = {e.msgid: e.msgstr[0] for e in read_po(ours / "django.po") if e.msgid}
    compiled = {k: v for k, v in basque._catalog.items() if k}
    assert written == compiled
