"""Issue 35 items 6, 8, 20, 24: undefined scores shown as undefined, the bootstrap's real unit, a plot that
cannot fail the table."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.bench.scoring import bootstrap_interval, bootstrap_unit, score_records, score_notes
from causalgraph.cli import main
from causalgraph.runlog import RunRecord
from causalgraph.stats.difficulty import _wilson, fit_difficulty, plot_difficulty
from causalgraph.tasks import get_task

SPEC = get_task("ccr-member")


def _rec(i, gold, label, sid="s0", method=None):
    return RunRecord("ccr-member", "A_5", f"i{i}", gold=gold, label=label, rule="tag", meta={"statement_id": sid},
                     method=method or None)


def test_a_perfect_model_on_all_negative_golds_has_undefined_f1_not_zero():
    recs = [_rec(i, "no", "no", f"s{i}") for i in range(3)]
    s = score_records(recs, SPEC, n_boot=200)
    assert (s["precision"], s["recall"], s["f1"]) == (None, None, None)
    assert s["accuracy"] == 1.0 and s["f1_ci95"] is None
    assert len(s["notes"]) == 1 and "undefined" in s["notes"][0]
    assert score_notes({"variants": {"A_5": s}}) == [f"A_5: {s['notes'][0]}"]


def test_one_positive_answer_makes_f1_defined_again_by_2tp_over_2tp_fp_fn():
    recs = [_rec(0, "no", "yes", "s0"), _rec(1, "no", "no", "s1")]
    s = score_records(recs, SPEC, n_boot=50)
    # tp 0, fp 1, fn 0: F1 = 0/1 = 0 (defined), precision 0/1 = 0; only the intervals (2 statements) are not.
    assert (s["precision"], s["f1"]) == (0.0, 0.0)
    assert s["notes"] == ["precision_ci95, recall_ci95, f1_ci95 not estimable: 2 statements, at least 30 needed for "
                          "the statement bootstrap to cover (docs/statistics.md)"]


@pytest.fixture()
def few_statements_allowed(monkeypatch):
    """The interval's mechanics on designs of a few statements, where the shipped scores give none."""
    from causalgraph.bench import scoring

    monkeypatch.setattr(scoring, "MIN_STATEMENTS_INTERVAL", 2)


def test_undefined_under_loglik_too():
    recs = [dataclasses.replace(_rec(i, "no", "no", f"s{i}", method="loglik"), logprobs={"yes": -3.0, "no": -0.1},
                                continuations={"yes": " yes", "no": " no"}) for i in range(4)]
    s = score_records(recs, SPEC, n_boot=50)
    assert s["f1"] is None and s["loglik"]["acc_norm_scores"]["f1"] is None
    assert s["loglik"]["acc"] == 1.0


def test_the_30_item_perfect_oracle_interval_is_near_one_not_zero_to_one():
    # The case: 9 gold `yes` items all in one of 5 statements, the oracle right everywhere.
    recs = [_rec(i, "yes", "yes", "s0") for i in range(9)]
    recs += [_rec(9 + i, "no", "no", f"s{1 + i % 4}") for i in range(21)]
    s = score_records(recs, SPEC, n_boot=1000)
    # 5 statements: an F1 interval covers about 84 % there (docs/statistics.md), so none is given, with a note.
    assert s["f1"] == 1.0 and s["f1_ci95"] is None
    assert any(n.startswith("precision_ci95, recall_ci95, f1_ci95 not estimable: 5 statements, at least 30")
               for n in s["notes"])
    # P(s0 never drawn in 5 draws) = (4/5)^5 = 0.328: the share left out, said beside the interval.
    assert s["f1_ci95_undefined"] == pytest.approx(0.8 ** 5, abs=0.04)


def test_the_30_item_perfect_oracle_interval_mechanics_give_one_not_zero_to_one(few_statements_allowed):
    recs = [_rec(i, "yes", "yes", "s0") for i in range(9)]
    recs += [_rec(9 + i, "no", "no", f"s{1 + i % 4}") for i in range(21)]
    s = score_records(recs, SPEC, n_boot=1000)
    assert s["f1"] == 1.0 and s["f1_ci95"] == [1.0, 1.0]


