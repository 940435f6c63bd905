"""Span-level evaluation on hand-made rows (every expected value worked out by hand) and on the real split."""

import json

import pytest

from causalgraph.errors import ConfigError, SchemaError
from causalgraph.extraction.evaluate import SOFT_RULES, evaluate_extraction
from causalgraph.scoring.scores import prf


def write_rows(path, rows, wrap=False):
    """Write rows as a gold-style list, or wrapped as the authors' predictions file."""
    data = {"model": "hand", "predictions": rows} if wrap else rows
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def pair(c, e, causality=None, sent=None):
    d = {"cause": c, "effect": e}
    if causality:
        d["causality"] = causality
    if sent:
        d["sententiality"] = sent
    return d


@pytest.fixture
def gold_rows():
    return [
        {"s/n": 1, "sentence": "Smoking causes lung cancer and alcohol causes liver disease.",
         "pairs": [pair("smoking", "lung cancer", "Explicit", "Intra"),
                   pair("alcohol", "liver disease", "Explicit", "Intra")]},
        {"s/n": 2, "sentence": "The virus led to fever.", "pairs": [pair("virus", "fever", "Explicit", "Intra")]},
        {"s/n": 3, "sentence": "A made B.", "pairs": [pair("A", "B", "Implicit", "Intra")]},
    ]


@pytest.fixture
def pred_rows():
    return [
        {"s/n": 1, "sentence": "", "pairs": [pair("smoking", "cancer"), pair("stress", "liver disease")]},
        {"s/n": 3, "sentence": "", "pairs": [pair("The A.", "b"), pair("C", "D")]},
    ]


@pytest.fixture
def files(tmp_path, gold_rows, pred_rows):
    return write_rows(tmp_path / "pred.json", pred_rows, wrap=True), write_rows(tmp_path / "gold.json", gold_rows)


def test_evaluate_extraction_paper_mode_matches_hand_computation(files):
    pred, gold = files
    # Every gold row (--all-rows): row 2, which the predictions do not list, counts as missed.
    rep = evaluate_extraction(pred, gold, all_rows=True)
    # Row 1: cause bests 1, 0 (pred side) and 1, 0 (gold side); effect bests 2/3, 1 and 2/3, 1;
    # pair bests 5/6, 1/2 and 5/6, 1/2.  Row 2: one gold pair, nothing predicted.
    # Row 3: "The A." → "b" equals A → B after normalisation (1 everywhere), C → D scores 0.
    n_pred, n_gold = 4, 4
    cause_p = (1 + 0 + 1 + 0) / n_pred
    effect_p = (2 / 3 + 1 + 1 + 0) / n_pred
    pair_p = (5 / 6 + 1 / 2 + 1 + 0) / n_pred
    pair_r = (5 / 6 + 1 / 2 + 0 + 1) / n_gold
    assert rep.metric("token", "cause")["precision"] == pytest.approx(cause_p)
    assert rep.metric("token", "effect")["precision"] == pytest.approx(effect_p)
    assert rep.metric("token", "pair")["precision"] == pytest.approx(pair_p)
    assert rep.metric("token", "pair")["recall"] == pytest.approx(pair_r)
    f1 = 2 * pair_p * pair_r / (pair_p + pair_r)
    assert rep.metric("token", "pair")["f1"] == pytest.approx(f1)
    assert rep.metric("exact")["precision"] == pytest.approx(1 / 4)
    assert rep.metric("exact")["recall"] == pytest.approx(1 / 4)
    assert rep.summary["rows_without_prediction"] == 1 and rep.summary["gold_pairs"] == 4


def test_evaluate_extraction_only_predicted_drops_rows_without_prediction(files):
    pred, gold = files
    rep = evaluate_extraction(pred, gold, only_predicted=True)
    assert rep.summary["gold_pairs"] == 3
    assert rep.metric("token", "pair")["recall"] == pytest.approx((5 / 6 + 1 / 2 + 1) / 3)


