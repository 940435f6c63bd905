"""Comparing arms of a study: the same items under two encodings, event namings, graph edits, variants, models or
prompt catalogs.

:func:`compare_runs` reads any number of runs, sorts every answered item into an *arm* by one
axis, pairs the items of two arms that differ only along that axis, and reports per task and per
pair of arms:

* the F1 of each arm on the paired items — binary tasks the positive class, multiclass tasks macro
  F1, set-valued tasks micro F1, by the task's kind and hooks
  (:meth:`causalgraph.tasks.Task.paired_score`) — and their difference
  (second arm minus first) with a 95 % percentile bootstrap interval that resamples *statements*
  (every paired item of a drawn statement comes along, in both arms at once);
* McNemar's test on correctness (the label equals the gold label; for sets, the exact set), exact
  binomial by default, with Holm's correction over the comparisons of the task.

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
from ..graph_edits import join_edit, split_edit
from ..naming import split_variant
from ..prompts import variant_encoding
from ..scores import prf_counts
from .corrections import holm
from .mcnemar import mcnemar
from .pairing import as_run, pair_key, run_name
from ..tasks import get_task

__all__ = ["AXES", "COLUMNS", "compare_runs", "arm_of"]

#: The axes arms can differ along.
AXES = ("encoding", "event-names", "graph-edit", "variant", "model", "prompts")
#: Columns of the table :func:`compare_runs` returns.
COLUMNS = ["task", "metric", "arm_a", "arm_b", "n", "statements", "f1_a", "f1_b", "diff", "ci_low", "ci_high",
           "b", "c", "p", "p_holm", "significant"]


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


def _score_record(rec: Mapping[str, Any], task) -> _Scored:
    """Counts of one record as its task declares them (:meth:`~causalgraph.tasks.Task.paired_score`)."""
    counts, right = task.paired_score(rec)
    return _Scored(np.asarray(counts, dtype=np.int64), right)


def _f1(counts: np.ndarray) -> float:
    if counts.ndim == 2:  # one (tp, fp, fn) row per class: macro F1
        # The macro rule of bench.scoring (MACRO_RULE): classes present in gold or predictions only.
        present = [prf_counts(*row)[2] for row in counts if row.sum()]
        return float(np.mean(present)) if present else 0.0
    return prf_counts(*counts)[2]


def _unscored_arms(row: dict[str, Any], arms: Sequence[str]) -> None:
    """Blank the scores of a comparison row where an arm has no answered item among the shared ones.

    Failed requests count as wrong answers beside answered items; alone they would make the arm's F1 0
    and its McNemar test "significant" against a model that was never asked (issue 35, item 5).
    """
    if not arms:
        return
    for arm, key in ((row["arm_a"], "f1_a"), (row["arm_b"], "f1_b")):
        if arm in arms:
            row[key] = None
    row.update({"diff": None, "ci_low": None, "ci_high": None, "p": None,
                "note": f"no answered item in arm {', '.join(arms)}: no score, no test"})


def compare_runs(runs: Sequence[Any], by: str = "encoding", *, alpha: float = 0.05, n_boot: int = 1000,
                 seed: int = 0, exact: bool = True):
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
    # task -> arm -> (rest, key) -> record ; arms in order of first appearance
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
                task_cells = cells.setdefault(str(rec.get("task") or run.task), {})
                slot = task_cells.setdefault(arm, {})
                k = (rest, pair_key(rec))
                if k in slot:
                    raise ConfigError(f"{run_name(run)}: item {rec.get('item_id')!r} is in arm {arm!r} twice "
                                      f"(two runs of the same variant and model?)")
                slot[k] = rec
    rows = []
    for task_name, arms in cells.items():
        task = get_task(task_name)
        task.check_paired()
        metric = task.paired_metric_name()
        task_rows = []
        for a, b in itertools.combinations(list(arms), 2):
            keys = [k for k in arms[a] if k in arms[b]]
            if not keys:
                continue
            sa = [_score_record(arms[a][k], task) for k in keys]
            sb = [_score_record(arms[b][k], task) for k in keys]
            stmts: dict[Any, list[int]] = {}
            for i, k in enumerate(keys):
                sid = (arms[a][k].get("meta") or {}).get("statement_id", k)
                stmts.setdefault(sid, []).append(i)
            per_a = np.stack([sum(sa[i].counts for i in idx) for idx in stmts.values()])
            per_b = np.stack([sum(sb[i].counts for i in idx) for idx in stmts.values()])
            f1_a, f1_b = _f1(per_a.sum(axis=0)), _f1(per_b.sum(axis=0))
            rng = np.random.default_rng(seed)
            w = rng.multinomial(len(stmts), np.full(len(stmts), 1.0 / len(stmts)), size=n_boot)
            diffs = np.array([_f1(np.tensordot(wi, per_b, axes=1)) - _f1(np.tensordot(wi, per_a, axes=1))
                              for wi in w])
            lo, hi = np.quantile(diffs, [0.025, 0.975]) if n_boot else (math.nan, math.nan)
            test = mcnemar([s.correct for s in sa], [s.correct for s in sb], exact=exact, labels=(True, False))
            row = {"task": task_name, "metric": metric, "arm_a": a, "arm_b": b, "n": len(keys),
                   "statements": len(stmts), "f1_a": f1_a, "f1_b": f1_b, "diff": f1_b - f1_a,
                   "ci_low": float(lo), "ci_high": float(hi), "b": test.b, "c": test.c, "p": test.p}
            _unscored_arms(row, [arm for arm in (a, b) if all(arms[arm][k].get("error") for k in keys)])
            task_rows.append(row)
        if not task_rows:
            raise ConfigError(f"task {task_name!r}: no two arms by {by} share an item (arms: {', '.join(arms)}); "
                              f"compare runs of the same items")
        tested = [row for row in task_rows if row["p"] is not None]
        corr = holm([row["p"] for row in tested], alpha=alpha) if tested else None
        for row, p_adj, rej in zip(tested, corr.p_adjusted if corr else (), corr.reject if corr else ()):
            row["p_holm"] = p_adj
            row["significant"] = bool(rej)
        for row in task_rows:
            if row["p"] is None:
                row["p_holm"] = row["significant"] = None
        rows += task_rows
    # ``note`` only where an arm had nothing answered (a comparison of scored arms keeps its columns).
    return pd.DataFrame(rows, columns=COLUMNS + (["note"] if any("note" in r for r in rows) else []))
