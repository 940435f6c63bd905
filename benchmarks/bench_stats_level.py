"""Error rates and coverage of the statistics under no true effect, on ClimateCause-shaped designs (issue 37).

Designs: G = 8, 15, 30, 63 statements drawn with replacement from ClimateCause's 63 causal statements,
each bringing its real ``ccr-member`` A_5 items (2 to 43 per statement, 512 in all), their gold labels
and the statement's real C(s) and token count.  Every statement gets a fresh random ease
``u_s ~ N(0, 1)`` (on the logit scale: the items of a statement are right or wrong together).

* **Difficulty terms** (``stats difficulty --features c_norm,n_tokens``): correctness
  ``~ Bernoulli(expit(logit 0.7 + σ u_s))``, independent of the features (σ = 1; the ``noisy``
  setting σ = 0 is the ``mock/noisy`` case). A term is rejected when its p < 0.05 (and, for CR2,
  it is not marked as carried by one statement). ``before``: statsmodels' clustered SEs with t on
  G − 1 df (CR1); ``after``: CR2 with Bell–McCaffrey df (:mod:`causalgraph.stats.cr2`).
  Coverage of the 95 % odds-ratio interval of a null term is 1 − its rejection rate.
* **Paired arms** (``stats compare``/``stats mcnemar``): two arms answer every item; arm A right
  with probability ``expit(logit 0.75 + u_s + τ w_s / 2)``, arm B with ``− τ w_s / 2``, ``w_s ~ N(0, 1)``:
  no difference on average, and with τ > 0 a statement-by-arm interaction (one arm better on some
  statements, worse on others). McNemar exact and mid-p on correctness; the statement bootstrap of
  the F1 difference rejects when its 95 % interval excludes 0 (``percentile``: as before;
  ``small-G``: the percentile interval widened by √(G/(G−1))·t_{G−1}/z, what
  :func:`causalgraph.stats.resampling.cluster_interval` ships).
  ``acc_diff_cr2``: the accuracy difference (what McNemar tests) with a CR2 t test over statements.
* **Coverage** of the 95 % bootstrap intervals of arm A's accuracy and F1 (the target: the ratio of
  expected counts over the statement population, computed exactly below).

Usage: ``python benchmarks/bench_stats_level.py [N_DIFFICULTY] [N_PAIRED] [seed] [difficulty|paired|mixed|all]
[G,G…]`` (defaults 2000 and 2000, all, G = 8,15,30,63; bootstrap 499 resamples); ``… N 0 SEED mixed`` runs the
mixed model's terms (N datasets per design, G = 15,30,63 unless given). Needs ``CAUSALGRAPH_DATA``.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import pandas as pd
from scipy.special import expit, logit
from scipy.stats import norm, t as student

from causalgraph.errors import ConfigError
from causalgraph.stats.difficulty import _statement_features, fit_difficulty
from causalgraph.stats.mcnemar import mcnemar
from causalgraph.stats.resampling import cluster_interval, cluster_t_interval, ratio_influence

DESIGNS = (8, 15, 30, 63)
ALPHA = 0.05


def corpus_design():
    """Per ClimateCause statement: its ccr-member A_5 items' gold labels, C(s) and token count."""
    import causalgraph as cg
    from causalgraph.tasks import get_task

    corpus = cg.load_climatecause()
    values = _statement_features(corpus)
    by: dict[str, list[bool]] = {}
    for it in get_task("ccr-member").items(corpus, "A_5"):
        by.setdefault(it.meta["statement_id"], []).append(it.gold == "yes")
    sids = sorted(by)
    return [{"sid": s, "gold": np.array(by[s]), "c_norm": values[s]["c_norm"], "n_tokens": values[s]["n_tokens"]}
            for s in sids]


def null_frame(stmts, G, sigma, rng):
    """One dataset under no feature effect: G statements drawn with replacement, each item right with
    probability ``expit(logit 0.7 + sigma u_s)``; one row per item (statement_id, c_norm, n_tokens, correct)."""
    pick = rng.integers(0, len(stmts), G)
    u = rng.normal(size=G)
    rows = []
    for k, i in enumerate(pick):
        st = stmts[i]
        p = expit(logit(0.7) + sigma * u[k])
        for _ in range(len(st["gold"])):
            rows.append((f"{st['sid']}#{k}", st["c_norm"], st["n_tokens"], rng.random() < p))
    return pd.DataFrame(rows, columns=["statement_id", "c_norm", "n_tokens", "correct"])


