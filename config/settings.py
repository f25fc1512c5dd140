"""Settings for every machine, read from the environment.

Safe local defaults (SQLite, tasks run eagerly, a throwaway SECRET_KEY) so that a fresh clone
runs with no configuration. Anything that must not have a default in production (SECRET_KEY,
ALLOWED_HOSTS) has none there: with DEBUG off the process refuses to start without them.

CI=true switches the defaults to the services CI provides (PostgreSQL and Redis on localhost),
so a test run under CI cannot quietly fall back to SQLite or eager tasks.
"""

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false)")


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


# --- Environment ----------------------------------------------------------------------------

DJANGO_ENV = os.environ.get("DJANGO_ENV", "local").strip().lower()
if DJANGO_ENV not in {"local", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV={DJANGO_ENV!r}: use 'local' or 'production'")
PRODUCTION = DJANGO_ENV == "production"
CI = env_bool("CI")

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production")

# Any deployment without DEBUG is treated as public: no default secret, no default hosts.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if not DEBUG:
    missing = [name for name in ("SECRET_KEY", "ALLOWED_HOSTS") if not os.environ.get(name)]
    if missing:
        raise ImproperlyConfigured(
            f"{', '.join(missing)} must be set in the environment when DEBUG is off "
            f"(DJANGO_ENV={DJANGO_ENV})"
        )
else:
    SECRET_KEY = SECRET_KEY or "django-insecure-local-only-never-use-in-production"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]"]

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --- Applications ---------------------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    # The floors, from the ground up; each imports only those above it in this list.
    "clubs",  # peñas, members, players, pairs, presets, webhooks
    "tournaments",  # one event
    # across events (seasons/): each package an app of its own
    "seasons.ratings",
    "seasons.leagues",  # before circuits and interpeñas: the archive's sections keep their order
    "seasons.circuits",
    "seasons.interpenas",
    "seasons.championships",  # after the other sections of the archive: it comes last
    "seasons",  # the demo, which loads every floor
]

MIDDLEWARE = [
    "config.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A middleware adds its headers on the way out, to the answers of those below it: the
    # security headers' (SecurityMiddleware above, X-Frame-Options, the CSP) come before every
    # one that refuses a request by itself (the NUL, the limits, the throttle, the Origin
    # check), so that those answers carry them too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.RejectNulMiddleware",
    "config.middleware.UnreadableRequestMiddleware",
    "config.security.TableLinkThrottleMiddleware",
    # HTML and JSON compressed (whitenoise serves static files precompressed); Django masks the
    # CSRF token per response, which is what keeps compression of pages safe.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.ApiLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.security.OriginCheckMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# django-axes locks a user name from one address out after repeated failed logins (the site,
# HTTP Basic and the API's token endpoint alike); a correct login resets the count. Always the
# pair user and address, never the user alone: else anybody's ten wrong passwords would lock the
# real user out everywhere. The address is the client's, through the trusted proxies
# (TRUSTED_PROXIES, config.security.client_address): behind the reverse proxy every request
# comes from 127.0.0.1, and one address would again be everybody.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = 0.25  # hours: the lock lifts by itself after 15 minutes
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.security.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.views.locked_out"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "web:organizer-home"
LOGOUT_REDIRECT_URL = "home"

# --- Database -------------------------------------------------------------------------------

# No ATOMIC_REQUESTS: a view is not a transaction. Each service opens its own
# transaction.atomic(), locks the rows it changes and queues its tasks for after the commit
# (docs/architecture.md, "Services").
DATABASE_URL = os.environ.get("DATABASE_URL") or (
    "postgres://postgres@127.0.0.1:5432/amarrako" if CI else f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
)
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
# On PostgreSQL, psycopg sends the parameters apart from the SQL (server-side binding) and
# prepares a statement once a connection has run it five times (psycopg's default): PostgreSQL
# then plans it once per connection instead of on every run. The table link's read (one query
# joining the match, round, phase, tournament and pairs) cost the server ~1.9 ms of planning
# per phone request, three times what running it costs (benchmarks/results_path.py, "DB CPU").
#
# DATABASE_POOLED=true: the database is reached through a pooler in transaction mode
# (PgBouncer, `scripts/prod --scaled`), where one connection's consecutive transactions run on
# different server connections. A statement prepared on one is missing on the next ("prepared
# statement "_pg3_0" does not exist", or "already exists" where another client prepared its
# own there): PgBouncer before 1.21 (Debian 12 has 1.18) cannot keep them, so DATABASE_PREPARED
# is off by default behind it, and the parameters are bound by psycopg on the client (Django's
# default), which any pooler passes. Django's server-side cursors (``.iterator()``) are off
# too: one declared outside a transaction belongs to a session (WITH HOLD).
# tests/test_scaled_stack.py runs both settings through PgBouncer.
DATABASE_POOLED = env_bool("DATABASE_POOLED")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if env_bool("DATABASE_PREPARED", not DATABASE_POOLED):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True,
            prepare_threshold=5,
        )
    if DATABASE_POOLED:
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation -------------------------------------------------------------------