def test_evaluate_extraction_hungarian_matches_one_to_one(tmp_path):
    gold = write_rows(tmp_path / "g.json", [{"s/n": 7, "sentence": "s", "pairs": [pair("x", "y")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 7, "sentence": "s",
                                             "pairs": [pair("x", "y"), pair("x", "y z")]}], wrap=True)
    paper = evaluate_extraction(pred, gold, mode="paper").metric("token", "pair")
    hung = evaluate_extraction(pred, gold, mode="hungarian").metric("token", "pair")
    # Paper mode: both predictions find their best gold pair (1 and (1 + 2/3)/2).
    assert paper["precision"] == pytest.approx((1 + 5 / 6) / 2) and paper["recall"] == 1.0
    # Hungarian: the gold pair is used once, by the exact prediction.
    assert hung["precision"] == pytest.approx(1 / 2) and hung["recall"] == 1.0 and hung["mean_matched"] == 1.0


@pytest.fixture
def duplicate_hit(tmp_path):
    """Two predictions equal (after normalisation) to the same gold pair, and one stray prediction."""
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("smoking", "cancer"), pair("heat", "drought")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("smoking", "cancer"), pair("Smoking", "cancer."),
                                                       pair("rain", "floods")]}], wrap=True)
    return pred, gold


def test_exact_pair_paper_rule_counts_the_predicted_hits_on_both_sides(duplicate_hit):
    # Paper (Table 5): 2 predicted pairs equal a gold pair; precision 2/3, recall 2/2 (the same 2 hits),
    # although only 1 of the 2 gold pairs was found.
    rep = evaluate_extraction(*duplicate_hit, mode="paper")
    exact = rep.metric("exact")
    assert exact["precision"] == pytest.approx(2 / 3) and exact["recall"] == pytest.approx(1.0)
    assert exact["f1"] == pytest.approx(2 * (2 / 3) * 1.0 / (2 / 3 + 1.0))
    assert exact["rule"].startswith("predicted pairs equal to a gold pair of their row")
    assert rep.summary["exact_hits_predicted"] == rep.summary["exact_hits_gold"] == 2
    assert rep.summary["exact_gold_pairs_found"] == 1


def test_exact_pair_hungarian_rule_matches_one_to_one(duplicate_hit):
    # One-to-one: the gold pair smoking -> cancer absorbs one of the two equal predictions.
    exact = evaluate_extraction(*duplicate_hit, mode="hungarian").metric("exact")
    assert exact["precision"] == pytest.approx(1 / 3) and exact["recall"] == pytest.approx(1 / 2)
    assert exact["rule"].startswith("one-to-one")


def test_table5_exact_pair_f1_follows_from_the_paper_rule():
    # The authors' DeepSeek-R1-Distill-Qwen-32B few-shot predictions: 3,625 predicted pairs, 3,199 gold,
    # 813 predicted pairs equal a gold pair, 812 gold pairs are found by some prediction (issue #12).
    assert round(prf(813, 3625, 813, 3199)["f1"], 4) == 0.2383      # Table 5
    assert round(prf(813, 3625, 812, 3199)["f1"], 4) == 0.2381      # the rule we used before


def test_every_metrics_row_names_the_rule_that_produced_it(files):
    pred, gold = files
    for mode in ("paper", "hungarian"):
        rows = evaluate_extraction(pred, gold, mode=mode).to_dict()["metrics"]
        assert rows and all(r["rule"] for r in rows)
        assert {r["rule"] for r in rows if r["measure"] == "token"} == {SOFT_RULES[mode]}


def test_evaluate_extraction_hungarian_prefers_the_optimal_assignment_over_greedy(tmp_path):
    # Greedy would give pred 1 to gold 1 (S=0.75) and leave pred 2 with gold 2 (0.0): 0.75.
    # Optimal: pred 1 → gold 2 (0.5), pred 2 → gold 1 (0.5): 1.0.
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("a b", "c"), pair("a", "z")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("a", "c"), pair("q", "c")]}], wrap=True)
    hung = evaluate_extraction(pred, gold, mode="hungarian").metric("token", "pair")
    # S(p1,g1) = (2/3 + 1)/2 = 5/6, S(p1,g2) = 1/2, S(p2,g1) = 1/2, S(p2,g2) = 0.
    # Best total is max(5/6 + 0, 1/2 + 1/2) = 1.
    assert hung["precision"] == pytest.approx(1 / 2) and hung["recall"] == pytest.approx(1 / 2)


