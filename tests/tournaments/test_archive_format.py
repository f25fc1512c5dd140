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
    order_remap,
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
    "language": "eu",
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
    # half of a character, as JSON writes it: the checksum could not even be computed (a 500)
    half = archive_dumps(good).replace('"Maite"', '"M\\ud800"', 1)
    assert "\\ud800" in half
    assert refused(half) == "archive_damaged"


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
    ladder = {
        "ladder": {"groups": 2},
        "ladder_state": {
            "cycles": [{"groups": [[5], [6]], "up": [6], "down": [5]}],
            "final": [[6], [5]],
        },
    }
    assert phase_settings_remap(ladder, {5: 50, 6: 60}) == {
        "ladder": {"groups": 2},
        "ladder_state": {
            "cycles": [{"groups": [[50], [60]], "up": [60], "down": [50]}],
            "final": [[60], [50]],
        },
    }


def test_the_players_alone_held_in_json_columns_follow_their_new_ids():
    settings = {"rests": {"1": [7], "2": []}, "groups": [{"name": "A", "entry_ids": [5]}]}
    assert phase_settings_remap(settings, {5: 50}, {7: 70}) == {
        "rests": {"1": [70], "2": []},
        "groups": [{"name": "A", "entry_ids": [50]}],
    }
    # a table ladder's bench, of players alone or of pairs
    assert phase_settings_remap({"ladder_bench": {"1": [[7]]}}, {5: 50}, {7: 70}) == {
        "ladder_bench": {"1": [[70]]}
    }
    assert phase_settings_remap({"ladder_bench": {"1": [[5]]}}, {5: 50}) == {
        "ladder_bench": {"1": [[50]]}
    }
    assert order_remap([7, 8], {7: 70, 8: 80}) == [70, 80]
    assert order_remap(None, {}) is None
    with pytest.raises(KeyError):
        order_remap([9], {7: 70})


def version_1(tournament: dict) -> dict:
    """An archive as version 1 wrote it: a tournament of pairs, without the fields of 2."""
    archive = {**built(), "version": 1, "tournaments": [tournament]}
    archive["checksum"] = checksum(archive)
    return archive


TOURNAMENT_1 = {
    "id": 1,
    "name": "Torneo",
    "slug": "torneo",
    "venue": "",
    "starts_on": "2026-07-07",
    "ends_on": None,
    "is_public": True,
    "status": "finished",
    "tables_available": 0,
    "max_pairs": None,
    "tiebreaks": [],
    "late_minutes_per_game": None,
    "draw_seed": 1,
    "preset_name": "",
    "kings": 8,
    "stones_per_game": 40,
    "games_per_vaca": 3,
    "vacas_per_match": 1,
    "real_31": "off",
    "dejes": True,
    "min_envite": 2,
    "created_by": None,
    "created_at": "2026-07-07T10:00:00+00:00",
    "entries": [
        {
            "id": 3,
            "pair": 1,
            "seed": None,
            "status": "registered",
            "pinned_table": None,
            "registered_at": "2026-07-07T10:00:00+00:00",
            "checked_in_at": None,
            "withdrawn_at": None,
        }
    ],
    "phases": [],
    "audit": [],
}


def test_an_archive_of_version_1_opens_with_what_version_2_added():
    opened = archive_open(version_1(TOURNAMENT_1))
    [tournament] = opened["tournaments"]
    assert tournament["entrant_kind"] == "pairs" and tournament["frances_table_size"] == 4
    assert (tournament["tio_perete"], tournament["real_31_suit"]) == (False, "")
    assert tournament["individual_entries"] == []
    assert (tournament["entries"][0]["player_three"], tournament["entries"][0]["drawn"]) == (
        None,
        False,
    )
    # A version-1 archive whose records lack their own version-1 fields is still damaged.
    broken = {k: v for k, v in TOURNAMENT_1.items() if k != "kings"}
    with pytest.raises(Invalid) as caught:
        archive_open(version_1(broken))
    assert caught.value.params["where"] == "tournaments[0].kings"


def version_2(archive: dict) -> dict:
    """The archive as version 2 wrote it: no peña's language, no circuits nor interpeñas."""
    old = {k: v for k, v in archive.items() if k not in ("circuits", "interpenas")}
    old["club"] = {k: v for k, v in archive["club"].items() if k != "language"}
    old["version"] = 2
    old["checksum"] = checksum(old)
    return old


def test_an_archive_of_version_2_opens_with_what_version_3_added():
    opened = archive_open(version_2(built([player(1)])))
    assert opened["club"]["language"] == "es"  # the peña's e-mails were in Spanish
    assert opened["circuits"] == [] and opened["interpenas"] == []
    assert opened["leagues"] == [] and opened["players"][0]["first_name"] == "Maite"
    # a version-3 archive without them is damaged
    current = built()
    del current["circuits"]
    current["checksum"] = checksum(current)
    with pytest.raises(Invalid) as caught:
        archive_open(current)
    assert caught.value.params["where"] == "circuits"
    no_language = built()
    del no_language["club"]["language"]
    no_language["checksum"] = checksum(no_language)
    with pytest.raises(Invalid) as caught:
        archive_open(no_language)
    assert caught.value.params["where"] == "club.language"


def test_a_version_2_archive_needs_every_field_of_version_2():
    archive = {**built(), "tournaments": [{**TOURNAMENT_1}]}
    archive["checksum"] = checksum(archive)
    with pytest.raises(Invalid) as caught:
        archive_open(archive)
    assert caught.value.code == "archive_damaged"
    assert caught.value.params["where"] == "tournaments[0].real_31_suit"
