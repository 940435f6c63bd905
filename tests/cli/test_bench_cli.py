"""``causalgraph bench``: run, report, parse, tasks, batch status, errors."""

from __future__ import annotations

import csv
import io
import json

import pytest

from causalgraph.cli import main


def _run(args, capsys):
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_bench_run_then_rerun_sends_nothing(climatecause_path, tmp_path, isolated_cache, capsys):
    args = ["bench", "run", "--task", "ccr-position", "--variant", "A_4,SN_5", "--model", "mock/oracle",
            "--data", str(climatecause_path), "--limit", "20", "--out", str(tmp_path / "r"), "--format", "csv"]
    rc, out, err = _run(args, capsys)
    assert rc == 0 and "40 written" in err and "40 requests sent" in err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["variant"] for r in rows] == ["A_4", "SN_5"] and all(float(r["f1"]) == 1.0 for r in rows)
    rc, out, err = _run(args, capsys)
    assert rc == 0 and "0 requests sent" in err and "40 already answered" in err
    metrics = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert metrics["requests_sent"] == 0 and metrics["items"] == 40


def test_bench_report_table_shows_strategy_rows_and_authors_score(climatecause_path, tmp_path, isolated_cache, capsys):
    main(["bench", "run", "--task", "ccr-position", "--variant", "A_4,A_5", "--model", "mock/constant",
          "--model-option", "text=<Answer>start</Answer>", "--data", str(climatecause_path), "--limit", "40",
          "--out", str(tmp_path / "r")])
    capsys.readouterr()
    rc, out, _ = _run(["bench", "report", str(tmp_path / "r"), "--bootstrap", "50", "--per-class",
                       "--format", "json"], capsys)
    metrics = json.loads(out)[0]["metrics"]
    a4 = metrics["variants"]["A_4"]
    # Everything answered "start": recall of start 1, the other classes 0; macro-F1 is a quarter of F1(start).
    assert a4["per_class"]["start"]["recall"] == 1.0 and a4["per_class"]["none"]["recall"] == 0.0
    assert a4["macro_f1"] == pytest.approx(a4["per_class"]["start"]["f1"] / 4)
    assert a4["authors"]["recall"] == 1.0 and metrics["strategies"]["adjacency"]["macro_f1"]["n"] == 2
    rc, out, _ = _run(["bench", "report", str(tmp_path / "r"), "--bootstrap", "50", "--confusion"], capsys)
    assert rc == 0 and "[adjacency]" in out and "authors_f1" in out and "rows gold, columns predicted" in out
    rc, out, _ = _run(["bench", "report", str(tmp_path / "r"), "--bootstrap", "50", "--per-class", "--format",
                       "csv"], capsys)
    rows = {r["variant"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["[Avg]:start"]["recall"] == "1.0000 ± 0.0000" and rows["A_4:none"]["recall"] == "0.0"


def test_bench_parse_reparses_offline(tmp_path, isolated_cache, capsys, climatecause_path):
    main(["bench", "run", "--task", "corri", "--variant", "0_2", "--model", "mock/oracle",
          "--model-option", "style=sentence", "--data", str(climatecause_path), "--limit", "5",
          "--out", str(tmp_path / "r")])
    capsys.readouterr()
    rc, out, _ = _run(["bench", "parse", str(tmp_path / "r"), "--format", "json"], capsys)
    assert rc == 0 and json.loads(out) == [{"variant": "0_2", "lines": 5, "changed": 0,
                                            "parse_failures_before": 0, "parse_failures_after": 0}]


def test_bench_tasks_lists_the_climatecause_tasks(capsys):
    rc, out, _ = _run(["bench", "tasks", "--format", "json"], capsys)
    tasks = {t["task"]: t for t in json.loads(out)}
    assert tasks["ccr-position"]["labels"] == "start,middle,end,none"
    assert tasks["corri"]["positive"] == "positive" and tasks["corri-rc"]["variants"].startswith("RC_0_1")


def test_bench_run_unknown_task_is_one_line_exit_2(capsys):
    rc, out, err = _run(["bench", "run", "--task", "nope", "--variant", "x", "--model", "mock/oracle"], capsys)
    assert rc == 2 and err.count("\n") == 1 and "unknown task 'nope'" in err


def test_bench_run_refuses_a_key_as_model_option(capsys):
    rc, _, err = _run(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "openai/gpt-5.1",
                       "--model-option", "api_key=sk-abc"], capsys)
    assert rc == 2 and "OPENAI_API_KEY" in err and "sk-abc" not in err


def test_bench_run_counts_errors_in_the_exit_code(tmp_path, isolated_cache, capsys, climatecause_path):
    rc, out, err = _run(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/flaky",
                         "--model-option", "pattern=f", "--data", str(climatecause_path), "--limit", "3",
                         "--out", str(tmp_path / "r")], capsys)
    assert rc == 1 and "3 errors" in err