def difficulty_level(stmts, G, n, sigma, rng):
    """Rejection counts per term (before, after), fits, refusals, and fits whose test is marked not estimable
    (fewer than MIN_STATEMENTS_TEST statements: ``after`` is then the CR2 test's own rate, which ships as
    not estimable)."""
    rej = {m: {"c_norm": 0, "n_tokens": 0} for m in ("cr1", "cr2")}
    fitted = refused = untested = 0
    for _ in range(n):
        frame = null_frame(stmts, G, sigma, rng)
        try:
            fit = fit_difficulty(frame, ["c_norm", "n_tokens"])
        except ConfigError:
            refused += 1
            continue
        fitted += 1
        untested += any(row["p"] != row["p"] for row in fit.rows)
        for row, p1, p2 in zip(fit.rows, cr1_pvalues(fit), cr2_pvalues(fit)):
            rej["cr2"][row["feature"]] += p2 < ALPHA and "carried by" not in (row["note"] or "")
            rej["cr1"][row["feature"]] += p1 < ALPHA
    return rej, fitted, refused, untested


def cr2_pvalues(fit):
    """The CR2 t test of each term, p = 2 P(t_df > |b / se|): the shipped ``p`` where the design supports a test,
    and what it would be where the fit marks the test not estimable (too few statements)."""
    se = np.sqrt(np.diag(fit.cov))[1:]
    return [float(2 * student.sf(abs(b) / s, row["df"])) for b, s, row in zip(fit.params[1:], se, fit.rows)]


def mixed_level(stmts, G, n, sigma, rng):
    """The mixed model's null rejections: before (normal on the posterior SD) and after (Bell-McCaffrey t)."""
    rej = {m: {"c_norm": 0, "n_tokens": 0} for m in ("before", "after")}
    fitted = refused = 0
    for _ in range(n):
        frame = null_frame(stmts, G, sigma, rng)
        try:
            fit = fit_difficulty(frame, ["c_norm", "n_tokens"], model="mixed")
            old = fit_difficulty(frame, ["c_norm", "n_tokens"], model="mixed", se="cr1")
        except ConfigError:
            refused += 1
            continue
        fitted += 1
        for row, before, p2 in zip(fit.rows, old.rows, cr2_pvalues(fit)):
            rej["before"][row["feature"]] += before["p"] < ALPHA
            rej["after"][row["feature"]] += p2 < ALPHA and "carried by" not in (row["note"] or "")
    return rej, fitted, refused


def cr1_pvalues(fit):
    """The method before issue 37 on the same fit: statsmodels' clustered sandwich (CR1, small-sample factor
    G/(G-1)·(N-1)/(N-K)) with t on G - 1 df, written out (tests/stats/test_difficulty.py checks
    ``se="cr1"`` against statsmodels)."""
    X, y = fit.design.X, fit.design.y
    mu = expit(X @ fit.params)
    B = np.linalg.inv(X.T @ (X * (mu * (1 - mu))[:, None]))
    groups = np.asarray(pd.factorize(pd.Series(fit.design.groups))[0])
    G, (N, K) = groups.max() + 1, X.shape
    U = np.zeros((G, K))
    np.add.at(U, groups, X * (y - mu)[:, None])
    cov = B @ (U.T @ U) @ B * G / (G - 1) * (N - 1) / (N - K)
    t = fit.params / np.sqrt(np.diag(cov))
    return list(2 * student.sf(np.abs(t[1:]), G - 1))


def _f1(tp, fp, fn):
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), np.nan)


