"""Time `tournaments.draw.pair_swiss` on round 7 of large Swiss phases, and measure how far
its draws in late rounds of small fields are from the least possible; prints figures.

Run from the repository root: ``python benchmarks/draw.py``.

1. Speed: for 64, 256, 1,024 and 4,096 entrants it plays six rounds with the pairer itself and
   random winners (seeded, so every run plays the same phase), then times the draw of round 7
   (best of several runs). It also checks that round 7 pairs everybody exactly once, with at
   most one bye and no rematch. Budget: under 75 ms at 1,024 entrants and under 1 s at 4,096.
2. Optimality: for fields of 16 to 65 entrants it plays 6 to 20 rounds the same way and, for
   each drawn round from the sixth on, compares the draw's cost — rematches, then the total
   score difference (the bye counted as a pairing with the lowest score) — with the least
   possible, found by one exact minimum-cost matching of the whole field (networkx, Edmonds),
   independent of the pairer's own decomposition. It prints the totals and the excess in per
   cent (0 % for an optimal pairer), and the slowest draw of these rounds.
3. Players alone: the individual draw (tournaments.draw.individual) of round 7 for 64, 256 and
   1,024 players, with how many partners and opponents meet again, and a Mus francés round.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw import Entrant, Result, pair_swiss, records  # noqa: E402  (path above)
from tournaments.draw.individual import (  # noqa: E402
    PastTable,
    pair_individuals,
    seat_frances,
)

SIZES = (64, 256, 1024, 4096)
BUDGET = {1024: 0.075, 4096: 1.0}
ROUNDS_PLAYED = 6
RUNS = 5
SMALL_FIELDS = ((16, 12), (17, 12), (24, 15), (32, 15), (33, 20), (48, 20), (64, 20), (65, 20))
FROM_ROUND = 6


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


def speed() -> None:
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


def cost(entrants, history, pairs, bye) -> tuple[int, int]:
    """(rematches, total score difference) of a draw, the bye as a pairing with the lowest."""
    recs = records(entrants, history)
    low = min(r.wins for r in recs.values())
    rematches = sum(b in recs[a].opponents for a, b in pairs)
    difference = sum(abs(recs[a].wins - recs[b].wins) for a, b in pairs)
    return rematches, difference + (0 if bye is None else recs[bye].wins - low)


def least(entrants, history) -> tuple[int, int]:
    """The least cost of any draw (the bye to an entrant with the fewest byes): one exact
    minimum-cost perfect matching of the whole field."""
    recs = records(entrants, history)
    ids = [e.id for e in entrants]
    vertices = [*ids, "bye"] if len(ids) % 2 else ids
    fewest = min(r.byes for r in recs.values())
    low = min(r.wins for r in recs.values())
    unit = len(ids) * (max(r.wins for r in recs.values()) - low + 1)
    graph = nx.Graph()
    for a, b in itertools.combinations(vertices, 2):
        if b == "bye":
            if recs[a].byes == fewest:
                graph.add_edge(a, b, weight=10**9 - (recs[a].wins - low))
            continue
        c = unit * (b in recs[a].opponents) + abs(recs[a].wins - recs[b].wins)
        graph.add_edge(a, b, weight=10**9 - c)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [(a, b) for a, b in matching if "bye" not in (a, b)]
    bye = next((a if b == "bye" else b for a, b in matching if "bye" in (a, b)), None)
    return cost(entrants, history, pairs, bye)


def optimality() -> None:
    print()
    print(
        f"Late rounds of small fields: every draw from round {FROM_ROUND} on v the least possible"
    )
    print(
        f"{'entrants':>8}  {'rounds':>6}  {'rematches':>9}  {'least':>5}  "
        f"{'score diff':>10}  {'least':>5}  {'excess':>6}  {'slowest (s)':>11}"
    )
    for size, rounds in SMALL_FIELDS:
        rng = random.Random(size)
        entrants = [Entrant(i, seed=i) for i in range(1, size + 1)]
        history: list[Result] = []
        got = [0, 0]
        best = [0, 0]
        slowest = 0.0
        for rnd in range(1, rounds + 1):
            start = time.perf_counter()
            pairings = pair_swiss(entrants, history, rng=size)
            took = time.perf_counter() - start
            if rnd >= FROM_ROUND:
                slowest = max(slowest, took)
                pairs = [(p.a_id, p.b_id) for p in pairings if not p.is_bye]
                bye = next((p.a_id for p in pairings if p.is_bye), None)
                for k, (mine, low) in enumerate(
                    zip(cost(entrants, history, pairs, bye), least(entrants, history), strict=True)
                ):
                    got[k] += mine
                    best[k] += low
            for p in pairings:
                winner = p.a_id if p.b_id is None else rng.choice((p.a_id, p.b_id))
                history.append(Result(rnd, p.a_id, p.b_id, winner))
        excess = 100 * (got[1] - best[1]) / best[1] if best[1] else 0.0
        print(
            f"{size:>8}  {rounds:>6}  {got[0]:>9}  {best[0]:>5}  {got[1]:>10}  {best[1]:>5}  "
            f"{excess:>5.1f}%  {slowest:>11.3f}"
        )


INDIVIDUAL_SIZES = (64, 256, 1024)
INDIVIDUAL_ROUNDS = 6


def individuals() -> None:
    """An individual tournament's draw (tournaments.draw.individual): round 7 after six rounds
    drawn by the pairer itself, players in a fixed standings order (the hardest for repeats:
    the same neighbours each round), and a Mus francés round of tables of four after them."""
    print()
    print(f"Individual round {INDIVIDUAL_ROUNDS + 1} and a Mus francés round (tables of 4)")
    print(
        f"{'players':>8}  {'individual (s)':>14}  {'partners again':>14}  "
        f"{'opponents again':>15}  {'francés (s)':>11}  {'met again':>9}"
    )
    for size in INDIVIDUAL_SIZES:
        players = list(range(1, size + 1))
        past: list[PastTable] = []
        for rnd in range(1, INDIVIDUAL_ROUNDS + 1):
            drawn = pair_individuals(players, past, rng=rnd, standings=players)
            past += [PastTable(t.a, t.b) for t in drawn.tables]
        start = time.perf_counter()
        drawn = pair_individuals(players, past, rng=7, standings=players)
        took = time.perf_counter() - start
        tables = [PastTable(t.a + t.b) for t in drawn.tables]
        start = time.perf_counter()
        seated = seat_frances(players, tables, size=4, rng=7, standings=players)
        frances = time.perf_counter() - start
        print(
            f"{size:>8}  {took:>14.3f}  {drawn.partner_repeats:>14}  "
            f"{drawn.opponent_repeats:>15}  {frances:>11.3f}  {seated.partner_repeats:>9}"
        )


def main() -> None:
    speed()
    optimality()
    individuals()


if __name__ == "__main__":
    main()
