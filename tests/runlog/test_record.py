"""The run record is typed from write to read: the runner writes RunRecord objects, readers get them back."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.errors import SchemaError
from causalgraph.runlog import Run, RunRecord, RunStore, load_run
from causalgraph.runlog.record import OPTIONAL_FIELDS, RECORD_FIELDS
from causalgraph.runlog.store import _as_written

from bench_helpers import write_records

plain = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4)),
                     lambda inner: st.one_of(st.lists(inner, max_size=3),
                                             st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                     max_leaves=6)
maybe_text = st.one_of(st.none(), st.text(max_size=6))


@st.composite
def records(draw) -> RunRecord:
    """Records as the runner writes them: identity, an epoch or not, any answer, optional fields set or not."""
    method = draw(st.sampled_from([None, "loglik", "choice-logprobs"]))
    probs = draw(st.one_of(st.none(), st.dictionaries(st.sampled_from(["yes", "no"]),
                                                        st.floats(0, 1, allow_nan=False), max_size=2)))
    return RunRecord(
        task="t", variant=draw(st.sampled_from(["v1", "v2"])), item_id=draw(st.text(min_size=1, max_size=5)),
        epoch=draw(st.one_of(st.none(), st.integers(1, 3))), gold=draw(plain),
        meta=draw(st.dictionaries(st.text(max_size=4), plain, max_size=3)), prompt_sha256=draw(maybe_text),
        request_key=draw(maybe_text), response=draw(maybe_text), label=draw(plain), rule=draw(maybe_text),
        method=method, probs=probs if method else None,
        scoring="parsed" if method == "choice-logprobs" else None,
        usage={"prompt_tokens": draw(st.one_of(st.none(), st.integers(0, 9))), "completion_tokens": None},
        cost_usd=draw(st.one_of(st.none(), st.floats(0, 1, allow_nan=False))),
        attempts=draw(st.integers(0, 3)), error=draw(maybe_text),
        batch_id=draw(st.one_of(st.none(), st.just("batch_1"))))


@settings(max_examples=150, deadline=None)
@given(st.lists(records(), min_size=1, max_size=6))
def test_every_line_reads_back_as_the_record_that_was_written(tmp_path_factory, recs):
    path = tmp_path_factory.mktemp("run")
    store = RunStore(path)
    store.append(recs)
    got = store.checked_lines(store.read_manifest() if store.manifest_path.is_file() else {"task": "t", "epochs": 3})
    assert got == recs and all(type(r) is RunRecord for r in got)
    assert [r.to_dict() for r in got] == [json.loads(x) for x in (path / "responses.jsonl").read_bytes().split(b"\n")[:-1]]
    for r in got:
        line = r.to_dict()
        # The store takes a generated answer's line without a second pass; it must be the checked reading.
        assert _as_written(line) == (r.method is None)
        if _as_written(line):
            assert RunRecord._written(dict(line)) == RunRecord.from_dict(line)
            assert RunRecord._written(dict(line)).to_dict() == line


def test_a_loaded_run_holds_records_that_are_not_mappings(tmp_path):
    run_dir = write_records(tmp_path / "r", [{"task": "t", "variant": "v", "item_id": "a", "label": "yes",
                                              "gold": "yes", "meta": {"statement_id": "s1"}}], task="t")
    run = load_run(run_dir)
    rec = run.responses[0]
    assert type(rec) is RunRecord and run.samples == [rec] and run.attempts == [rec]
    assert (rec.label, rec.gold, rec.meta["statement_id"], rec.epoch, rec.batch_id) == ("yes", "yes", "s1", None,
                                                                                          None)
    with pytest.raises(TypeError):
        rec["label"]
    with pytest.raises(AttributeError):
        rec.get("label")
    with pytest.raises(TypeError):
        "label" in rec


def test_a_run_built_by_hand_reads_its_dicts_through_the_record_schema(tmp_path):
    run = Run(path=tmp_path, manifest={"task": "t"}, responses=[{"task": "t", "variant": "v", "item_id": "a"}])
    assert run.responses == [RunRecord("t", "v", "a")] and run.samples == run.responses
    with pytest.raises(SchemaError, match=r"responses\.jsonl: unknown record field 'lable'"):
        Run(path=tmp_path, manifest={"task": "t"},
            responses=[{"task": "t", "variant": "v", "item_id": "a", "lable": "yes"}])


def test_appending_a_dict_that_is_no_record_is_refused_and_writes_nothing(tmp_path):
    store = RunStore(tmp_path)
    store.append([RunRecord("t", "v", "a", label="yes")])
    before = (tmp_path / "responses.jsonl").read_bytes()
    with pytest.raises(SchemaError, match="epoch 0, expected a positive integer"):
        store.append([{"task": "t", "variant": "v", "item_id": "b", "epoch": 0}])
    assert (tmp_path / "responses.jsonl").read_bytes() == before


def test_a_record_written_by_hand_as_a_dict_is_the_record_the_runner_would_write(tmp_path):
    store = RunStore(tmp_path)
    store.append([{"task": "t", "variant": "v", "item_id": "a", "label": "yes"}])
    line = json.loads((tmp_path / "responses.jsonl").read_text())
    # Every field in schema order; the optional ones only when set.
    assert list(line) == [f for f in RECORD_FIELDS if f not in OPTIONAL_FIELDS]
    assert RunRecord.from_dict(line) == RunRecord("t", "v", "a", label="yes")


def test_bench_parse_rewrites_old_lines_as_records_of_the_current_schema(tmp_path):
    # A line as the first runner wrote it (no cost_usd), answer text that parses to "no" now.
    old = {"task": "ccr-member", "variant": "A_5", "item_id": "ccr-member/A_5/cc-001/e000", "gold": "yes",
           "meta": {"statement_id": "cc-001"}, "prompt_sha256": "ab", "request_key": "k", "response": "No.",
           "label": None, "rule": None, "usage": {"prompt_tokens": 3, "completion_tokens": 1},
           "latency_s": 0.0, "finish_reason": "stop", "source": "live", "attempts": 1, "error": None,
           "time": "2026-01-01T00:00:00+00:00"}
    run_dir = Path(tmp_path / "r")
    run_dir.mkdir()
    (run_dir / "manifest.json").write_text(json.dumps({"task": "ccr-member", "variants": ["A_5"],
                                                       "model": "mock/oracle"}))
    (run_dir / "responses.jsonl").write_text(json.dumps(old) + "\n")
    from causalgraph.bench.reparse import reparse_run

    (row,) = reparse_run(run_dir)
    assert (row["changed"], row["parse_failures_before"], row["parse_failures_after"]) == (1, 1, 0)
    line = json.loads((run_dir / "responses.jsonl").read_text())
    want = dataclasses.replace(RunRecord.from_dict(old), label="no", rule=line["rule"])
    assert line == want.to_dict() and line["cost_usd"] is None and line["label"] == "no"


def test_a_record_held_in_memory_loads_as_its_line_reads_back(tmp_path):
    # The process holding the folder reads what it appended from memory (keep_lines); that must be what
    # a reader of the file gets, also for a record built with no meta or usage (an item without meta).
    store = RunStore(tmp_path)
    store.write_manifest({"task": "t", "variants": ["v"], "model": "mock/hand"})
    store.keep_lines(store.checked_lines(store.read_manifest()))
    store.append([RunRecord("t", "v", "a", meta=None, usage=None, label="yes")])
    kept, read = store.load(), RunStore(tmp_path).load()
    assert kept.responses == read.responses
    assert (kept.responses[0].meta, kept.responses[0].usage) == ({}, {"prompt_tokens": None,
                                                                   "completion_tokens": None})
