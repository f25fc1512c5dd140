"""gunicorn's configuration for Amarrako (``gunicorn -c deploy/gunicorn.conf.py config.wsgi``).

Threaded workers (gthread): a phone on bad Wi-Fi holds a connection for seconds while it sends
a few hundred bytes, and a thread waiting on it costs little; several processes use the cores.
Every value can be changed from the environment without editing this file.

Its log lines (the server's own and the access log) have the shape of the application's
(config/logs.py: UTC time, the request id, a JSON encoder). A worker dies with its master
(``post_fork``), so a crashed master's workers never keep the port from the next one.
"""

import ctypes
import importlib.util
import multiprocessing
import os
import signal
from pathlib import Path

from gunicorn import glogging


def _load_logs():
    """config/logs.py by its path: the master must not import the ``config`` package, which
    loads Django's settings and the Celery app (and would keep them over a reload)."""
    path = Path(__file__).resolve().parent.parent / "config" / "logs.py"
    spec = importlib.util.spec_from_file_location("amarrako_logs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


logs = _load_logs()

# The scaled layout (scripts/prod --scaled, deploy/supervisord-scaled.conf) runs WEB_NODES
# servers on one machine behind the load balancer: server n (WEB_NODE, from 1) listens on
# WEB_NODE_HOST:WEB_NODE_PORT + n - 1 and BIND is the load balancer's.
node = int(os.environ.get("WEB_NODE") or 0)
if node:
    first = int(os.environ.get("WEB_NODE_PORT", "8001"))
    bind = f"{os.environ.get('WEB_NODE_HOST', '127.0.0.1')}:{first + node - 1}"
    proc_name = f"amarrako-web{node}"
else:
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
# Behind a proxy (nginx, caddy) that sets X-Forwarded-For/-Proto: the same proxies the
# application trusts (TRUSTED_PROXIES, config.security.client_address), unless told apart.
forwarded_allow_ips = (
    os.environ.get("FORWARDED_ALLOW_IPS") or os.environ.get("TRUSTED_PROXIES") or "127.0.0.1,::1"
)
# gunicorn's own control socket goes with the stack's other run files, not into $HOME.
control_socket = os.path.join(
    os.environ.get("AMARRAKO_RUN_DIR", "/tmp"), f"gunicorn{node or ''}.ctl"
)
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


# The User-Agent of the load balancer's health checks (deploy/haproxy.cfg.template).
LB_CHECK = "amarrako-lb-check"


class Logger(glogging.Logger):
    """gunicorn's logger with an access log of fields, not of a format string: gunicorn's
    ``access_log_format`` pasted the path into the line as it came (``GET /x%0Ay`` split a
    record over two lines, ``/a%22b%5Cc`` made it invalid JSON); the formatter encodes these
    fields with a JSON encoder (``LOG_FORMAT=json``) or escapes them (text)."""

    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        status = int(status) if str(status).isdigit() else status
        if status == 200 and environ.get("HTTP_USER_AGENT") == LB_CHECK:
            return  # the balancer's health checks, several a second: only a failed one is news
        headers = resp.headers.items() if hasattr(resp.headers, "items") else resp.headers
        request_id = next((v for k, v in headers if k.lower() == "x-request-id"), "-")
        method = environ.get("REQUEST_METHOD", "-")
        path = environ.get("PATH_INFO", "")
        fields = {
            "request_id": request_id,
            "method": method,
            "path": path,
            "status": status,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(request_time.total_seconds() * 1000, 1),
            "remote": environ.get("REMOTE_ADDR", "-"),
        }
        try:
            self.access_log.info("%s %s %s", method, logs.printable(path), status, extra=fields)
        except Exception:
            self.exception("could not log a request")


logger_class = Logger
_formatter = (
    logs.JsonFormatter if os.environ.get("LOG_FORMAT", "text") == "json" else logs.TextFormatter
)
# The server's own lines (start, worker exits, timeouts) and the access log, in the same shape
# as the application's.
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"()": _formatter}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        "gunicorn.error": {
            "handlers": ["console"],
            "level": loglevel.upper(),
            "propagate": False,
        },
        "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}


def post_fork(server, worker):
    """The worker dies with its master (Linux: PR_SET_PDEATHSIG). A SIGKILLed master left its
    workers finishing their connections for up to ``graceful_timeout`` with the listening
    socket still open, and each new master supervisord started failed with "Connection in
    use" (the phones were refused for a minute). A crashed master's requests in flight are
    lost either way; the phones send them again with the same Idempotency-Key."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: the workers leave when they see it
        return
    pr_set_pdeathsig = 1
    prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != server.pid:  # the master died before the signal was armed
        os._exit(1)


def post_worker_init(worker):
    """Before a worker accepts its first phone: what Django builds on a process's first request
    (the URL patterns, the catalogues, the table link's SQL), ~300 ms that a phone waited for
    at every start and every max_requests replacement (config/warmup.py)."""
    from config.warmup import warm

    warm(worker)