def test_an_interval_mostly_undefined_is_not_estimable(few_statements_allowed):
    # Positives in 1 of 12 statements: (11/12)^12 = 35 % undefined — estimable; in 1 of 40, 36 % too, but a
    # positive in a single item among 3 statements of 1 item... use a forced case: 1 of 2 statements is
    # empty for 25 %; build >50 % with 1 positive statement of 2 drawn 1-at-a-time is impossible, so use
    # the library's threshold directly on a 1-statement-in-3 design with n_boot large: (2/3)^3 = 0.30 < 0.5.
    from causalgraph.bench import scoring

    recs = [_rec(0, "yes", "yes", "s0")] + [_rec(i, "no", "no", f"s{i}") for i in range(1, 3)]
    old = scoring.MAX_UNDEFINED_SHARE
    try:
        scoring.MAX_UNDEFINED_SHARE = 0.2
        s = score_records(recs, SPEC, n_boot=500)
    finally:
        scoring.MAX_UNDEFINED_SHARE = old
    assert s["f1"] == 1.0 and s["f1_ci95"] is None
    assert s["f1_ci95_undefined"] == pytest.approx((2 / 3) ** 3, abs=0.05)
    assert any("not estimable" in n for n in s["notes"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["yes", "no"]), st.sampled_from(["yes", "no", None]),
                          st.integers(0, 5)), min_size=1, max_size=30))
def test_interval_is_the_percentile_of_the_defined_resamples(rows):
    from causalgraph.bench import scoring

    recs = [_rec(i, g, p, f"s{k}") for i, (g, p, k) in enumerate(rows)]
    old = scoring.MIN_STATEMENTS_INTERVAL
    try:  # the mechanics on at most 6 statements (the shipped scores give no interval there: tested above)
        scoring.MIN_STATEMENTS_INTERVAL = 2
        s = score_records(recs, SPEC, n_boot=200, seed=3)
    finally:
        scoring.MIN_STATEMENTS_INTERVAL = old
    if s["f1"] is None:
        assert s["f1_ci95"] is None
        return
    # Recompute by hand: same resamples of statements, F1 = 2tp/(2tp+fp+fn), undefined where 0/0.
    groups = {}
    for r in recs:
        groups.setdefault(r.meta["statement_id"], []).append(r)
    per = []
    for members in groups.values():
        tp = sum(r.gold == "yes" and r.label == "yes" for r in members)
        fp = sum(r.gold != "yes" and r.label == "yes" for r in members)
        fn = sum(r.gold == "yes" and r.label != "yes" for r in members)
        per.append((tp, fp, fn))
    per = np.array(per, dtype=float)
    w = np.random.default_rng(3).multinomial(len(per), np.full(len(per), 1 / len(per)), size=200)
    tp, fp, fn = (w @ per).T
    den = 2 * tp + fp + fn
    vals = (2 * tp / np.where(den > 0, den, 1))[den > 0]
    share = 1 - len(vals) / 200
    assert s["f1_ci95_undefined"] == pytest.approx(share)
    G = len(per)
    if share > 0.5 or G < 2:
        assert s["f1_ci95"] is None
    else:
        # The percentile interval, widened around the estimate by sqrt(G/(G-1)) t_{G-1} / z, clipped to [0, 1].
        from scipy.stats import norm, t as student

        c = (G / (G - 1)) ** 0.5 * student.ppf(0.975, G - 1) / norm.ppf(0.975)
        lo, hi = np.quantile(vals, [0.025, 0.975])
        f = s["f1"]
        assert s["f1_ci95"] == pytest.approx([max(0.0, f - c * (f - lo)), min(1.0, f + c * (hi - f))])


def test_bootstrap_unit_is_the_one_used():
    with_sid = [_rec(i, "yes", "yes", f"s{i}") for i in range(3)]
    without = [RunRecord("ccr-member", "A_5", f"i{i}", gold="yes", label="yes", meta={}) for i in range(3)]
    assert bootstrap_unit(with_sid) == "statement"
    assert bootstrap_unit(without) == "item"
    assert bootstrap_unit(with_sid + without) == "statement and item"
    # Items without a statement are each their own unit: the interval equals the one over items.
    assert bootstrap_interval(without, "accuracy", kind="binary", labels=["yes", "no"], positive="yes") == (1.0, 1.0)


