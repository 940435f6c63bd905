"""The run directory: append-only lines, torn-line repair, answers superseding failed attempts."""

from __future__ import annotations

import json

import pytest

from causalgraph.runlog.store import RunStore, load_run
from causalgraph.errors import ConfigError, SchemaError


def _rec(item, error=None, label="yes"):
    return {"task": "t", "variant": "v", "item_id": item, "response": None if error else label,
            "label": None if error else label, "error": error}


def _notes(caplog) -> list[str]:
    """The library's notes logged since the last call (the command line shows them on stderr)."""
    out = [r.getMessage() for r in caplog.records if r.name.startswith("causalgraph")]
    caplog.clear()
    return out


def test_append_cuts_a_torn_last_line_before_writing(tmp_path, caplog):
    store = RunStore(tmp_path)
    store.append([_rec("a"), _rec("b")])
    with open(store.responses_path, "ab") as fh:
        fh.write(b'{"task": "t", "variant": "v", "item_id": "c", "resp')  # a kill in the middle of a write
    assert [r["item_id"] for r in store.iter_lines()] == ["a", "b"]  # the raw lines
    assert "torn last line" in store.repairs[0]
    RunStore(tmp_path).append([_rec("c")])
    assert "removed a torn last line" in " ".join(_notes(caplog))
    lines = store.responses_path.read_text().splitlines()
    assert [json.loads(x)["item_id"] for x in lines] == ["a", "b", "c"]


def test_iter_lines_reports_a_broken_line_with_its_number(tmp_path):
    store = RunStore(tmp_path)
    store.append([_rec("a")])
    with open(store.responses_path, "a") as fh:
        fh.write("not json\n")
    store.append([_rec("b")])
    with pytest.raises(SchemaError, match=r"responses.jsonl, line 2: not a JSON object"):
        store.iter_lines()


def test_load_run_prefers_the_answer_over_failed_attempts(tmp_path):
    store = RunStore(tmp_path)
    store.write_manifest({"task": "t", "model": "mock/oracle", "variants": ["v"]})
    store.append([_rec("a", error="HTTP 500"), _rec("b"), _rec("a", label="no"), _rec("b", error="late failure")])
    run = load_run(tmp_path)
    assert [(r.item_id, r.label, r.error) for r in run.responses] == [("a", "no", None), ("b", "yes", None)]
    assert len(run.attempts) == 4 and store.answered() == {("t", "v", "a"), ("t", "v", "b")}


def test_load_run_of_a_folder_without_manifest_says_so(tmp_path):
    with pytest.raises(ConfigError, match="is not a run directory"):
        load_run(tmp_path)


def test_run_to_frame_lifts_statement_id(tmp_path):
    store = RunStore(tmp_path)
    store.write_manifest({"task": "t", "model": "m", "variants": ["v"]})
    rec = _rec("a")
    rec.update(meta={"statement_id": "cc-001"}, usage={"prompt_tokens": 5, "completion_tokens": 1})
    store.append([rec])
    df = load_run(tmp_path).to_frame()
    assert df.loc[0, "statement_id"] == "cc-001" and df.loc[0, "prompt_tokens"] == 5


def test_the_runner_writes_exactly_the_record_fields_and_to_frame_keeps_the_cost(tmp_path):
    import json

    from causalgraph.bench import Item
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.runlog.record import OPTIONAL_FIELDS, RECORD_FIELDS
    from causalgraph.llm.mock import make_mock

    class Billed(type(make_mock("oracle"))):
        billed = True  # priced from the table below, like a hosted API

    items = [Item("q1", "ccr-member", "A_5", "Is a in a chain?", "yes", meta={"statement_id": "s1"})]
    run_benchmark("ccr-member", ["A_5"], "mock/oracle", items=items, backend=Billed("oracle"), out=str(tmp_path / "r"),
                  cache=False, prices={"oracle": {"input": 1_000_000.0, "output": 0.0}})
    line = json.loads((tmp_path / "r" / "responses.jsonl").read_text().splitlines()[0])
    assert tuple(line) == tuple(f for f in RECORD_FIELDS if f not in OPTIONAL_FIELDS)
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["record_schema"] == 1
    df = load_run(tmp_path / "r").to_frame()
    # 5 prompt words ("Is a in a chain?") at 1 USD a token: the column Run.to_frame used to drop
    assert df.loc[0, "cost_usd"] == line["cost_usd"] == 5.0


