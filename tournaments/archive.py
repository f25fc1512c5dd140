"""The archive format: a peña or one tournament as one versioned JSON document, and back.

Responsible for: the shape of an archive and its checks, as plain data in and plain data out
(no database): ``archive_build`` nests flat rows (what tournaments.selectors.archive reads)
into the archive and seals it with its format, version and checksum; ``archive_open`` reads an
archive (bytes, text or parsed JSON) and refuses one that is not JSON, not an Amarrako archive
(foreign), of a newer version than this code reads, whose checksum does not match its content
(corrupted: cut, or changed by accident; the checksum is public, so an archive edited on
purpose can be sealed again, and the import derives every figure again:
tournaments/services/archive_checks.py) or whose records lack a field or hold a value of the
wrong type (each refusal an Invalid with its own code, naming where); and the remapping of the ids
that the JSON columns hold (a bracket's entrants, a liguilla's groups, the players who rested,
a Mus francés table's finishing order) to the ids an import gives the rows.

The archive (version 5)::

    {"format": "amarrako.archive", "version": 5, "exported_at": "…", "scope": "club" | "tournament",
     "club": {…}, "clubs": [{"slug", "name"}], "presets": [...], "players": [...],
     "pairs": [...], "tournaments": [{…, "entries": [...], "individual_entries": [...],
     "phases": [{…, "groups": [...], "rounds": [{…, "matches": [{…, "submissions": [...],
     "hands": [...], "substitutions": [...], "late_penalties": [...]}],
     "frances_tables": [{…, "seats": [...], "frances_submissions": [...]}]}]}],
     "audit": [...]}], "leagues": [...], "circuits": [...], "interpenas": [...],
     "team_leagues": [...], "championships": [...], "checksum": "sha256:…"}

Versions. Every field of a version is required: a record without one is damaged.

- 1: tournaments of pairs.
- 2 adds the rule set's house rules (``real_31_suit``, ``tio_perete``,
  ``forgotten_stones_lost``: presets and tournaments), the tournament's ``entrant_kind`` and
  ``frances_table_size``, an entry's ``player_three`` (trios) and ``drawn`` (a partnership the
  draw made), the players who entered alone (``individual_entries``), Mus francés tables
  (``frances_tables`` with their ``seats`` and ``frances_submissions``), and the sections of
  the apps above tournaments (SECTIONS: ``leagues``, seasons/leagues/archive.py).
- 3 adds the peña's ``language`` (its e-mails') and the sections ``circuits`` and
  ``interpenas`` (seasons/circuits/archive.py).
- 4 adds the section ``team_leagues``, the leagues of peñas the peña runs
  (seasons/leagues/teams/archive.py). A new top-level list is a new required key: an archive
  of version 3 lacks it, and opens with it empty.
- 5 adds what a tournament's bases declare beyond its rule set: its points table
  (``points_win``, ``points_loss``, ``points_walkover_loss``), its ``prizes`` across phases,
  its field (``min_entries``, ``field_sizes``, ``rules_by_entries``) and its ``calendar`` of
  evenings; an entry's (or a player alone's) ``dropped_at`` and ``refunded_at`` (left out when
  registration closed, and refunded); a round's and a match's ``scheduled_at``, and a postponed
  match's ``deadline`` and ``postponed_reason``. The prizes awarded are not carried: the import
  awards them again from the standings (services/prizes.py), like every derived figure.
  It adds the section ``championships`` too, the championships the peña runs or is a
  centre of (seasons/championships/archive.py).

An older archive opens as the current version with the values each later version added
(ADDED_IN: for version 1 pairs, no house rules, nobody alone; for version 2 Spanish e-mails;
each section absent from the version it was added in opens empty), so it imports as it always
did.

Every record that others point at carries its ``id`` in the exporting instance; references
(``pair``, ``entry_a``, ``winner``, ``source``, ``player_three``, a seat's ``entry``, …) are
those ids, valid only inside the archive; REFERENCES says, for each kind of record, which of
its fields point at which kind (the importer remaps them all through that one table).
The importer gives every row a new id. Users are not exported (another instance has other
accounts): who created a row or made an audited change is kept as a user name
(``created_by``, an audit row's ``actor``), and the import keeps that name on the row it
creates (``created_by_name``, ``actor_name``: it points at no user of this instance), so
the next export names the same people. Audit rows keep their ``old`` and ``new`` values as
they were, with the ids of the instance that wrote them (those written before a tournament's
last ``tournament_imported`` row came from another instance). A table's secret link
(Match.token, FrancesTable.token) is not exported: an import makes new ones.

Must not: touch the database, or decide who may export or import (the services do).

Terms: peña (club), pareja (pair), trío, jugador inscrito (a player entered alone), mesa de
mus francés, fase, liguilla (group), ronda, partida (match), mano (hand), cuadro (bracket).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from config.errors import Invalid
from scoring.messages import Term

FORMAT = "amarrako.archive"
VERSION = 6

#: deeper than any archive (a hand's bets inside a submission's payload are about 14 levels)
MAX_DEPTH = 48

# --- The fields of each kind of record ----------------------------------------------------------
# A type per field: int, str, bool, date, datetime, json (any JSON value), list; a trailing "?"
# allows null. Nested lists of records are named in CHILDREN.

RULES = {
    "kings": "int",
    "stones_per_game": "int",
    "games_per_vaca": "int",
    "vacas_per_match": "int",
    "real_31": "str",
    "dejes": "bool",
    "min_envite": "int",
    "real_31_suit": "str",
    "tio_perete": "bool",
    "forgotten_stones_lost": "bool",
}

FIELDS: dict[str, dict[str, str]] = {
    "club": {
        "slug": "str",
        "name": "str",
        "town": "str",
        "region": "str",
        "contact_email": "str",
        "contact_phone": "str",
        "default_preset": "str?",
        "language": "str",
    },
    "clubs": {"slug": "str", "name": "str"},
    "presets": {"name": "str", **RULES},
    "players": {
        "id": "int",
        "first_name": "str",
        "last_name": "str",
        "email": "str",
        "phone": "str",
        "member": "bool",
    },
    "pairs": {
        "id": "int",
        "player_one": "int",
        "player_two": "int",
        "name": "str",
        "club": "str?",
        "created_at": "datetime",
    },
    "tournaments": {
        "id": "int",
        "name": "str",
        "slug": "str",
        "venue": "str",
        "starts_on": "date",
        "ends_on": "date?",
        "is_public": "bool",
        "status": "str",
        "tables_available": "int",
        "max_pairs": "int?",
        "tiebreaks": "list",
        "late_minutes_per_game": "int?",
        "draw_seed": "int",
        "preset_name": "str",
        **RULES,
        "entrant_kind": "str",
        "frances_table_size": "int",
        "points_win": "int?",
        "points_loss": "int",
        "points_walkover_loss": "int",
        "prizes": "list",
        "min_entries": "int?",
        "field_sizes": "list",
        "rules_by_entries": "list",
        "calendar": "json",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "entries": {
        "id": "int",
        "pair": "int",
        "seed": "int?",
        "status": "str",
        "pinned_table": "int?",
        "registered_at": "datetime",
        "checked_in_at": "datetime?",
        "withdrawn_at": "datetime?",
        "player_three": "int?",
        "drawn": "bool",
        "dropped_at": "datetime?",
        "refunded_at": "datetime?",
    },
    "individual_entries": {
        "id": "int",
        "player": "int",
        "status": "str",
        "registered_at": "datetime",
        "checked_in_at": "datetime?",
        "withdrawn_at": "datetime?",
        "dropped_at": "datetime?",
        "refunded_at": "datetime?",
    },
    "phases": {
        "id": "int",
        "order": "int",
        "name": "str",
        "format": "str",
        "status": "str",
        "rounds_planned": "int?",
        "group_size": "int?",
        "qualifiers_per_group": "int?",
        "lives": "int",
        "third_place": "bool",
        "grand_final_reset": "bool",
        "separate_clubs_rounds": "int",
        "source": "int?",
        "stones_per_game": "int?",
        "games_per_vaca": "int?",
        "vacas_per_match": "int?",
        "bracket": "json",
        "settings": "json",
        "entrants": "json",
        "seeding": "str",
        "group_sizes": "json",
    },
    "groups": {"id": "int", "name": "str", "entries": "list"},
    "rounds": {
        "number": "int",
        "status": "str",
        "scheduled_at": "datetime?",
        "published_at": "datetime?",
        "closed_at": "datetime?",
        "created_at": "datetime",
    },
    "matches": {
        "id": "int",
        "group": "int?",
        "bracket_key": "str",
        "table_number": "int?",
        "entry_a": "int?",
        "entry_b": "int?",
        "status": "str",
        "kind": "str",
        "winner": "int?",
        "games_a": "int",
        "games_b": "int",
        "vacas_a": "int",
        "vacas_b": "int",
        "stones_a": "int",
        "stones_b": "int",
        "result": "json",
        "version": "int",
        "reasons": "list",
        "first_mano": "str",
        "scheduled_at": "datetime?",
        "deadline": "date?",
        "postponed_reason": "str",
        "started_at": "datetime?",
        "confirmed_at": "datetime?",
        "created_at": "datetime",
    },
    "frances_tables": {
        "table_number": "int",
        "status": "str",
        "order": "json",
        "version": "int",
        "reasons": "list",
        "confirmed_at": "datetime?",
        "created_at": "datetime",
    },
    "seats": {"entry": "int", "seat": "int"},
    "frances_submissions": {
        "seat": "int",
        "via": "str",
        "order": "json",
        "confirms": "bool",
        "idempotency_key": "str",
        "based_on_version": "int",
        "device": "str",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "submissions": {
        "side": "str",
        "via": "str",
        "payload": "json",
        "summary": "json",
        "idempotency_key": "str",
        "based_on_version": "int",
        "device": "str",
        "created_by": "str?",
        "created_at": "datetime",
    },
    "hands": {
        "number": "int",
        "payload": "json",
        "idempotency_key": "str",
        "created_at": "datetime",
    },
    "substitutions": {
        "entry": "int",
        "replaced": "int",
        "substitute": "int",
        "created_at": "datetime",
    },
    "late_penalties": {
        "entry": "int",
        "minutes_late": "int",
        "games_lost": "int",
        "created_at": "datetime",
    },
    "audit": {
        "match": "int?",
        "action": "str",
        "actor": "str?",
        "via": "str",
        "device": "str",
        "old": "json",
        "new": "json",
        "created_at": "datetime",
    },
}

#: the lists of records each kind holds, in the order they nest
CHILDREN: dict[str, tuple[str, ...]] = {
    "tournaments": ("entries", "individual_entries", "phases", "audit"),
    "phases": ("groups", "rounds"),
    "rounds": ("matches", "frances_tables"),
    "frances_tables": ("seats", "frances_submissions"),
    "matches": ("submissions", "hands", "substitutions", "late_penalties"),
}

#: the top-level lists of records
TOP = ("clubs", "presets", "players", "pairs", "tournaments")

#: the fields that hold another record's archive id, by kind of record: field → the kind it
#: points at ("kind" one id or null, "kind[]" a list of ids). The importer resolves them all
#: through this one table (tournaments.services.archive.ArchiveIds.refs); the sections of the
#: apps above tournaments add theirs when they register.
REFERENCES: dict[str, dict[str, str]] = {
    "pairs": {"player_one": "players", "player_two": "players"},
    "entries": {"pair": "pairs", "player_three": "players"},
    "individual_entries": {"player": "players"},
    "phases": {"source": "phases"},
    "groups": {"entries": "entries[]"},
    "matches": {
        "group": "groups",
        "entry_a": "entries",
        "entry_b": "entries",
        "winner": "entries",
    },
    "seats": {"entry": "individual_entries"},
    "substitutions": {"entry": "entries", "replaced": "players", "substitute": "players"},
    "late_penalties": {"entry": "entries"},
    "audit": {"match": "matches"},
}

SCOPES = ("club", "tournament")

#: the top-level lists that apps above tournaments add to an archive (seasons.leagues adds
#: "leagues", seasons.circuits "circuits" and "interpenas"): tournaments never import them, so
#: each registers its records' shape here when Django starts (``section_register``), its
#: export in tournaments.selectors.archive and its import in tournaments.services.archive. An
#: archive holds each section of its version (empty in a tournament's archive); an older one
#: opens with each section it could not hold empty.
SECTIONS: list[str] = []

#: the version that added each section (an archive of an older version opens with it empty)
SECTION_SINCE: dict[str, int] = {}


def section_register(
    name: str,
    fields: Mapping[str, Mapping[str, str]],
    children: Mapping[str, tuple[str, ...]],
    *,
    references: Mapping[str, Mapping[str, str]] | None = None,
    since: int = 2,
) -> None:
    """Add the top-level list ``name`` of records of kind ``name``, with the fields of each
    kind it nests, their CHILDREN, their REFERENCES and the format version that added the
    section. Registering the same section again changes nothing."""
    if name in SECTIONS:
        return
    clash = (set(fields) & set(FIELDS)) | (set(children) & set(CHILDREN))
    if clash:
        raise ValueError(f"archive kinds registered twice: {sorted(clash)}")
    FIELDS.update({kind: dict(f) for kind, f in fields.items()})
    CHILDREN.update(children)
    REFERENCES.update({kind: dict(r) for kind, r in (references or {}).items()})
    SECTIONS.append(name)
    SECTION_SINCE[name] = since


#: what version 1 lacked, by kind of record: an archive of version 1 opens with these values
#: (what a tournament of that time was: pairs, no house rules, no players alone)
ADDED_IN_2: dict[str, dict[str, Any]] = {
    "presets": {"real_31_suit": "", "tio_perete": False, "forgotten_stones_lost": False},
    "tournaments": {
        "real_31_suit": "",
        "tio_perete": False,
        "forgotten_stones_lost": False,
        "entrant_kind": "pairs",
        "frances_table_size": 4,
        "individual_entries": [],
    },
    "entries": {"player_three": None, "drawn": False},
    "rounds": {"frances_tables": []},
}

#: what version 2 lacked: a peña's e-mails were in Spanish
ADDED_IN_3: dict[str, dict[str, Any]] = {"club": {"language": "es"}}

#: what version 4 lacked: no bases beyond the rule set, no calendar (a tournament of then)
ADDED_IN_5: dict[str, dict[str, Any]] = {
    "tournaments": {
        "points_win": None,
        "points_loss": 0,
        "points_walkover_loss": 0,
        "prizes": [],
        "min_entries": None,
        "field_sizes": [],
        "rules_by_entries": [],
        "calendar": {},
    },
    "entries": {"dropped_at": None, "refunded_at": None},
    "individual_entries": {"dropped_at": None, "refunded_at": None},
    "rounds": {"scheduled_at": None},
    "matches": {"scheduled_at": None, "deadline": None, "postponed_reason": ""},
}

#: what version 5 lacked: no plan (a phase took every pair that played, or a knockout its
#: source's qualifiers; groups were drawn by lot at one size)
ADDED_IN_6: dict[str, dict[str, Any]] = {
    "phases": {"entrants": [], "seeding": "", "group_sizes": []},
}

#: by version, what it added to each kind of record (an older archive opens with these values)
ADDED_IN: dict[int, dict[str, dict[str, Any]]] = {
    2: ADDED_IN_2,
    3: ADDED_IN_3,
    5: ADDED_IN_5,
    6: ADDED_IN_6,
}


# --- Building ----------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A column's value as JSON: dates and times in ISO 8601, the rest as it is."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def record(kind: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """The archive's record of ``kind`` from a row (a mapping with at least its fields)."""
    return {name: _plain(row[name]) for name in FIELDS[kind]}


