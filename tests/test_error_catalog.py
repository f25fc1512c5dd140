"""The errors catalog: every error a person can meet has one code, one text and all its values.

Reads the sources of scoring/, clubs/, tournaments/, seasons/ and config/ (so a new raise is
checked the day it is written) and finds every call of an error class built on
``scoring.messages.MessageError``. Each call must give:

- its text as a literal (a ``"..."`` message id, or a ``("...", "...")`` singular/plural pair
  chosen by the param ``count``), so that the extraction tools and this test can read it;
- its ``code=`` as a literal; one code names one text everywhere in the project, so that a
  program (or a page) that knows the code knows the message;
- a keyword param for every ``{blank}`` of its text (never a value read back from a message);
- a translation in each language of the ``errors`` catalogs (``scoring/locale`` for the engine,
  ``locale`` for the rest): Spanish, written by hand next to the raise, and Basque and French
  (scripts/messages merges their message ids from the Spanish), each keeping exactly the same
  blanks.

``add_context`` texts (the "Hand {hand}: {error}" kind) and ``Term("...")`` words are checked the
same way. The compiled ``.mo`` files must match their ``.po`` sources.
"""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from scoring.messages import MessageError, placeholders

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "clubs", "tournaments", "seasons", "config")
#: the languages the errors are translated into (the message ids are English)
LANGUAGES = {"es": "Spanish", "eu": "Basque", "fr": "French"}
CATALOGS = {
    f"{name}-{language}": ROOT / where / language / "LC_MESSAGES" / "errors.po"
    for name, where in (("scoring", "scoring/locale"), ("project", "locale"))
    for language in LANGUAGES
}


def _sources() -> list[Path]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            files.append(path)
    return files


def _error_classes() -> set[str]:
    """Names of every MessageError subclass the project defines (imported to be found)."""
    import importlib

    for module in ("scoring", "scoring.standings", "config.errors", "tournaments.draw"):
        importlib.import_module(module)
    names: set[str] = set()
    todo = [MessageError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


ERROR_CLASSES = _error_classes()


#: modules whose exception classes share a name with ours (DRF's NotFound)
FOREIGN_MODULES = {"drf", "exceptions", "serializers"}


@dataclass(frozen=True)
class Raise:
    where: str
    kind: str  # "error", "context" or "term"
    text: str | tuple[str, str] | None
    code: str | None
    params: frozenset[str]
    problems: tuple[str, ...]


def _callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _literal_text(node: ast.expr | None) -> str | tuple[str, str] | None:
    if isinstance(node, ast.Call) and _callee(node) == "gettext_noop" and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (
        isinstance(node, ast.Tuple)
        and len(node.elts) == 2
        and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    ):
        return (node.elts[0].value, node.elts[1].value)
    return None


def _blanks(text: str | tuple[str, str]) -> set[str]:
    if isinstance(text, tuple):
        return placeholders(text[0]) | placeholders(text[1])
    return placeholders(text)


def _calls(path: Path) -> list[Raise]:
    relative = path.relative_to(ROOT).as_posix()
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        where = f"{relative}:{node.lineno}"
        keywords = {k.arg for k in node.keywords if k.arg is not None}
        spread = any(k.arg is None for k in node.keywords)
        first = node.args[0] if node.args else None
        foreign = (
            isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in FOREIGN_MODULES
        )
        if name in ERROR_CLASSES and not foreign:
            problems = []
            text = _literal_text(first)
            if isinstance(first, ast.Attribute) and first.attr == "text" and spread:
                continue  # forwards another error's (already checked) text and params
            if text is None:
                problems.append("its text is not a literal string (or singular/plural pair)")
            code_kw = next((k for k in node.keywords if k.arg == "code"), None)
            code = None
            if code_kw is None:
                problems.append("it has no code=")
            elif isinstance(code_kw.value, ast.Constant) and isinstance(code_kw.value.value, str):
                code = code_kw.value.value
            else:
                problems.append("its code= is not a literal string")
            params = frozenset(keywords - {"code"})
            if text is not None and not spread:
                missing = _blanks(text) - params
                if missing:
                    problems.append(f"its text names {sorted(missing)} but no such param is given")
                if isinstance(text, tuple) and "count" not in params:
                    problems.append("a singular/plural text needs the param count")
            found.append(Raise(where, "error", text, code, params, tuple(problems)))
        elif name in ("add_context", "in_hand_context") and isinstance(node.func, ast.Attribute):
            text = _literal_text(first)
            problems = [] if text is not None else ["its context text is not a literal string"]
            if text is not None and not spread:
                missing = _blanks(text) - keywords - {"error"}
                if missing:
                    problems.append(f"its text names {sorted(missing)} but no such param is given")
            found.append(Raise(where, "context", text, None, frozenset(keywords), tuple(problems)))
        elif name == "Term" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append(Raise(where, "term", first.value, None, frozenset(), ()))
    return found


SOURCES = _sources()
CALLS = {path.relative_to(ROOT).as_posix(): _calls(path) for path in SOURCES}


def _load(po: Path) -> dict:
    """The compiled catalog next to ``po`` (message id -> translation), or {} when absent."""
    mo = po.with_suffix(".mo")
    if not mo.exists():
        return {}
    with mo.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)