def test_evaluate_extraction_rejects_predictions_for_rows_not_in_gold(tmp_path, gold_rows):
    gold = write_rows(tmp_path / "g.json", gold_rows)
    pred = write_rows(tmp_path / "p.json", [{"s/n": 999, "sentence": "", "pairs": []}], wrap=True)
    with pytest.raises(SchemaError, match="999"):
        evaluate_extraction(pred, gold)


def test_evaluate_extraction_rejects_unknown_mode(files):
    with pytest.raises(ConfigError, match="--mode"):
        evaluate_extraction(files[0], files[1], mode="greedy")


def test_evaluate_extraction_error_buckets_follow_the_priority_order(tmp_path, gold_rows, pred_rows):
    gold_rows = gold_rows + [
        {"s/n": 4, "sentence": "s", "pairs": [pair("GERD", "chronic widespread pain")]},
        {"s/n": 5, "sentence": "s", "pairs": [pair("high insulin level", "increased risk of cancer")]},
    ]
    pred_rows = pred_rows + [
        {"s/n": 4, "sentence": "", "pairs": [pair("chronic widespread pain", "GERD")]},
        {"s/n": 5, "sentence": "", "pairs": [pair("higher insulin levels", "risk of cancer")]},
    ]
    rep = evaluate_extraction(write_rows(tmp_path / "p.json", pred_rows, wrap=True),
                              write_rows(tmp_path / "g.json", gold_rows), all_rows=True)
    assert rep.buckets["counts"] == {"exact": 1, "partial": 1, "cause-correct": 1, "effect-correct": 1,
                                     "switched": 1, "spurious": 1, "missed": 1}
    assert rep.buckets["examples"]["missed"][0]["gold"] == "virus → fever"


def test_label_scores_use_lowercase_trim_matching_and_first_gold_pair(tmp_path):
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s", "pairs": [
        pair("A", "B", "Explicit", "Intra"), pair("C", "D", "Implicit", "Inter"), pair("G", "H", "Explicit", "Intra")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s", "pairs": [
        pair(" a ", "b", "Explicit", "Intra"), pair("c", "d", "Explicit", "Intra"),
        pair("The G.", "H", "Explicit", "Intra"), pair("E", "F", "Implicit", "Inter")]}], wrap=True)
    rows = {(r["label"], r["class"]): r for r in evaluate_extraction(pred, gold).labels}
    # Matched: a→b (explicit/intra, right) and c→d (explicit/intra against implicit/inter);
    # "The G." is not equal to "G" without full normalisation, E→F matches nothing.
    assert rows[("causality", "explicit")]["matched_pairs"] == 2
    assert rows[("causality", "explicit")]["precision"] == pytest.approx(0.5)
    assert rows[("causality", "explicit")]["recall"] == 1.0
    assert rows[("causality", "explicit")]["f1"] == pytest.approx(2 / 3)
    assert rows[("causality", "implicit")]["f1"] == 0.0 and rows[("causality", "implicit")]["support"] == 1
    assert rows[("sententiality", "intra")]["precision"] == pytest.approx(0.5)
    assert rows[("sententiality", "inter")]["recall"] == 0.0


def test_evaluate_extraction_gold_against_gold_is_perfect_on_the_real_test_split(pubmed_test_path):
    rep = evaluate_extraction(pubmed_test_path, "test")
    for m in rep.metrics:
        assert (m["precision"], m["recall"], m["f1"]) == (1.0, 1.0, 1.0), m
    assert rep.summary["gold_pairs"] == 3199
    assert rep.buckets["counts"]["exact"] == 3199
    hung = evaluate_extraction(pubmed_test_path, "test", mode="hungarian")
    assert all(m["f1"] == 1.0 for m in hung.metrics)


def test_evaluate_extraction_of_an_empty_prediction_file_scores_zero_recall(tmp_path, pubmed_test_path):
    pred = tmp_path / "empty.json"
    pred.write_text(json.dumps({"predictions": []}))
    rep = evaluate_extraction(pred, "test", all_rows=True)
    assert rep.metric("token")["recall"] == 0.0
    assert rep.summary["rows_without_prediction"] == 1973 and rep.buckets["counts"]["missed"] == 3199
    # By default only the rows asked are scored: none here, and the note says every gold row was left out.
    asked = evaluate_extraction(pred, "test")
    assert asked.summary["gold_rows"] == 0 and asked.summary["gold_rows_not_asked"] == 1973
    assert asked.notes == [f"1,973 rows of the gold were not asked by {pred} and are left out "
                           "(--all-rows counts them as missed)"]