def test_bench_batch_status_of_a_run_without_batches_is_an_error_as_collect_gives(tmp_path, isolated_cache, capsys,
                                                                                   climatecause_path):
    main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
          "--data", str(climatecause_path), "--limit", "1", "--out", str(tmp_path / "r")])
    capsys.readouterr()
    rc, out, err = _run(["bench", "batch", "status", str(tmp_path / "r"), "--format", "json"], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.strip() == (f"causalgraph bench: error: {tmp_path / 'r'}: the run has no Batch job (no batches.json)")
    rc, _, collect_err = _run(["bench", "batch", "collect", str(tmp_path / "r")], capsys)
    assert rc == 2 and collect_err.split("error: ", 1)[1] == err.split("error: ", 1)[1]


def test_bench_plan_counts_requests_and_prices_them(capsys, climatecause_path):
    rc, out, _ = _run(["bench", "plan", "--task", "corri,ccr-member", "--variant", "0_1", "--data",
                       str(climatecause_path), "--output-tokens", "100", "--format", "json"], capsys)
    assert rc == 2  # ccr-member has no variant 0_1: said, not skipped
    rc, out, _ = _run(["bench", "plan", "--task", "corri", "--variant", "0_1,F_1", "--data", str(climatecause_path),
                       "--output-tokens", "100", "--batch", "--format", "json"], capsys)
    rows = json.loads(out)
    assert [r["requests"] for r in rows] == [874, 874, 1748]  # the paper's 874 CorrI relations per variant
    r = rows[0]
    # gpt-5.1 at the Batch API's half price: $0.625 / $5 per million tokens.
    assert r["cost_usd_est"] == pytest.approx((r["input_tokens_est"] * 0.625 + 87_400 * 5.0) / 1e6)


def test_bench_run_warns_when_answers_name_no_label(tmp_path, isolated_cache, capsys, climatecause_path):
    rc, _, err = _run(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/constant",
                       "--model-option", "text=I am not sure.", "--data", str(climatecause_path), "--limit", "5",
                       "--out", str(tmp_path / "r")], capsys)
    assert rc == 0 and "warning: variant 0_1: 5 of 5 answers name no label" in err


def test_bench_run_refuses_an_option_the_backend_cannot_honour_before_asking(tmp_path, isolated_cache, capsys,
                                                                            climatecause_path):
    rc, out, err = _run(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
                         "--model-option", "latncy=0.05", "--data", str(climatecause_path), "--limit", "2",
                         "--out", str(tmp_path / "r")], capsys)
    assert rc == 2 and err.count("\n") == 1 and "mock/oracle cannot honour option latncy" in err
    assert not (tmp_path / "r").exists()


def test_bench_run_refuses_a_second_process_on_the_same_run_directory(tmp_path, isolated_cache, capsys, climatecause_path):
    from causalgraph.runlog.store import RunStore

    args = ["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--data",
            str(climatecause_path), "--limit", "2", "--out", str(tmp_path / "r"), "--no-progress"]
    assert _run(args, capsys)[0] == 0
    other = RunStore(tmp_path / "r")
    other.acquire("another writer")  # a second open file description: flock conflicts as across processes
    try:
        rc, _, err = _run(args, capsys)
        assert rc == 2 and err.count("\n") == 1 and "in use by another causalgraph process" in err
    finally:
        other.release()
    rc, _, err = _run(args, capsys)
    assert rc == 0 and "0 written, 2 already answered" in err


