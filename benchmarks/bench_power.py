"""Analytic against simulated power of the statement-clustered test (``stats power``, issue 37).

The grid of docs/statistics.md: n ∈ {100, 500, 2000} items × discordance {0.1, 0.4} × intra-statement
correlation ρ ∈ {0, 0.25, 0.5}, Δ = discordance / 4, statement sizes cycled from ClimateCause's 63
``ccr-member`` A_5 statements (the last one cut to reach n). Prints, per cell, the analytic power, the
simulated one (``N_SIM`` datasets, seed n; Monte-Carlo SE √(p(1 − p)/N_SIM)) and their difference.

Usage: ``python benchmarks/bench_power.py [N_SIM] [mcnemar|clustered] [DISCORDANCES] [ICCS] [EFFECT] [SIZES]``
(default 4000, clustered, ``0.1,0.4``, ``0,0.25,0.5``, effect 0.25 (Δ = discordance × EFFECT, split 3:5 at
0.25) and ClimateCause's statement sizes, ``equal8`` for statements of 8 items; about 20 s here). Each row
also gives :func:`clustered_misfit` and whether the analytic clustered power is withheld for it; the last
line counts the cells given and those of them within 2 points. The finer grid of docs/statistics.md that places
the analytic mode's limit: ``python benchmarks/bench_power.py 4000 clustered 0.1,0.15,0.2,0.25,0.3,0.4
0,0.1,0.25,0.5``. ``python benchmarks/bench_power.py 10000 variance`` checks the approximation's parts on four
designs: the mean's variance, the CR2 variance's expectation and its variance, each simulated over the formula
(the last over the scaled χ²_ν's, 2 E[V̂]² / ν).
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from causalgraph.stats.power import MAX_CLUSTERED_MISFIT, Design, _analytic, _cr2_moments, \
    clustered_misfit, design_effect, power

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


def variance_check(n_sim: int) -> None:
    """Simulated over analytic: Var(mean), E[V̂] and Var(V̂) of the CR2 variance (against the scaled χ²_ν)."""
    print("n  discordance  icc  G  nu  var_mean  mean_vhat  var_vhat_over_chi2")
    for n, disc, icc in ((2000, 0.1, 0.25), (500, 0.15, 0.1), (100, 0.1, 0.5), (2000, 0.4, 0.25)):
        d = Design(sizes(n), disc * 3 / 8, disc * 5 / 8, icc)
        s = np.asarray(d.sizes)
        G, N = len(s), int(s.sum())
        groups = np.repeat(np.arange(G), s)
        probs = np.array([d.p_b, 1 - d.discordance, d.p_c])
        values = np.array([-1.0, 0.0, 1.0])
        rng, q = np.random.default_rng(1), math.sqrt(icc)
        means, vhat = [], []
        for done in range(0, n_sim, 1000):  # the draws of power(mode="simulation"), in chunks
            m = min(1000, n_sim - done)
            own = values[rng.choice(3, size=(m, N), p=probs)]
            shared = values[rng.choice(3, size=(m, G), p=probs)][:, groups]
            x = np.where(rng.random((m, N)) < q, shared, own)
            mean = x.mean(axis=1)
            tot = np.zeros((m, G))
            np.add.at(tot.T, groups, (x - mean[:, None]).T)
            means.append(mean)
            vhat.append((tot * tot / (1 - s / N)).sum(axis=1) / (N * N))
        mean_all, v = np.concatenate(means), np.concatenate(vhat)
        var_mean = (d.discordance - d.delta ** 2) * design_effect(d.sizes, icc) / N
        nu, ratio = _cr2_moments(d.sizes, icc)
        print(f"{n}  {disc}  {icc}  {G}  {nu:.1f}  {mean_all.var() / var_mean:.3f}  {v.mean() / (ratio * var_mean):.3f}  "
              f"{v.var() / (2 * (ratio * var_mean) ** 2 / nu):.3f}", flush=True)


def main() -> None:
    n_sim = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    test = sys.argv[2] if len(sys.argv) > 2 else "clustered"
    if test == "variance":
        return variance_check(n_sim)
    discs = [float(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0.1,0.4").split(",")]
    iccs = [float(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "0,0.25,0.5").split(",")]
    effect = float(sys.argv[5]) if len(sys.argv) > 5 else 0.25
    equal = len(sys.argv) > 6 and sys.argv[6] == "equal8"
    t0 = time.time()
    print(f"# {test}: analytic against {n_sim} simulated datasets per cell; delta = {effect:g} x discordance; "
          f"statements {'of 8 items' if equal else 'of ClimateCause sizes'}")
    print("n  discordance  icc  analytic  simulated  difference  misfit  given")
    given = within = 0
    for n in (100, 500, 2000):
        for disc in discs:
            for icc in iccs:
                sz = [8] * (n // 8) if equal else sizes(n)
                d = Design(sz, disc * (1 - effect) / 2, disc * (1 + effect) / 2, icc)
                a = _analytic(d, test, 0.05)  # the raw figure, also where power() withholds it
                s = power(d, test, mode="simulation", n_sim=n_sim, seed=n)
                mis = clustered_misfit(d)
                ok = test != "clustered" or not mis > MAX_CLUSTERED_MISFIT
                given += ok
                within += ok and abs(a - s) <= 0.02
                print(f"{n}  {disc}  {icc}  {a:.4f}  {s:.4f}  {a - s:+.4f}  {mis:.4f}  {'yes' if ok else 'withheld'}",
                      flush=True)
    print(f"# given {given}, within 2 points {within}; {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
