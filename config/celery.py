"""The Celery app "amarrako": configured from Django settings prefixed CELERY_, tasks found in
each installed app's tasks.py.

Start a worker with `celery -A config worker`. Without CELERY_BROKER_URL no worker is needed:
settings make every task run eagerly in the calling process.
"""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config import request_id  # noqa: E402,F401  (its signals carry the request id into tasks)

app = Celery("amarrako")
app.config_from_object("django.conf:settings", namespace="CELERY")
if not app.conf.broker_url:
    # No broker: tasks run eagerly (settings), but Celery still builds a producer for each
    # eager call; an in-memory transport spares it looking for a Redis on localhost.
    app.conf.broker_url = "memory://localhost/"
app.autodiscover_tasks()


@signals.setup_logging.connect
def _django_logging(**_kwargs) -> None:
    """The worker and beat log through the project's LOGGING (same handlers and format as the
    web), instead of Celery's own set-up, which left the ``celery`` logger without a handler."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
