"""Gold against predicted pairs per item: the viewer's matching agrees with the extraction evaluation."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.runlog import RunRecord
from causalgraph.runlog.store import RunStore, load_run
from causalgraph.extraction.evaluate import evaluate_extraction
from causalgraph.extraction.predictions import PredictionSet, RowPrediction
from causalgraph.extraction.tuples import ExtractedPair
from causalgraph.tasks import get_task
from causalgraph.viewer.pairs import PairItem, match_pairs, pair_view_of, record_pairs
from causalgraph.viewer.runs import build_run_view

WORDS = ["smoking", "the", "cancer", "lung", "risk", "of", "stroke", "Heat", "drought", "loss."]
span = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
pairs = st.lists(st.tuples(span, span), max_size=4)


def _report(item: PairItem, mode: str):
    pred = PredictionSet({"1": RowPrediction("1", None, tuple(ExtractedPair(c, e) for c, e in item.predicted))},
                         "p", "run")
    gold = PredictionSet({"1": RowPrediction("1", None, tuple(ExtractedPair(c, e) for c, e in item.gold))}, "g", "rows")
    return evaluate_extraction(pred, gold, mode=mode)


@settings(max_examples=150, deadline=None)
@given(gold=pairs, pred=pairs)
def test_match_pairs_scores_equal_the_extraction_evaluation_of_the_row(gold, pred):
    item = PairItem(tuple(gold), tuple(pred), False)
    m = match_pairs(item)
    for mode in ("paper", "hungarian"):
        rep = _report(item, mode)
        for measure in ("token", "exact"):
            ref = rep.metric(measure)
            got = m["scores"][mode][measure]
            for k in ("precision", "recall", "f1"):
                assert got[k] == pytest.approx(ref[k], abs=1e-9), (mode, measure, k)
        counts = {b: m["buckets"].count(b) for b in set(m["buckets"])}
        ref_counts = {b: n for b, n in rep.buckets["counts"].items() if n and b != "missed"}
        assert counts == ref_counts
    # The Hungarian assignment is one-to-one and covers min(n, m) pairs.
    assign = m["hungarian"]
    assert len(assign) == min(len(gold), len(pred))
    assert len({a[0] for a in assign}) == len(assign) == len({a[1] for a in assign})


def test_match_pairs_paper_mode_pairs_each_side_with_its_best_partner():
    item = PairItem((("smoking", "lung cancer"), ("heat", "drought")), (("Smoking", "cancer"), ("x", "y")), False)
    m = match_pairs(item)
    # S(p1, g1) = mean(token F1 1.0, 2·1/(1+2)) = 0.8333; p2 shares nothing with either gold pair.
    assert m["S"][0] == [pytest.approx(0.8333, abs=1e-4), 0.0]
    assert m["paper"]["predicted"] == [[0, pytest.approx(0.8333, abs=1e-4)], [0, 0.0]]
    assert m["paper"]["gold"] == [[0, pytest.approx(0.8333, abs=1e-4)], [0, 0.0]]
    assert m["buckets"] == ["cause-correct", "spurious"]
    assert m["exact"] == {"gold": [False, False], "predicted": [False, False]}


def _rec(fields: dict) -> RunRecord:
    """A run record with the given fields (task, variant and item id filled in)."""
    return RunRecord.from_dict({"task": "t", "variant": "v", "item_id": "i", **fields})


def test_record_pairs_reads_extraction_and_annotation_records():
    ext = _rec({"meta": {"pairs": [{"cause": "a", "effect": "b"}, {"Cause": "c", "Effect": "d"}]},
                "label": [{"cause": "a", "effect": "b"}], "rule": "json", "error": None})
    ext_view = get_task("pubmedcausal-extract").answers.item_view
    assert pair_view_of([ext], get_task("pubmedcausal-extract")) is ext_view
    assert record_pairs(ext, ext_view) == PairItem((("a", "b"), ("c", "d")), (("a", "b"),), False)
    assert record_pairs(dataclasses.replace(ext, label=None), ext_view).unread
    gold = json.dumps({"causal": True, "relations": [
        {"cause_np": "Warming", "cause_no_quantifier": "warming", "effect_np": "ice", "effect_no_quantifier": "ice"}]})
    ann = _rec({"gold": gold, "meta": {"text": "Warming melts ice."}, "rule": "json", "error": None,
                "label": {"causal": True, "relations": [{"cause_np": "warming", "effect_np": "sea ice"}], "issues": []}})
    ann_view = pair_view_of([ann], get_task("annotate"))
    assert ann_view.name == "annotation"
    item = record_pairs(ann, ann_view)
    assert item.gold == (("warming", "ice"),) and item.predicted == (("warming", "sea ice"),) and not item.unread
    assert pair_view_of([_rec({"gold": "yes", "label": "no", "meta": {}})], get_task("corri")) is None


def test_records_of_an_unregistered_task_get_their_item_view_from_their_shape():
    # Old run folders whose task is gone: the view is read from the records (tasks.legacy_item_view).
    ext = _rec({"meta": {"pairs": [{"cause": "a", "effect": "b"}]}, "label": None, "error": None})
    assert pair_view_of([ext]).name == "extraction"
    ann = _rec({"gold": json.dumps({"causal": True, "relations": []}), "label": None, "meta": {}})
    assert pair_view_of([ann]).name == "annotation"
    assert pair_view_of([_rec({"gold": "yes", "label": "no", "meta": {}})]) is None


def test_extraction_run_view_sums_to_the_corpus_evaluation(tmp_path):
    rows = [  # (gold pairs, predicted pairs or None for a null prediction)
        ([("smoking", "lung cancer")], [("Smoking", "lung cancer")]),
        ([("heat", "drought"), ("drought", "crop loss")], [("drought", "heat"), ("drought", "crop loss"), ("x", "y")]),
        ([("obesity", "diabetes")], None),
        ([("salt", "blood pressure")], []),
    ]
    store = RunStore(tmp_path / "ext")
    store.write_manifest({"task": "pubmedcausal-extract", "variants": ["zero-shot"], "model": "hand",
                          "dataset": {"name": "nowhere"}})
    store.append([{"task": "pubmedcausal-extract", "variant": "zero-shot", "item_id": f"pubmedcausal-extract/zero-shot/r{i}",
                   "gold": None, "meta": {"statement_id": f"r{i}", "s/n": i, "sentence": f"row {i}",
                                          "pairs": [{"cause": c, "effect": e} for c, e in g]},
                   "response": "...", "label": None if p is None else [{"cause": c, "effect": e} for c, e in p],
                   "rule": "json" if p is not None else "null", "error": None} for i, (g, p) in enumerate(rows)])
    view = build_run_view(load_run(tmp_path / "ext"))
    assert view.pairs == "extraction"
    assert view.states == ["correct", "wrong", "unparsed", "wrong"]
    # Paper mode over the corpus: precision = Σ best S over predicted pairs / predicted pairs.
    n_pred = sum(len(p or []) for _, p in rows)
    n_gold = sum(len(g) for g, _ in rows)
    p_sum = sum(sum(b[1] for b in m["paper"]["predicted"]) for m in view.matches)
    r_sum = sum(sum(b[1] for b in m["paper"]["gold"]) for m in view.matches)
    preds = PredictionSet({str(i): RowPrediction(str(i), None, tuple(ExtractedPair(c, e) for c, e in (p or [])), p is None)
                           for i, (_, p) in enumerate(rows)}, "p", "run")
    gold = PredictionSet({str(i): RowPrediction(str(i), None, tuple(ExtractedPair(c, e) for c, e in g))
                          for i, (g, _) in enumerate(rows)}, "g", "rows")
    ref = evaluate_extraction(preds, gold, mode="paper").metric("token")
    assert p_sum / n_pred == pytest.approx(ref["precision"], abs=1e-4)
    assert r_sum / n_gold == pytest.approx(ref["recall"], abs=1e-4)
    assert view.matches[1]["buckets"] == ["switched", "exact", "spurious"]
