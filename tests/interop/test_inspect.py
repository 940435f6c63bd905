"""causalgraph's tasks as inspect_ai tasks: registration, samples, the variant parameter, the scorer's figures.

The evals run on inspect's ``mockllm`` provider with an answer chosen per
prompt (the gold word, the other word, or nothing readable), so the expected
precision, recall and F1 are computed here with scikit-learn from the chosen
answers, independently of causalgraph's scorer.  No network: every mock
answer carries its token usage, so inspect never loads a tokenizer.
"""

from __future__ import annotations

import importlib.metadata
import inspect as pyinspect

import pytest

pytest.importorskip("inspect_ai", reason="needs inspect_ai (scripts/install-test-deps.sh)")

import yaml  # noqa: E402  (inspect_ai depends on it)
from inspect_mock import metrics_of, mock_model, planned_answer, run_eval  # noqa: E402
from sklearn.metrics import accuracy_score, precision_recall_fscore_support  # noqa: E402

from causalgraph.datasets import load_corpus  # noqa: E402
from causalgraph.errors import ConfigError  # noqa: E402
from causalgraph.interop.inspect import REGISTERED, inspect_name, inspect_task, resolve_variants, sample_item  # noqa: E402
from causalgraph.tasks import builtin_tasks, get_task  # noqa: E402

pytestmark = [pytest.mark.slow,
              # inspect's own retry set-up calls tenacity with a deprecated argument on every sample
              pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")]


def test_every_task_is_registered_with_inspect_under_the_causalgraph_namespace():
    from inspect_ai._util.registry import registry_lookup

    eps = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="inspect_ai")}
    assert eps.get("causalgraph") == "causalgraph.interop.inspect"
    for name in builtin_tasks():
        fn = registry_lookup("task", f"causalgraph/{inspect_name(name)}")
        assert fn is not None and fn is REGISTERED[name]
        params = list(pyinspect.signature(fn).parameters)
        assert params == ["variant", "data", *get_task(name).item_options]
    assert inspect_name("pubmedcausal-extract") == "pubmedcausal_extract"


def test_the_samples_are_the_items_with_their_statement_id(climatecause_path, pubmed_test_path):
    for name, variant, data in (("ccr-member", "A_5", str(climatecause_path)),
                                ("pubmedcausal-extract", "few-shot", str(pubmed_test_path))):
        task = get_task(name)
        items = task.items(load_corpus(data), variant)
        samples = list(inspect_task(name, variant, data=data).dataset)
        assert [s.id for s in samples] == [it.id for it in items]
        for s, it in zip(samples, items):
            assert sample_item(s.metadata, s.input) == it and sample_item(s.metadata, s.input).meta == it.meta
            assert [(m.role, m.text) for m in s.input] == [(m["role"], m["content"]) for m in it.messages()]
            assert s.metadata["statement_id"] == it.meta["statement_id"]
            assert s.target == ("" if it.gold is None else it.gold) and s.metadata["gold"] == it.gold
    assert any(m.role == "system" for m in samples[0].input)  # PubMedCausal items carry a system message


def test_the_prompts_parameter_chooses_the_catalog_and_the_metadata_records_it(climatecause_path):
    from causalgraph.tasks.climatecause import items

    corpus = load_corpus(str(climatecause_path))
    for prompts in (None, "tables", "authors"):
        t = inspect_task("ccr-position", "SN_5", data=str(climatecause_path), prompts=prompts)
        want = items(corpus, "ccr-position", "SN_5", prompts=prompts)
        assert [s.input[-1].text for s in t.dataset] == [it.prompt for it in want]
        assert t.metadata["causalgraph"]["prompts"] == (prompts or "authors")
        assert [sample_item(s.metadata, s.input) for s in t.dataset] == want
    # A task with one set of prompts records none and refuses the option, naming the task.
    assert "prompts" not in inspect_task("sources", "A_1", data=str(climatecause_path)).metadata["causalgraph"]
    with pytest.raises(ConfigError, match="task 'sources' has one set of prompts of its own"):
        inspect_task("sources", "A_1", data=str(climatecause_path), prompts="authors")


def test_the_variant_parameter_reads_what_inspects_yaml_made_of_every_variant_id():
    # inspect parses -T values as YAML: 0_1 arrives as the number 1, A_5,A_6 as a list.
    for name in builtin_tasks():
        task = get_task(name)
        ids = task.list_variants()
        for v in ids:
            assert resolve_variants(task, yaml.safe_load(v)) == [v]
        assert resolve_variants(task, "all") == resolve_variants(task, None) == ids
        assert resolve_variants(task, ",".join(reversed(ids))) == list(reversed(ids))
    corri = get_task("corri")
    assert resolve_variants(corri, yaml.safe_load("0_2,F_1").split(",")) == ["0_2", "F_1"]
    with pytest.raises(ConfigError, match="variant 'A_5'"):
        resolve_variants(corri, "A_5")
    with pytest.raises(ConfigError, match="quote it"):
        resolve_variants(corri, 7)
    with pytest.raises(ConfigError, match="twice"):
        resolve_variants(corri, ["0_1", 1])


