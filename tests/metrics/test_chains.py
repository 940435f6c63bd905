"""Chain labels and chain statistics, checked against brute force on networkx."""

from __future__ import annotations

import collections
import itertools
import random

import networkx as nx
import pytest

from causalgraph import compile_graph
from causalgraph.errors import ConfigError, CycleLimitExceeded
from causalgraph.metrics.chains import ChainStats, Position, chain_labels, chain_membership, chain_stats, chain_table

S, M, E, N = Position.START, Position.MIDDLE, Position.END, Position.NONE


# -- independent references: enumerate simple paths with networkx -------------

def _nx(pairs):
    g = nx.DiGraph()
    for c, e in pairs:
        g.add_node(c)
        g.add_node(e)
    g.add_edges_from((c, e) for c, e in pairs if c != e)
    return g


def _simple_paths_3plus(g):
    for a, b in itertools.permutations(g.nodes, 2):
        for p in nx.all_simple_paths(g, a, b):
            if len(p) >= 3:
                yield p


def _reference_path_rule(pairs):
    """The paper's definition read literally: positions from every simple path of >= 3 nodes."""
    g = _nx(pairs)
    starts, ends, middles = set(), set(), set()
    for p in _simple_paths_3plus(g):
        if g.in_degree(p[0]) == 0:
            starts.add(p[0])
        if g.out_degree(p[-1]) == 0:
            ends.add(p[-1])
        middles.update(p[1:-1])
    return {n: S if n in starts else E if n in ends else M if n in middles else N for n in g.nodes}


def _reference_shortest(pairs):
    g = _nx(pairs)
    rev = g.reverse()
    interior = _reference_path_rule(pairs)
    out = {}
    for n in g.nodes:
        if g.in_degree(n) and g.out_degree(n):
            out[n] = interior[n]
        elif g.out_degree(n):
            out[n] = S if max(nx.single_source_shortest_path_length(g, n).values()) >= 2 else N
        elif g.in_degree(n):
            out[n] = E if max(nx.single_source_shortest_path_length(rev, n).values()) >= 2 else N
        else:
            out[n] = N
    return out


def _random_pairs(rng, n_nodes, n_edges, loops=True):
    nodes = [f"v{i}" for i in range(n_nodes)]
    pairs = []
    for _ in range(n_edges):
        c, e = rng.choice(nodes), rng.choice(nodes)
        if c == e and not loops:
            continue
        pairs.append((c, e))
    return pairs


# -- hand-made graphs ----------------------------------------------------------

def test_chain_labels_simple_chain_is_start_middle_end():
    assert chain_labels([("a", "b"), ("b", "c")]) == {"a": S, "b": M, "c": E}


def test_chain_labels_two_nodes_are_not_a_chain():
    assert chain_labels([("a", "b")]) == {"a": N, "b": N}


def test_chain_labels_fork_and_collider_have_no_chain():
    assert chain_labels([("a", "b"), ("a", "c")]) == {"a": N, "b": N, "c": N}
    assert chain_labels([("a", "b"), ("c", "b")]) == {"a": N, "b": N, "c": N}


def test_chain_labels_shortcut_keeps_start_and_end_under_path_rule():
    pairs = [("a", "b"), ("b", "c"), ("a", "c")]
    assert chain_labels(pairs, rule="path") == {"a": S, "b": M, "c": E}


def test_chain_labels_shortcut_drops_start_and_end_under_shortest_distance():
    pairs = [("a", "b"), ("b", "c"), ("a", "c")]
    assert chain_labels(pairs, rule="shortest-distance") == {"a": N, "b": M, "c": N}


def test_chain_labels_shortest_distance_keeps_source_with_a_far_descendant():
    # a reaches d only through b, so d lies at distance 2 even though c is shortcut.
    pairs = [("a", "b"), ("b", "c"), ("a", "c"), ("b", "d")]
    assert chain_labels(pairs, rule="shortest-distance") == {"a": S, "b": M, "c": N, "d": E}


def test_chain_labels_self_loop_is_ignored():
    assert chain_labels([("a", "a"), ("a", "b"), ("b", "c")]) == {"a": S, "b": M, "c": E}
    assert chain_labels([("a", "a")]) == {"a": N}
    assert chain_labels([("a", "b"), ("b", "b")]) == {"a": N, "b": N}


def test_chain_labels_two_cycle_alone_is_none():
    assert chain_labels([("a", "b"), ("b", "a")]) == {"a": N, "b": N}


def test_chain_labels_two_cycle_with_a_third_event():
    # b has cause a and a different effect c; a's only partner is b in both directions.
    assert chain_labels([("a", "b"), ("b", "a"), ("b", "c")]) == {"a": N, "b": M, "c": E}


def test_chain_labels_three_cycle_is_all_middle():
    assert chain_labels([("a", "b"), ("b", "c"), ("c", "a")]) == {"a": M, "b": M, "c": M}


def test_chain_labels_unknown_rule_raises():
    with pytest.raises(ConfigError, match="unknown chain rule 'bfs'"):
        chain_labels([("a", "b")], rule="bfs")


def test_chain_membership_is_position_not_none():
    assert chain_membership([("a", "b"), ("b", "c"), ("x", "y")]) == {
        "a": True, "b": True, "c": True, "x": False, "y": False}


def test_chain_labels_accepts_networkx_and_causal_graph():
    from causalgraph.model import Relation

    g = compile_graph([Relation("a", "b"), Relation("b", "c")])
    assert chain_labels(g) == chain_labels(_nx([("a", "b"), ("b", "c")])) == {"a": S, "b": M, "c": E}


