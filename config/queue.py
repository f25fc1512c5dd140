"""Queue background work once the current transaction commits, by the task's name.

Responsible for: ``enqueue_on_commit``, the one way services queue a Celery task. Services
never import a tasks module (tasks import services: the arrow points one way); they name the
task, and the task is looked up in the Celery app's registry when the transaction commits. A
task never runs against rows the worker cannot see yet, and a rolled-back write queues nothing.

A broker that is down at that moment loses nothing: the write is in the database and the
periodic reconciliation (Celery beat) finds the work it implies.

Must not: decide what to queue (the service does) or run the task in the caller's transaction.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def enqueue_on_commit(task_name: str, *, stamped: bool = False, **kwargs: Any) -> None:
    """Queue the task registered as ``task_name`` with ``kwargs`` after the commit.

    ``stamped`` adds ``queued_at``: the time (ISO 8601, UTC) the task was sent, which is after
    the commit, so a task can tell whether work done since already saw this write.

    The write is committed by then: a broker that is down must not turn it into an error for
    the person who made it. The failure is logged and the periodic reconciliation
    (tournaments.tasks.reconcile, run by Celery beat) does the work when it next runs.
    """

    def send() -> None:
        if stamped:
            kwargs["queued_at"] = datetime.now(UTC).isoformat()
        _send(task_name, kwargs)

    transaction.on_commit(send)


def _send(task_name: str, kwargs: dict[str, Any]) -> None:
    task = current_app.tasks[task_name]
    if task.app.conf.task_always_eager:
        task.delay(**kwargs)  # in-process: an error here is a bug, and tests must see it
        return
    try:
        task.delay(**kwargs)
    except Exception:  # the broker's errors are many (kombu, redis, socket): none may escape
        log.warning(
            "could not queue %s %s; the periodic reconciliation will do it",
            task_name,
            kwargs,
            exc_info=True,
        )