TRANSLATED: dict[str, dict] = {language: {} for language in LANGUAGES}
for _name, _po in CATALOGS.items():
    TRANSLATED[_name.rsplit("-", 1)[1]].update({k: v for k, v in _load(_po).items() if k})


def _translation_problems(text: str | tuple[str, str]) -> list[str]:
    if isinstance(text, tuple):
        keys = [(text[0], 0), (text[0], 1)]
    else:
        keys = [text]
    problems = []
    for language, name in LANGUAGES.items():
        for key in keys:
            translated = TRANSLATED[language].get(key)
            if not translated:
                problems.append(f"no {name} translation of {text!r}")
                break
            if placeholders(translated) != _blanks(text):
                problems.append(
                    f"the {name} text {translated!r} has blanks "
                    f"{sorted(placeholders(translated))}, the English {sorted(_blanks(text))}"
                )
    return problems


@pytest.mark.parametrize("source", sorted(CALLS))
def test_every_error_raised_has_a_literal_text_a_code_its_params_and_a_translation(source):
    problems = []
    for call in CALLS[source]:
        for problem in call.problems:
            problems.append(f"{call.where}: {problem}")
        if call.text is not None and not call.problems:
            for problem in _translation_problems(call.text):
                problems.append(f"{call.where}: {problem}")
    assert not problems, "\n".join(problems)


def test_one_code_names_one_text():
    texts: dict[str, dict] = defaultdict(dict)
    for calls in CALLS.values():
        for call in calls:
            if call.kind == "error" and call.code and call.text is not None:
                texts[call.code].setdefault(call.text, call.where)
    shared = {code: where for code, where in texts.items() if len(where) > 1}
    assert not shared, "codes with more than one text: " + "; ".join(
        f"{code}: " + ", ".join(f"{text!r} ({at})" for text, at in where.items())
        for code, where in sorted(shared.items())
    )


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_compiled_catalog_matches_its_source(name, tmp_path):
    po = CATALOGS[name]
    if not po.exists():
        pytest.skip(f"{po.relative_to(ROOT)} does not exist yet")
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        if os.environ.get("CI") == "true":
            pytest.fail("msgfmt (Debian's gettext) is missing: CI checks the compiled catalogs")
        pytest.skip("msgfmt (gettext) is not installed")
    fresh = tmp_path / "errors.mo"
    subprocess.run([msgfmt, "--check-format", "-o", str(fresh), str(po)], check=True)
    with fresh.open("rb") as handle:
        expected = dict(gettext.GNUTranslations(handle)._catalog)
    assert _load(po) == expected, f"run scripts/messages: {po.with_suffix('.mo')} is stale"


def text_of(code: str) -> str | tuple[str, str]:
    """The one text the sources raise with ``code`` (for tests that build an error by code)."""
    for calls in CALLS.values():
        for call in calls:
            if call.kind == "error" and call.code == code and call.text is not None:
                return call.text
    raise LookupError(f"no source raises the code {code!r}")


def test_an_error_reads_in_basque_and_french_with_its_words_translated():
    # The engine's text, its Term (a lance) and a wrapping context, rendered as a page or the
    # API renders them (config.errors.error_message), in each language.
    import django

    django.setup()
    from config.errors import error_message
    from scoring.messages import Term

    error = MessageError(
        "Nobody could bet in {lance}: no player has {lance}.", code="x", lance=Term("pares")
    ).add_context("Hand {hand}: {error}", hand=3)
    assert error_message(error, "es") == "Mano n.º 3: En pares no se apuesta: nadie tiene pares."
    assert error_message(error, "eu") == (
        "3. jokaldia: pareak: ez da apusturik egiten: inork ez du pareak."
    )
    assert error_message(error, "fr") == (
        "Manche n° 3 : Coup « paires » : on ne mise pas : personne n'a de « paires »."
    )
