"""The shape of every log line of the stack (web, worker, beat, gunicorn's own, supervisord's):
one clock and the request id on each.

Responsible for:
- ``JsonFormatter`` (``LOG_FORMAT=json``, what ``make prod`` sets): one JSON object per record,
  serialised by a JSON encoder, never by formatting a string, so a path or a message with a
  newline, a quote or a backslash stays one valid line. Fields: ``time``, ``level``,
  ``logger``, ``request_id``, ``process``, ``message``, then the record's own (gunicorn's access
  log: ``method``, ``path``, ``status``, ``bytes``, ``duration_ms``, ``remote``; a traceback
  as ``exc_info``).
- ``TextFormatter``: the same fields as one line of text, for a terminal.
- ``utc_time``: every ``time`` is UTC, ISO 8601 with its offset
  (``2026-07-07T18:03:12.345+00:00``), whatever ``TIME_ZONE`` the site shows its dates in and
  whatever zone the machine's clock is in (the application's lines were in Madrid time,
  gunicorn's and supervisord's in the machine's, and none said which).
- the request id: the record's (``config.request_id.RequestIdFilter`` puts it there), else
  that of the request the record is about (``django.request``'s warnings are logged after the
  middleware has returned), else ``-`` (a line of no request: a start, a task of beat's).
- ``configure``: Django's ``LOGGING_CONFIG``: applies ``LOGGING`` and sends Python's warnings
  through it (a library's warning was a raw multi-line text among the JSON lines).
- ``json_line``: a line of the same shape for the lines the deploy scripts write themselves
  (supervisord's, ``migrate``'s).

Must not: import Django or anything of the project. gunicorn's master and supervisord's
launcher (``deploy/``) load this file by its path, before and without any application.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import logging.config
import os
import re
import time

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

FIELDS = "%(asctime)s %(levelname)s %(name)s %(request_id)s %(process)d %(message)s"
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def utc_time(created: float) -> str:
    """``created`` (seconds since the epoch) as UTC, ISO 8601 with its offset, to the ms."""
    moment = dt.datetime.fromtimestamp(created, tz=dt.UTC)
    return moment.isoformat(timespec="milliseconds")


def printable(text: str) -> str:
    """``text`` with its control characters escaped (``\\n`` as ``\\x0a``): a path in a line of
    text cannot start another line."""
    return _CONTROL.sub(lambda char: f"\\x{ord(char.group()):02x}", text)


def _request_id(record: logging.LogRecord) -> str:
    given = getattr(record, "request_id", None)
    if given:
        return given
    return getattr(getattr(record, "request", None), "request_id", None) or "-"


class JsonFormatter(_JsonFormatter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(
            FIELDS,
            rename_fields=RENAMED,
            # django.request's records carry the request object: its id is taken, not its repr
            reserved_attrs=[*RESERVED_ATTRS, "request"],
        )

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_time(record.created)

    def add_fields(self, log_data: dict, record: logging.LogRecord, message_dict: dict) -> None:
        super().add_fields(log_data, record, message_dict)
        log_data["request_id"] = _request_id(record)


class TextFormatter(logging.Formatter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_time(record.created)

    def format(self, record: logging.LogRecord) -> str:
        record.request_id = _request_id(record)
        return super().format(record)


def configure(config: dict) -> None:
    """Django's LOGGING_CONFIG: ``LOGGING``, and Python's warnings logged as any record."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)


def json_line(logger: str, message: str, level: str = "INFO", created: float | None = None) -> str:
    """One line of the same shape as ``JsonFormatter``'s, for a script's own lines."""
    return json.dumps(
        {
            "time": utc_time(time.time() if created is None else created),
            "level": level,
            "logger": logger,
            "request_id": "-",
            "process": os.getpid(),
            "message": message,
        }
    )
