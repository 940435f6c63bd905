"""Coverage of ``stats consistency --signs``'s statement-bootstrap interval, by simulation (docs/statistics.md).

Each statement holds a geometric number of chains (mean 8, as ClimateCause's 202 multi-hop chains in
17 statements) and its own consistency rate, drawn from Beta(4, 3); the estimand is the chain-weighted
rate of the population of statements (computed from 200,000 draws).  For each replication the
nominal 95 % interval (percentile, widened for few statements) of
:func:`causalgraph.stats.sign_consistency.statement_interval`
(1,000 resamples) is computed and we count how often it holds the estimand.

Usage: ``python benchmarks/bench_sign_consistency.py [replications] [seed]`` (default 400, seed 1).
"""

from __future__ import annotations

import sys

import numpy as np

from causalgraph.stats.sign_consistency import statement_interval


def coverage(n_statements: int, reps: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    big_n, big_p = rng.geometric(0.12, 200_000), rng.beta(4, 3, 200_000)
    truth = (big_n * big_p).sum() / big_n.sum()
    hits, widths = 0, []
    for r in range(reps):
        n, p = rng.geometric(0.12, n_statements), rng.beta(4, 3, n_statements)
        outcomes = np.concatenate([rng.random(k) < q for k, q in zip(n, p)])
        lo, hi = statement_interval(outcomes, np.repeat(np.arange(n_statements), n), n_boot=1000, seed=r)
        hits += lo <= truth <= hi
        widths.append(hi - lo)
    return hits / reps, float(np.mean(widths))


def main(argv: list[str]) -> None:
    reps = int(argv[1]) if len(argv) > 1 else 400
    seed = int(argv[2]) if len(argv) > 2 else 1
    print("statements  coverage  mean_width")
    for k in (7, 17, 40):
        cov, width = coverage(k, reps, seed)
        print(f"{k:10d}  {cov:8.3f}  {width:10.3f}")


if __name__ == "__main__":
    main(sys.argv)
