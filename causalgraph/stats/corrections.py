"""Multiple-comparison corrections: Bonferroni (one step) and Holm (step down).

Both control the family-wise error rate: the chance of at least one false
rejection among ``m`` tests stays at or below ``alpha``.  Holm rejects
everything Bonferroni rejects and sometimes more, so it is the better default
when only the decisions matter; Bonferroni's single threshold ``alpha / m``
is what the ClimateCause paper reports for its McNemar tests
(``0.05 / 9 ≈ 0.0056``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from ..errors import ConfigError

__all__ = ["Correction", "bonferroni", "holm"]


@dataclass(frozen=True)
class Correction:
    """Adjusted p-values and decisions for a family of tests.

    Attributes
    ----------
    method
        ``"bonferroni"`` or ``"holm"``.
    alpha
        Family-wise significance level.
    threshold
        Per-test level for the raw p-values: ``alpha / m`` for Bonferroni;
        for Holm the level used at the first (smallest) p-value, ``alpha / m``,
        since the later levels depend on the rank.
    p_adjusted
        Adjusted p-values in the input order (capped at 1); a test is
        rejected when its adjusted p-value is ``<= alpha``.
    reject
        One decision per input p-value, in the input order.
    """

    method: str
    alpha: float
    threshold: float
    p_adjusted: tuple[float, ...]
    reject: tuple[bool, ...]

    @property
    def m(self) -> int:
        """Number of tests in the family."""
        return len(self.p_adjusted)


def _check(pvalues: Iterable[float], alpha: float) -> list[float]:
    ps = [float(p) for p in pvalues]
    for i, p in enumerate(ps):
        if math.isnan(p) or not 0.0 <= p <= 1.0:
            raise ConfigError(f"p-value #{i + 1} is {p!r}; expected a number between 0 and 1")
    if not 0.0 < float(alpha) < 1.0:
        raise ConfigError(f"alpha is {alpha!r}; expected a number strictly between 0 and 1")
    if not ps:
        raise ConfigError("no p-values given; a correction needs at least one test")
    return ps


def bonferroni(pvalues: Iterable[float], alpha: float = 0.05) -> Correction:
    """Bonferroni correction: reject where ``p <= alpha / m``.

    Parameters
    ----------
    pvalues
        Raw p-values of the ``m`` tests of one family.
    alpha
        Family-wise significance level.

    Returns
    -------
    Correction
        ``threshold`` is ``alpha / m``; ``p_adjusted`` is ``min(1, m * p)``.

    Examples
    --------
    >>> r = bonferroni([0.001, 0.004, 0.2], alpha=0.05)
    >>> round(r.threshold, 4), r.reject
    (0.0167, (True, True, False))
    """
    ps = _check(pvalues, alpha)
    m = len(ps)
    threshold = alpha / m
    adj = tuple(min(1.0, p * m) for p in ps)
    return Correction("bonferroni", float(alpha), threshold, adj, tuple(p <= threshold for p in ps))


def holm(pvalues: Iterable[float], alpha: float = 0.05) -> Correction:
    """Holm's step-down correction (Holm 1979).

    The p-values are sorted ascending; the ``i``-th smallest (from 0) is
    multiplied by ``m - i``, and the running maximum keeps the adjusted
    values monotone.  Ties keep their input order, so the result does not
    depend on how the sort breaks them.

    Parameters
    ----------
    pvalues
        Raw p-values of the ``m`` tests of one family.
    alpha
        Family-wise significance level for ``reject``.

    Returns
    -------
    Correction
        Adjusted p-values in the input order.

    Examples
    --------
    >>> [round(p, 4) for p in holm([0.01, 0.04, 0.03]).p_adjusted]
    [0.03, 0.06, 0.06]
    """
    ps = _check(pvalues, alpha)
    m = len(ps)
    order = sorted(range(m), key=lambda i: (ps[i], i))
    adj = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        adj[i] = running
    return Correction("holm", float(alpha), alpha / m, tuple(adj), tuple(a <= alpha for a in adj))
