"""Bad input never reaches a 500: every endpoint of the schema that reads a body, sent what a
broken or hostile client sends — JSON nested thousands deep, a NUL in a text, a body over the
limit, the wrong content type, absurd numbers — and every path and search with a NUL, answers a
4xx with the API's one error body. Run logged in as the demo peña's organizer, against the
demo tournament's real ids, so that each request gets as far into its view as it can."""

from __future__ import annotations

import functools
import re
import runpy
from pathlib import Path

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from clubs.models import Club, Membership, Pair, RuleSetPreset, Webhook, WebhookDelivery
from seasons.championships.models import Championship
from seasons.circuits.models import Circuit
from seasons.interpenas.models import Interpena
from seasons.leagues.models import League, TeamFixture
from tests.factories import UserFactory
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


@pytest.fixture
def demo(shared_demo):
    """The shared demo (tests/conftest.py) and a webhook with a delivery, made in the test's
    own transaction and rolled back with it."""
    return _demo_ids(shared_demo)


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
        # the demo's championship (seasons.championships.demo), a centre, a stage
        "championship_id": Championship.objects.get().pk,
        "centre_id": Championship.objects.get().centres.first().pk,
        "club_slug": club.slug,
        "stage_id": Championship.objects.get().stages.first().pk,
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
    # half of a character: a choice field's error repeated it, and the answer could not be
    # encoded (500)
    "a lone surrogate in every text": (
        '{"name": "\\ud800", "status": "\\ud800", "format": "\\ud800", "side": "\\ud800", '
        '"kind": "\\ud800", "language": "\\ud800", "entrant_kind": "\\ud800", '
        '"result": "\\ud800", "decision": "\\ud800", "outcome": "\\ud800", '
        '"events": ["\\ud800"], "tiebreaks": ["\\ud800"], "real_31": "\\ud800"}',
        "application/json",
    ),
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


@pytest.mark.parametrize("path", ["/api/v1/no/such/thing", "/api/v1/tournaments/abc", "/api/v1/x/"])
def test_an_unknown_api_address_is_json_with_debug_on_too(settings, path):
    """``make run`` (DEBUG on) answered Django's HTML debug page: Django calls handler404 only
    with DEBUG off."""
    settings.DEBUG = True
    user = Client(enforce_csrf_checks=True)
    user.force_login(UserFactory())

    for response in (Client().get(path), user.post(path, "{}", content_type="application/json")):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "no_such_endpoint"


def test_an_unknown_page_is_a_readable_page_not_json():
    response = Client().get("/no/such/page")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "Esta página no existe" in response.content.decode()


#: the writes that take a file too, as multipart: an archive, and a field's CSV file
TAKE_A_FILE = {"/api/v1/archive/import", "/api/v1/tournaments/{tournament_id}/entrants/import"}


