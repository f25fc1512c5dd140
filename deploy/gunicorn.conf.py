"""gunicorn's configuration for Amarrako (``gunicorn -c deploy/gunicorn.conf.py config.wsgi``).

Threaded workers (gthread): a phone on bad Wi-Fi holds a connection for seconds while it sends
a few hundred bytes, and a thread waiting on it costs little; several processes use the cores.
Every value can be changed from the environment without editing this file.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
# The dev server's backlog of 10 dropped phones at the start of a round; the kernel caps this
# at net.core.somaxconn.
backlog = int(os.environ.get("WEB_BACKLOG", "2048"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests: a slow leak never becomes an outage.
max_requests = 5000
max_requests_jitter = 500
# gunicorn answers a request over its own limits itself, with a short HTML page; the app answers
# one over its limits (config/middleware.py: a request line over 4,094 bytes, a header line over
# 8,190, more than 100 headers) with the API's JSON error body. So gunicorn's limits sit above the
# app's: between the two the app answers; past these (a request line over 8,190 bytes, gunicorn's
# most; a header line over 16,380; more than 200 headers) gunicorn still answers itself.
limit_request_line = 8190
limit_request_field_size = 16380
limit_request_fields = 200
# Behind a proxy on the same machine (nginx, caddy) that sets X-Forwarded-For/-Proto.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's own control socket goes with the stack's other run files, not into $HOME.
control_socket = os.path.join(os.environ.get("AMARRAKO_RUN_DIR", "/tmp"), "gunicorn.ctl")
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
access_log_format = (
    '{"time": "%(t)s", "logger": "gunicorn.access", "request_id": "%({x-request-id}o)s", '
    '"method": "%(m)s", "path": "%(U)s", "status": %(s)s, "bytes": "%(B)s", '
    '"duration_ms": %(M)s, "remote": "%(h)s"}'
)


def post_worker_init(worker):
    """Before a worker accepts its first phone: what Django builds on a process's first request
    (the URL patterns, the catalogues, the table link's SQL), ~300 ms that a phone waited for
    at every start and every max_requests replacement (config/warmup.py)."""
    from config.warmup import warm

    warm(worker)


if os.environ.get("LOG_FORMAT", "text") == "json":
    # The server's own lines (start, worker exits, timeouts) in the same JSON as the app's.
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            },
            "access": {"format": "%(message)s"},
        },
        "handlers": {
            "error": {"class": "logging.StreamHandler", "formatter": "json"},
            "access": {"class": "logging.StreamHandler", "formatter": "access"},
        },
        "root": {"handlers": ["error"], "level": "INFO"},
        "loggers": {
            "gunicorn.error": {
                "handlers": ["error"],
                "level": loglevel.upper(),
                "propagate": False,
            },
            "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
    }