def paired_level(stmts, G, n, tau, rng, n_boot=499):
    """McNemar exact / mid-p and bootstrap F1-difference rejections; coverage of arm A's intervals."""
    out = {"exact": 0, "midp": 0, "acc_cr2": 0, "boot_pct": 0, "boot_small": 0, "cr2": 0, "cov_acc_pct": 0, "cov_acc_small": 0,
           "cov_acc_cr2": 0, "cov_f1_pct": 0, "cov_f1_small": 0, "cov_f1_cr2": 0, "f1_nan": 0}
    sizes = np.array([len(s["gold"]) for s in stmts])
    pos = np.array([s["gold"].sum() for s in stmts])
    # The target of arm A: expected right answers over the statement population (ratio of expectations).
    grid = np.random.default_rng(12345).normal(size=(200_000, 2))
    m = float(expit(logit(0.75) + grid[:, 0] + tau * grid[:, 1] / 2).mean())
    true_acc = m
    P, N = pos.mean(), (sizes - pos).mean()
    true_f1 = 2 * m * P / (2 * m * P + (1 - m) * N + (1 - m) * P)
    for _ in range(n):
        pick = rng.integers(0, len(stmts), G)
        u, w = rng.normal(size=G), rng.normal(size=G)
        ca, cb, per_a, per_b, items_a, items_b, gid = [], [], [], [], [], [], []
        for k, i in enumerate(pick):
            gold = stmts[i]["gold"]
            base = logit(0.75) + u[k]
            ra = rng.random(len(gold)) < expit(base + tau * w[k] / 2)
            rb = rng.random(len(gold)) < expit(base - tau * w[k] / 2)
            ca += list(ra)
            cb += list(rb)
            gid += [k] * len(gold)
            for r, items in ((ra, items_a), (rb, items_b)):
                # per item: 2tp (numerator of F1) and 2tp + fp + fn (its denominator)
                tp = gold & r
                items += list(zip(2.0 * tp, 2.0 * tp + (~gold & ~r) + (gold & ~r)))
            # A wrong answer flips the label: tp, fp, fn, right, items of this statement
            for r, per in ((ra, per_a), (rb, per_b)):
                tp = int((gold & r).sum())
                fn = int((gold & ~r).sum())
                fp = int((~gold & ~r).sum())
                per.append((tp, fp, fn, int(r.sum()), len(gold)))
        ex = mcnemar(ca, cb, exact=True, labels=(True, False))
        mp = mcnemar(ca, cb, exact=True, midp=True, labels=(True, False))
        out["exact"] += ex.p < ALPHA
        out["midp"] += mp.p < ALPHA
        A, B = np.array(per_a, dtype=float), np.array(per_b, dtype=float)
        wts = rng.multinomial(G, np.full(G, 1.0 / G), size=n_boot)
        sa, sb = wts @ A, wts @ B
        diff = _f1(*sb[:, :3].T) - _f1(*sa[:, :3].T)
        point = float(_f1(*B.sum(0)[:3]) - _f1(*A.sum(0)[:3]))
        for name, small in (("boot_pct", False), ("boot_small", True)):
            lo, hi = cluster_interval(diff, point, G, small_sample=small, bounds=(-1.0, 1.0))
            out[name] += not (lo <= 0 <= hi)
        ia, ib = np.array(items_a), np.array(items_b)
        fa, ua = ratio_influence(ia[:, 0], ia[:, 1])
        fb, ub = ratio_influence(ib[:, 0], ib[:, 1])
        res = cluster_t_interval(fb - fa, ub - ua, gid, bounds=(-1.0, 1.0))
        out["cr2"] += not (res["low"] <= 0 <= res["high"])
        res = cluster_t_interval(fa, ua, gid)
        out["cov_f1_cr2"] += res["low"] <= true_f1 <= res["high"]
        # The accuracy difference (what McNemar tests), clustered: CR2 t with Bell-McCaffrey df.
        d = np.array(cb, dtype=float) - np.array(ca, dtype=float)
        res = cluster_t_interval(float(d.mean()), d - d.mean(), gid, bounds=None)
        out["acc_cr2"] += res["p"] < ALPHA
        racc, uacc = ratio_influence(np.array(ca, dtype=float), np.ones(len(ca)))
        res = cluster_t_interval(racc, uacc, gid)
        out["cov_acc_cr2"] += res["low"] <= true_acc <= res["high"]
        acc = sa[:, 3] / sa[:, 4]
        acc_point = A[:, 3].sum() / A[:, 4].sum()
        f1s = _f1(*sa[:, :3].T)
        f1_point = float(_f1(*A.sum(0)[:3]))
        if np.isnan(f1_point):
            out["f1_nan"] += 1
        for small, tag in ((False, "pct"), (True, "small")):
            lo, hi = cluster_interval(acc, acc_point, G, small_sample=small)
            out[f"cov_acc_{tag}"] += lo <= true_acc <= hi
            lo, hi = cluster_interval(f1s, f1_point, G, small_sample=small)
            out[f"cov_f1_{tag}"] += lo <= true_f1 <= hi
    return out


