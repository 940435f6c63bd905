"""MergedGraph: interning in first-appearance order, deduplication with counts, the filter, and the docstring
examples of the CauseNet modules."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.errors import ConfigError
from causalgraph.graph.merged import concat_ranges, merge_ids, merge_pairs


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from("abcdefg"), st.sampled_from("abcdefg")), max_size=30))
def test_pairs_merge_into_unique_edges_in_first_appearance_order_with_their_counts(pairs):
    g = merge_pairs(pairs)
    order = list(dict.fromkeys(v for p in pairs for v in p))
    assert g.names == order
    assert g.pairs() == list(dict.fromkeys(pairs))
    assert g.relations.tolist() == [pairs.count(p) for p in dict.fromkeys(pairs)]


def test_given_nodes_come_first_and_isolated_ones_stay():
    g = merge_pairs([("b", "c")], nodes=["z", "b"])
    assert g.names == ["z", "b", "c"] and g.pairs() == [("b", "c")]


def test_min_sources_renumbers_the_kept_concepts_in_their_order():
    g = merge_ids([0, 2, 2], [1, 3, 3], ["a", "b", "c", "d"], n_sources=[1, 1, 1], min_sources=2)
    assert g.names == ["c", "d"] and g.src.tolist() == [0] and g.dst.tolist() == [1] and g.sources.tolist() == [2]
    with pytest.raises(ConfigError, match="min_sources must be a non-negative integer, got -1"):
        merge_ids([0], [1], ["a", "b"], min_sources=-1)


@settings(max_examples=100)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 5)), max_size=20))
def test_concat_ranges_is_the_concatenation_of_the_ranges(spans):
    starts = np.array([s for s, _ in spans], dtype=np.int64)
    lens = np.array([n for _, n in spans], dtype=np.int64)
    assert concat_ranges(starts, lens).tolist() == [i for s, n in spans for i in range(s, s + n)]


@pytest.mark.parametrize("module", ["causalgraph.graph.merged", "causalgraph.metrics.graph_chains",
                                    "causalgraph.datasets.causenet", "causalgraph.graph.subgraphs"])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
