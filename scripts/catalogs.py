"""What each catalogue still lacks: the report scripts/messages prints, and the check the tests run.

Responsible for: reading the project's .po files (Python's standard library only, so it runs
before anything is installed) and naming, catalogue by catalogue and entry by entry, what a
translator must do:

- the site's pages, e-mails and the table's script ("django" domain, Spanish message ids):
  ``locale/<en|eu|fr>/LC_MESSAGES/django.po``;
- the errors ("errors" domain, English message ids): ``locale/<es|eu|fr>/LC_MESSAGES/errors.po``
  and ``scoring/locale/<es|eu|fr>/LC_MESSAGES/errors.po`` (the engine's). Spanish is written by
  hand next to each raise; Basque and French must hold every message id the Spanish holds.

A problem is an entry that is missing (an errors message id the Spanish has and this catalogue
has not), untranslated (an empty text, or fewer plural forms than the header's ``nplurals``),
fuzzy (msgmerge's guess from a similar text: check it and drop the flag), or whose
placeholders differ from its message id's (``%(n)s``, ``{name}``, an HTML tag): a lost one
hides a value, a misspelt one breaks the page.

Run ``python scripts/catalogs.py`` for the report (exit 1 when anything is left to do);
``tests/test_i18n.py`` and ``tests/test_error_catalog.py`` assert it finds nothing.

Must not: change a catalogue (scripts/messages refreshes and compiles them).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: languages the pages are translated into (their message ids are Spanish)
PAGE_LANGUAGES = ("en", "eu", "fr")
#: languages the errors are translated into (their message ids are English)
ERROR_LANGUAGES = ("es", "eu", "fr")
#: the errors catalogue every other one follows: its message ids are the texts the code raises
ERRORS_REFERENCE = "es"
#: where the errors catalogues live: the engine's own, then the rest of the project's
ERROR_DIRS = ("scoring/locale", "locale")

#: %(name)s / %(n)d (Django, templates), {name} (str.format: errors, table.js), HTML tags
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w*\}|</?\w+[^>]*>")


@dataclass
class Entry:
    msgid: str
    line: int
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)


def read_po(path: Path) -> list[Entry]:
    """The .po's entries in file order, the header (msgid "") first. Obsolete (#~) entries are
    returned with the flag "obsolete"."""
    entries: list[Entry] = []
    entry: Entry | None = None
    current: tuple | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            entry = current = None
            continue
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].lstrip()
        starts = line.startswith(("#", "msgid ", "msgctxt "))
        # A new entry after a blank line, or right after a msgstr (a blank line forgotten).
        if entry is None or (starts and entry.msgstr):
            entry = Entry(msgid="", line=number)
            entries.append(entry)
        if obsolete:
            entry.flags.add("obsolete")
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif found := re.match(r'(msgid_plural|msgid|msgctxt|msgstr(?:\[(\d+)\])?) (".*")$', line):
            keyword, form, text = found.groups()
            current = ("msgstr", int(form or 0)) if keyword.startswith("msgstr") else (keyword,)
            _store(entry, current, ast.literal_eval(text), append=False)
        elif line.startswith('"') and current is not None:
            _store(entry, current, ast.literal_eval(line), append=True)
        else:
            raise ValueError(f"{path}:{number}: cannot read {line!r}")
    return entries


def _store(entry: Entry, where: tuple, text: str, *, append: bool) -> None:
    if where[0] == "msgstr":
        entry.msgstr[where[1]] = entry.msgstr.get(where[1], "") * append + text
    else:
        setattr(entry, where[0], (getattr(entry, where[0]) or "") * append + text)


def nplurals(entries: list[Entry]) -> int:
    header = entries[0].msgstr.get(0, "") if entries and not entries[0].msgid else ""
    found = re.search(r"nplurals\s*=\s*(\d+)", header)
    return int(found.group(1)) if found else 2


def entry_problems(entry: Entry, plural_forms: int) -> list[str]:
    """What is wrong with one translated entry (nothing when it is done)."""
    problems = []
    if "obsolete" in entry.flags:
        return ["obsolete entry left in the catalogue (delete it)"]
    if "fuzzy" in entry.flags:
        problems.append("fuzzy (a guess from a similar text: check it, then drop the flag)")
    forms = plural_forms if entry.msgid_plural is not None else 1
    texts = [entry.msgstr.get(form, "") for form in range(forms)]
    if any(not text.strip() for text in texts):
        problems.append("untranslated")
    else:
        for form, text in enumerate(texts):
            source = entry.msgid if form == 0 or entry.msgid_plural is None else entry.msgid_plural
            want = sorted(set(PLACEHOLDER.findall(source)))
            got = sorted(set(PLACEHOLDER.findall(text)))
            if want != got:
                problems.append(f"placeholders {want} became {got}")
    return problems


@dataclass
class Report:
    path: Path
    problems: list[tuple[int, str, str]]  # (line, message id, what is wrong)

    def lines(self) -> list[str]:
        name = self.path.relative_to(ROOT).as_posix()
        out = [f"{name}: {len(self.problems)} to do"]
        for line, msgid, problem in self.problems:
            shown = msgid if len(msgid) <= 100 else msgid[:97] + "..."
            out.append(f"  {name}:{line}: {problem}: {shown!r}")
        return out


def check(path: Path, reference: Path | None = None) -> Report:
    """The problems of the catalogue at ``path``; with ``reference``, also every message id of
    the reference that ``path`` lacks."""
    if not path.exists():
        return Report(path, [(0, "", "the catalogue does not exist (run scripts/messages)")])
    entries = read_po(path)
    forms = nplurals(entries)
    problems = [
        (e.line, e.msgid, problem)
        for e in entries
        if e.msgid or "obsolete" in e.flags
        for problem in entry_problems(e, forms)
    ]
    if entries and entries[0].msgid == "" and "fuzzy" in entries[0].flags:
        problems.insert(0, (entries[0].line, "", "the header is fuzzy"))
    if reference is not None and reference.exists():
        have = {(e.msgctxt, e.msgid) for e in entries if "obsolete" not in e.flags}
        for e in read_po(reference):
            if e.msgid and "obsolete" not in e.flags and (e.msgctxt, e.msgid) not in have:
                problems.append((0, e.msgid, f"missing (in {reference.relative_to(ROOT)})"))
    return Report(path, problems)


def page_catalogue(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


def error_catalogue(directory: str, language: str) -> Path:
    return ROOT / directory / language / "LC_MESSAGES" / "errors.po"


def reports() -> list[Report]:
    """Every catalogue's report: the pages' in each language, then the errors'."""
    found = [check(page_catalogue(language)) for language in PAGE_LANGUAGES]
    for directory in ERROR_DIRS:
        reference = error_catalogue(directory, ERRORS_REFERENCE)
        for language in ERROR_LANGUAGES:
            path = error_catalogue(directory, language)
            found.append(check(path, None if language == ERRORS_REFERENCE else reference))
    return found


def main() -> int:
    todo = 0
    for report in reports():
        for line in report.lines():
            print(line)
        todo += len(report.problems)
    print(f"{todo} entries to translate or fix" if todo else "every catalogue is complete")
    return 1 if todo else 0


if __name__ == "__main__":
    sys.exit(main())
