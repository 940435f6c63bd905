"""causalgraph.scoring.scores: the one statement-bootstrap interval the run scores and the statistics share."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import norm, t as student

from causalgraph.scoring.scores import percentile_interval
from causalgraph.stats.resampling import cluster_interval

resamples = st.lists(st.one_of(st.floats(0, 1), st.just(math.nan)), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(resamples, st.floats(0, 1), st.integers(2, 80), st.sampled_from([0.8, 0.9, 0.95]))
def test_the_interval_is_the_percentile_interval_widened_by_the_t_factor_and_clipped(values, point, g, level):
    v = np.array(values)
    ci, share = percentile_interval(v, point, g, level=level)
    assert share == pytest.approx(np.isnan(v).sum() / len(v))
    kept = v[~np.isnan(v)]
    if share > 0.5 or kept.size == 0:
        assert all(math.isnan(x) for x in ci)
        return
    # by hand: sorted values, linear interpolation (numpy's default), the factor √(G/(G−1))·t/z
    q = (1 - level) / 2
    s = np.sort(kept)

    def quantile(p: float) -> float:
        h = (len(s) - 1) * p
        lo = math.floor(h)
        return s[lo] + (h - lo) * (s[min(lo + 1, len(s) - 1)] - s[lo])

    c = math.sqrt(g / (g - 1)) * student.ppf(1 - q, g - 1) / norm.ppf(1 - q)
    want = (max(0.0, point - c * (point - quantile(q))), min(1.0, point + c * (quantile(1 - q) - point)))
    assert ci == pytest.approx(want, abs=1e-12)
    # the statistics' cluster_interval is this rule, not a copy of it
    assert cluster_interval(v, point, g, level=level) == ci


def test_an_undefined_point_or_one_statement_gives_no_interval_when_widened_but_a_plain_one_otherwise():
    v = np.array([0.2, 0.4, 0.6, 0.8])
    assert all(math.isnan(x) for x in percentile_interval(v, None, 10)[0])
    assert all(math.isnan(x) for x in percentile_interval(v, 0.5, 1)[0])
    assert percentile_interval(v, None, None, widen=False, level=0.5)[0] == pytest.approx((0.35, 0.65))
