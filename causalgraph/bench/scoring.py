"""Scoring a run: P/R/F1, per-class scores, confusion matrices, strategy means, bootstrap intervals.

* Binary tasks (the task's ``positive`` class): precision,
  recall and F1 of the positive class (paper App. G.3, Eq. 8–10).
* Position: per-class P/R/F1, macro averages over the classes of ``start,
  middle, end, none`` present in gold or predictions (``macro_rule`` and
  ``macro_classes`` in the scores say so; a class absent from both would
  count as F1 0 and cap a perfect sample below 1), accuracy and the confusion matrix (rows gold, columns predicted, plus an
  ``unparsed`` column), plus whatever the task adds (``extra_scores`` of its ``Binary`` or ``Multiclass`` answers;
  see :mod:`causalgraph.tasks` for what each task adds).
* Per strategy: mean ± standard deviation (``ddof=1``) over its variants, the
  layout of the paper's Table 4; ``Avg`` over all variants.
* 95 % bootstrap intervals that resample *statements* (all items of a drawn
  statement come along), because the items of one graph are not independent;
  the percentile interval is widened for few statements (:func:`causalgraph.scoring.scores.small_sample_factor`).

An unparseable answer (label ``None``) is never a positive prediction and
always wrong; a failed request counts the same way and both are reported.

A variant scored by log-likelihood (``bench run --method loglik``) gets a
``loglik`` entry: ``acc`` and ``acc_norm`` (accuracy of the label with the
highest summed log-probability, and with the highest per byte of its
continuation), the rule behind the variant's other figures
(``scores_rule``: ``acc``, the label its records hold) and the scores under
``acc_norm``; and a ``calibration`` entry (:mod:`causalgraph.bench.calibration`).
Divisions by zero give 0 (as scikit-learn's ``zero_division=0``), with one exception: a binary
variant with no positive in gold *and* none among the answers has precision, recall and F1 of the
positive class undefined (0/0 throughout) — they are ``None`` with a ``note``, never a confident 0;
its accuracy stands.  Bootstrap resamples in which a score is undefined are left out of its
interval, whose share of such resamples is written beside it (``f1_ci95_undefined``); when more
than half are undefined, the interval is not estimable (``None``, with the reason in ``note``), and so
are the precision, recall and F1 intervals of a variant whose items come from fewer than
:data:`MIN_STATEMENTS_INTERVAL` statements (they undercover there: docs/statistics.md).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError, SchemaError
from ..scoring.scores import binary_scores, percentile_interval, prf_counts
from ..llm.loglik import choose
from ..runlog.files import Metrics
from ..runlog.record import RunRecord
from ..scoring.scoring_metrics import SCORING_METRICS, ScoringMetric, scoring_metrics_asked
from .._core.wording import plural
from .calibration import calibration
from ..tasks import get_task, find_task
from .epochs import (
    Reducer, epoch_agreement, parse_reducer, incomplete_items, missing_samples_hint, reducer_kind, pass_scores
)

__all__ = [
    "multiclass_scores",
    "bootstrap_interval",
    "MIN_STATEMENTS_INTERVAL",
    "aggregate_strategies",
    "score_records",
    "compute_metrics",
    "report_rows",
    "task_columns",
    "column_name",
    "agreement_columns",
    "answer_graph_columns",
    "ANSWER_GRAPH_COLUMNS",
    "pending_samples",
    "usage_totals",
    "probe_usage_totals",
    "pending_column",
    "accuracy_column",
    "loglik_columns",
    "LOGLIK_RULES",
    "format_mean_std",
    "bootstrap_unit",
    "score_notes",
    "MAX_UNDEFINED_SHARE",
    "scoring_metric_scores",
    "check_scoring_metrics",
    "REPORTED_NONE",
    "group_confusions",
]

UNPARSED = "unparsed"


def _confusion(gold: Sequence[Any], pred: Sequence[Any], labels: Sequence[str]) -> np.ndarray:
    idx = {lab: i for i, lab in enumerate(labels)}
    k = len(labels)
    m = np.zeros((k, k + 1), dtype=np.int64)
    for g, p in zip(gold, pred):
        if g not in idx:
            raise SchemaError(f"gold label {g!r} is not one of {list(labels)}")
        m[idx[g], idx.get(p, k)] += 1
    return m


#: Which classes the macro averages run over (stated in every multiclass score as ``macro_rule``).
MACRO_RULE = "mean over the classes present in gold or predictions"


def _multi_from_confusion(m: np.ndarray, labels: Sequence[str]) -> dict[str, Any]:
    k = len(labels)
    per = {}
    f1s, ps, rs = [], [], []
    for i, lab in enumerate(labels):
        tp = int(m[i, i])
        fp = int(m[:, i].sum() - tp)
        fn = int(m[i, :].sum() - tp)
        p, r, f = prf_counts(tp, fp, fn)
        per[lab] = {"precision": p, "recall": r, "f1": f, "support": int(m[i, :].sum())}
        # A class no gold item has and no answer names has P = R = F1 = 0 by convention; averaging it in
        # would cap a perfect answer set at (classes present) / (all classes) — 0.5 for a 12-item sample.
        if m[i, :].sum() or m[:, i].sum():
            ps.append(p)
            rs.append(r)
            f1s.append(f)
    total = int(m.sum())
    present = [lab for i, lab in enumerate(labels) if m[i, :].sum() or m[:, i].sum()]

    def mean(xs):
        return float(np.mean(xs)) if xs else 0.0

    return {"per_class": per, "macro_precision": mean(ps), "macro_recall": mean(rs),
            "macro_f1": mean(f1s), "macro_rule": MACRO_RULE, "macro_classes": present,
            "accuracy": float(np.trace(m[:, :k]) / total) if total else 0.0,
            "confusion": {"labels": list(labels), "columns": list(labels) + [UNPARSED], "matrix": m.tolist()}}


def multiclass_scores(gold: Sequence[Any], pred: Sequence[Any], labels: Sequence[str]) -> dict[str, Any]:
    """Per-class P/R/F1, macro averages, accuracy and the confusion matrix.

    Examples
    --------
    >>> s = multiclass_scores(["start", "end", "none", "none"], ["start", "start", "none", None],
    ...                       ["start", "middle", "end", "none"])
    >>> round(s["per_class"]["start"]["precision"], 2), s["confusion"]["matrix"][3]
    (0.5, [0, 0, 0, 1, 1])
    """
    return _multi_from_confusion(_confusion(gold, pred, labels), labels)


def _groups(records: Sequence[RunRecord]) -> list[list[int]]:
    """Indices of the records of each statement, statements in order of first appearance."""
    order: dict[Any, list[int]] = {}
    for i, r in enumerate(records):
        meta = r.meta or {}
        sid = meta.get("statement_id")
        order.setdefault(sid if sid is not None else ("item", r.item_id), []).append(i)
    return list(order.values())


def bootstrap_interval(records: Sequence[RunRecord], metric: str, *, kind: str, labels: Sequence[str],
                       positive: Optional[str] = None, n_boot: int = 1000, seed: int = 0,
                       level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of a metric, resampling statements with replacement.

    Parameters
    ----------
    records
        Response dicts with ``gold``, ``label`` and ``meta.statement_id``.
    metric
        ``precision``, ``recall``, ``f1`` (binary) or ``macro_f1``,
        ``accuracy``, ``<class>_f1`` (multiclass).
    n_boot, seed, level
        Resamples, RNG seed (the interval is reproducible) and coverage.

    Returns
    -------
    (low, high)
        NaN, NaN when there are no records.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> recs = [RunRecord("t", "v", str(i), gold="yes", label="yes", meta={"statement_id": f"s{i}"}) for i in range(5)]
    >>> bootstrap_interval(recs, "f1", kind="binary", labels=["yes", "no"], positive="yes")
    (1.0, 1.0)
    """
    if not records:
        return (math.nan, math.nan)
    mats, full = _resampled_confusions(records, labels, n_boot, seed, with_full=True)
    point = float(_resample_values(full[None], metric, kind=kind, labels=labels, positive=positive)[0])
    return _interval_and_share(mats, metric, kind=kind, labels=labels, positive=positive, level=level, point=point,
                               n_groups=len(_groups(records)))[0]


