"""Graph edits: reversal reverses every edge, a shuffle is an isomorphism that shows another graph, seeded."""

from __future__ import annotations

import os
import subprocess
import sys

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph import compile_graph
from causalgraph.errors import ConfigError
from causalgraph.graph.edits import (edit_graph, join_edit, reverse_graph, shuffle_graph, shuffle_permutation,
                                     split_edit)
from causalgraph.model import Correlation, Relation

EVENTS = [f"e{i}" for i in range(7)]


@st.composite
def graphs(draw):
    """A graph of 2-7 events with at least one edge (self-loops and cycles allowed)."""
    n = draw(st.integers(2, 7))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=1, max_size=15))
    return compile_graph([Relation(EVENTS[a], EVENTS[b]) for a, b in pairs])


def _nx(g):
    d = nx.DiGraph()
    d.add_nodes_from(g.nodes)
    d.add_edges_from(g.pairs)
    return d


def test_reversing_a_chain_swaps_causes_and_effects_and_keeps_signs():
    g = compile_graph([Relation("a", "b", correlation=Correlation.NEGATIVE, cause_np="the a"),
                       Relation("b", "c", correlation=Correlation.POSITIVE)])
    r = reverse_graph(g)
    assert r.pairs == [("b", "a"), ("c", "b")]
    assert r.edge("b", "a").correlation is Correlation.NEGATIVE
    assert r.edge("b", "a").relations[0].effect_np == "the a"


@given(graphs())
@settings(max_examples=60, deadline=None)
def test_reversal_is_networkx_reverse(g):
    assert nx.utils.graphs_equal(_nx(reverse_graph(g)), _nx(g).reverse())


@given(graphs(), st.text(max_size=8))
@settings(max_examples=80, deadline=None)
def test_a_shuffle_is_an_isomorphism_onto_another_edge_set(g, key):
    h, perm = shuffle_graph(g, key=key)
    real, shuffled = _nx(g), _nx(h)
    assert sorted(perm) == sorted(perm.values()) == sorted(g.nodes)
    assert nx.utils.graphs_equal(nx.relabel_nodes(real, perm), shuffled)
    assert nx.is_isomorphic(real, shuffled)
    n = len(g.nodes)
    # One event has only itself to be; any more are always moved.
    assert (perm != {x: x for x in g.nodes}) == (n > 1)
    off = {(a, b) for a, b in g.pairs if a != b}
    loops = {a for a, b in g.pairs if a == b}
    invariant = (not off or len(off) == n * (n - 1)) and (not loops or len(loops) == n)
    if not invariant:
        assert set(h.pairs) != set(g.pairs)


def test_a_star_is_shuffled_off_its_symmetries():
    # Every permutation fixing the hub maps the star onto itself; the shuffle must move the hub.
    g = compile_graph([Relation("hub", x) for x in "abcde"])
    for key in range(30):
        h, perm = shuffle_graph(g, key=key)
        assert perm["hub"] != "hub"
        assert set(h.pairs) != set(g.pairs)


def test_a_shuffle_depends_on_the_statement_and_seed_only():
    g = compile_graph([Relation("a", "b"), Relation("b", "c"), Relation("c", "d")])
    assert shuffle_permutation(g, key="cc-001") == shuffle_permutation(g, key="cc-001")
    draws = {tuple(shuffle_permutation(g, key="cc-001", seed=s).values()) for s in range(10)}
    assert len(draws) > 1


def test_the_shuffle_is_the_same_whatever_pythonhashseed():
    code = ("from causalgraph import compile_graph; from causalgraph.model import Relation; "
            "from causalgraph.graph.edits import shuffle_permutation; "
            "g = compile_graph([Relation(str(i), str(i + 1)) for i in range(8)]); "
            "print(shuffle_permutation(g, key='cc-042'))")
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1


def test_one_event_cannot_be_shuffled_and_stays():
    g = compile_graph([Relation("a", "a")])
    assert edit_graph(g, "shuffle").graph.pairs == [("a", "a")]


def test_real_is_the_graph_itself_and_unknown_edits_are_refused():
    g = compile_graph([Relation("a", "b")])
    assert edit_graph(g, "real").graph is g
    with pytest.raises(ConfigError, match="unknown graph edit 'mirror'; expected one of real, reverse, shuffle"):
        edit_graph(g, "mirror")


def test_variant_ids_carry_the_edit_after_the_names():
    assert join_edit("A_5.nonsense", "shuffle") == "A_5.nonsense.shuffle"
    assert split_edit("A_5.nonsense.shuffle") == ("A_5.nonsense", "shuffle")
    assert split_edit("MX_5") == ("MX_5", "real") and join_edit("MX_5", None) == "MX_5"
