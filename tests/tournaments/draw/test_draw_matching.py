"""The general-matching primitive against a brute-force search on small random graphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw.matching import maximum_matching


def brute_force_size(n, edges):
    best = 0

    def search(free, size):
        nonlocal best
        best = max(best, size)
        if not free:
            return
        v, rest = free[0], free[1:]
        search(rest, size)  # v stays unmatched
        for u in rest:
            if (min(u, v), max(u, v)) in edges:
                search([w for w in rest if w != u], size + 1)

    search(list(range(n)), 0)
    return best


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 10))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = {p for p in pairs if draw(st.booleans())}
    start = []
    used: set[int] = set()
    for u, v in sorted(edges):  # a greedy initial matching, sometimes
        if draw(st.booleans()) and u not in used and v not in used:
            start.append((u, v))
            used |= {u, v}
    order = draw(st.permutations(list(range(n))))
    return n, edges, start, order


@settings(max_examples=200)
@given(graphs())
def test_maximum_matching_is_maximum_and_valid(graph):
    n, edges, start, order = graph
    mate = [-1] * n
    for u, v in start:
        mate[u], mate[v] = v, u

    def neighbours(v):
        return [u for u in range(n) if (min(u, v), max(u, v)) in edges]

    mate = maximum_matching(n, neighbours, mate, order)
    for v, u in enumerate(mate):
        if u != -1:
            assert mate[u] == v
            assert (min(u, v), max(u, v)) in edges
    assert sum(1 for v, u in enumerate(mate) if u > v) == brute_force_size(n, edges)


def test_odd_cycle_needs_a_blossom():
    # A triangle 0-1-2 with a tail 2-3 and 0-4: augmenting from 4 must shrink the triangle.
    edges = {(0, 1), (1, 2), (0, 2), (2, 3), (0, 4)}
    mate = [1, 0, 3, 2, -1]  # 0-1, 2-3 matched; 4 free; a perfect matching does not exist
    mate = maximum_matching(
        5, lambda v: [u for u in range(5) if (min(u, v), max(u, v)) in edges], mate, range(5)
    )
    assert sum(1 for v, u in enumerate(mate) if u > v) == 2
