"""Calibration of runs scored by log-likelihood: ECE (equal-width and adaptive bins), Brier score, reliability.

A record of a ``--method loglik`` run holds ``probs``: each label's
probability normalised over the choices.  The *confidence* of an item is
the probability of the label predicted (the ``acc`` rule: the highest), and
it is *correct* when that label is the gold label.

* **ECE** (expected calibration error, Guo et al. 2017): items are put in
  ``bins`` equal-width bins of confidence, bin *m* holding confidences in
  ``((m-1)/M, m/M]`` (a confidence of 0 goes to the first); ECE is
  ``sum_m |B_m|/n · |acc(B_m) − conf(B_m)|``.  Default 15 bins.
* **Adaptive ECE** (Nixon et al. 2019): the same sum over ``bins`` bins of
  (nearly) equal size, the items sorted by confidence and cut with
  :func:`numpy.array_split`; ties in confidence are broken by data order.
* **Brier score** (Brier 1950, the multi-class form lm-evaluation-harness
  uses): the mean over items of ``sum_k (p_k − 1[k = gold])²``, so it lies
  in [0, 2]; for two labels it is twice the binary ``(p − y)²``.

Failed requests (no probabilities) are left out and counted (``n`` is the
number of items scored).

Examples
--------
>>> from causalgraph.runlog import RunRecord
>>> recs = [RunRecord("t", "v", "a", gold="yes", label="yes", probs={"yes": 0.9, "no": 0.1}),
...         RunRecord("t", "v", "b", gold="no", label="yes", probs={"yes": 0.6, "no": 0.4})]
>>> c = calibration(recs)
>>> round(c["ece"], 4), round(c["brier"], 4)
(0.35, 0.37)
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError, SchemaError

__all__ = ["calibration", "ece", "adaptive_ece", "brier", "reliability_bins", "reliability_figure", "plot_reliability",
           "DEFAULT_BINS"]

#: Bins of the equal-width and adaptive ECE.
DEFAULT_BINS = 15


def _check_bins(bins: int) -> None:
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise ConfigError(f"calibration bins {bins!r}: expected an integer >= 1")


def _bin_index(conf: np.ndarray, bins: int) -> np.ndarray:
    # Bin m holds ((m-1)/M, m/M]: ceil(c·M) − 1, and 0 for c = 0.
    return np.clip(np.ceil(conf * bins).astype(np.int64) - 1, 0, bins - 1)


def reliability_bins(confidence: Sequence[float], correct: Sequence[bool], bins: int = DEFAULT_BINS) -> list[dict]:
    """One row per equal-width bin: its range, item count, mean confidence and accuracy (``None`` when empty).

    Examples
    --------
    >>> rows = reliability_bins([0.55, 0.95, 0.97], [False, True, True], bins=2)
    >>> [(r["lo"], r["hi"], r["count"], r["accuracy"]) for r in rows]
    [(0.0, 0.5, 0, None), (0.5, 1.0, 3, 0.6666666666666666)]
    """
    _check_bins(bins)
    conf = np.asarray(confidence, dtype=float)
    ok = np.asarray(correct, dtype=float)
    idx = _bin_index(conf, bins) if len(conf) else np.zeros(0, dtype=np.int64)
    out = []
    for m in range(bins):
        sel = idx == m
        n = int(sel.sum())
        out.append({"lo": m / bins, "hi": (m + 1) / bins, "count": n,
                    "confidence": float(conf[sel].mean()) if n else None,
                    "accuracy": float(ok[sel].mean()) if n else None})
    return out


def ece(confidence: Sequence[float], correct: Sequence[bool], bins: int = DEFAULT_BINS) -> float:
    """Expected calibration error over equal-width bins (0 for no items).

    Examples
    --------
    >>> round(ece([0.9, 0.9, 0.6, 0.6], [True, True, True, False], bins=10), 4)
    0.1
    """
    rows = reliability_bins(confidence, correct, bins)
    n = sum(r["count"] for r in rows)
    if not n:
        return 0.0
    return float(math.fsum(r["count"] / n * abs(r["accuracy"] - r["confidence"]) for r in rows if r["count"]))


def adaptive_ece(confidence: Sequence[float], correct: Sequence[bool], bins: int = DEFAULT_BINS) -> float:
    """Expected calibration error over bins of (nearly) equal size (0 for no items).

    Examples
    --------
    >>> round(adaptive_ece([0.9, 0.8, 0.6, 0.7], [True, True, False, True], bins=2), 4)
    0.15
    """
    _check_bins(bins)
    conf = np.asarray(confidence, dtype=float)
    ok = np.asarray(correct, dtype=float)
    n = len(conf)
    if not n:
        return 0.0
    order = np.argsort(conf, kind="stable")
    total = 0.0
    for part in np.array_split(order, min(bins, n)):
        if len(part):
            total += len(part) / n * abs(float(ok[part].mean()) - float(conf[part].mean()))
    return float(total)


def brier(probs: Sequence[Mapping[str, float]], gold: Sequence[Any]) -> float:
    """Mean over items of ``sum_k (p_k − 1[k = gold])²`` (0 for no items).

    Examples
    --------
    >>> round(brier([{"yes": 0.8, "no": 0.2}], ["yes"]), 4)
    0.08
    """
    if not probs:
        return 0.0
    vals = [math.fsum((float(p) - (1.0 if lab == g else 0.0)) ** 2 for lab, p in pr.items()) for pr, g in zip(probs, gold)]
    return float(math.fsum(vals) / len(vals))


def calibration(records: Sequence[RunRecord], bins: int = DEFAULT_BINS) -> Optional[dict[str, Any]]:
    """ECE, adaptive ECE, Brier score and the reliability bins of one variant's loglik records.

    Returns ``None`` when no record holds probabilities (a generated run).

    Raises
    ------
    SchemaError
        For a record whose ``probs`` do not name its gold label, or are not
        probabilities summing to 1.
    """
    scored = [r for r in records if not r.error and r.probs]
    if not scored and not any(r.method == "loglik" for r in records):
        return None
    conf, ok, probs, gold = [], [], [], []
    for r in scored:
        p = {str(k): float(v) for k, v in r.probs.items()}
        if r.gold not in p:
            raise SchemaError(f"item {r.item_id!r}: probs name {sorted(p)}, not its gold label {r.gold!r}")
        if any(not 0.0 <= v <= 1.0 for v in p.values()) or abs(math.fsum(p.values()) - 1.0) > 1e-6:
            raise SchemaError(f"item {r.item_id!r}: probs {p} are not probabilities summing to 1")
        label = r.label
        conf.append(p.get(label, max(p.values())))
        ok.append(label == r.gold)
        probs.append(p)
        gold.append(r.gold)
    return {"n": len(scored), "bins": bins, "confidence_of": "the predicted label (acc)",
            "ece": ece(conf, ok, bins), "ece_adaptive": adaptive_ece(conf, ok, bins), "brier": brier(probs, gold),
            "mean_confidence": float(np.mean(conf)) if conf else None,
            "accuracy": float(np.mean(ok)) if ok else None,
            "reliability": reliability_bins(conf, ok, bins)}


def reliability_figure(cal: Mapping[str, Any], *, title: str = ""):
    """A reliability diagram (accuracy against confidence per bin, item counts below) as a matplotlib Figure.

    The figure is made without pyplot (no global state, no display): save it
    with ``fig.savefig``.

    Parameters
    ----------
    cal
        What :func:`calibration` returned.
    title
        The plot's title (the run and variant).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = cal["reliability"]
    width = 1.0 / len(rows)
    fig = Figure(figsize=(5, 6))
    FigureCanvasAgg(fig)
    ax, axc = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="perfect calibration")
    filled = [r for r in rows if r["count"]]
    ax.bar([r["lo"] for r in filled], [r["accuracy"] for r in filled], width=width, align="edge",
           edgecolor="black", color="#4878d0", label="accuracy")
    ax.plot([r["confidence"] for r in filled], [r["accuracy"] for r in filled], "o", color="#d65f5f",
            label="mean confidence")
    ax.set_ylim(0, 1)
    ax.set_ylabel("accuracy")
    ax.set_title(f"{title}\nECE {cal['ece']:.4f} · adaptive {cal['ece_adaptive']:.4f} · Brier {cal['brier']:.4f} "
                 f"(n={cal['n']})", fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    axc.bar([r["lo"] for r in rows], [r["count"] for r in rows], width=width, align="edge", edgecolor="black",
            color="#999999")
    axc.set_xlim(0, 1)
    axc.set_xlabel("confidence of the predicted label")
    axc.set_ylabel("items")
    fig.tight_layout()
    return fig


def plot_reliability(cal: Mapping[str, Any], path, *, title: str = "") -> None:
    """Write a reliability diagram (accuracy against confidence per bin, with counts) as an image (matplotlib).

    Parameters
    ----------
    cal
        What :func:`calibration` returned.
    path
        The image file (its suffix, ``.png`` or ``.svg``, picks the format), or a binary file object
        (written as PNG).
    title
        The plot's title (the run and variant).

    Examples
    --------
    >>> plot_reliability(calibration(recs), "reliability.png", title="A_5")   # doctest: +SKIP
    """
    fig = reliability_figure(cal, title=title)
    if hasattr(path, "write"):
        fig.savefig(path, format="png", metadata={"Software": None})
    else:
        fig.savefig(str(path), metadata={"Software": None} if str(path).endswith(".png") else None)
