"""Properties of the complexity metrics: what an event is called and the order in which a statement's
relations are listed change nothing (with the default conflict rule, which reads every label of a pair)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from statement_strategies import rename, renamings, statements

from causalgraph.metrics.complexity import complexity, nesting_complexity, signed_complexity


@settings(max_examples=300)
@given(st.data())
def test_complexity_is_the_same_whatever_the_events_are_called(data):
    s = data.draw(statements())
    renamed = rename(s, data.draw(renamings(s)))
    assert complexity(renamed) == complexity(s)
    for label in ("correlation", "polarity"):
        assert signed_complexity(renamed, label) == signed_complexity(s, label)


@settings(max_examples=300)
@given(st.data())
def test_complexity_is_the_same_whatever_the_order_of_the_relations(data):
    s = data.draw(statements())
    shuffled = replace(s, relations=tuple(data.draw(st.permutations(s.relations))))
    assert complexity(shuffled) == complexity(s)
    for label in ("correlation", "polarity"):
        assert signed_complexity(shuffled, label) == signed_complexity(s, label)


@settings(max_examples=300)
@given(st.lists(st.integers(1, 15), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_nesting_complexity_is_the_same_whatever_the_order_of_the_nesting_events(sizes, rnd):
    # Statements whose relations list the same nesting groups in another order: the groups reach
    # C^nest in another order, and a plain float sum can differ in its last bit (groups of 2, 2 and 9).
    groups = [(f"n{i}", tuple(range(t))) for i, t in enumerate(sizes)]
    shuffled = list(groups)
    rnd.shuffle(shuffled)
    assert nesting_complexity(dict(shuffled)) == nesting_complexity(dict(groups))
