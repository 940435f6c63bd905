"""Intervals over statements (clusters), honest about few statements and undefined resamples.

Two routes. **Linearised, cluster-robust t** (:func:`ratio_influence`, :func:`cluster_t_interval`):
accuracy and F1 are ratios of item totals (F1 = Σ 2tp / Σ (2tp + fp + fn)); each item's influence
on the ratio is ``(a_i − R d_i) / mean(d)``, and the mean influence gets a CR2 standard error with
Bell–McCaffrey degrees of freedom (:mod:`causalgraph.stats.cr2`), so that one or two large
statements count for what they are. **Bootstrap** (:func:`cluster_interval`), below.

A percentile interval of a statement (cluster) bootstrap is too narrow when the statements are few:
the resamples' spread estimates the variance with the plug-in factor (G − 1)/G, and the normal shape
ignores that the variance itself is estimated from G clusters. :func:`cluster_interval` widens the
percentile interval around the estimate by ``√(G/(G−1)) · t_{G−1, 1−α/2} / z_{1−α/2}`` (the small-sample
factor and the t quantile of a cluster-robust t interval), keeping its asymmetry, and clips it to the
metric's range. Resamples where the metric is undefined (NaN: no positive drawn for F1) are left out,
and their share returned; above ``max_undefined`` the interval is not estimable (NaN, NaN).
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

# One definition of the interval (and of its widening factor), shared with the run scores.
from ..scoring.scores import percentile_interval

__all__ = ["cluster_interval", "statement_weights", "ratio_influence", "cluster_t_interval",
           "intercept_cr2", "bell_mccaffrey_traces"]


def cluster_interval(values: np.ndarray, point: float, n_clusters: int, *, level: float = 0.95,
                     small_sample: bool = True, bounds: Optional[tuple[float, float]] = (0.0, 1.0),
                     max_undefined: float = 0.5) -> tuple[float, float]:
    """A bootstrap interval from resampled values of a metric.

    Parameters
    ----------
    values
        The metric in each resample (NaN where undefined).
    point
        The estimate on the data.
    n_clusters
        Statements resampled (G).
    level
        Coverage.
    small_sample
        Widen the percentile interval around ``point`` by
        :func:`causalgraph.scoring.scores.small_sample_factor` (default); ``False``: the plain percentile
        interval.  The rule is :func:`causalgraph.scoring.scores.percentile_interval`, which the run
        scores share.
    bounds
        The metric's range to clip to (``None``: unbounded, as for a difference of F1 use (−1, 1)).
    max_undefined
        Largest share of undefined resamples for which an interval is still given.

    Returns
    -------
    (low, high)
        ``(nan, nan)`` when not estimable (``point`` undefined, fewer than 2 statements, or too many
        undefined resamples).

    Examples
    --------
    >>> v = np.array([0.6, 0.7, 0.8, 0.9, np.nan])
    >>> [round(x, 4) for x in cluster_interval(v, 0.75, 30, small_sample=False, level=0.5)]
    [0.675, 0.825]
    """
    if point is None or not np.isfinite(point) or n_clusters < 2:
        return (math.nan, math.nan)
    return percentile_interval(values, point, n_clusters, level=level, widen=small_sample, bounds=bounds,
                               max_undefined=max_undefined)[0]


def statement_weights(n_clusters: int, n_boot: int, seed: int) -> np.ndarray:
    """``n_boot × G`` multinomial counts: how often each statement is drawn in each resample.

    Examples
    --------
    >>> w = statement_weights(5, 3, 0)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 5), [5, 5, 5])
    """
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_clusters, np.full(n_clusters, 1.0 / n_clusters), size=n_boot)


def ratio_influence(num: np.ndarray, den: np.ndarray) -> tuple[float, np.ndarray]:
    """``(R, u)``: the ratio of totals ``R = Σ num / Σ den`` and each item's influence ``u_i = (num_i − R den_i) / mean(den)``.

    ``R`` is NaN (and ``u`` all NaN) when ``Σ den = 0``: F1 with no positive anywhere.

    Examples
    --------
    >>> r, u = ratio_influence(np.array([2.0, 0.0, 2.0]), np.array([2.0, 1.0, 3.0]))
    >>> round(r, 4), [round(float(x), 4) for x in u]
    (0.6667, [0.3333, -0.3333, 0.0])
    """
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    total = den.sum()
    if not total > 0:
        return math.nan, np.full(len(num), math.nan)
    r = float(num.sum() / total)
    return r, (num - r * den) / den.mean()


def cluster_t_interval(point: float, influence: np.ndarray, groups, *, level: float = 0.95,
                       bounds: Optional[tuple[float, float]] = (0.0, 1.0)) -> dict[str, float]:
    """``point ± t_ν · SE`` with the CR2 standard error of the mean influence and Bell–McCaffrey ν.

    Parameters
    ----------
    point
        The estimate (a ratio, or a difference of two on the same items).
    influence
        Each item's influence (:func:`ratio_influence`; for a paired difference, B's minus A's).
    groups
        Each item's statement.
    level, bounds
        Coverage; the range to clip to (``None``: none).

    Returns
    -------
    dict
        ``low``, ``high``, ``se``, ``df`` and ``p`` (two-sided, of ``point = 0``); NaN when not
        estimable (undefined point, fewer than 2 statements).

    Examples
    --------
    >>> g = np.repeat(np.arange(6), 4)
    >>> u = np.tile([0.1, -0.1, 0.2, -0.2], 6) + np.repeat(np.linspace(-0.3, 0.3, 6), 4)
    >>> r = cluster_t_interval(0.5, u - u.mean(), g)
    >>> round(r["df"], 2), r["low"] < 0.5 < r["high"]
    (5.0, True)
    """
    from scipy.stats import t as student

    nan = {"low": math.nan, "high": math.nan, "se": math.nan, "df": math.nan, "p": math.nan}
    u = np.asarray(influence, dtype=float)
    labels = list(groups)
    if point is None or not np.isfinite(point) or np.isnan(u).any() or len(set(labels)) < 2:
        return nan
    se, df = intercept_cr2(u, labels)
    if not se > 0:
        # Every item's influence is 0 (a perfect score): the statements agree exactly.
        return {"low": point, "high": point, "se": 0.0, "df": df, "p": 1.0 if point == 0 else 0.0}
    if not np.isfinite(df) or df <= 0:
        return nan
    q = float(student.ppf(1 - (1 - level) / 2, df))
    lo, hi = point - q * se, point + q * se
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return {"low": float(lo), "high": float(hi), "se": se, "df": df, "p": float(2 * student.sf(abs(point) / se, df))}


def intercept_cr2(u: np.ndarray, groups) -> tuple[float, float]:
    """``(SE, ν)``: CR2 standard error and Bell–McCaffrey df of the mean of ``u`` over statements, in closed form.

    For an intercept alone the hat matrix is ``J / n``, so ``A_g = (I − J_g/n)^{-1/2}`` scales a
    statement's residual total ``S_g`` by ``1 / √(1 − n_g/n)``: ``SE² = Σ S_g² / (1 − n_g/n) / n²``;
    and the Bell–McCaffrey matrix is ``G × G``: ``D_a (diag(n_g) − n f f') D_a`` with ``f = n_g/n``,
    ``a_g = 1/(n √(1 − f_g))``. Equal to :func:`causalgraph.stats.cr2.cr2` with ``X = 1`` (tested),
    without its per-statement eigen-decompositions (34,164 items in milliseconds).

    Examples
    --------
    >>> se, df = intercept_cr2(np.array([1.0, -1.0, 2.0, 0.0, -2.0, 0.0]), [0, 0, 1, 1, 2, 2])
    >>> round(se, 4), round(df, 4)
    (0.5774, 2.0)
    """
    u = np.asarray(u, dtype=float)
    labels = list(groups)
    index = {g: i for i, g in enumerate(dict.fromkeys(labels))}
    codes = np.array([index[g] for g in labels])
    n = len(u)
    sizes = np.bincount(codes).astype(float)
    e = u - u.mean()
    S = np.bincount(codes, weights=e, minlength=len(sizes))
    f = sizes / n
    keep = f < 1
    var = float((S[keep] ** 2 / (1 - f[keep])).sum()) / (n * n)
    tr, tr2 = bell_mccaffrey_traces(sizes)
    return math.sqrt(var), (tr * tr / tr2 if tr2 > 0 else math.nan)


def bell_mccaffrey_traces(sizes, icc: float = 0.0) -> tuple[float, float]:
    """``(tr K, tr K²)`` of the Bell–McCaffrey matrix of a mean over statements of these sizes, in O(G).

    ``K = D_a [(1 − ρ)(diag(n_g) − n f f') + ρ M'M] D_a`` with ``f = n_g/n``, ``a_g = 1/(n √(1 − f_g))``
    and ``M_st = n_s (δ_st − f_t)`` when items correlate ``ρ = icc`` within a statement (``ρ = 0``: the
    df of :func:`intercept_cr2`). ``K`` is a diagonal plus a rank-2 matrix,
    ``diag(a² ((1 − ρ) n_g + ρ n_g²)) + α x x' − ρ (y x' + x y')`` with ``x = a f``, ``y = a n_g²`` and
    ``α = ρ Σ n_g² − (1 − ρ) n``, so the traces need no ``G × G`` matrix (a run whose items name no
    statement has as many statements as items). Satterthwaite's df is ``tr² / tr(K²)``.

    Examples
    --------
    >>> tr, tr2 = bell_mccaffrey_traces([4, 4, 4, 4])
    >>> round(tr * tr / tr2, 6)
    3.0
    """
    s = np.asarray(sizes, dtype=float)
    n = s.sum()
    f = s / n
    keep = f < 1  # one statement holding every item: its residual total is 0, it contributes nothing
    a = np.zeros_like(s)
    a[keep] = 1 / (n * np.sqrt(1 - f[keep]))
    q = s * s
    d = a * a * ((1 - icc) * s + icc * q)
    x, y = a * f, a * q
    alpha = float(icc * q.sum() - (1 - icc) * n)
    xx, xy, yy = float(x @ x), float(x @ y), float(y @ y)
    tr = float(d.sum() + alpha * xx - 2 * icc * xy)
    # tr K² = Σ d² + 2 Σ d_g L_gg + tr L², L = U C U' with U = [x, y], C = [[α, −ρ], [−ρ, 0]]
    CU = np.array([[alpha, -icc], [-icc, 0.0]]) @ np.array([[xx, xy], [xy, yy]])
    tr2 = float((d * d).sum() + 2 * (d * (alpha * x * x - 2 * icc * x * y)).sum() + np.trace(CU @ CU))
    return tr, tr2
