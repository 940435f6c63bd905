"""The answer-against-graph gap's interval (stats.answer_graph): a statement bootstrap, and its coverage simulated.

The design (benchmarks/bench_answer_graph.py) is a graph-first CCR run's: few statements, items per statement
geometric with mean 8.3 (ClimateCause ccr-member A_4: 512 items in 63 statements, mean 8.1), answer accuracy and
graph quality drawn per statement.  Measured over 400 replications (docs/tasks.md): 0.938 at 5 statements, 0.927 at
10, 0.930 at 20, 0.935 at 63; asserted here with 200 replications and 500 resamples.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.stats.answer_graph import answer_graph_summary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


@pytest.mark.parametrize("n_statements", [5, 20])
def test_the_gap_interval_covers_on_designs_like_ours(n_statements):
    from bench_answer_graph import coverage

    cov, width, missing = coverage(n_statements, 200, 3, n_boot=500)
    # 200 replications at a true 0.93: below 0.88 has probability < 0.01; above 0.99 would be an interval too wide.
    assert missing == 0 and 0.88 <= cov <= 0.99, (cov, width)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.booleans(), st.sampled_from([0.0, 0.5, 2 / 3, 1.0])),
                min_size=2, max_size=20), st.integers(2, 4))
def test_the_unit_resampled_is_the_statement_not_the_item(rows, copies):
    # Every item written `copies` times over: an item bootstrap would narrow the intervals by about sqrt(copies);
    # a statement bootstrap draws a statement's items together, so its per-statement ratios, and the intervals,
    # are the same.
    once = answer_graph_summary(rows, n_boot=300, seed=1)
    many = answer_graph_summary([r for r in rows for _ in range(copies)], n_boot=300, seed=1)
    for name in ("accuracy", "edge_f1", "gap"):
        assert many[name] == pytest.approx(once[name])
        if once[f"{name}_ci95"] is None:
            assert many[f"{name}_ci95"] is None
        else:
            assert many[f"{name}_ci95"] == pytest.approx(once[f"{name}_ci95"])
