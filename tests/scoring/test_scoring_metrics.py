"""Scoring metrics of runs (issue 36, item 5): the built-ins agree with scikit-learn, the registry's rules hold,
and a run scored without asking for one is scored as before."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import balanced_accuracy_score, matthews_corrcoef

from causalgraph.errors import ConfigError
from causalgraph.scoring.scoring_metrics import (
    RESERVED_NAMES, SCORING_METRICS, ScoringMetric, get_scoring_metric, register_scoring_metric,
    scoring_metric_names, scoring_metrics_asked, unregister_scoring_metric,
)

LABELS = ("start", "middle", "end", "none")


def matrix(gold, pred, labels):
    """Gold rows × answer columns, unparsed (None) last: what a metric function receives."""
    m = np.zeros((len(labels), len(labels) + 1), dtype=np.int64)
    for g, p in zip(gold, pred):
        m[labels.index(g), labels.index(p) if p in labels else len(labels)] += 1
    return m


answers = st.integers(2, 4).flatmap(lambda k: st.lists(
    st.tuples(st.sampled_from(LABELS[:k]), st.sampled_from([*LABELS[:k], None])), min_size=1, max_size=60).map(
    lambda pairs: (LABELS[:k], pairs)))


@settings(max_examples=200, deadline=None)
@given(answers)
def test_mcc_and_balanced_accuracy_equal_scikit_learn_with_unparsed_as_a_wrong_class(case):
    labels, pairs = case
    gold = [g for g, _ in pairs]
    pred = [p if p is not None else "unparsed" for _, p in pairs]
    m = matrix(gold, [p for _, p in pairs], list(labels))
    mcc = get_scoring_metric("mcc").value(m, labels, labels[0])
    # scikit-learn gives 0 where the denominator is 0 (one class in gold or in the answers): undefined here.
    one_class = len(set(gold)) == 1 or len(set(pred)) == 1
    if one_class:
        assert mcc is None
    else:
        assert mcc == pytest.approx(matthews_corrcoef(gold, pred), abs=1e-12)
    with _quiet():
        want = balanced_accuracy_score(gold, pred)
    assert get_scoring_metric("balanced_accuracy").value(m, labels, labels[0]) == pytest.approx(want, abs=1e-12)


class _quiet:
    """scikit-learn warns that ``unparsed`` is a predicted class no gold item has; that is the point."""

    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


def test_binary_mcc_is_the_textbook_formula_by_hand():
    # TP 8, FN 2, FP 1, TN 9: (8*9 - 1*2) / sqrt(9 * 10 * 10 * 11)
    m = np.array([[8, 2, 0], [1, 9, 0]])
    assert get_scoring_metric("mcc").value(m, ("yes", "no"), "yes") == pytest.approx(70 / math.sqrt(9900))


def test_only_the_two_built_ins_are_causalgraphs_and_none_is_computed_unasked():
    assert scoring_metric_names(plugins=False) == ("mcc", "balanced_accuracy")
    assert scoring_metrics_asked(None) == () and scoring_metrics_asked([]) == ()
    assert [m.name for m in scoring_metrics_asked("balanced_accuracy,mcc")] == ["balanced_accuracy", "mcc"]


@pytest.mark.parametrize("bad, message", [
    (ScoringMetric("f1", lambda m, l, p: 0.0, "shadows the built-in F1"), "not a column of the built-in scores"),
    (ScoringMetric("Bad-Name", lambda m, l, p: 0.0, "not an identifier"), "lower-case identifier"),
    (ScoringMetric("kinds_x", lambda m, l, p: 0.0, "no such kind", kinds=("pairs",)), "kinds ('pairs',)"),
    (ScoringMetric("bounds_x", lambda m, l, p: 0.0, "upside down", bounds=(1.0, 0.0)), "least first"),
    (ScoringMetric("callable_x", "not a function", "text"), "expected a callable"),
    (ScoringMetric("few_x", lambda m, l, p: 0.0, "one statement", min_statements=1), "at least 2"),
])
def test_a_metric_that_could_shadow_or_cannot_be_computed_is_refused_when_registered(bad, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        register_scoring_metric(bad)
    assert bad.name not in SCORING_METRICS
    assert {"precision", "recall", "f1", "accuracy"} <= RESERVED_NAMES


def test_registration_follows_the_one_rule_and_a_taken_name_needs_replace():
    first = ScoringMetric("spec_x", lambda m, l, p: 0.25, "first")
    try:
        assert register_scoring_metric(first) is first
        with pytest.raises(ConfigError, match="already registered; pass replace=True"):
            register_scoring_metric(ScoringMetric("spec_x", lambda m, l, p: 0.5, "second"))
        register_scoring_metric(ScoringMetric("spec_x", lambda m, l, p: 0.5, "second"), replace=True)
        assert get_scoring_metric("spec_x").value(np.ones((2, 3)), ("yes", "no"), "yes") == 0.5
        with pytest.raises(TypeError):
            register_scoring_metric(first, True)  # replace= is keyword-only
    finally:
        unregister_scoring_metric("spec_x")
    with pytest.raises(ConfigError, match="did you mean 'mcc'"):
        get_scoring_metric("mmc")


@pytest.mark.parametrize("returned, shown", [("seven", "'seven' (str)"), (True, "True (bool)"),
                                             ([0.5], "[0.5] (list)")])
def test_a_function_returning_what_is_not_a_number_is_one_error_line(returned, shown):
    register_scoring_metric(ScoringMetric("text_x", lambda m, l, p: returned, "text"))
    try:
        with pytest.raises(ConfigError) as err:
            get_scoring_metric("text_x").value(np.ones((2, 3)), ("yes", "no"), "yes")
        assert str(err.value) == f"scoring metric 'text_x': its function returned {shown}; expected a number or " \
                                 "None (undefined)"
    finally:
        unregister_scoring_metric("text_x")


def test_nan_and_none_are_both_undefined():
    register_scoring_metric(ScoringMetric("nan_x", lambda m, l, p: float("nan"), "never defined"))
    try:
        assert get_scoring_metric("nan_x").value(np.ones((2, 3)), ("yes", "no"), "yes") is None
    finally:
        unregister_scoring_metric("nan_x")


@pytest.mark.parametrize("names, message", [("mcc,mcc", "named twice"), ([1], "expected names"),
                                            ("nope", "unknown scoring metric 'nope'")])
def test_bad_asks_are_refused_in_one_line(names, message):
    with pytest.raises(ConfigError, match=message):
        scoring_metrics_asked(names)