def _expected(task, items):
    gold = [it.gold for it in items]
    pred = [planned_answer(task, it)[1] or "unparsed" for it in items]
    return gold, pred


def test_binary_task_scores_equal_scikit_learns_on_the_mock_answers(climatecause_path, tmp_path):
    task = get_task("ccr-member")
    items = task.items(load_corpus(str(climatecause_path)), "A_5")[:200]
    answers = {it.prompt: planned_answer(task, it)[0] for it in items}
    # limit=200: the first 200 samples, which are the first 200 items.
    log = run_eval(inspect_task("ccr-member", "A_5", data=str(climatecause_path)), mock_model(answers.__getitem__),
                   tmp_path / "logs", limit=200)
    gold, pred = _expected(task, items)
    p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=["yes"], average="micro", zero_division=0)
    m = metrics_of(log)
    assert m == pytest.approx({"precision": p, "recall": r, "f1": f, "accuracy": accuracy_score(gold, pred),
                               "parse_failure_rate": pred.count("unparsed") / len(pred)}, abs=1e-12)
    assert 0 < pred.count("unparsed") < len(pred) and 0 < f < 1
    # Per sample: the parsed label and the parse rule, C when it equals gold.
    for s in log.samples:
        it = sample_item(s.metadata, s.input)
        score = s.scores["bench_scorer"]
        want = planned_answer(task, it)[1]
        assert score.metadata["label"] == want
        assert score.value == ("C" if want == it.gold else "I")


def test_multiclass_scores_are_reported_per_variant_when_an_eval_holds_several(climatecause_path, tmp_path):
    task = get_task("ccr-position")
    corpus = load_corpus(str(climatecause_path))
    by_variant = {v: task.items(corpus, v)[:150] for v in ("A_5", "SN_5")}
    answers = {it.prompt: planned_answer(task, it)[0] for its in by_variant.values() for it in its}
    log = run_eval(inspect_task("ccr-position", "A_5,SN_5", data=str(climatecause_path)),
                   mock_model(answers.__getitem__), tmp_path / "logs",
                   sample_id=[it.id for its in by_variant.values() for it in its])
    assert len(log.samples) == 300
    m = metrics_of(log)
    for v, its in by_variant.items():
        gold, pred = _expected(task, its)
        p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=list(task.labels), average="macro",
                                                     zero_division=0)
        assert m[f"{v}/macro_precision"] == pytest.approx(p, abs=1e-12)
        assert m[f"{v}/macro_recall"] == pytest.approx(r, abs=1e-12)
        assert m[f"{v}/macro_f1"] == pytest.approx(f, abs=1e-12)
        assert m[f"{v}/accuracy"] == pytest.approx(accuracy_score(gold, pred), abs=1e-12)
        assert f"{v}/authors_f1" in m  # the task's extra score (the authors' position score)
    assert not any(k in m for k in ("macro_f1", "accuracy"))


def test_the_annotator_answering_gold_scores_one_on_every_figure_it_reports(climatecause_path, tmp_path):
    # A custom-scored task: its figures are the precision, recall, F1 and accuracy entries of its own score.
    task = get_task("annotate")
    items = task.items(load_corpus(str(climatecause_path)), "zero-shot")[:5]
    gold = {it.prompt: it.gold for it in items}
    log = run_eval(inspect_task("annotate", "zero-shot", data=str(climatecause_path)), mock_model(gold.__getitem__),
                   tmp_path / "logs", limit=5)
    m = metrics_of(log)
    assert {"pairs_token_f1", "pairs_exact_f1", "causal_accuracy"} <= set(m)
    assert m.pop("parse_failure_rate") == 0.0 and set(m.values()) == {1.0}


def test_graph_edit_is_a_task_parameter_and_samples_carry_the_edited_items(climatecause_path):
    t = inspect_task("ccr-position", "A_5", graph_edit="shuffle")
    items = get_task("ccr-position").items(load_corpus("climatecause"), "A_5", graph_edit="shuffle")
    assert [s.id for s in t.dataset] == [it.id for it in items]
    assert [s.metadata["gold"] for s in t.dataset] == [it.gold for it in items]
    assert t.metadata["causalgraph"]["item_options"] == {"graph_edit": "shuffle"}
    params = pyinspect.signature(REGISTERED["ccr-member"]).parameters
    assert "graph_edit" in params