def main() -> None:
    n_diff = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    n_pair = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    only = sys.argv[4] if len(sys.argv) > 4 else "all"  # difficulty | paired | mixed | all
    designs = tuple(int(g) for g in sys.argv[5].split(",")) if len(sys.argv) > 5 else DESIGNS
    stmts = corpus_design()
    print(f"# {len(stmts)} statements, {sum(len(s['gold']) for s in stmts)} items; seed {seed}")
    if n_diff and only in ("all", "difficulty"):
        print("\n## difficulty terms under no effect (sigma = SD of statement ease), rejection at alpha 0.05")
        print("G  sigma  datasets  fitted  refused  test_not_estimable  term  before(CR1,t G-1)  after(CR2,BM)")
        for sigma in (1.0, 0.0):
            for G in designs:
                t0 = time.time()
                rej, fitted, refused, untested = difficulty_level(stmts, G, n_diff, sigma,
                                                                  np.random.default_rng(seed + G))
                for term in ("c_norm", "n_tokens"):
                    b = rej["cr1"][term] / fitted if fitted else math.nan
                    a = rej["cr2"][term] / fitted if fitted else math.nan
                    print(f"{G:2d}  {sigma:.0f}  {n_diff}  {fitted}  {refused}  {untested}  {term}  {b:.4f}  {a:.4f}"
                          f"   ({time.time() - t0:.0f} s)", flush=True)
    if only == "mixed":
        print("\n## mixed model terms under no effect (sigma 1), rejection at alpha 0.05 (before: posterior SD, "
              "normal; after: what ships)")
        print("G  datasets  fitted  refused  term  before(normal)  after(BM t)")
        for G in (designs if len(sys.argv) > 5 else (15, 30, 63)):
            t0 = time.time()
            rej, fitted, refused = mixed_level(stmts, G, n_diff, 1.0, np.random.default_rng(seed + 7 * G))
            for term in ("c_norm", "n_tokens"):
                print(f"{G:2d}  {n_diff}  {fitted}  {refused}  {term}  {rej['before'][term] / max(fitted, 1):.4f}  "
                      f"{rej['after'][term] / max(fitted, 1):.4f}   ({time.time() - t0:.0f} s)", flush=True)
    if n_pair and only in ("all", "paired"):
        print("\n## paired arms under no difference on average (tau = SD of the statement x arm interaction)")
        print("G  tau  datasets  mcnemar_exact  mcnemar_midp  acc_diff_cr2  boot_diff_pct  boot_diff_smallG  cr2_t_diff  "
              "cov_acc_pct  cov_acc_smallG  cov_acc_cr2  cov_f1_pct  cov_f1_smallG  cov_f1_cr2  f1_undefined")
        for tau in (0.0, 1.0):
            for G in designs:
                t0 = time.time()
                o = paired_level(stmts, G, n_pair, tau, np.random.default_rng(seed + 100 + G))
                f = {k: v / n_pair for k, v in o.items()}
                print(f"{G:2d}  {tau:.0f}  {n_pair}  {f['exact']:.4f}  {f['midp']:.4f}  {f['acc_cr2']:.4f}  {f['boot_pct']:.4f}  "
                      f"{f['boot_small']:.4f}  {f['cr2']:.4f}  {f['cov_acc_pct']:.4f}  {f['cov_acc_small']:.4f}  "
                      f"{f['cov_acc_cr2']:.4f}  {f['cov_f1_pct']:.4f}  {f['cov_f1_small']:.4f}  {f['cov_f1_cr2']:.4f}  "
                      f"{o['f1_nan']}   ({time.time() - t0:.0f} s)",
                      flush=True)


if __name__ == "__main__":
    main()
