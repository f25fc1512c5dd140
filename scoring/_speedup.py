"""The optional C speed-up of the engine's innermost loops: the module, or None.

Responsible for: finding scoring._cards (scoring/_cards.c, compiled by the project's install
where a C compiler is found; pyproject.toml marks it optional) and honouring
SCORING_PURE_PYTHON=1, which keeps the engine in Python even where it is built.

Must not: hold a rule. The C only does what cards.py, hand/ and jsonio.py also do in Python,
for the plain common case, and hands anything else back; the results are the same either way
(tests/scoring runs both).

Terms: none of the game's; see cards.py and hand/.
"""

from __future__ import annotations

import os
from types import ModuleType


def load() -> ModuleType | None:
    if os.environ.get("SCORING_PURE_PYTHON") == "1":
        return None
    try:
        from scoring import _cards
    except ImportError:  # not built: no C compiler at install time
        return None
    return _cards