def test_evaluate_extraction_cause_as_effect_baseline_on_the_real_split(tmp_path, pubmed_test_path):
    # A baseline that copies each gold pair reversed: exact pair F1 must be 0 except for rows
    # where the reversed pair is itself a gold pair; every such pair is a "switched" or exact bucket.
    data = json.loads(pubmed_test_path.read_text())
    rev = [{"s/n": r["s/n"], "sentence": r["sentence"],
            "pairs": [{"cause": p["effect"], "effect": p["cause"]} for p in r["pairs"]]} for r in data]
    rep = evaluate_extraction(write_rows(tmp_path / "rev.json", rev, wrap=True), "test")
    from causalgraph.extraction.spans import exact_key

    both_ways = sum(1 for r in data for p in r["pairs"]
                    if exact_key(p["effect"], p["cause"]) in {exact_key(q["cause"], q["effect"]) for q in r["pairs"]})
    assert rep.summary["exact_hits_predicted"] == both_ways
    assert rep.buckets["counts"]["switched"] + rep.buckets["counts"]["exact"] >= 3199 - 50


def test_label_scores_match_a_prediction_to_the_first_of_repeated_gold_pairs(tmp_path):
    # The row annotates A → B twice (equal after lowercasing and trimming) with different labels.
    # The prediction takes the second pair's labels, but the rule matches it to the first gold pair:
    # explicit/intra in gold, implicit/inter predicted, so both labels are wrong.
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s", "pairs": [
        pair("A", "B", "Explicit", "Intra"), pair(" a ", "b ", "Implicit", "Inter")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s", "pairs": [
        pair("a", "b", "Implicit", "Inter")]}], wrap=True)
    rows = {(r["label"], r["class"]): r for r in evaluate_extraction(pred, gold).labels}
    assert rows[("causality", "explicit")]["matched_pairs"] == 1
    # explicit: tp 0, fn 1; implicit: tp 0, fp 1.
    assert rows[("causality", "explicit")]["support"] == 1 and rows[("causality", "explicit")]["recall"] == 0.0
    assert rows[("causality", "implicit")]["support"] == 0 and rows[("causality", "implicit")]["precision"] == 0.0
    assert rows[("sententiality", "intra")]["recall"] == 0.0 and rows[("sententiality", "inter")]["precision"] == 0.0


def test_evaluate_extraction_paper_mode_scores_causes_and_effects_alone_on_both_sides(tmp_path):
    # One row, gold (x y, p), (z, q r); predicted (x, q), (w, p).
    # Cause F1: x vs "x y" 2/3, x vs z 0; w vs both 0.  Effect F1: q vs p 0, q vs "q r" 2/3; p vs p 1.
    # Pred side: cause bests 2/3, 0; effect bests 2/3, 1.  Gold side: cause bests 2/3, 0; effect bests 1, 2/3.
    # Pair S: (x,q)·g1 = (2/3+0)/2 = 1/3, (x,q)·g2 = (0+2/3)/2 = 1/3, (w,p)·g1 = 1/2, (w,p)·g2 = 0.
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("x y", "p"), pair("z", "q r")]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s",
                                             "pairs": [pair("x", "q"), pair("w", "p")]}], wrap=True)
    rep = evaluate_extraction(pred, gold, mode="paper")
    assert rep.metric("token", "cause")["precision"] == pytest.approx((2 / 3 + 0) / 2)
    assert rep.metric("token", "cause")["recall"] == pytest.approx((2 / 3 + 0) / 2)
    assert rep.metric("token", "effect")["precision"] == pytest.approx((2 / 3 + 1) / 2)
    assert rep.metric("token", "effect")["recall"] == pytest.approx((1 + 2 / 3) / 2)
    assert rep.metric("token", "pair")["precision"] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert rep.metric("token", "pair")["recall"] == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert rep.metric("exact")["f1"] == 0.0


