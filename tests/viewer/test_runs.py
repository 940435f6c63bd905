"""What the viewer reads from a run: outcomes, corpus, prompts, summary; generic over tasks."""

from __future__ import annotations

import json

import pytest

from causalgraph.runlog import RunRecord
from causalgraph.runlog.store import RunStore, load_run
from causalgraph.viewer.runs import (CS_BUCKETS, asked_events, build_run_view, cs_bucket, dataset_of, find_corpus,
                                     item_state, unique_names)

from toy_runs import RUN_A, TOY, sample_corpus, toy_items, write_toy_run


def test_item_state_reads_each_outcome_from_the_record():
    def rec(**fields):
        return RunRecord("t", "v", "i", **fields)

    assert item_state(rec(gold="yes", label="yes")) == "correct"
    assert item_state(rec(gold="yes", label="no")) == "wrong"
    assert item_state(rec(gold="yes", label=None, response="?")) == "unparsed"
    assert item_state(rec(gold="yes", label="yes", error="HTTP 500")) == "error"
    assert item_state(rec(gold=None, label={"a": 1})) == "ungraded"
    assert item_state(rec(gold="yes", label="yes"), graded=False) == "ungraded"


@pytest.mark.parametrize("value, bucket", [(0.0, "0"), (1e-9, "0–0.25"), (0.25, "0–0.25"), (0.2500001, "0.25–0.5"),
                                           (0.5, "0.25–0.5"), (1.0, "0.5–1"), (1.0001, "> 1"), (None, "n/a"),
                                           (float("nan"), "n/a")])
def test_cs_bucket_puts_upper_bounds_in_the_lower_bucket(value, bucket):
    assert cs_bucket(value) == bucket and bucket in CS_BUCKETS


def test_asked_events_reads_event_cause_effect_and_lists_without_repeats():
    assert asked_events({"cause": "a", "effect": "b", "event": "a", "events": ["c", 3], "other": "x"}) == ["a", "c", "b"]
    assert asked_events({}) == []


def test_dataset_of_accepts_a_dict_or_a_bare_name():
    assert dataset_of({"dataset": {"name": "x", "sha256": "1"}}) == {"name": "x", "sha256": "1"}
    assert dataset_of({"dataset": "test"}) == {"name": "test"}
    assert dataset_of({"dataset": None}) == {}


def test_unique_names_adds_the_parent_folder_only_where_names_collide(tmp_path):
    assert unique_names([tmp_path / "x" / "run", tmp_path / "y" / "run", tmp_path / "z"]) == ["x/run", "y/run", "z"]


def test_build_run_view_of_a_registered_toy_task_has_outcomes_prompts_and_summary(tmp_path):
    run = load_run(write_toy_run(tmp_path / "r", RUN_A))
    view = build_run_view(run)
    assert view.task_name == TOY and view.kind == "binary" and view.labels == ("yes", "no")
    assert view.corpus is not None and view.corpus.name == "sample"
    expected = [RUN_A[r.variant][r.meta["statement_id"]] for r in run.responses]
    assert view.states == expected
    # Prompts rebuilt from the task and corpus: their sha256 is the one recorded.
    corpus = sample_corpus()
    built = {it.id: it for v in ("a", "b") for it in toy_items(corpus, v)}
    for rec, p in zip(view.records, view.prompts):
        assert p["check"] == "verified"
        assert p["user"] == built[rec.item_id].prompt and p["system"] == built[rec.item_id].system
    # Counts per variant, computed here from RUN_A by hand.
    a, b = view.summary
    assert (a["variant"], a["items"], a["answered"], a["errors"], a["parse_failures"]) == ("a", 4, 4, 0, 1)
    assert (b["variant"], b["items"], b["answered"], b["errors"], b["parse_failures"]) == ("b", 4, 3, 1, 0)
    assert a["tokens_in"] == 40 and b["tokens_out"] == 6 and a["cost_usd"] == pytest.approx(0.004)
    # Variant a: gold yes,yes,yes,no; predicted yes,no,None,no -> tp 1, fp 0, fn 2.
    assert a["precision"] == 1.0 and a["recall"] == pytest.approx(1 / 3) and a["f1"] == pytest.approx(0.5)
    # 4 items of fewer than 30 statements: no interval (it would undercover), said in the notes.
    assert a["f1_ci95"] is None