def test_metrics_json_records_item_unit_when_no_item_names_its_statement(tmp_path, monkeypatch):
    from causalgraph.bench.scoring import compute_metrics

    monkeypatch.chdir(tmp_path)
    from causalgraph.runlog.store import load_run

    run = tmp_path / "run"
    assert main(["bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle", "--limit", "6",
                 "--out", str(run)]) == 0
    lines = [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines()]
    assert json.loads((run / "metrics.json").read_text())["bootstrap"]["unit"] == "statement"
    for x in lines:
        x["meta"].pop("statement_id", None)
    (run / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    m = compute_metrics(load_run(run))
    assert m.bootstrap["unit"] == "item" and "6 of 6 items" in m.bootstrap["unit_note"]


def _bin_frame():
    """10 statements of 6 items, one value of x each: each decile is one statement; the first all wrong."""
    rng = np.random.default_rng(1)
    sid = np.repeat([f"s{i}" for i in range(10)], 6)
    x = np.repeat(np.arange(10, dtype=float), 6)
    correct = rng.random(60) < 0.6
    correct[:6] = False
    return pd.DataFrame({"statement_id": sid, "x": x, "correct": correct})


def test_a_bin_with_every_answer_wrong_plots(tmp_path):
    # Wilson's lower bound at 0 of 6 lies 1e-17 above 0: matplotlib refused the negative error bar.
    assert 0 - _wilson(0, 6, 1.959963984540054)[0] < 0
    fit = fit_difficulty(_bin_frame(), ["x"], label={"run": "runs/r1", "variant": "A_5"})
    out = tmp_path / "p.svg"
    plot_difficulty([fit], out)
    svg = out.read_text()
    # The title names the run, and a legend says what the points, curve and band are.
    assert "runs/r1" in svg and "Wilson" in svg and "band" in svg


def test_the_cli_prints_the_table_then_one_line_when_the_plot_fails(tmp_path, monkeypatch, capsys):
    import causalgraph.cli.stats as cli_stats
    from causalgraph.bench.runner import run_benchmark

    out = tmp_path / "run"
    run_benchmark("ccr-position", ["A_5"], "mock/noisy", out=str(out), temperature=1.0, limit=120,
                  cache_path=str(tmp_path / "cache.sqlite"))

    def broken(*a, **k):
        raise ValueError("'yerr' must not contain negative values")

    monkeypatch.setattr(cli_stats, "plot_difficulty", broken)
    rc = main(["stats", "difficulty", str(out), "--features", "n_tokens", "--plot", str(tmp_path / "p.png"),
               "--format", "csv"])
    captured = capsys.readouterr()
    assert rc == 2
    assert captured.out.startswith("run,task,variant,model,feature") and ",n_tokens," in captured.out
    err = captured.err.strip().splitlines()
    assert err[-1].startswith("causalgraph stats: error: --plot") and "yerr" in err[-1]
    assert not any("Traceback" in line for line in err)


def test_intervals_are_given_from_30_statements_and_not_below():
    # 29 statements: none (with the note naming 29 and 30); 30: the widened percentile interval.
    for G, given in ((29, False), (30, True)):
        recs = [_rec(2 * i + j, gold, "yes" if (i + j) % 3 else "no", f"s{i}")
                for i in range(G) for j, gold in enumerate(("yes", "no"))]
        s = score_records(recs, SPEC, n_boot=200)
        for m in ("precision", "recall", "f1"):
            assert (s[f"{m}_ci95"] is not None) == given, (G, m, s)
        notes = [n for n in s.get("notes", []) if "ci95 not estimable" in n]
        assert notes == ([] if given else [f"precision_ci95, recall_ci95, f1_ci95 not estimable: {G} statements, "
                                           f"at least 30 needed for the statement bootstrap to cover "
                                           f"(docs/statistics.md)"])


def test_the_macro_f1_interval_is_given_from_30_statements_and_not_below():
    # ccr-position (four labels): 29 statements give no macro_f1_ci95 and the note; 30 give the interval that
    # bootstrap_interval computes on the same records; one statement gives none and says so.
    spec = get_task("ccr-position")
    labels = ("start", "middle", "end", "none")

    def recs(G):
        return [RunRecord("ccr-position", "A_5", f"i{i}-{j}", gold=labels[(i + j) % 4], label=labels[(i + 2 * j) % 4],
                          rule="tag", meta={"statement_id": f"s{i}"}) for i in range(G) for j in range(3)]

    below = score_records(recs(29), spec, n_boot=200)
    assert below["macro_f1_ci95"] is None and below["macro_f1"] is not None
    assert "macro_f1_ci95 not estimable: 29 statements, at least 30 needed for the statement bootstrap to cover " \
           "(docs/statistics.md)" in below["notes"]
    at = score_records(recs(30), spec, n_boot=200)
    assert at["macro_f1_ci95"] == list(bootstrap_interval(recs(30), "macro_f1", kind="multiclass", labels=labels,
                                                          n_boot=200, seed=0))
    assert not any("macro_f1_ci95" in n for n in at.get("notes", []))
    one = score_records([dataclasses.replace(r, meta={"statement_id": "s0"}) for r in recs(5)], spec, n_boot=200)
    assert one["macro_f1_ci95"] is None
    assert "macro_f1_ci95 not estimable: all items come from one statement" in one["notes"]
