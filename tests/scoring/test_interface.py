"""The engine's outer edges: it imports no Django, and ``python -m scoring`` speaks JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# every test here runs with the C speed-up and in plain Python (tests/scoring/conftest.py)
pytestmark = pytest.mark.usefixtures("engine_path")

ROOT = Path(__file__).resolve().parents[2]


#: the messages are in English unless a test asks otherwise, whatever the machine's locale
_ENGLISH = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def _run(*args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, **_ENGLISH, **env},
    )


def test_scoring_imports_no_django():
    code = (
        "import sys, scoring, scoring.__main__, scoring.standings\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = _run("-c", code)
    assert result.returncode == 0, result.stdout + result.stderr


HAND = {
    "rules": {"kings": 8, "stones_per_game": 40},
    "hand": {
        "cards": ["Ro Rc Cc 1b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"],
        "bets": {"grande": ["envido", "quiero"], "chica": ["paso", "envido", "no quiero"]},
    },
}


def test_cli_scores_a_hand():
    result = _run("-m", "scoring", stdin=json.dumps(HAND))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)["hand"]
    assert out["stones"] == {"mano": 2 + 2 + 3, "postre": 1}
    assert out["events"][0] == {"lance": "chica", "pair": "postre", "stones": 1, "kind": "deje"}
    assert out["lances"][0]["reason"] == "R-R-C-1 beats S-S-7-6"


def test_cli_scores_a_match_hand_by_hand():
    rules = {"stones_per_game": 10, "games_per_vaca": 1}
    hand = {"cards": HAND["hand"]["cards"], "bets": {"grande": ["envido 10", "quiero"]}}
    request = {"rules": rules, "first_mano": "A1", "hands": [hand]}
    result = _run("-m", "scoring", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["match"]["finished"] and out["match"]["winner"] == "A"
    assert out["hands"][0]["game_ended"] and out["hands"][0]["stones"] == {"A": 10, "B": 0}


def test_cli_quick_entry():
    request = {
        "rules": {"games_per_vaca": 2},
        "games": [{"stones": [40, 3]}, {"stones": {"A": 12, "B": 40}}, {"winner": "A"}],
        "complete": True,
    }
    result = _run("-m", "scoring", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["match"]["winner"] == "A"


@pytest.mark.parametrize(
    ("stdin", "code", "words"),
    [
        ("{not json", "json", "not valid JSON"),
        (
            json.dumps(
                {"hand": {"cards": ["Ro Rc Cc 8b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]}}
            ),
            "no_8_9",
            "without 8s and 9s",
        ),
        (json.dumps({"games": [{"stones": [40, 40]}]}), "both_at_target", "both pairs"),
        (json.dumps([1, 2]), "not_object", "JSON object"),
    ],
)
def test_cli_errors_exit_2_with_json(stdin, code, words):
    result = _run("-m", "scoring", stdin=stdin)
    assert result.returncode == 2
    error = json.loads(result.stdout)
    assert error["code"] == code and words in error["message"]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        pytest.param(("--lang", "es"), {}, id="--lang"),
        pytest.param((), {"LANG": "es_ES.UTF-8"}, id="LANG"),
    ],
)
def test_cli_errors_in_spanish(args, env):
    request = {"hand": {"cards": ["Ro Rc Cc 8b", "So Sc 7e 6b", "Co Ce 5o 4c", "1o 1c 4e 5b"]}}
    result = _run("-m", "scoring", *args, stdin=json.dumps(request), **env)
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stdout)
    assert error["code"] == "no_8_9" and error["params"]["card"] == "8b"
    assert error["message"] == (
        "Cartas para el jugador mano: «8b» no está en la baraja española: al mus se juega sin "
        "ochos ni nueves."
    )


def test_each_engine_path_runs_as_named(engine_path) -> None:
    """The "python" variant of these tests really runs without the C speed-up."""
    from scoring import jsonio
    from scoring.hand import score, values

    uses_c = score._situations is not None
    assert uses_c == (engine_path == "c")
    assert (values._c_hand_values is not None) == uses_c
    assert (jsonio._c_bets_key is not None) == uses_c
