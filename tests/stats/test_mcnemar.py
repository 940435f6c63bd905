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
    from causalgraph.runlog.store import load_run

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


# Table 21(b) CCR member vs position and (c) CCR+ECI+RC member vs position (512 events each):
# variant, χ², p as printed.  The paper gives no discordant counts here.
TABLE21BC = [
    ("b", "A_4", 41.4902, 1.1846e-10), ("b", "A_5", 27.8409, 1.3171e-7), ("b", "A_6", 11.5056, 6.9386e-4),
    ("b", "SN_4", 20.0000, 7.7442e-6), ("b", "SN_5", 13.7931, 2.0408e-4), ("b", "SN_6", 19.5556, 9.7716e-6),
    ("b", "ML_4", 65.1268, 7.0232e-16), ("b", "ML_5", 45.1765, 1.8006e-11), ("b", "ML_6", 0.1023, 7.4912e-1),
    ("c", "0_4", 99.3103, 2.1588e-23), ("c", "0_5", 59.5044, 1.2202e-14), ("c", "0_6", 101.1500, 8.5275e-24),
    ("c", "F_4", 27.0096, 2.0245e-7), ("c", "F_5", 37.8125, 7.7881e-10), ("c", "F_6", 0.1552, 6.9364e-1),
    ("c", "CoT_4", 1.1228, 2.8931e-1), ("c", "CoT_5", 104.6639, 1.4471e-24), ("c", "CoT_6", 129.0076, 6.7558e-30),
]


def _discordant_counts(chi2: float, n: int, correction: bool) -> list[tuple[int, int]]:
    """Every (b, c) with b >= c, b + c <= n whose χ² rounds to the printed value (by hand, not by mcnemar)."""
    out = []
    for m in range(1, n + 1):
        for d in range(m % 2, m + 1, 2):
            if round(max(0, d - (1 if correction else 0)) ** 2 / m, 4) == chi2:
                out.append(((m + d) // 2, (m - d) // 2))
    return out


@pytest.mark.parametrize("table,variant,chi2,p", TABLE21BC)
def test_mcnemar_reproduces_table_21bc_with_whole_discordant_counts(table, variant, chi2, p):
    # The continuity-corrected statistic explains every printed χ² with whole counts within
    # the 512 events; the smallest such table, run through mcnemar, gives the printed χ² and p.
    counts = _discordant_counts(chi2, 512, correction=True)
    assert counts, (table, variant)
    b, c = min(counts, key=lambda bc: bc[0] + bc[1])
    a_vec, b_vec = vectors(512 - b - c, b, c, 0)
    r = mcnemar(a_vec, b_vec, labels=("yes", "no"))
    assert (r.b, r.c) == (b, c) and round(r.statistic, 4) == chi2
    assert r.p == pytest.approx(p, rel=2e-3)


def test_mcnemar_uncorrected_statistic_cannot_explain_table_21a():
    # Three rows of Table 21(a) have no whole (b, c) within 874 items without the correction
    # (and the uncorrected solutions of F_2 and CoT_1 contradict b − c from Table 19):
    # the paper used the continuity-corrected χ², our default.
    rows = [("0_1", 75.3216), ("0_2", 13.8996), ("CoT_2", 0.5042)]
    assert all(not _discordant_counts(chi2, 874, correction=False) for _, chi2 in rows)
    assert all(_discordant_counts(chi2, 874, correction=True) for _, chi2 in rows)
    for variant, pos_a, pos_b, _, chi2, _ in TABLE21A:
        d = abs(pos_a - pos_b)
        assert all(b - c != d for b, c in _discordant_counts(chi2, 874, correction=False)), variant
