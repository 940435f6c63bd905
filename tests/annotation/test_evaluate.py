"""Evaluation of an annotation against gold, on hand-made statements with hand-computed figures."""

from __future__ import annotations

import dataclasses
import json

import pytest

from causalgraph.annotation.evaluate import distinct_pairs, evaluate_records, evaluate_statements
from causalgraph.annotation.answer import statement_to_answer
from causalgraph.annotation.reference import ReferenceRanges
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.model import Correlation as C
from causalgraph.model import Explicitness as E
from causalgraph.model import Polarity as P
from causalgraph.model import Relation, Statement
from causalgraph.runlog import RunRecord

# Ranges chosen so that normalised values are easy to compute by hand.
REF = ReferenceRanges("hand", {"com": (0, 2), "ex": (0, 4), "nest": (0, 10), "corr": (0, 4), "pol": (0, 2)})


def R(cause, effect, corr="positive", pol="positive", expl="explicit"):
    return Relation(cause, effect, correlation=C(corr), polarity=P(pol), explicitness=E(expl))


GOLD = Statement("s1", "t", True, (R("warming", "sea ice", corr="negative"), R("warming", "glacier mass"),
                                   R("Warming", "sea ice.", corr="negative")))  # a repeated pair counts once
PRED = Statement("s1", "t", True, (R("warming", "sea ice"), R("ocean warming", "glacier mass loss", expl="implicit")))


def test_distinct_pairs_counts_a_repeated_pair_once_in_first_appearance_order():
    assert [k for k, _ in distinct_pairs(GOLD)] == [("warming", "sea ice"), ("warming", "glacier mass")]


def test_evaluate_statements_pair_scores_match_hand_computation():
    rep = evaluate_statements([PRED], [GOLD], reference=REF)
    # exact: 1 of 2 predicted pairs is a gold pair, 1 of 2 gold pairs is found.
    assert rep.pairs["exact"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    # token: matched (pred 0, gold 0) S = 1; (pred 1, gold 1) S = mean(2·1/3, 2·2/5) = 11/15.
    s = (1 + 11 / 15)
    assert rep.pairs["token"]["precision"] == pytest.approx(s / 2)
    assert rep.pairs["token"]["recall"] == pytest.approx(s / 2)
    assert rep.pairs["token>=0.5"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert rep.counts == {"statements": 1, "failed": 0, "predicted_pairs": 2, "gold_pairs": 2}


def test_evaluate_statements_label_accuracy_on_matched_pairs():
    rep = evaluate_statements([PRED], [GOLD], reference=REF)
    # correlation: pair 0 wrong (positive vs negative), pair 1 right; explicitness: pair 1 wrong.
    assert rep.labels["correlation"] == {"accuracy": 0.5, "n": 2, "missing": 0}
    assert rep.labels["relation_type"] == {"accuracy": 1.0, "n": 2, "missing": 0}
    assert rep.labels["explicitness"] == {"accuracy": 0.5, "n": 2, "missing": 0}
    strict = evaluate_statements([PRED], [GOLD], reference=REF, threshold=0.9)
    assert strict.labels["correlation"]["n"] == 1 and strict.pairs["token>=0.9"]["precision"] == 0.5


def test_evaluate_statements_complexity_agreement_matches_hand_computation():
    g1 = Statement("a", "t", True, (R("x", "y", corr="negative"),))          # corr 1 → C(s) 1/4
    g2 = Statement("b", "t", True, (R("x", "y", corr="negative"), R("y", "z", corr="negative")))
    # g2: 2 negative edges + 1 path x→y→z of two negative edges = 3 → C(s) 3/4
    g3 = Statement("c", "t", True, (R("x", "y"),))                             # 0
    p1 = Statement("a", "t", True, (R("x", "y"),))                             # 0
    p2 = g2
    p3 = Statement("c", "t", True, (R("x", "y", pol="negative"),))            # pol 1 → C(s) 1/2
    rep = evaluate_statements([p1, p2, p3], [g1, g2, g3], reference=REF)
    cx = rep.complexity
    assert cx["mae"]["corr"] == pytest.approx((1 + 0 + 0) / 3)
    assert cx["mae"]["pol"] == pytest.approx((0 + 0 + 1) / 3)
    assert cx["mae"]["c_s"] == pytest.approx((0.25 + 0 + 0.5) / 3)
    # predicted C(s) = (0, 0.75, 0.5), gold = (0.25, 0.75, 0): ranks (1,3,2) vs (2,3,1): ρ = 1 - 6·2/(3·8) = 0.5
    assert cx["spearman_rho"] == pytest.approx(0.5)
    assert [r["gold_c_s"] for r in rep.per_statement] == pytest.approx([0.25, 0.75, 0.0])


def test_evaluate_statements_counts_a_failed_prediction_as_no_relation():
    rep = evaluate_statements([None], [GOLD], reference=REF)
    assert rep.counts["failed"] == 1 and rep.pairs["exact"]["recall"] == 0.0
    assert rep.per_statement[0]["pred_c_s"] == 0.0 and rep.causal["accuracy"] == 0.0
    assert rep.complexity["spearman_rho"] is None  # undefined for one statement


def test_evaluate_statements_refuses_misaligned_input():
    with pytest.raises(ConfigError, match="1 predicted statements for 2 gold"):
        evaluate_statements([PRED], [GOLD, GOLD], reference=REF)
    with pytest.raises(ConfigError, match="threshold"):
        evaluate_statements([PRED], [GOLD], reference=REF, threshold=2)


def test_evaluate_records_reads_gold_and_labels_from_run_lines():
    gold = json.dumps(statement_to_answer(GOLD))
    label = {**statement_to_answer(PRED), "issues": []}
    recs = [RunRecord("annotate", "few-shot", "annotate/few-shot/s1", gold=gold, label=label, rule="json",
                      error=None, meta={"statement_id": "s1", "text": "t"})]
    rep = evaluate_records(recs, reference=REF)
    assert rep.pairs["exact"]["f1"] == 0.5 and rep.per_statement[0]["rule"] == "json"
    failed = [dataclasses.replace(recs[0], label=None, rule="unparsed")]
    assert evaluate_records(failed, reference=REF).counts["failed"] == 1


def test_evaluate_records_refuses_a_run_without_gold():
    recs = [RunRecord("annotate", "few-shot", "annotate/few-shot/text-1", gold=None, label=None,
                      meta={"statement_id": "text-1"})]
    with pytest.raises(SchemaError, match="record 1 \\(text-1\\): no gold annotation"):
        evaluate_records(recs, reference=REF)


def test_evaluate_statements_skips_labels_the_gold_does_not_annotate():
    gold = Statement("p1", "t", True, (Relation("smoking", "cancer", explicitness=E.EXPLICIT),))  # PubMedCausal-like
    pred = Statement("p1", "t", True, (R("smoking", "cancer", corr="negative"),))
    rep = evaluate_statements([pred], [gold], reference=REF)
    assert rep.labels["correlation"] == {"accuracy": None, "n": 0, "missing": 0}
    assert rep.labels["explicitness"] == {"accuracy": 1.0, "n": 1, "missing": 0}
