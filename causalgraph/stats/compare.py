"""Comparing arms of a study: the same items under two encodings, event namings, graph edits, variants, models or
prompt catalogs.

:func:`compare_runs` reads any number of runs, sorts every answered item into an *arm* by one
axis, pairs the items of two arms that differ only along that axis, and reports per task and per
pair of arms:

* the F1 of each arm on the paired items — binary tasks the positive class, multiclass tasks macro
  F1, set-valued tasks micro F1, by the task's kind and hooks
  (:meth:`causalgraph.tasks.Task.paired_score`) — and their difference
  (second arm minus first) with a ``1 − alpha`` interval over *statements* (every paired item of a
  statement counts in both arms at once; ``interval`` below);
* McNemar's test on correctness (the label equals the gold label; for sets, the exact set), exact
  binomial by default (``midp`` for the mid-p variant), with Holm's correction over the comparisons
  of the task;
* ``p_clustered``: the accuracy difference tested over statements — the mean paired difference with
  a CR2 standard error and Bell–McCaffrey degrees of freedom (:mod:`causalgraph.stats.cr2`).
  McNemar asks whether the two arms answer *these items* alike and holds its level when they do;
  when one arm is better on some statements and worse on others, it rejects far too often for the
  question "is one arm better on statements like these" — ``p_clustered`` answers that one
  (``test="clustered"`` makes it the p that Holm corrects). docs/statistics.md has the measured rates.

The interval of the F1 difference (``interval``): ``cr2`` (default) linearises each arm's F1 as a
ratio of item totals (:func:`causalgraph.stats.resampling.ratio_influence`) and takes the CR2 t
interval of the paired difference with Bell–McCaffrey degrees of freedom; ``bootstrap`` is the
percentile interval of ``n_boot`` statement resamples (the method before issue 37), widened for few
statements by :func:`causalgraph.stats.resampling.cluster_interval`; resamples where an F1 is
undefined are left out.

Axes (``by``) and what else must match for two items to pair:

=================  ===========================================  ==================================
``by``             arm                                          paired with the same …
=================  ===========================================  ==================================
``encoding``       encoding named by the variant prefix (A, MX)  model, template number, event names
``event-names``    the ``.scheme`` suffix (``real`` without)     model, variant without the suffix
``graph-edit``     the ``.reverse``/``.shuffle`` suffix          model, variant without the suffix
                   (``real`` without)
``variant``        the variant id                                model
``model``          the run's model                               variant
``prompts``        the run's prompt catalog (authors, tables)    model, variant
=================  ===========================================  ==================================

A run's catalog is its manifest's ``prompts`` (a run of a ClimateCause paper task whose manifest
names none is a ``tables`` run: it was written before the authors' catalog existed).

and always the item key (:func:`causalgraph.stats.pairing.pair_key`: statement and event or pair).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from ..graph.edits import join_edit, split_edit
from ..graph.naming import split_variant
from ..prompts import variant_encoding
from ..scoring.scores import prf_counts
from .corrections import holm
from .mcnemar import mcnemar
from .pairing import as_run, pair_key, run_name
from .resampling import cluster_interval, cluster_t_interval, ratio_influence, statement_weights
from .answer_graph import answer_graph_scores
from ..alignment.events import DEFAULT_RULE
from ..tasks import get_task
from ..bench.scoring import MIN_STATEMENTS_INTERVAL, check_scoring_metrics, group_confusions
from ..runlog.record import RunRecord

__all__ = ["AXES", "COLUMNS", "GRAPH_COLUMNS", "graph_columns", "INTERVALS", "TESTS", "compare_runs", "arm_of",
           "arm_cells", "f1_influence", "SCORING_COLUMNS", "confusion_influence", "MIN_STATEMENTS_DIFF"]

#: The axes arms can differ along.
AXES = ("encoding", "event-names", "graph-edit", "variant", "model", "prompts")
#: Columns of the table :func:`compare_runs` returns.
COLUMNS = ["task", "metric", "arm_a", "arm_b", "n", "statements", "f1_a", "f1_b", "diff", "ci_low", "ci_high",
           "b", "c", "p", "p_holm", "significant", "p_clustered", "df"]
#: Columns added per arm (suffix ``_a``/``_b``) when an arm's variant writes a graph before it answers:
#: its accuracy beside the edge F1 of the same paired items, their gap with its interval over statements,
#: and the counts of right answers with wrong graphs and the reverse (:mod:`causalgraph.stats.answer_graph`).
GRAPH_COLUMNS = ["accuracy", "edge_f1", "gap", "gap_ci_low", "gap_ci_high", "right_answer_wrong_graph",
                 "wrong_answer_right_graph"]
#: Intervals of the F1 difference and tests Holm may correct.
INTERVALS = ("cr2", "bootstrap")
TESTS = ("mcnemar", "clustered")


def arm_of(by: str, model: str, variant: str, prompts: Optional[str] = None) -> tuple[str, tuple]:
    """``(arm, what else must match)`` of an item of ``variant`` answered by ``model`` (from catalog ``prompts``).

    Examples
    --------
    >>> arm_of("encoding", "m", "MX_5.nonsense")
    ('matrix', ('m', '5', 'nonsense'))
    >>> arm_of("event-names", "m", "A_1")
    ('real', ('m', 'A_1'))
    >>> arm_of("prompts", "m", "A_4", "tables")
    ('tables', ('m', 'A_4'))
    >>> arm_of("graph-edit", "m", "A_5.nonsense.reverse")
    ('reverse', ('m', 'A_5.nonsense'))
    """
    if by not in AXES:
        raise ConfigError(f"unknown axis {by!r}; expected one of {', '.join(AXES)}")
    if by == "prompts":
        if prompts is None:
            raise ConfigError(f"variant {variant!r} answered by {model!r} comes from no prompt catalog (its task has "
                              "one set of prompts); compare it --by variant or --by model")
        return prompts, (model, variant)
    rest, edit = split_edit(variant)
    if by == "graph-edit":
        return edit, (model, rest)
    base, scheme = split_variant(rest)
    if by == "encoding":
        enc = variant_encoding(base)
        if enc is None:
            raise ConfigError(f"variant {variant!r} names no graph encoding (graph variants read A_5, MX_5, DOT_1 …); "
                              f"compare it --by variant or --by model")
        # An edited variant pairs only with the same edit (real ones keep their key as it was).
        return enc, (model, base.partition("_")[2], scheme) + ((edit,) if edit != "real" else ())
    if by == "event-names":
        return scheme, (model, join_edit(base, edit))
    if by == "variant":
        return variant, (model,)
    return model, (variant,)


def _catalog_of(run) -> Optional[str]:
    """The prompt catalog of a run: its manifest's, else the one its task says unrecorded runs used."""
    try:
        return get_task(run.task).manifest_prompts(run.manifest)
    except ConfigError:  # a task not registered here: only what the manifest says
        recorded = run.manifest.prompts
        return None if recorded is None else str(recorded)


