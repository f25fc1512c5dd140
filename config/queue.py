"""Queue background work once the current transaction commits, by the task's name.

Responsible for: ``enqueue_on_commit``, the one way services queue a Celery task. Services
never import a tasks module (tasks import services: the arrow points one way); they name the
task, and the task is looked up in the Celery app's registry when the transaction commits. A
task never runs against rows the worker cannot see yet, and a rolled-back write queues nothing.

Must not: decide what to queue (the service does) or run the task in the caller's transaction.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.db import transaction


def enqueue_on_commit(task_name: str, **kwargs: Any) -> None:
    """Queue the task registered as ``task_name`` with ``kwargs`` after the commit."""
    transaction.on_commit(lambda: current_app.tasks[task_name].delay(**kwargs))