def test_a_changed_prompt_is_marked_as_differing_from_what_was_sent(tmp_path):
    path = write_toy_run(tmp_path / "r", {"a": {"sample-001": "correct"}})
    lines = (path / "responses.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["prompt_sha256"] = "f" * 64
    (path / "responses.jsonl").write_text(json.dumps(rec) + "\n")
    view = build_run_view(load_run(path))
    assert view.prompts[0]["check"] == "differs"
    assert any("differ from the prompt that was sent" in n for n in view.notes)


def test_an_unregistered_task_is_shown_from_its_records_without_graphs_or_prompts(tmp_path):
    store = RunStore(tmp_path / "r")
    store.write_manifest({"task": "nobody-knows", "variants": ["v"], "model": "m", "dataset": "test"})
    store.append([{"task": "nobody-knows", "variant": "v", "item_id": f"q{i}", "gold": g, "label": p,
                   "meta": {"statement_id": f"s{i}"}, "response": str(p), "rule": "r"}
                  for i, (g, p) in enumerate([("cat", "cat"), ("dog", "cat"), ("cat", None)])])
    view = build_run_view(load_run(tmp_path / "r"))
    assert view.task is None and view.kind == "unknown" and view.labels == ("cat", "dog")
    assert view.states == ["correct", "wrong", "unparsed"]
    assert view.corpus is None and view.prompts == [None, None, None]
    assert any("not registered" in n for n in view.notes)
    assert [s["items"] for s in view.summary] == [3]


def test_find_corpus_passes_over_a_corpus_whose_sha256_differs(tmp_path):
    path = write_toy_run(tmp_path / "r", {"a": {"sample-001": "correct"}})
    m = json.loads((path / "manifest.json").read_text())
    m["dataset"]["sha256"] = "0" * 64
    m["dataset"]["source"] = str(tmp_path / "gone.csv")
    (path / "manifest.json").write_text(json.dumps(m))
    run = load_run(path)
    corpus, notes = find_corpus(run)
    assert corpus is None
    assert any("differs from the run's" in n for n in notes)
    # Named explicitly, the corpus is used as given.
    corpus, notes = find_corpus(run, "sample")
    assert corpus.name == "sample" and notes == []
    view = build_run_view(run)
    assert view.corpus is None and view.prompts == [None]
    assert any("no graphs, C(s) or prompts" in n for n in view.notes)


def test_a_run_with_epochs_shows_majority_answers_and_lists_every_epoch(tmp_path):
    from causalgraph.runlog.store import load_run
    from causalgraph.viewer.runs import build_run_view
    from toy_runs import write_toy_epoch_run

    path = write_toy_epoch_run(tmp_path / "e", {"sample-001": ["wrong", "correct", "correct"],
                                                "sample-002": ["wrong", "error", "correct"]})
    view = build_run_view(load_run(path))
    # sample-001: two of three right, epoch 2 stands for it; sample-002: a failed request does not vote, the
    # tie between wrong (epoch 1) and right (epoch 3) goes to the earlier.
    assert view.states == ["correct", "wrong"] and [r.epoch for r in view.records] == [2, 1]
    assert [[x[0] for x in e] for e in view.epochs] == [[1, 2, 3], [1, 2, 3]]
    assert view.epochs[1][1][3] == "HTTP 500: server error"
    assert any("asked 3 times" in n for n in view.notes)
    # Tokens of every request: 5 answered samples of 10 prompt tokens each.
    assert view.summary[0]["tokens_in"] == 50 and view.summary[0]["items"] == 2


@pytest.mark.parametrize("prompts,drop", [("authors", False), ("tables", False), ("tables", True)])
def test_a_climatecause_run_rebuilds_its_prompts_from_its_own_catalog(prompts, drop, tmp_path, monkeypatch):
    from causalgraph.bench.runner import run_benchmark
    from causalgraph.viewer.payload import build_payload

    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    res = run_benchmark("ccr-position", "A_4,SN_5", "mock/oracle", data="sample", out=tmp_path / "r",
                        prompts=prompts, progress=False)
    if drop:  # a folder written before the catalogs: its manifest names none, and it is a tables run
        manifest = json.loads((res.path / "manifest.json").read_text(encoding="utf-8"))
        del manifest["prompts"]
        (res.path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    view = build_run_view(load_run(res.path))
    assert view.prompt_catalog == prompts
    assert [p["check"] for p in view.prompts] == ["verified"] * len(view.records) and view.records
    payload = build_payload([view])
    assert payload["runs"][0]["prompts"] == prompts