@dataclass(frozen=True)
class _Scored:
    """One item's contribution to its arm's F1 (per-class counts) and whether it was answered right."""

    counts: np.ndarray
    correct: bool


def _score_record(rec: RunRecord, task) -> _Scored:
    """Counts of one record as its task declares them (:meth:`~causalgraph.tasks.Task.paired_score`)."""
    counts, right = task.paired_score(rec)
    return _Scored(np.asarray(counts, dtype=np.int64), right)


def _f1(counts: np.ndarray) -> float:
    if counts.ndim == 2:  # one (tp, fp, fn) row per class: macro F1
        # The macro rule of bench.scoring (MACRO_RULE): classes present in gold or predictions only.
        present = [prf_counts(*row)[2] for row in counts if row.sum()]
        return float(np.mean(present)) if present else math.nan
    return prf_counts(*counts)[2] if counts.sum() else math.nan


def f1_influence(counts: np.ndarray) -> tuple[float, np.ndarray]:
    """``(F1, u)``: an arm's F1 over items and each item's influence on it (a linearisation).

    ``counts`` is ``n × 3`` (tp, fp, fn per item: binary or micro F1) or ``n × C × 3`` (per class:
    macro F1 over the classes present). F1 = Σ 2tp / Σ (2tp + fp + fn) is a ratio of totals, whose
    influence is :func:`~causalgraph.stats.resampling.ratio_influence`; macro F1 averages its classes'.

    Examples
    --------
    >>> f, u = f1_influence(np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1]]))
    >>> round(f, 4), round(float(u.sum()), 12)
    (0.6667, 0.0)
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 2:
        counts = counts[:, None, :]
    f1s, us = [], []
    for c in range(counts.shape[1]):
        tp, fp, fn = counts[:, c, 0], counts[:, c, 1], counts[:, c, 2]
        den = 2 * tp + fp + fn
        if den.sum() > 0:
            f, u = ratio_influence(2 * tp, den)
            f1s.append(f)
            us.append(u)
    if not f1s:
        return math.nan, np.full(len(counts), math.nan)
    return float(np.mean(f1s)), np.mean(us, axis=0)


def arm_cells(runs: Sequence[Any], by: str) -> dict[str, dict[str, dict[tuple, Mapping[str, Any]]]]:
    """task → arm → (what else must match, item key) → record, arms in order of first appearance."""
    cells: dict[str, dict[str, dict[tuple, Mapping[str, Any]]]] = {}
    for r in runs:
        run = as_run(r)
        catalog = _catalog_of(run) if by == "prompts" else None
        for v in run.variants:
            try:
                arm, rest = arm_of(by, run.model, v, catalog)
            except ConfigError as exc:
                raise ConfigError(f"{run_name(run)}: {exc}") from None
            for rec in run.records(v):
                task_cells = cells.setdefault(str(rec.task or run.task), {})
                slot = task_cells.setdefault(arm, {})
                k = (rest, pair_key(rec))
                if k in slot:
                    raise ConfigError(f"{run_name(run)}: item {rec.item_id!r} is in arm {arm!r} twice "
                                      f"(two runs of the same variant and model?)")
                slot[k] = rec
    return cells


def _unscored_arms(row: dict[str, Any], arms: Sequence[str], scoring: Sequence[str] = ()) -> None:
    """Blank the scores of a comparison row where an arm has no answered item among the shared ones.

    Failed requests count as wrong answers beside answered items; alone they would make the arm's F1 0
    and its McNemar test "significant" against a model that was never asked (issue 35, item 5).  The
    same holds for the scoring metrics named in ``scoring`` (a balanced accuracy of 0 for an arm never
    asked): the arm's value, the difference and its interval are blanked too.
    """
    if not arms:
        return
    for arm, x in ((row["arm_a"], "a"), (row["arm_b"], "b")):
        if arm in arms:
            row[f"f1_{x}"] = None
            row.update({f"{name}_{x}": None for name in scoring})
    row.update({f"{name}_{c}": None for name in scoring for c in ("diff", "ci_low", "ci_high")})
    row.update({"diff": None, "ci_low": None, "ci_high": None, "p": None, "p_clustered": None, "df": None,
                "note": f"no answered item in arm {', '.join(arms)}: no score, no test"})


def compare_runs(runs: Sequence[Any], by: str = "encoding", *, alpha: float = 0.05, n_boot: int = 1000,
                 seed: int = 0, exact: bool = True, midp: bool = False, interval: str = "cr2",
                 test: str = "mcnemar", align: str = DEFAULT_RULE, scoring_metrics=None):
    """Per task, every pair of arms compared on their paired items (see the module docstring).

    Parameters
    ----------
    runs
        Run directories or loaded runs (several tasks, models and variants may be mixed).
    by
        One of :data:`AXES`.
    alpha
        Family-wise level of Holm's correction over the comparisons of each task.
    n_boot, seed
        Bootstrap resamples of statements and their seed (the interval is reproducible).
    exact
        McNemar's exact binomial test (default); ``False`` for χ² with continuity correction.
    midp
        McNemar's mid-p test (with ``exact``).
    interval
        ``cr2`` (default) or ``bootstrap``: the interval of the F1 difference (module docstring).
    test
        ``mcnemar`` (default) or ``clustered``: the p-values Holm corrects into ``p_holm`` and
        ``significant``.
    align
        For arms whose variant writes a graph before it answers (graph-first): the event alignment
        (default ``token``) under which each item's graph gets its edge F1; such arms add the
        :data:`GRAPH_COLUMNS` (``accuracy_a``, ``edge_f1_a``, ``gap_a`` …) on the paired items.
    scoring_metrics
        Registered scoring metrics (:mod:`causalgraph.scoring.scoring_metrics`; none by default) to
        compare too: per metric ``<name>_a``, ``<name>_b``, ``<name>_diff`` (b − a) and the
        interval ``<name>_ci_low``/``<name>_ci_high`` of the difference, built as ``interval`` says
        (``cr2``: the linearised difference, :func:`confusion_influence`; ``bootstrap``: paired
        statement resamples); not estimable with fewer than :data:`MIN_STATEMENTS_DIFF` statements
        (a ``scoring_note`` says so).  For tasks scored by labels; they add no test to Holm's family.

    Returns
    -------
    pandas.DataFrame
        One row per task and pair of arms, columns :data:`COLUMNS`; ``diff = f1_b - f1_a``; ``b``
        counts items the first arm got right and the second wrong, ``c`` the reverse.

    Raises
    ------
    ConfigError
        For an unknown axis, an item present twice in one arm, or a task with no two arms that share
        an item.

    Examples
    --------
    >>> table = compare_runs(["runs/a", "runs/b"], by="encoding")   # doctest: +SKIP
    >>> table[["task", "arm_a", "arm_b", "diff", "p_holm"]]          # doctest: +SKIP
    """
    import pandas as pd

    if by not in AXES:
        raise ConfigError(f"unknown axis {by!r}; expected one of {', '.join(AXES)}")
    if interval not in INTERVALS:
        raise ConfigError(f"unknown interval {interval!r}; expected one of {', '.join(INTERVALS)}")
    if test not in TESTS:
        raise ConfigError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    # task -> arm -> (rest, key) -> record ; arms in order of first appearance
    cells = arm_cells(runs, by)
    rows = []
    names: list[str] = []
    for task_name, arms in cells.items():
        task = get_task(task_name)
        task.check_paired()
        metric = task.paired_metric_name()
        asked = check_scoring_metrics(scoring_metrics, task)  # before any pair is scored: one error line
        names = [m.name for m in asked]
        task_rows = []
        for a, b in itertools.combinations(list(arms), 2):
            keys = [k for k in arms[a] if k in arms[b]]
            if not keys:
                continue
            sa = [_score_record(arms[a][k], task) for k in keys]
            sb = [_score_record(arms[b][k], task) for k in keys]
            stmts: dict[Any, list[int]] = {}
            for i, k in enumerate(keys):
                sid = arms[a][k].meta.get("statement_id", k)
                stmts.setdefault(sid, []).append(i)
            per_a = np.stack([sum(sa[i].counts for i in idx) for idx in stmts.values()])
            per_b = np.stack([sum(sb[i].counts for i in idx) for idx in stmts.values()])
            f1_a, f1_b = _f1(per_a.sum(axis=0)), _f1(per_b.sum(axis=0))
            group_of = [sid for sid, idx in stmts.items() for _ in idx]
            order = [i for idx in stmts.values() for i in idx]
            if interval == "cr2":
                fa, ua = f1_influence(np.stack([sa[i].counts for i in order]))
                fb, ub = f1_influence(np.stack([sb[i].counts for i in order]))
                ci = cluster_t_interval(fb - fa, ub - ua, group_of, level=1 - alpha, bounds=(-1.0, 1.0))
                lo, hi = ci["low"], ci["high"]
            else:
                w = statement_weights(len(stmts), n_boot, seed)
                diffs = np.array([_f1(np.tensordot(wi, per_b, axes=1)) - _f1(np.tensordot(wi, per_a, axes=1))
                                  for wi in w])
                lo, hi = cluster_interval(diffs, f1_b - f1_a, len(stmts), level=1 - alpha, bounds=(-1.0, 1.0))
            right_a = np.array([float(sa[i].correct) for i in order])
            right_b = np.array([float(sb[i].correct) for i in order])
            d = right_b - right_a
            clustered = cluster_t_interval(float(d.mean()), d - d.mean(), group_of, bounds=None)
            test_ = mcnemar([s.correct for s in sa], [s.correct for s in sb], exact=exact or midp, midp=midp,
                            labels=(True, False))
            row = {"task": task_name, "metric": metric, "arm_a": a, "arm_b": b, "n": len(keys),
                   "statements": len(stmts), "f1_a": f1_a, "f1_b": f1_b, "diff": f1_b - f1_a,
                   "ci_low": float(lo), "ci_high": float(hi), "b": test_.b, "c": test_.c, "p": test_.p,
                   "p_clustered": clustered["p"], "df": clustered["df"]}
            for arm, x in ((a, "a"), (b, "b")):
                ag = answer_graph_scores([arms[arm][k] for k in keys], task, rule=align, n_boot=n_boot, seed=seed,
                                         level=1 - alpha)
                if ag is not None:
                    ci = ag.get("gap_ci95") or (None, None)
                    row.update({f"accuracy_{x}": ag["accuracy"], f"edge_f1_{x}": ag["edge_f1"], f"gap_{x}": ag["gap"],
                                f"gap_ci_low_{x}": ci[0], f"gap_ci_high_{x}": ci[1],
                                f"right_answer_wrong_graph_{x}": ag["right_answer_wrong_graph"],
                                f"wrong_answer_right_graph_{x}": ag["wrong_answer_right_graph"]})
                    notes = list(ag.get("notes", ()))
                    if ag["scored"] and ag["statements"] < 2 and n_boot:
                        notes.append("gap interval not estimable: the graphs come from one statement")
                    if notes:  # each arm's notes (both arms may be graph-first)
                        row["graph_note"] = "; ".join([*filter(None, [row.get("graph_note")]),
                                                       *(f"arm {arm}: {n}" for n in notes)])
            if asked:
                _scoring_metric_diffs(row, asked, task, [arms[a][k] for k in keys], [arms[b][k] for k in keys],
                                      list(stmts.values()), n_boot=n_boot, seed=seed, level=1 - alpha,
                                      interval=interval)
            _unscored_arms(row, [arm for arm in (a, b) if all(arms[arm][k].error for k in keys)],
                           [m.name for m in asked])
            undefined = [arm for arm, f in ((a, f1_a), (b, f1_b)) if f != f]
            if "note" not in row and undefined:
                # F1 with no positive in gold or answers is undefined, not 0; McNemar on correctness still holds.
                row["note"] = (f"f1 undefined in arm {', '.join(undefined)} (no positive in gold or answers): no "
                               f"F1 difference or interval")
            task_rows.append(row)
        if not task_rows:
            raise ConfigError(f"task {task_name!r}: no two arms by {by} share an item (arms: {', '.join(arms)}); "
                              f"compare runs of the same items")
        # A clustered p that cannot be computed (one statement) is 1 for Holm: no evidence.  Rows whose arm
        # has nothing answered carry no test and stay out of the family.
        key = "p" if test == "mcnemar" else "p_clustered"
        tested = [row for row in task_rows if row["p"] is not None]
        corr = holm([row[key] if row[key] == row[key] else 1.0 for row in tested], alpha=alpha) if tested else None
        for row, p_adj, rej in zip(tested, corr.p_adjusted if corr else (), corr.reject if corr else ()):
            row["p_holm"] = p_adj
            row["significant"] = bool(rej)
        for row in task_rows:
            if row["p"] is None:
                row["p_holm"] = row["significant"] = None
        rows += task_rows
    # ``note`` only where an arm had nothing answered or an undefined F1 (otherwise the columns are kept);
    # the answer-against-graph columns only where an arm wrote graphs.
    extra = [f"{n}_{x}" for n in names for x in SCORING_COLUMNS]
    extra += ["scoring_note"] if any("scoring_note" in r for r in rows) else []
    return pd.DataFrame(rows, columns=COLUMNS + extra + graph_columns(rows)
                        + (["note"] if any("note" in r for r in rows) else []))


#: The columns each scoring metric adds to a comparison row, after its name (``mcc_a`` …).
SCORING_COLUMNS = ("a", "b", "diff", "ci_low", "ci_high")


def confusion_influence(value, matrix: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Each item's influence on a metric of the confusion matrix (the delta method), for CR2 intervals.

    ``value(matrix) -> float | None`` is the metric of a (float) matrix of counts, ``matrix`` the
    items' totals and ``rows``/``cols`` each item's cell.  With ``g`` the metric's gradient in the
    counts (central differences at the cells that hold items), item ``i``'s influence is
    ``n (g[cell_i] − mean_j g[cell_j])``, so that the CR2 standard error of its mean is the metric's
    (for a ratio of totals this is :func:`~causalgraph.stats.resampling.ratio_influence`).  All NaN
    where the metric is undefined at or next to ``matrix``.

    Examples
    --------
    >>> acc = lambda m: float(np.trace(m[:, :2]) / m.sum())
    >>> u = confusion_influence(acc, np.array([[2, 1, 0], [0, 1, 0]]), np.array([0, 0, 0, 1]),
    ...                         np.array([0, 0, 1, 1]))
    >>> [round(float(x), 6) for x in u]
    [0.25, 0.25, -0.75, 0.25]
    """
    base = np.asarray(matrix, dtype=float)
    n = len(rows)
    grad = np.full(base.shape, math.nan)
    step = 1e-4
    for r, c in set(zip(rows.tolist(), cols.tolist())):
        up, down = base.copy(), base.copy()
        up[r, c] += step
        down[r, c] -= step
        hi, lo = value(up), value(down)
        if hi is None or lo is None:
            return np.full(n, math.nan)
        grad[r, c] = (hi - lo) / (2 * step)
    g = grad[rows, cols]
    return n * (g - g.mean())


