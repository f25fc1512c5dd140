"""Time `tournaments.draw.pair_swiss` on round 7 of large Swiss phases and on the late rounds of
a large one, and measure how far its draws in late rounds of small fields, and the draws of
players alone (individual, Mus francés), are from the least possible; prints figures.

Run from the repository root: ``python benchmarks/draw.py`` (about two minutes; times are CPU
seconds of this process, so other work on the machine barely moves them).

1. Speed: for 64, 256, 1,024 and 4,096 entrants it plays six rounds with the pairer itself and
   random winners (seeded, so every run plays the same phase), then times the draw of round 7
   (best of several runs). It also checks that round 7 pairs everybody exactly once, with at
   most one bye and no rematch. Budget: under 75 ms at 1,024 entrants and under 1 s at 4,096.
2. Late rounds: 4,096 entrants seeded 1–4,096 play 16 rounds the same way; it prints the
   slowest of rounds 1–11 and each of rounds 12–16 (best of three). After fifteen rounds the
   top score groups hold a handful of entrants who have met.
3. Optimality: for fields of 16 to 65 entrants it plays 6 to 20 rounds the same way and, for
   each drawn round from the sixth on, compares the draw's cost — rematches, the widest
   pairing, the pairings that wide, the total score difference (the bye counted as a pairing
   with the lowest score) — with the least possible, found by exact minimum-cost matchings of
   the whole field (networkx, Edmonds), independent of the pairer's own decomposition. It
   prints the totals over those rounds, how many draws are above the least (0 for an optimal
   pairer), and the slowest draw of these rounds.
4. Players alone: the individual draw (tournaments.draw.individual) of round 7 for 64, 256 and
   1,024 players, with how many partners and opponents meet again, and a Mus francés round;
   then small fields played over many rounds (the standings following random results), each
   draw compared with the least an integer program over every possible table finds (scipy's
   milp): how many draws are above the least (0: none), how many the draw proves least (and
   so says "no draw has fewer"), and the slowest draw.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csc_matrix

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw import Entrant, Result, pair_swiss, records  # noqa: E402  (path above)
from tournaments.draw.individual import (  # noqa: E402
    PastTable,
    frances_table_sizes,
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
            start = time.process_time()
            pairings = pair_swiss(entrants, history, rng=size)
            times.append(time.process_time() - start)
        times.sort()
        budget = BUDGET.get(size)
        verdict = "" if budget is None else ("within" if times[0] < budget else "OVER")
        print(
            f"{size:>8}  {times[0]:>9.4f}  {times[len(times) // 2]:>10.4f}  "
            f"{verdict:>7}  {check(entrants, history, pairings)}"
        )


LATE_SIZE = 4096
LATE_ROUNDS = 16
LATE_SEED = 2


def late_rounds() -> None:
    print()
    print(f"Swiss late rounds: {LATE_SIZE} entrants seeded 1-{LATE_SIZE}, random winners")
    rng = random.Random(LATE_SEED)
    entrants = [Entrant(i, seed=i) for i in range(1, LATE_SIZE + 1)]
    history: list[Result] = []
    early, rows = 0.0, []
    for rnd in range(1, LATE_ROUNDS + 1):
        times = []
        for _ in range(3 if rnd > 11 else 1):
            start = time.process_time()
            pairings = pair_swiss(entrants, history, rng=LATE_SEED)
            times.append(time.process_time() - start)
        if rnd > 11:
            rows.append(f"round {rnd}: {min(times):.3f} s ({check(entrants, history, pairings)})")
        else:
            early = max(early, min(times))
        for p in pairings:
            winner = p.a_id if p.b_id is None else rng.choice((p.a_id, p.b_id))
            history.append(Result(rnd, p.a_id, p.b_id, winner))
    print(f"  slowest of rounds 1-11: {early:.3f} s")
    for row in rows:
        print(f"  {row}")


def cost(entrants, history, pairs, bye) -> tuple[int, int, int, int]:
    """(rematches, widest pairing, pairings that wide, total score difference) of a draw, the
    bye as a pairing with the lowest score."""
    recs = records(entrants, history)
    low = min(r.wins for r in recs.values())
    rematches = sum(b in recs[a].opponents for a, b in pairs)
    gaps = [abs(recs[a].wins - recs[b].wins) for a, b in pairs]
    if bye is not None:
        gaps.append(recs[bye].wins - low)
    widest = max(gaps, default=0)
    return rematches, widest, gaps.count(widest), sum(gaps)


def least(entrants, history) -> tuple[int, int, int, int]:
    """The least cost of any draw (the bye to an entrant with the fewest byes), by exact
    minimum-cost matchings of the whole field: the fewest rematches; the least cap on the gap
    at which a draw has that few; under it, the fewest pairings at the cap, the least total."""
    recs = records(entrants, history)
    ids = [e.id for e in entrants]
    vertices = [*ids, "bye"] if len(ids) % 2 else ids
    fewest = min(r.byes for r in recs.values())
    low = min(r.wins for r in recs.values())

    def gap(a, b):
        return recs[a].wins - low if b == "bye" else abs(recs[a].wins - recs[b].wins)

    def best(price):
        graph = nx.Graph()
        for a, b in itertools.combinations(vertices, 2):
            if b == "bye" and recs[a].byes != fewest:
                continue
            c = price(a, b)
            if c is not None:
                graph.add_edge(a, b, weight=10**12 - c)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(vertices):
            return None
        pairs = [(a, b) for a, b in matching if "bye" not in (a, b)]
        bye = next((a if b == "bye" else b for a, b in matching if "bye" in (a, b)), None)
        return cost(entrants, history, pairs, bye)

    def rematch(a, b):
        return int(b != "bye" and b in recs[a].opponents)

    fewest_rematches = best(rematch)[0]
    unit = len(vertices) * (max(r.wins for r in recs.values()) - low + 1)
    for cap in sorted({gap(a, b) for a, b in itertools.combinations(vertices, 2)}):
        found = best(
            lambda a, b, cap=cap: (
                None
                if gap(a, b) > cap
                else (rematch(a, b) * (len(vertices) + 1) + (gap(a, b) == cap)) * unit + gap(a, b)
            )
        )
        if found is not None and found[0] == fewest_rematches:
            return found
    raise AssertionError("unreachable: the widest cap allows every draw")


def optimality() -> None:
    print()
    print(
        f"Late rounds of small fields: every draw from round {FROM_ROUND} on v the least possible"
        " (totals over those rounds)"
    )
    print(
        f"{'entrants':>8}  {'rounds':>6}  {'rematches':>9}  {'least':>5}  {'widest':>6}  "
        f"{'least':>5}  {'that wide':>9}  {'least':>5}  {'score diff':>10}  {'least':>5}  "
        f"{'above':>9}  {'slowest (s)':>11}"
    )
    for size, rounds in SMALL_FIELDS:
        rng = random.Random(size)
        entrants = [Entrant(i, seed=i) for i in range(1, size + 1)]
        history: list[Result] = []
        got = [0, 0, 0, 0]
        best = [0, 0, 0, 0]
        above = draws = 0
        slowest = 0.0
        for rnd in range(1, rounds + 1):
            start = time.process_time()
            pairings = pair_swiss(entrants, history, rng=size)
            took = time.process_time() - start
            if rnd >= FROM_ROUND:
                slowest = max(slowest, took)
                pairs = [(p.a_id, p.b_id) for p in pairings if not p.is_bye]
                bye = next((p.a_id for p in pairings if p.is_bye), None)
                mine, low = cost(entrants, history, pairs, bye), least(entrants, history)
                draws += 1
                above += mine != low
                for k in range(4):
                    got[k] += mine[k]
                    best[k] += low[k]
            for p in pairings:
                winner = p.a_id if p.b_id is None else rng.choice((p.a_id, p.b_id))
                history.append(Result(rnd, p.a_id, p.b_id, winner))
        print(
            f"{size:>8}  {rounds:>6}  {got[0]:>9}  {best[0]:>5}  {got[1]:>6}  {best[1]:>5}  "
            f"{got[2]:>9}  {best[2]:>5}  {got[3]:>10}  {best[3]:>5}  "
            f"{f'{above} of {draws}':>9}  {slowest:>11.3f}"
        )


INDIVIDUAL_SIZES = (64, 256, 1024)
INDIVIDUAL_ROUNDS = 6


def individuals() -> None:
    """An individual tournament's draw (tournaments.draw.individual): round 7 after six rounds
    drawn by the pairer itself, players in a fixed standings order (the hardest for repeats:
    the same neighbours each round), and a Mus francés round of tables of four after them;
    then round 7 of Mus francés at tables of six, drawn the same way."""
    print()
    print(f"Individual round {INDIVIDUAL_ROUNDS + 1} and a Mus francés round (tables of 4)")
    print(
        f"{'players':>8}  {'individual (s)':>14}  {'partners again':>14}  "
        f"{'opponents again':>15}  {'francés (s)':>11}  {'met again':>9}  "
        f"{'francés of 6, round 7 (s)':>25}  {'met again':>9}"
    )
    for size in INDIVIDUAL_SIZES:
        players = list(range(1, size + 1))
        past: list[PastTable] = []
        for rnd in range(1, INDIVIDUAL_ROUNDS + 1):
            drawn = pair_individuals(players, past, rng=rnd, standings=players)
            past += [PastTable(t.a, t.b) for t in drawn.tables]
        start = time.process_time()
        drawn = pair_individuals(players, past, rng=7, standings=players)
        took = time.process_time() - start
        tables = [PastTable(t.a + t.b) for t in drawn.tables]
        start = time.process_time()
        seated = seat_frances(players, tables, size=4, rng=7, standings=players)
        frances = time.process_time() - start
        sixes: list[PastTable] = []
        for rnd in range(1, INDIVIDUAL_ROUNDS + 1):
            six = seat_frances(players, sixes, size=6, rng=rnd, standings=players)
            sixes += [PastTable(t.a) for t in six.tables]
        start = time.process_time()
        six = seat_frances(players, sixes, size=6, rng=7, standings=players)
        of_six = time.process_time() - start
        print(
            f"{size:>8}  {took:>14.3f}  {drawn.partner_repeats:>14}  "
            f"{drawn.opponent_repeats:>15}  {frances:>11.3f}  {seated.partner_repeats:>9}  "
            f"{of_six:>25.3f}  {six.partner_repeats:>9}"
        )


#: (players, rounds, seeds) of individual fields, and (players, table size, rounds, seeds) of
#: Mus francés ones, played over many rounds and compared with the integer program
ALONE_INDIVIDUAL = ((16, 14, 3), (20, 12, 2), (24, 10, 1))
ALONE_FRANCES = ((15, 3, 8, 2), (20, 4, 8, 2), (14, 4, 8, 2), (15, 5, 6, 2))


def least_partition(players, groups, costs, sizes) -> int:
    """The least total cost of seating ``players`` at some of ``groups``, each once, with as
    many groups of each size as ``sizes`` says: scipy's integer programming (HiGHS)."""
    index = {p: k for k, p in enumerate(players)}
    rows = [index[p] for g in groups for p in g]
    cols = [j for j, g in enumerate(groups) for _ in g]
    seat = csc_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(players), len(groups)))
    order = sorted(sizes)
    count = csc_matrix(
        (np.ones(len(groups)), ([order.index(len(g)) for g in groups], range(len(groups)))),
        shape=(len(order), len(groups)),
    )
    wanted = np.array([sizes[s] for s in order], dtype=float)
    result = milp(
        np.array(costs, dtype=float),
        constraints=[LinearConstraint(seat, 1, 1), LinearConstraint(count, wanted, wanted)],
        integrality=np.ones(len(groups)),
        bounds=Bounds(0, 1),
    )
    assert result.success, result.message
    return round(result.fun)


