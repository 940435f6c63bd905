"""``bench run --epochs N``: one line per item and epoch, one cache entry per epoch, resume per sample; the
reducers of ``bench report`` and ``stats agreement`` on a run whose answers are counted by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from causalgraph.bench.runner import arun_benchmark, run_benchmark
from causalgraph.bench.config import RunConfig
from causalgraph.bench.prepare import prepare_run
from causalgraph.bench.scoring import compute_metrics
from causalgraph.runlog.store import load_run
from causalgraph.cli import main
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.runlog.record import RunRecord
from causalgraph.llm.mock import NoisyBackend, OracleBackend

from bench_helpers import YN_TASK, yn_items


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in (path / "responses.jsonl").read_text(encoding="utf-8").splitlines()]


def test_every_item_is_asked_once_per_epoch_and_each_epoch_is_its_own_cache_entry(isolated_cache, tmp_path):
    items = yn_items(6, variants=("v_1",))
    res = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "a", temperature=0.8, epochs=4)
    lines = _lines(tmp_path / "a")
    assert (res.requests_sent, res.written, len(lines)) == (24, 24, 24)
    assert sorted((r["item_id"], r["epoch"]) for r in lines) == sorted((it.id, e) for it in items for e in (1, 2, 3, 4))
    assert len({r["request_key"] for r in lines}) == 24
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["epochs"] == 4 and manifest["record_schema"] == 2
    # The same run in a new folder costs nothing: every epoch comes from the cache, with the same answers.
    again = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "b", temperature=0.8,
                          epochs=4)
    assert (again.requests_sent, again.cache_hits) == (0, 24)
    answers = {(r["item_id"], r["epoch"]): r["response"] for r in lines}
    assert {(r["item_id"], r["epoch"]): r["response"] for r in _lines(tmp_path / "b")} == answers
    # The noisy mock does sample: some item got two different answers.
    assert any(len({answers[(it.id, e)] for e in (1, 2, 3, 4)}) > 1 for it in items)


def test_epoch_one_shares_the_cache_entry_of_a_run_without_epochs_and_more_epochs_ask_only_the_new_ones(
        isolated_cache, tmp_path):
    items = yn_items(5, variants=("v_1",))
    single = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "one", temperature=1.0)
    keys = {r["item_id"]: r["request_key"] for r in _lines(tmp_path / "one")}
    assert "epoch" not in _lines(tmp_path / "one")[0] and single.requests_sent == 5
    three = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "e", temperature=1.0, epochs=3)
    assert (three.requests_sent, three.cache_hits) == (10, 5)
    assert {r["item_id"]: r["request_key"] for r in _lines(tmp_path / "e") if r["epoch"] == 1} == keys
    five = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "e", temperature=1.0, epochs=5)
    assert (five.requests_sent, five.skipped, five.written) == (10, 15, 10)
    # The folder keeps the most epochs it was asked for: a rerun without --epochs resumes nothing.
    plain = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "e", temperature=1.0)
    assert (plain.requests_sent, plain.skipped) == (0, 25) and load_run(tmp_path / "e").epochs == 5


def test_a_run_cut_short_resumes_each_missing_sample_once_with_the_answers_an_uninterrupted_run_gets(tmp_path):
    items = yn_items(6, variants=("v_1", "v_2"))
    opts = dict(items=items, temperature=0.7, epochs=3, cache=False, seed=11)
    run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/noisy", out=tmp_path / "whole", **opts)
    run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/noisy", out=tmp_path / "cut", **opts)
    # A crash after 13 of 36 lines, the 14th torn in the middle.
    raw = (tmp_path / "cut" / "responses.jsonl").read_bytes().split(b"\n")
    (tmp_path / "cut" / "responses.jsonl").write_bytes(b"\n".join(raw[:13]) + b"\n" + raw[13][:40])
    res = run_benchmark(YN_TASK, ["v_1", "v_2"], "mock/noisy", out=tmp_path / "cut", **opts)
    assert (res.requests_sent, res.skipped) == (23, 13)
    cut = [(r["item_id"], r["epoch"]) for r in _lines(tmp_path / "cut")]
    assert len(cut) == len(set(cut)) == 36
    whole = {(r["item_id"], r["epoch"]): r["response"] for r in _lines(tmp_path / "whole")}
    assert {(r["item_id"], r["epoch"]): r["response"] for r in _lines(tmp_path / "cut")} == whole


def test_epoch_e_sends_seed_plus_e_minus_one(isolated_cache, tmp_path):
    seen = []

    class Recording(OracleBackend):
        async def complete(self, request):
            seen.append((request.meta.get("epoch", 1), request.seed))
            return await super().complete(request)

    items = yn_items(2, variants=("v_1",))
    config = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", out=str(tmp_path / "r"),
                       temperature=0.5, seed=40, epochs=3, cache=False)
    import asyncio

    asyncio.run(arun_benchmark(config, items=items, backend=Recording(), progress=False))
    assert sorted(set(seen)) == [(1, 40), (2, 41), (3, 42)]


def test_epochs_refuse_greedy_decoding_a_batch_job_and_nonsense_counts(isolated_cache, tmp_path):
    items = yn_items(2, variants=("v_1",))
    with pytest.raises(ConfigError, match="only samples different answers above temperature 0"):
        run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "a", epochs=2)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ConfigError, match="--epochs"):
            run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "a", temperature=1, epochs=bad)

    class Greedy(OracleBackend):
        greedy_only = True

    import asyncio

    config = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/oracle", out=str(tmp_path / "g"),
                       temperature=None, epochs=3)
    with pytest.raises(ConfigError, match="decodes greedily; --epochs 3 would ask for 3 identical answers"):
        asyncio.run(arun_benchmark(config, items=items, backend=Greedy(), progress=False))
    assert not (tmp_path / "g").exists()
    run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "e", temperature=1, epochs=2)
    config = RunConfig(task=YN_TASK, variants=["v_1"], model="mock/noisy", out=str(tmp_path / "e"), temperature=1)
    with pytest.raises(ConfigError, match="asks every item 2 times .*batch-submit answers each item once"):
        prepare_run(config, NoisyBackend(), items=items, mode="batch-submit")


HAND_TASK, HAND_VARIANT = "reachability", "A_1"  # a built-in yes/no task, so that a fresh process reads the run


def _hand_run(path: Path) -> Path:
    """Four items over two statements, three epochs (the samples of tests/bench/test_epochs.py)."""
    answers = {"q0": ("yes", ["yes", "yes", "no"]), "q1": ("no", ["yes", "no", "yes"]),
               "q2": ("yes", ["no", "yes", None]), "q3": ("no", ["no", "no", "no"])}
    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps({"task": HAND_TASK, "variants": [HAND_VARIANT],
                                                    "model": "mock/hand", "epochs": 3, "record_schema": 2,
                                                    "items": {HAND_VARIANT: 4}}))
    lines = []
    for i, (q, (gold, labs)) in enumerate(answers.items()):
        for e, lab in enumerate(labs, start=1):
            lines.append({"task": HAND_TASK, "variant": HAND_VARIANT, "item_id": f"{HAND_TASK}/{HAND_VARIANT}/{q}",
                          "epoch": e,
                          "gold": gold, "meta": {"statement_id": f"s{i // 2}"}, "response": str(lab),
                          "label": lab, "rule": "exact" if lab else None})
    lines.reverse()  # completion order is no order
    (path / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_report_reducers_on_a_run_counted_by_hand(tmp_path):
    run = load_run(_hand_run(tmp_path / "h"))
    assert run.epochs == 3 and len(run.samples) == 12 and len(run.responses) == 4
    # majority: yes, yes (1 of 3 epochs said no), no (a three-way tie: epoch 1's "no"), no
    assert [r.label for r in run.responses] == ["yes", "yes", "no", "no"]
    maj = compute_metrics(run, n_boot=50).variants[HAND_VARIANT]
    assert (maj["precision"], maj["recall"], maj["f1"]) == (0.5, 0.5, 0.5)  # TP q0, FP q1, FN q2
    assert maj["agreement"]["identical"] == 0.25 and maj["agreement"]["fleiss_kappa"] == pytest.approx(-1 / 41)
    # mean: epoch F1 = 0.5 (as the majority), 1.0 (all right), 0.0 (no true positive)
    mean = compute_metrics(run, reducer="mean")
    v = mean.variants[HAND_VARIANT]
    assert mean.reducer == "mean" and v["f1"] == pytest.approx(0.5) and v["epoch_sd"]["f1"] == pytest.approx(0.5)
    assert (v["items"], v["samples"], v["parse_failures"]) == (4, 12, 1)
    assert compute_metrics(run, reducer="pass@2").variants[HAND_VARIANT]["pass"] == pytest.approx(5 / 6)
    assert compute_metrics(run, reducer="pass^k").variants[HAND_VARIANT]["pass"] == pytest.approx(1 / 4)


def test_bench_report_and_stats_agreement_print_the_reduced_scores(tmp_path, capsys):
    path = _hand_run(tmp_path / "h")
    assert main(["bench", "report", str(path), "--reducer", "pass@2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]["metrics"]
    assert out["reducer"] == "pass@2" and out["variants"][HAND_VARIANT]["pass"] == pytest.approx(5 / 6)
    assert main(["bench", "report", str(path), "--reducer", "pass^3", "--format", "csv"]) == 0
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert header.split(",")[:9] == ["task", "model", "variant", "items", "errors", "parse_fail_rate", "pass^3", "pass_ci95",
                                     "identical"]
    assert row.split(",")[6] == "0.25"
    assert main(["stats", "agreement", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["identical"] == 0.25 and rows[0]["fleiss_kappa"] == pytest.approx(-1 / 41)
    for argv, message in ((["bench", "report", str(path), "--reducer", "pass@4"], "pass@4 needs 4 samples"),
                          (["bench", "report", str(path), "--reducer", "top"], "--reducer 'top'")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1


def test_stats_agreement_refuses_a_run_without_epochs(tmp_path, isolated_cache, capsys):
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(3, variants=("v_1",)), out=tmp_path / "r")
    assert main(["stats", "agreement", str(tmp_path / "r")]) == 2
    assert "one answer per item (no --epochs)" in capsys.readouterr().err


def test_pass_k_of_a_set_valued_task_counts_exact_sets(climatecause_path, isolated_cache, tmp_path):
    res = run_benchmark("parents", "A_1", "mock/noisy", data=str(climatecause_path), limit=12, out=tmp_path / "p",
                        temperature=1.0, epochs=3, model_options={"flip": 0.2})
    run = load_run(res.path)
    exact = {}
    for r in run.samples:  # right when the parsed set is the gold set
        exact.setdefault(r.item_id, []).append(sorted(r.label or []) == sorted(r.gold))
    expected = sum(all(v) for v in exact.values()) / len(exact)
    assert compute_metrics(run, reducer="pass^3").variants["A_1"]["pass"] == pytest.approx(expected)
    assert 0 < expected < 1


def test_a_run_without_epochs_keeps_its_metrics_keys_and_reads_as_one_epoch(isolated_cache, tmp_path):
    res = run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(3, variants=("v_1",)), out=tmp_path / "r")
    m = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert "epochs" not in m and "reducer" not in m and "agreement" not in m["variants"]["v_1"]
    assert load_run(res.path).epochs == 1
    assert compute_metrics(load_run(res.path), reducer="mean").variants["v_1"]["f1"] == 1.0
    assert compute_metrics(load_run(res.path), reducer="pass@1").variants["v_1"]["pass"] == 1.0


def test_a_line_with_a_bad_epoch_is_refused_naming_the_value():
    for bad in (0, "2", True, 1.5):
        with pytest.raises(SchemaError, match="epoch .*expected a positive integer"):
            RunRecord.from_dict({"task": "t", "variant": "v", "item_id": "i", "epoch": bad}, "f, line 3")


def test_reduced_reports_are_the_same_under_any_hash_seed(tmp_path):
    path = _hand_run(tmp_path / "h")
    outs = set()
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-m", "causalgraph", "bench", "report", str(path), "--reducer", "mean",
                              "--format", "json"], capture_output=True, text=True, env=env, check=True).stdout
        outs.add(out)
    assert len(outs) == 1


def test_the_noisy_mock_is_the_oracle_at_flip_0_and_always_wrong_at_flip_1_at_any_temperature(
        isolated_cache, tmp_path):
    items = yn_items(8, variants=("v_1",))
    gold = {it.id: it.gold for it in items}

    def labels(out, **kw):
        run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / out, **kw)
        return {(r["item_id"], r.get("epoch", 1)): r["label"] for r in _lines(tmp_path / out)}

    assert all(lab == gold[i] for (i, _), lab in labels("f0", temperature=1, epochs=2,
                                                         model_options={"flip": 0}).items())
    assert all(lab != gold[i] for (i, _), lab in labels("f1", temperature=1, epochs=2,
                                                         model_options={"flip": 1}).items())
    # Greedy (temperature 0) is no excuse (issue 35, 10): flip 1 is wrong on every item there too.
    assert all(lab != gold[i] for (i, _), lab in labels("t0", temperature=0, model_options={"flip": 1}).items())
    for bad in ("1.5", "-0.1", "often"):
        with pytest.raises(ConfigError, match="mock/noisy option flip"):
            run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "bad", temperature=1,
                          model_options={"flip": bad})


def test_bench_run_with_epochs_on_the_command_line_prints_the_agreement_columns(climatecause_path, isolated_cache,
                                                                                 tmp_path, capsys):
    argv = ["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/noisy", "--temperature", "0.7",
            "--epochs", "3", "--limit", "10", "--data", str(climatecause_path), "--out", str(tmp_path / "r"),
            "--format", "csv"]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[0].endswith(",identical,fleiss_kappa")
    assert "30 written" in out.err
    assert main([("0" if argv[i - 1] == "--epochs" else a) for i, a in enumerate(argv)]) == 2
    assert capsys.readouterr().err.strip() == "causalgraph bench: error: --epochs 0: expected an integer >= 1"


def test_a_manifest_with_a_bad_epochs_value_and_too_many_epochs_are_refused(tmp_path, isolated_cache):
    path = _hand_run(tmp_path / "h")
    manifest = json.loads((path / "manifest.json").read_text())
    for bad in ("5", 0, True, -2):
        (path / "manifest.json").write_text(json.dumps({**manifest, "epochs": bad}))
        with pytest.raises(SchemaError, match=r"manifest.json: epochs .*expected a positive integer"):
            load_run(path)
    with pytest.raises(ConfigError, match="--epochs 1001: at most 1000 samples per item"):
        run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=yn_items(2, variants=("v_1",)), out=tmp_path / "x",
                      temperature=1, epochs=1001)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("bad", [[2], "x", 0, "2", 1.5, True, -1])
def test_a_resumed_run_refuses_a_line_with_a_bad_epoch_before_asking_or_writing_anything(bad, tmp_path,
                                                                                         isolated_cache):
    items = yn_items(3, variants=("v_1",))
    opts = dict(items=items, temperature=1.0, epochs=2, out=tmp_path / "r", cache=False)
    run_benchmark(YN_TASK, ["v_1"], "mock/noisy", **opts)
    lines = (tmp_path / "r" / "responses.jsonl").read_text().splitlines()
    lines = lines[:-1]  # one sample left to ask
    broken = json.loads(lines[2])
    broken["epoch"] = bad
    lines[2] = json.dumps(broken)
    (tmp_path / "r" / "responses.jsonl").write_text("\n".join(lines) + "\n")
    before = {p.name: p.read_bytes() for p in (tmp_path / "r").iterdir() if p.is_file()}
    with pytest.raises(SchemaError, match=r"responses.jsonl, line 3: epoch .*expected a positive integer"):
        run_benchmark(YN_TASK, ["v_1"], "mock/noisy", **opts)
    assert {p.name: p.read_bytes() for p in (tmp_path / "r").iterdir() if p.is_file()} == before


def test_a_line_whose_epoch_is_above_the_runs_epochs_is_refused_naming_it(tmp_path):
    path = _hand_run(tmp_path / "h")
    lines = (path / "responses.jsonl").read_text().splitlines()
    stray = json.loads(lines[0])
    stray["epoch"] = 999
    (path / "responses.jsonl").write_text("\n".join([json.dumps(stray)] + lines[1:]) + "\n")
    with pytest.raises(SchemaError, match=r"line 1: epoch 999 of item .* is above the 3 epoch\(s\) of the run"):
        load_run(path)


def test_the_mean_refuses_a_run_whose_epochs_are_not_all_complete_and_says_what_to_resume(tmp_path):
    path = _hand_run(tmp_path / "h")
    lines = [x for x in (path / "responses.jsonl").read_text().splitlines()
             if not (json.loads(x)["epoch"] == 3 and json.loads(x)["item_id"].endswith("q1"))]
    (path / "responses.jsonl").write_text("\n".join(lines) + "\n")
    run = load_run(path)
    with pytest.raises(ConfigError, match=r"variant A_1: 1 item lacks a sample .*first: 'reachability/A_1/q1'.*"
                                          r"--variant V --epochs 3"):
        compute_metrics(run, reducer="mean")
    with pytest.raises(ConfigError, match=r"fewer than 3 samples .*--epochs 3"):
        compute_metrics(run, reducer="pass@3")
    assert compute_metrics(run, reducer="pass@2").variants[HAND_VARIANT]["items"] == 4
    assert compute_metrics(run).variants[HAND_VARIANT]["pending"] == 1


def test_a_variant_without_answers_has_no_pass_value_and_stays_out_of_the_strategy_mean(tmp_path):
    path = _hand_run(tmp_path / "h")
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["variants"].append("A_2")
    manifest["items"]["A_2"] = 4
    (path / "manifest.json").write_text(json.dumps(manifest))
    m = compute_metrics(load_run(path), reducer="pass@2")
    assert m.variants["A_2"]["pass"] is None and m.variants["A_2"]["pending"] == 12
    assert m.reducer == "pass@2"
    assert m.strategies["Avg"]["pass"] == {"mean": pytest.approx(5 / 6), "std": None, "n": 1}


def test_pass_at_k_names_its_k_per_run_in_a_report_of_several_runs(tmp_path, capsys, isolated_cache):
    three = _hand_run(tmp_path / "h")
    two = tmp_path / "two"
    run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=yn_items(4, variants=("v_1",)), out=two, temperature=1,
                  epochs=2)
    assert main(["bench", "report", str(three), str(two), "--reducer", "pass@k", "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert "pass@3" in header and "pass@2" in header


def test_resuming_with_fewer_epochs_says_the_folder_keeps_more(tmp_path, capsys, climatecause_path,
                                                               isolated_cache):
    argv = ["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/noisy", "--temperature", "0.7",
            "--limit", "3", "--data", str(climatecause_path), "--out", str(tmp_path / "r")]
    assert main(argv + ["--epochs", "3"]) == 0
    capsys.readouterr()
    assert main(argv + ["--epochs", "2"]) == 0
    err = capsys.readouterr().err
    assert "asks every item 3 times (the most it was ever asked for), not 2" in err and "0 written, 9 already" in err
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["invocations"][-1]["epochs"] == 3 and manifest["invocations"][-1]["epochs_asked"] == 2


def test_the_plan_of_a_run_with_epochs_counts_every_sample(climatecause_path):
    from causalgraph.bench.plan import plan_run

    one, = plan_run(["corri"], "openai/gpt-5.1-2025-11-13", variants=["0_1"], data=str(climatecause_path))
    five, = plan_run(["corri"], "openai/gpt-5.1-2025-11-13", variants=["0_1"], data=str(climatecause_path), epochs=5)
    assert five["requests"] == 5 * one["requests"] == 5 * 874 and five["prompt_chars"] == 5 * one["prompt_chars"]
    assert five["cost_usd_est"] == pytest.approx(5 * one["cost_usd_est"], rel=1e-4)
    with pytest.raises(ConfigError, match="--epochs 0"):
        plan_run(["corri"], "openai/gpt-5.1-2025-11-13", variants=["0_1"], data=str(climatecause_path), epochs=0)


def test_a_run_with_nothing_left_to_ask_still_cuts_a_torn_line_and_says_so_once(tmp_path, caplog, isolated_cache):
    items = yn_items(3, variants=("v_1",))
    run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "r", temperature=1, epochs=2)
    path = tmp_path / "r" / "responses.jsonl"
    with open(path, "ab") as fh:
        fh.write(b'{"task": "yn-test", "vari')
    caplog.clear()
    res = run_benchmark(YN_TASK, ["v_1"], "mock/noisy", items=items, out=tmp_path / "r", temperature=1, epochs=2)
    # The note is a log record of the library (the command line shows it on stderr).
    err = [r.getMessage() for r in caplog.records if r.name.startswith("causalgraph")]
    assert res.written == 0 and len(err) == 1 and "removed a torn last line" in err[0]
    assert path.read_bytes().endswith(b"}\n")
