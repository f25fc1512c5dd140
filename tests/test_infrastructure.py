"""The skeleton works end to end: pages, API plumbing, settings per environment, Celery.

Settings are read once per process, so tests of other environments run `python -c` in a
subprocess with the environment they describe.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from tournaments.tasks import db_roundtrip, ping

BASE_DIR = Path(__file__).resolve().parent.parent

# Variables a developer's shell or CI may set that would change what a subprocess sees.
ENVIRONMENT_VARIABLES = (
    "CI",
    "DJANGO_ENV",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "DATABASE_PREPARED",
)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ENVIRONMENT_VARIABLES}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


SETUP = "import django; django.setup(); from django.conf import settings; "


# --- Pages and API --------------------------------------------------------------------------


@pytest.mark.django_db  # the home page lists the published tournaments
def test_home_page_is_in_spanish(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="es">' in html
    assert "Torneos de mus" in html
    assert 'name="viewport"' in html
    assert "/static/css/site.css" in html


def test_static_files_are_served_without_collectstatic(client):
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert b"--accent" in b"".join(response.streaming_content)


def test_language_can_be_switched(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})

    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_health_endpoint(client):
    response = client.get("/api/v1/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_openapi_schema_is_served(client):
    response = client.get(reverse("schema"), {"format": "json"})

    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["info"]["title"] == "Amarrako API"
    assert "/api/v1/health" in schema["paths"]


def test_openapi_schema_is_valid_without_warnings(tmp_path):
    # --fail-on-warn keeps every later endpoint documented (no guessed serializers).
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml")
    )


def test_api_docs_load_no_asset_from_a_cdn(client):
    response = client.get(reverse("swagger-ui"))

    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert any("swagger-ui-bundle.js" in url for url in assets)
    external = [url for url in assets if urlsplit(url).netloc or url.startswith("//")]
    assert external == []
    for cdn in ("jsdelivr", "unpkg", "cdnjs", "googleapis"):
        assert cdn not in html


@pytest.mark.django_db
def test_models_and_migrations_agree():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


# --- Settings per environment ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"DJANGO_ENV": "production"}, "SECRET_KEY, ALLOWED_HOSTS"),
        ({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "mus.example.org"}, "SECRET_KEY"),
        ({"DJANGO_ENV": "production", "SECRET_KEY": "s" * 50}, "ALLOWED_HOSTS"),
        ({"DEBUG": "false"}, "SECRET_KEY, ALLOWED_HOSTS"),
    ],
)
def test_production_refuses_to_start_without_secrets(env, missing):
    result = run_python(SETUP, **env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{missing} must be set" in result.stderr


def test_production_refuses_debug():
    result = run_python(
        SETUP, DJANGO_ENV="production", DEBUG="true", SECRET_KEY="s" * 50, ALLOWED_HOSTS="a.b"
    )

    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_production_starts_with_secrets():
    result = run_python(
        SETUP + "print(settings.DEBUG, settings.ALLOWED_HOSTS)",
        DJANGO_ENV="production",
        SECRET_KEY="s" * 50,
        ALLOWED_HOSTS="mus.example.org,www.mus.example.org",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False ['mus.example.org', 'www.mus.example.org']"


def test_local_defaults_are_sqlite_and_eager_tasks():
    result = run_python(
        SETUP + "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER)"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_ci_defaults_are_postgresql_and_redis():
    # Only reads settings; no connection is opened, so this runs anywhere.
    code = SETUP + (
        "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'], "
        "settings.CELERY_BROKER_URL, settings.CELERY_RESULT_BACKEND, "
        "settings.CELERY_TASK_ALWAYS_EAGER)"
    )
    result = run_python(code, CI="true")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "amarrako",
        "redis://127.0.0.1:6379/0",
        "None",  # no result backend: nothing reads results, and it could fail after a commit
        "False",
    ]


@pytest.mark.parametrize(
    ("env", "options"),
    [
        ({"CI": "true"}, "{'server_side_binding': True, 'prepare_threshold': 5}"),
        ({"CI": "true", "DATABASE_PREPARED": "false"}, "{}"),
        ({}, "{}"),  # SQLite has nothing to prepare
    ],
)
def test_postgresql_plans_a_statement_once_per_connection_unless_told_not_to(env, options):
    result = run_python(SETUP + "print(settings.DATABASES['default'].get('OPTIONS', {}))", **env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == options


def test_without_broker_tasks_run_eagerly_in_the_caller():
    code = SETUP + (
        "from tournaments.tasks import db_roundtrip, ping; "
        "print(settings.CELERY_TASK_ALWAYS_EAGER, ping.delay().get()['pong'], "
        "db_roundtrip.delay('x').get())"
    )
    result = run_python(code, DATABASE_URL="sqlite:///:memory:")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "sqlite"]


def test_tests_run_tasks_eagerly_unless_they_ask_for_a_worker():
    assert ping.delay().get(timeout=1)["pong"] is True


# --- CI services ----------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db
def test_ci_runs_on_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone() == (connection.settings_dict["NAME"],)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_query_a_connection_runs_again_and_again_is_prepared_on_the_server():
    """What keeps PostgreSQL from planning the table link's read on every phone's request: psycopg
    prepares a statement the connection has run five times, whatever its parameters."""
    from clubs.models import Club

    def prepared() -> list[str]:
        # The connection is the whole session's: earlier tests may have prepared other reads of
        # clubs_club, so look for this test's own (slug and town together: nothing else asks).
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [
                row[0]
                for row in cursor.fetchall()
                if '"clubs_club"."slug"' in row[0] and '"clubs_club"."town"' in row[0]
            ]

    for number in range(6):
        assert not Club.objects.filter(slug=f"peña-{number}", town="Ningún sitio").exists()

    assert len(prepared()) == 1
    assert "$1" in prepared()[0] and "$2" in prepared()[0]  # parameters apart from the SQL


@pytest.mark.celery_worker
@pytest.mark.redis
def test_real_worker_answers_ping(celery_worker):
    result = ping.delay()

    assert result.get(timeout=180)["pong"] is True
    # Went through the broker to another process, not run in this one.
    assert celery_worker.process.poll() is None
    assert "amarrako.ping" in celery_worker.log_path.read_text()


@pytest.mark.celery_worker
@pytest.mark.redis
@pytest.mark.postgres
def test_real_worker_uses_the_test_database(celery_worker):
    assert db_roundtrip.delay("x").get(timeout=180) == "postgresql"
    worker_database = urlsplit(celery_worker.database_url).path.lstrip("/")
    assert worker_database == connection.settings_dict["NAME"]
    assert worker_database.startswith("test_")
