"""The API's root, GET /api/v1/: the index a newcomer is sent to by the README.

It lists every resource read without an id (found in the URL patterns, so a new one appears by
itself) and links to the OpenAPI schema and its docs. Every link it gives must answer, the
schema must describe it, and docs/api.md's example of it must name the same resources.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership
from tests.factories import MembershipFactory, TournamentFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
INDEX = "/api/v1/"


@pytest.fixture
def organizer():
    membership = MembershipFactory(role=Membership.Role.ORGANIZER)
    TournamentFactory(club=membership.club)  # so that the lists have something to list
    return membership.user


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def index(client: APIClient) -> dict:
    response = client.get(INDEX)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def links(body: dict) -> list[str]:
    return [*body["resources"].values(), body["schema"], body["docs"]]


def test_anyone_reads_the_index_of_resources_schema_and_docs():
    body = index(client_for())

    assert set(body) == {"resources", "schema", "docs"}
    assert body["schema"] == "http://testserver/api/schema/"
    assert body["docs"] == "http://testserver/api/docs/"
    assert {"clubs", "presets", "tournaments", "me", "health"} <= set(body["resources"])
    # every resource read without an id, the leagues too (they were only under a peña)
    assert {"circuits", "interpenas", "leagues", "team-leagues"} <= set(body["resources"])
    for name, url in body["resources"].items():
        assert url == f"http://testserver/api/v1/{name}"


def test_every_link_of_the_index_answers_for_an_organizer(organizer):
    client = client_for(organizer)
    for url in links(index(client)):
        response = client.get(urlsplit(url).path)
        assert response.status_code == 200, (url, response.status_code)


def test_every_link_of_the_index_answers_anonymously_or_asks_for_a_login():
    client = client_for()
    for url in links(index(client)):
        response = client.get(urlsplit(url).path)
        # `me` is personal: 403 not_authenticated; nothing is missing or broken
        assert response.status_code in {200, 403}, (url, response.status_code)


def test_the_index_without_its_slash_redirects_to_it():
    response = client_for().get("/api/v1")
    assert response.status_code == 301
    assert response["Location"] == INDEX


def test_the_schema_describes_the_index_and_it_lists_every_read_without_an_id():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    assert schema["paths"][INDEX]["get"]["operationId"] == "api_root"

    without_id = {
        path.removeprefix(INDEX)
        for path, item in schema["paths"].items()
        if path.startswith(INDEX) and path != INDEX and "{" not in path and "get" in item
    }
    assert set(index(client_for())["resources"]) == without_id


def test_the_api_links_of_the_readme_answer(organizer):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paths = set(re.findall(r"`(/api/[^`<{…\s]*)`", readme))
    assert {INDEX, "/api/schema/", "/api/docs/"} <= paths
    client = client_for(organizer)
    for path in sorted(paths):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)


def test_the_example_in_docs_api_names_the_resources_the_index_lists():
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = doc.split("\n## Root\n", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"^```json\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert example, "docs/api.md: the Root section shows the index as a ```json block"
    documented = json.loads(example.group(1))

    body = index(client_for())
    assert set(documented) == set(body)
    assert set(documented["resources"]) == set(body["resources"])
