"""ECE (equal-width and adaptive), Brier score and reliability bins against hand computations and properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from causalgraph.bench.calibration import adaptive_ece, brier, calibration, ece, reliability_bins
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.llm.loglik import choose, normalized_probs
from causalgraph.runlog import RunRecord


def test_ece_of_fifteen_bins_by_hand():
    # Confidences 0.95, 0.95 (right, right), 0.62 (wrong), 0.61 (right), 0.34 (wrong).
    conf = [0.95, 0.95, 0.62, 0.61, 0.34]
    ok = [True, True, False, True, False]
    # Bins of width 1/15: 0.95 -> (14/15, 1]; 0.62 and 0.61 -> (9/15, 10/15]; 0.34 -> (5/15, 6/15].
    expected = (2 / 5) * abs(1 - 0.95) + (2 / 5) * abs(0.5 - 0.615) + (1 / 5) * abs(0 - 0.34)
    assert ece(conf, ok) == pytest.approx(expected, abs=1e-12)
    rows = reliability_bins(conf, ok)
    assert [r["count"] for r in rows] == [0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 2]


def test_a_confidence_on_a_bin_edge_goes_to_the_lower_bin():
    rows = reliability_bins([0.5, 0.0, 1.0], [True, False, True], bins=2)
    assert [r["count"] for r in rows] == [2, 1]


def test_adaptive_ece_cuts_sorted_confidences_into_equal_bins_by_hand():
    conf = [0.9, 0.8, 0.7, 0.6, 0.55, 0.99]
    ok = [True, False, True, False, True, True]
    # Sorted: 0.55 T, 0.6 F | 0.7 T, 0.8 F | 0.9 T, 0.99 T
    expected = (2 / 6) * (abs(0.5 - 0.575) + abs(0.5 - 0.75) + abs(1 - 0.945))
    assert adaptive_ece(conf, ok, bins=3) == pytest.approx(expected, abs=1e-12)


def test_brier_is_the_multiclass_sum_of_squares_by_hand():
    probs = [{"start": 0.7, "middle": 0.2, "end": 0.1, "none": 0.0}, {"yes": 0.4, "no": 0.6}]
    gold = ["middle", "yes"]
    expected = ((0.7 ** 2 + 0.8 ** 2 + 0.1 ** 2) + (0.6 ** 2 + 0.6 ** 2)) / 2
    assert brier(probs, gold) == pytest.approx(expected, abs=1e-12)


def test_calibration_of_records_leaves_failed_requests_out_and_refuses_bad_probabilities():
    recs = [RunRecord("t", "v", "a", gold="yes", label="yes", method="loglik", probs={"yes": 0.8, "no": 0.2}),
            RunRecord("t", "v", "b", gold="no", label=None, method="loglik", probs=None, error="boom")]
    c = calibration(recs)
    assert c["n"] == 1 and c["ece"] == pytest.approx(0.2) and c["brier"] == pytest.approx(0.08)
    assert calibration([RunRecord("t", "v", "g", gold="yes", label="yes")]) is None  # a generated run has none
    with pytest.raises(SchemaError, match="item 'c'"):
        calibration([RunRecord("t", "v", "c", gold="yes", label="yes", probs={"yes": 0.8, "no": 0.8})])
    with pytest.raises(SchemaError, match="not its gold label"):
        calibration([RunRecord("t", "v", "d", gold="maybe", label="yes", probs={"yes": 0.5, "no": 0.5})])
    with pytest.raises(ConfigError):
        ece([0.5], [True], bins=0)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=60), st.integers(1, 30))
def test_ece_lies_in_zero_one_and_one_bin_is_the_gap_of_the_means(pairs, bins):
    conf = [c for c, _ in pairs]
    ok = [o for _, o in pairs]
    for f in (ece, adaptive_ece):
        v = f(conf, ok, bins)
        assert -1e-12 <= v <= 1 + 1e-12
        assert f(conf, ok, 1) == pytest.approx(abs(np.mean(ok) - np.mean(conf)), abs=1e-9)
    # The reliability bins partition the items.
    assert sum(r["count"] for r in reliability_bins(conf, ok, bins)) == len(pairs)


@settings(max_examples=200)
@given(st.lists(st.floats(-50, 0), min_size=2, max_size=6), st.data())
def test_normalized_probabilities_sum_to_one_keep_the_order_and_the_brier_score_lies_in_zero_two(lps, data):
    p = normalized_probs(lps)
    assert math.fsum(p) == pytest.approx(1.0) and all(0 <= x <= 1 for x in p)
    i, j = data.draw(st.integers(0, len(lps) - 1)), data.draw(st.integers(0, len(lps) - 1))
    if lps[i] > lps[j]:
        assert p[i] >= p[j]
    labels = [f"l{k}" for k in range(len(lps))]
    gold = data.draw(st.sampled_from(labels))
    assert 0 <= brier([dict(zip(labels, p))], [gold]) <= 2 + 1e-12
    # acc picks a label with the largest log-probability, the first in order on a tie.
    pick = choose(labels, lps, ["x"] * len(lps))
    assert lps[labels.index(pick)] == max(lps) and labels.index(pick) == lps.index(max(lps))


def test_acc_norm_divides_by_the_continuations_length_in_bytes():
    # -6 over 11 bytes (-0.55 per byte) beats -2 over 2 bytes (-1 per byte); acc picks the other.
    labels, conts = ["long", "short"], ["<Answer>Yes", "No"]  # 11 bytes, close enough to beat -1 per byte
    assert len(conts[0].encode("utf-8")) == 11
    assert choose(labels, [-6.0, -2.0], conts, "acc") == "short"
    assert choose(labels, [-6.0, -2.0], conts, "acc_norm") == "long"
    # Bytes, not characters: "é" is two bytes (-1 per byte beats -1.9); per character it would lose (-2).
    assert choose(["a", "b"], [-2.0, -2.0 * 1.9], ["é", "ab"], "acc_norm") == "a"
