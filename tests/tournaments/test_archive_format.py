"""The archive's format without a database: sealing and opening, and every way a file can be
refused (tournaments.archive)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config.errors import Invalid
from tournaments.archive import (
    FORMAT,
    VERSION,
    archive_build,
    archive_dumps,
    archive_open,
    bracket_remap,
    checksum,
    phase_settings_remap,
)

CLUB = {
    "slug": "pena-txoko",
    "name": "Peña Txoko",
    "town": "Pamplona",
    "region": "",
    "contact_email": "",
    "contact_phone": "",
    "default_preset": None,
}
WHEN = dt.datetime(2026, 7, 7, 10, 0, tzinfo=dt.UTC)


def built(players=()) -> dict:
    return archive_build(
        scope="club",
        exported_at=WHEN,
        club=CLUB,
        clubs=[],
        presets=[],
        players=list(players),
        pairs=[],
        tournaments=[],
    )


def player(n: int, first: str = "Maite") -> dict:
    return {
        "id": n,
        "first_name": first,
        "last_name": "Oroz",
        "email": "",
        "phone": "",
        "member": True,
        "user_id": 3,  # a column the archive leaves out
    }


def test_an_archive_opens_as_it_was_built():
    archive = built([player(1)])
    assert (archive["format"], archive["version"]) == (FORMAT, VERSION)
    assert archive["exported_at"] == "2026-07-07T10:00:00+00:00"
    assert "user_id" not in archive["players"][0]
    assert archive_open(archive_dumps(archive).encode()) == archive
    assert archive_open(archive) == archive


@given(st.lists(st.text(min_size=1, max_size=20).filter(lambda t: "\x00" not in t), max_size=5))
def test_any_names_survive_the_file(names):
    archive = built(player(n, first) for n, first in enumerate(names))
    assert archive_open(archive_dumps(archive)) == archive


@given(st.data())
def test_any_change_to_a_value_is_caught_by_the_checksum(data):
    archive = built([player(1), player(2, "Ane")])
    text = archive_dumps(archive)
    # Change one character inside a player's name: still valid JSON, a different content.
    start = text.index('"Ane"') + 1
    changed = text[:start] + data.draw(st.sampled_from("XYZñ")) + text[start + 1 :]
    with pytest.raises(Invalid) as caught:
        archive_open(changed)
    assert caught.value.code == "archive_checksum"


def refused(raw) -> str:
    with pytest.raises(Invalid) as caught:
        archive_open(raw)
    return caught.value.code


def resealed(archive: dict) -> dict:
    return {**archive, "checksum": checksum(archive)}


def test_what_is_refused_and_why():
    good = built([player(1)])
    assert refused(b"\xff\xfe") == "archive_not_text"
    assert refused("{") == "archive_not_json"
    assert refused("[]") == "archive_foreign"
    assert refused(json.dumps({"format": "zip"})) == "archive_foreign"
    assert refused({**good, "version": "1"}) == "archive_damaged"
    assert refused(resealed({**good, "version": VERSION + 1})) == "archive_version_newer"
    assert refused({**good, "scope": "league"}) == "archive_checksum"
    assert refused(resealed({**good, "scope": "league"})) == "archive_damaged"
    deep: list = []
    for _ in range(60):
        deep = [deep]
    assert refused(resealed({**good, "players": deep})) == "archive_too_deep"
    nul = resealed({**good, "players": [{**good["players"][0], "first_name": "a\x00"}]})
    assert refused(nul) == "archive_damaged"


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"id": "1"}, "players[0].id"),
        ({"member": 1}, "players[0].member"),
        ({"first_name": None}, "players[0].first_name"),
    ],
)
def test_a_field_of_the_wrong_type_is_named(value, where):
    good = built([player(1)])
    bad = resealed({**good, "players": [{**good["players"][0], **value}]})
    with pytest.raises(Invalid) as caught:
        archive_open(bad)
    assert caught.value.code == "archive_damaged"
    assert caught.value.params["where"] == where


def test_the_ids_held_in_json_columns_follow_the_new_ids():
    bracket = {
        "draw_order": [5, 6],
        "matches": [{"id": "W1-1", "a": {"entrant_id": 5}, "b": {"entrant_id": None}}],
    }
    assert bracket_remap(bracket, {5: 50, 6: 60}) == {
        "draw_order": [50, 60],
        "matches": [{"id": "W1-1", "a": {"entrant_id": 50}, "b": {"entrant_id": None}}],
    }
    assert bracket_remap(None, {}) is None
    settings = {"groups": [{"name": "A", "entry_ids": [6, 5]}], "other": 1}
    assert phase_settings_remap(settings, {5: 50, 6: 60}) == {
        "groups": [{"name": "A", "entry_ids": [60, 50]}],
        "other": 1,
    }
    with pytest.raises(KeyError):
        bracket_remap(bracket, {5: 50})