def test_metrics_do_not_depend_on_the_order_lines_were_written(tmp_path):
    import random

    import bench_helpers  # noqa: F401  (registers the yn-test task)
    from causalgraph.bench.scoring import compute_metrics

    rng = random.Random(5)
    recs = [{"task": "yn-test", "variant": v, "item_id": f"q{i:02d}", "gold": rng.choice(["yes", "no"]),
             "label": rng.choice(["yes", "no", None]), "meta": {"statement_id": f"s{i // 4}"}, "error": None}
            for v in ("v_1", "v_2") for i in range(40)]
    metrics = []
    for n in range(2):
        store = RunStore(tmp_path / f"r{n}")
        store.write_manifest({"task": "yn-test", "model": "m", "variants": ["v_1", "v_2"]})
        shuffled = recs[:]
        random.Random(n).shuffle(shuffled)
        store.append(shuffled)
        metrics.append(compute_metrics(load_run(store.path), n_boot=200))
    assert metrics[0] == metrics[1]
    assert [r.item_id for r in load_run(tmp_path / "r0").responses[:3]] == ["q00", "q01", "q02"]


def test_a_run_directory_held_by_another_process_is_refused_until_that_process_dies(tmp_path, isolated_cache):
    import os
    import signal
    import subprocess
    import sys

    from causalgraph.bench.reparse import reparse_run
    from causalgraph.bench.runner import run_benchmark

    from bench_helpers import YN_TASK, yn_items

    out = tmp_path / "run"
    run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(3, variants=("v_1",)), out=out)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from causalgraph.runlog.store import RunStore; "
         f"RunStore({str(out)!r}).acquire('test holder'); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ConfigError, match=rf"in use by another causalgraph process \(pid {holder.pid}, test holder\)"):
            run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(4, variants=("v_1",)), out=out)
        with pytest.raises(ConfigError, match="in use by another"):
            reparse_run(out)
        assert len(RunStore(out).iter_lines()) == 3  # nothing was asked or written meanwhile
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
        holder.stdout.close()
    # SIGKILL freed the lock: the same command now resumes and asks only the new item.
    res = run_benchmark(YN_TASK, ["v_1"], "mock/oracle", items=yn_items(4, variants=("v_1",)), out=out)
    assert (res.skipped, res.written) == (3, 1)


def test_check_resumable_refuses_run_files_without_a_manifest(tmp_path):
    store = RunStore(tmp_path)
    store.check_resumable()  # an empty folder is a fresh run
    store.append([_rec("a")])
    assert store.orphans() == ["responses.jsonl"]
    with pytest.raises(ConfigError, match=r"holds responses\.jsonl but no manifest\.json.*nothing in it was changed"):
        store.check_resumable()
    store.write_manifest({"task": "t", "model": "m", "variants": ["v"]})
    assert store.orphans() == [] and store.check_resumable() is None


def test_load_run_refuses_a_line_of_another_task(tmp_path):
    store = RunStore(tmp_path)
    store.write_manifest({"task": "t", "model": "m", "variants": ["v"]})
    store.append([_rec("a"), {**_rec("b"), "task": "other"}])
    with pytest.raises(SchemaError, match=r"the line of item 'b' belongs to task 'other'; expected 't'"):
        load_run(tmp_path)


