"""The difficulty plot of the run pages (bench view, report --runs): accuracy by decile of C(s) and the fitted curve."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.cli import main
from causalgraph.stats.difficulty import difficulty_runs
from causalgraph.viewer import build_run_view, load_views, write_run_page
from causalgraph.viewer.payload import build_payload

from toy_runs import RUN_A, write_toy_run


def _data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="cg-run-data">(.*?)</script>', page, re.S).group(1))


@pytest.fixture(scope="module")
def noisy(tmp_path_factory, climatecause_path):
    """A mock/noisy run (wrong with probability 0.3 by a hash of the item) of 150 ccr-position items, two variants."""
    out = tmp_path_factory.mktemp("difficulty") / "noisy"
    res = run_benchmark("ccr-position", ["A_5", "SN_5"], "mock/noisy", data=str(climatecause_path), limit=150,
                        temperature=1.0, out=str(out), cache_path=str(out.parent / "cache.sqlite"))
    return res.path


def _by_hand(records, climatecause):
    """C(s) of each answered record from the complexity table, correctness from label == gold."""
    import statsmodels.api as sm

    from causalgraph.metrics.complexity import complexity_table

    table = complexity_table(climatecause)
    cs = dict(zip(table["statement_id"].astype(str), table["c_norm"]))
    rows = [(str(r.meta["statement_id"]), cs[str(r.meta["statement_id"])], r.label == r.gold)
            for r in records if not r.error]
    f = pd.DataFrame(rows, columns=["sid", "x", "y"])
    z = (f.x - f.x.mean()) / f.x.std(ddof=0)
    res = sm.GLM(f.y.to_numpy(dtype=float), np.column_stack([np.ones(len(f)), z]), family=sm.families.Binomial()).fit(
        cov_type="cluster", cov_kwds={"groups": pd.factorize(f.sid)[0]}, use_t=True)
    return f, res


def test_each_variant_gets_accuracy_by_decile_of_cs_and_the_fitted_curve(noisy, climatecause_path, climatecause):
    run = load_run(noisy)
    view = build_run_view(run, data=str(climatecause_path))
    assert [d["variant"] for d in view.difficulty] == ["A_5", "SN_5"]
    for d in view.difficulty:
        f, res = _by_hand(run.records(d["variant"]), climatecause)
        assert d["feature"] == "c_norm" and d["n_items"] == len(f) == 150
        assert sum(b["n"] for b in d["bins"]) == 150 and sum(b["correct"] for b in d["bins"]) == int(f.y.sum())
        # Bins follow C(s) upwards and do not split a value.
        assert all(a["x_max"] < b["x_min"] for a, b in zip(d["bins"], d["bins"][1:]))
        assert d["odds_ratio"] == pytest.approx(math.exp(res.params[1]), rel=1e-9)
        # The p is that of `stats difficulty` (CR2 errors with Bell-McCaffrey df, checked against independent
        # references in tests/stats/test_small_cluster.py); the point estimate is the plain GLM's above.
        (fit,) = [f for f in difficulty_runs([noisy], ["c_norm"], data=str(climatecause_path))
                  if f.label.get("variant") == d["variant"]]
        assert d["p"] == pytest.approx(fit.rows[0]["p"], rel=1e-9, nan_ok=True)
        # 150 items of few statements: the test is marked not estimable (fewer than 30), said in the note.
        assert fit.n_statements < 30 and math.isnan(d["p"]) and d["term_note"] == fit.rows[0]["note"]
        assert f"test not estimable: {fit.n_statements} statements, at least 30 needed" in d["term_note"]
        assert fit.rows[0]["odds_ratio"] == pytest.approx(math.exp(res.params[1]), rel=1e-9)
        end = 1 / (1 + math.exp(-(res.params[0] + res.params[1] * (f.x.max() - f.x.mean()) / f.x.std(ddof=0))))
        assert d["curve"][-1]["x"] == pytest.approx(f.x.max()) and d["curve"][-1]["p"] == pytest.approx(end, rel=1e-9)
        assert all(p["lo"] <= p["p"] <= p["hi"] for p in d["curve"])
    payload = build_payload([view])
    # The undefined p travels as null (JSON has no NaN), the rest unchanged.
    assert payload["runs"][0]["difficulty"] == [{**d, "p": None, "p_holm": None} for d in view.difficulty]


def test_another_feature_and_a_refused_one(noisy, climatecause_path, climatecause, tmp_path, capsys):
    from causalgraph.stats.difficulty import _statement_features

    views, _ = load_views([noisy], data=str(climatecause_path), difficulty_feature="n_tokens")
    d = views[0].difficulty[0]
    values = _statement_features(climatecause)
    answered = [r for r in load_run(noisy).records("A_5") if not r.error]
    xs = [values[str(r.meta["statement_id"])]["n_tokens"] for r in answered]
    assert d["feature"] == "n_tokens" and d["bins"][0]["x_min"] == min(xs) and d["bins"][-1]["x_max"] == max(xs)
    page = tmp_path / "p.html"
    assert main(["bench", "view", str(noisy), "-o", str(page), "--data", str(climatecause_path),
                 "--difficulty-feature", "depth"]) == 0
    capsys.readouterr()
    assert {x["feature"] for x in _data(page.read_text())["runs"][0]["difficulty"]} == {"depth"}
    assert main(["bench", "view", str(noisy), "-o", str(tmp_path / "q.html"), "--difficulty-feature", "position"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--difficulty-feature 'position': expected a numeric statement feature" in err[0]
    assert not (tmp_path / "q.html").exists()


def test_a_run_too_small_to_fit_says_why(tmp_path):
    view = build_run_view(load_run(write_toy_run(tmp_path / "a", RUN_A)))
    # Variant a: four answered items; b: three (its fourth request failed).
    assert view.difficulty == [
        {"variant": "a", "feature": "c_norm",
         "note": "no difficulty plot: only 4 answered items; a difficulty model needs at least 30"},
        {"variant": "b", "feature": "c_norm",
         "note": "no difficulty plot: only 3 answered items; a difficulty model needs at least 30"}]


def test_an_oracle_run_says_nothing_separates_easy_from_hard(tmp_path, climatecause_path, isolated_cache):
    res = run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=40,
                        out=str(tmp_path / "oracle"))
    (d,) = build_run_view(load_run(res.path), data=str(climatecause_path)).difficulty
    assert "bins" not in d and d["note"].startswith("no difficulty plot: every one of the 40 items was answered right")


def test_report_run_pages_carry_the_difficulty_plot(noisy, climatecause, tmp_path, capsys, climatecause_path):
    out = tmp_path / "rep"
    assert main(["report", "--data", str(climatecause_path), "-o", str(out), "--max-graphs", "0",
                 "--runs", str(noisy), "--difficulty-feature", "n_tokens"]) == 0
    capsys.readouterr()
    (page,) = (out / "runs").glob("*.html")
    diff = _data(page.read_text())["runs"][0]["difficulty"]
    assert [x["variant"] for x in diff] == ["A_5", "SN_5"] and {x["feature"] for x in diff} == {"n_tokens"}
    assert all(sum(b["n"] for b in x["bins"]) == 150 for x in diff)
    assert main(["report", "--data", str(climatecause_path), "-o", str(tmp_path / "r2"), "--runs", str(noisy),
                 "--difficulty-feature", "wat"]) == 2
    assert "--difficulty-feature 'wat'" in capsys.readouterr().err


@pytest.mark.browser
def test_the_page_draws_a_point_per_bin_the_curve_and_the_band(chromium, noisy, climatecause_path, tmp_path):
    view = build_run_view(load_run(noisy), data=str(climatecause_path))
    page = write_run_page([noisy], tmp_path / "d.html", data=str(climatecause_path))
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == []
    for d in view.difficulty:
        sel = f"svg.difficulty[data-variant=\"{d['variant']}\"]"
        assert chromium.js(f"return document.querySelectorAll('{sel} circle.bin').length") == len(d["bins"])
        pts = chromium.js(f"return document.querySelector('{sel} polyline.fit').getAttribute('points')").split()
        assert len(pts) == len(d["curve"])
        band = chromium.js(f"return document.querySelector('{sel} polygon.band').getAttribute('points')").split()
        assert len(band) == 2 * len(d["curve"])
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#difficulty-0 tbody tr'),"
                        " function (tr) { return [tr.cells[0].textContent, tr.cells[1].textContent]; })")
    assert cells == [[d["variant"], f"{d['odds_ratio']:.4f}"] for d in view.difficulty]
    assert chromium.collect(load.url).errors == []