def met_before(past):
    partners, opponents = Counter(), Counter()
    for t in past:
        for side in (t.a, t.b):
            for x, y in itertools.combinations(sorted(side), 2):
                partners[x, y] += 1
        for x in t.a:
            for y in t.b:
                opponents[min(x, y), max(x, y)] += 1
    return partners, opponents


def least_individual(players, past) -> tuple[int, int]:
    partners, opponents = met_before(past)
    unit = 4 * len(players) * (max(opponents.values(), default=0) + 1)
    groups, costs = [], []
    for g in itertools.combinations(players, 4):
        w, x, y, z = g
        groups.append(g)
        costs.append(
            min(
                unit * (partners[a] + partners[b])
                + sum(opponents[min(u, v), max(u, v)] for u in a for v in b)
                for a, b in (((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y)))
            )
        )
    return divmod(least_partition(players, groups, costs, Counter([4] * (len(players) // 4))), unit)


def least_frances(players, past, sizes) -> int:
    met, _ = met_before(past)
    groups, costs = [], []
    for size in sorted(set(sizes)):
        for g in itertools.combinations(players, size):
            groups.append(g)
            costs.append(sum(met[x, y] for x, y in itertools.combinations(g, 2)))
    return least_partition(players, groups, costs, Counter(sizes))


def alone_optimality() -> None:
    print()
    print("Players alone over many rounds v the least an integer program finds")
    print(
        f"{'draw':>10}  {'players':>7}  {'rounds':>6}  {'draws':>5}  {'above':>5}  "
        f"{'proved':>6}  {'slowest (s)':>11}"
    )
    for kind, n, size, rounds, seeds in [
        *(("individual", n, 4, r, s) for n, r, s in ALONE_INDIVIDUAL),
        *(("francés", n, size, r, s) for n, size, r, s in ALONE_FRANCES),
    ]:
        draws = above = proved = 0
        slowest = 0.0
        players = list(range(1, n + 1))
        for seed in range(seeds):
            rng = random.Random(seed)
            past: list[PastTable] = []
            points: Counter[int] = Counter()
            for rnd in range(1, rounds + 1):
                standings = sorted(players, key=lambda p: (-points[p], p))
                start = time.process_time()
                if kind == "individual":
                    drawn = pair_individuals(players, past, rng=rnd, standings=standings)
                    took = time.process_time() - start
                    mine = (drawn.partner_repeats, drawn.opponent_repeats)
                    low = least_individual(players, past)
                    new = [PastTable(t.a, t.b) for t in drawn.tables]
                    winners = [t.a if rng.random() < 0.5 else t.b for t in drawn.tables]
                else:
                    drawn = seat_frances(players, past, size=size, rng=rnd, standings=standings)
                    took = time.process_time() - start
                    mine = drawn.partner_repeats
                    low = least_frances(players, past, frances_table_sizes(n, size))
                    new = [PastTable(t.a) for t in drawn.tables]
                    winners = [rng.sample(t.a, len(t.a))[: len(t.a) // 2] for t in drawn.tables]
                draws += 1
                above += mine != low
                proved += drawn.partners_proved and drawn.opponents_proved
                slowest = max(slowest, took)
                past += new
                for group in winners:
                    for p in group:
                        points[p] += 1
        label = kind if kind == "individual" else f"francés {size}"
        print(
            f"{label:>10}  {n:>7}  {rounds:>6}  {draws:>5}  {above:>5}  {proved:>6}  "
            f"{slowest:>11.3f}"
        )


def main() -> None:
    speed()
    late_rounds()
    optimality()
    individuals()
    alone_optimality()


if __name__ == "__main__":
    main()
