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


# --- Behind the reverse proxy ------------------------------------------------------------------
# The proxy on the same machine connects from 127.0.0.1 and names the client in
# X-Forwarded-For: what it appends is the address the login lock-out and the throttle count.

TOKEN = "/api/v1/auth/token"


def _behind_the_proxy(client_address: str) -> Client:
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=client_address)


def test_behind_the_proxy_wrong_passwords_lock_out_the_guesser_not_the_user(settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="ana", password="secreta-larga-1")
    guesser, ana = _behind_the_proxy("203.0.113.7"), _behind_the_proxy("198.51.100.2")
    for n in range(3):
        wrong = {"username": "ana", "password": f"guess-{n}"}
        guesser.post(TOKEN, wrong, content_type="application/json")

    right = {"username": "ana", "password": "secreta-larga-1"}
    locked = guesser.post(TOKEN, right, content_type="application/json")
    api = ana.post(TOKEN, right, content_type="application/json")
    site = ana.post("/accounts/login/", right)

    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "login_locked"
    assert api.status_code == 200, api.content
    assert site.status_code == 302 and "_auth_user_id" in ana.session


def test_the_client_s_address_is_taken_from_trusted_proxies_only(settings, rf):
    from config.security import client_address

    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.1.0.0/16"]

    def seen(remote: str, forwarded: str | None = None) -> str:
        extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
        return client_address(rf.get("/", REMOTE_ADDR=remote, **extra))

    assert seen("127.0.0.1", "203.0.113.7") == "203.0.113.7"
    # what the client wrote itself stays on the left of what the proxy appended
    assert seen("127.0.0.1", "6.6.6.6, 203.0.113.7") == "203.0.113.7"
    # two proxies of ours (a load balancer on 10.1.x.x, then the local one)
    assert seen("127.0.0.1", "203.0.113.7, 10.1.2.3") == "203.0.113.7"
    # a phone that is not a proxy cannot name another address
    assert seen("192.168.1.20", "127.0.0.1") == "192.168.1.20"
    assert seen("192.168.1.20") == "192.168.1.20"
    assert seen("127.0.0.1") == "127.0.0.1"
    assert seen("127.0.0.1", "") == "127.0.0.1"


def test_behind_the_proxy_a_guesser_is_stopped_and_the_venue_is_not(settings, match):
    settings.TABLE_LINK_MISSES = 3
    guesser, venue = _behind_the_proxy("203.0.113.7"), _behind_the_proxy("198.51.100.2")
    for n in range(3):
        assert guesser.get(f"/api/v1/table/guess{n:04d}").status_code == 404

    assert guesser.get(f"/api/v1/table/{match.token}").status_code == 429
    assert venue.get(f"/api/v1/table/{match.token}").status_code == 200


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
    settings.TABLE_LINK_MISSES = 8
    guesser, other = Client(REMOTE_ADDR="10.0.0.5"), Client(REMOTE_ADDR="10.0.0.6")
    # Every family of table link counts: Mus's pages and API, and Mus francés's.
    for n in range(2):
        assert guesser.get(f"/mesa/guess{n:04d}/").status_code == 404
        assert guesser.get(f"/api/v1/table/guess1{n:03d}").status_code == 404
        assert guesser.get(f"/mesa-frances/guess2{n:03d}/").status_code == 404
        assert guesser.get(f"/api/v1/frances-tables/link/guess3{n:03d}").status_code == 404

    page = guesser.get("/mesa/guess9999/")
    api = guesser.get("/api/v1/table/guess9999")
    frances = guesser.get("/mesa-frances/guess9999/")
    frances_api = guesser.get("/api/v1/frances-tables/link/guess9999")
    real = guesser.get(f"/mesa/{match.token}/")

    assert {page.status_code, api.status_code, real.status_code} == {429}
    assert frances.status_code == frances_api.status_code == 429
    assert api.json()["error"]["code"] == "table_link_guessing"
    assert frances_api.json()["error"]["code"] == "table_link_guessing"
    assert int(page["Retry-After"]) == settings.TABLE_LINK_WINDOW
    assert other.get(f"/mesa/{match.token}/").status_code == 200


def test_one_stale_table_link_scanned_by_a_whole_venue_locks_nobody_out(settings, match):
    # The phones of a bar share its one public address. A QR code left on a table from a
    # tournament since deleted is scanned again and again, by every phone that sits there: it
    # is one link that does not exist, not a guesser trying many.
    settings.TABLE_LINK_MISSES = 5
    venue = Client(REMOTE_ADDR="10.0.0.8")
    for _ in range(40):
        assert venue.get("/mesa/stale-link-of-last-week/").status_code == 404
        assert venue.get("/mesa/stale-link-of-last-week/anotador/").status_code == 404
    for _ in range(4):  # and a few more stale links, each scanned by several phones
        for n in range(3):
            assert venue.get(f"/api/v1/table/stale-{n}").status_code == 404

    assert venue.get(f"/mesa/{match.token}/").status_code == 200
    assert venue.get(f"/api/v1/table/{match.token}").status_code == 200


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
