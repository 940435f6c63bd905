"""The paper's analyses over runs (Tables 21 and 22) on hand-written run directories."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy import stats as ss

from causalgraph.errors import ConfigError
from causalgraph.runlog import RunRecord
from causalgraph.stats import kruskal_runs, mcnemar_runs, pair_key, pair_variants, variant_key
from causalgraph.tasks import get_task
from causalgraph.tasks.climatecause import collapse_position

POS, NEG = "positive", "negative"


def corri_rows(variant, labels, gold=None):
    gold = gold or [POS] * len(labels)
    return [(variant, f"s{i // 3 + 1}/r{i:03d}", f"s{i // 3 + 1}", g, lab)
            for i, (g, lab) in enumerate(zip(gold, labels))]


@pytest.fixture
def corri_runs(make_run):
    a = make_run("corri", "corri",
                 corri_rows("0_1", [POS, POS, POS, NEG, NEG, POS]) + corri_rows("F_2", [POS] * 6))
    b = make_run("corri-rc", "corri-rc",
                 corri_rows("RC_0_1", [NEG, NEG, POS, NEG, POS, "ERROR"]) + corri_rows("RC_F_2", [NEG] * 6))
    return a, b


def test_mcnemar_runs_pairs_variants_and_items_across_tasks(corri_runs):
    t = mcnemar_runs(*corri_runs, correction=False)
    assert list(zip(t.variant_a, t.variant_b)) == [("0_1", "RC_0_1"), ("F_2", "RC_F_2")]
    row = t.iloc[0]
    # pairs (A, B): (+,−) (+,−) (+,+) (−,−) (−,+); the sixth has a failed request in B
    assert (row.n, row.excluded, row.b, row.c) == (5, 1, 1, 2)
    assert row.statistic == pytest.approx(1 / 3)
    assert row.p == pytest.approx(ss.chi2.sf(1 / 3, 1))


def test_mcnemar_runs_applies_bonferroni_over_the_variants(corri_runs):
    t = mcnemar_runs(*corri_runs)            # corrected χ², the paper's choice
    row = t.iloc[1]                           # F_2: all six flip positive -> negative
    assert (row.b, row.c) == (0, 6)
    assert row.statistic == pytest.approx(25 / 6)
    assert row.p == pytest.approx(ss.chi2.sf(25 / 6, 1))      # 0.0412 < 0.05 …
    assert row.threshold == pytest.approx(0.025)              # … but not < 0.05 / 2
    assert not row.significant and row.sig == ""
    assert row.p_bonferroni == pytest.approx(2 * row.p)
    assert t.iloc[0].statistic == 0.0                         # |b − c| = 1 → clamped


def test_mcnemar_runs_exact_and_significance_mark(corri_runs):
    t = mcnemar_runs(*corri_runs, exact=True, alpha=0.1)
    assert t.iloc[1].p == pytest.approx(2 / 64)
    assert t.iloc[1].significant and t.iloc[1].sig == "*"       # 2/64 <= 0.1 / 2
    assert t.iloc[1].method == "exact"


def test_mcnemar_runs_collapses_position_to_membership(make_run):
    member = make_run("m", "ccr-member", [
        ("A_4", "s1/e000", "s1", "yes", "yes"), ("A_4", "s1/e001", "s1", "yes", "yes"),
        ("A_4", "s1/e002", "s1", "yes", "no"), ("A_4", "s1/e003", "s1", "no", "no"),
        ("A_4", "s2/e000", "s2", "no", "no"), ("A_4", "s2/e001", "s2", "no", "yes")])
    position = make_run("p", "ccr-position", [
        ("A_4", "s1/e000", "s1", "start", "start"), ("A_4", "s1/e001", "s1", "middle", "none"),
        ("A_4", "s1/e002", "s1", "end", "end"), ("A_4", "s1/e003", "s1", "none", "middle"),
        ("A_4", "s2/e000", "s2", "none", "none"), ("A_4", "s2/e001", "s2", "none", "none")])
    t = mcnemar_runs(member, position, correction=False)
    # collapsed position: yes, no, yes, yes, no, no; member: yes, yes, no, no, no, yes
    # labels sorted (no, yes): b = member no & position yes = 2; c = member yes & position no = 2
    assert (t.iloc[0].b, t.iloc[0].c, t.iloc[0].n) == (2, 2, 6)
    assert t.iloc[0].statistic == 0.0


def test_mcnemar_runs_lists_items_missing_from_one_run(make_run):
    a = make_run("a", "corri", corri_rows("0_1", [POS, NEG, POS]))
    b = make_run("b", "corri-rc", corri_rows("RC_0_1", [POS, NEG]))
    with pytest.raises(ConfigError, match=r"only in A \(1\): s1/r002; only in B \(0\)"):
        mcnemar_runs(a, b)


def test_mcnemar_runs_refuses_unpaired_variants(make_run):
    a = make_run("a", "corri", corri_rows("0_1", [POS, NEG]) + corri_rows("0_2", [POS, NEG]))
    b = make_run("b", "corri-rc", corri_rows("RC_0_1", [POS, NEG]))
    with pytest.raises(ConfigError, match=r"without a partner: run A \['0_2'\]"):
        mcnemar_runs(a, b)
    t = mcnemar_runs(a, b, pairs=[("0_2", "RC_0_1")])
    assert list(t.variant_a) == ["0_2"]


def test_variant_key_and_pair_variants_follow_the_papers_names():
    words = get_task("ccr-member").variant_words  # the ClimateCause tasks declare the words of their ids
    assert variant_key("RC_CoT_3", words) == variant_key("CorrI_RC_CoT_3", words) == "CoT_3"
    assert variant_key("CCR_member_SN_5", words) == variant_key("CCR_position_SN_5", words) == "SN_5"
    assert pair_variants(["A_4", "A_5"], ["A_5", "A_4"]) == [("A_4", "A_4"), ("A_5", "A_5")]
    # a task that declares no words pairs variants by their ids only
    assert variant_key("RC_CoT_3") == "RC_CoT_3"


def test_pair_key_strips_task_and_variant_only_when_they_prefix_the_id():
    assert pair_key(RunRecord("ccr-member", "A_4", "ccr-member/A_4/cc-003/e002")) == "cc-003/e002"
    assert pair_key(RunRecord("x", "y", "other-id")) == "other-id"


def test_collapse_position_rejects_unknown_labels():
    with pytest.raises(ConfigError, match="'maybe'"):
        collapse_position("maybe")


VALUES = {"s1": 0.1, "s2": 0.5, "s3": 1.2, "s4": 0.0}


@pytest.fixture
def member_run(make_run):
    rows = []
    preds = {"s1": ["no", "no", "yes"], "s2": ["yes", "no", "yes"], "s3": ["yes", "yes", "ERROR"],
             "s4": ["no", "no", "no"]}
    for sid, labs in preds.items():
        for i, lab in enumerate(labs):
            rows.append(("0_4", f"{sid}/e{i:03d}", sid, "no", lab))
    rows += [("0_5", f"{sid}/e{i:03d}", sid, "no", "no") for sid in preds for i in range(3)]
    return make_run("eci-member", "ccr-eci-member", rows)


def test_kruskal_runs_tests_statement_values_across_predicted_labels(member_run):
    res = kruskal_runs(member_run, VALUES, metric="c_norm")
    row = res.table.iloc[0]
    yes = [0.1, 0.5, 0.5, 1.2, 1.2]
    no = [0.1, 0.1, 0.5, 0.0, 0.0, 0.0]
    ref = ss.kruskal(yes, no)
    assert (row.variant, row.k, row.n, row.excluded) == ("0_4", 2, 11, 1)
    assert row.H == pytest.approx(ref.statistic) and row.p == pytest.approx(ref.pvalue)
    assert row.epsilon2 == pytest.approx((ref.statistic - 1) / 9)
    assert row.metric == "c_norm"
    d = res.dunn
    assert list(zip(d.group_a, d.group_b)) == [("yes", "no")]
    assert d.iloc[0].z > 0          # "yes" items sit in higher-C(s) statements


def test_kruskal_runs_reports_a_variant_with_one_predicted_label(member_run):
    row = kruskal_runs(member_run, VALUES).table.iloc[1]
    assert (row.variant, row.k, row.n) == ("0_5", 1, 12)
    assert pd.isna(row.H) and pd.isna(row.epsilon2) and "only one predicted label" in row.note


def test_kruskal_runs_names_statements_without_a_value(member_run):
    with pytest.raises(ConfigError, match=r"no value value for statements \['s4'\]"):
        kruskal_runs(member_run, {k: v for k, v in VALUES.items() if k != "s4"})
