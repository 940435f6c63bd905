"""The kind objects a Task holds: each scores its own answers, and holds only its own hooks."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.runlog import RunRecord
from causalgraph.scoring.event_lists import record_outcome
from causalgraph.taskkit import Item
from causalgraph.tasks import (TASKS, Binary, Custom, EventSet, GraphFirst, Multiclass, Pairs, Task, get_task,
                               list_tasks, register_task)

LABELS = ("a", "b", "c")
answer = st.one_of(st.none(), st.sampled_from(LABELS + ("zzz",)))
record = st.tuples(st.sampled_from(LABELS), answer, st.booleans())


def _rec(gold, label, failed):
    return RunRecord("t", "v", "i", gold=gold, label=label, error="boom" if failed else None)


@settings(max_examples=200, deadline=None)
@given(st.lists(record, max_size=30), st.sampled_from(LABELS[:2]))
def test_binary_counts_are_the_positive_class_confusion_by_hand(rows, positive):
    labels = ("a", "b") if positive == "a" else ("b", "a")
    task = Task(name="t", build_items=list, list_variants=list, answers=Binary(labels=labels, positive=positive))
    tp = fp = fn = right = 0
    for gold, label, failed in rows:
        said = None if failed else label  # a failed request said nothing
        tp += said == positive and gold == positive
        fp += said == positive and gold != positive
        fn += said != positive and gold == positive
        right += said is not None and said == gold
    scored = [task.paired_score(_rec(*r)) for r in rows]
    assert tuple(map(sum, zip(*(c for c, _ in scored)))) == ((tp, fp, fn) if rows else ())
    assert sum(ok for _, ok in scored) == right
    assert sum(task.is_correct(_rec(*r)) for r in rows) == right


@settings(max_examples=200, deadline=None)
@given(st.lists(record, min_size=1, max_size=30))
def test_multiclass_counts_are_one_confusion_row_per_label(rows):
    task = Task(name="t", build_items=list, list_variants=list, answers=Multiclass(labels=LABELS))
    for gold, label, failed in rows:
        counts, ok = task.paired_score(_rec(gold, label, failed))
        said = None if failed else label
        assert counts == tuple((int(said == lab and gold == lab), int(said == lab and gold != lab),
                                int(said != lab and gold == lab)) for lab in LABELS)
        assert ok == (said == gold)
        # one gold label: exactly one row counts it as found or missed
        assert sum(tp + fn for tp, _, fn in counts) == 1


def test_an_event_set_is_right_when_its_set_is_exact_and_counts_its_events():
    task = Task(name="s", build_items=list, list_variants=list, answers=EventSet(score=lambda records: {}))
    exact = RunRecord("s", "v", "i", gold=["x", "y"], label=["y", "x"])
    partial = RunRecord("s", "v", "i", gold=["x", "y"], label=["x", "q"])
    assert task.is_correct(exact) and not task.is_correct(partial)
    o = record_outcome(partial)
    assert task.paired_score(partial) == ((o.tp, o.fp, o.fn), False) == ((1, 1, 1), False)
    assert task.paired_metric_name() == "micro_f1"
    assert not task.is_correct(dataclasses.replace(exact, error="timeout"))  # a failed request never is


def test_a_custom_task_without_correct_refuses_pass_at_k_and_compare():
    task = Task(name="c", build_items=list, list_variants=list, answers=Custom(score=lambda records: {}))
    with pytest.raises(ConfigError, match="says nothing about whether one answer is right"):
        task.is_correct(RunRecord("c", "v", "i", gold=None, label="x"))
    with pytest.raises(ConfigError, match="scored by its own scorer \\(custom\\)"):
        task.check_paired()
    own = Task(name="c", build_items=list, list_variants=list,
               answers=Custom(score=lambda records: {}, correct=lambda r: r.label == "x",
                              paired_counts=lambda r: ((1, 0, 0), True), paired_metric="my_f1"))
    own.check_paired()
    assert own.is_correct(RunRecord("c", "v", "i", label="x")) and own.paired_metric_name() == "my_f1"


def test_label_lists_and_bad_signs_are_refused_not_coerced():
    with pytest.raises(ConfigError, match="labels must be a tuple of non-empty strings; found \\['y', 'n'\\]"):
        Task(name="x", build_items=list, list_variants=list, answers=Binary(labels=["y", "n"], positive="y"))
    with pytest.raises(ConfigError, match="repeat one"):
        Task(name="x", build_items=list, list_variants=list, answers=Multiclass(labels=("a", "a", "b")))


def test_only_the_kinds_that_hold_a_hook_carry_it():
    fields = {k: {f.name for f in dataclasses.fields(k)} for k in (Binary, Multiclass, EventSet, Pairs, Custom)}
    assert "item_view" in fields[Pairs] and all("item_view" not in f for k, f in fields.items() if k is not Pairs)
    assert "coarsen" in fields[Multiclass] and "coarsen" not in fields[Binary]
    assert all("score" not in fields[k] for k in (Binary, Multiclass))
    assert all("labels" not in fields[k] for k in (EventSet, Pairs, Custom))


def test_graph_first_variants_keep_the_base_answers_and_refuse_loglik():
    ccr = get_task("ccr-member")
    assert isinstance(ccr.graph_first, GraphFirst) and get_task("corri").graph_first is None
    assert ccr.words("GF_A_5") == ccr.words("A_5")
    assert ccr.choices("A_5") and ccr.answers.continuations("A_5")
    with pytest.raises(ConfigError, match="a graph-first variant asks for the graph before the answer"):
        ccr.choices("GF_A_5")
    with pytest.raises(ConfigError, match="graph-first"):
        ccr.check_item_options("GF_A_5", encoding="adjacency")


def test_every_builtin_signed_task_signs_only_its_labels():
    signed = {n: get_task(n).answers.signs for n in list_tasks() if getattr(get_task(n).answers, "signs", None)}
    assert sorted(signed) == ["corri", "corri-multihop", "corri-rc", "net-effect"]
    assert dict(signed["net-effect"].labels) == {"increase": 1, "decrease": -1}


def test_a_task_without_a_default_corpus_asks_for_data_in_one_line(capsys, tmp_path):
    def build(corpus, variant):
        return [Item(f"nodata/v/{st.id}", "nodata", variant, "?", "y", {"statement_id": st.id}) for st in corpus][:2]

    register_task(Task(name="nodata", build_items=build, list_variants=lambda: ["v"],
                       answers=Binary(labels=("y", "n"), positive="y")), replace=True)
    try:
        assert main(["items", "--task", "nodata", "--variant", "v"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == ["causalgraph items: error: task 'nodata' names no default dataset; pass --data NAME|PATH"]
        assert main(["items", "--task", "nodata", "--variant", "v", "--data", "sample", "--format", "json"]) == 0
        assert '"nodata/v/' in capsys.readouterr().out
        # export-dataset refuses it before it makes a folder
        assert main(["export-dataset", str(tmp_path / "ds"), "--task", "nodata"]) == 2
        assert "names no default dataset" in capsys.readouterr().err and not (tmp_path / "ds").exists()
    finally:
        TASKS.unregister("nodata")
