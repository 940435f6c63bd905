"""Precision, recall and F1: the one implementation every scorer uses (benchmark labels, extracted spans,
annotations); and the small-sample factor every statement-bootstrap interval is widened by (benchmark
scores, paired comparisons, pooled graph scores).

Divisions by zero give 0, as scikit-learn's ``zero_division=0``.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

__all__ = ["prf", "prf_counts", "binary_scores", "small_sample_factor", "percentile_interval"]


def prf(p_sum: float, n_pred: int, r_sum: float, n_gold: int) -> dict[str, float]:
    """Precision, recall and F1 from summed scores: ``p_sum / n_pred``, ``r_sum / n_gold``, their harmonic mean.

    The sums are hit counts for exact measures, or summed similarity scores for soft ones.

    Examples
    --------
    >>> prf(1.5, 2, 1.5, 3)
    {'precision': 0.75, 'recall': 0.5, 'f1': 0.6}
    """
    p = p_sum / n_pred if n_pred else 0.0
    r = r_sum / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return {"precision": p, "recall": r, "f1": f}


def prf_counts(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """``(precision, recall, f1)`` of a class from its true positives, false positives and false negatives.

    Examples
    --------
    >>> prf_counts(1, 1, 3)
    (0.5, 0.25, 0.3333333333333333)
    """
    s = prf(tp, tp + fp, tp, tp + fn)
    return s["precision"], s["recall"], s["f1"]


def binary_scores(gold: Sequence[Any], pred: Sequence[Any], positive: Any) -> dict[str, Any]:
    """Precision, recall and F1 of the ``positive`` class.

    Examples
    --------
    >>> s = binary_scores(["yes", "yes", "no", "no"], ["yes", None, "yes", "no"], "yes")
    >>> s["tp"], s["fp"], s["fn"], s["tn"], round(s["f1"], 4)
    (1, 1, 1, 1, 0.5)
    """
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} labels, pred {len(pred)}")
    tp = fp = fn = tn = 0
    for g, p in zip(gold, pred):
        if p == positive:
            if g == positive:
                tp += 1
            else:
                fp += 1
        elif g == positive:
            fn += 1
        else:
            tn += 1
    precision, recall, f1 = prf_counts(tp, fp, fn)
    correct = sum(1 for g, p in zip(gold, pred) if p is not None and g == p)
    return {"precision": precision, "recall": recall, "f1": f1, "accuracy": correct / len(gold) if gold else 0.0,
            "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def small_sample_factor(n_groups: int, level: float = 0.95) -> float:
    """``√(G/(G−1)) · t_{G−1} / z`` at ``level``: how much a percentile interval over ``G`` statements is widened.

    A percentile interval of a statement (cluster) bootstrap is too narrow with few statements (its
    spread has the plug-in factor (G − 1)/G, its shape ignores that the spread is estimated from G
    clusters); the factor of a cluster-robust t interval corrects both. benchmarks/bench_stats_level.py
    measures the coverage (docs/statistics.md): 86 % → 93 % for accuracy over 8 statements.

    Examples
    --------
    >>> round(small_sample_factor(8), 3), round(small_sample_factor(63), 3)
    (1.29, 1.028)
    """
    from scipy.stats import norm, t as student

    if n_groups < 2:
        return math.inf
    q = 1 - (1 - level) / 2
    return math.sqrt(n_groups / (n_groups - 1)) * float(student.ppf(q, n_groups - 1)) / float(norm.ppf(q))


def percentile_interval(values, point: Optional[float], n_groups: Optional[int], *, level: float = 0.95,
                        widen: bool = True, bounds: Optional[tuple[float, float]] = (0.0, 1.0),
                        max_undefined: float = 0.5) -> tuple[tuple[float, float], float]:
    """A statement-bootstrap interval from resampled values of a metric, and the share of undefined resamples.

    The one home of the rule the run scores (:mod:`causalgraph.bench.scoring`) and the statistics
    (:func:`causalgraph.stats.resampling.cluster_interval`) share: resamples where the metric is
    undefined (NaN) are left out; above ``max_undefined`` of them, or with nothing left, the interval
    is not estimable (``(nan, nan)``).  The percentile interval at ``level`` is widened around
    ``point`` by :func:`small_sample_factor` of ``n_groups`` statements (``widen=True``; then an
    undefined point or fewer than 2 statements is not estimable), keeping its asymmetry, and clipped
    to ``bounds`` (``None``: unbounded).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([0.6, 0.7, 0.8, 0.9, np.nan])
    >>> ci, share = percentile_interval(v, 0.75, 30, level=0.5, widen=False)
    >>> [round(x, 4) for x in ci], share
    ([0.675, 0.825], 0.2)
    """
    import numpy as np

    values = np.asarray(values, dtype=float)
    undefined = np.isnan(values)
    share = float(undefined.mean()) if values.size else 1.0
    if values.size == 0 or share > max_undefined or undefined.all():
        return (math.nan, math.nan), share
    if widen and (point is None or not math.isfinite(point) or n_groups is None or n_groups < 2):
        return (math.nan, math.nan), share
    alpha = (1 - level) / 2
    lo, hi = np.quantile(values[~undefined], [alpha, 1 - alpha])
    if widen:
        c = small_sample_factor(n_groups, level)
        lo, hi = point - c * (point - lo), point + c * (hi - point)
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return (float(lo), float(hi)), share
