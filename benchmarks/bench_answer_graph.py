"""Coverage of the answer-against-graph gap's statement-bootstrap interval, by simulation (docs/tasks.md).

The design is that of a graph-first CCR run on ClimateCause: ``ccr-member`` ``A_4`` has 512 items in
63 statements (median 6 per statement, mean 8.1, at most 43), so each statement holds a geometric
number of items (mean 8.3).  Every statement has its own answer accuracy ``p`` ~ Beta(4, 2) and its
own graph quality: an item's graph is right (edge F1 1) with probability ``q`` ~ Beta(2, 3), else
its edge F1 is the statement's ``w`` ~ Beta(2, 2) — the items of a statement write graphs of the same
text, so their F1 are alike.  The estimand is the item-weighted gap of the population of statements,
``E[n (p − q − (1 − q) w)] / E[n]``, computed from 200,000 draws.  For each replication the nominal
95 % interval of :func:`causalgraph.stats.answer_graph.answer_graph_summary` (1,000 statement
resamples, percentile widened for few statements) is computed, and we count how often it holds the
estimand.

Usage: ``python benchmarks/bench_answer_graph.py [replications] [seed]`` (default 400, seed 1).
"""

from __future__ import annotations

import sys

import numpy as np

from causalgraph.stats.answer_graph import answer_graph_summary

#: Items per statement: geometric with mean 1 / ITEMS_P (8.3; ClimateCause ccr-member A_4: 8.1).
ITEMS_P = 0.12


def _statements(rng: np.random.Generator, k: int):
    """``k`` statements: items, answer accuracy, chance of a right graph, F1 of a wrong one."""
    return rng.geometric(ITEMS_P, k), rng.beta(4, 2, k), rng.beta(2, 3, k), rng.beta(2, 2, k)


def true_gap(seed: int = 0, draws: int = 200_000) -> float:
    """The item-weighted gap (accuracy − mean edge F1) of the population of statements."""
    n, p, q, w = _statements(np.random.default_rng(seed), draws)
    return float((n * (p - q - (1 - q) * w)).sum() / n.sum())


def coverage(n_statements: int, reps: int, seed: int, *, n_boot: int = 1000) -> tuple[float, float, int]:
    """``(coverage, mean width, replications without an interval)`` of the nominal 95 % gap interval."""
    truth = true_gap()
    rng = np.random.default_rng(seed)
    hits, widths, missing = 0, [], 0
    for r in range(reps):
        n, p, q, w = _statements(rng, n_statements)
        rows = []
        for s in range(n_statements):
            right = rng.random(n[s]) < p[s]
            f1 = np.where(rng.random(n[s]) < q[s], 1.0, w[s])
            rows += [(s, bool(a), float(f)) for a, f in zip(right, f1)]
        ci = answer_graph_summary(rows, n_boot=n_boot, seed=r)["gap_ci95"]
        if ci is None:
            missing += 1
            continue
        hits += ci[0] <= truth <= ci[1]
        widths.append(ci[1] - ci[0])
    done = reps - missing
    return (hits / done if done else float("nan")), (float(np.mean(widths)) if widths else float("nan")), missing


def main(argv: list[str]) -> None:
    reps = int(argv[1]) if len(argv) > 1 else 400
    seed = int(argv[2]) if len(argv) > 2 else 1
    print(f"true gap {true_gap():.4f}")
    print("statements  coverage  mean_width  no_interval")
    for k in (5, 10, 20, 63):
        cov, width, missing = coverage(k, reps, seed)
        print(f"{k:10d}  {cov:8.3f}  {width:10.3f}  {missing:11d}")


if __name__ == "__main__":
    main(sys.argv)
