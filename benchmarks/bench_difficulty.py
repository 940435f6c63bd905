"""Coverage of the difficulty model's 95 % intervals, by simulation (docs/benchmarks.md#why-models-fail).

Correctness is drawn from a known logistic model of C(s) (``c_norm``) and C^nest (``c_nest``), odds
ratios 0.6 and 1.3 per SD, intercept 0.5, items independent given the features, and
``stats.difficulty.fit_difficulty`` (logit, SEs clustered by statement) is fitted to each draw.
Two designs:

* ``synthetic``: 63 statements × 8 items, both features normal at the statement level (the design of
  tests/stats/test_difficulty.py);
* ``climatecause``: the 512 ``ccr-member`` items of ClimateCause with their statements' real C(s)
  and C^nest (C^nest is non-zero in 12 of the 63 statements), needs ``CAUSALGRAPH_DATA``.

Usage: ``python benchmarks/bench_difficulty.py [N] [seed]`` (default 200 simulations, seed 0).
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import pandas as pd

from causalgraph.stats.difficulty import _statement_features, fit_difficulty

TRUE_OR = {"c_norm": 0.6, "c_nest": 1.3}


def synthetic(rng):
    sid = np.repeat([f"s{i:02d}" for i in range(63)], 8)
    return pd.DataFrame({"statement_id": sid, "c_norm": np.repeat(rng.normal(0.3, 0.2, 63), 8),
                         "c_nest": np.repeat(rng.normal(2.0, 1.0, 63), 8)})


def climatecause(rng):
    import causalgraph as cg
    from causalgraph.tasks import get_task

    corpus = cg.load_climatecause()
    values = _statement_features(corpus)
    sid = [it.meta["statement_id"] for it in get_task("ccr-member").items(corpus, "A_5")]
    return pd.DataFrame({"statement_id": sid, **{c: [values[s][c] for s in sid] for c in TRUE_OR}})


def coverage(frame, rng, n):
    z = {c: (frame[c] - frame[c].mean()) / frame[c].std(ddof=0) for c in TRUE_OR}
    p = 1 / (1 + np.exp(-(0.5 + sum(math.log(TRUE_OR[c]) * z[c] for c in TRUE_OR))))
    covered = {c: 0 for c in TRUE_OR}
    for _ in range(n):
        frame["correct"] = rng.random(len(frame)) < p
        for row in fit_difficulty(frame, list(TRUE_OR)).rows:
            covered[row["feature"]] += row["ci_low"] <= TRUE_OR[row["feature"]] <= row["ci_high"]
    return covered


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for name, build in (("synthetic", synthetic), ("climatecause", climatecause)):
        rng = np.random.default_rng(seed)
        try:
            frame = build(rng)
        except Exception as exc:  # the real corpus may be absent
            print(f"{name}: skipped ({exc})")
            continue
        t = time.perf_counter()
        cov = coverage(frame, rng, n)
        dt = time.perf_counter() - t
        print(f"{name}: {len(frame)} items, {frame.statement_id.nunique()} statements, {n} simulations: "
              + ", ".join(f"{c} {k / n:.1%}" for c, k in cov.items())
              + f", both {sum(cov.values()) / (2 * n):.1%}; {dt / n * 1000:.0f} ms per fit")


if __name__ == "__main__":
    main()
