"""What an operator relies on: health probes, a request id on every log line and in the tasks
a request queues, log lines that are one JSON object each with their time in UTC, and a
committed write that never answers an error because the broker is down."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import logging.config
import runpy
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client

from config import queue, request_id
from config.celery import app as celery_app

BASE_DIR = Path(__file__).resolve().parents[1]

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
    # the live push is off in the tests (tests/live_support.py): ready, and it says so
    assert response.json()["checks"] == {"database": "ok", "broker": "ok", "live": "off"}


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


def _formatter(settings, kind: str) -> logging.Formatter:
    """The formatter the settings' LOGGING builds for ``kind`` (json or text)."""
    configurator = logging.config.DictConfigurator(settings.LOGGING)
    return configurator.configure_formatter(dict(settings.LOGGING["formatters"][kind]))


def test_every_line_s_time_is_utc_in_iso_8601_with_its_offset(settings):
    # The site shows its dates in Madrid time (TIME_ZONE); the logs said Madrid time for the
    # application and Celery, the machine's zone for gunicorn and supervisord, and never which.
    record = logging.LogRecord("tournaments", logging.INFO, __file__, 1, "hello", (), None)
    record.created = dt.datetime(2026, 7, 7, 18, 3, 12, 345000, tzinfo=dt.UTC).timestamp()

    line = json.loads(_formatter(settings, "json").format(record))
    assert line["time"] == "2026-07-07T18:03:12.345+00:00"
    assert line["request_id"] == "-"  # a line of no request says so

    text = _formatter(settings, "text").format(record)
    assert text.startswith("2026-07-07T18:03:12.345+00:00 INFO tournaments [-]: hello")


def test_django_s_warning_of_a_request_names_that_request(settings):
    # django.request logs a 404 after every middleware has returned: the request id was "-".
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(_formatter(settings, "json"))
    handler.addFilter(request_id.RequestIdFilter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        response = Client().get("/no-such-page/x")
    finally:
        logger.removeHandler(handler)

    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert response.status_code == 404
    assert [line["message"] for line in lines] == ["Not Found: /no-such-page/x"]
    assert lines[0]["request_id"] == response["X-Request-ID"]


@pytest.fixture
def gunicorn_logger(monkeypatch, settings):
    """gunicorn's logger as deploy/gunicorn.conf.py configures it under ``make prod``
    (LOG_FORMAT=json), and what its access log writes; the test process's logging is put back
    afterwards."""
    from django.utils.log import configure_logging
    from gunicorn.config import Config

    monkeypatch.setenv("LOG_FORMAT", "json")
    cfg = Config()
    for name, value in runpy.run_path(str(BASE_DIR / "deploy" / "gunicorn.conf.py")).items():
        if name in cfg.settings:
            cfg.set(name, value)
    logger, out = cfg.logger_class(cfg), io.StringIO()
    for handler in logging.getLogger("gunicorn.access").handlers:
        handler.setStream(out)
    try:
        yield logger, out
    finally:
        configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


def test_gunicorn_s_access_log_is_one_valid_json_object_per_request_whatever_the_path(
    gunicorn_logger,
):
    logger, out = gunicorn_logger
    paths = ["/x\ny", '/a"b\\c', "/mesa/ñ\u2028/"]  # GET /x%0Ay, /a%22b%5Cc, /mesa/%C3%B1…
    for path in paths:
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "RAW_URI": path,
                   "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.9"}  # fmt: skip
        response = SimpleNamespace(
            status="404 Not Found", headers=[("X-Request-ID", "req-12345678")], sent=179
        )
        logger.access(response, SimpleNamespace(headers=[]), environ,
                               dt.timedelta(milliseconds=12.5))  # fmt: skip

    lines = out.getvalue().split("\n")[:-1]
    records = [json.loads(line) for line in lines]
    assert [r["path"] for r in records] == paths
    assert {r["logger"] for r in records} == {"gunicorn.access"}
    assert records[0]["request_id"] == "req-12345678"
    assert (records[0]["status"], records[0]["bytes"], records[0]["duration_ms"]) == (
        404,
        179,
        12.5,
    )
    assert records[0]["time"].endswith("+00:00")
