"""The examples in docs/scoring-json.md are what the engine really answers."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scoring.__main__ import main

# every test here runs with the C speed-up and in plain Python (tests/scoring/conftest.py)
pytestmark = pytest.mark.usefixtures("engine_path")

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring-json.md"
PAIRS = re.findall(
    r"```json request\n(.*?)\n```.*?Exit code (\d):\n\n```json response\n(.*?)\n```",
    DOC.read_text(encoding="utf-8"),
    re.S,
)


def test_the_doc_has_examples():
    assert len(PAIRS) >= 5


@pytest.mark.parametrize(("request_text", "code", "response"), PAIRS)
def test_documented_example(request_text, code, response):
    out = io.StringIO()
    assert main(io.StringIO(request_text), out) == int(code)
    assert json.loads(out.getvalue()) == json.loads(response)
