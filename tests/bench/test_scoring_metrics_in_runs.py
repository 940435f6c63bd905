"""Scoring metrics asked for by name reach metrics.json, bench report and stats compare; unasked, nothing changes."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score, matthews_corrcoef

from causalgraph.bench.scoring import compute_metrics, scoring_metric_scores
from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.runlog import RunRecord
from causalgraph.runlog.store import load_run
from causalgraph.scoring.scoring_metrics import get_scoring_metric
from causalgraph.stats.compare import compare_runs, confusion_influence, f1_influence
from causalgraph.tasks import get_task

from bench_helpers import write_run


def _rows(seed: int, statements: int, per: int, p_right: float):
    rng = random.Random(seed)
    out = []
    for s in range(statements):
        for i in range(per):
            gold = "yes" if rng.random() < 0.3 else "no"
            label = gold if rng.random() < p_right else ("no" if gold == "yes" else "yes")
            if rng.random() < 0.05:
                label = None  # unparsed: wrong for every metric
            out.append(("A_5", f"s{s}/e{i}", f"s{s}", gold, label))
    return out


@pytest.fixture
def two_runs(tmp_path):
    a = write_run(tmp_path / "a", "ccr-member", _rows(1, 40, 6, 0.7))
    b = write_run(tmp_path / "b", "ccr-member", _rows(1, 40, 6, 0.7))
    # the same items, other answers: arm b's run rewritten from a second draw of answers on the same gold
    recs_a = [json.loads(x) for x in (a / "responses.jsonl").read_text().splitlines()]
    rng = random.Random(7)
    with open(b / "responses.jsonl", "w", encoding="utf-8") as fh:
        for r in recs_a:
            right = rng.random() < 0.8
            label = r["gold"] if right else ("no" if r["gold"] == "yes" else "yes")
            fh.write(json.dumps({**r, "label": label, "response": label}) + "\n")
    manifest = json.loads((b / "manifest.json").read_text())
    (b / "manifest.json").write_text(json.dumps({**manifest, "model": "mock/other"}))
    return a, b


def test_unasked_the_metrics_are_those_of_before_and_asked_only_keys_are_added(two_runs):
    run = load_run(two_runs[0])
    plain = compute_metrics(run)
    asked = compute_metrics(run, scoring_metrics=["mcc", "balanced_accuracy"])
    assert plain.scoring_metrics is None and all("scoring_metrics" not in v for v in plain.variants.values())
    assert "scoring_metrics" not in plain.to_dict()
    v0, v1 = plain.variants["A_5"], asked.variants["A_5"]
    assert {k: v for k, v in v1.items() if not k.startswith("scoring_metrics") and k != "notes"} == \
        {k: v for k, v in v0.items() if k != "notes"}
    # the notes of before, then the scoring metrics' own (balanced accuracy: 40 statements, 63 needed)
    old_notes = v0.get("notes", [])
    assert v1["notes"][:len(old_notes)] == old_notes
    assert v1["notes"][len(old_notes):] == ["balanced_accuracy_ci95 not estimable: 40 statements, at least 63 "
                                            "needed for the statement bootstrap to cover (docs/statistics.md)"]
    assert {k: v for k, v in asked.to_dict().items() if k not in ("variants", "strategies", "scoring_metrics")} == \
        {k: v for k, v in plain.to_dict().items() if k not in ("variants", "strategies")}
    recs = run.records("A_5")
    gold = [r.gold for r in recs]
    pred = [r.label if r.label is not None else "unparsed" for r in recs]
    assert v1["scoring_metrics"]["mcc"] == pytest.approx(matthews_corrcoef(gold, pred))
    with pytest.warns(UserWarning):  # scikit-learn: "unparsed" is a predicted class no gold item has
        assert v1["scoring_metrics"]["balanced_accuracy"] == pytest.approx(balanced_accuracy_score(gold, pred))
    lo, hi = v1["scoring_metrics_ci95"]["mcc"]
    assert -1 <= lo < v1["scoring_metrics"]["mcc"] < hi <= 1  # 40 statements: estimable


def test_the_interval_is_the_statement_bootstrap_of_the_f1_interval_with_the_same_resamples(two_runs):
    # A scoring metric that is the binary F1 of the positive class gets the F1 interval bit for bit.
    from causalgraph.scoring.scoring_metrics import ScoringMetric, register_scoring_metric, unregister_scoring_metric

    def f1(m, labels, positive):
        i = labels.index(positive)
        tp, fp, fn = m[i, i], m[:, i].sum() - m[i, i], m[i].sum() - m[i, i]
        return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None

    register_scoring_metric(ScoringMetric("f1_again", f1, "F1 of the positive class"))
    try:
        m = compute_metrics(load_run(two_runs[0]), scoring_metrics=["f1_again"], n_boot=300, seed=4)
        v = m.variants["A_5"]
        assert v["scoring_metrics"]["f1_again"] == pytest.approx(v["f1"])
        assert v["scoring_metrics_ci95"]["f1_again"] == pytest.approx(v["f1_ci95"], abs=1e-12)
    finally:
        unregister_scoring_metric("f1_again")


def test_what_a_run_cannot_support_is_refused_in_one_line(tmp_path, two_runs):
    run = load_run(two_runs[0])
    with pytest.raises(ConfigError, match="reducer pass@1 is not supported"):
        compute_metrics(run, scoring_metrics=["mcc"], reducer="pass@1")
    sets = get_task("sinks")
    with pytest.raises(ConfigError, match="scored by its own scorer"):
        compute_metrics(run, spec=sets, scoring_metrics=["mcc"])


def test_few_statements_give_the_value_and_no_interval_with_a_note():
    recs = [RunRecord("ccr-member", "A_5", f"i{i}", gold=g, label=a, meta={"statement_id": f"s{i % 5}"})
            for i, (g, a) in enumerate([("yes", "yes"), ("no", "no"), ("yes", "no"), ("no", "no")] * 5)]
    out = scoring_metric_scores(recs, get_task("ccr-member"), [get_scoring_metric("balanced_accuracy")])
    assert out["scoring_metrics"] == {"balanced_accuracy": 0.75} and out["scoring_metrics_ci95"] == {
        "balanced_accuracy": None}
    assert out["notes"] == ["balanced_accuracy_ci95 not estimable: 5 statements, at least 63 needed for the "
                            "statement bootstrap to cover (docs/statistics.md)"]


def test_each_metric_has_the_minimum_its_simulation_supports():
    # balanced accuracy's run interval covers 0.919 at 30 and 40 statements, 0.936 at 63 (docs/statistics.md):
    # on the 40 statements of the fixture, mcc gets an interval and balanced accuracy a note.
    from causalgraph.bench.scoring import MIN_STATEMENTS_INTERVAL
    from causalgraph.scoring.scoring_metrics import DEFAULT_MIN_STATEMENTS

    assert DEFAULT_MIN_STATEMENTS == MIN_STATEMENTS_INTERVAL == get_scoring_metric("mcc").min_statements
    assert get_scoring_metric("balanced_accuracy").min_statements == 63
    recs = [RunRecord("ccr-member", "A_5", f"i{i}", gold=g, label=a, meta={"statement_id": f"s{i // 4}"})
            for i, (g, a) in enumerate([("yes", "yes"), ("no", "no"), ("yes", "no"), ("no", "yes")] * 40)]
    out = scoring_metric_scores(recs, get_task("ccr-member"), [get_scoring_metric("mcc"),
                                                               get_scoring_metric("balanced_accuracy")], n_boot=200)
    assert out["scoring_metrics_ci95"]["mcc"] is not None and out["scoring_metrics_ci95"]["balanced_accuracy"] is None
    assert out["notes"] == ["balanced_accuracy_ci95 not estimable: 40 statements, at least 63 needed for the "
                            "statement bootstrap to cover (docs/statistics.md)"]


def test_bench_report_shows_the_columns_and_writes_nothing(two_runs, capsys):
    before = (two_runs[0] / "manifest.json").read_bytes(), sorted(p.name for p in two_runs[0].iterdir())
    assert main(["bench", "report", str(two_runs[0]), "--scoring-metric", "mcc", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split(",")
    assert header[-2:] == ["mcc", "mcc_ci95"]
    assert before == ((two_runs[0] / "manifest.json").read_bytes(), sorted(p.name for p in two_runs[0].iterdir()))
    assert main(["bench", "report", str(two_runs[0]), "--scoring-metric", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown scoring metric 'nope'" in err


def test_confusion_influence_of_f1_is_the_f1_influence_of_stats_compare():
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 2, 200)
    cols = np.where(rng.random(200) < 0.7, rows, rng.integers(0, 3, 200))
    m = np.zeros((2, 3))
    np.add.at(m, (rows, cols), 1)

    def f1(mat):
        tp, fp, fn = mat[0, 0], mat[:, 0].sum() - mat[0, 0], mat[0].sum() - mat[0, 0]
        return 2 * tp / (2 * tp + fp + fn)

    counts = np.stack([(rows == 0) & (cols == 0), (rows != 0) & (cols == 0), (rows == 0) & (cols != 0)], axis=1)
    f, u = f1_influence(counts.astype(int))
    assert f == pytest.approx(f1(m))
    assert confusion_influence(f1, m, rows, cols) == pytest.approx(u, abs=1e-6)


def test_stats_compare_adds_each_metrics_difference_and_its_interval(two_runs):
    t = compare_runs(list(two_runs), by="model", scoring_metrics=["mcc"])
    [row] = t.to_dict(orient="records")
    ra, rb = load_run(two_runs[0]).records("A_5"), load_run(two_runs[1]).records("A_5")
    want_a = matthews_corrcoef([r.gold for r in ra], [r.label or "unparsed" for r in ra])
    want_b = matthews_corrcoef([r.gold for r in rb], [r.label or "unparsed" for r in rb])
    assert (row["mcc_a"], row["mcc_b"]) == (pytest.approx(want_a), pytest.approx(want_b))
    assert row["mcc_diff"] == pytest.approx(want_b - want_a)
    assert row["mcc_ci_low"] < row["mcc_diff"] < row["mcc_ci_high"]
    plain = compare_runs(list(two_runs), by="model")
    assert list(plain.columns) == [c for c in t.columns if not c.startswith("mcc_")]
    assert plain.iloc[0].to_dict() == {k: v for k, v in row.items() if not k.startswith("mcc_")}


def test_stats_compare_refuses_a_scoring_metric_with_rank_in_one_line(two_runs, capsys):
    assert main(["stats", "compare", str(two_runs[0]), str(two_runs[1]), "--by", "model", "--rank",
                 "--scoring-metric", "mcc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scoring-metric with --rank" in err


def test_an_arm_that_answered_nothing_has_no_scoring_metric_in_stats_compare(tmp_path, two_runs):
    # Every request of arm b failed: its balanced accuracy would read 0 (every answer wrong), a score of a
    # model never asked; it is blank, with the difference and its interval, and the row says why.
    recs = [json.loads(x) for x in (two_runs[1] / "responses.jsonl").read_text().splitlines()]
    with open(two_runs[1] / "responses.jsonl", "w", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps({**r, "label": None, "response": None, "error": "HTTP 500"}) + "\n")
    [row] = compare_runs(list(two_runs), by="model", scoring_metrics=["balanced_accuracy", "mcc"]).to_dict(
        orient="records")
    ra = load_run(two_runs[0]).records("A_5")
    with pytest.warns(UserWarning):
        want_a = balanced_accuracy_score([r.gold for r in ra], [r.label or "unparsed" for r in ra])
    assert row["balanced_accuracy_a"] == pytest.approx(want_a)
    assert all(row[f"{m}_{c}"] is None for m in ("balanced_accuracy", "mcc")
               for c in ("b", "diff", "ci_low", "ci_high"))
    assert row["note"] == "no answered item in arm mock/other: no score, no test"


@pytest.mark.parametrize("name", ["gap", "edge_f1", "answer_accuracy"])
def test_a_metric_named_like_a_graph_first_column_is_refused(name):
    from causalgraph.scoring.scoring_metrics import ScoringMetric, register_scoring_metric

    with pytest.raises(ConfigError, match="not a column of the built-in scores"):
        register_scoring_metric(ScoringMetric(name, lambda m, labels, positive: 0.0, "shadows a column"))


def test_a_metric_no_longer_installed_is_refused_before_anything_is_rewritten(tmp_path, capsys):
    # metrics.json keeps the scoring metrics a run was scored with; a plugin's, uninstalled since, stops
    # `bench parse` and a resumed `bench run` in one line at the start, with responses.jsonl untouched.
    from causalgraph.scoring.scoring_metrics import ScoringMetric, register_scoring_metric, unregister_scoring_metric

    run = write_run(tmp_path / "r", "ccr-member", _rows(2, 3, 4, 0.7))
    register_scoring_metric(ScoringMetric("gone_x", lambda m, labels, positive: 0.5, "a plugin's"))
    try:
        from causalgraph.runlog.store import RunStore

        RunStore(run).write_metrics(compute_metrics(load_run(run), scoring_metrics=["gone_x"]))
        assert main(["bench", "parse", str(run)]) == 0  # kept while installed
        written = json.loads((run / "metrics.json").read_text())
        assert written["scoring_metrics"] == {"gone_x": "a plugin's"}
    finally:
        unregister_scoring_metric("gone_x")
    before = (run / "responses.jsonl").read_bytes(), (run / "metrics.json").read_bytes()
    assert main(["bench", "parse", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "metrics.json is scored with gone_x, which it keeps: unknown scoring metric" in err
    assert before == ((run / "responses.jsonl").read_bytes(), (run / "metrics.json").read_bytes())
