"""Time `scoring.standings.standings` on generated Swiss phases; prints figures, asserts nothing.

Run from the repository root: ``python benchmarks/standings.py``. The budget is well under
300 ms for 1,024 pairs over 9 rounds (4,608 matches) with every tiebreak in the order.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.standings import (  # noqa: E402  (needs the path above)
    Entry,
    MatchKind,
    MatchRecord,
    Tiebreak,
    standings,
)

ORDER = (
    Tiebreak.MATCHES_WON,
    Tiebreak.BUCHHOLZ,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.GAME_DIFFERENCE,
    Tiebreak.STONE_DIFFERENCE,
    Tiebreak.STONES_WON,
    Tiebreak.GAMES_WON,
    Tiebreak.LOTS,
)
RUNS = 9


def swiss(pairs: int, rounds: int, seed: int) -> tuple[tuple[Entry, ...], list[MatchRecord]]:
    """A Swiss phase: each round pairs neighbours by matches won, best of three juegos to 40."""
    rng = random.Random(seed)
    entries = tuple(Entry(pair=p, seed=p if p <= pairs // 4 else None) for p in range(1, pairs + 1))
    wins = dict.fromkeys(range(1, pairs + 1), 0)
    matches: list[MatchRecord] = []
    for _ in range(rounds):
        ladder = sorted(wins, key=lambda p: (-wins[p], rng.random()))
        for a, b in zip(ladder[::2], ladder[1::2], strict=True):
            winner = a if rng.random() < 0.5 else b
            if rng.random() < 0.02:
                matches.append(MatchRecord(a, b, winner, *_full(a, winner), MatchKind.FORFEIT))
            else:
                loser_games = rng.randint(0, 1)
                loser_stones = 40 * loser_games + sum(rng.randint(0, 39) for _ in range(2))
                if winner == a:
                    score = (2, loser_games, 80, loser_stones)
                else:
                    score = (loser_games, 2, loser_stones, 80)
                matches.append(MatchRecord(a, b, winner, *score))
            wins[winner] += 1
    return entries, matches


def _full(a: int, winner: int) -> tuple[int, int, int, int]:
    return (2, 0, 80, 0) if winner == a else (0, 2, 0, 80)


def main() -> None:
    print(f"standings(), median of {RUNS} runs, order: {', '.join(t.value for t in ORDER)}")
    for pairs, rounds in ((64, 6), (256, 8), (1024, 9)):
        entries, matches = swiss(pairs, rounds, seed=20_240_601 + pairs)
        timings = []
        for _ in range(RUNS):
            started = time.perf_counter()
            standings(entries, matches, ORDER)
            timings.append(time.perf_counter() - started)
        print(
            f"{pairs:>5} pairs {rounds:>2} rounds {len(matches):>5} matches: "
            f"{statistics.median(timings) * 1000:7.2f} ms (min {min(timings) * 1000:.2f})"
        )


if __name__ == "__main__":
    main()
