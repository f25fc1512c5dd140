"""Matching primitives for the pairing algorithms: cheapest assignment and general matching.

Responsible for:

- `cheapest_assignment`: the minimum-cost assignment of the rows of a cost matrix to distinct
  columns (``scipy.optimize.linear_sum_assignment``);
- `maximum_matching`: a maximum-cardinality matching in a general (non-bipartite) graph by
  Edmonds' blossom algorithm, grown from a given matching and trying vertices in a given
  priority order. A pairer uses it when splitting a group into two halves cannot avoid a
  rematch but pairing across the halves can: it decides exactly whether everybody can be paired
  without a rematch and, if not, how few rematches are needed.
- `cheapest_perfect_matching`: a minimum-cost perfect matching of a general graph (Edmonds'
  weighted blossom algorithm, ``networkx.max_weight_matching``; exact with integer costs, any
  size of integer, O(n³): 64 vertices in about 0.1 s, 128 in about 1 s). The Swiss pairer
  gives it only the parts of a field that its cheap construction cannot prove optimal.

Must not: know about entrants, scores or reasons; it works on indices and costs.

Terms: a *matching* is a set of pairs with no vertex twice; it is *perfect* when nobody is left
out; ``mate[v]`` is v's partner or -1.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

import numpy as np

# scipy.optimize and networkx are imported where they are used: together they are about a third
# of a second of every process's start (the web server's, each worker's, each command's), and
# most processes never draw a round.

__all__ = ["cheapest_assignment", "cheapest_perfect_matching", "maximum_matching"]


def cheapest_assignment(cost: np.ndarray) -> list[tuple[int, int]]:
    """Row i → column j pairs of a minimum-cost assignment; every row is assigned.

    ``cost`` has at least as many columns as rows.
    """
    if cost.shape[0] == 0:
        return []
    from scipy.optimize import linear_sum_assignment

    rr, cc = linear_sum_assignment(cost)
    return list(zip(rr.tolist(), cc.tolist(), strict=True))


def cheapest_perfect_matching(
    n: int, cost: Callable[[int, int], int | None]
) -> list[tuple[int, int]] | None:
    """The pairs (u < v) of a perfect matching of vertices 0 … n−1 of least total ``cost``.

    ``cost(u, v)`` (called with u < v) is a non-negative integer, or None where u and v may
    not be paired. Returns None when no perfect matching exists. Integer costs keep the result
    exact: a lexicographic objective can be packed into one (large) integer.
    """
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    costs = {}
    for u in range(n):
        for v in range(u + 1, n):
            c = cost(u, v)
            if c is not None:
                costs[u, v] = c
    if not costs:
        return [] if n == 0 else None
    top = max(costs.values()) + 1  # weights stay positive: maximum weight = minimum cost
    graph.add_weighted_edges_from((u, v, top - c) for (u, v), c in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return sorted((min(u, v), max(u, v)) for u, v in matching)


def maximum_matching(
    n: int,
    neighbours: Callable[[int], Iterable[int]],
    mate: list[int],
    order: Iterable[int],
) -> list[int]:
    """Grow ``mate`` (modified in place and returned) to a maximum matching.

    ``neighbours(v)`` yields the vertices v may be paired with (the relation must be symmetric),
    best first: the augmenting search looks at them in that order. Vertices are tried as roots
    in ``order``; a vertex that stays unmatched when tried can be left out of some maximum
    matching, so earlier vertices in ``order`` are the ones kept when not everybody can be
    matched. Runs in O(n³) at worst; in practice each root costs a short search.
    """
    for root in order:
        if mate[root] == -1:
            _augment_from(root, n, neighbours, mate)
    return mate


def _augment_from(
    root: int, n: int, neighbours: Callable[[int], Iterable[int]], mate: list[int]
) -> bool:
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in neighbours(v):
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                current = lca(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:  # flip the augmenting path
                        prev = parent[to]
                        after = mate[prev]
                        mate[to] = prev
                        mate[prev] = to
                        to = after
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False
