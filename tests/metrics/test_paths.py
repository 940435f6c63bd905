"""Maximal-path counting: hand-worked graphs, closed forms and a brute-force reference."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from causalgraph.errors import ConfigError, CycleLimitExceeded
from causalgraph.metrics.paths import count_maximal_paths, cyclic_nodes


def brute_force(edges, min_nodes=3):
    """Enumerate every maximal simple path from every node (reference, exponential)."""
    succ = {}
    nodes = []
    for u, v in edges:
        for n in (u, v):
            if n not in nodes:
                nodes.append(n)
        if u != v and v not in succ.setdefault(u, []):
            succ[u].append(v)
    count = 0
    for start in nodes:
        stack = [[start]]
        while stack:
            path = stack.pop()
            nxt = [w for w in succ.get(path[-1], []) if w not in path]
            if not nxt:
                count += len(path) >= min_nodes
            for w in nxt:
                stack.append(path + [w])
    return count


def test_count_maximal_paths_chain_counts_every_start_with_two_more_nodes():
    # a-b-c-d: a-b-c-d and b-c-d count, c-d is too short, d alone is no walk
    assert count_maximal_paths([("a", "b"), ("b", "c"), ("c", "d")]) == 2


def test_count_maximal_paths_branch_counts_each_maximal_walk():
    # a→b, b→c, b→d, a→e: from a: a-b-c, a-b-d (a-e too short); from b: too short
    assert count_maximal_paths([("a", "b"), ("b", "c"), ("b", "d"), ("a", "e")]) == 2


def test_count_maximal_paths_single_edges_count_nothing():
    assert count_maximal_paths([("a", "b"), ("c", "d")]) == 0
    assert count_maximal_paths([]) == 0


def test_count_maximal_paths_duplicate_edges_count_once():
    assert count_maximal_paths([("a", "b"), ("a", "b"), ("b", "c")]) == 1


def test_count_maximal_paths_min_nodes_two_counts_every_edge_walk():
    # with min_nodes=2 the chain a-b-c-d has a-b-c-d, b-c-d, c-d
    assert count_maximal_paths([("a", "b"), ("b", "c"), ("c", "d")], min_nodes=2) == 3


def test_count_maximal_paths_two_cycle_has_no_walk_of_three_nodes():
    assert count_maximal_paths([("a", "b"), ("b", "a")]) == 0


def test_count_maximal_paths_triangle_counts_one_walk_per_start():
    assert count_maximal_paths([("a", "b"), ("b", "c"), ("c", "a")]) == 3


def test_count_maximal_paths_cycle_with_tail_is_worked_by_hand():
    # a→b→c→a plus c→d.  From a: a-b-c-d.  From b: b-c-a, b-c-d.  From c: c-a-b (c-d too short).
    assert count_maximal_paths([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]) == 4


def test_count_maximal_paths_self_loop_is_ignored():
    assert count_maximal_paths([("a", "a"), ("a", "b"), ("b", "c")]) == 1


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_count_maximal_paths_complete_digraph_has_n_factorial_hamiltonian_walks(n):
    nodes = list(range(n))
    edges = [(u, v) for u in nodes for v in nodes if u != v]
    assert count_maximal_paths(edges) == math.factorial(n)


def test_count_maximal_paths_layered_dag_with_2_to_the_40_paths_is_counted_exactly():
    # s → 40 layers of two nodes, every node joined to both nodes of the next layer.
    # From s: 2**40 walks.  From a layer-j node: 2**(40-j) walks of 41-j nodes, kept for j <= 38.
    edges = [("s", (1, 0)), ("s", (1, 1))]
    for j in range(1, 40):
        for a in range(2):
            for b in range(2):
                edges.append(((j, a), (j + 1, b)))
    expected = 2**40 + sum(2 * 2 ** (40 - j) for j in range(1, 39))
    assert expected == 2**40 + 2**41 - 8
    assert count_maximal_paths(edges) == expected


def test_count_maximal_paths_long_chain_does_not_recurse():
    n = 20000
    edges = [(i, i + 1) for i in range(n - 1)]
    assert count_maximal_paths(edges) == n - 2
    # a shorter chain closed into a cycle: every start walks all m nodes (enumerated, m**2 steps)
    m = 300
    ring = [(i, i + 1) for i in range(m - 1)] + [(m - 1, 0)]
    assert count_maximal_paths(ring) == m


def test_count_maximal_paths_cycle_feeding_a_large_dag_reads_the_dag_from_the_table():
    # a 2-cycle x⇄y feeding the 2**30-path layered DAG must not enumerate the DAG part
    edges = [("x", "y"), ("y", "x"), ("y", (1, 0)), ("y", (1, 1))]
    for j in range(1, 30):
        for a in range(2):
            for b in range(2):
                edges.append(((j, a), (j + 1, b)))
    dag_only = count_maximal_paths(edges[4:])
    # from y: 2**30 walks (y-x is too short); from x: x-y then 2**30 walks
    assert count_maximal_paths(edges, cycle_limit=10) == dag_only + 2 * 2**30


def test_count_maximal_paths_raises_past_the_cycle_limit():
    nodes = list(range(7))
    edges = [(u, v) for u in nodes for v in nodes if u != v]  # 7! = 5040 walks
    # The walk visits every simple path once (7!/(7-k)! with k nodes, 13,699 in all) and looks at
    # the 6 successors of each: 82,194 steps.
    frames = sum(math.factorial(7) // math.factorial(7 - k) for k in range(1, 8))
    assert frames == 13_699
    with pytest.raises(CycleLimitExceeded, match=r"limit of 82,193 search steps .*raise cycle_limit"):
        count_maximal_paths(edges, cycle_limit=6 * frames - 1)
    assert count_maximal_paths(edges, cycle_limit=6 * frames) == 5040


def test_count_maximal_paths_limit_bounds_the_steps_around_a_ring_not_its_walks():
    # A ring of n nodes has n maximal walks, each of n nodes, and the walk from each start looks at
    # one edge per node: n * n steps.  Bounding the walks (n) let a 4,000-node ring run 16 million steps.
    n = 100
    ring = [(i, (i + 1) % n) for i in range(n)]
    assert count_maximal_paths(ring, cycle_limit=n * n) == n
    # the last of the n * n steps is taken from the last start, 99
    with pytest.raises(CycleLimitExceeded, match=r"\(100 nodes on cycles: 0, 1, 2, 3, 4 …\) passed the limit "
                                                 r"of 9,999 search steps \(starting from 99\)"):
        count_maximal_paths(ring, cycle_limit=n * n - 1)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_count_maximal_paths_rejects_a_bad_limit(bad):
    with pytest.raises(ConfigError, match="cycle_limit"):
        count_maximal_paths([("a", "b")], cycle_limit=bad)


def test_count_maximal_paths_matches_brute_force_on_random_graphs():
    rng = random.Random(20260)
    for trial in range(300):
        n = rng.randint(2, 8)
        p = rng.choice([0.15, 0.3, 0.5])
        dag = trial % 2 == 0
        edges = [(u, v) for u, v in itertools.permutations(range(n), 2)
                 if rng.random() < p and (not dag or u < v)]
        rng.shuffle(edges)
        for k in (2, 3, 4):
            assert count_maximal_paths(edges, min_nodes=k) == brute_force(edges, k), (edges, k)


def test_cyclic_nodes_lists_cycle_members_in_first_appearance_order():
    assert cyclic_nodes([("c", "a"), ("a", "b"), ("b", "c"), ("b", "d"), ("d", "d")]) == ["c", "a", "b"]
