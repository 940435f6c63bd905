"""The linear chain core on merged graphs: today's labels on every graph, today's counts on every DAG,
the condensation rule on cycles (checked against networkx), exact huge counts, and the real corpora."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.errors import CycleLimitExceeded
from causalgraph.graph import as_graph
from causalgraph.graph.merged import merge_pairs
from causalgraph.metrics.chains import RULES, ChainStats, chain_labels, chain_stats
from causalgraph.metrics.graph_chains import POSITIONS, graph_chain_labels, graph_chain_stats, graph_positions

edges = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=30)


def as_dag(pairs):
    return [(a, b) if a < b else (b, a) for a, b in pairs if a != b]


@settings(max_examples=400)
@given(edges)
def test_labels_equal_chain_labels_on_every_graph_cyclic_or_not(pairs):
    for rule in RULES:
        assert list(graph_chain_labels(pairs, rule).items()) == list(chain_labels(pairs, rule).items())


@settings(max_examples=400)
@given(edges)
def test_on_a_dag_the_totals_equal_chain_stats(pairs):
    pairs = as_dag(pairs)
    assert graph_chain_stats(pairs).total == chain_stats(pairs)


def brute_chains(g: nx.DiGraph) -> int:
    """Paths of >= 3 nodes, listed one by one (only for tiny graphs)."""
    return sum(1 for a, b in itertools.permutations(g.nodes, 2) for p in nx.all_simple_paths(g, a, b) if len(p) >= 3)


@settings(max_examples=300)
@given(edges)
def test_each_component_is_counted_on_its_condensation_as_networkx_builds_it(pairs):
    st_ = graph_chain_stats(pairs)
    g = nx.DiGraph()
    g.add_nodes_from(merge_pairs(pairs).names)
    g.add_edges_from((a, b) for a, b in pairs if a != b)
    order = list(g.nodes)  # first-appearance order, as the merged graph interns
    comps = sorted(nx.weakly_connected_components(g), key=lambda c: min(order.index(v) for v in c))
    assert st_.n_components == len(comps)
    for k, comp in enumerate(comps):
        sub = g.subgraph(comp)
        cond = nx.condensation(sub)
        assert st_.n_nodes[k] == len(comp)
        assert st_.n_edges[k] == sub.number_of_edges()
        assert st_.depth[k] == nx.dag_longest_path_length(cond)
        assert st_.n_chains[k] == brute_chains(cond)
        assert st_.breadth[k] == max(d for _, d in sub.out_degree())
        assert st_.cyclic_nodes[k] == sum(len(c) for c in nx.strongly_connected_components(sub) if len(c) > 1)
        for v in comp:
            assert st_.component[order.index(v)] == k
    assert st_.total.acyclic == nx.is_directed_acyclic_graph(g)


def test_a_cycle_counts_as_one_event_of_a_chain():
    st_ = graph_chain_stats([("a", "b"), ("b", "c"), ("c", "b"), ("c", "d")])
    assert st_.total == ChainStats(depth=2, breadth=2, n_nodes=4, n_chains=1, acyclic=False)
    assert st_.cyclic_nodes.tolist() == [2]


def test_a_ring_too_large_for_the_cycle_search_is_counted_without_error():
    ring = [(i, (i + 1) % 5000) for i in range(5000)] + [("in", 0), (2500, "out")]
    with pytest.raises(CycleLimitExceeded):
        chain_stats(ring)
    st_ = graph_chain_stats(ring)  # condensation: in -> ring -> out
    assert st_.total == ChainStats(depth=2, breadth=2, n_nodes=5002, n_chains=1, acyclic=False)
    assert str(POSITIONS[graph_positions(ring)[0]]) == "middle"


def test_chain_counts_beyond_int64_are_exact_python_integers():
    # a ladder of 100 layers of two nodes, each joined to both nodes of the next: 2 * 2**99 paths end to end
    pairs = [(f"{x}{i}", f"{y}{i + 1}") for i in range(100) for x in "ab" for y in "ab"]
    st_ = graph_chain_stats(pairs)
    assert st_.total == chain_stats(pairs)
    assert st_.total.n_chains > 2 ** 64
    # by hand: from a node of layer i (0..100) there are 2**k paths of k edges for k <= 100 - i, so it starts
    # sum_{k=2}^{100-i} 2**k = 2**(101-i) - 4 chains (layer 100 starts none); two nodes a layer
    assert st_.total.n_chains == sum(2 * (2 ** (101 - i) - 4) for i in range(100))


def test_components_are_numbered_by_their_first_node():
    st_ = graph_chain_stats([("x", "y"), ("a", "b"), ("b", "c"), ("y", "z")])
    assert st_.component.tolist() == [0, 0, 1, 1, 1, 0]
    assert st_.n_chains.tolist() == [1, 1] and st_.depth.tolist() == [2, 2]


def test_self_loops_and_two_cycles_are_ignored_as_in_chain_stats():
    pairs = [("a", "a"), ("a", "b"), ("b", "a")]
    st_ = graph_chain_stats(pairs)
    assert st_.total == ChainStats(depth=0, breadth=1, n_nodes=2, n_chains=0, acyclic=False)
    assert [str(p) for p in graph_chain_labels(pairs).values()] == ["none", "none"]


def test_an_empty_graph_has_no_components():
    st_ = graph_chain_stats([])
    assert st_.n_components == 0 and st_.total == ChainStats(0, 0, 0, 0, True)


def test_every_climatecause_statement_gets_todays_labels_and_counts():
    from causalgraph.datasets import load_corpus

    corpus = load_corpus("climatecause")
    n = 0
    for s in corpus:
        if not s.causal or not s.relations:
            continue
        g = as_graph(s)
        assert graph_chain_stats(g).total == chain_stats(g)
        for rule in RULES:
            assert graph_chain_labels(g, rule) == chain_labels(g, rule)
        n += 1
    assert n > 50


@pytest.mark.parametrize("merge", ["exact", "normalized"])
def test_the_merged_pubmedcausal_graph_gets_todays_labels_and_counts_on_its_acyclic_part(merge):
    from causalgraph.extraction.producer import corpus_from_extraction
    from causalgraph.graph import compile_graph

    corpus = corpus_from_extraction("pubmedcausal:test", merge=merge)
    pairs = [p for s in corpus if s.relations for p in compile_graph(s).pairs]
    merged = merge_pairs(pairs)
    for rule in RULES:
        assert graph_chain_labels(merged, rule) == chain_labels(pairs, rule)
    # the whole merged graph has cycles; its acyclic components must be today's counts exactly
    st_ = graph_chain_stats(merged)
    names = merged.names_list()
    by_comp: dict = {}
    for a, b in zip(merged.src.tolist(), merged.dst.tolist()):
        by_comp.setdefault(int(st_.component[a]), []).append((names[a], names[b]))
    checked = 0
    for k, comp_pairs in by_comp.items():
        if st_.cyclic_nodes[k] == 0:
            ref = chain_stats(comp_pairs)
            assert (st_.depth[k], st_.breadth[k], st_.n_chains[k]) == (ref.depth, ref.breadth, ref.n_chains)
            checked += 1
    assert checked > 1000