def _snapshot(folder):
    """Every entry of a folder with its bytes and modification time (ns)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_bench_run_refuses_a_folder_with_responses_but_no_manifest_and_changes_nothing(
        tmp_path, isolated_cache, capsys, climatecause_path):
    # Issue #13: the folder was accepted, corri lines were appended beside ccr-member ones, and scoring
    # crashed with "gold label 'no' is not one of ['positive', 'negative']".
    first = tmp_path / "first"
    assert main(["bench", "run", "--task", "ccr-member", "--variant", "A_4", "--model", "mock/oracle",
                 "--data", str(climatecause_path), "--limit", "3", "--out", str(first)]) == 0
    orphan = tmp_path / "orphan"
    orphan.mkdir()
    (orphan / "responses.jsonl").write_bytes((first / "responses.jsonl").read_bytes())
    (orphan / "metrics.json").write_bytes((first / "metrics.json").read_bytes())
    before = _snapshot(orphan)
    capsys.readouterr()
    for argv in (["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle", "--data",
                  str(climatecause_path), "--limit", "3", "--out", str(orphan)],
                 ["bench", "batch", "submit", "--task", "corri", "--variant", "0_1", "--model", "openai/x",
                  "--base-url", "http://127.0.0.1:9/v1", "--data", str(climatecause_path), "--limit", "1",
                  "--out", str(orphan)]):
        rc, out, err = _run(argv, capsys)
        assert rc == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"causalgraph bench: error: {orphan} is not a complete run directory: it holds "
                              "responses.jsonl, metrics.json but no manifest.json")
        assert "nothing in it was changed" in err and "put the run's manifest.json back" in err
        assert _snapshot(orphan) == before  # same files (no lock file either), same bytes, same times


@pytest.mark.parametrize("command", [["bench", "report"], ["bench", "parse"], ["bench", "batch", "status"],
                                     ["bench", "batch", "collect"]])
def test_reading_a_folder_with_responses_but_no_manifest_says_what_is_missing(tmp_path, capsys, command):
    (tmp_path / "responses.jsonl").write_text('{"task": "ccr-member", "item_id": "x", "gold": "no"}\n')
    rc, out, err = _run(command + [str(tmp_path)], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert (f"{tmp_path} is not a complete run directory: it holds responses.jsonl but no manifest.json" in err
            and "it cannot be read as a run" in err)


def test_bench_report_of_a_folder_mixing_two_tasks_names_the_stray_line(tmp_path, isolated_cache, capsys,
                                                                         climatecause_path):
    # A folder the old behaviour left behind: a corri manifest over ccr-member lines.
    run = tmp_path / "mixed"
    assert main(["bench", "run", "--task", "corri", "--variant", "0_1", "--model", "mock/oracle",
                 "--data", str(climatecause_path), "--limit", "2", "--out", str(run)]) == 0
    stray = {"task": "ccr-member", "variant": "A_4", "item_id": "ccr-member/A_4/cc-001/e000", "gold": "no",
             "label": "no", "error": None}
    with open(run / "responses.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps(stray) + "\n")
    capsys.readouterr()
    rc, out, err = _run(["bench", "report", str(run)], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert ("the line of item 'ccr-member/A_4/cc-001/e000' belongs to task 'ccr-member'; expected 'corri', the task "
            "in manifest.json") in err


def test_bench_run_records_the_catalog_and_a_resume_with_another_is_one_line_exit_2(tmp_path, isolated_cache, capsys,
                                                                                   climatecause_path):
    out = tmp_path / "r"
    args = ["bench", "run", "--task", "ccr-eci-member", "--variant", "0_4", "--model", "mock/oracle", "--limit", "2",
            "--data", str(climatecause_path), "--out", str(out), "--no-progress"]
    assert main(args) == 0
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["prompts"] == "authors"
    capsys.readouterr()
    before = (out / "responses.jsonl").read_bytes()
    assert main(args + ["--prompts", "tables"]) == 2
    err = capsys.readouterr().err
    assert err == (f"causalgraph bench: error: {out} holds a run with different prompts ('authors' there, 'tables' "
                   "now); choose another --out to start a new run\n")
    assert (out / "responses.jsonl").read_bytes() == before
    more = [("3" if a == "2" and args[i - 1] == "--limit" else a) for i, a in enumerate(args)]
    assert main(more + ["--prompts", "authors"]) == 0  # the same catalog resumes


@pytest.mark.parametrize("prompts", ["authors", "tables"])
def test_bench_plan_measures_the_prompts_of_the_catalog_asked(prompts, capsys, climatecause_path):
    from causalgraph.tasks import get_task
    from causalgraph.datasets import load_corpus

    assert main(["bench", "plan", "--task", "ccr-member", "--variant", "A_4", "--data", str(climatecause_path),
                 "--prompts", prompts, "--format", "json"]) == 0
    row, = json.loads(capsys.readouterr().out)
    its = get_task("ccr-member").items(load_corpus(str(climatecause_path)), "A_4", prompts=prompts)
    assert (row["requests"], row["prompt_chars"]) == (512, sum(len(it.prompt) for it in its))


def test_bench_plan_of_a_task_without_the_authors_prompts_is_one_line_naming_it(capsys):
    assert main(["bench", "plan", "--task", "corri-multihop", "--prompts", "authors"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "task 'corri-multihop' has no 'authors' prompts; its catalogs: tables" in err