def checksum(archive: Mapping[str, Any]) -> str:
    """``sha256:`` and the hex digest of the archive's canonical JSON, without its checksum."""
    content = {k: v for k, v in archive.items() if k != "checksum"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def archive_build(
    *,
    scope: str,
    exported_at: dt.datetime,
    club: Mapping[str, Any],
    clubs: list[Mapping[str, Any]],
    presets: list[Mapping[str, Any]],
    players: list[Mapping[str, Any]],
    pairs: list[Mapping[str, Any]],
    tournaments: list[Mapping[str, Any]],
    sections: Mapping[str, list[Mapping[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The sealed archive. ``tournaments`` (and each of ``sections``, by name: a section left
    out is empty) are rows with their children already nested under the names of CHILDREN
    (each a list of rows); every row is reduced to its kind's fields."""

    def nested(kind: str, row: Mapping[str, Any]) -> dict[str, Any]:
        out = record(kind, row)
        for child in CHILDREN.get(kind, ()):
            out[child] = [nested(child, r) for r in row[child]]
        return out

    archive: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _plain(exported_at),
        "scope": scope,
        "club": record("club", club),
        "clubs": [record("clubs", c) for c in clubs],
        "presets": [record("presets", p) for p in presets],
        "players": [record("players", p) for p in players],
        "pairs": [record("pairs", p) for p in pairs],
        "tournaments": [nested("tournaments", t) for t in tournaments],
        **{name: [nested(name, r) for r in (sections or {}).get(name, [])] for name in SECTIONS},
    }
    archive["checksum"] = checksum(archive)
    return archive


def archive_dumps(archive: Mapping[str, Any]) -> str:
    """The archive as the text a file holds (UTF-8, indented for a person to read)."""
    return json.dumps(archive, ensure_ascii=False, indent=1)


# --- Opening -----------------------------------------------------------------------------------


def _damaged(where: str, problem: Term) -> Invalid:
    return Invalid(
        "The archive is damaged at {where}: {problem}.",
        code="archive_damaged",
        where=where,
        problem=problem,
    )


def _parse(raw: bytes | str) -> Any:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid("The archive is not UTF-8 text.", code="archive_not_text") from None
    try:
        return json.loads(raw)
    except RecursionError:
        raise Invalid(
            "The archive is nested more than {limit} levels deep.",
            code="archive_too_deep",
            limit=MAX_DEPTH,
        ) from None
    except ValueError as exc:
        raise Invalid(
            "The archive is not valid JSON: {reason}.",
            code="archive_not_json",
            reason=str(exc)[:120],
        ) from None


def _depth(value: Any, limit: int) -> bool:
    """True if ``value`` nests deeper than ``limit`` (iteratively: no recursion limit)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return False


#: a NUL (PostgreSQL stores none in text) or a UTF-16 surrogate on its own ("\\ud800" without
#: its other half: UTF-8 has no form for it, so no row holding it could be written)
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _bad_character(value: Any) -> str | None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _BAD_CHARACTER.search(item)
            if found:
                return found.group()
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def archive_open(raw: bytes | str | Any) -> dict[str, Any]:
    """The archive, checked (see the module docstring); Invalid with its own code otherwise.

    ``raw`` is the file's bytes or text, or JSON already parsed (an API body).
    """
    data = _parse(raw) if isinstance(raw, bytes | str) else raw
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Invalid(
            "This is not an Amarrako archive (its format is not '{format}').",
            code="archive_foreign",
            format=FORMAT,
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged("version", Term("not a version number"))
    if version > VERSION:
        raise Invalid(
            "The archive is of format version {version}; this Amarrako reads up to version "
            "{supported}. Import it into a newer Amarrako.",
            code="archive_version_newer",
            version=version,
            supported=VERSION,
        )
    if _depth(data, MAX_DEPTH):
        raise Invalid(
            "The archive is nested more than {limit} levels deep.",
            code="archive_too_deep",
            limit=MAX_DEPTH,
        )
    # before the checksum, which encodes the text as UTF-8 (a lone surrogate has no form)
    bad = _bad_character(data)
    if bad == "\x00":
        raise _damaged("(text)", Term("a NUL character"))
    if bad is not None:
        raise _damaged("(text)", Term("a lone surrogate, half of a character"))
    if data.get("checksum") != checksum(data):
        raise Invalid(
            "The archive's checksum does not match its content: it was cut short or changed "
            "after it was exported. Export it again.",
            code="archive_checksum",
        )
    if version < VERSION:
        data = _upgraded(data, version)
    if data.get("scope") not in SCOPES:
        raise _damaged("scope", Term("neither 'club' nor 'tournament'"))
    _check_record("club", data.get("club"), "club")
    for kind in (*TOP, *SECTIONS):
        _check_list(kind, data.get(kind), kind)
    return data


def _upgraded(data: dict[str, Any], version: int) -> dict[str, Any]:
    """An archive of an older ``version`` with the fields each later version added, at their
    ADDED_IN values (a record that already has one keeps it; what is not a record is left for
    the checks), and each section added since then empty."""

    def filled(added: dict[str, dict[str, Any]], kind: str, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out = {**added.get(kind, {}), **value}
        for child in CHILDREN.get(kind, ()):
            if isinstance(out.get(child), list):
                out[child] = [filled(added, child, item) for item in out[child]]
        return out

    absent = {name: [] for name in SECTIONS if SECTION_SINCE.get(name, 2) > version}
    data = {**absent, **data}
    for later in range(version + 1, VERSION + 1):
        added = ADDED_IN.get(later, {})
        data["club"] = filled(added, "club", data.get("club"))
        for kind in TOP:
            if isinstance(data.get(kind), list):
                data[kind] = [filled(added, kind, item) for item in data[kind]]
    return data


def _check_list(kind: str, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise _damaged(where, Term("not a list"))
    for n, item in enumerate(value):
        _check_record(kind, item, f"{where}[{n}]")


def _check_record(kind: str, value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise _damaged(where, Term("not an object"))
    for name, kind_of_value in FIELDS[kind].items():
        if name not in value:
            raise _damaged(f"{where}.{name}", Term("missing"))
        problem = _type_problem(value[name], kind_of_value)
        if problem:
            raise _damaged(f"{where}.{name}", problem)
    for child in CHILDREN.get(kind, ()):
        _check_list(child, value.get(child), f"{where}.{child}")


def _type_problem(value: Any, kind: str) -> Term | None:
    """What is wrong with ``value`` for a field of ``kind`` (None if nothing)."""
    if kind.endswith("?"):
        if value is None:
            return None
        kind = kind[:-1]
    if kind == "json":
        return None
    if kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31
        return None if ok else Term("not a whole number")
    if kind == "bool":
        return None if isinstance(value, bool) else Term("not true or false")
    if kind == "list":
        return None if isinstance(value, list) else Term("not a list")
    if not isinstance(value, str):
        return Term("not text")
    if kind == "date":
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return Term("not a date")
    elif kind == "datetime":
        try:
            dt.datetime.fromisoformat(value)
        except ValueError:
            return Term("not a date and time")
    return None


def parse_date(value: str | None) -> dt.date | None:
    return None if value is None else dt.date.fromisoformat(value)


def parse_datetime(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


# --- Ids held in JSON columns ------------------------------------------------------------------


def bracket_remap(bracket: Any, entries: Mapping[int, int]) -> Any:
    """A stored bracket (Phase.bracket) with its entrant ids replaced through ``entries``;
    KeyError for an entrant the archive does not hold."""
    if not isinstance(bracket, dict):
        return bracket
    out = dict(bracket)
    if isinstance(bracket.get("draw_order"), list):
        out["draw_order"] = [entries[i] for i in bracket["draw_order"]]
    matches = []
    for m in bracket.get("matches", []):
        m = dict(m)
        for side in ("a", "b"):
            slot = dict(m[side])
            if slot.get("entrant_id") is not None:
                slot["entrant_id"] = entries[slot["entrant_id"]]
            m[side] = slot
        matches.append(m)
    if "matches" in bracket:
        out["matches"] = matches
    return out


def phase_settings_remap(
    settings: Any, entries: Mapping[int, int], individuals: Mapping[int, int] | None = None
) -> Any:
    """A phase's settings with the entry ids of its stored liguilla groups and of a group
    ladder's state replaced, and the players' ids (IndividualEntry) of its rests (round
    number → who rested) through ``individuals``, a table ladder's bench through whichever
    the tournament has; KeyError for an id the archive does not hold."""
    if not isinstance(settings, dict):
        return settings
    out = dict(settings)
    if isinstance(settings.get("groups"), list):
        out["groups"] = [
            {**g, "entry_ids": [entries[i] for i in g.get("entry_ids", [])]}
            for g in settings["groups"]
        ]
    if isinstance(settings.get("entrants"), list):
        out["entrants"] = [entries[i] for i in settings["entrants"]]
    if isinstance(settings.get("rests"), dict):
        out["rests"] = {
            number: [(individuals or {})[i] for i in ids]
            for number, ids in settings["rests"].items()
        }
    state = settings.get("ladder_state")
    if isinstance(state, dict):  # a group ladder: its groups per cycle, moves, final groups
        out["ladder_state"] = {
            **state,
            "cycles": [
                {
                    "groups": [[entries[i] for i in g] for g in c.get("groups", [])],
                    "up": [entries[i] for i in c.get("up", [])],
                    "down": [entries[i] for i in c.get("down", [])],
                }
                for c in state.get("cycles", [])
            ],
            "final": None
            if state.get("final") is None
            else [[entries[i] for i in g] for g in state["final"]],
        }
    if isinstance(settings.get("ladder_bench"), dict):
        # a table ladder's resting sides: entries, or players alone (IndividualEntry ids)
        ids = individuals or entries
        out["ladder_bench"] = {
            number: [[ids[i] for i in side] for side in sides]
            for number, sides in settings["ladder_bench"].items()
        }
    return out


def phase_entrants_remap(rules: Any, entries: Mapping[int, int]) -> Any:
    """A phase's entrants rules (Phase.entrants) with the entry ids of a fixed list replaced
    through ``entries``; KeyError for an id the archive does not hold."""
    if not isinstance(rules, list):
        return rules
    return [
        {**r, "entries": [entries[i] for i in r["entries"]]}
        if isinstance(r, dict) and isinstance(r.get("entries"), list)
        else r
        for r in rules
    ]


def order_remap(order: Any, individuals: Mapping[int, int]) -> Any:
    """A Mus francés finishing order (players' IndividualEntry ids, the winner first) with the
    ids replaced; None stays None; KeyError for an id the archive does not hold."""
    if order is None:
        return None
    return [individuals[i] for i in order]
