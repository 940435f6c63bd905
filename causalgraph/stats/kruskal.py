"""Kruskal-Wallis H test with an effect size, and Dunn's post-hoc comparisons.

The Kruskal-Wallis test (Kruskal and Wallis 1952) asks whether ``k``
independent groups come from the same distribution, using ranks, so it
suits skewed scores such as the causal complexity ``C(s)``.  A significant
``H`` says *some* group differs; Dunn's test (Dunn 1964) then compares every
pair of groups on their mean ranks, with the p-values adjusted for the
``k (k − 1) / 2`` comparisons (Holm by default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Optional, Sequence

from ..errors import ConfigError
from .corrections import bonferroni, holm

__all__ = ["KruskalResult", "kruskal", "epsilon_squared", "dunn"]

P_ADJUST = ("holm", "bonferroni", "none")


@dataclass(frozen=True)
class KruskalResult:
    """Outcome of :func:`kruskal`.

    Attributes
    ----------
    H
        Kruskal-Wallis statistic, corrected for ties.
    p
        p-value from χ² with ``k − 1`` degrees of freedom.
    k
        Number of groups.
    n
        Number of observations.
    epsilon2
        Effect size ``(H − k + 1) / (n − k)``, the ClimateCause authors'
        convention (see :func:`epsilon_squared`).
    groups
        Group labels in order of first appearance.
    sizes
        Number of observations per group, same order.
    """

    H: float
    p: float
    k: int
    n: int
    epsilon2: float
    groups: tuple[Any, ...]
    sizes: tuple[int, ...]

    @property
    def df(self) -> int:
        """Degrees of freedom, ``k − 1``."""
        return self.k - 1


def epsilon_squared(H: float, k: int, n: int, *, convention: str = "authors") -> float:
    """Effect size of a Kruskal-Wallis test.

    Parameters
    ----------
    H
        Kruskal-Wallis statistic.
    k
        Number of groups.
    n
        Number of observations.
    convention
        ``"authors"``: ``(H − k + 1) / (n − k)``, the formula behind every
        ε² of the ClimateCause paper's Table 22 (elsewhere called η²_H,
        Cohen 2008); it can be slightly negative when ``H < k − 1``.
        ``"tomczak"``: ``H / (n − 1)``, the rank ε² of Tomczak and Tomczak
        (2014), between 0 and 1.

    Examples
    --------
    >>> round(epsilon_squared(47.9251, 2, 512), 4)   # Table 22, CCR+ECI+RC member 0_4
    0.092
    """
    if k < 2 or n <= k:
        raise ConfigError(f"epsilon_squared needs k >= 2 groups and n > k observations, got k={k}, n={n}")
    if convention == "authors":
        return (H - k + 1) / (n - k)
    if convention == "tomczak":
        return H / (n - 1)
    raise ConfigError(f"epsilon_squared: convention is {convention!r}; expected 'authors' or 'tomczak'")


def _is_number(v: Any) -> bool:
    if v is None or isinstance(v, (str, bytes, bool)):
        return False
    try:
        return not math.isnan(float(v))
    except (TypeError, ValueError):
        return False


def _groups(values: Sequence[float], groups: Sequence[Hashable],
            order: Optional[Sequence[Hashable]]) -> tuple[list[float], list, list]:
    vals, labs = list(values), list(groups)
    if len(vals) != len(labs):
        raise ConfigError(f"values and groups differ in length: {len(vals)} and {len(labs)}")
    bad = [i for i, v in enumerate(vals) if not _is_number(v)]
    if bad:
        raise ConfigError(f"values at positions {bad[:20]} are missing or not numbers "
                          f"(found {[vals[i] for i in bad[:5]]!r}); drop them first")
    nolabel = [i for i, g in enumerate(labs) if g is None or (isinstance(g, float) and g != g)]
    if nolabel:
        raise ConfigError(f"groups at positions {nolabel[:20]} are missing (None/NaN); drop them first")
    seen: list = []
    for g in labs:
        if g not in seen:
            seen.append(g)
    if order is not None:
        order = list(order)
        extra = [g for g in seen if g not in order]
        if extra:
            raise ConfigError(f"groups {extra!r} are not in order={order!r}")
        seen = [g for g in order if g in seen]
    return [float(v) for v in vals], labs, seen


def kruskal(values: Sequence[float], groups: Sequence[Hashable], *,
            order: Optional[Sequence[Hashable]] = None) -> KruskalResult:
    """Kruskal-Wallis H test of ``values`` across ``groups``, with ε².

    Parameters
    ----------
    values
        One number per observation (e.g. ``C(s)`` of an item's statement).
    groups
        One group label per observation (e.g. the predicted label).
    order
        Optional order of the groups in the result (default: first
        appearance).

    Returns
    -------
    KruskalResult

    Raises
    ------
    ConfigError
        Fewer than two groups, ``n <= k``, missing values, or all values
        identical (H is undefined).

    Examples
    --------
    >>> r = kruskal([1, 2, 3, 4, 5, 6], ["a", "a", "a", "b", "b", "b"])
    >>> round(r.H, 4), r.k, r.n, round(r.epsilon2, 4)
    (3.8571, 2, 6, 0.7143)
    """
    from scipy import stats as ss

    vals, labs, seen = _groups(values, groups, order)
    k, n = len(seen), len(vals)
    if k < 2:
        raise ConfigError(f"kruskal needs at least two groups; found {k} ({seen!r})")
    if n <= k:
        raise ConfigError(f"kruskal needs more observations than groups; found n={n}, k={k}")
    if len(set(vals)) == 1:
        raise ConfigError(f"kruskal: all {n} values are identical ({vals[0]!r}); H is undefined")
    samples = [[v for v, g in zip(vals, labs) if g == grp] for grp in seen]
    res = ss.kruskal(*samples)
    H = float(res.statistic)
    return KruskalResult(H, float(res.pvalue), k, n, epsilon_squared(H, k, n), tuple(seen),
                         tuple(len(s) for s in samples))


def dunn(values: Sequence[float], groups: Sequence[Hashable], p_adjust: str = "holm", *,
         order: Optional[Sequence[Hashable]] = None):
    """Dunn's pairwise post-hoc test on mean ranks, with tie correction.

    Parameters
    ----------
    values, groups
        As for :func:`kruskal`.
    p_adjust
        ``"holm"`` (default), ``"bonferroni"`` or ``"none"``; applied over
        all ``k (k − 1) / 2`` pairs.
    order
        Optional order of the groups (default: first appearance); pairs are
        listed ``(g_i, g_j)`` for ``i < j`` in that order.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``group_a``, ``group_b``, ``n_a``, ``n_b``,
        ``mean_rank_a``, ``mean_rank_b``, ``z`` (positive when ``group_a``
        ranks higher), ``p`` (two-sided) and ``p_adj``.

    Notes
    -----
    The raw p-values come from :func:`scikit_posthocs.posthoc_dunn` (tie
    correction after Glantz 2012) and are adjusted with :func:`holm` /
    :func:`bonferroni` over the pairs; ``z`` is computed here with the same
    formula, because scikit-posthocs returns only p-values:
    ``z = (R̄_a − R̄_b) / sqrt((n(n+1)/12 − Σ(t³ − t) / (12(n − 1))) (1/n_a + 1/n_b))``.

    Examples
    --------
    >>> df = dunn([1, 2, 3, 4, 5, 6, 7, 8, 9], list("aaabbbccc"))
    >>> [round(z, 4) for z in df["z"]]
    [-1.3416, -2.6833, -1.3416]
    """
    import numpy as np
    import pandas as pd
    import scikit_posthocs as sp
    from scipy import stats as ss

    if p_adjust not in P_ADJUST:
        raise ConfigError(f"dunn: p_adjust is {p_adjust!r}; expected one of {', '.join(P_ADJUST)}")
    vals, labs, seen = _groups(values, groups, order)
    k, n = len(seen), len(vals)
    if k < 2:
        raise ConfigError(f"dunn needs at least two groups; found {k} ({seen!r})")
    ranks = ss.rankdata(vals)
    _, counts = np.unique(ranks, return_counts=True)
    tie = float(np.sum(counts.astype(float) ** 3 - counts)) / (12.0 * (n - 1)) if n > 1 else 0.0
    var = n * (n + 1) / 12.0 - tie
    if var <= 0:
        raise ConfigError(f"dunn: all {n} values are identical; the rank variance is zero")
    sizes = {g: 0 for g in seen}
    sums = {g: 0.0 for g in seen}
    for r, g in zip(ranks, labs):
        sizes[g] += 1
        sums[g] += float(r)
    means = {g: sums[g] / sizes[g] for g in seen}

    # scikit-posthocs indexes its matrix by the group labels; map them to
    # positions so that labels of any type (and their sort order) do not matter.
    codes = {g: i for i, g in enumerate(seen)}
    frame = pd.DataFrame({"v": vals, "g": [codes[g] for g in labs]})
    mat_raw = sp.posthoc_dunn(frame, val_col="v", group_col="g", p_adjust=None)
    rows = []
    for i in range(k):
        for j in range(i + 1, k):
            ga, gb = seen[i], seen[j]
            z = (means[ga] - means[gb]) / math.sqrt(var * (1.0 / sizes[ga] + 1.0 / sizes[gb]))
            rows.append({"group_a": ga, "group_b": gb, "n_a": sizes[ga], "n_b": sizes[gb],
                         "mean_rank_a": means[ga], "mean_rank_b": means[gb], "z": z,
                         "p": float(mat_raw.loc[i, j])})
    # Adjusting over the pairs here rather than in a second posthoc_dunn call halves the
    # cost; the adjusted values are the same (scikit-posthocs uses statsmodels' Holm).
    raw = [r["p"] for r in rows]
    if p_adjust == "holm":
        adj = list(holm(raw).p_adjusted)
    elif p_adjust == "bonferroni":
        adj = list(bonferroni(raw).p_adjusted)
    else:
        adj = raw
    for r, a in zip(rows, adj):
        r["p_adj"] = a
    return pd.DataFrame(rows, columns=["group_a", "group_b", "n_a", "n_b", "mean_rank_a", "mean_rank_b",
                                       "z", "p", "p_adj"])