def test_chain_functions_take_a_statement_or_relations_as_their_graph():
    from causalgraph.model import Relation, Statement

    rels = (Relation("a", "b"), Relation("b", "c"), Relation("x", "b"))
    st = Statement("s", "A raises B, X raises B, B raises C.", True, rels)
    assert chain_labels(st) == chain_labels(list(rels)) == {"a": S, "b": M, "c": E, "x": S}
    assert chain_stats(st) == chain_stats([("a", "b"), ("b", "c"), ("x", "b")]) == ChainStats(2, 1, 4, 2, True)


@pytest.mark.parametrize("seed", range(40))
def test_chain_labels_path_rule_matches_simple_path_enumeration(seed):
    rng = random.Random(seed)
    pairs = _random_pairs(rng, rng.randint(2, 7), rng.randint(1, 12))
    assert chain_labels(pairs, "path") == _reference_path_rule(pairs)


@pytest.mark.parametrize("seed", range(40))
def test_chain_labels_shortest_distance_matches_bfs(seed):
    rng = random.Random(1000 + seed)
    pairs = _random_pairs(rng, rng.randint(2, 8), rng.randint(1, 14))
    assert chain_labels(pairs, "shortest-distance") == _reference_shortest(pairs)


# -- statistics ----------------------------------------------------------------

def test_chain_stats_by_hand():
    # a→b→c, a→c, c→d: chains a-b-c, a-b-c-d, a-c-d, b-c-d
    st = chain_stats([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")])
    assert (st.depth, st.breadth, st.n_nodes, st.n_chains, st.acyclic) == (3, 2, 4, 4, True)


def test_chain_stats_ignores_self_loops():
    # a→a adds nothing: one edge a→b is depth 1, breadth 1, two nodes, no chain, and no cycle.
    assert chain_stats([("a", "a"), ("a", "b")]) == chain_stats([("a", "b")]) == ChainStats(1, 1, 2, 0, True)


@pytest.mark.parametrize("seed", range(30))
def test_chain_stats_matches_enumeration(seed):
    rng = random.Random(5000 + seed)
    pairs = _random_pairs(rng, rng.randint(2, 7), rng.randint(1, 12))
    g = _nx(pairs)
    paths = list(_simple_paths_3plus(g))
    edges = list(g.edges)
    longest = max([len(p) - 1 for p in paths] + [1 if edges else 0])
    st = chain_stats(pairs)
    assert st.n_chains == len(paths)
    assert st.depth == longest
    assert st.breadth == max(d for _, d in g.out_degree)
    assert st.acyclic == nx.is_directed_acyclic_graph(g)


def test_chain_stats_counts_exponentially_many_chains_without_enumerating():
    # a ladder of k diamonds has 2**k source-to-sink paths
    k = 60
    pairs = []
    for i in range(k):
        pairs += [(f"n{i}", f"u{i}"), (f"n{i}", f"d{i}"), (f"u{i}", f"n{i + 1}"), (f"d{i}", f"n{i + 1}")]
    st = chain_stats(pairs)
    assert st.depth == 2 * k
    # paths from n0 to n_k alone number 2**k; the total is far larger
    assert st.n_chains > 2 ** k


def test_chain_stats_counts_through_a_cycle_with_dp_tails():
    # cycle a->b->c->a feeding a long acyclic tail c->t0->t1->...->t9
    pairs = [("a", "b"), ("b", "c"), ("c", "a")] + [("c", "t0")] + [(f"t{i}", f"t{i + 1}") for i in range(9)]
    g = _nx(pairs)
    st = chain_stats(pairs)
    assert not st.acyclic
    assert st.n_chains == len(list(_simple_paths_3plus(g)))
    assert st.depth == 2 + 1 + 9  # a->b->c, c->t0, t0..t9


def test_chain_stats_rejects_bad_cycle_limit():
    with pytest.raises(ConfigError, match="cycle_limit must be a positive integer"):
        chain_stats([("a", "b")], cycle_limit=0)


def test_chain_stats_on_cycle_over_limit_raises():
    pairs = [(f"v{i}", f"v{j}") for i in range(9) for j in range(9) if i != j]
    with pytest.raises(CycleLimitExceeded, match="limit of 1000 search steps"):
        chain_stats(pairs, cycle_limit=1000)


# -- the real corpus ------------------------------------------------------------

def test_chain_table_path_rule_reproduces_paper_distribution(climatecause):
    rows = chain_table(climatecause, rule="path")
    assert len(rows) == 512
    assert collections.Counter(r["membership"] for r in rows) == {"yes": 115, "no": 397}
    assert collections.Counter(r["position"] for r in rows) == {"start": 32, "middle": 48, "end": 35, "none": 397}


def test_chain_table_rules_match_references_on_every_statement(climatecause):
    for st in climatecause.statements:
        if not st.causal:
            continue
        pairs = compile_graph(st).pairs
        assert chain_labels(pairs, "path") == _reference_path_rule(pairs), st.id
        assert chain_labels(pairs, "shortest-distance") == _reference_shortest(pairs), st.id


def test_chain_table_stats_match_networkx_on_corpus(climatecause):
    seen = {}
    for r in chain_table(climatecause):
        seen[r["statement_id"]] = (r["depth"], r["n_chains"], r["n_nodes"])
    for st in climatecause.statements:
        if not st.causal:
            continue
        g = _nx(compile_graph(st).pairs)
        assert seen[st.id] == (nx.dag_longest_path_length(g), len(list(_simple_paths_3plus(g))),
                               g.number_of_nodes()), st.id