LANGUAGE_CODE = "es"
LANGUAGES = [("es", "Español"), ("en", "English"), ("eu", "Euskara"), ("fr", "Français")]
LOCALE_PATHS = [
    BASE_DIR / "locale",  # first: makemessages writes the project's catalogs here
    # Basque for Django REST framework's own messages, which DRF ships without (the API asked
    # for eu answered them in Spanish, Django's fallback to LANGUAGE_CODE)
    BASE_DIR / "locale" / "rest_framework",
]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Madrid"

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The manifest needs `collectstatic`; only deployments run it.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Decided here, not by whitenoise at first request: pytest-django turns DEBUG off after settings
# load, and tests should serve static files the way `make run` does (from the app folders).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security (deployments) -----------------------------------------------------------------

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # Served over HTTPS (secure cookies): browsers are told to never use plain HTTP again.
    SECURE_HSTS_SECONDS = (
        int(os.environ.get("HSTS_SECONDS", "31536000")) if CSRF_COOKIE_SECURE else 0
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = False

# Cookies are not sent on another site's requests (Lax: a link followed from elsewhere keeps
# the session, a form posted from elsewhere does not).
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy: scripts and styles only from our own files, no inline script; style
# attributes stay allowed (the bracket places its boxes with them).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Webhooks may not reach the server's own network (loopback, private, link-local addresses)
# unless this is on: a venue whose receiver is on its own LAN (and the tests' local servers).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE")

# The reverse proxies in front of gunicorn (addresses or networks): from them, X-Forwarded-For
# names the client (config.security.client_address), whom the login lock-out and the table-link
# throttle count. gunicorn trusts X-Forwarded-Proto from the same (deploy/gunicorn.conf.py).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES") or ["127.0.0.1", "::1"]
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is neither an address nor a network (10.0.0.0/8)"
        ) from None
# Different table links that do not exist, tried by one address, before it waits
# (config.security; a link asked for again does not count again).
TABLE_LINK_MISSES = int(os.environ.get("TABLE_LINK_MISSES", "30"))
TABLE_LINK_WINDOW = int(os.environ.get("TABLE_LINK_WINDOW", "600"))
# Seconds a process trusts what it last read of an address's count (config/security.py).
TABLE_LINK_MEMO = float(os.environ.get("TABLE_LINK_MEMO", "2"))

# The cache holds counters every process must share (failed table links): Redis in production
# (CACHE_URL, e.g. redis://127.0.0.1:6379/1), this process's memory otherwise.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHES = {
    # Django's Redis backend, keeping its client (config.cache: the throttle reads on every
    # table request)
    "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# --- E-mail ---------------------------------------------------------------------------------

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Amarrako <noreply@localhost>")
# Where the site is served, for the links in e-mails (a table's phone page, the round's
# pairings, the organizer's round): the first allowed host over HTTPS unless told otherwise.
_first_host = next((h for h in ALLOWED_HOSTS if h and not h.startswith((".", "*"))), "127.0.0.1")
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/") or (
    "http://127.0.0.1:8000" if DEBUG else f"https://{_first_host}"
)

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # JSON only, through the depth, size and NUL checks of config.parsers: a form or multipart
    # body is 415. DRF reads a field a form leaves out as an unticked box (a boolean false), so a
    # partial update sent as a form made a public tournament private; archive/import alone also
    # takes a multipart file (its view names its parsers).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    # DRF's test client sends JSON unless told otherwise (its own default is multipart)
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # Scripts: a token (config.api TokenApi); Basic still works, over HTTPS only, but
        # hashes the password on every request.
        "rest_framework.authentication.TokenAuthentication",
        "config.security.HttpsBasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Amarrako API",
    "DESCRIPTION": "Torneos de mus: peñas, parejas, rondas, mesas y resultados.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # Swagger UI and ReDoc assets come from drf-spectacular-sidecar, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # An entry's status is shared by pairs', trios' and players alone's records: one name.
    "ENUM_NAME_OVERRIDES": {
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        # a match's kind and a tournament's entrant kind both go by "kind"
        "KindEnum": "tournaments.models.Match.Kind",
        "EntrantKindEnum": "tournaments.models.Tournament.EntrantKind",
        # a league and a circuit each have their own tiebreaks: two enums, two names
        "LeagueTiebreakEnum": "seasons.leagues.table.TIEBREAKS",
        "CircuitTiebreakEnum": "seasons.circuits.ranking.TIEBREAKS",
        # a tournament's status, read by its own API and by a championship's
        "TournamentOutputStatusEnum": "tournaments.models.Tournament.Status",
        # a championship's stage has a kind and a quota of its own
        "ChampionshipStageKindEnum": "seasons.championships.models.Stage.Kind",
        "ChampionshipQuotaRuleEnum": "seasons.championships.models.Stage.Quota",
    },
    # Every operation documents its error responses and the one error body (config/openapi.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_error_responses",
    ],
}