@functools.cache
def _reads_a_body() -> list[tuple[str, str]]:
    """The writes whose schema names a body (those that read one), but those that also take a
    multipart file (TAKE_A_FILE, which the schema says)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    multipart = {
        path
        for path, operations in schema["paths"].items()
        for operation in operations.values()
        if "multipart/form-data" in operation.get("requestBody", {}).get("content", {})
    }
    assert multipart == TAKE_A_FILE
    return [
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in {"post", "put", "patch"}
        and "requestBody" in operation
        and path not in TAKE_A_FILE
    ]


FORMS = {
    "form": ("application/x-www-form-urlencoded", "venue=Txoko"),
    "multipart": (
        "multipart/form-data; boundary=XyZ",
        '--XyZ\r\nContent-Disposition: form-data; name="venue"\r\n\r\nTxoko\r\n--XyZ--\r\n',
    ),
}


@pytest.mark.parametrize("kind", sorted(FORMS))
def test_a_partial_update_sent_as_a_form_is_refused_and_changes_nothing(demo_client, kind):
    """DRF reads a boolean a form leaves out as an unticked box: the update answered 200 and
    made the public tournament private. The API reads JSON bodies only."""
    client, ids = demo_client
    before = Tournament.objects.get(pk=ids["tournament_id"])
    assert before.is_public
    content_type, body = FORMS[kind]

    response = client.post(
        _url("/api/v1/tournaments/{tournament_id}/update", ids), body, content_type=content_type
    )

    _assert_error_body(response, kind)
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
    after = Tournament.objects.get(pk=ids["tournament_id"])
    assert (after.is_public, after.venue) == (True, before.venue)


def test_every_endpoint_that_reads_a_body_refuses_a_form_with_415(demo_client):
    client, ids = demo_client
    writes = _reads_a_body()
    assert len(writes) > 60
    for method, path in writes:
        for kind, (content_type, body) in FORMS.items():
            response = client.generic(method, _url(path, ids), body, content_type=content_type)
            # 404: a path of the demo's with no such row (no Mus francés table), found first
            assert response.status_code in {404, 415}, f"{kind}: {method} {path}"


@pytest.mark.parametrize("charset", ["hex", "rot13", "zlib", "base64", "no-such-codec"])
def test_a_charset_that_is_not_a_text_encoding_is_a_415_on_every_write(charset):
    """Decoding the body with a bytes-to-bytes codec raised LookupError: a 500 on every write,
    without login."""
    client = Client()
    writes = [(m, p) for m, p in _operations() if m in {"POST", "PUT", "PATCH", "DELETE"}]
    for method, path in writes:
        response = client.generic(
            method,
            re.sub(r"{(\w+)}", "1", path),
            b"{}",
            content_type=f"application/json; charset={charset}",
        )
        _assert_error_body(response, f"{charset}: {method} {path}")
        assert response.status_code == 415, f"{charset}: {method} {path}"
        assert response.json()["error"]["code"] == "body_charset"


def test_a_lone_surrogate_is_named(demo_client):
    client, ids = demo_client
    response = client.post(
        _url("/api/v1/tournaments/{tournament_id}/status", ids),
        '{"status": "\\udfff"}',
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json_surrogate"
    assert response.json()["error"]["params"] == {"escape": "\\udfff"}


def test_a_body_sent_in_chunks_is_refused_not_read_as_empty(demo_client):
    """Django reads as many bytes as Content-Length says: a chunked body (no Content-Length)
    was read as {} and the update answered 200 having changed nothing."""
    client, ids = demo_client
    before = Tournament.objects.get(pk=ids["tournament_id"]).venue

    response = client.post(
        _url("/api/v1/tournaments/{tournament_id}/update", ids),
        '{"venue": "Txoko berria"}',
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )

    _assert_error_body(response, "chunked")
    assert response.status_code == 411
    assert response.json()["error"]["code"] == "body_length_required"
    assert Tournament.objects.get(pk=ids["tournament_id"]).venue == before


def test_an_address_or_a_header_over_the_limits_is_answered_with_the_error_body():
    """gunicorn answered these itself, with an HTML page: its limits are now above the app's
    (deploy/gunicorn.conf.py), and the app answers with its JSON body."""
    client = Client()
    long_query = client.get("/api/v1/tournaments?q=" + "x" * 4100)
    long_header = client.get("/api/v1/tournaments", HTTP_X_LONG="y" * 8200)
    many = client.get("/api/v1/tournaments", **{f"HTTP_X_H{n}": "1" for n in range(101)})
    fits = client.get("/api/v1/tournaments?q=" + "x" * 3000, HTTP_X_LONG="y" * 8000)

    for response, status, code in (
        (long_query, 414, "address_too_long"),
        (long_header, 431, "header_too_large"),
        (many, 431, "headers_too_many"),
    ):
        _assert_error_body(response, code)
        assert response.status_code == status
        assert response.json()["error"]["code"] == code
    assert long_header.json()["error"]["params"]["name"] == "X-Long"
    assert fits.status_code == 200


def test_gunicorn_lets_the_app_answer_over_its_limits():
    from config import middleware

    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "deploy/gunicorn.conf.py"))

    assert conf["limit_request_line"] > middleware.REQUEST_LINE_LIMIT
    assert conf["limit_request_line"] <= 8190  # gunicorn's most: above it, it takes 8190
    assert conf["limit_request_field_size"] > middleware.HEADER_FIELD_LIMIT
    assert conf["limit_request_fields"] > middleware.HEADER_FIELDS_LIMIT


def test_a_field_no_endpoint_reads_is_refused_naming_it(demo_client):
    """DRF drops a key its serializer does not declare: a misspelt or misplaced field answered
    200 having done less than the client asked."""
    client, ids = demo_client
    answers = {}
    for method, path in _reads_a_body():
        response = client.generic(
            method, _url(path, ids), '{"no_such_field": 1}', content_type="application/json"
        )
        _assert_error_body(response, f"{method} {path}")
        answers[f"{method} {path}"] = (response.status_code, response.json()["error"]["code"])

    unknown = {what for what, answer in answers.items() if answer == (400, "field_unknown")}
    # the others answer before reading the body: a row of the demo's that is not there (404),
    # a state that allows no write (409), the table's link closed
    others = {what: answer for what, answer in answers.items() if what not in unknown}
    assert all(status in {403, 404, 409} for status, _ in others.values()), others
    assert len(unknown) > 50


def test_preset_values_nested_under_rules_are_refused_not_dropped(demo_client):
    client, ids = demo_client
    before = RuleSetPreset.objects.count()

    response = client.post(
        _url("/api/v1/clubs/{club_id}/presets/create", ids),
        '{"name": "Sin dejes", "rules": {"dejes": false}}',
        content_type="application/json",
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["params"]) == ("field_unknown", {"fields": ["rules"], "count": 1})
    assert RuleSetPreset.objects.count() == before


def test_rounds_planned_on_a_liguilla_is_refused_not_dropped(demo_client):
    client, ids = demo_client
    tournament = Tournament.objects.get(pk=ids["tournament_id"])
    phases = tournament.phases.count()

    response = client.post(
        _url("/api/v1/tournaments/{tournament_id}/phases/create", ids),
        '{"name": "Liguilla", "format": "round_robin", "group_size": 4, "rounds_planned": 3}',
        content_type="application/json",
    )

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "phase_option_unread"
    assert error["params"] == {
        "format": "round_robin",
        "option": "rounds_planned",
        "formats": ["swiss", "table_ladder"],
    }
    assert tournament.phases.count() == phases
