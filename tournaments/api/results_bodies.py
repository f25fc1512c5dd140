"""The JSON bodies of the table link's hot requests, built by hand.

Responsible for: ``table_body`` (``GET /api/v1/table/<token>``) and ``result_body`` (the answer of
every write of a result: the table's submission and confirmation, the organizer's entries):
the same dicts, key for key and in the same order, that the serializers of
tournaments/api/results.py (``TableDetailApi.OutputSerializer``, ``ResultOutputSerializer``)
would give, without walking DRF's fields for every request. Those serializers stay the
documented shape (``@extend_schema`` names them, so the OpenAPI schema does not change);
tests/api/test_api_results_bodies.py renders both for matches in every state and asserts the
same bytes, so a field added to a serializer and not here fails there.

Why: a table's read, submission and confirmation are the requests 200 phones send at once at
the start of a round; DRF's serializers cost about a tenth of each (a field object per value,
``to_representation`` through every nested serializer).

Must not: decide what a field means or holds (the selectors and services do); convert anything
but as the serializer's field type does (int, str, DRF's ISO 8601 in local time, JSON as is).

Terms: mesa (table), pareja (pair a/b), envío (a submission).
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers

#: DRF's own field for times: local time (TIME_ZONE), ISO 8601, "Z" for UTC.
_DATETIME = serializers.DateTimeField()


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _datetime(value: Any) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


def _snapshot_datetime(value: Any) -> str | None:
    """As results.SnapshotDateTimeField: an ISO string of the snapshot is parsed first."""
    if value is None:
        return None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = parse_datetime(value) or value
    return _DATETIME.to_representation(value)


def _pair_count(value: dict | None) -> dict | None:
    return None if value is None else {"a": _int(value["a"]), "b": _int(value["b"])}


def match_state_body(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """``MatchStateSerializer`` of a match snapshot (selectors.results.match_snapshot)."""
    if state is None:
        return None
    return {
        "id": _int(state["id"]),
        "status": _str(state["status"]),
        "kind": _str(state["kind"]),
        "version": _int(state["version"]),
        "winner": _str(state["winner"]),
        "games": _pair_count(state["games"]),
        "vacas": _pair_count(state["vacas"]),
        "stones": _pair_count(state["stones"]),
        "result": state["result"],
        "started_at": _snapshot_datetime(state["started_at"]),
        "confirmed_at": _snapshot_datetime(state["confirmed_at"]),
    }


def submission_body(submission) -> dict[str, Any] | None:
    """``SubmissionSerializer`` of a ResultSubmission."""
    if submission is None:
        return None
    return {
        "id": _int(submission.id),
        "side": _str(submission.side),
        "via": _str(submission.via),
        "payload": submission.payload,
        "summary": submission.summary,
        "based_on_version": _int(submission.based_on_version),
        "created_at": _datetime(submission.created_at),
    }


def result_body(state: dict[str, Any], submission) -> dict[str, Any]:
    """``ResultOutputSerializer``: the match after a write, and the submission it stored."""
    return {"match": match_state_body(state), "submission": submission_body(submission)}


def _id_name(value: dict | None) -> dict | None:
    return None if value is None else {"id": _int(value["id"]), "name": _str(value["name"])}


def _player(player: dict) -> dict:
    return {
        "seat": _str(player["seat"]),
        "name": _str(player["name"]),
        "substitute_for": _str(player["substitute_for"]),
    }


def _pair(pair: dict | None) -> dict | None:
    if pair is None:
        return None
    return {
        "entry_id": _int(pair["entry_id"]),
        "name": _str(pair["name"]),
        "players": [_player(p) for p in pair["players"]],
    }


def _running(running: dict | None) -> dict | None:
    if running is None:
        return None
    return {
        "hands": list(running["hands"]),
        "state": running["state"],
        "last_hand": running["last_hand"],
        "penalty_games": _int(running["penalty_games"]),
    }


def table_body(view: dict[str, Any]) -> dict[str, Any]:
    """``TableDetailApi.OutputSerializer`` of selectors.results.table_view."""
    rnd = view["round"]
    return {
        "match": match_state_body(view["match"]),
        "tournament": _id_name(view["tournament"]),
        "phase": _id_name(view["phase"]),
        "round": None if rnd is None else {"id": _int(rnd["id"]), "number": _int(rnd["number"])},
        "table_number": _int(view["table_number"]),
        "bracket_key": _str(view["bracket_key"]),
        "pairs": {"a": _pair(view["pairs"]["a"]), "b": _pair(view["pairs"]["b"])},
        "first_mano": _str(view["first_mano"]),
        "first_mano_player": _str(view["first_mano_player"]),
        "rules": view["rules"],
        "late_penalties": [
            {
                "side": _str(p["side"]),
                "minutes_late": _int(p["minutes_late"]),
                "games_lost": _int(p["games_lost"]),
            }
            for p in view["late_penalties"]
        ],
        "submissions": [
            {
                "id": _int(s["id"]),
                "side": _str(s["side"]),
                "summary": s["summary"],
                "created_at": _datetime(s["created_at"]),
            }
            for s in view["submissions"]
        ],
        "running": _running(view["running"]),
    }
