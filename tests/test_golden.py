"""What must not change by accident (tests/snapshots.py says what each file under tests/golden/
is): the OpenAPI schema and the URLs as the last commit left them, every URL of commit 90d72ad
still leading to the same page, and a database and an archive written by 90d72ad still
working: the database migrates with every row intact, the archive imports."""

from __future__ import annotations

import difflib
import gzip
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import resolve

from tests import snapshots
from tournaments.archive import REFERENCES, archive_open

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = snapshots.GOLDEN
UPDATE = "If the change is meant, run scripts/golden and commit tests/golden/ with it."

#: URL names that moved to another namespace when their pages and endpoints moved to the floor
#: across events (seasons/): the ratings out of the clubs' and the tournaments' namespaces, the
#: interpeñas out of the circuits'. Their paths did not change.
NAME_MOVES = (
    (r"^api:clubs:(club-ranking|club-ranking-settings|player-ratings|player-head-to-head)$",
     r"api:ratings:\1"),
    (r"^web:(club-ranking|player-ratings|player-head-to-head)$", r"ratings:\1"),
    (r"^api:circuits:(interpena-.*)$", r"api:interpenas:\1"),
    (r"^circuits:(interpena.*)$", r"interpenas:\1"),
)  # fmt: skip

#: tables whose rows moved to another app's table, with the moved models' content types
TABLE_MOVES = {
    **{f"clubs_{m}": f"ratings_{m}" for m in
       ("ratedmatch", "ratingentry", "rankingrow", "rankingsettings", "ratingslock")},
    **{f"circuits_{m}": f"interpenas_{m}" for m in ("interpena", "interpenaboard")},
}  # fmt: skip


def _diff(before: str, after: str, what: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), what, "now", n=2
    )
    return "".join(list(lines)[:80])


def test_the_openapi_schema_is_the_snapshot():
    served = snapshots.openapi_schema().decode()
    kept = (GOLDEN / "openapi.yaml").read_text()
    assert served == kept, f"The API changed:\n{_diff(kept, served, 'openapi.yaml')}\n{UPDATE}"


def test_the_urls_are_the_snapshot():
    now = snapshots.url_table()
    kept = (GOLDEN / "urls.txt").read_text()
    assert now == kept, f"The URLs changed:\n{_diff(kept, now, 'urls.txt')}\n{UPDATE}"


def _example(route: str) -> str:
    """A path the route matches (a value for each of its parameters)."""
    values = {"int": "7", "slug": "a-b", "str": "x1", "path": "p1", "uuid": "0" * 32}
    return "/" + re.sub(r"<(\w+):\w+>", lambda m: values[m.group(1)], route)


def _plain(route: str) -> str:
    return re.sub(r"<\w+:(\w+)>", r"<\1>", route)


def _moved(name: str) -> str:
    for pattern, replacement in NAME_MOVES:
        if re.match(pattern, name):
            return re.sub(pattern, replacement, name)
    return name


def test_every_url_of_90d72ad_still_leads_to_the_same_page():
    # A table's QR code printed before an upgrade, a bookmark, a script's URL: each path of then
    # is matched by the same pattern now (none shadowed by a pattern that came before it).
    lost = []
    for line in (GOLDEN / "urls-90d72ad.txt").read_text().splitlines():
        route, name = line.split("\t")
        if route.startswith("^") or "(?P<" in route:
            continue  # the admin's regular expressions: no example to build
        found = resolve(_example(route))
        unnamed = name.endswith(":") or not name  # compared by its route only
        # the same route, its parameters read by a converter that may have learnt more forms
        # (a board's number, and now its letter)
        if _plain(found.route) != _plain(route) or (
            not unnamed and found.view_name != _moved(name)
        ):
            lost.append(f"{route} ({name}) -> {found.route} ({found.view_name})")
    assert lost == []


# --- A database of 90d72ad ---------------------------------------------------------------------


def _connect(dbname: str) -> psycopg.Connection:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=dbname,
        autocommit=True,
    )