def bootstrap_unit(records: Sequence[RunRecord]) -> str:
    """What the bootstrap resamples for these records: ``statement``, ``item``, or ``statement and item``.

    An item without ``meta["statement_id"]`` is resampled alone (a unit of its own); ``metrics.json``
    records the unit that was actually used, not the one intended.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> in_s1, alone = RunRecord("t", "v", "a", meta={"statement_id": "s1"}), RunRecord("t", "v", "b")
    >>> bootstrap_unit([in_s1, alone])
    'statement and item'
    >>> bootstrap_unit([alone]), bootstrap_unit([in_s1])
    ('item', 'statement')
    """
    have = sum(1 for r in records if r.meta.get("statement_id") is not None)
    if have == len(records):
        return "statement"
    return "item" if have == 0 else "statement and item"


def score_notes(metrics: "Metrics | Mapping[str, Any]") -> list[str]:
    """One line per variant note of a run's scores (undefined scores, intervals not estimable, the bootstrap unit).

    Examples
    --------
    >>> score_notes({"variants": {"A_5": {"notes": ["no 'yes' in gold or answers"]}},
    ...              "bootstrap": {"unit": "item", "unit_note": "no item names its statement"}})
    ["A_5: no 'yes' in gold or answers", 'bootstrap: no item names its statement']
    """
    metrics = Metrics.of(metrics)
    out = [f"{v}: {n}" for v, s in (metrics.variants or {}).items() for n in (s.get("notes") or [])]
    note = (metrics.bootstrap or {}).get("unit_note")
    if note:
        out.append(f"bootstrap: {note}")
    return out


def _resampled_confusions(records: Sequence[RunRecord], labels: Sequence[str], n_boot: int,
                          seed: int, with_full: bool = False):
    """The confusion matrix (gold × label, plus unparsed) of each of ``n_boot`` resamples of the statements.

    Every metric's interval of one set of records reads the same resamples (the
    RNG is seeded alike for each), so they are drawn once per set.
    """
    groups = _groups(records)
    per = group_confusions(records, labels, groups)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(groups), np.full(len(groups), 1.0 / len(groups)), size=n_boot)
    mats = np.einsum("bs,sij->bij", weights, per)
    return (mats, per.sum(axis=0)) if with_full else mats


def group_confusions(records: Sequence[RunRecord], labels: Sequence[str],
                     groups: Sequence[Sequence[int]]) -> np.ndarray:
    """One confusion matrix (gold × label, plus ``unparsed``) per group of records (``groups``: index lists).

    A statement-bootstrap resample's matrix is the weighted sum of these.

    Raises
    ------
    SchemaError
        For a gold label that is not one of ``labels``.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> recs = [RunRecord("t", "v", str(i), gold=g, label=a) for i, (g, a) in enumerate([("yes", "yes"), ("no", None),
    ...                                                                                  ("no", "no")])]
    >>> group_confusions(recs, ["yes", "no"], [[0, 1], [2]]).tolist()
    [[[1, 0, 0], [0, 0, 1]], [[0, 0, 0], [0, 1, 0]]]
    """
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    # The cells are counted in one numpy call from index lists (a numpy scalar update per record was most
    # of the scoring time).
    at_s: list[int] = []
    at_gold: list[int] = []
    at_label: list[int] = []
    for s, members in enumerate(groups):
        for i in members:
            r = records[i]
            if r.gold not in idx:
                raise SchemaError(f"item {r.item_id!r}: gold label {r.gold!r} is not one of {list(labels)}")
            at_s.append(s)
            at_gold.append(idx[r.gold])
            at_label.append(idx.get(r.label, k))
    per = np.zeros((len(groups), k, k + 1), dtype=np.int64)
    np.add.at(per, (np.asarray(at_s, dtype=np.intp), np.asarray(at_gold, dtype=np.intp),
                    np.asarray(at_label, dtype=np.intp)), 1)
    return per


#: Fewest statements for the run scores' statement-bootstrap intervals of precision, recall and F1: with
#: fewer, the widened percentile interval of F1 covers 84-91 % at 8-15 statements against the 93 % asked
#: (benchmarks/bench_stats_level.py, docs/statistics.md), so it is not estimable there (``None``, a note).
MIN_STATEMENTS_INTERVAL = 30

#: Largest share of bootstrap resamples with an undefined score for which an interval is still given
#: (conditional on the defined resamples); above it the interval is not estimable.
MAX_UNDEFINED_SHARE = 0.5


def _resample_values(mats: np.ndarray, metric: str, *, kind: str, labels: Sequence[str],
                     positive: Optional[str]) -> np.ndarray:
    """``metric`` of every resample's confusion matrix; NaN where it is undefined."""
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    n_boot = mats.shape[0]
    if kind == "binary":
        if metric == "accuracy":
            total = mats.sum(axis=(1, 2)).astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(total > 0, np.trace(mats[:, :, :k], axis1=1, axis2=2) / total, np.nan)
        pi = idx[positive]
        tp = mats[:, pi, pi].astype(float)
        fp = mats[:, :, pi].sum(axis=1) - tp
        fn = mats[:, pi, :].sum(axis=1) - tp
        with np.errstate(invalid="ignore", divide="ignore"):
            # The point estimate's rule: 0/0 only when the class is absent from gold and answers alike.
            if metric == "precision":
                v = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
            elif metric == "recall":
                v = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
            else:
                v = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
        return np.where(tp + fp + fn > 0, v, np.nan)
    values = np.empty(n_boot)
    for b in range(n_boot):
        res = _multi_from_confusion(mats[b], labels)
        if metric.endswith("_f1") and metric[:-3] in res["per_class"]:
            values[b] = res["per_class"][metric[:-3]]["f1"]
        else:
            values[b] = res[metric] if res["macro_classes"] or metric == "accuracy" else math.nan
    return values