# --- Celery ---------------------------------------------------------------------------------

# No broker means tasks run in-process at .delay(); with a broker a worker must be running.
CELERY_BROKER_URL = os.environ.get(
    "CELERY_BROKER_URL", "redis://127.0.0.1:6379/0" if CI else ""
).strip()
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Nothing reads a task's return value (the infrastructure probes, in tests, set a backend): a
# result backend would only be one more thing that fails after a write was committed.
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = 3600
# A task is acknowledged after it ran, so a killed worker's task runs again (every task is
# idempotent); one message at a time per process, so a slow task holds back no other.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker waits for a lost broker for ever instead of exiting; the web does not wait long
# to queue (config.queue logs a failure and the periodic reconciliation does the work).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 2}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery beat: repairs what a lost task left undone (standings, brackets, round completion,
# ratings, circuits' rankings).
RECONCILE_SECONDS = int(os.environ.get("RECONCILE_SECONDS", "60"))
CELERY_BEAT_SCHEDULE = {
    "reconcile": {"task": "tournaments.reconcile", "schedule": float(RECONCILE_SECONDS)},
    # webhook deliveries whose task was lost (the broker was down) are queued again
    "webhooks_sweep": {"task": "clubs.webhooks_sweep", "schedule": float(RECONCILE_SECONDS)},
    # each floor above tournaments repairs its own follow-ups (they are queued by name)
    "ratings": {"task": "ratings.reconcile", "schedule": float(RECONCILE_SECONDS)},
    "circuits": {"task": "circuits.reconcile", "schedule": float(RECONCILE_SECONDS)},
    "championships": {"task": "championships.reconcile", "schedule": float(RECONCILE_SECONDS)},
}

# --- Benchmarks -----------------------------------------------------------------------------

# benchmarks/load.py compares the API with a bare view that inserts one row (config/benchmark.py),
# mounted at /bench/insert only when this is on.
BENCHMARK_VIEWS = env_bool("BENCHMARK_VIEWS")

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
# "json" (one object per line, what scripts/prod sets) or "text" (for a terminal); either way
# every line's time is UTC, ISO 8601 with its offset, and names its request (config/logs.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use 'json' or 'text'")
# LOGGING, and Python's warnings through it (a library's warning is a record like any other).
LOGGING_CONFIG = "config.logs.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.request_id.RequestIdFilter"}},
    "formatters": {
        "text": {"()": "config.logs.TextFormatter"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "celery": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}

# --- Live push (Server-Sent Events) ----------------------------------------------------------

# Where the pages open their stream (static/js/live.js): the paths under /live/ that the ASGI
# server serves (config/asgi.py, tournaments/web/live.py). Empty turns the push off: the pages
# keep their reload and polling. An absolute URL (http://192.168.1.10:8100/live/) for a stack
# with no proxy in front, where the ASGI server has a port of its own (docs/deploy.md).
LIVE_URL = os.environ.get("LIVE_URL", "/live/").strip()
# The Redis of the push's pub/sub and replay buffers (config/live.py): the broker's by default.
# Without it the push is off.
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL", "").strip() or CELERY_BROKER_URL
# Events each tournament keeps for a screen that reconnects (Last-Event-ID); one further
# behind reloads what it shows.
LIVE_REPLAY = int(os.environ.get("LIVE_REPLAY", "500"))
# A comment line every LIVE_HEARTBEAT seconds keeps proxies from closing an idle stream.
LIVE_HEARTBEAT = float(os.environ.get("LIVE_HEARTBEAT", "15"))
# A stream ends after LIVE_MAX_SECONDS (plus up to 10 %); the browser reconnects at once with
# its Last-Event-ID, to whichever node the balancer chooses: nodes stay evenly loaded.
LIVE_MAX_SECONDS = float(os.environ.get("LIVE_MAX_SECONDS", "1800"))
# Streams one ASGI process holds at most; past it, 503 (the page polls).
LIVE_MAX_STREAMS = int(os.environ.get("LIVE_MAX_STREAMS", "5000"))
if LIVE_URL.startswith(("http://", "https://")):
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"].append(
        urlsplit(LIVE_URL)._replace(path="", query="", fragment="").geturl()
    )
