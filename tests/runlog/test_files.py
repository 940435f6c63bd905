"""The typed run log (manifest, metrics, Batch ledger): round trips, the bytes of real runs, old folders, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from causalgraph.bench.batch import collect_batch, submit_batch
from causalgraph.runlog.files import BatchJob, Ledger, Manifest, Metrics
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.config import RunConfig
from causalgraph.runlog.store import Run, load_run
from causalgraph.errors import SchemaError

from bench_helpers import YN_TASK, yn_items

TEXT = st.text(max_size=8)
JSON_LEAF = st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=False, allow_infinity=False) | TEXT
JSON = st.recursive(JSON_LEAF, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(TEXT, kids, max_size=3),
                    max_leaves=8)
COUNT = st.integers(0, 10**6)


def _partial(cls, values: dict) -> st.SearchStrategy:
    """Objects of ``cls`` with any subset of the fields set (an old folder lacks some)."""
    return st.fixed_dictionaries({}, optional=values).map(lambda kw: cls(**kw))


MANIFESTS = _partial(Manifest, {
    "task": TEXT, "variants": st.lists(TEXT, max_size=3), "model": TEXT,
    "parameters": st.dictionaries(TEXT, JSON, max_size=4), "dataset": st.dictionaries(TEXT, JSON, max_size=3) | TEXT,
    "prompts": TEXT, "items": st.dictionaries(TEXT, COUNT, max_size=3), "graph_edit": TEXT,
    "causalgraph_version": TEXT, "record_schema": st.integers(1, 3), "python": TEXT, "started": TEXT,
    "invocations": st.lists(st.dictionaries(TEXT, JSON, max_size=3), max_size=3), "epochs": st.integers(1, 9),
    "inspect": st.dictionaries(TEXT, JSON, max_size=3), "manifest_schema": st.just(1)})
METRICS = _partial(Metrics, {
    "task": TEXT, "model": TEXT, "epochs": st.integers(1, 9), "reducer": TEXT, "method": st.just("loglik"),
    **{k: COUNT for k in ("items", "answered", "errors", "parse_failures", "pending", "tokens_in", "tokens_out",
                          "requests_sent", "cache_hits", "skipped", "batch_requests")},
    "parse_failure_rate": st.floats(0, 1), "cost_usd": st.floats(0, 100),
    "bootstrap": st.dictionaries(TEXT, JSON, max_size=3),
    "variants": st.dictionaries(TEXT, st.dictionaries(TEXT, JSON, max_size=3), max_size=3),
    "strategies": st.dictionaries(TEXT, JSON, max_size=3)})
JOBS = _partial(BatchJob, {
    **{k: TEXT for k in ("input_path", "items_path", "created", "input_file_id", "batch_id", "status", "submitted",
                         "output_file_id", "output_path", "error_file_id", "error_path", "collected")},
    "requests": COUNT, "request_counts": st.dictionaries(TEXT, COUNT, max_size=3)}).flatmap(
    lambda job: st.builds(lambda lid, state: BatchJob(**{**job.to_dict(), "local_id": lid, "state": state}),
                          TEXT, st.sampled_from(["prepared", "uploaded", "submitted", "collected"])))
LEDGERS = st.builds(Ledger, batches=st.lists(JOBS, max_size=3))


@settings(max_examples=60, deadline=None)
@given(st.one_of(MANIFESTS, METRICS, LEDGERS))
def test_from_dict_of_to_dict_is_the_object_and_the_written_form_survives_json(obj):
    cls = type(obj)
    assert cls.from_dict(obj.to_dict()) == obj
    # What is written reads back, through JSON, as the same object (and the same bytes again).
    text = json.dumps(obj.to_dict(), indent=2, ensure_ascii=False)
    assert cls.from_dict(json.loads(text)) == obj
    assert json.dumps(cls.from_dict(json.loads(text)).to_dict(), indent=2, ensure_ascii=False) == text


def _bytes_of(obj) -> bytes:
    # As RunStore writes every JSON file of a run.
    return (json.dumps(obj.to_dict(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _check_bytes(folder: Path) -> int:
    checked = 0
    for name, cls in (("manifest.json", Manifest), ("metrics.json", Metrics), ("batches.json", Ledger)):
        p = folder / name
        if p.is_file():
            raw = p.read_bytes()
            assert _bytes_of(cls.from_dict(json.loads(raw), str(p))) == raw, name
            checked += 1
    return checked


@pytest.mark.parametrize("task,variant,options", [
    ("ccr-member", "A_5", {}),
    ("ccr-member", "A_5", {"method": "loglik"}),
    ("corri", "0_1", {"model": "mock/noisy"}),
    ("ccr-position", "SN_5", {"prompts": "tables"}),
    ("reachability", "A_1", {"epochs": 2, "temperature": 0.7}),
])
def test_the_files_of_real_runs_are_the_bytes_their_objects_write(tmp_path, isolated_cache, task, variant, options):
    model = options.pop("model", "mock/oracle")
    res = run_benchmark(task, [variant], model, out=tmp_path / "run", limit=6, **options)
    assert _check_bytes(res.path) == 2
    # Resuming rewrites the manifest (a second invocation): still its object's bytes.
    run_benchmark(task, [variant], model, out=tmp_path / "run", limit=8, **options)
    assert _check_bytes(res.path) == 2
    run = load_run(res.path)
    assert isinstance(run.manifest, Manifest) and isinstance(run.metrics, Metrics)
    assert run.manifest.task == task and run.metrics.items == sum(run.manifest.items.values())


@pytest.mark.network_local
@pytest.mark.timeout(120)
def test_the_ledger_and_metrics_of_a_batch_run_are_the_bytes_their_objects_write(standin, isolated_cache, tmp_path):
    standin.batch_polls = 1
    cfg = RunConfig(task=YN_TASK, variants=["v_1", "v_2"], model="openai/standin-model", out=str(tmp_path / "run"),
                    temperature=None, model_options={"base_url": standin.url})
    submit_batch(cfg, items=yn_items(4))
    assert _check_bytes(tmp_path / "run") == 2  # manifest and ledger (no metrics before collection)
    collect_batch(tmp_path / "run")
    collect_batch(tmp_path / "run")
    assert _check_bytes(tmp_path / "run") == 3
    run = load_run(tmp_path / "run")
    assert [b.state for b in run.ledger.batches] == ["collected"] and run.ledger.pending() == 0
    assert run.metrics.batch_requests == 8


def _old_folder(path: Path, manifest: dict, metrics: dict | None = None) -> Path:
    path.mkdir()
    (path / "manifest.json").write_text(json.dumps(manifest))
    line = {"task": "ccr-member", "variant": "A_5", "item_id": "i1", "gold": "yes", "meta": {}, "response": "yes",
            "label": "yes", "rule": "exact", "usage": {"prompt_tokens": 3, "completion_tokens": 1}, "error": None}
    (path / "responses.jsonl").write_text(json.dumps(line) + "\n")
    if metrics is not None:
        (path / "metrics.json").write_text(json.dumps(metrics))
    return path


def test_an_old_folder_reads_with_the_fields_it_lacks_as_none(tmp_path):
    # As the first runner wrote it: no record_schema, parameters, prompts or invocations, and metrics without
    # pending, parse_failure_rate or cost.
    run = load_run(_old_folder(tmp_path / "r", {"task": "ccr-member", "variants": ["A_5"], "model": "mock/oracle",
                                                "started": "2026-01-01T00:00:00+00:00"},
                               {"task": "ccr-member", "model": "mock/oracle", "items": 1, "answered": 1,
                                "variants": {"A_5": {"items": 1, "f1": 1.0}}}))
    m = run.manifest
    assert (m.task, m.record_schema, m.parameters, m.prompts, m.invocations, m.epochs) == (
        "ccr-member", None, None, None, None, None)
    assert m.version == 1 and m.method == "generate" and run.epochs == 1 and "prompts" not in m.to_dict()
    assert run.metrics.pending is None and run.metrics.cost_usd is None and run.metrics.variant("A_5")["f1"] == 1.0
    assert run.ledger == Ledger() and run.ledger.to_dict() == {"batches": []}
    # Read as it was: nothing is filled in on the way back out.
    assert list(run.manifest.to_dict()) == ["task", "variants", "model", "started"]


def test_a_folder_without_metrics_reads_as_empty_metrics(tmp_path):
    run = load_run(_old_folder(tmp_path / "r", {"task": "ccr-member", "variants": ["A_5"]}))
    assert run.metrics == Metrics() and run.metrics.to_dict() == {} and run.metrics.variant("A_5") == {}


@pytest.mark.parametrize("name,content,message", [
    ("manifest.json", {"task": "ccr-member", "variants": ["A_5"], "surprise": 1},
     r"manifest.json: unknown manifest field 'surprise' \(manifest schema 1 has task, variants, model, \.\.\.\)"),
    ("manifest.json", {"task": "ccr-member", "variants": ["A_5"], "manifest_schema": 2},
     r"manifest.json: manifest_schema 2 is newer than this causalgraph reads \(1\)"),
    ("manifest.json", {"task": "ccr-member", "variants": "A_5"}, r"manifest.json: variants 'A_5', expected a list"),
    ("metrics.json", {"task": "ccr-member", "f1": 0.5}, r"metrics.json: unknown metrics field 'f1'"),
    ("metrics.json", {"metrics_schema": 7}, r"metrics.json: metrics_schema 7 is newer than this causalgraph reads"),
    ("metrics.json", {"items": "3"}, r"metrics.json: items '3', expected an integer count"),
    ("batches.json", {"batches": [{"local_id": "b0001", "state": "collected", "eta": 3}]},
     r"batches.json, batch 1: unknown batch job field 'eta'"),
    ("batches.json", {"batches": [], "ledger_schema": 2}, r"batches.json: ledger_schema 2 is newer"),
    ("batches.json", {"batches": [{"state": "prepared"}]}, r"batches.json, batch 1: local_id None, expected a string"),
])
def test_an_unknown_field_or_a_newer_schema_is_refused_in_one_line_naming_the_file(tmp_path, name, content,
                                                                                    message):
    folder = _old_folder(tmp_path / "r", {"task": "ccr-member", "variants": ["A_5"]})
    (folder / name).write_text(json.dumps(content))
    with pytest.raises(SchemaError, match=message) as info:
        load_run(folder)
    assert "\n" not in str(info.value) and str(folder / name) in str(info.value)


def test_a_run_built_by_hand_takes_dicts_and_holds_objects():
    run = Run(path=Path("r"), manifest={"task": "t", "epochs": 2}, responses=[], metrics={"items": 0})
    assert isinstance(run.manifest, Manifest) and run.manifest.epochs == 2 and run.epochs == 2
    assert isinstance(run.metrics, Metrics) and run.metrics.items == 0 and isinstance(run.ledger, Ledger)


@pytest.mark.parametrize("options", [{}, {"epochs": 3, "temperature": 0.7}])
def test_the_run_page_shows_the_tokens_and_cost_scoring_wrote(tmp_path, isolated_cache, options):
    from causalgraph.viewer import load_views

    res = run_benchmark("ccr-member", ["A_4", "A_5"], "mock/noisy", out=tmp_path / "run", limit=7, **options)
    metrics = load_run(res.path).metrics
    (view,), _ = load_views([res.path])
    # Per variant by scoring's own sum: the variants add up to the run's totals in metrics.json.
    assert (view.totals["tokens_in"], view.totals["tokens_out"]) == (metrics.tokens_in, metrics.tokens_out)
    assert view.totals["cost_usd"] == pytest.approx(metrics.cost_usd)
    for row in view.summary:
        assert row["f1"] == metrics.variant(row["variant"]).get("f1")


def test_the_log_files_answer_by_attribute_only_not_as_mappings(tmp_path):
    """One API per file (issue 36): the objects stopped answering ``m["task"]``, ``.get``, ``in`` and ``dict(m)``."""
    m = Manifest.from_dict({"task": "t", "variants": ["v"]})
    assert m.task == "t" and m.to_dict() == {"task": "t", "variants": ["v"]}
    for use in (lambda: m["task"], lambda: m.get("task"), lambda: "task" in m, lambda: dict(m), lambda: len(m)):
        with pytest.raises((TypeError, AttributeError)):
            use()