def _interval_and_share(mats: np.ndarray, metric: str, *, kind: str, labels: Sequence[str],
                        positive: Optional[str], level: float, point: Optional[float] = None,
                        n_groups: Optional[int] = None) -> tuple[tuple[float, float], float]:
    """The percentile interval over the resamples where ``metric`` is defined, and the share undefined.

    Leaving the undefined resamples out conditions the interval on the score existing; scoring
    them 0 (``zero_division=0``) would pull a perfect score's interval down to 0.  With ``point``
    and ``n_groups`` the interval is widened around ``point`` and clipped to [0, 1]
    (:func:`causalgraph.scoring.scores.percentile_interval`); fewer than 2 statements give no interval.
    """
    values = _resample_values(mats, metric, kind=kind, labels=labels, positive=positive)
    return percentile_interval(values, point, n_groups, level=level, max_undefined=MAX_UNDEFINED_SHARE)


def _ci_list(ci: tuple[float, float]) -> Optional[list[float]]:
    return None if any(math.isnan(x) for x in ci) else [ci[0], ci[1]]


def score_records(records: Sequence[RunRecord], spec, *, n_boot: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Scores and counts of one variant's records (:class:`~causalgraph.runlog.record.RunRecord`) for a task spec.

    Raises
    ------
    TypeError
        For a record given as anything else (a dict: read it with ``RunRecord.from_dict``).
    """
    wrong = next((r for r in records if not isinstance(r, RunRecord)), None)
    if wrong is not None:
        raise TypeError(f"score_records: a record is a {type(wrong).__name__}, expected a RunRecord (a line read as "
                        "a dict becomes one with RunRecord.from_dict)")
    n = len(records)
    errors = sum(1 for r in records if r.error)
    answered = n - errors
    parse_failures = sum(1 for r in records if not r.error and r.label is None)
    out: dict[str, Any] = {"items": n, "answered": answered, "errors": errors, "parse_failures": parse_failures,
                           "parse_failure_rate": parse_failures / answered if answered else 0.0}
    rules: dict[str, int] = {}
    for r in records:
        if not r.error:
            rules[str(r.rule)] = rules.get(str(r.rule), 0) + 1
    out["rules"] = dict(sorted(rules.items()))
    if not answered:
        return _unscored(out, records, spec)
    if not spec.by_labels:
        out.update(spec.answers.score(list(records)))
        n_groups = len(_groups(records))
        if out.get("f1_ci95") is not None and n_groups < MIN_STATEMENTS_INTERVAL:
            # The same minimum as the binary tasks' F1 interval (a micro F1 is the same ratio of summed counts).
            out["f1_ci95"] = None
            out.setdefault("notes", []).append(
                f"f1_ci95 not estimable: {n_groups} statements, at least {MIN_STATEMENTS_INTERVAL} needed for the "
                f"statement bootstrap to cover (docs/statistics.md)")
        return out
    _check_labels(records, spec)
    gold = [r.gold for r in records]
    pred = [r.label for r in records]
    if spec.kind == "binary":
        out.update(_binary_defined(gold, pred, spec.positive))
        # bootstrap_interval per metric, the resamples drawn once for the three
        mats = _resampled_confusions(records, spec.labels, n_boot, seed) if records and n_boot else None
        n_groups = len(_groups(records))
        for m in ("precision", "recall", "f1"):
            ci, share = ((math.nan, math.nan), 0.0) if mats is None or out[m] is None else _interval_and_share(
                mats, m, kind="binary", labels=spec.labels, positive=spec.positive, level=0.95, point=out[m],
                n_groups=n_groups)
            out[f"{m}_ci95"] = _ci_list(ci)
            if mats is not None and out[m] is not None:
                out[f"{m}_ci95_undefined"] = share
        if mats is not None and 2 <= n_groups < MIN_STATEMENTS_INTERVAL:
            # Computed (the undefined shares stay), not given: on so few statements the interval undercovers.
            given = [m for m in ("precision", "recall", "f1") if out[f"{m}_ci95"] is not None]
            for m in given:
                out[f"{m}_ci95"] = None
            if given:
                out.setdefault("notes", []).append(
                    f"{', '.join(m + '_ci95' for m in given)} not estimable: {n_groups} statements, at least "
                    f"{MIN_STATEMENTS_INTERVAL} needed for the statement bootstrap to cover (docs/statistics.md)")
        elif mats is not None and out["f1"] is not None and out["f1_ci95"] is None:
            out.setdefault("notes", []).append(
                "f1_ci95 not estimable: all items come from one statement" if n_groups < 2 else
                f"f1_ci95 not estimable: F1 is undefined in {out['f1_ci95_undefined']:.0%} of the bootstrap "
                f"resamples (the {spec.positive!r} items sit in too few statements)")
    else:
        out.update(multiclass_scores(gold, pred, spec.labels))
        out["macro_f1_ci95"] = _ci_list(bootstrap_interval(records, "macro_f1", kind="multiclass",
                                                           labels=spec.labels, n_boot=n_boot, seed=seed))
        n_groups = len(_groups(records))
        if n_boot and n_groups < MIN_STATEMENTS_INTERVAL:
            # The binary F1's minimum, which the macro F1's own simulation supports (82-89 % at 8-15 statements,
            # 92.5 % at 30 and 63: benchmarks/bench_rank_level.py, docs/statistics.md).
            out["macro_f1_ci95"] = None
            out.setdefault("notes", []).append(
                "macro_f1_ci95 not estimable: all items come from one statement" if n_groups < 2 else
                f"macro_f1_ci95 not estimable: {n_groups} statements, at least {MIN_STATEMENTS_INTERVAL} needed for "
                f"the statement bootstrap to cover (docs/statistics.md)")
    if spec.answers.extra_scores is not None:
        out.update(spec.answers.extra_scores(gold, pred))
    if any(r.method == "loglik" for r in records):
        out.update(_loglik_scores(records, spec, gold))
    elif any(r.method == "choice-logprobs" for r in records):
        ch = _choice_scores(records, gold)
        if not ch["calibration"]["n"]:  # blank in the tables: say why (bench report prints the notes)
            out.setdefault("notes", []).append(f"ECE, adaptive ECE and Brier {ch['calibration']['note']}")
        out.update(ch)
    return out


def _unscored(out: dict[str, Any], records: Sequence[RunRecord], spec) -> dict[str, Any]:
    """The scores of a variant no item of which was answered: every figure ``None``, ``n_scored`` 0, and a note.

    Failed requests count as wrong answers beside answered items; alone they
    would give precision, F1 and accuracy 0, a score of a model that was never
    asked (a missing package, a server that is gone).
    """
    out["n_scored"] = 0
    out["parse_failure_rate"] = None  # of no answer
    out["note"] = (f"no score: none of {plural(len(records), 'item')} was answered "
                   f"({plural(out['errors'], 'failed request')})" if records else "no score: no item answered yet")
    if spec.kind == "binary":
        out.update({"precision": None, "recall": None, "f1": None, "accuracy": None,
                    "precision_ci95": None, "recall_ci95": None, "f1_ci95": None})
    elif spec.kind == "multiclass":
        out.update({"macro_precision": None, "macro_recall": None, "macro_f1": None, "accuracy": None,
                    "macro_f1_ci95": None})
    for name in spec.answers.extra_metrics:
        if "." not in name:
            out.setdefault(name, None)
    if any(r.method == "loglik" for r in records):
        out.update({"method": "loglik",
                    "loglik": {"scores_rule": "acc", "rules": dict(LOGLIK_RULES), "acc": None, "acc_norm": None},
                    "calibration": None})
    elif any(r.method == "choice-logprobs" for r in records):
        out.update({"method": "choice-logprobs",
                    "choice_logprobs": {"scores_rule": "acc", "rules": dict(CHOICE_RULES), "acc": None,
                                        "acc_norm": None, "acc_norm_note": CHOICE_ACC_NORM_NOTE, "read": 0,
                                        "parsed": 0, "parsed_reasons": {}, "reached": None, "acc_read": None,
                                        "bounded_items": 0},
                    "calibration": None})
    return out


#: What each choice rule of log-likelihood scoring picks (written into metrics.json beside the figures).
LOGLIK_RULES = {"acc": "the label whose continuation has the highest summed log-probability",
                "acc_norm": "the label whose continuation has the highest log-probability per byte (UTF-8)"}


def _binary_defined(gold: Sequence[Any], pred: Sequence[Any], positive: str) -> dict[str, Any]:
    """:func:`~causalgraph.scoring.scores.binary_scores`, with P, R and F1 ``None`` (and a ``notes`` line) when the
    positive class is in neither gold nor the answers.

    Examples
    --------
    >>> s = _binary_defined(["no", "no", "no"], ["no", "no", "no"], "yes")
    >>> s["f1"], s["accuracy"], s["notes"][0][:39]
    (None, 1.0, "no 'yes' in gold or answers: precision,")
    """
    s = binary_scores(gold, pred, positive)
    if gold and s["tp"] + s["fp"] + s["fn"] == 0:
        s.update(precision=None, recall=None, f1=None)
        s["notes"] = [f"no {positive!r} in gold or answers: precision, recall and F1 of {positive!r} are "
                      f"undefined (0/0); accuracy stands"]
    return s


def _loglik_scores(records: Sequence[RunRecord], spec, gold: list) -> dict[str, Any]:
    """acc, acc_norm and calibration of one variant's log-likelihood records."""
    norm: list[Any] = []
    for r in records:
        lp, conts = r.logprobs, r.continuations
        if r.error or not lp or not conts:
            norm.append(None)
            continue
        labels = list(lp)
        if set(labels) != set(conts):
            raise SchemaError(f"item {r.item_id!r}: logprobs name {sorted(labels)}, continuations "
                              f"{sorted(conts)}; expected the same labels")
        norm.append(choose(labels, [float(lp[k]) for k in labels], [conts[k] for k in labels], "acc_norm"))
    pred = [r.label for r in records]
    n = len(records)
    acc = sum(1 for g, p in zip(gold, pred) if p is not None and p == g) / n if n else 0.0
    acc_norm = sum(1 for g, p in zip(gold, norm) if p is not None and p == g) / n if n else 0.0
    if spec.kind == "binary":
        under_norm = _binary_defined(gold, norm, spec.positive)
    else:
        under_norm = multiclass_scores(gold, norm, spec.labels)
        under_norm.pop("confusion", None)
    return {"method": "loglik",
            "loglik": {"scores_rule": "acc", "rules": dict(LOGLIK_RULES), "acc": acc, "acc_norm": acc_norm,
                       "acc_norm_scores": under_norm},
            "calibration": calibration(records)}


#: What the choice rule of choice-logprobs scoring picks (written into metrics.json beside the figure).
CHOICE_RULES = {"acc": "read items: the choice whose first distinguishing token is likeliest at the answer position; "
                       "the others: the parsed answer"}
#: Why ``acc_norm`` has no value for choice-logprobs runs (written beside it in metrics.json).
CHOICE_ACC_NORM_NOTE = ("undefined: only each choice's first distinguishing token is read, not the whole "
                        "continuation's log-probability that acc_norm divides by its bytes")


def _choice_scores(records: Sequence[RunRecord], gold: list) -> dict[str, Any]:
    """acc, the share of items read at the answer position, and calibration of one variant's choice-logprobs records.

    ``acc`` counts every item (read items by their likeliest choice, the others by their parsed answer; an
    unparsed one or a failed request is wrong).  Calibration is over the items read (``calibration.n``); the
    parsed ones have no probabilities.
    """
    answered = [r for r in records if not r.error]
    read = [r for r in answered if r.scoring == "logprobs"]
    parsed = [r for r in answered if r.scoring == "parsed"]
    reasons: dict[str, int] = {}
    for r in parsed:
        why = str((r.choice_read or {}).get("reason"))
        reasons[why] = reasons.get(why, 0) + 1
    n = len(records)
    acc = sum(1 for g, r in zip(gold, records) if r.label is not None and r.label == g) / n if n else None
    read_ok = sum(1 for r in read if r.label == r.gold)
    cal = calibration(read)
    if not read:
        cal = {"n": 0, "ece": None, "ece_adaptive": None, "brier": None, "reliability": None,
               "note": "undefined: no item reached the answer position (every item was scored by parsing)"}
    return {"method": "choice-logprobs",
            "choice_logprobs": {
                "scores_rule": "acc",
                "rules": dict(CHOICE_RULES),
                "acc": acc, "acc_norm": None, "acc_norm_note": CHOICE_ACC_NORM_NOTE,
                "read": len(read), "parsed": len(parsed), "parsed_reasons": dict(sorted(reasons.items())),
                "reached": len(read) / len(answered) if answered else None,
                "acc_read": read_ok / len(read) if read else None,
                "bounded_items": sum(1 for r in read if (r.choice_read or {}).get("bounded")),
            },
            "calibration": cal}


def _check_labels(records: Sequence[RunRecord], spec) -> None:
    """Refuse a label the task cannot produce (a hand-edited file): it would be counted as some other answer."""
    if not spec.by_labels:
        return
    for r in records:
        lab = r.label
        if lab is not None and not (isinstance(lab, str) and lab in spec.labels):
            raise SchemaError(f"item {r.item_id!r}: label {lab!r:.80} is not one of {list(spec.labels)} "
                              "(or null for an unparsed answer)")


def aggregate_strategies(per_variant: Mapping[str, Mapping[str, Any]], strategy_of,
                         metrics: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Mean and standard deviation (ddof=1) of metrics over the variants of each strategy, plus ``Avg``.

    Parameters
    ----------
    per_variant
        Variant id → its scores.
    strategy_of
        Variant id → strategy name.
    metrics
        Names of the scores to aggregate (dotted paths reach into nested
        dicts: ``authors.f1``).

    Examples
    --------
    >>> pv = {"0_1": {"precision": 0.7877}, "0_2": {"precision": 0.7197}, "0_3": {"precision": 0.9538}}
    >>> agg = aggregate_strategies(pv, lambda v: "0-shot", ["precision"])
    >>> round(agg["0-shot"]["precision"]["mean"], 4), round(agg["0-shot"]["precision"]["std"], 4)
    (0.8204, 0.1204)
    """
    def get(d, path):
        for part in path.split("."):
            if not isinstance(d, Mapping) or part not in d:
                return None
            d = d[part]
        return d

    groups: dict[str, list[str]] = {}
    for v in per_variant:
        groups.setdefault(strategy_of(v), []).append(v)
    if len(groups) > 1 or len(per_variant) > 1:
        groups["Avg"] = list(per_variant)
    out: dict[str, dict[str, Any]] = {}
    for strat, vs in groups.items():
        row: dict[str, Any] = {"variants": vs}
        for m in metrics:
            vals = [get(per_variant[v], m) for v in vs]
            vals = [float(x) for x in vals if x is not None]
            if not vals:
                continue
            arr = np.array(vals)
            row[m] = {"mean": float(arr.mean()), "std": float(arr.std(ddof=1)) if len(arr) > 1 else None,
                      "n": len(arr)}
        out[strat] = row
    return out


def _metric_names(spec) -> list[str]:
    if spec.kind == "binary":
        return ["precision", "recall", "f1", *spec.answers.extra_metrics]
    if spec.kind == "multiclass":
        names = ["macro_precision", "macro_recall", "macro_f1", "accuracy", *spec.answers.extra_metrics]
        names += [f"per_class.{lab}.{m}" for lab in spec.labels for m in ("precision", "recall", "f1")]
        return names
    return list(spec.answers.extra_metrics)  # a task scored by its own scorer: the figures it asks to aggregate


def compute_metrics(run, *, spec=None, n_boot: int = 1000, seed: int = 0, reducer=None,
                    scoring_metrics=None) -> Metrics:
    """``metrics.json`` of a run, as the typed :class:`~causalgraph.runlog.files.Metrics`: per-variant
    scores and counts, strategy means, tokens and cost (``to_dict()`` is what is written).

    Parameters
    ----------
    run
        A :class:`~causalgraph.runlog.store.Run`.
    spec
        The task (default: the run's).
    n_boot, seed
        Bootstrap resamples and seed.
    reducer
        For a run with several epochs (``bench run --epochs``): ``majority``
        (default), ``mean``, ``pass@k``, ``pass^k`` or ``pass@K``/``pass^K``
        (a name or a :class:`~causalgraph.bench.epochs.Reducer`); see
        :mod:`causalgraph.bench.epochs`.  Such a run's variants also get
        ``agreement`` across epochs.  A run without epochs takes only
        ``majority`` and ``mean`` (both its plain scores) and the pass
        reducers with ``k = 1``.
    scoring_metrics
        Registered scoring metrics to add, by name
        (:mod:`causalgraph.scoring.scoring_metrics`; none by default, so
        that installing one changes nothing unasked): each variant gets its
        value under ``scoring_metrics`` and its statement-bootstrap interval
        under ``scoring_metrics_ci95``, each strategy their mean ± std, and
        the file a ``scoring_metrics`` entry naming what each measures.
        For tasks scored by labels (binary, multiclass) with one answer per
        item (the ``majority`` reducer); refused otherwise.

    Examples
    --------
    >>> from causalgraph.runlog.store import load_run
    >>> m = compute_metrics(load_run("runs/demo-yesno__mock-oracle__v1"))   # doctest: +SKIP
    >>> m.variants["v1"]["f1"], m.to_dict()["task"]                    # doctest: +SKIP
    (1.0, 'yes-no')
    """
    spec = spec or get_task(run.task)
    epochs = run.epochs
    red = reducer if isinstance(reducer, Reducer) else parse_reducer(reducer or "majority")
    if red.per_item and red.k is None:
        red = Reducer(red.name, epochs)  # pass@k: k is every epoch of this run
    asked = check_scoring_metrics(scoring_metrics, spec, red, epochs)
    per_variant: dict[str, Any] = {}
    for v in run.variants:
        recs = run.records(v)
        try:
            if red.name == "majority" or (red.name == "mean" and epochs == 1):
                s = score_records(recs, spec, n_boot=n_boot, seed=seed)
            elif red.name == "mean":
                s = _mean_over_epochs(run, v, spec, epochs, n_boot=n_boot, seed=seed)
            else:
                s = _pass_variant(run, v, spec, red, epochs, n_boot=n_boot, seed=seed)
        except SchemaError as exc:
            raise SchemaError(f"{Path(str(run.path)) / 'responses.jsonl'}: {exc}") from None
        s["strategy"] = spec.strategy_of(v)
        s["pending"] = pending_samples(run, v)
        if epochs > 1:
            s["agreement"] = epoch_agreement(run.sample_records(v), epochs=epochs)
        if asked:
            extra = scoring_metric_scores(recs, spec, asked, n_boot=n_boot, seed=seed,
                                          unscored=s.get("n_scored") == 0)
            notes = extra.pop("notes", [])
            s.update(extra)
            if notes:
                s.setdefault("notes", []).extend(notes)
        per_variant[v] = s
    tok_in, tok_out, cost, _ = usage_totals(run.samples)
    # The choice-logprobs probes reached the server too (docs/benchmarks.md): the run's totals count them.
    p_in, p_out, p_cost = probe_usage_totals(run.manifest.invocations)
    tok_in, tok_out, cost = tok_in + p_in, tok_out + p_out, round(cost + p_cost, 6)
    totals = {k: sum(per_variant[v][k] for v in per_variant)
              for k in ("items", "answered", "errors", "parse_failures", "pending")}
    # Runs without epochs keep the keys (and bytes) they always had.
    sampling = {"epochs": epochs, "reducer": red.label} if epochs > 1 or red.per_item else {}
    if run.manifest.method in ("loglik", "choice-logprobs"):
        sampling["method"] = run.manifest.method  # (generated runs keep the keys they always had)
    if red.per_item:
        metric_names = ["pass"]
    elif red.name == "mean" and epochs > 1 and not spec.by_labels:
        metric_names = ["precision", "recall", "f1"]
    else:
        metric_names = _metric_names(spec)
    metric_names += [f"scoring_metrics.{m.name}" for m in asked]
    # Built as the typed record (the written form is its to_dict()); the fields it leaves None are not
    # written, so only a run asked for scoring metrics has that key (every other metrics.json keeps its bytes).
    return Metrics(
        task=run.task,
        model=run.model,
        **sampling,
        **totals,
        # of no answer: undefined, not 0 (a run whose every request failed has no parse-failure rate)
        parse_failure_rate=totals["parse_failures"] / totals["answered"] if totals["answered"] else None,
        tokens_in=tok_in,
        tokens_out=tok_out,
        cost_usd=cost,
        bootstrap=_bootstrap_record(run, n_boot, seed),
        variants=per_variant,
        strategies=aggregate_strategies(per_variant, spec.strategy_of, metric_names),
        scoring_metrics={m.name: m.description for m in asked} if asked else None,
    )


#: The fields of a run's scores that ``bench report --format json`` shows as ``null`` when undefined.
REPORTED_NONE = ("parse_failure_rate",)


def check_scoring_metrics(names, spec, red: Optional[Reducer] = None, epochs: int = 1) -> tuple[ScoringMetric, ...]:
    """The scoring metrics ``names`` asks for, refused in one line where a run of ``spec`` scored with reducer
    ``red`` (default ``majority``) cannot give them (a task not scored by labels, a kind the metric does not
    score, a reducer other than one answer per item)."""
    red = red or Reducer("majority", None)
    asked = scoring_metrics_asked(names)
    if not asked:
        return ()
    if not spec.by_labels:
        raise ConfigError(f"--scoring-metric: task {spec.name!r} is scored by its own scorer, not by labels; scoring "
                          f"metrics ({', '.join(m.name for m in asked)}) read the confusion matrix of a binary or "
                          "multiclass task")
    for m in asked:
        if spec.kind not in m.kinds:
            raise ConfigError(f"--scoring-metric: {SCORING_METRICS.describe(m.name)} scores "
                              f"{' and '.join(m.kinds)} tasks; task {spec.name!r} is {spec.kind}")
    if not (red.name == "majority" or (red.name == "mean" and epochs == 1)):
        raise ConfigError(f"--scoring-metric scores one answer per item (the majority answer of a run with epochs); "
                          f"reducer {red.label} is not supported with it: drop --reducer or the scoring metric")
    return asked


def scoring_metric_scores(records: Sequence[RunRecord], spec, metrics: Sequence[ScoringMetric], *,
                          n_boot: int = 1000, seed: int = 0, level: float = 0.95,
                          unscored: bool = False, minimum: bool = True) -> dict[str, Any]:
    """Scoring metrics of one variant's records: ``scoring_metrics`` (name → value or ``None``),
    ``scoring_metrics_ci95`` (name → interval or ``None``) and ``notes`` on what is undefined.

    The interval is the statement bootstrap of the built-in scores (the same resamples of the same
    seed), percentile, widened for few statements and clipped to the metric's bounds
    (:func:`causalgraph.scoring.scores.percentile_interval`); it is not estimable (``None``, a note) with fewer than the metric's
    ``min_statements`` (:data:`MIN_STATEMENTS_INTERVAL` unless a simulation says otherwise) or more than
    :data:`MAX_UNDEFINED_SHARE` of
    resamples where the metric is undefined (docs/statistics.md, "Scoring metrics").  ``minimum=False``
    gives the interval below the minimum too (for the simulations that set the minimum:
    benchmarks/bench_scoring_metric_level.py); ``unscored``: the variant has no answered item.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> from causalgraph.scoring.scoring_metrics import get_scoring_metric
    >>> from causalgraph.runlog import RunRecord
    >>> recs = [RunRecord("ccr-member", "A_5", str(i), gold=g, label=a, meta={"statement_id": f"s{i}"})
    ...         for i, (g, a) in enumerate([("yes", "yes"), ("yes", "no"), ("no", "no"), ("no", None)])]
    >>> out = scoring_metric_scores(recs, get_task("ccr-member"), [get_scoring_metric("balanced_accuracy")])
    >>> out["scoring_metrics"], out["scoring_metrics_ci95"]
    ({'balanced_accuracy': 0.5}, {'balanced_accuracy': None})
    """
    values: dict[str, Any] = {m.name: None for m in metrics}
    cis: dict[str, Any] = {m.name: None for m in metrics}
    notes: list[str] = []
    out = {"scoring_metrics": values, "scoring_metrics_ci95": cis}
    if unscored or not records:
        return out  # the variant's own note says no item was answered
    labels = list(spec.labels)
    positive = spec.positive if spec.kind == "binary" else None
    mats, full = _resampled_confusions(records, labels, n_boot, seed, with_full=True)
    n_groups = len(_groups(records))
    for m in metrics:
        point = m.value(full, labels, positive)
        values[m.name] = point
        if point is None:
            notes.append(f"{m.name} undefined on these answers" + (f": {m.undefined}" if m.undefined else ""))
            continue
        if not n_boot:
            continue
        if n_groups < (m.min_statements if minimum else 2):
            notes.append(f"{m.name}_ci95 not estimable: "
                         + ("all items come from one statement" if n_groups < 2 else
                            f"{n_groups} statements, at least {m.min_statements} needed for the statement "
                            "bootstrap to cover (docs/statistics.md)"))
            continue
        resampled = np.array([math.nan if (x := m.value(mat, labels, positive)) is None else x for mat in mats])
        ci, share = percentile_interval(resampled, point, n_groups, level=level, bounds=m.bounds,
                                        max_undefined=MAX_UNDEFINED_SHARE)
        cis[m.name] = _ci_list(ci)
        if cis[m.name] is None:
            notes.append(f"{m.name}_ci95 not estimable: {m.name} is undefined in {share:.0%} of the bootstrap "
                         "resamples")
    if notes:
        out["notes"] = notes
    return out


def _bootstrap_record(run, n_boot: int, seed: int) -> dict[str, Any]:
    """``metrics.json``'s ``bootstrap`` entry, with the unit the resamples actually drew."""
    records = [r for v in run.variants for r in run.records(v)]
    unit = bootstrap_unit(records) if records else "statement"
    out: dict[str, Any] = {"resamples": n_boot, "seed": seed, "unit": unit, "level": 0.95,
                           "interval": "percentile widened by sqrt(G/(G-1))*t(G-1)/z around the estimate"}
    if unit != "statement":
        missing = sum(1 for r in records if r.meta.get("statement_id") is None)
        out["unit_note"] = (f"{missing} of {len(records)} items carry no meta.statement_id and were resampled one "
                            f"by one, as if independent; the intervals are narrower than a statement bootstrap's")
    return out


def usage_totals(samples: Sequence[RunRecord]) -> tuple[int, int, float, bool]:
    """Prompt tokens, completion tokens, USD (rounded to 6 places) of the answered ``samples``, and whether
    any of them recorded a cost.

    ``metrics.json`` writes the sum (a cost not recorded counts 0); the run
    page (``bench view``) shows "not recorded" when none was.  Failed
    requests count for nothing.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> usage_totals([RunRecord("t", "v", "a", usage={"prompt_tokens": 3, "completion_tokens": 1}, cost_usd=0.5),
    ...               RunRecord("t", "v", "b", usage={"prompt_tokens": 2}),
    ...               RunRecord("t", "v", "c", error="HTTP 500", cost_usd=9)])
    (5, 1, 0.5, True)
    >>> usage_totals([RunRecord("t", "v", "a", usage={})])
    (0, 0, 0.0, False)
    """
    answered = [r for r in samples if not r.error]
    tok_in = sum(r.usage.get("prompt_tokens") or 0 for r in answered)
    tok_out = sum(r.usage.get("completion_tokens") or 0 for r in answered)
    costs = [r.cost_usd for r in answered]
    cost = round(sum(float(c or 0.0) for c in costs), 6)
    return tok_in, tok_out, cost, any(c is not None for c in costs)


def probe_usage_totals(invocations: Optional[Sequence[Mapping[str, Any]]]) -> tuple[int, int, float]:
    """Prompt tokens, completion tokens and USD of the choice-logprobs probes of a run's ``invocations``.

    The probe is a request that no line records; each invocation that sent
    one holds its ``probe_usage`` (``manifest.json``).  The run's totals add
    these; no variant's figures do.

    Examples
    --------
    >>> probe_usage_totals([{"probe_usage": {"prompt_tokens": 7, "completion_tokens": 1, "cost_usd": 0.25}},
    ...                     {"requests_sent": 0}, {"probe_usage": {"prompt_tokens": 7, "completion_tokens": None,
    ...                                                            "cost_usd": 0.0}}])
    (14, 1, 0.25)
    >>> probe_usage_totals(None)
    (0, 0, 0.0)
    """
    tok_in = tok_out = 0
    cost = 0.0
    for inv in invocations or ():
        probe = inv.get("probe_usage") or {}
        tok_in += int(probe.get("prompt_tokens") or 0)
        tok_out += int(probe.get("completion_tokens") or 0)
        cost += float(probe.get("cost_usd") or 0.0)
    return tok_in, tok_out, round(cost, 6)


def pending_samples(run, variant: str) -> int:
    """Samples (item × epoch) of ``variant`` the run was asked for and has no line for yet (a stopped or killed run).

    The planned items are the manifest's ``items`` count of the variant (the
    answered items where the manifest has none); in a run without epochs a
    sample is an item.

    Examples
    --------
    >>> pending_samples(load_run("runs/partial"), "0_1")   # doctest: +SKIP
    748
    """
    planned = dict(run.manifest.items or {})
    items = int(planned[variant]) if variant in planned else len(run.records(variant))
    return max(0, items * run.epochs - len(run.sample_records(variant)))


def accuracy_column(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """``["accuracy"]`` when a row is of a multiclass task (its P/R/F1 are macro averages), else ``[]``."""
    return ["accuracy"] if any(r.get("averaged") == "macro" for r in rows) else []


def pending_column(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The pending columns of rows that have something still to ask, else ``[]`` (a complete run's table keeps
    its columns): ``pending`` counts items, ``samples_pending`` the samples (item × epoch) of a run with epochs.

    Examples
    --------
    >>> pending_column([{"pending": 3}, {"samples_pending": 0}]), pending_column([{"pending": 0}])
    (['pending'], [])
    """
    return [c for c in ("pending", "samples_pending") if any(r.get(c) for r in rows)]


def _mean_values(dicts: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Mean and standard deviation (ddof=1) of every number the dicts share, nested dicts included."""
    mean: dict[str, Any] = {}
    sd: dict[str, Any] = {}
    for key in dicts[0]:
        vals = [d.get(key) for d in dicts]
        if all(isinstance(x, Mapping) for x in vals):
            m, s = _mean_values(vals)
            if m:
                mean[key], sd[key] = m, s
        elif all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals):
            arr = np.array(vals, dtype=float)
            mean[key] = float(arr.mean())
            sd[key] = float(arr.std(ddof=1)) if len(arr) > 1 else None
    return mean, sd


def _mean_over_epochs(run, variant: str, spec, epochs: int, *, n_boot: int, seed: int) -> dict[str, Any]:
    """One variant scored on each epoch alone; every score the mean over epochs (``epoch_sd``: their spread)."""
    short = incomplete_items(run.sample_records(variant), epochs)
    if short:
        # A partial epoch scored as a whole one would weigh its few items like a full pass.
        raise ConfigError(f"{run.path}, variant {variant}: {plural(len(short), 'item')} {'lacks' if len(short) == 1 else 'lack'} "
                          f"a sample of some of the "
                          f"{epochs} epochs (first: {short[0]!r}); the mean needs every epoch complete: "
                          f"{missing_samples_hint(epochs, run.writer)}, or use --reducer majority")
    per_epoch = [score_records(run.sample_records(variant, epoch=e), spec, n_boot=0, seed=seed)
                 for e in range(1, epochs + 1)]
    per_epoch = [s for s in per_epoch if s["items"]]
    samples = run.sample_records(variant)
    if all(r.error for r in samples):  # nothing answered, or nothing written yet (a stopped run)
        return _unscored({"items": len({r.item_id for r in samples}), **_sample_counts(samples),
                          "epochs_scored": 0}, samples, spec)
    # An epoch none of whose samples was answered has no score to average in.
    per_epoch = [s for s in per_epoch if s.get("n_scored") != 0]
    # Only a multiclass score has a confusion matrix to carry over (every epoch's answers together).
    confusion = score_records(samples, spec, n_boot=0, seed=seed)["confusion"] if spec.kind == "multiclass" else None
    mean, sd = _mean_values(per_epoch) if per_epoch else ({}, {})
    for k in ("items", "answered", "errors", "parse_failures", "parse_failure_rate", "pending"):
        mean.pop(k, None)
        sd.pop(k, None)
    out = {"items": len({r.item_id for r in samples}), **_sample_counts(samples),
           "epochs_scored": len(per_epoch), **mean, "epoch_sd": sd}
    if confusion is not None:
        out["confusion"] = confusion
    return out


def _per_item_reducer(label) -> bool:
    """Whether a run's reducer label (``pass@3``, ``majority`` …) names a registered per-item reducer."""
    kind = reducer_kind(label) if label else None
    return kind is not None and kind.estimator is not None


def _pass_variant(run, variant: str, spec, reducer, epochs: int, *, n_boot: int, seed: int) -> dict[str, Any]:
    """pass@k or pass^k of one variant, with the counts of its samples."""
    samples = run.sample_records(variant)
    _check_labels(samples, spec)
    if all(r.error for r in samples):  # nothing answered, or nothing written yet (a stopped run)
        out = {"items": len({r.item_id for r in samples}), **_sample_counts(samples), "k": reducer.k,
               "pass": None, "pass_ci95": None}
        out["n_scored"] = 0
        out["note"] = (f"no score: none of {plural(len(samples), 'sample')} was answered" if samples
                       else "no score: no sample answered yet")
        return out
    res = pass_scores(samples, reducer, spec.is_correct, epochs=epochs, n_boot=n_boot, seed=seed,
                      where=f"{run.path}, variant {variant}", writer=run.writer)
    return {"items": res["items"], **_sample_counts(samples), "k": res["k"], "pass": res["value"],
            "pass_ci95": res["ci95"]}


def _sample_counts(samples: Sequence[RunRecord]) -> dict[str, Any]:
    """Samples, answered, failed requests and unparsed answers among every epoch's samples."""
    errors = sum(1 for r in samples if r.error)
    parse_failures = sum(1 for r in samples if not r.error and r.label is None)
    answered = len(samples) - errors
    return {"samples": len(samples), "answered": answered, "errors": errors, "parse_failures": parse_failures,
            "parse_failure_rate": parse_failures / answered if answered else None}


def _dotted(d: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(d, Mapping) or part not in d:
            return None
        d = d[part]
    return d


def _report_columns(metrics: Metrics, spec=None) -> tuple[str, ...]:
    """The dotted scores the run's task shows as report columns (:attr:`~causalgraph.tasks.AnswerKind.report_columns`)."""
    if spec is None:
        spec = find_task(metrics.task)
    return tuple(spec.answers.report_columns) if spec is not None else ()


def column_name(path: str) -> str:
    """The report column of a dotted score name (``authors.f1`` → ``authors_f1``)."""
    return path.replace(".", "_")


def task_columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The columns the tasks of ``rows`` declare (:attr:`~causalgraph.tasks.AnswerKind.report_columns`) that they filled."""
    out: list[str] = []
    for name in dict.fromkeys(r.get("task") for r in rows):
        spec = find_task(name)
        for path in (spec.answers.report_columns if spec is not None else ()):
            col = column_name(path)
            if col not in out and any(col in r for r in rows):
                out.append(col)
    return out


def report_rows(metrics: Metrics | Mapping[str, Any], *, run_name: str = "", spec=None) -> list[dict[str, Any]]:
    """Flat rows for a table: one per variant, then one per strategy (mean ± std).

    The ``variant`` column holds the variant id, or ``[strategy]`` on a strategy's row.

    ``metrics`` is a run's :class:`~causalgraph.runlog.files.Metrics` (``run.metrics``) or the dict
    :func:`compute_metrics` returns.

    Besides the scores every task has, a row gets the columns its task
    declares (:attr:`~causalgraph.tasks.AnswerKind.report_columns`; ``spec``, else
    the registered task of ``metrics["task"]``).
    """
    metrics = Metrics.of(metrics)
    extra = _report_columns(metrics, spec)
    rows = []
    variants = metrics.variants or {}
    binary = any("f1" in s and "macro_f1" not in s for s in variants.values())
    pass_name = metrics.reducer if _per_item_reducer(metrics.reducer) else None
    # With epochs, what is pending is counted in samples (item × epoch), and the column says so.
    pending_key = "samples_pending" if (metrics.epochs or 1) > 1 else "pending"
    for v, s in variants.items():
        row = {"run": run_name, "task": metrics.task, "model": metrics.model, "variant": v,
               "strategy": s.get("strategy"), "items": s.get("items"), "errors": s.get("errors"),
               "parse_fail_rate": s.get("parse_failure_rate"), pending_key: s.get("pending")}
        if s.get("n_scored") == 0:  # nothing answered: its scores are None, shown as "—" (UNSCORED)
            row["n_scored"] = 0
        if "loglik" in s:  # only runs scored by log-likelihood have these columns
            row.update({"method": "loglik", "acc": s["loglik"]["acc"], "acc_norm": s["loglik"]["acc_norm"]})
            cal = s.get("calibration") or {}
            row.update({"ece": cal.get("ece"), "ece_adaptive": cal.get("ece_adaptive"), "brier": cal.get("brier")})
        elif "choice_logprobs" in s:  # read from generated-token log-probabilities: acc_norm is undefined
            ch = s["choice_logprobs"]
            cal = s.get("calibration") or {}
            row.update({"method": "choice-logprobs", "acc": ch["acc"], "acc_norm": None, "reached": ch["reached"],
                        "ece": cal.get("ece"), "ece_adaptive": cal.get("ece_adaptive"), "brier": cal.get("brier")})
        ag = s.get("answer_graph")
        if ag:  # a graph-first variant: its accuracy beside the edge F1 of the same items (stats.answer_graph)
            row.update({"graph_items": ag.get("scored"), "answer_accuracy": ag.get("accuracy"),
                        "edge_f1": ag.get("edge_f1"), "gap": ag.get("gap"), "gap_ci95": _ci(ag.get("gap_ci95")),
                        "right_answer_wrong_graph": ag.get("right_answer_wrong_graph"),
                        "wrong_answer_right_graph": ag.get("wrong_answer_right_graph")})
        if "agreement" in s:
            row["identical"] = s["agreement"]["identical"]
            row["fleiss_kappa"] = s["agreement"]["fleiss_kappa"]
        if pass_name:
            row[pass_name] = s.get("pass")
            row["pass_ci95"] = _ci(s.get("pass_ci95"))
            rows.append(row)
            continue
        for name, value in (s.get("scoring_metrics") or {}).items():  # asked for by name (--scoring-metric)
            row[name] = value
            row[f"{name}_ci95"] = _ci((s.get("scoring_metrics_ci95") or {}).get(name))
        sd = s.get("epoch_sd") or {}
        if "macro_f1" in s:
            row.update({"precision": s["macro_precision"], "recall": s["macro_recall"], "f1": s["macro_f1"],
                        "f1_ci95": _ci(s.get("macro_f1_ci95")), "accuracy": s.get("accuracy"), "averaged": "macro"})
            for path in extra:
                if _dotted(s, path) is not None:
                    row[column_name(path)] = _dotted(s, path)
            if sd:
                row["f1_sd"] = sd.get("macro_f1")
        elif "f1" in s:
            row.update({"precision": s["precision"], "recall": s["recall"], "f1": s["f1"],
                        "f1_ci95": _ci(s.get("f1_ci95")), "accuracy": s.get("accuracy")})
            for path in extra:
                if _dotted(s, path) is not None:
                    row[column_name(path)] = _dotted(s, path)
            if sd:
                row["f1_sd"] = sd.get("f1")
        rows.append(row)
    for strat, agg in (metrics.strategies or {}).items():
        row = {"run": run_name, "task": metrics.task, "model": metrics.model, "variant": f"[{strat}]",
               "strategy": strat, "items": None}
        if agg.get("variants") and all((variants.get(v) or {}).get("n_scored") == 0 for v in agg["variants"]):
            row.update({"n_scored": 0, "precision": None, "recall": None, "f1": None})
        keys = ("precision", "recall", "f1") if binary else ("macro_precision", "macro_recall", "macro_f1")
        for out_key, k in zip(("precision", "recall", "f1"), keys):
            if k in agg:
                row[out_key] = format_mean_std(agg[k])
        if pass_name and "pass" in agg:
            row[pass_name] = format_mean_std(agg["pass"])
        for path in extra:
            if path in agg:
                row[column_name(path)] = format_mean_std(agg[path])
        for name in metrics.scoring_metrics or {}:
            if f"scoring_metrics.{name}" in agg:
                row[name] = format_mean_std(agg[f"scoring_metrics.{name}"])
        rows.append(row)
    return rows


#: The columns of a graph-first variant's row (accuracy beside the edge F1 of the same items).
ANSWER_GRAPH_COLUMNS = ["graph_items", "answer_accuracy", "edge_f1", "gap", "gap_ci95", "right_answer_wrong_graph",
                        "wrong_answer_right_graph"]


def answer_graph_columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """:data:`ANSWER_GRAPH_COLUMNS` when a row is a graph-first variant's, else none (other tables keep their columns).

    Examples
    --------
    >>> answer_graph_columns([{"f1": 1.0}]), answer_graph_columns([{"edge_f1": 0.5}])[:3]
    ([], ['graph_items', 'answer_accuracy', 'edge_f1'])
    """
    return list(ANSWER_GRAPH_COLUMNS) if any("edge_f1" in r for r in rows) else []


def agreement_columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The agreement columns :func:`report_rows` filled (runs with epochs), for a table's column list."""
    return [c for c in ("identical", "fleiss_kappa") if any(c in r for r in rows)]


def loglik_columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The log-likelihood columns :func:`report_rows` filled (``--method loglik`` runs), for a table."""
    return [c for c in ("acc", "acc_norm", "reached", "ece", "ece_adaptive", "brier") if any(c in r for r in rows)]


def _ci(ci) -> Optional[str]:
    if not ci or ci[0] is None:
        return None
    return f"[{ci[0]:.4f}, {ci[1]:.4f}]"


def format_mean_std(agg: Mapping[str, Any]) -> str:
    """``"0.8204 ± 0.1204"`` from ``{"mean": …, "std": …}`` (no ± when there is one value).

    Examples
    --------
    >>> format_mean_std({"mean": 0.82041, "std": 0.12043})
    '0.8204 ± 0.1204'
    """
    std = agg.get("std")
    if std is None:
        return f"{agg['mean']:.4f}"
    return f"{agg['mean']:.4f} ± {std:.4f}"
