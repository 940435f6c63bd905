"""The benchmark scripts read run records by field name: each reader of a run, on a small real run."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from causalgraph.bench.calibration import calibration
from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.record import RunRecord

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def script(name: str, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import their shared _common
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run(tmp_path_factory, climatecause_path):
    out = tmp_path_factory.mktemp("bench-records")
    return run_benchmark("ccr-member", ["A_5"], "mock/oracle", limit=6, out=out / "run", cache=False,
                         progress=False).path


def test_run_records_are_the_lines_the_run_wrote(run, monkeypatch):
    common = script("_common", monkeypatch)
    lines = [json.loads(x) for x in (run / "responses.jsonl").read_text().splitlines() if x.strip()]
    recs = common.run_records(run)
    assert len(recs) == 6 and all(isinstance(r, dict) for r in recs)
    assert recs == lines


def test_the_viewer_baseline_page_has_one_row_per_record(run, tmp_path, monkeypatch):
    bv = script("bench_viewer", monkeypatch)
    page = bv.naive_page([run], tmp_path / "naive.html").read_text()
    ids = [json.loads(x)["item_id"] for x in (run / "responses.jsonl").read_text().splitlines() if x.strip()]
    assert page.count("<tr>") == 6 and all(f"<td>{i}</td>" in page for i in ids)


def test_a_run_agrees_with_itself_on_every_item(run, monkeypatch):
    common, vl = script("_common", monkeypatch), script("bench_vllm", monkeypatch)
    recs = common.run_records(run)
    assert vl.agreement(recs, recs) == {"items": 6, "same_text": 1.0, "same_label": 1.0}
    other = [dict(r, label="no" if r["label"] == "yes" else "yes") if k == 0 else r for k, r in enumerate(recs)]
    assert vl.agreement(recs, other)["same_label"] == pytest.approx(5 / 6)


def test_calibration_of_dict_records_equals_that_of_the_typed_records(monkeypatch):
    cl = script("bench_choice_logprobs", monkeypatch)
    typed = [RunRecord("t", "v", "a", gold="yes", label="yes", probs={"yes": 0.9, "no": 0.1}),
             RunRecord("t", "v", "b", gold="no", label="yes", probs={"yes": 0.6, "no": 0.4}),
             RunRecord("t", "v", "c", gold="no", label="no", probs={"yes": 0.2, "no": 0.8})]
    c = calibration(typed)
    # Brier by hand: ((0.1² + 0.1²) + (0.6² + 0.6²) + (0.2² + 0.2²)) / 3 = 0.82 / 3
    assert c["brier"] == pytest.approx(0.82 / 3)
    assert cl.calib(r.to_dict() for r in typed) == {"n": 3, "ece": c["ece"], "brier": c["brier"]}


def test_the_statistics_benchmark_runs_to_its_table(climatecause_path):
    out = subprocess.run([sys.executable, str(BENCHMARKS / "bench_stats.py"), "--items", "40", "--repeat", "1"],
                         capture_output=True, text=True, timeout=600, cwd=BENCHMARKS.parent,
                         env={**os.environ, "PYTHONPATH": str(BENCHMARKS.parent)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert "mcnemar_runs vs statsmodels mcnemar" in out.stdout and "load average" in out.stdout
