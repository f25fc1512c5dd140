"""Time `tournaments.draw.pair_swiss` on round 7 of large Swiss phases; prints figures.

Run from the repository root: ``python benchmarks/draw.py``. For 64, 256, 1,024 and 4,096
entrants it plays six rounds with the pairer itself and random winners (seeded, so every run
plays the same phase), then times the draw of round 7 (best of several runs). It also checks
that round 7 pairs everybody exactly once, with at most one bye and no rematch. Budget: under
0.1 s at 1,024 entrants and under 1 s at 4,096.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw import Entrant, Result, pair_swiss  # noqa: E402  (needs the path above)

SIZES = (64, 256, 1024, 4096)
BUDGET = {1024: 0.1, 4096: 1.0}
ROUNDS_PLAYED = 6
RUNS = 5


def phase(size: int, seed: int) -> tuple[list[Entrant], list[Result]]:
    """``size`` entrants (a third seeded, a few clubs) after six rounds of random results."""
    rng = random.Random(seed)
    entrants = [
        Entrant(i, seed=i if i <= size // 3 else None, club=f"peña {rng.randrange(size // 8)}")
        for i in range(1, size + 1)
    ]
    history: list[Result] = []
    for rnd in range(1, ROUNDS_PLAYED + 1):
        for p in pair_swiss(entrants, history, rng=seed, separate_clubs_rounds=1):
            winner = p.a_id if p.b_id is None else rng.choice((p.a_id, p.b_id))
            history.append(Result(rnd, p.a_id, p.b_id, winner))
    return entrants, history


def check(entrants: list[Entrant], history: list[Result], pairings) -> str:
    met = {frozenset((r.a_id, r.b_id)) for r in history if r.b_id is not None}
    seen = [i for p in pairings for i in p.entrant_ids]
    problems = []
    if sorted(seen) != sorted(e.id for e in entrants):
        problems.append("not everybody paired exactly once")
    if sum(p.is_bye for p in pairings) > 1:
        problems.append("more than one bye")
    rematches = sum(1 for p in pairings if p.b_id is not None and {p.a_id, p.b_id} in met)
    if rematches:
        problems.append(f"{rematches} rematch(es)")
    return "; ".join(problems) or "ok"


def main() -> None:
    print(f"Swiss round {ROUNDS_PLAYED + 1} after {ROUNDS_PLAYED} rounds of random results")
    print(f"{'entrants':>8}  {'best (s)':>9}  {'median (s)':>10}  {'budget':>7}  checks")
    for size in SIZES:
        entrants, history = phase(size, seed=size)
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            pairings = pair_swiss(entrants, history, rng=size)
            times.append(time.perf_counter() - start)
        times.sort()
        budget = BUDGET.get(size)
        verdict = "" if budget is None else ("within" if times[0] < budget else "OVER")
        print(
            f"{size:>8}  {times[0]:>9.4f}  {times[len(times) // 2]:>10.4f}  "
            f"{verdict:>7}  {check(entrants, history, pairings)}"
        )


if __name__ == "__main__":
    main()
