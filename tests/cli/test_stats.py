"""``causalgraph stats`` on hand-written runs and oracle runs of ClimateCause."""

from __future__ import annotations

import csv
import io
import json

import pytest
from scipy import stats as ss

from causalgraph.cli import main

from bench_helpers import write_run


@pytest.fixture
def corri_runs(tmp_path):
    a_labels = ["positive"] * 10 + ["negative"] * 4
    b_labels = ["negative"] * 8 + ["positive"] * 2 + ["negative"] * 3 + ["positive"]
    a = write_run(tmp_path / "a", "corri", [("0_1", f"s1/r{i:03d}", "s1", "positive", lab)
                                            for i, lab in enumerate(a_labels)])
    b = write_run(tmp_path / "b", "corri-rc", [("RC_0_1", f"s1/r{i:03d}", "s1", "positive", lab)
                                               for i, lab in enumerate(b_labels)])
    return a, b


def test_stats_mcnemar_json_gives_the_discordant_counts(corri_runs, capsys):
    assert main(["stats", "mcnemar", *map(str, corri_runs), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    # labels sorted (negative, positive): b = A negative & B positive = 1, c = A positive & B negative = 8
    assert len(rows) == 1
    r = rows[0]
    assert (r["variant_a"], r["variant_b"], r["b"], r["c"], r["n"]) == ("0_1", "RC_0_1", 1, 8, 14)
    assert r["statistic"] == pytest.approx(36 / 9)                 # (|1 − 8| − 1)² / 9
    assert r["p"] == pytest.approx(ss.chi2.sf(4.0, 1))
    assert r["significant"] is True and r["sig"] == "*"            # 0.0455 <= 0.05 / 1


def test_stats_mcnemar_table_and_csv(corri_runs, capsys):
    assert main(["stats", "mcnemar", *map(str, corri_runs), "--exact"]) == 0
    out = capsys.readouterr().out
    assert "variant_a" in out and "RC_0_1" in out and "exact" in out and "alpha = 0.05/1" in out
    assert main(["stats", "mcnemar", *map(str, corri_runs), "--format", "csv", "--no-correction"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert float(rows[0]["statistic"]) == pytest.approx(49 / 9) and rows[0]["method"] == "chi2"


def test_stats_mcnemar_missing_items_is_a_one_line_error(corri_runs, tmp_path, capsys):
    short = write_run(tmp_path / "short", "corri-rc", [("RC_0_1", "s1/r000", "s1", "positive", "positive")])
    assert main(["stats", "mcnemar", str(corri_runs[0]), str(short)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("causalgraph stats: error:") and "only in A (13)" in err and "\n" not in err


def test_stats_mcnemar_bad_pair_option_is_refused(corri_runs, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["stats", "mcnemar", *map(str, corri_runs), "--pair", "0_1"])
    assert exc.value.code == 2
    assert "VARIANT_A:VARIANT_B" in capsys.readouterr().err


@pytest.fixture
def oracle_eci(climatecause, tmp_path):
    """CCR+ECI+RC runs whose answers are a deterministic mix of gold and 'no'/'none'."""
    from causalgraph.tasks.climatecause import items

    def build(task, flip):
        rows = []
        for j, it in enumerate(items(climatecause, task, "0_4")):
            label = flip if j % 4 == 0 else it.gold
            rows.append((it.variant, it.id.split("/", 2)[2], it.meta["statement_id"], it.gold, label))
        return write_run(tmp_path / task, task, rows)

    return build("ccr-eci-member", "no"), build("ccr-eci-position", "none")


def test_stats_kruskal_groups_c_of_s_by_predicted_label(oracle_eci, climatecause, capsys):
    from causalgraph.metrics.complexity import complexity_table

    member, _ = oracle_eci
    assert main(["stats", "kruskal", str(member), "--metric", "c_norm", "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    c = dict(zip(*complexity_table(climatecause)[["statement_id", "c_norm"]].T.values))
    recs = [json.loads(x) for x in (member / "responses.jsonl").read_text().splitlines()]
    yes = [c[r["meta"]["statement_id"]] for r in recs if r["label"] == "yes"]
    no = [c[r["meta"]["statement_id"]] for r in recs if r["label"] == "no"]
    ref = ss.kruskal(yes, no)
    assert (row["k"], row["n"]) == (2, 512)
    assert row["H"] == pytest.approx(ref.statistic) and row["p"] == pytest.approx(ref.pvalue)
    assert row["epsilon2"] == pytest.approx((ref.statistic - 1) / 510)


def test_stats_kruskal_posthoc_lists_the_label_pairs(oracle_eci, capsys):
    _, position = oracle_eci
    assert main(["stats", "kruskal", str(position), "--posthoc", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["group_a"], r["group_b"]) for r in rows] == [
        ("start", "middle"), ("start", "end"), ("start", "none"), ("middle", "end"), ("middle", "none"),
        ("end", "none")]


def test_stats_kruskal_unknown_metric_is_refused(oracle_eci, capsys):
    assert main(["stats", "kruskal", str(oracle_eci[0]), "--metric", "nope"]) == 2
    assert "c_norm" in capsys.readouterr().err


def test_stats_consistency_compares_position_with_membership(oracle_eci, capsys):
    member, position = oracle_eci
    assert main(["stats", "consistency", str(position), "--member-run", str(member), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["by_variant"][0]
    # both runs flip the same items (every fourth) to "not in a chain", so they never disagree
    assert row["disagreements"] == 0 and row["events"] == 512
    assert out["summary"]["chainless_statements"] == 45
    assert main(["stats", "consistency", str(position), "--by-statement"]) == 0
    text = capsys.readouterr().out
    assert "cc-001" in text and "statements without a gold chain" in text


def test_stats_mcnemar_on_a_folder_that_is_not_a_run_is_a_one_line_error(tmp_path, capsys):
    assert main(["stats", "mcnemar", str(tmp_path), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a run directory" in err and err.count("\n") == 1
