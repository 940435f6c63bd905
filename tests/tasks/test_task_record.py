"""The Task record says everything the generic layers need: its kind and its hooks.

A task declared here, in the test, with kind ``pairs`` and its own hooks (paired counts, a report
column, an item view) gets ``stats compare``, McNemar on correctness, ``bench report`` and the run
viewer from that declaration alone, with no file of causalgraph edited.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from causalgraph.taskkit import Item
from causalgraph.taskkit.item import item_id
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.scoring import report_rows, task_columns
from causalgraph.errors import ConfigError
from causalgraph.runlog import RunRecord
from causalgraph.tasks import (KINDS, AnswerKind, Binary, Custom, ItemView, Multiclass, Pairs, Signs, Task, builtin_tasks,
                               get_task, register_task)

TOY = "toy-pairs"


def _items(corpus, variant):
    # One item per causal statement: its first relation is the one gold pair.
    out = []
    for st in corpus:
        if st.causal and st.relations:
            r = st.relations[0]
            out.append(Item(item_id(TOY, variant, st.id), TOY, variant, f"Name one cause and effect: {st.text}",
                            None, meta={"statement_id": st.id, "pairs": [[r.cause, r.effect]]}))
    return out


def _reference(item):
    return "\n".join(f"{c} -> {e}" for c, e in item.meta["pairs"])


def _parse(text, variant):
    pairs = [[s.strip() for s in line.split("->", 1)] for line in text.splitlines() if "->" in line]
    return (pairs or None), ("arrows" if pairs else "none")


def _counts(record):
    gold = {tuple(p) for p in (record.meta or {}).get("pairs") or []}
    pred = {tuple(p) for p in record.label or []}
    return (len(gold & pred), len(pred - gold), len(gold - pred)), bool(pred) and pred == gold


def _score(records):
    tp = fp = fn = exact = 0
    for r in records:
        (a, b, c), right = _counts(r)
        tp, fp, fn, exact = tp + a, fp + b, fn + c, exact + right
    p = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": rc, "f1": 2 * p * rc / (p + rc) if p + rc else 0.0,
            "exact": {"accuracy": exact / len(records) if records else 0.0}}


def _view_pairs(record):
    gold = [tuple(p) for p in (record.meta or {}).get("pairs") or []]
    label = record.label
    return gold, [tuple(p) for p in label or []], bool(record.error) or label is None


VIEW = ItemView("toy-arrows", _view_pairs, lambda v: f"{len(v)} arrows" if isinstance(v, list) else None)

register_task(Task(name=TOY, build_items=_items, list_variants=lambda: ["plain"], parse=_parse,
                   answers=Pairs(score=_score, reference_answer=_reference, paired_counts=_counts,
                                 paired_metric="pair_f1", extra_metrics=("exact.accuracy",),
                                 report_columns=("exact.accuracy",), item_view=VIEW, correct=lambda r: _counts(r)[1]),
                   default_data="climatecause",
                   description="toy: one cause-effect pair per statement"), replace=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("toy-pairs")
    a = run_benchmark(TOY, "all", "mock/oracle", out=str(base / "oracle"), limit=12, cache=False)
    b = run_benchmark(TOY, "all", "mock/constant", out=str(base / "wrong"), limit=12, cache=False,
                      model_options={"text": "nothing -> nowhere"})
    return a, b


@pytest.mark.parametrize("name", builtin_tasks())
def test_every_registered_task_declares_a_valid_kind(name):
    task = get_task(name)
    assert task.kind in KINDS and task.kind == type(task.answers).name
    if task.kind in ("binary", "multiclass"):
        assert task.labels == task.answers.labels and task.by_labels
    else:
        assert callable(task.answers.score) and not task.by_labels and task.labels == ()
    if task.kind == "pairs":
        assert isinstance(task.answers.item_view, ItemView)  # the viewer shows its pairs from the record alone
    for col in task.answers.report_columns:
        assert col in task.answers.extra_metrics
    # Every built-in task names the corpus it reads without --data (the record itself has no default).
    assert task.default_data in ("climatecause", "pubmedcausal:test")


def test_the_builtin_kinds_are_the_ones_each_family_declares():
    kinds = {n: get_task(n).kind for n in builtin_tasks()}
    assert kinds["corri"] == kinds["ccr-member"] == kinds["pubmedcausal-detect"] == "binary"
    assert kinds["ccr-position"] == kinds["ccr-eci-position"] == "multiclass"
    assert kinds["parents"] == kinds["sources"] == "set" and kinds["reachability"] == "binary"
    assert kinds["pubmedcausal-extract"] == kinds["annotate"] == "pairs"
    assert get_task("ccr-position").answers.report_columns == ("authors.f1",)


def test_a_task_whose_answers_are_no_kind_object_is_refused():
    with pytest.raises(ConfigError, match="answers must be a kind object .* found str"):
        Task(name="x", build_items=list, list_variants=list, answers="binary")
    with pytest.raises(ConfigError, match="answers must be one of Binary, Multiclass, EventSet, Pairs, Custom"):
        Task(name="x", build_items=list, list_variants=list, answers=AnswerKind())
    with pytest.raises(TypeError, match="score"):  # a scored kind without its scorer cannot even be built
        Pairs()
    with pytest.raises(ConfigError, match="a pairs task needs a score function; found None"):
        Task(name="x", build_items=list, list_variants=list, answers=Pairs(score=None))
    with pytest.raises(ConfigError, match="report columns"):
        Task(name="x", build_items=list, list_variants=list,
             answers=Binary(labels=("a", "b"), positive="a", report_columns=("authors.f1",)))
    with pytest.raises(ConfigError, match="a binary task needs two labels and a positive one among them"):
        Task(name="x", build_items=list, list_variants=list, answers=Binary(labels=("a", "b"), positive="c"))
    with pytest.raises(ConfigError, match="a multiclass task needs at least two labels"):
        Task(name="x", build_items=list, list_variants=list, answers=Multiclass(labels=("a",)))
    with pytest.raises(ConfigError, match="coarsen and coarse_labels go together"):
        Task(name="x", build_items=list, list_variants=list, answers=Multiclass(labels=("a", "b"), coarsen=str))
    with pytest.raises(ConfigError, match=r"signed labels \['up'\] are not among its labels"):
        Task(name="x", build_items=list, list_variants=list,
             answers=Binary(labels=("a", "b"), positive="a", signs=Signs(path=str, labels={"up": 1})))
    with pytest.raises(ConfigError, match="must map each signed label to \\+1 or -1"):
        Signs(path=str, labels={"a": 2})
    with pytest.raises(ConfigError, match="graph_first must be a GraphFirst record; found dict"):
        Task(name="x", build_items=list, list_variants=list, answers=Binary(labels=("a", "b"), positive="a"),
             graph_first={"parse": str})


def test_a_binary_task_holds_no_hook_of_another_kind():
    # What a binary task carries: its labels and their hooks, nothing about pairs, sets or positions.
    fields = {f.name for f in dataclasses.fields(Binary)}
    assert fields == {"labels", "positive", "answer_words", "continuations", "extra_scores", "extra_metrics",
                      "report_columns", "signs"}
    assert len(dataclasses.fields(Task)) == 15


def test_a_task_with_no_default_corpus_asks_for_data():
    task = Task(name="x", build_items=list, list_variants=list, answers=Binary(labels=("a", "b"), positive="a"))
    assert task.default_data is None and task.data_source("sample") == "sample"
    with pytest.raises(ConfigError, match="task 'x' names no default dataset; pass --data NAME\\|PATH"):
        task.data_source()


def test_paired_score_follows_the_kind_without_hooks():
    binary = Task(name="b", build_items=list, list_variants=list, answers=Binary(labels=("yes", "no"), positive="yes"))
    assert binary.paired_score(RunRecord("b", "v", "i", gold="yes", label="yes")) == ((1, 0, 0), True)
    multi = Task(name="m", build_items=list, list_variants=list, answers=Multiclass(labels=("a", "b", "c")))
    assert multi.paired_score(RunRecord("m", "v", "i", gold="a", label="b")) == (
        ((0, 0, 1), (0, 1, 0), (0, 0, 0)), False)
    assert multi.paired_metric_name() == "macro_f1" and binary.paired_metric_name() == "f1(yes)"
    custom = Task(name="c", build_items=list, list_variants=list, answers=Custom(score=dict))
    with pytest.raises(ConfigError, match="scored by its own scorer"):
        custom.paired_score(RunRecord("c", "v", "i", gold=None, label=None))


def test_stats_compare_scores_the_custom_task_with_its_paired_counts(runs):
    from causalgraph.stats.compare import compare_runs

    oracle, wrong = runs
    table = compare_runs([oracle.path, wrong.path], by="model", n_boot=50)
    (row,) = table.to_dict("records")
    assert row["task"] == TOY and row["metric"] == "pair_f1"
    assert row["f1_a"] == 1.0 and row["f1_b"] == 0.0 and row["n"] == 12
    assert (row["b"], row["c"]) == (12, 0)  # McNemar on correctness as the hook says


def test_mcnemar_on_correctness_asks_the_task(runs):
    from causalgraph.stats.runs import mcnemar_runs

    oracle, wrong = runs
    (row,) = mcnemar_runs(oracle.path, wrong.path, on="correct").to_dict("records")
    assert (row["n"], row["b"], row["c"]) == (12, 12, 0)


def test_bench_report_shows_the_column_the_task_declares(runs):
    oracle, wrong = runs
    rows = report_rows(oracle.metrics, run_name="oracle") + report_rows(wrong.metrics, run_name="wrong")
    assert task_columns(rows) == ["exact_accuracy"]
    by = {(r["run"], r["variant"]): r for r in rows}
    assert by[("oracle", "plain")]["exact_accuracy"] == 1.0 and by[("wrong", "plain")]["exact_accuracy"] == 0.0
    assert by[("oracle", "[plain]")]["exact_accuracy"].startswith("1.0000")  # the strategy row: mean ± std


def test_the_viewer_shows_the_items_through_the_task_item_view(runs, tmp_path):
    pytest.importorskip("causalgraph.viewer")
    from causalgraph.runlog.store import load_run
    from causalgraph.cli import main
    from causalgraph.viewer.runs import build_run_view, display_value

    oracle, wrong = runs
    view = build_run_view(load_run(oracle.path))
    assert view.kind == "pairs" and view.item_view is VIEW and view.pairs == "toy-arrows"
    assert view.states == ["correct"] * 12
    assert build_run_view(load_run(wrong.path)).states == ["wrong"] * 12
    assert view.matches[0]["pairs"]["gold"] == view.matches[0]["pairs"]["predicted"]
    assert display_value([["a", "b"]], VIEW) == "1 arrows"
    page = tmp_path / "view.html"
    assert main(["bench", "view", str(oracle.path), "-o", str(page)]) == 0
    assert TOY in page.read_text(encoding="utf-8")


def test_bench_report_prints_the_custom_task(runs, capsys):
    from causalgraph.cli import main

    oracle, _ = runs
    assert main(["bench", "report", str(oracle.path), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("exact_accuracy") and TOY in out
    assert json.dumps(oracle.metrics.strategies["plain"]["exact.accuracy"]["mean"]) == "1.0"
