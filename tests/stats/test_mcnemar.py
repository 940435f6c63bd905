"""McNemar's test against statsmodels, hand computations and the paper's Table 21."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy import stats as ss
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from causalgraph.errors import ConfigError
from causalgraph.stats import mcnemar


def vectors(n00: int, n01: int, n10: int, n11: int, labels=("yes", "no")):
    """Paired vectors whose 2×2 table (rows a, columns b) is the one given."""
    y, n = labels
    a = [y] * (n00 + n01) + [n] * (n10 + n11)
    b = [y] * n00 + [n] * n01 + [y] * n10 + [n] * n11
    return a, b


TABLES = [(30, 10, 2, 40), (5, 17, 9, 3), (100, 3, 0, 60), (12, 40, 41, 8), (0, 1, 6, 0)]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_chi2_matches_statsmodels(table, correction):
    a, b = vectors(*table)
    r = mcnemar(a, b, correction=correction, labels=("yes", "no"))
    ref = sm_mcnemar([[table[0], table[1]], [table[2], table[3]]], exact=False, correction=correction)
    assert (r.b, r.c) == (table[1], table[2])
    assert r.statistic == pytest.approx(ref.statistic)
    assert r.p == pytest.approx(ref.pvalue)
    assert r.method == ("chi2-corrected" if correction else "chi2")


@pytest.mark.parametrize("table", TABLES)
def test_mcnemar_exact_matches_statsmodels(table):
    a, b = vectors(*table)
    r = mcnemar(a, b, exact=True, labels=("yes", "no"))
    ref = sm_mcnemar([[table[0], table[1]], [table[2], table[3]]], exact=True)
    assert r.statistic == ref.statistic == min(table[1], table[2])
    assert r.p == pytest.approx(ref.pvalue)


def test_mcnemar_corrected_by_hand():
    a, b = vectors(3, 10, 2, 5)
    r = mcnemar(a, b, labels=("yes", "no"))
    assert r.statistic == pytest.approx(49 / 12)   # (|10 - 2| - 1)² / 12
    assert r.table == ((3, 10), (2, 5)) and r.n == 20 and r.discordant == 12


def test_mcnemar_midp_by_hand():
    # b = 1, c = 5: P(X <= 1) = 7/64, exact p = 14/64, point probability 6/64 -> mid-p 8/64
    a, b = vectors(0, 1, 5, 0)
    assert mcnemar(a, b, exact=True, labels=("yes", "no")).p == pytest.approx(14 / 64)
    r = mcnemar(a, b, exact=True, midp=True, labels=("yes", "no"))
    assert r.p == pytest.approx(8 / 64) and r.method == "mid-p"


def test_mcnemar_midp_without_exact_is_refused():
    with pytest.raises(ConfigError, match="exact=True"):
        mcnemar([1, 0], [0, 1], midp=True)


def test_mcnemar_no_discordant_pairs_gives_p_one():
    a, b = vectors(4, 0, 0, 3)
    for kw in ({}, {"correction": False}, {"exact": True}, {"exact": True, "midp": True}):
        r = mcnemar(a, b, **kw)
        assert (r.statistic, r.p) == (0.0, 1.0)


def test_mcnemar_equal_discordant_counts_clamp_the_corrected_statistic_at_zero():
    a, b = vectors(1, 4, 4, 1)
    r = mcnemar(a, b)
    assert r.statistic == 0.0 and r.p == 1.0


def test_mcnemar_booleans_count_b_as_first_true():
    r = mcnemar([True, True, True, False], [False, False, True, True], correction=False)
    assert (r.b, r.c, r.labels) == (2, 1, (True, False))


def test_mcnemar_mappings_pair_by_item_id_in_any_order():
    a = {"i1": "yes", "i2": "no", "i3": "yes"}
    b = {"i3": "no", "i1": "yes", "i2": "yes"}
    r = mcnemar(a, b, correction=False, labels=("yes", "no"))
    assert (r.b, r.c) == (1, 1)
    s = mcnemar(pd.Series(a), pd.Series(b), correction=False, labels=("yes", "no"))
    assert (s.b, s.c) == (1, 1)


def test_mcnemar_mappings_with_different_items_list_them():
    with pytest.raises(ConfigError, match=r"only in the first \(1\): i9; only in the second \(2\): i4, i5"):
        mcnemar({"i1": "yes", "i9": "no"}, {"i1": "no", "i4": "yes", "i5": "no"})


def test_mcnemar_three_categories_are_refused():
    with pytest.raises(ConfigError, match="3 values"):
        mcnemar(["start", "end", "none"], ["none", "none", "none"])


def test_mcnemar_missing_predictions_are_refused_with_their_ids():
    with pytest.raises(ConfigError, match="missing predictions.*i2"):
        mcnemar({"i1": "yes", "i2": None}, {"i1": "no", "i2": "no"})


def test_mcnemar_length_mismatch_is_refused():
    with pytest.raises(ConfigError, match="differ in length: 2 and 3"):
        mcnemar([1, 0], [1, 0, 1])


def test_mcnemar_value_outside_labels_is_reported():
    with pytest.raises(ConfigError, match=r"b\[1\]='maybe'"):
        mcnemar(["yes", "no"], ["yes", "maybe"], labels=("yes", "no"))


# Table 21(a), CorrI vs CorrI+RC.  The paper gives χ² and p but not b and c.
# From Table 19 (precision P, recall R over the 581 positive relations) each
# run's number of "positive" predictions is round(R·581)/P; their difference is
# b − c of the 2×2 table of predicted labels.  b + c is then the one integer
# for which (|b − c| − 1)² / (b + c) gives the printed χ²: one exists for 7 of
# the 9 rows (F_1 and F_3 do not give whole counts from Table 19).
TABLE21A = [
    # variant, predicted positive CorrI, CorrI+RC, b + c, chi2, p
    ("0_1", 697, 550, 283, 75.3216, 3.9997e-18),
    ("0_2", 717, 656, 259, 13.8996, 1.9284e-4),
    ("0_3", 346, 352, 218, 0.1147, 7.3488e-1),
    ("F_2", 696, 630, 208, 20.3125, 6.5770e-6),
    ("CoT_1", 648, 513, 213, 84.3005, 4.2501e-20),
    ("CoT_2", 686, 674, 240, 0.5042, 4.7768e-1),
    ("CoT_3", 586, 602, 76, 2.9605, 8.5320e-2),
]


@pytest.mark.parametrize("variant,pos_a,pos_b,disc,chi2,p", TABLE21A)
def test_mcnemar_reproduces_table_21a(variant, pos_a, pos_b, disc, chi2, p):
    d = pos_a - pos_b            # = b − c
    b, c = (disc + d) // 2, (disc - d) // 2
    n = 874
    n11 = pos_a - b              # both positive
    a_vec, b_vec = vectors(n11, b, c, n - n11 - b - c, labels=("positive", "negative"))
    assert a_vec.count("positive") == pos_a and b_vec.count("positive") == pos_b
    r = mcnemar(a_vec, b_vec)
    assert round(r.statistic, 4) == chi2
    assert r.p == pytest.approx(p, rel=1e-4)
    assert r.p == pytest.approx(ss.chi2.sf(chi2, 1), rel=1e-3)


def test_mcnemar_on_two_one_variant_runs_pairs_items_across_tasks(make_run):
    from causalgraph.bench.store import load_run

    a = make_run("a", "corri", [("0_1", "s1/r000", "s1", "positive", "positive"),
                                ("0_1", "s1/r001", "s1", "negative", "positive"),
                                ("0_1", "s2/r002", "s2", "negative", "negative")])
    b = make_run("b", "corri-rc", [("RC_0_1", "s2/r002", "s2", "negative", "positive"),
                                   ("RC_0_1", "s1/r001", "s1", "negative", "negative"),
                                   ("RC_0_1", "s1/r000", "s1", "positive", "positive")])
    r = mcnemar(a, load_run(b), correction=False)
    # (A, B): r000 (+, +), r001 (+, −), r002 (−, +); labels sorted (negative, positive)
    assert (r.b, r.c, r.n) == (1, 1, 3)


def test_mcnemar_refuses_runs_with_several_variants_and_strings(make_run):
    a = make_run("a", "corri", [("0_1", "s1/r000", "s1", "positive", "positive"),
                                ("0_2", "s1/r000", "s1", "positive", "positive")])
    with pytest.raises(ConfigError, match="use mcnemar_runs"):
        mcnemar(a, a)
    with pytest.raises(ConfigError, match="got a string"):
        mcnemar(str(a), str(a))
