"""The engine's two ways of running: with its optional C speed-up and in plain Python.

A module that scores hands marks itself ``pytest.mark.usefixtures("engine_path")`` and each of
its tests then runs twice: once as the engine is installed (with scoring/_cards.c where it was
built) and once with the C switched off, which is how it runs on a machine without a C
compiler. Both must give the same answers and the same errors. The C variant is skipped where
the extension is not built, except under CI=true, where tests/scoring/test_cards_speedup.py
fails instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import jsonio
from scoring.hand import C_SPEEDUP, score, values


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine_path" in metafunc.fixturenames:
        metafunc.parametrize("engine_path", ["c", "python"], indirect=True)


@pytest.fixture(scope="module")  # not per test: hypothesis refuses function-scoped fixtures
def engine_path(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "c" and not C_SPEEDUP:
        pytest.skip("the C speed-up is not built here")
    if request.param == "c":
        yield "c"
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(values, "_c_hand_values", None)
        patch.setattr(score, "_situations", None)
        patch.setattr(jsonio, "_c_bets_key", None)
        patch.setenv("SCORING_PURE_PYTHON", "1")  # for `python -m scoring` subprocesses
        yield "python"
