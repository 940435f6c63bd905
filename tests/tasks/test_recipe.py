"""A task defined here, in the test, runs through every generic tool without any change to them.

This is the recipe of docs/architecture.md ("Adding a task"): one :class:`Task`
and one ``register_task`` call.  The runner, ``bench report``, ``stats mcnemar``
and the run viewer must handle it like a built-in task; if one of them needs to
know the task's name, this test fails.
"""

from __future__ import annotations

import json

import pytest

from causalgraph.taskkit import Item
from causalgraph.taskkit.item import item_id
from causalgraph.bench.runner import run_benchmark
from causalgraph.cli import main
from causalgraph.datasets import load_corpus
from causalgraph.tasks import Binary, Task, builtin_tasks, get_task, list_tasks, register_task

TOY = "toy-warming"
WORD = "warming"


def _items(corpus, variant):
    # One item per statement: does the statement mention warming?  Gold from the text itself.
    return [Item(item_id(TOY, variant, st.id), TOY, variant, f"Does this mention {WORD}? {st.text}",
                 "yes" if WORD in st.text.lower() else "no", meta={"statement_id": st.id})
            for st in corpus]


register_task(Task(name=TOY, build_items=_items, list_variants=lambda: ["plain", "polite"],
                   answers=Binary(labels=("yes", "no"), positive="yes", answer_words=lambda v: {"yes": "Yes", "no": "No"}),
                   default_data="climatecause",
                   description="toy: does the statement mention warming?"), replace=True)


@pytest.fixture(scope="module")
def golds():
    return ["yes" if WORD in st.text.lower() else "no" for st in load_corpus("climatecause")][:40]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("toy")
    a = run_benchmark(TOY, "all", "mock/oracle", out=str(base / "oracle"), limit=40, cache=False)
    b = run_benchmark(TOY, "all", "mock/constant", out=str(base / "always-no"), limit=40, cache=False,
                      model_options={"text": "No"})
    return a, b


def test_a_registered_task_is_listed_and_found_by_name():
    assert TOY in list_tasks() and get_task(TOY).positive == "yes"
    assert TOY not in builtin_tasks() and "corri" in builtin_tasks()  # what causalgraph declares itself


def test_the_runner_scores_a_task_it_has_never_heard_of(runs, golds):
    oracle, no = runs
    n_yes = golds.count("yes")
    assert 0 < n_yes < len(golds)  # the check below can tell a right answer from a wrong one
    for v in ("plain", "polite"):
        assert oracle.metrics.variants[v]["f1"] == 1.0
        m = no.metrics.variants[v]
        assert (m["tp"], m["fn"], m["tn"]) == (0, n_yes, len(golds) - n_yes) and m["f1"] == 0.0


def test_bench_report_prints_the_toy_runs(runs, capsys):
    oracle, _ = runs
    assert main(["bench", "report", str(oracle.path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    text = json.dumps(rows)
    assert TOY in text and "plain" in text and "polite" in text


def test_stats_mcnemar_pairs_the_toy_runs_item_by_item(runs, golds, capsys):
    oracle, no = runs
    assert main(["stats", "mcnemar", str(oracle.path), str(no.path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["variant_a"] for r in rows] == ["plain", "polite"]
    # The two runs disagree exactly on the items whose gold is yes (the oracle says yes, the other no),
    # all in one direction.
    for r in rows:
        assert r["n"] == len(golds) and sorted((r["b"], r["c"])) == [0, golds.count("yes")]


def test_the_run_viewer_shows_the_toy_runs(runs, tmp_path):
    pytest.importorskip("causalgraph.viewer")
    oracle, no = runs
    page = tmp_path / "view.html"
    assert main(["bench", "view", str(oracle.path), str(no.path), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert TOY in html and "polite" in html
