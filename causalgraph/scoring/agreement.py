"""Agreement among raters: Fleiss' κ.

A bottom module: the run scorer (the engine) and the statistics above it both need it.

Used for agreement across the epochs of a run with repeated sampling
(:func:`causalgraph.bench.epochs.epoch_agreement`): each epoch is a rater,
each item a subject, each distinct answer a category.

Fleiss (1971): with ``N`` subjects rated by ``n`` raters each into ``k``
categories and ``n_ij`` the raters who put subject ``i`` in category ``j``,

* ``P_i = (Σ_j n_ij² − n) / (n (n − 1))`` — agreement on subject ``i``;
* ``p_j = Σ_i n_ij / (N n)`` — share of all ratings in category ``j``;
* ``κ = (P̄ − P_e) / (1 − P_e)`` with ``P̄`` the mean of ``P_i`` and
  ``P_e = Σ_j p_j²``.

κ is undefined when ``P_e = 1`` (every rating in one category): there is no
disagreement to correct for chance, and :func:`fleiss_kappa` returns ``None``.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..errors import ConfigError

__all__ = ["fleiss_kappa"]


def fleiss_kappa(table) -> Optional[float]:
    """Fleiss' κ of a subjects × categories table of counts.

    Parameters
    ----------
    table
        ``table[i][j]``: raters who put subject ``i`` in category ``j``; every
        row must sum to the same number of raters ``n >= 2``.

    Returns
    -------
    float or None
        κ; ``None`` when undefined (no subject, or all ratings in one
        category).

    Raises
    ------
    ConfigError
        For negative counts, rows with different numbers of raters, or
        fewer than two raters.

    Examples
    --------
    >>> round(fleiss_kappa([[2, 0], [1, 1], [0, 2]]), 4)
    0.3333
    >>> fleiss_kappa([[3, 0], [3, 0]]) is None
    True
    """
    m = np.asarray(table, dtype=float)
    if m.ndim != 2:
        raise ConfigError(f"fleiss_kappa: expected a subjects x categories table, found {m.ndim} dimension(s)")
    if m.shape[0] == 0 or m.shape[1] == 0:
        return None
    if (m < 0).any():
        raise ConfigError("fleiss_kappa: counts must not be negative")
    raters = m.sum(axis=1)
    n = raters[0]
    if not np.all(raters == n):
        raise ConfigError(f"fleiss_kappa: every subject needs the same number of raters; found "
                          f"{sorted(set(int(x) for x in raters))}")
    if n < 2:
        raise ConfigError(f"fleiss_kappa: needs at least two raters per subject, found {int(n)}")
    subjects = m.shape[0]
    p_i = ((m * m).sum(axis=1) - n) / (n * (n - 1))
    p_bar = float(p_i.mean())
    p_j = m.sum(axis=0) / (subjects * n)
    if np.count_nonzero(p_j) <= 1:
        # Every rating in one category: P_e = 1 exactly. Decided on the counts, not on a float
        # tolerance, which would call a table with one dissenting rating in 300,000 undefined.
        return None
    p_e = float((p_j * p_j).sum())
    return (p_bar - p_e) / (1.0 - p_e)
