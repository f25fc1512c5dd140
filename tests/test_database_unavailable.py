"""A database that cannot be reached for a moment (PgBouncer or PostgreSQL restarting, a
failover) answers 503 with Retry-After, in the API's error body or as the site's error page,
never a 500: the phones send again and nothing is lost."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_down(monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 6432 failed")

    monkeypatch.setattr("tournaments.selectors.tournaments.tournament_list", refused)
    monkeypatch.setattr("tournaments.web.public.pages.tournament_list", refused)
    monkeypatch.setattr("tournaments.api.tournaments.tournament_list", refused)


def test_the_api_answers_503_with_retry_after(database_down):
    response = Client(raise_request_exception=False).get(
        "/api/v1/tournaments", HTTP_ACCEPT_LANGUAGE="es"
    )

    assert response.status_code == 503 and response["Retry-After"] == "5"
    error = response.json()["error"]
    assert (error["status"], error["code"]) == (503, "database_unavailable")
    assert "vuelve a enviarlo" in error["message"]


def test_a_page_answers_503_with_retry_after(database_down):
    TournamentFactory(status=Tournament.Status.RUNNING)
    response = Client(raise_request_exception=False).get("/torneos/")

    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "base de datos" in response.content.decode()


def test_any_other_failure_is_still_a_500(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("tournaments.api.tournaments.tournament_list", broken)
    response = Client(raise_request_exception=False).get("/api/v1/tournaments")

    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
