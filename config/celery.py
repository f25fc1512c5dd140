"""The Celery app "amarrako": configured from Django settings prefixed CELERY_, tasks found in
each installed app's tasks.py.

Start a worker with `celery -A config worker`. Without CELERY_BROKER_URL no worker is needed:
settings make every task run eagerly in the calling process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("amarrako")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
