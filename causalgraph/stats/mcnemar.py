"""McNemar's test for two paired sets of binary predictions.

McNemar (1947) asks whether two classifiers that answered the same items
disagree in one direction more often than in the other.  Only the
discordant pairs count: ``b`` items where the first says the first category
and the second the other, ``c`` items the reverse.

Variants
--------
``exact=False, correction=True`` (default)
    χ² = (|b − c| − 1)² / (b + c) with one degree of freedom (Edwards' continuity
    correction).  This is what the ClimateCause paper reports in Table 21; the
    table's values follow from the 2×2 table of *predicted labels* (not of
    correct/incorrect answers), see docs/statistics.md.
``exact=False, correction=False``
    χ² = (b − c)² / (b + c).
``exact=True``
    Two-sided binomial test of ``min(b, c)`` in ``Bin(b + c, 1/2)``; the
    statistic is ``min(b, c)``.  Use it when ``b + c`` is small (below ~25).
``exact=True, midp=True``
    Mid-p binomial test (Fagerland, Lydersen and Laake 2013): the exact
    p-value minus the point probability of the observed count.  Less
    conservative than the exact test, close to its nominal level.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Hashable, Optional, Sequence

from ..errors import ConfigError
from .pairing import as_run, pair_key, prediction as _prediction, show_keys as _show

__all__ = ["McNemarResult", "mcnemar", "paired_labels"]


@dataclass(frozen=True)
class McNemarResult:
    """Outcome of :func:`mcnemar`.

    Attributes
    ----------
    statistic
        χ² for the asymptotic variants, ``min(b, c)`` for the exact ones.
    p
        Two-sided p-value.
    b
        Pairs where ``a`` has ``labels[0]`` and ``b`` has ``labels[1]``.
    c
        Pairs where ``a`` has ``labels[1]`` and ``b`` has ``labels[0]``.
    n
        Number of pairs (concordant and discordant).
    method
        ``"chi2"``, ``"chi2-corrected"``, ``"exact"`` or ``"mid-p"``.
    labels
        The two categories, in the order that defines ``b`` and ``c``.
    table
        The 2×2 contingency table ``((n00, n01), (n10, n11))``, rows for ``a``.
    """

    statistic: float
    p: float
    b: int
    c: int
    n: int
    method: str
    labels: tuple[Any, Any]
    table: tuple[tuple[int, int], tuple[int, int]]

    @property
    def discordant(self) -> int:
        """``b + c``."""
        return self.b + self.c


def _is_run(x: Any) -> bool:
    return (hasattr(x, "responses") and hasattr(x, "manifest")) or isinstance(x, os.PathLike)


def _run_predictions(run: Any) -> dict:
    """``pair key -> parsed label`` of a run with one prompt variant."""

    r = as_run(run)
    variants = r.variants
    if len(variants) != 1:
        raise ConfigError(f"mcnemar: run {getattr(r, 'path', '')} has {len(variants)} variants {variants!r}; "
                          "give runs of one variant, or use mcnemar_runs to test variant by variant")
    return {pair_key(x): _prediction(x) for x in r.records(variants[0])}


def _as_pairs(a: Any, b: Any) -> tuple[list, list, Optional[list]]:
    """Align two prediction vectors, two mappings by key, or two one-variant runs by item."""
    if isinstance(a, (str, bytes)) or isinstance(b, (str, bytes)):
        raise ConfigError("mcnemar: got a string; give sequences of predictions, mappings, or runs "
                          "(a loaded Run or a pathlib.Path to a run directory)")
    if _is_run(a) or _is_run(b):
        if not (_is_run(a) and _is_run(b)):
            raise ConfigError("mcnemar: give two runs, not a run and a vector")
        a, b = _run_predictions(a), _run_predictions(b)
    if _is_keyed(a) or _is_keyed(b):
        if not (_is_keyed(a) and _is_keyed(b)):
            raise ConfigError("mcnemar: give two sequences (paired by position) or two mappings "
                              "item id -> prediction (paired by id), not one of each")
        da, db = _keyed(a), _keyed(b)
        only_a = [k for k in da if k not in db]
        only_b = [k for k in db if k not in da]
        if only_a or only_b:
            raise ConfigError(
                "mcnemar: the two sets of predictions do not cover the same items; "
                f"only in the first ({len(only_a)}): {_show(only_a)}; "
                f"only in the second ({len(only_b)}): {_show(only_b)}")
        keys = list(da)
        return [da[k] for k in keys], [db[k] for k in keys], keys
    la, lb = list(a), list(b)
    if len(la) != len(lb):
        raise ConfigError(f"mcnemar: paired vectors differ in length: {len(la)} and {len(lb)}")
    return la, lb, None


def _is_keyed(x: Any) -> bool:
    return isinstance(x, Mapping) or (hasattr(x, "index") and hasattr(x, "items") and hasattr(x, "to_dict"))


def _keyed(x: Any) -> dict:
    d = x.to_dict() if hasattr(x, "to_dict") and not isinstance(x, Mapping) else dict(x)
    return d


def _categories(la: list, lb: list, labels: Optional[Sequence[Hashable]]) -> tuple[Any, Any]:
    if labels is not None:
        cats = tuple(labels)
        if len(cats) != 2 or cats[0] == cats[1]:
            raise ConfigError(f"mcnemar: labels must name two different categories, got {cats!r}")
        return cats
    seen: list = []
    for v in la + lb:
        if v not in seen:
            seen.append(v)
    if len(seen) > 2:
        raise ConfigError(f"mcnemar: predictions take {len(seen)} values {seen!r}; McNemar's test needs "
                          "two categories (collapse the labels first, or pass labels=)")
    if all(isinstance(v, bool) for v in seen):
        return (True, False)
    if all(isinstance(v, int) and v in (0, 1) for v in seen):
        # 0/1 read as false/true: b counts "a says 1, b says 0", as for booleans.
        return (1, 0)
    # Sorted so that the meaning of b and c does not depend on which value came first.
    seen = sorted(seen, key=lambda v: (str(type(v)), str(v)))
    if len(seen) == 1:
        # All predictions agree on one value; the second category is never observed.
        return (seen[0], None)
    return (seen[0], seen[1])


def paired_labels(a: Any, b: Any) -> tuple[list, list, Optional[list]]:
    """Align two prediction vectors (by position) or two mappings (by key).

    Returns the two aligned lists and the keys (``None`` for sequences).
    Raises :class:`~causalgraph.errors.ConfigError` listing the items present
    in only one mapping.

    Examples
    --------
    >>> paired_labels({"x": 1, "y": 0}, {"y": 1, "x": 1})
    ([1, 0], [1, 1], ['x', 'y'])
    """
    return _as_pairs(a, b)


def mcnemar(a: Any, b: Any, *, exact: bool = False, correction: bool = True, midp: bool = False,
            labels: Optional[Sequence[Hashable]] = None) -> McNemarResult:
    """McNemar's test on two paired binary prediction vectors.

    Parameters
    ----------
    a, b
        Two sequences of the same length (paired by position); two
        mappings / pandas Series ``item id -> prediction`` (paired by id;
        items present in only one raise an error that lists them); or two
        runs of one prompt variant each (loaded, or a ``pathlib.Path``),
        paired by item (:func:`causalgraph.stats.pairing.pair_key`).  Values
        are any two categories (``"yes"``/``"no"``, booleans, 0/1 …).
    exact
        Binomial test instead of the χ² approximation.
    correction
        Continuity correction for the χ² variant (ignored when ``exact``).
    midp
        Mid-p binomial test; needs ``exact=True``.
    labels
        The two categories in the order defining ``b`` and ``c``.  Default:
        ``(True, False)`` for booleans, ``(1, 0)`` for 0/1, else the two
        values sorted (so for correctness vectors ``b`` counts items ``a``
        got right and ``b`` got wrong).

    Returns
    -------
    McNemarResult

    Notes
    -----
    With no discordant pair (``b + c = 0``) the two classifiers never
    disagree; the result is ``statistic = 0`` and ``p = 1`` for every variant
    (statsmodels returns NaN or infinity there).  The corrected statistic is
    clamped at 0 when ``|b − c| < 1``, i.e. ``b == c`` gives 0, not
    ``1 / (b + c)``.

    Examples
    --------
    >>> r = mcnemar(["yes", "yes", "no", "no", "yes"], ["yes", "no", "no", "yes", "no"], correction=False)
    >>> (r.b, r.c, round(r.statistic, 4))
    (1, 2, 0.3333)
    """
    from scipy import stats as ss

    if midp and not exact:
        raise ConfigError("mcnemar: midp=True is a variant of the exact test; pass exact=True as well")
    la, lb, keys = _as_pairs(a, b)
    missing = [(keys[i] if keys else i) for i, (x, y) in enumerate(zip(la, lb)) if _is_missing(x) or _is_missing(y)]
    if missing:
        where = "items" if keys else "positions"
        raise ConfigError(f"mcnemar: missing predictions (None/NaN) at {len(missing)} {where}: {_show(missing)}; "
                          "drop or label them before testing")
    if not la:
        raise ConfigError("mcnemar: no paired predictions to test")
    cats = _categories(la, lb, labels)
    if labels is not None:
        bad = [f"{side}[{keys[i] if keys else i}]={v!r}" for side, vec in (("a", la), ("b", lb))
               for i, v in enumerate(vec) if v not in cats]
        if bad:
            raise ConfigError(f"mcnemar: values outside labels={cats!r}: {_show(bad)}")
    n00 = n01 = n10 = n11 = 0
    for x, y in zip(la, lb):
        if x == cats[0]:
            if y == cats[0]:
                n00 += 1
            else:
                n01 += 1
        else:
            if y == cats[0]:
                n10 += 1
            else:
                n11 += 1
    bb, cc = n01, n10
    nd = bb + cc
    if exact:
        method = "mid-p" if midp else "exact"
        stat = float(min(bb, cc))
        if nd == 0:
            p = 1.0
        else:
            k = min(bb, cc)
            p = 2.0 * float(ss.binom.cdf(k, nd, 0.5))
            if midp:
                p -= float(ss.binom.pmf(k, nd, 0.5))
            p = min(1.0, p)
    else:
        method = "chi2-corrected" if correction else "chi2"
        if nd == 0:
            stat, p = 0.0, 1.0
        else:
            diff = abs(bb - cc) - (1 if correction else 0)
            stat = max(0, diff) ** 2 / nd
            p = float(ss.chi2.sf(stat, 1))
    return McNemarResult(float(stat), p, bb, cc, len(la), method, cats, ((n00, n01), (n10, n11)))


def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)
