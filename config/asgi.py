"""ASGI entry point (``uvicorn config.asgi:application``): the live streams under ``/live/``
(tournaments/web/live.py, Server-Sent Events), every other path to Django.

In production the ASGI server serves the streams only: the pages stay on gunicorn (WSGI,
deploy/gunicorn.conf.py), and the proxy in front sends ``/live/`` here (docs/deploy.md). Served
whole (the browser tests), one origin answers both.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from tournaments.web import live  # noqa: E402  (Django is set up above)


async def application(scope, receive, send):
    if scope["type"] == "lifespan" or (
        scope["type"] == "http" and scope["path"].startswith(live.PREFIX)
    ):
        await live.application(scope, receive, send)
        return
    await django_application(scope, receive, send)
