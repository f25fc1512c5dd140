"""The bare view benchmarks/load.py measures the API against: mounted only when BENCHMARK_VIEWS
is on, and then it inserts one row per POST."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.sessions.models import Session
from django.urls import clear_url_caches

import config.urls

pytestmark = pytest.mark.django_db


@pytest.fixture
def mounted(settings):
    settings.BENCHMARK_VIEWS = True
    importlib.reload(config.urls)
    clear_url_caches()
    yield
    settings.BENCHMARK_VIEWS = False
    importlib.reload(config.urls)
    clear_url_caches()


def test_off_by_default(client):
    assert client.post("/bench/insert", {}, content_type="application/json").status_code == 404


def test_when_on_each_post_inserts_one_row(client, mounted):
    before = Session.objects.count()
    answer = client.post("/bench/insert", {"n": 1}, content_type="application/json")
    assert answer.status_code == 201 and answer.json()["id"]
    assert Session.objects.count() == before + 1
    assert client.post("/bench/insert", "{", content_type="application/json").status_code == 400
