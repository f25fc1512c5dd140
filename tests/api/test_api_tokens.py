"""API tokens for scripts: one POST with the password, then a token on every call (no password
hashing per request); failed logins lock a user name out from one address (django-axes)."""

from __future__ import annotations

import base64
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token"


@pytest.fixture
def user():
    return get_user_model().objects.create_user(username="organizador", password="amarrako")


def _token(client: Client, password: str = "amarrako"):
    return client.post(
        TOKEN, {"username": "organizador", "password": password}, content_type="application/json"
    )


def test_a_token_once_then_every_call_with_it_and_no_password_hashing(user):
    client = Client()
    token = _token(client).json()["token"]

    with mock.patch("django.contrib.auth.hashers.check_password") as check:
        me = Client().get("/api/v1/me", headers={"Authorization": f"Token {token}"})

    assert me.status_code == 200, me.content
    assert me.json()["username"] == "organizador"
    check.assert_not_called()
    assert _token(client).json()["token"] == token  # asking again gives the same one


def test_deleting_the_token_revokes_it(user):
    token = _token(Client()).json()["token"]
    auth = {"Authorization": f"Token {token}"}

    assert Client().delete(TOKEN, headers=auth).status_code == 204
    after = Client().get("/api/v1/me", headers=auth)

    assert after.status_code in (401, 403)
    assert after.json()["error"]["code"] in {"authentication_failed", "not_authenticated"}


def test_http_basic_still_works_over_https_and_is_refused_over_plain_http(user):
    """The docs say HTTPS only; plain HTTP was accepted, the password sent in clear."""
    auth = {"Authorization": f"Basic {base64.b64encode(b'organizador:amarrako').decode()}"}

    https = Client().get("/api/v1/me", headers=auth, secure=True)
    with mock.patch("django.contrib.auth.hashers.check_password") as check:
        plain = Client().get("/api/v1/me", headers=auth)
        write = Client().post(
            "/api/v1/clubs/create", {"name": "X"}, "application/json", headers=auth
        )

    assert https.status_code == 200
    assert plain.status_code == write.status_code == 403
    assert plain.json()["error"]["code"] == "basic_needs_https"
    assert write.json()["error"]["code"] == "basic_needs_https"
    check.assert_not_called()  # refused before the password is checked


def test_deleting_a_token_without_credentials_is_a_403_as_documented():
    response = Client().delete(TOKEN)

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_authenticated"


def test_a_wrong_password_is_a_400_that_says_so(user):
    response = _token(Client(), password="nope")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "credentials_wrong"


def test_repeated_failures_lock_the_user_out_from_that_address_even_with_the_right_password(
    user, settings
):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(3):
        _token(client, password="guess")

    locked = _token(client)

    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "login_locked"
    assert locked["Retry-After"] == "900"
    other_address = Client(REMOTE_ADDR="10.0.0.9")
    assert _token(other_address).status_code == 200
