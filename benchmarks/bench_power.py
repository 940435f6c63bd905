"""Analytic against simulated power of the statement-clustered test (``stats power``, issue 37).

The grid of docs/statistics.md: n ∈ {100, 500, 2000} items × discordance {0.1, 0.4} × intra-statement
correlation ρ ∈ {0, 0.25, 0.5}, Δ = discordance / 4, statement sizes cycled from ClimateCause's 63
``ccr-member`` A_5 statements (the last one cut to reach n). Prints, per cell, the analytic power, the
simulated one (``N_SIM`` datasets, seed n; Monte-Carlo SE √(p(1 − p)/N_SIM)) and their difference.

Usage: ``python benchmarks/bench_power.py [N_SIM] [mcnemar|clustered] [DISCORDANCES] [ICCS]`` (default 4000,
clustered, ``0.1,0.4`` and ``0,0.25,0.5``; about 20 s here). The finer grid of docs/statistics.md that places
the analytic mode's limit: ``python benchmarks/bench_power.py 4000 clustered 0.1,0.15,0.2,0.25,0.3,0.4
0,0.1,0.25,0.5``.
"""

from __future__ import annotations

import sys
import time

from causalgraph.stats.power import Design, power

#: ClimateCause's ccr-member A_5 statement sizes (512 items in 63 statements).
SIZES63 = [2] * 5 + [3] * 9 + [4] * 11 + [5] * 5 + [6] * 4 + [7] * 3 + [8] * 5 + [9] * 6 + [11] * 4 + [12] * 2 + \
    [14] * 3 + [15, 17, 18, 23, 41, 43]


def sizes(n: int) -> list[int]:
    """Statement sizes cycled from :data:`SIZES63` until ``n`` items, the last statement cut to fit."""
    out, i = [], 0
    while sum(out) < n:
        out.append(SIZES63[i % len(SIZES63)])
        i += 1
    out[-1] -= sum(out) - n
    return out


def main() -> None:
    n_sim = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    test = sys.argv[2] if len(sys.argv) > 2 else "clustered"
    discs = [float(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0.1,0.4").split(",")]
    iccs = [float(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "0,0.25,0.5").split(",")]
    t0 = time.time()
    print(f"# {test}: analytic against {n_sim} simulated datasets per cell")
    print("n  discordance  icc  analytic  simulated  difference")
    for n in (100, 500, 2000):
        for disc in discs:
            for icc in iccs:
                d = Design(sizes(n), disc * 3 / 8, disc * 5 / 8, icc)
                a = power(d, test)
                s = power(d, test, mode="simulation", n_sim=n_sim, seed=n)
                print(f"{n}  {disc}  {icc}  {a:.4f}  {s:.4f}  {a - s:+.4f}", flush=True)
    print(f"# {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