def _scoring_metric_diffs(row: dict[str, Any], metrics, task, recs_a, recs_b, groups, *, n_boot: int, seed: int,
                          level: float, interval: str, minimum: bool = True) -> None:
    """Each scoring metric of both arms on the paired items, their difference and its interval: ``cr2`` (the
    CR2 t interval of the linearised difference, :func:`confusion_influence`) or ``bootstrap`` (both arms'
    matrices summed over the same drawn statements, widened for few statements).  ``minimum=False`` gives the
    interval below :data:`MIN_STATEMENTS_DIFF` too (for benchmarks/bench_scoring_metric_level.py)."""
    labels = list(task.labels)
    positive = task.positive if task.kind == "binary" else None
    per_a, per_b = group_confusions(recs_a, labels, groups), group_confusions(recs_b, labels, groups)
    order = [i for idx in groups for i in idx]
    group_of = [g for g, idx in enumerate(groups) for _ in idx]
    cells_a, cells_b = _cells([recs_a[i] for i in order], labels), _cells([recs_b[i] for i in order], labels)
    weights = statement_weights(len(groups), n_boot, seed) if n_boot and interval == "bootstrap" else None
    notes = []
    for m in metrics:
        va, vb = m.value(per_a.sum(axis=0), labels, positive), m.value(per_b.sum(axis=0), labels, positive)
        diff = None if va is None or vb is None else vb - va
        lo = hi = None
        width = m.bounds[1] - m.bounds[0]
        if diff is None:
            where = ", ".join(arm for arm, v in ((row["arm_a"], va), (row["arm_b"], vb)) if v is None)
            notes.append(f"{m.name} undefined in arm {where}: no difference")
        elif minimum and len(groups) < MIN_STATEMENTS_DIFF:
            notes.append(f"{m.name} interval not estimable: {len(groups)} statements, at least "
                         f"{MIN_STATEMENTS_DIFF} needed (docs/statistics.md#scoring-metrics)")
        elif interval == "cr2":
            def metric(mat):
                return m.value(mat, labels, positive)
            ua = confusion_influence(metric, per_a.sum(axis=0), *cells_a)
            ub = confusion_influence(metric, per_b.sum(axis=0), *cells_b)
            ci = cluster_t_interval(diff, ub - ua, group_of, level=level, bounds=(-width, width))
            lo, hi = ci["low"], ci["high"]
        elif weights is not None:
            mats_a, mats_b = np.einsum("bs,sij->bij", weights, per_a), np.einsum("bs,sij->bij", weights, per_b)
            diffs = np.array([math.nan if (x := m.value(ma, labels, positive)) is None
                              or (y := m.value(mb, labels, positive)) is None else y - x
                              for ma, mb in zip(mats_a, mats_b)])
            lo, hi = cluster_interval(diffs, diff, len(groups), level=level, bounds=(-width, width))
        if lo is not None and lo != lo:
            lo = hi = None
            notes.append(f"{m.name} interval not estimable: the metric is undefined next to these answers")
        row.update({f"{m.name}_a": va, f"{m.name}_b": vb, f"{m.name}_diff": diff,
                    f"{m.name}_ci_low": None if lo is None else float(lo),
                    f"{m.name}_ci_high": None if hi is None else float(hi)})
    if notes:
        row["scoring_note"] = "; ".join(notes)


#: Fewest statements for the interval of a scoring metric's difference (docs/statistics.md#scoring-metrics).
MIN_STATEMENTS_DIFF = MIN_STATEMENTS_INTERVAL


def _cells(records, labels) -> tuple[np.ndarray, np.ndarray]:
    """Each record's confusion cell: (gold row, answer column; ``unparsed`` last)."""
    idx = {lab: i for i, lab in enumerate(labels)}
    rows = np.array([idx[r.gold] for r in records], dtype=np.intp)
    cols = np.array([idx.get(r.label, len(labels)) for r in records], dtype=np.intp)
    return rows, cols


def graph_columns(rows) -> list[str]:
    """The :data:`GRAPH_COLUMNS` of both arms, when a row holds one (a graph-first arm), else none.

    Examples
    --------
    >>> graph_columns([{"f1_a": 0.5}]), graph_columns([{"edge_f1_b": 0.5}])[:2]
    ([], ['accuracy_a', 'edge_f1_a'])
    """
    if not any(f"edge_f1_{x}" in r for r in rows for x in "ab"):
        return []
    out = [f"{c}_{x}" for x in "ab" for c in GRAPH_COLUMNS]
    return out + (["graph_note"] if any("graph_note" in r for r in rows) else [])
