"""Kruskal-Wallis, ε² and Dunn against hand computations, scipy, scikit-posthocs and Table 22."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from scipy import stats as ss
from statsmodels.stats.multitest import multipletests

from causalgraph.errors import ConfigError
from causalgraph.stats import dunn, epsilon_squared, kruskal

# Table 22 of the ClimateCause paper: (label set, variant, H, p, ε², k, n).
TABLE22 = [
    ("member", "0_4", 47.9251, 4.428e-12, 0.0920, 2, 512),
    ("member", "0_5", 73.6743, 9.213e-18, 0.1425, 2, 512),
    ("member", "0_6", 84.7026, 3.468e-20, 0.1641, 2, 512),
    ("member", "F_4", 50.4575, 1.218e-12, 0.0970, 2, 512),
    ("member", "F_5", 9.5520, 0.001997, 0.0168, 2, 512),
    ("member", "F_6", 46.1151, 1.115e-11, 0.0885, 2, 512),
    ("member", "CoT_4", 12.0326, 0.0005228, 0.0216, 2, 512),
    ("member", "CoT_5", 13.2954, 0.0002661, 0.0241, 2, 512),
    ("member", "CoT_6", 52.4552, 4.402e-13, 0.1009, 2, 512),
    ("position", "0_4", 15.7083, 0.001301, 0.0250, 4, 512),
    ("position", "0_5", 4.6300, 0.201, 0.0032, 4, 512),
    ("position", "0_6", 6.2238, 0.1012, 0.0063, 4, 512),
    ("position", "F_4", 6.7837, 0.07912, 0.0074, 4, 512),
    ("position", "F_5", 47.0067, 3.464e-10, 0.0866, 4, 512),
    ("position", "F_6", 29.7173, 1.583e-6, 0.0526, 4, 512),
    ("position", "CoT_4", 7.9218, 0.04765, 0.0097, 4, 512),
    ("position", "CoT_5", 7.5165, 0.05714, 0.0089, 4, 512),
    ("position", "CoT_6", 28.1288, 3.413e-6, 0.0495, 4, 512),
]


@pytest.mark.parametrize("labels,variant,H,p,eps2,k,n", TABLE22)
def test_epsilon_squared_follows_the_authors_convention_in_every_row_of_table_22(labels, variant, H, p, eps2, k, n):
    assert round(epsilon_squared(H, k, n), 4) == eps2
    # the p-values printed beside them are χ² with k − 1 degrees of freedom
    assert ss.chi2.sf(H, k - 1) == pytest.approx(p, rel=2e-3)


def test_epsilon_squared_issue_example():
    assert round(epsilon_squared(47.9251, 2, 512), 4) == 0.0920


def test_epsilon_squared_tomczak_convention():
    assert epsilon_squared(47.9251, 2, 512, convention="tomczak") == pytest.approx(47.9251 / 511)


def test_epsilon_squared_rejects_degenerate_sizes_and_unknown_convention():
    with pytest.raises(ConfigError, match="k=1"):
        epsilon_squared(3.0, 1, 10)
    with pytest.raises(ConfigError, match="convention"):
        epsilon_squared(3.0, 2, 10, convention="cohen")


def test_kruskal_by_hand_without_ties():
    # ranks 1..6; R_a = 6, R_b = 15: H = 12/(6·7)·(36/3 + 225/3) − 3·7 = 27/7
    r = kruskal([1, 2, 3, 4, 5, 6], ["a", "a", "a", "b", "b", "b"])
    assert r.H == pytest.approx(27 / 7)
    assert (r.k, r.n, r.df, r.groups, r.sizes) == (2, 6, 1, ("a", "b"), (3, 3))
    assert r.epsilon2 == pytest.approx((27 / 7 - 1) / 4)
    assert r.p == pytest.approx(ss.chi2.sf(27 / 7, 1))


def test_kruskal_by_hand_with_ties():
    # a = [1, 2, 2], b = [2, 3, 3]: ranks a = 1, 3, 3; b = 3, 5.5, 5.5
    # H0 = 12/42·(49/3 + 196/3) − 21 = 7/3; tie factor 1 − (24 + 6)/210 = 6/7
    r = kruskal([1, 2, 2, 2, 3, 3], ["a", "a", "a", "b", "b", "b"])
    assert r.H == pytest.approx((7 / 3) / (6 / 7))


def test_kruskal_matches_scipy_on_random_data_with_ties():
    rng = np.random.default_rng(7)
    vals = rng.integers(0, 6, size=90).astype(float)
    groups = rng.choice(["start", "middle", "end", "none"], size=90)
    r = kruskal(vals, groups)
    ref = ss.kruskal(*[vals[groups == g] for g in r.groups])
    assert r.H == pytest.approx(ref.statistic) and r.p == pytest.approx(ref.pvalue)
    assert r.k == 4 and r.n == 90


def test_kruskal_group_order_is_first_appearance_or_given():
    assert kruskal([1, 2, 3, 4], ["z", "a", "z", "a"]).groups == ("z", "a")
    assert kruskal([1, 2, 3, 4], ["z", "a", "z", "a"], order=["a", "z"]).groups == ("a", "z")


def test_kruskal_errors_name_the_problem():
    with pytest.raises(ConfigError, match="at least two groups"):
        kruskal([1, 2, 3], ["a", "a", "a"])
    with pytest.raises(ConfigError, match="identical"):
        kruskal([1, 1, 1, 1], ["a", "b", "a", "b"])
    with pytest.raises(ConfigError, match=r"positions \[1\]"):
        kruskal([1, float("nan"), 3, 4], ["a", "b", "a", "b"])
    with pytest.raises(ConfigError, match="differ in length"):
        kruskal([1, 2], ["a"])
    with pytest.raises(ConfigError, match="not in order"):
        kruskal([1, 2, 3, 4], ["a", "b", "a", "c"], order=["a", "b"])


def test_dunn_by_hand_without_ties():
    # n = 9: variance n(n+1)/12 = 7.5; 1/3 + 1/3 → se = sqrt(5); mean ranks 2, 5, 8
    df = dunn([1, 2, 3, 4, 5, 6, 7, 8, 9], list("aaabbbccc"))
    assert list(zip(df.group_a, df.group_b)) == [("a", "b"), ("a", "c"), ("b", "c")]
    expected_z = [-3 / math.sqrt(5), -6 / math.sqrt(5), -3 / math.sqrt(5)]
    assert list(df.z) == pytest.approx(expected_z)
    expected_p = [2 * ss.norm.sf(abs(z)) for z in expected_z]
    assert list(df.p) == pytest.approx(expected_p)
    # Holm by hand: smallest p × 3, then the two equal ones × 2 (running max)
    p_ab, p_ac = expected_p[0], expected_p[1]
    assert list(df.p_adj) == pytest.approx([max(3 * p_ac, 2 * p_ab), 3 * p_ac, max(3 * p_ac, 2 * p_ab)])


def test_dunn_by_hand_with_ties():
    # a = [1, 2, 2], b = [2, 3, 3]: tie term (24 + 6)/(12·5) = 0.5 → variance 3.5 − 0.5 = 3
    df = dunn([1, 2, 2, 2, 3, 3], list("aaabbb"), p_adjust="none")
    z = (7 / 3 - 14 / 3) / math.sqrt(3 * (2 / 3))
    assert df.z.iloc[0] == pytest.approx(z)
    assert df.p.iloc[0] == pytest.approx(2 * ss.norm.sf(abs(z)))
    assert df.p_adj.iloc[0] == df.p.iloc[0]


def test_dunn_matches_scikit_posthocs_and_statsmodels_holm():
    rng = np.random.default_rng(3)
    vals = np.round(rng.gamma(2.0, 0.4, size=120), 1)
    groups = list(rng.choice(["none", "start", "middle", "end"], size=120, p=[0.6, 0.1, 0.2, 0.1]))
    df = dunn(vals, groups, p_adjust="holm", order=["start", "middle", "end", "none"])
    frame = pd.DataFrame({"v": vals, "g": groups})
    ref = sp.posthoc_dunn(frame, val_col="v", group_col="g", p_adjust="holm")
    ref_raw = sp.posthoc_dunn(frame, val_col="v", group_col="g")
    for row in df.itertuples():
        assert row.p_adj == pytest.approx(ref.loc[row.group_a, row.group_b])
        assert row.p == pytest.approx(ref_raw.loc[row.group_a, row.group_b])
        assert row.p == pytest.approx(2 * ss.norm.sf(abs(row.z)))
    assert list(df.p_adj) == pytest.approx(list(multipletests(list(df.p), method="holm")[1]))
    assert len(df) == 6


def test_dunn_rejects_unknown_adjustment():
    with pytest.raises(ConfigError, match="p_adjust"):
        dunn([1, 2, 3, 4], list("abab"), p_adjust="fdr")
