"""The defences in front of every view: the Content-Security-Policy, cookies that stay on their
site, HSTS behind HTTPS, writes from another site refused, and table links that cannot be
guessed by trying."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.test_infrastructure import SETUP, run_python
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def test_pages_forbid_inline_and_foreign_scripts():
    response = Client().get("/")

    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "onchange=" not in response.content.decode()  # no inline handler left to block


def test_the_session_cookie_stays_on_its_site():
    UserFactory(username="ana", password="secreta-larga-1")
    client = Client()
    client.post("/accounts/login/", {"username": "ana", "password": "secreta-larga-1"})

    assert client.cookies["sessionid"]["samesite"] == "Lax"


def test_hsts_is_sent_only_when_served_over_https():
    code = SETUP + "print(settings.SECURE_HSTS_SECONDS)"
    common = {"DJANGO_ENV": "production", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org"}

    https = run_python(code, **common)
    plain_http = run_python(code, **common, SECURE_COOKIES="false")

    assert https.stdout.strip() == "31536000", https.stderr
    assert plain_http.stdout.strip() == "0", plain_http.stderr


@pytest.fixture
def match():
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    return MatchFactory(round__phase__tournament=tournament)


def test_a_table_write_posted_from_another_site_is_refused(match):
    client = Client()
    body = {"result": {"games": [{"stones": [40, 12]}]}, "side": "a"}

    foreign = client.post(
        f"/api/v1/table/{match.token}/result",
        body,
        content_type="application/json",
        headers={"Origin": "https://evil.example", "Idempotency-Key": "k-1"},
    )
    page = client.post(
        f"/mesa/{match.token}/resultado/",
        {"side": "a"},
        headers={"Origin": "https://evil.example"},
    )
    same_site = client.post(
        f"/api/v1/table/{match.token}/result",
        body,
        content_type="application/json",
        headers={"Origin": "http://testserver", "Idempotency-Key": "k-2"},
    )

    assert foreign.status_code == 403
    assert foreign.json()["error"]["code"] == "origin_refused"
    assert page.status_code == 403
    assert same_site.status_code != 403


def test_guessing_table_links_is_stopped_per_address(settings, match):
    settings.TABLE_LINK_MISSES = 5
    guesser, other = Client(REMOTE_ADDR="10.0.0.5"), Client(REMOTE_ADDR="10.0.0.6")
    for n in range(5):
        assert guesser.get(f"/mesa/guess{n:04d}/").status_code == 404

    page = guesser.get("/mesa/guess9999/")
    api = guesser.get("/api/v1/table/guess9999")
    real = guesser.get(f"/mesa/{match.token}/")

    assert page.status_code == api.status_code == real.status_code == 429
    assert api.json()["error"]["code"] == "table_link_guessing"
    assert int(page["Retry-After"]) == settings.TABLE_LINK_WINDOW
    assert other.get(f"/mesa/{match.token}/").status_code == 200


def test_a_process_reads_an_address_count_once_per_memo_period(settings, match, monkeypatch):
    # A round's phones share the venue's address: the throttle must not cost the shared cache
    # a read for every one of their requests, yet it must see another process's counts.
    settings.TABLE_LINK_MISSES = 5
    reads = []
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **k: reads.append(key) or real_get(key))
    phone = Client(REMOTE_ADDR="10.0.0.7")

    for _ in range(10):
        assert phone.get(f"/api/v1/table/{match.token}").status_code == 200
    cache.set("table-link-misses:10.0.0.7", 5)  # another web process counted five misses
    trusted = phone.get(f"/api/v1/table/{match.token}")
    settings.TABLE_LINK_MEMO = 0  # the memo period is over
    refused = phone.get(f"/api/v1/table/{match.token}")

    assert reads == ["table-link-misses:10.0.0.7"] * 2
    assert trusted.status_code == 200
    assert refused.status_code == 429


def test_a_table_link_works_while_the_cache_behind_the_throttle_is_down(settings, match):
    # The soak (benchmarks/soak.py) found every table request answering 500 while Redis, which
    # holds the throttle's counters in production, was down. Nothing listens on port 1.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    client = Client()

    assert client.get(f"/api/v1/table/{match.token}").status_code == 200
    assert client.get("/api/v1/table/guess0000").status_code == 404
    assert client.get(f"/mesa/{match.token}/").status_code == 200


#: what every answer of the site carries (SecurityMiddleware, X-Frame-Options, the CSP)
SECURITY_HEADERS = (
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "X-Frame-Options",
    "Content-Security-Policy",
)


def test_the_answers_of_the_defences_carry_the_security_headers(settings, match):
    """The NUL's 400, the throttle's 429 and the Origin check's 403 were answered by middleware
    below those that add the headers, and went out without them."""
    settings.TABLE_LINK_MISSES = 1
    client = Client(REMOTE_ADDR="10.0.0.8")
    ordinary = client.get("/api/v1/clubs")
    nul = client.get("/api/v1/clubs?q=%00")
    origin = client.post(
        f"/api/v1/table/{match.token}/result",
        {},
        content_type="application/json",
        headers={"Origin": "https://evil.example"},
    )
    client.get("/api/v1/table/guess0000")
    throttled = client.get("/api/v1/table/guess0001")

    assert [r.status_code for r in (ordinary, nul, origin, throttled)] == [200, 400, 403, 429]
    for response in (ordinary, nul, origin, throttled):
        missing = [h for h in SECURITY_HEADERS if not response.has_header(h)]
        assert not missing, f"{response.status_code}: {missing}"


def test_the_throttle_answers_in_the_request_language_not_the_previous_one(settings, match):
    """The throttle answers before the language is chosen: it spoke whatever language the
    thread's previous request had left active."""
    settings.TABLE_LINK_MISSES = 1
    guesser, basque = Client(REMOTE_ADDR="10.0.0.9"), Client(REMOTE_ADDR="10.0.0.10")
    guesser.get("/api/v1/table/guess0000")
    basque.get("/api/v1/clubs", HTTP_ACCEPT_LANGUAGE="eu")  # leaves Basque active
    api = guesser.get("/api/v1/table/guess0001")
    basque.get("/api/v1/clubs", HTTP_ACCEPT_LANGUAGE="eu")
    page = guesser.get("/mesa/guess0002/", HTTP_ACCEPT_LANGUAGE="fr")

    assert api.status_code == page.status_code == 429
    assert api.json()["error"]["message"].startswith("Too many table links")
    assert api["Content-Language"] == "en"
    assert page["Content-Language"] == "fr"
    assert "Trop de liens" in page.content.decode()
