"""Coverage of the intervals that had no simulation (issue 37): rank intervals and score intervals of
``stats compare --rank``, and the multiclass ``macro_f1_ci95`` of run scores.

Designs as in ``bench_stats_level.py``: G = 8, 15, 30, 63 statements drawn with replacement from
ClimateCause's causal statements, each bringing its real items of one task and variant and their gold
labels; each drawn statement gets a fresh ease ``u_s ~ N(0, 1)`` on the logit scale.

* **Ranks** (``rank``): four arms answer every ``ccr-member`` A_5 item, arm a right with probability
  ``expit(logit p_a + u_s)``, p = 0.85, 0.78, 0.70, 0.60 (shared ease: the arms find the same statements
  hard). The target of arm a: its F1 over the statement population, the ratio of expected counts
  (exact: the expected accuracy is ∫ expit(logit p_a + u) dφ(u)), and its rank among the four targets.
  Measured per arm: how often the CR2 t interval of the score (``ci_low``–``ci_high``) holds the target
  F1, and how often ``rank_low``–``rank_high`` holds the target rank; :func:`causalgraph.stats.ranking.rank_arms`
  itself (499 resamples) on each dataset.
* **Macro F1** (``macro``): one arm answers ``ccr-position`` A_5 items (four labels), right with probability
  ``expit(logit 0.7 + u_s)``, otherwise one of the other labels at random; the target is the macro F1 of
  the expected counts; the interval is :func:`causalgraph.bench.scoring.bootstrap_interval` (what
  ``metrics.json``'s ``macro_f1_ci95`` ships, 499 resamples).

Usage: ``python benchmarks/bench_rank_level.py [N] [seed] [rank|macro|all] [G,G…] [p,p,…]`` (defaults 1000, 0,
all, 8,15,30,63, the arms' p above; ``0.78,0.76,0.74,0.72`` is the close-arms design of docs/statistics.md).
Needs ``CAUSALGRAPH_DATA``.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
from scipy.special import expit, logit

P_ARMS = (0.85, 0.78, 0.70, 0.60)
P_MACRO = 0.7


def statements(task: str, variant: str = "A_5") -> tuple[list[np.ndarray], tuple[str, ...]]:
    """Per ClimateCause statement, its items' gold labels (as label indices) for ``task``; and the labels."""
    import causalgraph as cg
    from causalgraph.tasks import get_task

    spec = get_task(task)
    labels = tuple(spec.labels)
    by: dict[str, list[int]] = {}
    for it in spec.items(cg.load_climatecause(), variant):
        by.setdefault(it.meta["statement_id"], []).append(labels.index(it.gold))
    return [np.array(by[s]) for s in sorted(by)], labels


def expected_accuracy(p: float) -> float:
    """∫ expit(logit p + u) dφ(u), by Gauss–Hermite quadrature (80 nodes)."""
    x, w = np.polynomial.hermite_e.hermegauss(80)
    return float((w * expit(logit(p) + x)).sum() / w.sum())


def target_f1(stmts, c: float) -> float:
    """F1 of the positive label (index 0, ``yes``) from expected counts per statement draw."""
    pos = np.mean([(g == 0).sum() for g in stmts])
    neg = np.mean([(g != 0).sum() for g in stmts])
    return 2 * pos * c / (2 * pos * c + neg * (1 - c) + pos * (1 - c))


def target_macro_f1(stmts, n_labels: int, c: float) -> float:
    per = np.array([np.mean([(g == k).sum() for g in stmts]) for k in range(n_labels)])
    f1s = []
    for k in range(n_labels):
        tp, fn = per[k] * c, per[k] * (1 - c)
        fp = sum(per[j] * (1 - c) / (n_labels - 1) for j in range(n_labels) if j != k)
        if per[k] > 0:
            f1s.append(2 * tp / (2 * tp + fp + fn))
    return float(np.mean(f1s))


def draw(stmts, G, rng):
    pick = rng.integers(0, len(stmts), G)
    gold = [stmts[i] for i in pick]
    ease = rng.normal(size=G)
    groups = np.concatenate([np.full(len(g), s) for s, g in enumerate(gold)])
    return np.concatenate(gold), ease[groups], groups


