"""What an operator relies on: health probes, a request id on every log line and in the tasks
a request queues, and a committed write that never answers an error because the broker is
down."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client

from config import queue, request_id
from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_healthz_answers_without_touching_the_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_ready_when_the_database_answers_and_tasks_run_in_process(settings):
    settings.CELERY_BROKER_URL = ""

    response = Client().get("/readyz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "ok"}


def test_readyz_is_503_and_names_the_broker_when_it_is_unreachable(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    saved = celery_app.conf.broker_url
    celery_app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = Client().get("/readyz")
    finally:
        celery_app.conf.broker_url = saved

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("down: ")


def test_every_response_carries_a_request_id_and_a_sane_one_from_the_proxy_is_kept():
    client = Client()
    made = client.get("/healthz")["X-Request-ID"]
    kept = client.get("/healthz", headers={"X-Request-ID": "proxy-1234abcd"})["X-Request-ID"]
    replaced = client.get("/healthz", headers={"X-Request-ID": "<script>"})["X-Request-ID"]

    assert len(made) == 32 and made != client.get("/healthz")["X-Request-ID"]
    assert kept == "proxy-1234abcd"
    assert replaced != "<script>" and len(replaced) == 32


def test_log_lines_name_the_request_and_the_id_travels_in_a_queued_task_headers():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", (), None)
    token = request_id._current.set("req-0123456789")
    try:
        request_id.RequestIdFilter().filter(record)
        headers: dict = {}
        request_id._send_request_id(headers=headers)
    finally:
        request_id._current.reset(token)

    assert record.request_id == "req-0123456789"
    assert headers == {"request_id": "req-0123456789"}
    task = mock.Mock()
    task.request.request_id = "req-0123456789"
    request_id._restore_request_id(task=task)
    assert request_id.current() == "req-0123456789"
    request_id._forget_request_id(task=task)
    assert request_id.current() == "-"


def test_a_broker_that_is_down_after_the_commit_is_logged_not_raised(
    caplog, django_capture_on_commit_callbacks
):
    task = celery_app.tasks["tournaments.standings_refresh"]
    celery_app.conf.task_always_eager = False
    try:
        with (
            mock.patch.object(
                task, "delay", side_effect=ConnectionRefusedError(111, "refused")
            ) as delay,
            caplog.at_level(logging.WARNING, logger="config.queue"),
            django_capture_on_commit_callbacks(execute=True),
            transaction.atomic(),
        ):
            queue.enqueue_on_commit("tournaments.standings_refresh", phase_id=1)
        # reaching here: the commit's callback did not raise
    finally:
        celery_app.conf.task_always_eager = True

    assert delay.call_count == 1
    assert "periodic reconciliation" in caplog.text


def test_beat_schedules_the_reconciliation(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["reconcile"]

    assert schedule["task"] == "tournaments.reconcile"
    assert "tournaments.reconcile" in celery_app.tasks
