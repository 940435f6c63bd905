"""Pearson's r and its two-sided p-value, as :func:`scipy.stats.pearsonr` computes them, without importing scipy.stats.

``import scipy.stats`` costs 1.3–1.5 s on the development machine, and
:func:`~causalgraph.metrics.analysis.length_correlation` (``complexity``'s
summary, the report) needs one correlation.  This is the same arithmetic as
SciPy's (1.10–1.17) for two 1-d float arrays — centre, scale by the largest
deviation, ``numpy.linalg.norm``, ``numpy.vecdot``, clip to [-1, 1] — and the
p-value from the same function SciPy's beta distribution calls,
``scipy.special.betaincc``, so both numbers are SciPy's to the last bit
(``tests/metrics/test_pearson.py`` compares them on random samples).
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["pearson"]


def pearson(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Pearson's correlation coefficient of ``x`` and ``y`` and its two-sided p-value.

    Parameters
    ----------
    x, y
        Paired samples of one length n >= 3 (numbers, or anything
        ``numpy.asarray`` turns into floats); neither constant.

    Returns
    -------
    (r, p)
        As ``scipy.stats.pearsonr(x, y)`` gives them: under the null hypothesis
        r follows a beta distribution on (-1, 1) with a = b = n/2 - 1.

    Raises
    ------
    ValueError
        For samples of different lengths, of fewer than 3 values, or constant.

    Examples
    --------
    >>> r, p = pearson([1, 2, 3, 4], [2, 4, 5, 9])
    >>> round(r, 4), round(p, 4)
    (0.9648, 0.0352)
    """
    import numpy as np
    from scipy import special  # light: scipy.stats is the import that costs

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"pearson needs two 1-d samples of one length; got shapes {x.shape} and {y.shape}")
    n = x.shape[0]
    if n < 3:
        raise ValueError(f"pearson needs at least 3 pairs; got {n}")
    if bool(np.all(x == x[0])) or bool(np.all(y == y[0])):
        raise ValueError("pearson is undefined for a constant sample")
    # SciPy's steps, in its order (keepdims and axis=-1 included: they choose numpy's code paths).
    xmean = np.mean(x, axis=-1, keepdims=True)
    ymean = np.mean(y, axis=-1, keepdims=True)
    xm = x - xmean
    ym = y - ymean
    xmax = np.max(np.abs(xm), axis=-1, keepdims=True)
    ymax = np.max(np.abs(ym), axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        normxm = xmax * np.linalg.norm(xm / xmax, axis=-1, keepdims=True)
        normym = ymax * np.linalg.norm(ym / ymax, axis=-1, keepdims=True)
        r = np.vecdot(xm / normxm, ym / normym, axis=-1)
    r = np.clip(r, -1.0, 1.0)
    ab = np.asarray(n / 2 - 1, dtype=np.float64)
    p = 2 * special.betaincc(ab, ab, (np.abs(r) - -1) / 2)
    return float(r), float(p)