def _write_run(path, manifest, lines):
    import json

    path.mkdir()
    (path / "manifest.json").write_text(json.dumps(manifest))
    (path / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


def test_a_run_written_before_the_record_schema_reads_with_the_fields_it_lacks(tmp_path):
    # A line as the first runner wrote it: no cost_usd, and a manifest without record_schema.
    old = {"task": "ccr-member", "variant": "A_5", "item_id": "ccr-member/A_5/cc-001/e000", "gold": "yes",
           "meta": {"statement_id": "cc-001"}, "prompt_sha256": "ab", "request_key": "k", "response": "yes",
           "label": "yes", "rule": "exact", "usage": {"prompt_tokens": 3, "completion_tokens": 1},
           "latency_s": 0.0, "finish_reason": "stop", "source": "live", "attempts": 1, "error": None,
           "time": "2026-01-01T00:00:00+00:00"}
    _write_run(tmp_path / "r", {"task": "ccr-member", "variants": ["A_5"], "model": "mock/oracle"}, [old])
    run = load_run(tmp_path / "r")
    rec = run.responses[0]
    assert list(rec.to_dict())[:12] == ["task", "variant", "item_id", "gold", "meta", "prompt_sha256", "request_key",
                                        "response", "label", "rule", "usage", "cost_usd"]
    assert rec.cost_usd is None and "batch_id" not in rec.to_dict()  # "not recorded", not a cost of 0
    assert run.to_frame().loc[0, "label"] == "yes"


def test_a_record_line_the_schema_does_not_know_is_refused_naming_file_and_line(tmp_path):
    good = {"task": "t", "variant": "v", "item_id": "i1"}
    _write_run(tmp_path / "a", {"task": "t", "variants": ["v"]}, [good, {**good, "item_id": "i2", "surprise": 1}])
    with pytest.raises(SchemaError, match=r"responses.jsonl, line 2: unknown record field 'surprise'"):
        load_run(tmp_path / "a")
    _write_run(tmp_path / "b", {"task": "t", "variants": ["v"]}, [good, [1, 2]])
    with pytest.raises(SchemaError, match=r"line 2: expected a JSON object"):
        load_run(tmp_path / "b")
    _write_run(tmp_path / "c", {"task": "t", "variants": ["v"], "record_schema": 99}, [good])
    with pytest.raises(SchemaError, match="record_schema 99 is newer"):
        load_run(tmp_path / "c")


def test_a_reader_says_once_that_it_ignores_a_torn_last_line(tmp_path, caplog):
    store = RunStore(tmp_path)
    store.write_manifest({"task": "t", "variants": ["v"], "model": "m"})
    store.append([_rec("a")])
    with open(store.responses_path, "ab") as fh:
        fh.write(b'{"task": "t", "variant": "v", "item_id": "b", "resp')
    store.load()
    store.load()
    err = _notes(caplog)
    assert len(err) == 1 and "ignoring a torn last line of 51 bytes" in err[0] and "responses.jsonl" in err[0]


def test_a_reader_of_a_folder_another_process_writes_says_so_and_advises_waiting(tmp_path, caplog):
    from causalgraph.bench.scoring import compute_metrics

    writer = RunStore(tmp_path)
    writer.write_manifest({"task": "reachability", "variants": ["A_1"], "model": "m", "epochs": 2,
                           "record_schema": 2, "items": {"A_1": 1}})
    writer.append([{"task": "reachability", "variant": "A_1", "item_id": "i", "epoch": 1, "gold": "yes",
                    "label": "yes", "response": "yes"}])
    writer.acquire("live reachability m")  # a live run (flock: another open file, as another process holds it)
    try:
        run = load_run(tmp_path)
        assert run.writer is not None and "live reachability m" in run.writer
        assert "is being written by another process" in " ".join(_notes(caplog))
        with pytest.raises(ConfigError, match=r"a run is still writing into this folder \(pid \d+, live"):
            compute_metrics(run, reducer="mean")
        assert writer.writer() is None  # the writer itself is not "another process"
    finally:
        writer.release()
    assert load_run(tmp_path).writer is None and _notes(caplog) == []


def _run_with_a_torn_last_line(tmp_path) -> RunStore:
    """A one-record run whose responses.jsonl ends in a half-written line."""
    store = RunStore(tmp_path)
    store.write_manifest({"task": "reachability", "variants": ["A_1"], "model": "m"})
    store.append([{"task": "reachability", "variant": "A_1", "item_id": "i", "gold": "yes", "label": "yes",
                   "response": "<Answer>yes</Answer>"}])
    with open(store.responses_path, "ab") as fh:
        fh.write(b'{"task": "reachability", "vari')
    return store


def test_the_process_holding_the_folder_cuts_a_torn_line_and_says_only_that(tmp_path, caplog):
    from causalgraph.bench.reparse import reparse_run

    store = _run_with_a_torn_last_line(tmp_path)
    reparse_run(tmp_path)
    err = _notes(caplog)
    assert len(err) == 1 and "removed a torn last line" in err[0]
    assert store.responses_path.read_bytes().endswith(b"}\n")


def test_the_command_line_shows_the_library_notes_on_stderr_as_it_always_printed_them(tmp_path, capsys):
    from causalgraph.cli import main

    store = _run_with_a_torn_last_line(tmp_path)
    assert main(["bench", "report", str(tmp_path), "--format", "json"]) == 0
    # (the score notes of `bench report`, "causalgraph bench: note: …", are not the library's)
    err = [e for e in capsys.readouterr().err.splitlines() if e.startswith("causalgraph: ")]
    assert err == [f"causalgraph: {store.responses_path}: ignoring a torn last line of 30 bytes (an interrupted "
                   "write, or a run still writing); its item reads as not answered"]
    # The handler lives as long as the command: a second command prints its note once, not twice.
    assert main(["bench", "report", str(tmp_path), "--format", "json"]) == 0
    assert len([e for e in capsys.readouterr().err.splitlines() if e.startswith("causalgraph: ")]) == 1
