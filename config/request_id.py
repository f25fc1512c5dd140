"""A request id on every log line, from the web request to the Celery tasks it queues.

Responsible for: ``RequestIdMiddleware`` (takes ``X-Request-ID`` from the proxy when it is a
sane token, else makes one, keeps it on the request as ``request.request_id`` and answers with
it), ``RequestIdFilter`` (puts it on every log record as ``request_id``: the request the
record names, as Django's ``django.request`` warnings do after the middleware has returned,
else the one being served), and the Celery signal handlers that carry it in a task's headers
and restore it in the worker while the task runs. Outside a request it is "-". How a line
shows it: ``config.logs``.

Must not: log anything itself or hold any rule of the service.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

from celery import signals

_current: ContextVar[str] = ContextVar("request_id", default="-")
_SANE = re.compile(r"^[A-Za-z0-9._-]{8,80}$")
HEADER = "X-Request-ID"


def current() -> str:
    return _current.get()


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get(HEADER, "")
        request_id = given if _SANE.match(given) else uuid.uuid4().hex
        request.request_id = request_id
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            about = getattr(getattr(record, "request", None), "request_id", None)
            record.request_id = about or _current.get()
        return True


@signals.before_task_publish.connect
def _send_request_id(headers=None, **_kwargs) -> None:
    if headers is not None and _current.get() != "-":
        headers.setdefault("request_id", _current.get())


@signals.task_prerun.connect
def _restore_request_id(task=None, **_kwargs) -> None:
    if task is None:
        return
    # A custom header arrives as an attribute of the request (or in its headers); a task run
    # eagerly inside a request has none and keeps the request's id.
    request_id = getattr(task.request, "request_id", None) or (
        (task.request.headers or {}).get("request_id")
    )
    task.request.amarrako_request_id_token = _current.set(request_id or _current.get())


@signals.task_postrun.connect
def _forget_request_id(task=None, **_kwargs) -> None:
    token = getattr(task.request, "amarrako_request_id_token", None) if task is not None else None
    if token is not None:
        try:
            _current.reset(token)
        except ValueError:  # set in another context (eager task inside a request)
            _current.set("-")
