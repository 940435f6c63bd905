"""Coverage and error rates of the intervals of scoring metrics (issue 36, item 5): ``mcc`` and
``balanced_accuracy`` on ClimateCause-shaped designs.

Designs as in ``bench_stats_level.py`` and ``bench_rank_level.py``: G statements drawn with replacement
from ClimateCause's causal statements, each bringing its real ``ccr-member`` A_5 items (gold ``yes`` or
``no``); each drawn statement gets a fresh ease ``u_s ~ N(0, 1)`` on the logit scale, and an item is
answered right with probability ``expit(logit p + u_s)`` (p = 0.75), the other label otherwise.

* **Run-score coverage** (``coverage``): how often the interval ``bench report --scoring-metric`` ships
  (:func:`causalgraph.bench.scoring.scoring_metric_scores`, 499 resamples: the statement-bootstrap
  percentile interval widened by √(G/(G−1))·t_{G−1}/z, clipped to the metric's bounds) holds the target:
  the metric of the expected confusion matrix over the statement population (exact: the expected
  accuracy is ∫ expit(logit p + u) dφ(u), by quadrature), the estimand of a ratio of totals.
* **Paired difference under no effect** (``paired``): two arms answer every item with the same p; τ = 0
  (same ease) or τ = 1 (arm A ease ``u_s + w_s/2``, arm B ``u_s − w_s/2``, ``w_s ~ N(0, 1)``: a
  statement-by-arm interaction that averages out). A difference is rejected when its 95 % interval from
  ``stats compare --scoring-metric`` excludes 0: ``cr2`` (the linearised difference,
  :func:`causalgraph.stats.compare.confusion_influence`, CR2 t) and ``bootstrap`` (paired resamples).

The interval is computed on every design here; what ships below the minimum number of statements is
"not estimable" (docs/statistics.md#scoring-metrics). Usage:
``python benchmarks/bench_scoring_metric_level.py [N] [seed] [coverage|paired|all] [G,G…]`` (defaults
1000, 0, all, 8,15,30,63). Needs ``CAUSALGRAPH_DATA``.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
from scipy.special import expit, logit

from bench_rank_level import expected_accuracy, statements

P = 0.75
METRICS = ("mcc", "balanced_accuracy")


def answers(gold: np.ndarray, ease: np.ndarray, rng) -> np.ndarray:
    """Label indices: right with probability expit(logit P + ease), else the other of two labels."""
    right = rng.random(len(gold)) < expit(logit(P) + ease)
    return np.where(right, gold, 1 - gold)


def records(gold: np.ndarray, answer: np.ndarray, groups: np.ndarray, labels) -> list[dict]:
    return [{"task": "ccr-member", "variant": "A_5", "item_id": f"i{i}", "gold": labels[g], "label": labels[a],
             "meta": {"statement_id": f"s{s}"}} for i, (g, a, s) in enumerate(zip(gold, answer, groups))]


def targets(stmts, labels) -> dict[str, float]:
    """Each metric of the expected confusion matrix (one statement draw), at the expected accuracy."""
    from causalgraph.scoring.scoring_metrics import get_scoring_metric

    c = expected_accuracy(P)
    pos = np.mean([(g == 0).sum() for g in stmts])
    neg = np.mean([(g == 1).sum() for g in stmts])
    m = np.array([[pos * c, pos * (1 - c), 0.0], [neg * (1 - c), neg * c, 0.0]])
    return {name: get_scoring_metric(name).value(m, labels, labels[0]) for name in METRICS}


def draw(stmts, G, rng):
    pick = rng.integers(0, len(stmts), G)
    gold = [stmts[i] for i in pick]
    groups = np.concatenate([np.full(len(g), s) for s, g in enumerate(gold)])
    return np.concatenate(gold), groups


def coverage(stmts, labels, G, n, rng) -> dict[str, float]:
    from causalgraph.bench.scoring import scoring_metric_scores
    from causalgraph.scoring.scoring_metrics import get_scoring_metric
    from causalgraph.tasks import get_task

    spec, metrics = get_task("ccr-member"), [get_scoring_metric(m) for m in METRICS]
    want = targets(stmts, labels)
    hits = {m: 0 for m in METRICS}
    given = {m: 0 for m in METRICS}
    for rep in range(n):
        gold, groups = draw(stmts, G, rng)
        ease = rng.normal(size=G)[groups]
        out = scoring_metric_scores(records(gold, answers(gold, ease, rng), groups, labels), spec, metrics,
                                    n_boot=499, seed=rep, level=0.95, minimum=False)
        for m in METRICS:
            ci = out["scoring_metrics_ci95"][m]
            if ci is not None:
                given[m] += 1
                hits[m] += ci[0] <= want[m] <= ci[1]
    return {m: hits[m] / given[m] if given[m] else math.nan for m in METRICS}


def paired(stmts, labels, G, n, tau, rng) -> dict[str, float]:
    from causalgraph.scoring.scoring_metrics import get_scoring_metric
    from causalgraph.stats.compare import _scoring_metric_diffs
    from causalgraph.tasks import get_task

    spec, metrics = get_task("ccr-member"), [get_scoring_metric(m) for m in METRICS]
    rejected = {(m, how): 0 for m in METRICS for how in ("cr2", "bootstrap")}
    given = dict.fromkeys(rejected, 0)
    for rep in range(n):
        gold, groups = draw(stmts, G, rng)
        u, w = rng.normal(size=G), rng.normal(size=G)
        ans_a = answers(gold, (u + tau * w / 2)[groups], rng)
        ans_b = answers(gold, (u - tau * w / 2)[groups], rng)
        recs_a, recs_b = records(gold, ans_a, groups, labels), records(gold, ans_b, groups, labels)
        idx = [list(np.flatnonzero(groups == s)) for s in range(G)]
        for how in ("cr2", "bootstrap"):
            row = {"arm_a": "a", "arm_b": "b"}
            _scoring_metric_diffs(row, metrics, spec, recs_a, recs_b, idx, n_boot=499, seed=rep, level=0.95,
                                  interval=how, minimum=False)
            for m in METRICS:
                lo, hi = row[f"{m}_ci_low"], row[f"{m}_ci_high"]
                if lo is not None:
                    given[(m, how)] += 1
                    rejected[(m, how)] += not lo <= 0 <= hi
    return {f"{m} {how}": rejected[(m, how)] / given[(m, how)] if given[(m, how)] else math.nan
            for m, how in rejected}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    which = sys.argv[3] if len(sys.argv) > 3 else "all"
    designs = tuple(int(g) for g in sys.argv[4].split(",")) if len(sys.argv) > 4 else (8, 15, 30, 63)
    stmts, labels = statements("ccr-member")
    print(f"targets at p = {P}: " + ", ".join(f"{k} {v:.4f}" for k, v in targets(stmts, labels).items()))
    rng = np.random.default_rng(seed)
    for G in designs:
        t0 = time.perf_counter()
        if which in ("coverage", "all"):
            cov = coverage(stmts, labels, G, n, rng)
            print(f"G={G:3d} coverage  " + "  ".join(f"{k} {v:.3f}" for k, v in cov.items())
                  + f"  ({n} datasets, {time.perf_counter() - t0:.0f} s)", flush=True)
        if which in ("paired", "all"):
            for tau in (0.0, 1.0):
                t0 = time.perf_counter()
                rej = paired(stmts, labels, G, n, tau, rng)
                print(f"G={G:3d} tau={tau:g} rejected  " + "  ".join(f"{k} {v:.3f}" for k, v in rej.items())
                      + f"  ({n} datasets, {time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
