"""Reason codes are documented and render; the draw package stays free of Django."""

from __future__ import annotations

import ast
import gettext
import subprocess
import sys
from pathlib import Path

import pytest

import tournaments.draw
from scoring.messages import placeholders
from tournaments.draw import REASON_TEXT, Pairing, Reason
from tournaments.draw import reasons as reasons_module
from tournaments.draw.reasons import render_reason

DRAW_DIR = Path(tournaments.draw.__file__).parent
REPO_ROOT = DRAW_DIR.parent.parent
#: the project's catalog of the errors domain, where the reasons' texts are translated too
SPANISH = REPO_ROOT / "locale" / "es" / "LC_MESSAGES" / "errors.mo"


def spanish() -> gettext.GNUTranslations:
    with SPANISH.open("rb") as handle:
        return gettext.GNUTranslations(handle)


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


def test_every_reason_has_a_spanish_text_with_the_same_blanks():
    catalog = spanish()
    for code, text in REASON_TEXT.items():
        forms = text if isinstance(text, tuple) else (text,)
        for n, english in enumerate(forms):
            translated = (
                catalog.ngettext(text[0], text[1], n + 1 if n else 1)
                if isinstance(text, tuple)
                else catalog.gettext(text)
            )
            assert translated != english, f"{code}: no Spanish for {english!r}"
            assert placeholders(translated) == placeholders(english), code


def test_reasons_read_in_spanish_singular_and_plural():
    catalog = spanish()
    assert Reason("same_score", {"score": "3–1"}).describe(catalog) == "mismo balance 3–1"
    once = Reason("rematch_unavoidable", {"times": 1})
    twice = Reason("rematch_unavoidable", {"times": 2})
    assert once.describe() == "rematch (met 1 time before): no pairing without one exists"
    assert twice.describe() == "rematch (met 2 times before): no pairing without one exists"
    assert once.describe(catalog).startswith("revancha (ya se enfrentaron 1 vez)")
    assert twice.describe(catalog).startswith("revancha (ya se enfrentaron 2 veces)")
    assert Reason("every_entrant_had_bye", {"byes": 2}).describe(catalog) == (
        "todas las parejas han descansado ya 2 veces"
    )


def test_a_reason_without_the_params_its_text_needs_is_shown_by_its_code():
    text = REASON_TEXT["same_score"]
    assert render_reason("same_score", {}, text) == "same_score"
    assert render_reason("rematch_unavoidable", {}, REASON_TEXT["rematch_unavoidable"]) == (
        "rematch_unavoidable"
    )


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
        assert not modules & {"time", "django"}, path
        source = path.read_text()
        if "datetime" in modules:  # dates to compute with (a calendar), never the clock
            for clock in (".now(", ".today(", ".utcnow(", ".localtime(", ".localdate("):
                assert clock not in source, (path, clock)
        for forbidden in ("random.random(", "random.shuffle(", "random.choice(", "np.random"):
            assert forbidden not in source, (path, forbidden)