def _rows(dbname: str) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table's columns and rows (values as text: dates, JSON and decimals compare alike)."""
    with _connect(dbname) as conn:
        tables = [
            t
            for (t,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        out = {}
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            columns = [c.name for c in cursor.description]
            rows = [tuple("" if v is None else str(v) for v in row) for row in cursor]
            out[table] = (columns, rows)
        return out


def _only(table: tuple[list[str], list[tuple]], columns: list[str]) -> list[tuple]:
    """The rows of ``table`` reduced to ``columns`` (a later migration may add a column)."""
    names, rows = table
    at = [names.index(c) for c in columns]
    return sorted(tuple(row[i] for i in at) for row in rows)


def _columns(dbname: str) -> dict[str, list[tuple]]:
    with _connect(dbname) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable FROM "
            "information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2"
        ).fetchall()
    out: dict[str, list[tuple]] = {}
    for table, *column in rows:
        out.setdefault(table, []).append(tuple(column))
    return out


def _migrate(dbname: str) -> None:
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{dbname}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_ENV": "local"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def databases_of_then_and_now():
    """Two empty databases of their own: one gets the dump of 90d72ad, one a fresh migrate."""
    names = (f"amarrako_then_{os.getpid()}", f"amarrako_now_{os.getpid()}")
    with _connect("postgres") as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
    try:
        yield names
    finally:
        with _connect("postgres") as conn:
            for name in names:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.postgres
def test_a_database_of_90d72ad_migrates_with_every_row_intact(databases_of_then_and_now):
    then, now = databases_of_then_and_now
    dump = gzip.decompress((GOLDEN / "database-90d72ad.sql.gz").read_bytes())
    db = settings.DATABASES["default"]
    subprocess.run(
        ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", db["HOST"] or "127.0.0.1",
         "-p", str(db["PORT"] or 5432), "-U", db["USER"], "-d", then],
        input=dump, check=True, capture_output=True,
    )  # fmt: skip
    before = _rows(then)
    assert before["clubs_ratedmatch"][1] and before["circuits_interpenaboard"][1]

    _migrate(then)

    after = _rows(then)
    for table, (columns, rows) in before.items():
        if table == "django_migrations":
            continue
        if table == "django_content_type":
            # the moved models keep their content types (and so their permissions), relabelled
            def label(row: tuple) -> tuple:
                pk, app, model = row
                return (pk, TABLE_MOVES.get(f"{app}_{model}", app).split("_")[0], model)

            kept = set(_only(after[table], columns))
            assert {label(row) for row in rows} <= kept, "a content type was lost"
            continue
        moved = TABLE_MOVES.get(table, table)
        assert moved in after, f"{table} is gone"
        if table == "auth_permission":  # a new model brings its permissions; none is lost
            assert set(rows) <= set(_only(after[table], columns)), "a permission was lost"
            continue
        assert _only(after[moved], columns) == sorted(rows), f"rows of {table} changed"
    for table in TABLE_MOVES:
        assert table not in after, f"{table} is still there"

    # and the migrated database has the shape a new one gets
    _migrate(now)
    assert _columns(then) == _columns(now)


@pytest.mark.django_db
def test_an_archive_of_90d72ad_imports_whole(tmp_path):
    archive = json.loads(
        gzip.decompress((GOLDEN / "archive-pena-txoko-90d72ad.json.gz").read_bytes())
    )
    path = tmp_path / "pena.json"
    path.write_text(json.dumps(archive))
    get_user_model().objects.create_user("organizador")

    quiet = io.StringIO()
    call_command("archive_import", str(path), "--user", "organizador", stdout=quiet)
    again_path = tmp_path / "again.json"
    call_command("archive_export", "--club", "pena-txoko", "-o", str(again_path), stderr=quiet)
    again = json.loads(again_path.read_text())
    for tournament in again["tournaments"]:  # the import says it was imported
        tournament["audit"] = [
            a for a in tournament["audit"] if a["action"] != "tournament_imported"
        ]

    # Ids are the database's own, so the archives are compared without them: the peña's own
    # records come back the same — as the current version reads the older one, with the values
    # each later version added (tournaments.archive.ADDED_IN); the sections that span peñas
    # hold as many records.
    archive = archive_open(archive)
    references = {field for fields in REFERENCES.values() for field in fields}

    def plain(value):
        if isinstance(value, dict):
            return {
                k: plain(v)
                for k, v in value.items()
                if k not in ("id", "exported_at", "checksum") and k not in references
            }
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    for section in ("club", "presets", "players", "pairs", "tournaments", "leagues"):
        assert plain(again[section]) == plain(archive[section]), section
    for section in ("circuits", "interpenas", "team_leagues"):
        assert len(again[section]) == len(archive[section]), section


def test_the_schema_is_generated_without_a_warning(tmp_path):
    # A new field named like another one's ("kind") gets a hashed enum name (Kind664Enum) and
    # renames the older one's component under the clients' feet: name it in
    # SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"] instead.
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
