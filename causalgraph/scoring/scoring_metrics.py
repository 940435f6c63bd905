"""Scoring metrics of runs: figures of a variant's answers beyond the paper's precision, recall and F1.

Two kinds of metric live in causalgraph, named apart everywhere:

* a **complexity metric** (:class:`~causalgraph.metrics.complexity.ComplexityMetric`,
  ``register_metric``) measures a *graph* (C^com … C^pol, C(s));
* a **scoring metric** (:class:`ScoringMetric`, :func:`register_scoring_metric`, this module)
  scores a *run*: how well a variant's answers match the gold labels.

A scoring metric is a function of the variant's confusion matrix, so that its statement-bootstrap
interval reads the resampled matrices the built-in scores already draw.  It is never computed
unless asked for by name (``bench report --scoring-metric mcc``, ``compute_metrics(...,
scoring_metrics=["mcc"])``): installing one changes no output of a command that does not name it,
and the paper's precision, recall, F1 and accuracy stay what they are.

The matrix handed to a function has one row per gold label (in the task's label order) and one
column per label plus a last column ``unparsed`` (answers that could not be read and failed
requests: never right, never a prediction of any class).  The function returns a number, or
``None`` where the metric is undefined (it is then shown as undefined with a note, never as 0).

Built-in scoring metrics (asked for by name; none is computed by default):

``mcc``
    Matthews' correlation coefficient of the K-class confusion matrix (Gorodkin's R_K), the
    unparsed column a class no gold item has: for a binary task without unparsed answers the
    familiar (TP·TN − FP·FN)/√((TP+FP)(TP+FN)(TN+FP)(TN+FN)).  Undefined when every gold label or
    every answer is one class (a zero denominator; scikit-learn returns 0 there).
``balanced_accuracy``
    The mean over the gold classes present of each class's recall (an unparsed answer is wrong):
    scikit-learn's ``balanced_accuracy_score``.  Undefined without items.

Examples
--------
>>> import numpy as np
>>> m = np.array([[8, 2, 0], [1, 9, 0]])          # gold yes, no × answered yes, no, unparsed
>>> round(get_scoring_metric("mcc").value(m, ("yes", "no"), "yes"), 4)
0.7035
>>> round(get_scoring_metric("balanced_accuracy").value(m, ("yes", "no"), "yes"), 4)
0.85
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from .._core.registry import ENTRY_POINT_GROUPS, Registry, record_name, short_repr

__all__ = ["ScoringMetric", "register_scoring_metric", "unregister_scoring_metric", "get_scoring_metric",
           "scoring_metric_names", "scoring_metrics_asked", "SCORING_METRICS", "TASK_KINDS", "RESERVED_NAMES",
           "DEFAULT_MIN_STATEMENTS"]

#: The default fewest statements of a scoring metric's run interval: the F1 interval's
#: (:data:`causalgraph.bench.scoring.MIN_STATEMENTS_INTERVAL`, which a test keeps equal).
DEFAULT_MIN_STATEMENTS = 30

#: The task kinds a scoring metric can declare (a task scored by its own scorer has no confusion matrix).
TASK_KINDS = ("binary", "multiclass")

#: Names a scoring metric cannot take: the columns and keys the built-in scores already use, which a
#: metric of that name would shadow in ``bench report`` (a report column) or ``metrics.json``.
RESERVED_NAMES = frozenset({
    "precision", "recall", "f1", "accuracy", "macro_precision", "macro_recall", "macro_f1", "items", "answered",
    "errors", "parse_failures", "parse_failure_rate", "pending", "samples_pending", "rules", "strategy", "variant",
    "run", "task", "model", "notes", "note", "n_scored", "per_class", "confusion", "agreement", "pass", "method",
    "loglik", "choice_logprobs", "calibration", "acc", "acc_norm", "ece", "ece_adaptive", "brier", "reached",
    "identical", "fleiss_kappa", "averaged", "scoring_metrics", "diff", "statements", "n", "p_value", "reject",
    # the answer-against-graph columns of graph-first variants (bench report; stats compare adds _a, _b)
    "graph_items", "answer_accuracy", "edge_f1", "gap", "right_answer_wrong_graph", "wrong_answer_right_graph",
})

_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class ScoringMetric:
    """One scoring metric of runs (see the module's docs for the matrix a function receives).

    Attributes
    ----------
    name
        A lower-case identifier: the report column, the key in ``metrics.json`` (under the
        variant's ``scoring_metrics``) and what ``--scoring-metric`` names.
    function
        ``function(matrix, labels, positive) -> float | None``: ``matrix`` a numpy integer array
        of gold rows × answer columns (the labels, then ``unparsed``), ``labels`` the task's
        labels in row order, ``positive`` the positive class of a binary task (``None`` for a
        multiclass one).  ``None`` (or NaN) where the metric is undefined.
    description
        One line saying what it measures (listings, ``metrics.json``).
    kinds
        The task kinds it scores (of :data:`TASK_KINDS`); asked for on another kind's run it is
        refused in one line.
    bounds
        The least and greatest value it can take: its bootstrap interval is clipped to them.
    undefined
        When it has no value, for the note that says so (``"every answer is one class"``).
    min_statements
        Fewest statements for its run interval (``bench report``'s ``NAME_ci95``; below, not
        estimable with a note): :data:`DEFAULT_MIN_STATEMENTS`, the F1 interval's minimum, unless a
        simulation of the metric says otherwise (``balanced_accuracy``: 63; docs/statistics.md).

    Examples
    --------
    >>> youden = ScoringMetric("youden_j", lambda m, labels, pos: None, "recall + specificity - 1",
    ...                        bounds=(-1.0, 1.0))
    >>> youden.kinds, youden.bounds
    (('binary',), (-1.0, 1.0))
    """

    name: str
    function: Callable[[np.ndarray, tuple[str, ...], Optional[str]], Optional[float]]
    description: str
    kinds: tuple[str, ...] = ("binary",)
    bounds: tuple[float, float] = (0.0, 1.0)
    undefined: str = ""
    min_statements: int = DEFAULT_MIN_STATEMENTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", tuple(self.kinds))
        object.__setattr__(self, "bounds", tuple(self.bounds))

    def value(self, matrix: np.ndarray, labels: Sequence[str], positive: Optional[str]) -> Optional[float]:
        """The metric of one confusion matrix: a float, or ``None`` where it is undefined.

        A plugin's function that raises, or returns what is not a number, fails that plugin in
        one line naming it (:meth:`~causalgraph._core.registry.Registry.call`); the run's
        other figures are untouched.
        """
        out = SCORING_METRICS.call(self.name, "function", self.function, matrix, tuple(labels), positive)
        if out is None:
            return None
        if isinstance(out, bool) or not isinstance(out, (int, float, np.floating, np.integer)):
            raise SCORING_METRICS.refuse(self.name, "function", out, "a number or None (undefined)")
        out = float(out)
        return None if math.isnan(out) else out


def _check(name: str, metric: Any) -> ScoringMetric:
    """The checks every scoring metric gets, a record registered by code or a plugin's."""
    if not isinstance(metric, ScoringMetric):
        raise ConfigError(f"scoring metric {name!r}: expected a ScoringMetric record; found "
                          f"{type(metric).__name__} {short_repr(metric)}")
    if metric.name != name:
        raise ConfigError(f"scoring metric {name!r}: the ScoringMetric record is named {metric.name!r}; the "
                          "registered name must be the metric's own")
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name in RESERVED_NAMES:
        raise ConfigError(f"scoring metric name {name!r}: expected a lower-case identifier (letters, digits, '_') "
                          "that is not a column of the built-in scores (precision, recall, f1, accuracy …)")
    if not callable(metric.function):
        raise ConfigError(f"scoring metric {name!r}: function is {type(metric.function).__name__}; expected a "
                          "callable function(matrix, labels, positive)")
    bad = [k for k in metric.kinds if k not in TASK_KINDS]
    if not metric.kinds or bad:
        raise ConfigError(f"scoring metric {name!r}: kinds {metric.kinds!r}; expected one or more of "
                          f"{', '.join(TASK_KINDS)}")
    if isinstance(metric.min_statements, bool) or not isinstance(metric.min_statements, int) \
            or metric.min_statements < 2:
        raise ConfigError(f"scoring metric {name!r}: min_statements {metric.min_statements!r}; expected an integer "
                          "of at least 2 (a bootstrap over statements needs two)")
    lo, hi = metric.bounds if len(metric.bounds) == 2 else (None, None)
    if not all(isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b) for b in (lo, hi)) \
            or lo >= hi:
        raise ConfigError(f"scoring metric {name!r}: bounds {metric.bounds!r}; expected (least, greatest), two "
                          "finite numbers, least first")
    return metric


def _mcc(matrix: np.ndarray, labels: tuple[str, ...], positive: Optional[str]) -> Optional[float]:
    # The K-class form over the square matrix whose last row (gold "unparsed") is empty.
    k = len(labels)
    square = np.zeros((k + 1, k + 1), dtype=float)
    square[:k, :] = matrix
    s = square.sum()
    correct = np.trace(square)
    t = square.sum(axis=1)      # gold totals
    p = square.sum(axis=0)      # answer totals
    den = (s * s - float(p @ p)) * (s * s - float(t @ t))
    if den <= 0:
        return None
    return float((correct * s - float(p @ t)) / math.sqrt(den))


def _balanced_accuracy(matrix: np.ndarray, labels: tuple[str, ...], positive: Optional[str]) -> Optional[float]:
    k = len(labels)
    support = matrix.sum(axis=1)
    present = support > 0
    if not present.any():
        return None
    recall = np.diag(matrix[:, :k])[present] / support[present]
    return float(recall.mean())


def _builtins(registry: Registry) -> None:
    registry.register("mcc", ScoringMetric(
        "mcc", _mcc, "Matthews' correlation coefficient of the confusion matrix (K classes; unparsed is wrong)",
        kinds=TASK_KINDS, bounds=(-1.0, 1.0), undefined="every gold label, or every answer, is one class"))
    registry.register("balanced_accuracy", ScoringMetric(
        "balanced_accuracy", _balanced_accuracy, "mean over the gold classes of each class's recall",
        # Its run interval covers 0.919 at 30 and 40 statements (4,000 simulated datasets each), 0.936 at 63:
        # benchmarks/bench_scoring_metric_level.py, docs/statistics.md#scoring-metrics.
        kinds=TASK_KINDS, undefined="no item", min_statements=63))


#: Every scoring metric by name: the built-ins, those registered with :func:`register_scoring_metric`,
#: then plugins of the entry-point group ``causalgraph.scoring_metrics``.
SCORING_METRICS: Registry[ScoringMetric] = Registry("scoring metric", group=ENTRY_POINT_GROUPS["scoring metric"],
                                                    coerce=_check, builtins=_builtins)


def register_scoring_metric(metric: "ScoringMetric | str", *, replace: bool = False,
                            name: Optional[str] = None) -> "ScoringMetric | str":
    """Add a scoring metric of runs: ``bench report``, ``metrics.json``, the viewer and ``stats compare`` take it
    when it is asked for by name.

    The rule of every ``register_*`` function: the record (or the ``"module:attr"`` target of
    one) first, ``replace=`` and ``name=`` by keyword.

    Parameters
    ----------
    metric
        A :class:`ScoringMetric`, or the ``"module:attr"`` target of one (then ``name`` says
        its name; it is imported on first use).
    replace
        Replace a metric registered under the same name; without it a taken name is refused.
    name
        The name of a lazy target; for a record, its own name if given.

    Returns
    -------
    ScoringMetric or str
        What was registered.

    Examples
    --------
    >>> import numpy as np
    >>> def specificity(m, labels, positive):
    ...     neg = [i for i, lab in enumerate(labels) if lab != positive][0]
    ...     return m[neg, neg] / m[neg].sum() if m[neg].sum() else None
    >>> register_scoring_metric(ScoringMetric("specificity", specificity, "recall of the negative class")).name
    'specificity'
    >>> get_scoring_metric("specificity").value(np.array([[8, 2, 0], [1, 9, 0]]), ("yes", "no"), "yes")
    0.9
    >>> unregister_scoring_metric("specificity")
    """
    name = record_name(metric, ScoringMetric, name, "register_scoring_metric")
    return SCORING_METRICS.register(name, metric, replace=replace)


def unregister_scoring_metric(name: str) -> None:
    """Remove a scoring metric registered with :func:`register_scoring_metric`."""
    SCORING_METRICS.unregister(name)


def get_scoring_metric(name: str) -> ScoringMetric:
    """The scoring metric registered as ``name`` (an unknown name: one line naming what is registered)."""
    return SCORING_METRICS.get(name)


def scoring_metric_names(*, plugins: bool = True) -> tuple[str, ...]:
    """Every scoring metric's name (``plugins=False``: causalgraph's and code's only, reading no entry point)."""
    return SCORING_METRICS.names(plugins=plugins)


def scoring_metrics_asked(names: Any) -> tuple[ScoringMetric, ...]:
    """The metrics named by ``names`` (a sequence of names or one comma-separated string), checked, in order.

    Raises
    ------
    ConfigError
        For a name that is not a string, an unknown one, or one named twice.

    Examples
    --------
    >>> [m.name for m in scoring_metrics_asked("mcc, balanced_accuracy")]
    ['mcc', 'balanced_accuracy']
    """
    if names is None:
        return ()
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"scoring metrics {short_repr(names)}: expected names (strings) or one comma-separated "
                          "string")
    twice = sorted({n for n in names if list(names).count(n) > 1})
    if twice:
        raise ConfigError(f"scoring metric {twice[0]!r} is named twice")
    return tuple(SCORING_METRICS.get(n) for n in names)