def _angle_embedder(angles):
    """A SpanEmbedder whose spans are unit vectors at fixed angles: every cosine is cos(angle difference)."""
    import math
    from pathlib import Path
    from types import SimpleNamespace

    import numpy as np

    from causalgraph.extraction.embed import SpanEmbedder

    emb = SpanEmbedder.__new__(SpanEmbedder)
    emb.path = Path("angles")
    emb.model = SimpleNamespace(config=SimpleNamespace(hidden_size=2))
    emb._torch, emb.batch_size = None, 64  # every span is cached: the model never runs
    emb._cache = {s: np.array([math.cos(math.radians(a)), math.sin(math.radians(a))]) for s, a in angles.items()}
    return emb


def test_evaluate_extraction_cosine_share_above_threshold_in_both_modes(tmp_path):
    import itertools
    import math

    angles = {"a": 0, "b": 90, "c": 180, "d": 270, "a2": 10, "b2": 100, "c2": 170, "z": 0, "a3": 5, "b3": 95}
    emb = _angle_embedder(angles)
    gold_pairs = [("a", "b"), ("c", "d")]
    pred_pairs = [("a2", "b2"), ("c2", "z"), ("a3", "b3")]
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s", "pairs": [pair(*g) for g in gold_pairs]}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s", "pairs": [pair(*p) for p in pred_pairs]}],
                      wrap=True)

    def cos(x, y):
        return math.cos(math.radians(angles[x] - angles[y]))

    S = [[(cos(p[0], g[0]) + cos(p[1], g[1])) / 2 for g in gold_pairs] for p in pred_pairs]
    # Paper mode: best per predicted pair and per gold pair; share of those reaching 0.75.
    best_p = [max(row) for row in S]
    best_g = [max(S[i][j] for i in range(3)) for j in range(2)]
    rep = evaluate_extraction(pred, gold, cosine=True, embedder=emb)
    assert rep.metric("cosine", "pair")["precision"] == pytest.approx(sum(best_p) / 3)
    assert rep.metric("cosine", "pair")["recall"] == pytest.approx(sum(best_g) / 2)
    share = rep.metric("cosine>=0.75", "pair")
    assert (share["precision"], share["recall"]) == (pytest.approx(2 / 3), pytest.approx(1 / 2))
    # Hungarian: the best one-to-one assignment by brute force (each gold pair to a distinct prediction).
    total, chosen = max((sum(S[i][j] for j, i in enumerate(perm)), perm)
                        for perm in itertools.permutations(range(3), 2))
    hung = evaluate_extraction(pred, gold, mode="hungarian", cosine=True, embedder=emb)
    assert hung.metric("cosine", "pair")["precision"] == pytest.approx(total / 3)
    assert hung.metric("cosine", "pair")["recall"] == pytest.approx(total / 2)
    above = sum(1 for j, i in enumerate(chosen) if S[i][j] >= 0.75)
    assert above == 1
    share = hung.metric("cosine>=0.75", "pair")
    assert (share["precision"], share["recall"]) == (pytest.approx(1 / 3), pytest.approx(1 / 2))
    assert "not the paper's BioBERT-based encoder" in hung.notes[0]


def test_evaluate_extraction_pairs_predicted_for_a_row_without_gold_pairs_lower_precision_only(tmp_path):
    # Row 1: exact hit (S = 1).  Row 2 has no gold pair: its prediction scores 0 but still counts.
    gold = write_rows(tmp_path / "g.json", [{"s/n": 1, "sentence": "s", "pairs": [pair("a", "b")]},
                                            {"s/n": 2, "sentence": "t", "pairs": []}])
    pred = write_rows(tmp_path / "p.json", [{"s/n": 1, "sentence": "s", "pairs": [pair("a", "b")]},
                                            {"s/n": 2, "sentence": "t", "pairs": [pair("x", "y")]}], wrap=True)
    for mode in ("paper", "hungarian"):
        rep = evaluate_extraction(pred, gold, mode=mode)
        tok = rep.metric("token", "pair")
        assert (tok["precision"], tok["recall"]) == (0.5, 1.0), mode
        assert tok["f1"] == pytest.approx(2 / 3)
        assert rep.metric("exact")["precision"] == 0.5 and rep.metric("exact")["recall"] == 1.0
    assert rep.buckets["counts"]["spurious"] == 1 and rep.buckets["counts"]["exact"] == 1
