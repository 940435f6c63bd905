"""The run page of a run scored by log-likelihood: calibration table, reliability diagrams, choice probabilities."""

from __future__ import annotations

import time

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.viewer import build_run_view, write_run_page
from causalgraph.viewer.payload import build_payload, unpack


def _loglik_run(tmp_path, data):
    return run_benchmark("ccr-position", ["A_5"], "mock/noisy", data=data, limit=40, method="loglik",
                         model_options={"flip": 0.3}, out=tmp_path / "ll")


def test_the_payload_carries_each_items_choices_and_the_summary_its_calibration(climatecause_path, tmp_path):
    res = _loglik_run(tmp_path, str(climatecause_path))
    run = load_run(res.path)
    view = build_run_view(run, data=str(climatecause_path))
    payload = build_payload([view])
    details = [d for c in payload["details"] for d in unpack(c)]
    for d, r in zip(details, run.responses):
        assert d["choices"] == [[lab, r.continuations[lab], r.logprobs[lab], r.probs[lab]]
                                for lab in ("start", "middle", "end", "none")]
    row = view.summary[0]
    cal = res.metrics.variants["A_5"]["calibration"]
    assert (row["method"], row["ece"], row["brier"], row["calibrated"]) == ("loglik", cal["ece"], cal["brier"], 40)
    assert row["acc"] == res.metrics.variants["A_5"]["loglik"]["acc"] and len(row["reliability"]) == 15
    # A generated run carries none of it.
    gen = run_benchmark("ccr-position", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=5, out=tmp_path / "g")
    gview = build_run_view(load_run(gen.path), data=str(climatecause_path))
    assert all("choices" not in d for c in build_payload([gview])["details"] for d in unpack(c))
    assert "method" not in gview.summary[0]


@pytest.mark.browser
def test_the_page_shows_calibration_a_reliability_diagram_and_the_choice_probabilities(chromium, climatecause_path,
                                                                                       tmp_path):
    res = _loglik_run(tmp_path, str(climatecause_path))
    run = load_run(res.path)
    page = write_run_page([res.path], tmp_path / "ll.html", data=str(climatecause_path))
    load = chromium.open(page, ready="data-ready")
    assert load.errors == [] and load.external == []
    cells = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#calibration-0 tbody td'),"
                        " function (td) { return td.textContent; })")
    cal = res.metrics.variants["A_5"]["calibration"]
    # variant, acc, acc_norm, reached (choice-logprobs runs only: blank here), ECE, adaptive ECE, Brier, items
    assert cells[0] == "A_5" and cells[3] == "" and cells[4] == f"{cal['ece']:.4f}" and \
        cells[6] == f"{cal['brier']:.4f}"
    bars = chromium.js("return document.querySelectorAll('svg.reliability rect').length")
    filled = sum(1 for b in cal["reliability"] if b["count"])
    assert bars == filled + 1  # one bar per filled bin, plus the frame
    chromium.js("window.cgRunView.show(0)")
    deadline = time.monotonic() + 20
    while not chromium.js("return document.body.getAttribute('data-detail')"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    rows = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#d-choices tbody tr'),"
                       " function (tr) { return Array.prototype.map.call(tr.cells, function (c) { return c.textContent; }); })")
    r = run.responses[0]
    assert [x[0] for x in rows] == ["start", "middle", "end", "none"]
    for x in rows:
        p = r.probs[x[0]]
        assert x[3] == (f"{int(p):,}" if p == int(p) else f"{p:.4f}")  # the page writes whole numbers bare
        assert ("gold" in x[4]) == (x[0] == r.gold) and ("chosen" in x[4]) == (x[0] == r.label)
    assert chromium.collect(load.url).errors == []