def rank_level(stmts, G, n, rng, arms=P_ARMS) -> dict:
    from causalgraph.stats.ranking import rank_arms

    cs = [expected_accuracy(p) for p in arms]
    targets = [target_f1(stmts, c) for c in cs]
    true_rank = {f"arm{a}": r for a, r in zip(range(len(arms)), np.argsort(np.argsort(-np.array(targets))) + 1)}
    cover_score = dict.fromkeys(true_rank, 0)
    cover_rank = dict.fromkeys(true_rank, 0)
    undefined = 0
    for k in range(n):
        gold, ease, groups = draw(stmts, G, rng)
        counts, correct = {}, {}
        for a, p in enumerate(arms):
            right = rng.random(len(gold)) < expit(logit(p) + ease)
            pred_yes = np.where(right, gold == 0, gold != 0)
            tp = (pred_yes & (gold == 0)).astype(int)
            fp = (pred_yes & (gold != 0)).astype(int)
            fn = (~pred_yes & (gold == 0)).astype(int)
            counts[f"arm{a}"] = np.column_stack([tp, fp, fn])
            correct[f"arm{a}"] = right
        rows = rank_arms(counts, correct, [f"s{g}" for g in groups], n_boot=499, seed=k)
        for r in rows:
            a = r["arm"]
            if not (r["ci_low"] == r["ci_low"] and r["rank_low"] == r["rank_low"]):
                undefined += 1
                continue
            cover_score[a] += r["ci_low"] <= targets[int(a[3:])] <= r["ci_high"]
            cover_rank[a] += r["rank_low"] <= true_rank[a] <= r["rank_high"]
    return {"targets": targets, "score": {a: v / n for a, v in cover_score.items()},
            "rank": {a: v / n for a, v in cover_rank.items()}, "undefined": undefined}


def macro_level(stmts, labels, G, n, rng) -> dict:
    from causalgraph.bench.scoring import bootstrap_interval

    L = len(labels)
    target = target_macro_f1(stmts, L, expected_accuracy(P_MACRO))
    cover = undefined = 0
    for k in range(n):
        gold, ease, groups = draw(stmts, G, rng)
        right = rng.random(len(gold)) < expit(logit(P_MACRO) + ease)
        other = (gold + rng.integers(1, L, len(gold))) % L  # one of the other labels, uniformly
        pred = np.where(right, gold, other)
        recs = [{"gold": labels[g], "label": labels[p], "meta": {"statement_id": f"s{s}"}}
                for g, p, s in zip(gold, pred, groups)]
        lo, hi = bootstrap_interval(recs, "macro_f1", kind="multiclass", labels=labels, n_boot=499, seed=k)
        if not (lo == lo and hi == hi):
            undefined += 1
            continue
        cover += lo <= target <= hi
    return {"target": target, "cover": cover / n, "undefined": undefined}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    which = sys.argv[3] if len(sys.argv) > 3 else "all"
    designs = [int(g) for g in sys.argv[4].split(",")] if len(sys.argv) > 4 else [8, 15, 30, 63]
    arms = tuple(float(p) for p in sys.argv[5].split(",")) if len(sys.argv) > 5 else P_ARMS
    t0 = time.time()
    if which in ("rank", "all"):
        stmts, _ = statements("ccr-member")
        print(f"# ranks: {n} datasets per design, arms p = {arms}")
        print("G  " + "  ".join(f"score_cover_arm{a}" for a in range(len(arms))) + "  " +
              "  ".join(f"rank_cover_arm{a}" for a in range(len(arms))) + "  undefined")
        for G in designs:
            o = rank_level(stmts, G, n, np.random.default_rng([seed, G, 1]), arms)
            print(f"{G}  " + "  ".join(f"{o['score'][f'arm{a}']:.3f}" for a in range(len(arms))) + "  " +
                  "  ".join(f"{o['rank'][f'arm{a}']:.3f}" for a in range(len(arms))) +
                  f"  {o['undefined']}   targets {[round(t, 4) for t in o['targets']]}  ({time.time() - t0:.0f} s)",
                  flush=True)
    if which in ("macro", "all"):
        stmts, labels = statements("ccr-position")
        print(f"# macro F1 (ccr-position A_5, labels {labels}): {n} datasets per design, p = {P_MACRO}")
        print("G  macro_f1_cover  undefined  target")
        for G in designs:
            o = macro_level(stmts, labels, G, n, np.random.default_rng([seed, G, 2]))
            print(f"{G}  {o['cover']:.3f}  {o['undefined']}  {o['target']:.4f}  ({time.time() - t0:.0f} s)",
                  flush=True)


if __name__ == "__main__":
    main()
