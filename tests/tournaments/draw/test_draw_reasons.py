"""Reason codes are documented and render; the draw package stays free of Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tournaments.draw
from tournaments.draw import REASON_TEXT, Pairing, Reason
from tournaments.draw import reasons as reasons_module

DRAW_DIR = Path(tournaments.draw.__file__).parent
REPO_ROOT = DRAW_DIR.parent.parent


def codes_used_in_source():
    """Every string that can be the code of a ``Reason(...)`` call in the draw package."""
    used = set()
    for path in DRAW_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Reason":
                used |= {
                    leaf.value
                    for leaf in ast.walk(node.args[0])
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str)
                }
    return used


def test_every_code_is_documented_and_every_used_code_exists():
    doc = reasons_module.__doc__
    for code in REASON_TEXT:
        assert f"``{code}``" in doc, code
    used = codes_used_in_source()
    assert used <= set(REASON_TEXT)
    assert set(REASON_TEXT) <= used  # and every catalogued code is produced somewhere


def test_reasons_render_and_compare_by_value():
    reason = Reason("same_score", {"score": "3–1"})
    assert reason.describe() == "same record 3–1"
    assert reason == Reason("same_score", {"score": "3–1"})
    assert len({reason, Reason("same_score", {"score": "3–1"})}) == 1
    pairing = Pairing(1, 7, 9, (reason, Reason("not_met_before"), Reason("avoids_second_bye")))
    assert pairing.describe() == "same record 3–1, not met before, avoids a second bye"
    with pytest.raises(ValueError):
        Reason("made_up")
    with pytest.raises(TypeError):
        reason.params["score"] = "0–0"


def test_draw_imports_no_django():
    code = (
        "import sys\n"
        "import tournaments.draw\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO_ROOT)


def test_draw_reads_no_clock_and_no_global_randomness():
    for path in DRAW_DIR.glob("*.py"):
        modules = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                modules.add((node.module or "").split(".")[0])
        assert not modules & {"time", "datetime", "django"}, path
        source = path.read_text()
        for forbidden in ("random.random(", "random.shuffle(", "random.choice(", "np.random"):
            assert forbidden not in source, (path, forbidden)
