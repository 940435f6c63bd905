"""Properties of the chain labels and statistics: what an event is called and the order in which a
statement's relations are listed change nothing, under either position rule."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from statement_strategies import rename, renamings, statements

from causalgraph import compile_graph
from causalgraph.metrics.chains import RULES, chain_labels, chain_stats


@settings(max_examples=250)
@given(st.data())
def test_chain_labels_and_stats_follow_the_events_whatever_they_are_called(data):
    s = data.draw(statements())
    mapping = data.draw(renamings(s))
    g, renamed = compile_graph(s), compile_graph(rename(s, mapping))
    for rule in RULES:
        # the same labels, under the new names and in the same node order
        assert list(chain_labels(renamed, rule).items()) == [
            (mapping[e], pos) for e, pos in chain_labels(g, rule).items()]
    assert chain_stats(renamed) == chain_stats(g)


@settings(max_examples=250)
@given(st.data())
def test_chain_labels_and_stats_are_the_same_whatever_the_order_of_the_relations(data):
    s = data.draw(statements())
    g = compile_graph(s)
    shuffled = compile_graph(replace(s, relations=tuple(data.draw(st.permutations(s.relations)))))
    for rule in RULES:
        assert chain_labels(shuffled, rule) == chain_labels(g, rule)
    assert chain_stats(shuffled) == chain_stats(g)
