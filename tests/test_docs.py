"""The repository explains itself, truthfully: what the README and the docs name exists.

A newcomer has only the clone. Every file a document links to or names by its path must be in
it, every `make` target it tells them to run must be in the Makefile, every setting read from
the environment must be in the README's table, and no document may send them to a file that is
not in the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: names of files outside the repository that it once cited (spelled in parts, so that this
#: file does not cite them itself)
STYLE_GUIDE = "STYLE" + ".md"
OUTSIDE_RULES = "shared" + "/rules"
DOCS = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
#: paths that exist once something has run, not in a fresh clone
MADE_BY_A_RUN = ("test-results/", ".venv", "staticfiles", "db.sqlite3")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE = re.compile(r"`([^`\s]+)`")
PATH = re.compile(r"^\.?[\w.-]+(/[\w.-]+)*/?$")
TOP = {p.name for p in ROOT.iterdir()}


def _name(doc: Path) -> str:
    return str(doc.relative_to(ROOT))


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_link_to_a_file_of_the_repository_exists(doc):
    missing = [
        target
        for target in LINK.findall(doc.read_text(encoding="utf-8"))
        if "://" not in target and not (doc.parent / target).exists()
    ]
    assert not missing, f"{_name(doc)} links to missing files: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_path_a_document_names_exists(doc):
    """A `path/like/this` whose first part is a top-level entry of the repository."""
    missing = []
    for text in CODE.findall(doc.read_text(encoding="utf-8")):
        if not PATH.match(text) or "/" not in text.rstrip("/") and "." not in text:
            continue
        if text.split("/")[0] not in TOP or text.startswith(MADE_BY_A_RUN):
            continue
        if not (ROOT / text).exists():
            missing.append(text)
    assert not missing, f"{_name(doc)} names paths that are not in the repository: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_no_document_cites_a_file_outside_the_repository(doc):
    text = doc.read_text(encoding="utf-8")
    assert STYLE_GUIDE not in text
    assert OUTSIDE_RULES not in text


def test_every_make_target_the_docs_name_is_in_the_makefile():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.MULTILINE))
    named = {
        target
        for doc in DOCS
        for target in re.findall(r"`make (\w+)", doc.read_text(encoding="utf-8"))
    }
    assert named, "the docs name no make target at all?"
    assert named <= targets, f"not in the Makefile: {sorted(named - targets)}"


def test_every_setting_read_from_the_environment_is_in_the_readme():
    settings = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r"(?:os\.environ\.get|env_bool|env_list)\(\s*\"(\w+)\"", settings))
    assert {"SECRET_KEY", "SECURE_COOKIES", "DEFAULT_FROM_EMAIL"} <= read
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `(\w+)` \|", readme, re.MULTILINE))
    assert read <= table, f"not in the README's configuration table: {sorted(read - table)}"


def test_settings_cite_no_file_outside_the_repository():
    assert STYLE_GUIDE not in (ROOT / "config" / "settings.py").read_text(encoding="utf-8")


def test_architecture_lists_every_celery_task():
    """A task a newcomer cannot find is one nobody repairs: docs/architecture.md's "Tasks"
    table names every task the apps register."""
    from config import celery_app

    registered = {name for name in celery_app.tasks if not name.startswith("celery.")}
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert registered, "no task registered?"
    missing = sorted(name for name in registered if f"`{name}`" not in text)
    assert not missing, f"not in docs/architecture.md's Tasks table: {missing}"


def test_make_help_lists_every_target():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = set(re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE).group(1).split())
    helped = set(re.findall(r'@echo "make ([\w-]+)', makefile))
    assert phony - {"help"} <= helped, f"not in `make help`: {sorted(phony - {'help'} - helped)}"


def test_every_dependency_of_the_project_is_in_the_readme_with_why():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["dev"]
    names = {re.split(r"[\[~=<>!; ]", d, maxsplit=1)[0].lower() for d in wanted}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Dependencies and why each is there") :]
    rows = {
        name.strip().lower()
        for cell in re.findall(r"^\| ([^|]+) \|", table, re.MULTILINE)
        for name in re.sub(r"\(.*?\)", "", cell).split(",")
    }
    assert names <= rows, f"not in the README's dependencies table: {sorted(names - rows)}"


#: the lines a merge leaves where both sides changed the same place (spelled in parts, so that
#: this file does not hold them itself)
CONFLICT_MARKER = re.compile("^(" + "<" * 7 + " |" + ">" * 7 + " |" + "=" * 7 + "$)", re.M)
TEXT_SUFFIXES = {".py", ".md", ".html", ".po", ".txt", ".toml", ".yaml", ".css", ".js", ".cfg"}


def test_no_file_holds_a_merge_s_conflict_markers():
    """A merge resolved by hand must not leave both sides in a file: a document would show
    them to a newcomer, and code would not run (a template or a catalog might, wrongly)."""
    skip = {".git", ".venv", "node_modules", "staticfiles", "__pycache__", ".hypothesis"}
    found = []
    for path in ROOT.rglob("*"):
        if path.suffix not in TEXT_SUFFIXES or skip & set(path.relative_to(ROOT).parts):
            continue
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if CONFLICT_MARKER.search(text):
            found.append(_name(path))
    assert not found, f"conflict markers left by a merge in: {found}"
