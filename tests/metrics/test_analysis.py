"""The paper's complexity analyses (§5.2.2, App. F.1) as calls."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from causalgraph.errors import ConfigError
from causalgraph.metrics.analysis import (
    complex_in_counts,
    complexity_summary,
    cooccurrence,
    length_correlation,
    metric_ranges,
)
from causalgraph.metrics.complexity import complexity_table


def _table(rows):
    cols = ["c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_norm", "n_tokens"]
    return pd.DataFrame(rows, columns=cols)


def test_length_correlation_uses_only_statements_with_positive_total():
    # the zero row would change r if it were used
    t = _table([[1, 0, 0, 0, 0, 0.1, 10], [1, 0, 0, 0, 0, 0.2, 20], [1, 0, 0, 0, 0, 0.4, 30],
                [0, 0, 0, 0, 0, 0.0, 500]])
    res = length_correlation(t)
    x, y = [10, 20, 30], [0.1, 0.2, 0.4]
    mx, my = sum(x) / 3, sum(y) / 3
    r = sum((a - mx) * (b - my) for a, b in zip(x, y)) / math.sqrt(
        sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))
    assert res.n == 3 and res.r == pytest.approx(r)
    assert length_correlation(t, positive_only=False).n == 4


def test_length_correlation_needs_three_statements():
    with pytest.raises(ConfigError, match="at least 3"):
        length_correlation(_table([[1, 0, 0, 0, 0, 0.1, 10], [1, 0, 0, 0, 0, 0.2, 20]]))


def test_complex_in_counts_and_cooccurrence_by_hand():
    t = _table([[1, 1, 0, 0, 0, 1, 5], [0, 1, 0, 2, 0, 1, 5], [0, 0, 0, 0, 0, 0, 5], [0, 0, 3, 0, 0, 1, 5]])
    assert complex_in_counts(t).tolist() == [1, 1, 2, 0, 0, 0]
    co = cooccurrence(t)
    assert co.loc["ex", "ex"] == 2 and co.loc["com", "ex"] == co.loc["ex", "com"] == 1
    assert co.loc["ex", "corr"] == 1 and co.loc["nest", "com"] == 0 and co.loc["pol", "pol"] == 0


def test_analysis_rejects_a_frame_without_the_metric_columns():
    with pytest.raises(ConfigError, match="lacks column"):
        cooccurrence(pd.DataFrame({"c_com": [1]}))


@pytest.fixture(scope="module")
def cc_table(climatecause):
    return complexity_table(climatecause)


def test_complex_in_counts_reproduces_the_paper(cc_table):
    # §5.2.2: 27 statements complex in one metric, 10 in two, none in all five
    counts = complex_in_counts(cc_table)
    assert (counts[1], counts[2], counts[5]) == (27, 10, 0)
    assert counts.sum() == 75 and counts[1:].sum() == 43


def test_cooccurrence_reproduces_appendix_f1(cc_table):
    # App. F.1, lower triangle (the paper prints "-" for 0)
    paper = {
        ("com", "com"): 10,
        ("ex", "com"): 2, ("ex", "ex"): 17,
        ("nest", "com"): 2, ("nest", "ex"): 5, ("nest", "nest"): 12,
        ("corr", "com"): 4, ("corr", "ex"): 8, ("corr", "nest"): 4, ("corr", "corr"): 24,
        ("pol", "com"): 1, ("pol", "ex"): 2, ("pol", "nest"): 0, ("pol", "corr"): 3, ("pol", "pol"): 3,
    }
    co = cooccurrence(cc_table)
    for (a, b), v in paper.items():
        assert co.loc[a, b] == v and co.loc[b, a] == v, (a, b)


def test_length_correlation_on_climatecause_is_documented_below_the_paper(cc_table):
    # paper: n = 43, r = .590, p < .01.  With alphabetic word tokens we get r = .558
    # (docs/metrics.md discusses the gap); the sign, n and significance reproduce.
    res = length_correlation(cc_table)
    assert res.n == 43 and res.p < 0.01
    assert round(res.r, 3) == 0.558


def test_complexity_summary_collects_the_paper_figures(climatecause):
    s = complexity_summary(climatecause)
    assert (s.n_statements, s.n_complex, round(s.percent_complex, 2)) == (75, 43, 57.33)
    assert round(s.max_c_norm, 3) == 1.821
    assert s.ranges["com"] == (0, 12) and s.ranges["corr"] == (0, 70)
    assert metric_ranges(climatecause)["pol"] == (0, 40)
    d = s.as_dict()
    assert d["complex_in"]["1"] == 27 and d["length_correlation"]["n"] == 43


def test_the_three_paper_analyses_are_top_level_calls():
    import causalgraph as cg

    assert (cg.length_correlation, cg.complex_in_counts, cg.cooccurrence) == (
        length_correlation, complex_in_counts, cooccurrence)
