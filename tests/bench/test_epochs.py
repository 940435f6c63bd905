"""Reducers of repeated sampling (majority, pass@k, pass^k) and agreement across epochs, on hand-made samples."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dataclasses

from causalgraph.runlog import RunRecord
from causalgraph.runlog.samples import label_key, majority_record, majority_records
from causalgraph.bench.epochs import (Reducer, epoch_agreement,
                                      parse_reducer, pass_at_k, pass_hat_k, pass_scores)
from causalgraph.errors import ConfigError


def _brute_pass(n: int, c: int, k: int, every: bool) -> Fraction:
    """Mean over every k-subset of n samples (c right) of 'any right' (pass@k) or 'all right' (pass^k)."""
    right = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    hits = sum((all if every else any)(right[i] for i in s) for s in subsets)
    return Fraction(hits, len(subsets))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_pass_at_k_and_pass_hat_k_equal_the_average_over_every_subset_of_k_samples(nck):
    n, c, k = nck
    assert pass_at_k(n, c, k) == pytest.approx(float(_brute_pass(n, c, k, every=False)), abs=1e-12)
    assert pass_hat_k(n, c, k) == pytest.approx(float(_brute_pass(n, c, k, every=True)), abs=1e-12)


def test_pass_at_one_is_the_share_of_right_samples_and_impossible_arguments_are_refused():
    assert pass_at_k(4, 1, 1) == pass_hat_k(4, 1, 1) == 0.25
    for bad in ((3, 4, 1), (3, 1, 0), (3, 1, 4), (2, -1, 1)):
        with pytest.raises(ValueError):
            pass_at_k(*bad)


labels = st.sampled_from(["yes", "no", None, ["a", "b"], ["b", "a"], ["c"]])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(labels, st.booleans()), min_size=1, max_size=8))
def test_the_majority_record_holds_the_most_frequent_label_and_ties_go_to_the_earliest(draws):
    samples = [RunRecord("t", "v", "i", epoch=e, label=lab, error="HTTP 500" if failed else None)
               for e, (lab, failed) in enumerate(draws, start=1)]
    got = majority_record(list(reversed(samples)))  # the order given does not matter
    voters = [s for s in samples if not s.error]
    if not voters:
        assert got is samples[-1]
        return
    keys = [label_key(s.label) for s in voters]
    counts = Counter(keys)
    top = max(counts.values())
    first_tied = next(k for k in keys if counts[k] == top)  # earliest epoch among the tied labels
    assert label_key(got.label) == first_tied
    assert got is next(s for s in voters if label_key(s.label) == first_tied)


def test_set_labels_agree_whatever_order_the_model_listed_them_in():
    s = [RunRecord("t", "v", "i", epoch=1, label=["b", "a"]), RunRecord("t", "v", "i", epoch=2, label=["c"]),
         RunRecord("t", "v", "i", epoch=3, label=["a", "b"])]
    assert majority_record(s).epoch == 1
    assert [r.item_id for r in majority_records(s + [RunRecord("t", "v", "j", epoch=1, label="x")])] == ["i", "j"]


def test_reducer_names_read_as_documented_and_others_are_refused():
    assert parse_reducer(" Majority ") == Reducer("majority")
    assert parse_reducer("pass^4") == Reducer("pass^k", 4) and parse_reducer("pass^4").label == "pass^4"
    assert parse_reducer("pass@k").label == "pass@k"
    for bad in ("best", "pass@0", "pass@", "pass@-1", "pass#2", ""):
        with pytest.raises(ConfigError, match="--reducer"):
            parse_reducer(bad)


# Four items, three epochs (q2's third answer is unparsed).  Worked by hand in test_runner_epochs.py too.
HAND = {"q0": ("yes", ["yes", "yes", "no"]), "q1": ("no", ["yes", "no", "yes"]),
        "q2": ("yes", ["no", "yes", None]), "q3": ("no", ["no", "no", "no"])}


def _hand_samples():
    return [RunRecord("t", "v", q, epoch=e, gold=gold, label=lab, meta={"statement_id": f"s{i // 2}"})
            for i, (q, (gold, labs)) in enumerate(HAND.items()) for e, lab in enumerate(labs, start=1)]


def _right(r):
    return r.label == r.gold


@pytest.mark.parametrize("reducer, expected", [
    # right answers per item c = 2, 1, 1, 3 of n = 3
    ("pass@1", Fraction(7, 12)),                 # mean of c/n
    ("pass@2", Fraction(5, 6)),                  # 1, 1-1/3, 1-1/3, 1
    ("pass@3", Fraction(1)),                     # every item has a right answer
    ("pass^2", Fraction(1, 3)),                  # C(c,2)/3 = 1/3, 0, 0, 1
    ("pass^k", Fraction(1, 4)),                  # k = 3: only q3
])
def test_pass_scores_of_hand_counted_samples(reducer, expected):
    out = pass_scores(_hand_samples(), parse_reducer(reducer), _right, epochs=3, n_boot=200)
    assert out["value"] == pytest.approx(float(expected))
    assert out["items"] == 4 and out["samples"] == 12 and out["k"] == (3 if reducer.endswith("k") else int(reducer[-1]))
    lo, hi = out["ci95"]
    assert lo <= out["value"] <= hi


def test_pass_scores_refuse_a_k_beyond_the_epochs_or_items_with_too_few_samples():
    with pytest.raises(ConfigError, match="pass@4 needs 4 samples per item; the run has 3 epochs"):
        pass_scores(_hand_samples(), parse_reducer("pass@4"), _right, epochs=3)
    short = [s for s in _hand_samples() if not (s.item_id == "q1" and s.epoch == 3)]
    with pytest.raises(ConfigError, match="1 item has fewer than 3 samples \\(first: 'q1'\\)"):
        pass_scores(short, parse_reducer("pass@3"), _right, epochs=3)
    shorter = [s for s in _hand_samples() if not (s.item_id in ("q1", "q2") and s.epoch == 3)]
    with pytest.raises(ConfigError, match="2 items have fewer than 3 samples \\(first: 'q1'\\)"):
        pass_scores(shorter, parse_reducer("pass@3"), _right, epochs=3)
    assert pass_scores(short, parse_reducer("pass@2"), _right, epochs=3)["items"] == 4


def test_agreement_of_hand_counted_samples():
    a = epoch_agreement(_hand_samples(), epochs=3)
    # Only q3 got one answer in all three epochs.
    assert (a["items"], a["complete"], a["categories"]) == (4, 4, 3) and a["identical"] == 0.25
    # Categories yes/no/unparsed; rows q0 (2,1,0), q1 (2,1,0), q2 (1,1,1), q3 (0,3,0), 3 raters:
    # P_i = 1/3, 1/3, 0, 1 -> mean 5/12; p = 5/12, 6/12, 1/12 -> P_e = 62/144; kappa = (5/12 - 31/72) / (41/72).
    assert a["fleiss_kappa"] == pytest.approx(-1 / 41)


def test_agreement_leaves_out_items_with_a_failed_or_missing_epoch_and_says_how_many_it_kept():
    s = _hand_samples()
    s[0] = dataclasses.replace(s[0], error="HTTP 500", label=None)
    s = [r for r in s if not (r.item_id == "q3" and r.epoch == 2)]
    a = epoch_agreement(s, epochs=3)
    assert (a["items"], a["complete"]) == (4, 2) and a["identical"] == 0.0
    assert epoch_agreement([RunRecord("t", "v", "x", epoch=1, label="yes")], epochs=1)["fleiss_kappa"] is None
    same = [RunRecord("t", "v", i, epoch=e, label="yes") for i in "ab" for e in (1, 2)]
    assert epoch_agreement(same, epochs=2)["fleiss_kappa"] is None and epoch_agreement(same, epochs=2)["identical"] == 1


def test_label_keys_are_json_and_never_confuse_a_string_with_a_list():
    assert label_key("['a']") != label_key(["a"]) and label_key(None) != label_key("null")
    assert label_key({"b": 1, "a": 2}) == label_key({"a": 2, "b": 1}) != label_key({"a": 1, "b": 2})
