"""C(s) for text outside a corpus: normalising against the ClimateCause ranges.

C(s) (paper eqs. 6–7) min–max normalises each metric by its range *over the
corpus being scored*.  A single draft has no corpus, so its metrics are
normalised by a fixed reference: by default the minimum and maximum of each
metric over the 75 ClimateCause statements (computed with
:func:`causalgraph.complexity_table`).  That keeps a draft's C(s) on the
scale of the corpus: 1.821 is the most complex IPCC statement.

Values outside the reference range are **not clipped**: a draft with more
negative edges than any IPCC statement gets a normalised C^corr above 1
(and C(s) can pass 5), and ``beyond_range`` names the metrics where this
happened.  Clipping would make every draft beyond the corpus look equally
complex, which is the information a writer needs most.  A metric whose
reference range is empty contributes 0, as in :func:`complexity_table`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Optional, Sequence, Union

from ..errors import ConfigError, DataNotFound
from ..metrics.analysis import metric_ranges
from ..metrics.complexity import (PAPER_METRICS, Complexity, c_s, complexity, complexity_table, metric_names,
                                  normalized_term)
from ..model import Corpus, Statement
from ..datasets import load_climatecause, load_corpus

__all__ = ["ReferenceRanges", "PAPER_RANGES", "corpus_ranges", "climatecause_ranges", "resolve_reference",
           "normalized_complexity"]


@dataclass(frozen=True)
class ReferenceRanges:
    """Minimum and maximum of each complexity metric over a reference corpus.

    Attributes
    ----------
    name
        Where the ranges come from (``climatecause``, ``paper``, a corpus name).
    ranges
        Metric (``com``, ``ex``, ``nest``, ``corr``, ``pol``, and any metric
        registered later) → ``(min, max)``.
    n_statements
        Statements the ranges were computed on (``None`` for published values).
    """

    name: str
    ranges: Mapping[str, tuple[float, float]]
    n_statements: Optional[int] = None

    def to_dict(self) -> dict:
        return {"name": self.name, "n_statements": self.n_statements,
                "ranges": {m: [float(self.ranges[m][0]), float(self.ranges[m][1])] for m in self._names()}}

    def _names(self) -> list[str]:
        # Registered metrics in their order, then any others the ranges hold.
        names = [m for m in metric_names() if m in self.ranges]
        return names + [m for m in self.ranges if m not in names]


#: The ranges printed in the ClimateCause paper, §5.2.1 ("C^com=[0,12], C^ex=[0,16],
#: C^nest=[0,20.93], C^corr=[0,70], and C^pol=[0,40]"); usable without the dataset.
PAPER_RANGES = ReferenceRanges(
    name="paper", ranges={"com": (0.0, 12.0), "ex": (0.0, 16.0), "nest": (0.0, 20.93), "corr": (0.0, 70.0),
                          "pol": (0.0, 40.0)})


def corpus_ranges(corpus: Union[Corpus, Sequence[Statement]], name: Optional[str] = None) -> ReferenceRanges:
    """The per-metric ``(min, max)`` of a corpus.

    Examples
    --------
    >>> from causalgraph.model import Statement, Relation, Correlation
    >>> a = Statement("a", "x", True, (Relation("x", "y", correlation=Correlation.NEGATIVE),))
    >>> b = Statement("b", "x", True, (Relation("x", "y", correlation=Correlation.POSITIVE),))
    >>> corpus_ranges([a, b], "demo").ranges["corr"]
    (0.0, 1.0)
    """
    table = complexity_table(corpus)
    if table.empty:
        raise ConfigError("cannot take complexity ranges from an empty corpus")
    ranges = {m: (float(lo), float(hi)) for m, (lo, hi) in metric_ranges(table).items()}
    return ReferenceRanges(name=name or getattr(corpus, "name", None) or "corpus", ranges=ranges,
                           n_statements=int(len(table)))


def climatecause_ranges() -> ReferenceRanges:
    """The ranges over the ClimateCause corpus (loaded with :func:`causalgraph.load_climatecause`).

    Computed once for each set of registered metrics.
    """
    return _climatecause_ranges(metric_names())


@lru_cache(maxsize=4)
def _climatecause_ranges(metrics: tuple[str, ...]) -> ReferenceRanges:
    return corpus_ranges(load_climatecause(), "climatecause")


def resolve_reference(reference: Union[None, str, ReferenceRanges, Corpus, Sequence[Statement]]) -> ReferenceRanges:
    """``None``/``"climatecause"`` → the corpus ranges; ``"paper"`` → :data:`PAPER_RANGES`;
    a corpus or list of statements → its ranges; ranges pass through."""
    if isinstance(reference, ReferenceRanges):
        return reference
    if reference is None or reference == "climatecause":
        try:
            return climatecause_ranges()
        except DataNotFound as exc:
            raise DataNotFound(f"{exc} (needed for the ClimateCause ranges of C(s); without the corpus, use the "
                               "ranges printed in the paper: reference='paper', --reference paper)") from exc
    if reference == "paper":
        return PAPER_RANGES
    if isinstance(reference, str):
        return corpus_ranges(load_corpus(reference), reference)
    return corpus_ranges(reference)


def normalized_complexity(x: Union[Statement, Complexity], reference: Union[None, str, ReferenceRanges] = None,
                          weights=None) -> dict:
    """The metrics (the paper's five and any registered later), their values normalised by ``reference`` and C(s).

    C(s) is eq. 7 (:func:`causalgraph.metrics.complexity.c_s`) with the
    reference's ranges in place of those of a corpus.

    Parameters
    ----------
    x
        A statement (its complexity is computed) or a :class:`Complexity`.
    reference
        See :func:`resolve_reference` (default: the ClimateCause ranges).
    weights
        w_i of eq. 7 (default all 1).

    Returns
    -------
    dict
        ``{"com": …, …, "raw": …, "norm": {"com": …}, "c_s": …, "beyond_range": [...],
        "reference": {...}}``; normalised values are not clipped.

    Examples
    --------
    >>> ref = ReferenceRanges("demo", {"com": (0, 2), "ex": (0, 4), "nest": (0, 0), "corr": (0, 10), "pol": (0, 5)})
    >>> out = normalized_complexity(Complexity(com=1, ex=8, nest=0.0, corr=5, pol=0), ref)
    >>> out["norm"]["ex"], out["c_s"], out["beyond_range"]
    (2.0, 3.0, ['ex'])
    """
    ref = resolve_reference(reference)
    c = x if isinstance(x, Complexity) else complexity(x)
    # C(s) is the paper's five; any other metric scored is reported, normalised where the reference has
    # its range (undefined, NaN, where it has none: a plugin's metric never stops the paper's C(s)).
    names = [m for m in metric_names() if m in c]
    missing = [m for m in PAPER_METRICS if m not in ref.ranges]
    if missing:
        raise ConfigError(f"reference ranges {ref.name!r} have no range for metric(s) {', '.join(missing)}; "
                          "use a corpus as the reference (e.g. reference='climatecause'), which gives every metric one")
    values = {m: float(c[m]) for m in names}
    norm = {m: normalized_term(values[m], *ref.ranges[m]) if m in ref.ranges else math.nan for m in names}
    beyond = [m for m in names if m in ref.ranges and (values[m] > ref.ranges[m][1] or values[m] < ref.ranges[m][0])]
    return {**{m: c[m] for m in names}, "raw": float(c.raw), "norm": norm, "c_s": c_s(values, ref.ranges, weights),
            "beyond_range": beyond, "reference": ref.to_dict()}
