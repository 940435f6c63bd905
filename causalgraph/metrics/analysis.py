"""The paper's analyses of causal complexity, as calls (ClimateCause §5.2.2, App. F.1).

Every function takes the frame of :func:`~causalgraph.metrics.complexity.complexity_table`
(or a corpus, which is scored first):

* :func:`length_correlation` – Pearson r between statement length (tokens)
  and C(s) over the statements with C(s) > 0 (paper: n = 43, r = .590);
* :func:`complex_in_counts` – how many statements are complex (score > 0)
  in exactly k of the five metrics (paper: 27 in one, 10 in two, none in five);
* :func:`cooccurrence` – the co-occurrence matrix of the five metrics (App. F.1);
* :func:`complexity_summary` – all of the above plus the per-metric ranges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import ConfigError
from .complexity import C_S_COLUMN, PAPER_METRICS, complexity_table, metric_names
from .pearson import pearson

__all__ = [
    "PearsonResult",
    "ComplexitySummary",
    "length_correlation",
    "complex_in_counts",
    "cooccurrence",
    "metric_ranges",
    "complexity_summary",
]


def _names(t) -> tuple[str, ...]:
    """The metrics the table scores: the paper's five, then each other usable metric it has a column for.

    Read at call time, so that a metric registered later counts; a table made before it was
    registered (or one a failing plugin's metric was left out of) is read without it.
    """
    return (*PAPER_METRICS, *(m for m in metric_names() if m not in PAPER_METRICS and f"c_{m}" in t.columns))


def _table(table_or_corpus):
    import pandas as pd

    if isinstance(table_or_corpus, pd.DataFrame):
        missing = [c for c in (*(f"c_{m}" for m in PAPER_METRICS), C_S_COLUMN, "n_tokens")
                   if c not in table_or_corpus.columns]
        if missing:
            raise ConfigError(
                f"complexity table lacks column(s) {', '.join(missing)}; "
                "expected the frame returned by complexity_table()"
            )
        return table_or_corpus
    return complexity_table(table_or_corpus)


@dataclass(frozen=True)
class PearsonResult:
    """Pearson's r, its two-sided p-value and the number of statements used."""

    r: float
    p: float
    n: int


@dataclass(frozen=True)
class ComplexitySummary:
    """The figures of §5.2.2 for one corpus."""

    n_statements: int
    n_complex: int
    percent_complex: float
    max_c_norm: float
    ranges: dict = field(default_factory=dict)  # metric -> (min, max)
    complex_in: dict = field(default_factory=dict)  # k -> number of statements complex in exactly k metrics
    length_correlation: PearsonResult | None = None

    def as_dict(self) -> dict:
        d = {
            "n_statements": self.n_statements,
            "n_complex": self.n_complex,
            "percent_complex": self.percent_complex,
            "max_c_norm": self.max_c_norm,
            "ranges": {m: list(v) for m, v in self.ranges.items()},
            "complex_in": {str(k): v for k, v in self.complex_in.items()},
        }
        lc = self.length_correlation
        d["length_correlation"] = None if lc is None else {"r": lc.r, "p": lc.p, "n": lc.n}
        return d


def length_correlation(table_or_corpus, *, positive_only: bool = True) -> PearsonResult:
    """Pearson r between ``n_tokens`` and C(s) (``c_norm``).

    Parameters
    ----------
    table_or_corpus
        A :func:`complexity_table` frame or a corpus.
    positive_only
        Use only the statements with C(s) > 0, as the paper does (default).

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> length_correlation(load_climatecause()).n   # doctest: +SKIP
    43
    """
    t = _table(table_or_corpus)
    if positive_only:
        t = t[t[C_S_COLUMN] > 0]
    n = len(t)
    if n < 3:
        raise ConfigError(f"a Pearson correlation needs at least 3 statements; got {n}")
    x = t["n_tokens"].astype(float)
    y = t[C_S_COLUMN].astype(float)
    if x.nunique() < 2 or y.nunique() < 2:
        raise ConfigError("a Pearson correlation needs variation in both length and C(s); one of them is constant")
    # scipy.stats.pearsonr's arithmetic without importing scipy.stats (1.3-1.5 s): metrics/pearson.py
    r, p = pearson(x, y)
    return PearsonResult(r, p, n)


def _complex_flags(t, names=None):
    names = tuple(names or _names(t))
    cols = [f"c_{m}" for m in names]
    return (t[cols] > 0).astype(int).rename(columns=dict(zip(cols, names)))


def complex_in_counts(table_or_corpus):
    """Number of statements complex (score > 0) in exactly k of the paper's five metrics, k = 0..5.

    Returns
    -------
    pandas.Series
        Index 0..5 (named ``n_metrics``), values the statement counts.

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> complex_in_counts(load_climatecause())[1]   # doctest: +SKIP
    27
    """
    import pandas as pd

    # The paper's figure: k counts the paper's five only, whatever other metric is registered.
    k = _complex_flags(_table(table_or_corpus), PAPER_METRICS).sum(axis=1)
    n = len(PAPER_METRICS)
    counts = [int((k == i).sum()) for i in range(n + 1)]
    return pd.Series(counts, index=pd.RangeIndex(n + 1, name="n_metrics"), name="statements")


def cooccurrence(table_or_corpus):
    """Co-occurrence matrix of the five metrics (paper App. F.1).

    Cell (i, j) counts the statements complex in both metric i and metric j;
    the diagonal counts the statements complex in metric i.  The matrix is
    symmetric (the paper prints its lower triangle).

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> cooccurrence(load_climatecause()).loc["corr", "corr"]   # doctest: +SKIP
    24
    """
    import pandas as pd

    b = _complex_flags(_table(table_or_corpus))
    m = b.T.dot(b)
    names = list(b.columns)
    return pd.DataFrame(m.values.astype(int), index=names, columns=names)


def metric_ranges(table_or_corpus) -> dict:
    """``{metric: (min, max)}`` over the statements, e.g. ``{"com": (0, 12), …}``."""
    t = _table(table_or_corpus)
    out = {}
    for m in _names(t):
        c = f"c_{m}"
        lo, hi = t[c].min(), t[c].max()
        out[m] = (lo.item() if hasattr(lo, "item") else lo, hi.item() if hasattr(hi, "item") else hi)
    return out


def complexity_summary(table_or_corpus) -> ComplexitySummary:
    """Everything §5.2.2 reports: ranges, share complex, max C(s), k-metric counts, Pearson r.

    The correlation is ``None`` when fewer than three statements have C(s) > 0.

    Examples
    --------
    >>> from causalgraph import load_climatecause
    >>> complexity_summary(load_climatecause()).n_complex   # doctest: +SKIP
    43
    """
    t = _table(table_or_corpus)
    n = len(t)
    n_complex = int((t[C_S_COLUMN] > 0).sum())
    try:
        lc = length_correlation(t)
    except ConfigError:
        lc = None
    counts = complex_in_counts(t)
    return ComplexitySummary(
        n_statements=n,
        n_complex=n_complex,
        percent_complex=100.0 * n_complex / n if n else math.nan,
        max_c_norm=float(t[C_S_COLUMN].max()) if n else math.nan,
        ranges=metric_ranges(t),
        complex_in={int(k): int(v) for k, v in counts.items()},
        length_correlation=lc,
    )
