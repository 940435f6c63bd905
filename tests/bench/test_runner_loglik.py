"""bench run --method loglik through the runner with the mocks: records, scores, cache, refusals, resume."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from causalgraph.bench.runner import build_request, cache_key_for, run_benchmark
from causalgraph.bench.config import RunConfig
from causalgraph.runlog.store import RunStore, load_run
from causalgraph.errors import ConfigError
from causalgraph.llm import get_backend
from causalgraph.tasks import get_task

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "causalgraph", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})), timeout=300)


def test_the_oracle_scores_accuracy_one_and_every_record_keeps_continuations_logprobs_and_probs(climatecause_path,
                                                                                                 tmp_path):
    res = run_benchmark("ccr-position", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=30,
                        method="loglik", out=tmp_path / "r")
    run = load_run(res.path)
    assert len(run.responses) == 30
    for r in run.responses:
        assert r.method == "loglik" and r.rule == "loglik-acc" and r.label == r.gold
        assert r.continuations == {"start": "start", "middle": "middle", "end": "end", "none": "none"}
        assert r.logprobs[r.gold] == 0.0 and r.probs[r.gold] == 1.0
        assert sum(r.probs.values()) == pytest.approx(1.0) and r.response == r.gold
    s = res.metrics.variants["A_5"]
    assert s["loglik"]["acc"] == 1.0 and s["loglik"]["acc_norm"] == 1.0 and s["accuracy"] == 1.0
    assert s["loglik"]["scores_rule"] == "acc" and set(s["loglik"]["rules"]) == {"acc", "acc_norm"}
    assert s["calibration"]["ece"] == 0.0 and s["calibration"]["brier"] == 0.0 and s["calibration"]["n"] == 30
    assert res.metrics.method == "loglik"
    assert run.manifest.parameters["method"] == "loglik" and run.manifest.record_schema == 3


def test_a_generated_run_writes_no_method_anywhere(climatecause_path, tmp_path):
    res = run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=5, out=tmp_path / "g")
    run = load_run(res.path)
    assert "method" not in run.manifest.parameters and run.manifest.record_schema == 1
    text = (res.path / "responses.jsonl").read_text()
    for key in ("method", "continuations", "logprobs", "probs"):
        assert f'"{key}"' not in text
    assert res.metrics.method is None and "loglik" not in res.metrics.variants["A_5"]


def test_mock_noisy_puts_its_mass_on_a_seeded_wrong_label_with_probability_flip(climatecause_path, tmp_path):
    opts = dict(data=str(climatecause_path), limit=400, method="loglik")
    a = run_benchmark("ccr-position", ["A_5"], "mock/noisy", model_options={"flip": 0.3}, out=tmp_path / "a", **opts)
    again = run_benchmark("ccr-position", ["A_5"], "mock/noisy", model_options={"flip": 0.3}, out=tmp_path / "b",
                          cache=False, **opts)
    other = run_benchmark("ccr-position", ["A_5"], "mock/noisy", model_options={"flip": 0.3, "salt": "7"},
                          out=tmp_path / "c", cache=False, **opts)
    ra, rb, rc = (load_run(x.path).responses for x in (a, again, other))
    wrong = [r for r in ra if r.label != r.gold]
    # Seeded: the same wrong labels every time; another salt draws others.
    assert [r.label for r in ra] == [r.label for r in rb] != [r.label for r in rc]
    # 400 draws of probability 0.3: within four standard deviations (sd = sqrt(400·0.3·0.7) ≈ 9.2).
    assert abs(len(wrong) - 120) < 37
    for r in wrong:
        assert r.probs[r.label] == 1.0 and r.probs[r.gold] == 0.0
    # All mass on one label: confidence 1 everywhere, so ECE is the error rate and Brier twice it.
    err = len(wrong) / len(ra)
    cal = a.metrics.variants["A_5"]["calibration"]
    assert cal["ece"] == pytest.approx(err) and cal["ece_adaptive"] == pytest.approx(err)
    assert cal["brier"] == pytest.approx(2 * err)
    assert a.metrics.variants["A_5"]["loglik"]["acc"] == pytest.approx(1 - err)


def test_a_variant_that_asks_for_reasoning_first_is_refused_in_one_line_before_anything(climatecause_path, tmp_path):
    out = tmp_path / "r"
    p = _cli("bench", "run", "--task", "ccr-position", "--variant", "A_4", "--model", "mock/oracle", "--method",
             "loglik", "--data", str(climatecause_path), "--out", str(out))
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "ccr-position variant A_4 asks for reasoning before the answer" in lines[0]
    assert "step by step" in lines[0] and not out.exists()


def test_a_backend_without_log_probabilities_is_refused_before_any_item(climatecause_path, tmp_path):
    out = tmp_path / "r"
    p = _cli("bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "openai/gpt-5.1-2025-11-13",
             "--method", "loglik", "--data", str(climatecause_path), "--out", str(out), env={"OPENAI_API_KEY": "x"})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "cannot score continuations by log-likelihood" in p.stderr and not out.exists()
    # The capability is a class attribute, read before a backend exists.
    from causalgraph.llm.registry import backend_class

    assert backend_class("openai/gpt-5.1").loglik is False and backend_class("mock/constant").loglik is False
    assert backend_class("mock/oracle").loglik and backend_class("hf/x").loglik and backend_class("llamacpp/x").loglik


@pytest.mark.parametrize("extra, words", [(["--max-tokens", "16"], "--max-tokens 16"),
                                          (["--temperature", "0.7"], "--temperature 0.7"),
                                          (["--epochs", "3", "--temperature", "0"], "--epochs 3")])
def test_generation_settings_are_refused_under_loglik(climatecause_path, tmp_path, extra, words):
    p = _cli("bench", "run", "--task", "ccr-member", "--variant", "A_5", "--model", "mock/oracle", "--method",
             "loglik", "--data", str(climatecause_path), "--out", str(tmp_path / "r"), *extra)
    assert p.returncode == 2 and words in p.stderr and "loglik" in p.stderr


def test_a_task_without_closed_labels_is_refused(climatecause_path, tmp_path):
    with pytest.raises(ConfigError, match="declares no answer continuations"):
        run_benchmark("parents", ["A_1"], "mock/oracle", data=str(climatecause_path), method="loglik",
                      out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_variant_all_under_loglik_takes_the_variants_that_ask_for_the_answer_alone(climatecause_path, tmp_path):
    res = run_benchmark("ccr-member", "all", "mock/oracle", data=str(climatecause_path), limit=2, method="loglik",
                        out=tmp_path / "r")
    assert list(res.metrics.variants) == ["A_5", "A_6", "SN_5", "SN_6", "ML_5", "ML_6"]


def test_the_cache_key_holds_the_method_and_the_continuations():
    spec = get_task("ccr-member")
    from causalgraph.taskkit.item import Item

    it = Item("ccr-member/A_5/s/e000", "ccr-member", "A_5", "Is it?", "yes")
    backend = get_backend("mock/constant")
    gen = cache_key_for(backend, build_request(it, spec, RunConfig("ccr-member", ["A_5"], "m")), it)
    req = build_request(it, spec, RunConfig("ccr-member", ["A_5"], "m", method="loglik"))
    yes_no = cache_key_for(backend, req, it, choices={"yes": "Yes", "no": "No"})
    tagged = cache_key_for(backend, req, it, choices={"yes": "<Answer>Yes</Answer>", "no": "<Answer>No</Answer>"})
    assert len({gen, yes_no, tagged}) == 3
    assert yes_no == cache_key_for(backend, req, it, choices={"yes": "Yes", "no": "No"})


def test_a_second_loglik_run_is_answered_from_the_cache(climatecause_path, tmp_path):
    opts = dict(data=str(climatecause_path), limit=10, method="loglik")
    first = run_benchmark("reachability", ["A_1"], "mock/oracle", out=tmp_path / "a", **opts)
    second = run_benchmark("reachability", ["A_1"], "mock/oracle", out=tmp_path / "b", **opts)
    assert second.requests_sent == 0 and second.cache_hits == 10
    strip = lambda rs: [{k: v for k, v in r.to_dict().items() if k not in ("time", "source", "attempts", "latency_s")}  # noqa
                        for r in rs]
    assert strip(load_run(first.path).responses) == strip(load_run(second.path).responses)


def test_a_generated_run_directory_is_not_resumed_as_a_loglik_run(climatecause_path, tmp_path):
    run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=2, out=tmp_path / "r")
    with pytest.raises(ConfigError, match="method"):
        run_benchmark("ccr-member", ["A_5"], "mock/oracle", data=str(climatecause_path), limit=2, method="loglik",
                      out=tmp_path / "r")


def test_retries_apply_to_scoring_as_to_generation(climatecause_path, tmp_path):
    res = run_benchmark("ccr-member", ["A_5"], "mock/flaky", data=str(climatecause_path), limit=4, method="loglik",
                        model_options={"pattern": "xs."}, retry_base=0.0, retry_cap=0.0, out=tmp_path / "r")
    run = load_run(res.path)
    assert all(r.attempts == 3 and not r.error and r.label == r.gold for r in run.responses)


def test_bench_plan_under_loglik_counts_no_output_and_refuses_what_the_run_refuses(climatecause_path):
    from causalgraph.bench.plan import plan_run

    gen = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", variants=["A_5"], data=str(climatecause_path))
    ll = plan_run(["ccr-member"], "hf/x", variants=["A_5"], data=str(climatecause_path), method="loglik")
    assert ll[0]["requests"] == gen[0]["requests"] and ll[0]["output_tokens_est"] == 0
    # The input is every prompt plus both continuations ("Yes", "No": 5 characters) per item.
    assert ll[0]["prompt_chars"] == gen[0]["prompt_chars"] + 5 * gen[0]["requests"]
    with pytest.raises(ConfigError, match="reasoning"):
        plan_run(["ccr-member"], "hf/x", variants=["A_4"], data=str(climatecause_path), method="loglik")
    with pytest.raises(ConfigError, match="log-likelihood"):
        plan_run(["ccr-member"], "openai/gpt-5.1", variants=["A_5"], data=str(climatecause_path), method="loglik")
    every = plan_run(["ccr-member"], "hf/x", data=str(climatecause_path), method="loglik")
    assert [r["variant"] for r in every] == ["A_5", "A_6", "SN_5", "SN_6", "ML_5", "ML_6"]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_loglik_run_killed_with_sigkill_resumes_without_doubling(climatecause_path, tmp_path):
    cmd = [sys.executable, "-m", "causalgraph", "bench", "run", "--task", "ccr-position", "--variant", "A_5,SN_5",
           "--model", "mock/oracle", "--model-option", "latency=0.04", "--concurrency", "4", "--limit", "60",
           "--method", "loglik", "--data", str(climatecause_path), "--out", str(tmp_path / "run"), "--no-progress"]
    env = dict(os.environ, CAUSALGRAPH_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    out = tmp_path / "run"
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (out / "responses.jsonl").exists() or (out / "responses.jsonl").read_bytes().count(b"\n") < 30:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    killed_at = len(RunStore(out).iter_lines())
    assert 30 <= killed_at < 120
    done = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    run = load_run(out)
    counts = Counter((r.variant, r.item_id) for r in run.attempts)
    assert len(counts) == 120 and set(counts.values()) == {1}
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["skipped"] == killed_at
    assert all(metrics["variants"][v]["loglik"]["acc"] == 1.0 for v in ("A_5", "SN_5"))
    assert all(r.method == "loglik" and math.isclose(sum(r.probs.values()), 1.0) for r in run.responses)


def test_stats_mcnemar_pairs_a_generated_and_a_loglik_run_on_correctness(climatecause_path, tmp_path):
    from causalgraph.stats import mcnemar_runs
    from scipy.stats import chi2

    opts = dict(data=str(climatecause_path), limit=60)
    gen = run_benchmark("ccr-position", ["A_5"], "mock/noisy", temperature=1.0, model_options={"flip": 0.4},
                        out=tmp_path / "g", **opts)
    ll = run_benchmark("ccr-position", ["A_5"], "mock/noisy", method="loglik", model_options={"flip": 0.2, "salt": "3"},
                       out=tmp_path / "l", **opts)
    right = lambda r: r.label is not None and r.label == r.gold  # noqa: E731
    a = {r.item_id: right(r) for r in load_run(gen.path).responses}
    b = {r.item_id: right(r) for r in load_run(ll.path).responses}
    nb = sum(1 for k in a if a[k] and not b[k])
    nc = sum(1 for k in a if b[k] and not a[k])
    table = mcnemar_runs(gen.path, ll.path)
    row = table.iloc[0]
    assert (row["b"], row["c"], row["n"], row["paired_on"]) == (nb, nc, 60, "correct")
    stat = (abs(nb - nc) - 1) ** 2 / (nb + nc)
    assert row["statistic"] == pytest.approx(stat) and row["p"] == pytest.approx(chi2.sf(stat, 1))
    # Two generated runs keep the paper's pairing on labels, and its columns.
    m1 = run_benchmark("ccr-member", ["A_5"], "mock/oracle", out=tmp_path / "m1", **opts)
    m2 = run_benchmark("ccr-member", ["A_5"], "mock/noisy", temperature=1.0, out=tmp_path / "m2", **opts)
    assert "paired_on" not in mcnemar_runs(m1.path, m2.path).columns


def test_bench_parse_leaves_scored_lines_as_they_are(climatecause_path, tmp_path):
    from causalgraph.bench.reparse import reparse_run

    res = run_benchmark("ccr-member", ["A_5"], "mock/noisy", data=str(climatecause_path), limit=20, method="loglik",
                        out=tmp_path / "r")
    before = (res.path / "responses.jsonl").read_bytes()
    rows = reparse_run(res.path)
    assert rows[0]["changed"] == 0 and (res.path / "responses.jsonl").read_bytes() == before
