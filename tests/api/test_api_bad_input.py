"""Bad input never reaches a 500: every endpoint of the schema that reads a body, sent what a
broken or hostile client sends — JSON nested thousands deep, a NUL in a text, a body over the
limit, the wrong content type, absurd numbers — and every path and search with a NUL, answers a
4xx with the API's one error body. Run logged in as the demo peña's organizer, against the
demo tournament's real ids, so that each request gets as far into its view as it can."""

from __future__ import annotations

import functools
import re

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from clubs.models import Club, Membership, Pair, RuleSetPreset, Webhook, WebhookDelivery
from seasons.circuits.models import Circuit
from seasons.interpenas.models import Interpena
from seasons.leagues.models import League, TeamFixture
from tournaments.models import Entry, Match, Phase, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=False)

DEEP = "[" * 5000 + "]" * 5000
HUGE_INT = 2**63


@functools.cache  # the schema does not change during a run
def _operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    ]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo and a webhook with a delivery, loaded once for the module (the demo is the
    slowest setup of the API tests); each test's requests run in its own transaction, rolled
    back after it, and the demo's rows are deleted at the end, as the schemathesis test does.

    The tasks the demo's writes queue on commit are dropped, as they were when each test loaded
    it in its own never-committed transaction: run eagerly, they made the load five times
    slower, and the demo refreshes its standings itself."""
    from seasons.demo import demo_delete

    with django_db_blocker.unblock():
        with transaction.atomic():
            call_command("demo", verbosity=0)
            connection.run_on_commit.clear()
        club = Club.objects.get(slug="pena-txoko")
        try:
            yield _demo_ids(club)
        finally:
            demo_delete(club)


@pytest.fixture
def demo_client(demo):
    """The demo's organizer logged in, and the ids its paths are filled with."""
    ids, username = demo
    client = Client()
    client.force_login(Membership.objects.get(club_id=ids["club_id"], user__username=username).user)
    return client, ids


def _demo_ids(club: Club) -> tuple[dict, str]:
    tournament = Tournament.objects.get(club=club, name="Torneo de San Fermín")
    match = Match.objects.filter(round__phase__tournament=tournament).order_by("-pk").first()
    hook = Webhook.objects.create(club=club, url="https://example.org/", secret="s", events=[])
    delivery = WebhookDelivery.objects.create(webhook=hook, event="e", event_id="e", payload={})
    ids = {
        "club_id": club.pk,
        "tournament_id": tournament.pk,
        "phase_id": Phase.objects.filter(tournament=tournament).first().pk,
        "round_id": Round.objects.filter(phase__tournament=tournament).last().pk,
        "match_id": match.pk,
        "token": match.token,
        "entry_id": Entry.objects.filter(tournament=tournament).first().pk,
        "player_id": Pair.objects.filter(club=club).first().player_one_id,
        "pair_id": Pair.objects.filter(club=club).first().pk,
        "preset_id": (
            RuleSetPreset.objects.filter(club=club).first() or RuleSetPreset.objects.first()
        ).pk,
        "user_id": Membership.objects.filter(club=club).first().user_id,
        "webhook_id": hook.pk,
        "delivery_id": delivery.pk,
        "league_id": League.objects.get(club=club).pk,
        # a played division: its removal is refused (409) whatever the body
        "division_id": League.objects.get(club=club).divisions.first().pk,
        "number": 1,
        # the demo's circuit and interpeña (seasons.circuits.demo)
        "circuit_id": Circuit.objects.get().pk,
        "interpena_id": Interpena.objects.get(league_key="").pk,
        # the demo's league of peñas (seasons.leagues.teams.demo): "league_id" above is a league
        # of pairs, so its team-league paths answer 404, a 4xx too
        "fixture_id": TeamFixture.objects.first().pk,
        "board": 1,
        # the demo has no Mus francés table nor player alone: a 404 is a 4xx too
        "table_id": 999_999,
        "individual_id": 999_999,
        # no player of the demo was merged: a 404 is a 4xx too
        "merge_id": 999_999,
    }
    return ids, "organizador"


def _url(path: str, ids: dict, override: str | None = None) -> str:
    return re.sub(r"{(\w+)}", lambda m: override or str(ids[m.group(1)]), path)


def _assert_error_body(response, what: str) -> None:
    assert response.status_code < 500, f"{what}: {response.status_code} {response.content[:300]}"
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, what
        assert body["error"]["status"] == response.status_code, what
        assert isinstance(body["error"]["code"], str) and body["error"]["message"], what


BODIES = {
    "deep JSON": (DEEP, "application/json"),
    "NUL in every text": (
        '{"name": "a\\u0000", "text": "\\u0000", "slug": "x\\u0000"}',
        "application/json",
    ),
    "absurd numbers": (
        f'{{"games": [{{"A": {HUGE_INT}, "B": 0}}], "seed": {HUGE_INT}, "table_number": '
        f'{HUGE_INT}, "version": {HUGE_INT}, "entry_id": {HUGE_INT}, "match_id": {HUGE_INT}}}',
        "application/json",
    ),
    "not JSON": ("{'name': ", "application/json"),
    "a form instead of JSON": ("name=x", "application/x-www-form-urlencoded"),
}


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_every_endpoint_that_reads_a_body_refuses_a_bad_one_with_a_4xx(demo_client, kind):
    client, ids = demo_client
    body, content_type = BODIES[kind]
    writes = [(m, p) for m, p in _operations() if m in {"POST", "PUT", "PATCH"}]
    assert len(writes) > 30
    for method, path in writes:
        response = client.generic(
            method,
            _url(path, ids),
            body,
            content_type=content_type,
            headers={"Idempotency-Key": f"bad-input-{kind}"[:60].replace(" ", "-")},
        )
        _assert_error_body(response, f"{kind}: {method} {path}")


def test_a_body_over_the_limit_is_a_413_before_it_is_read(demo_client, settings):
    client, ids = demo_client
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post(
        _url("/api/v1/tournaments/{tournament_id}/update", ids),
        '{"name": "' + "x" * 2000 + '"}',
        content_type="application/json",
    )

    _assert_error_body(response, "oversized body")
    assert response.status_code == 413
    assert response.json()["error"]["params"] == {"size": 2012, "limit": 1000}


def test_a_nul_in_any_path_or_search_is_a_400(demo_client):
    client, ids = demo_client
    for method, path in _operations():
        if method != "GET":
            continue
        for url in (_url(path, ids, override="%00"), _url(path, ids) + "?q=%00&status=%00"):
            response = client.get(url)
            _assert_error_body(response, f"NUL: GET {url}")


def test_an_unknown_api_address_answers_the_json_error_body():
    response = Client().get("/api/v1/no/such/thing")

    _assert_error_body(response, "unknown address")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_such_endpoint"


def test_an_unknown_page_is_a_readable_page_not_json():
    response = Client().get("/no/such/page")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "Esta página no existe" in response.content.decode()
