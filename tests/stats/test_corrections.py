"""Bonferroni and Holm against hand computations and statsmodels."""

from __future__ import annotations

import pytest
from statsmodels.stats.multitest import multipletests

from causalgraph.errors import ConfigError
from causalgraph.stats import bonferroni, holm

PVALUES = [0.01, 0.04, 0.03, 0.005, 0.2, 0.0004, 0.03]


def test_bonferroni_threshold_is_alpha_over_m_as_in_the_paper():
    r = bonferroni([0.5] * 9, alpha=0.05)
    assert r.threshold == pytest.approx(0.05 / 9)
    assert round(r.threshold, 4) == 0.0056   # §6.3: α = 0.05/9 ≈ 0.0056
    assert r.m == 9


def test_bonferroni_by_hand():
    r = bonferroni([0.001, 0.02, 0.5], alpha=0.05)
    assert r.p_adjusted == pytest.approx((0.003, 0.06, 1.0))
    assert r.reject == (True, False, False)


@pytest.mark.parametrize("correct", [bonferroni, holm])
def test_correction_matches_statsmodels_with_ties(correct):
    rej, adj, _, _ = multipletests(PVALUES, alpha=0.05, method=correct.__name__)
    r = correct(PVALUES, alpha=0.05)
    assert r.method == correct.__name__
    assert list(r.p_adjusted) == pytest.approx(list(adj))
    assert list(r.reject) == list(rej)


def test_holm_by_hand():
    # sorted: 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06
    r = holm([0.01, 0.04, 0.03], alpha=0.05)
    assert r.p_adjusted == pytest.approx((0.03, 0.06, 0.06))
    assert r.reject == (True, False, False)


def test_holm_rejects_at_least_what_bonferroni_rejects():
    b, h = bonferroni(PVALUES), holm(PVALUES)
    assert all(hr or not br for br, hr in zip(b.reject, h.reject))
    assert sum(h.reject) > sum(b.reject)


@pytest.mark.parametrize("bad", [[0.1, float("nan")], [1.2], [-0.1], []])
def test_holm_rejects_invalid_pvalues(bad):
    with pytest.raises(ConfigError, match="p-value|no p-values"):
        holm(bad)


def test_bonferroni_rejects_invalid_alpha():
    with pytest.raises(ConfigError, match="alpha"):
        bonferroni([0.1], alpha=1.5)
