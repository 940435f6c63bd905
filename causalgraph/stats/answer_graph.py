"""Right answer against right graph: a variant's task accuracy beside the edge F1 of the graphs of the same items.

A variant whose answers write the statement's graph before they answer (the graph-first variants,
``GraphFirst.parse``) gives each item two outcomes: whether the answer is right
(:meth:`causalgraph.tasks.Task.is_correct`) and the edge F1 of its graph against the gold graph after
event alignment (``GraphFirst.scores``, default rule ``token``).  :func:`answer_graph_summary` puts
them side by side **on the same items** — those whose edge F1 is defined; an item whose graph could
not be read (or whose request failed) has no F1 and is left out of both, counted and noted, never
scored 0:

* ``accuracy`` (share of right answers) and ``edge_f1`` (mean per-item edge F1), and their
  ``gap`` = accuracy − edge F1, each with a 95 % interval over **statements** (every item of a
  statement is drawn together): the percentile interval of ``n_boot`` statement resamples
  (:func:`causalgraph.stats.resampling.statement_weights`), widened for few statements and clipped
  by :func:`causalgraph.stats.resampling.cluster_interval` — the helpers of the run scores, not a
  bootstrap of its own;
* the counts of the four cells, with the **right graph** defined as edge F1 = 1 on the aligned graph
  (every gold edge and no other, correlation signs not asked): ``right_answer_wrong_graph`` and
  ``wrong_answer_right_graph`` above all.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..errors import ConfigError
from ..extraction.embed import load_embedder
from .resampling import cluster_interval, statement_weights
from ..runlog.record import RunRecord

__all__ = ["RIGHT_GRAPH", "answer_graph_summary", "answer_graph_scores", "graph_records"]

#: The definition of a right graph, written into every summary.
RIGHT_GRAPH = "edge F1 = 1 on the aligned graph"


def answer_graph_summary(rows: Sequence[tuple[Any, bool, Optional[float]]], *, n_boot: int = 1000, seed: int = 0,
                         level: float = 0.95) -> dict[str, Any]:
    """Accuracy, mean edge F1 and their gap over the items whose F1 is defined, with intervals over statements.

    Parameters
    ----------
    rows
        ``(statement, correct, edge F1 or None)`` per item.
    n_boot, seed, level
        Statement resamples (0: no intervals), their seed and the intervals' coverage.

    Returns
    -------
    dict
        ``items``, ``scored`` (F1 defined), ``undefined``, ``statements``, ``accuracy``,
        ``edge_f1``, ``gap`` and their ``*_ci95`` (``None`` when not estimable: fewer than two
        statements), the four counts ``right_answer_right_graph``, ``right_answer_wrong_graph``,
        ``wrong_answer_right_graph``, ``wrong_answer_wrong_graph``, the items left out by their
        answer (``right_answer_no_graph``, ``wrong_answer_no_graph``) and ``right_graph`` (the
        definition).  With no item scored every figure is ``None``.

    Examples
    --------
    >>> s = answer_graph_summary([("s1", True, 1.0), ("s1", True, 0.5), ("s2", False, 1.0), ("s2", False, None)])
    >>> s["scored"], s["accuracy"], s["edge_f1"], round(s["gap"], 4)
    (3, 0.6666666666666666, 0.8333333333333334, -0.1667)
    >>> s["right_answer_wrong_graph"], s["wrong_answer_right_graph"], s["undefined"]
    (1, 1, 1)
    """
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 0:
        raise ConfigError(f"n_boot {n_boot!r}: expected an integer >= 0 (0: no intervals)")
    if not 0 < level < 1:
        raise ConfigError(f"level {level!r}: expected a number in (0, 1)")
    for st, right, f1 in rows:
        if not isinstance(right, (bool, np.bool_)):
            raise ConfigError(f"statement {st!r}: correct {right!r}, expected True or False")
        if f1 is not None and not (isinstance(f1, (int, float)) and 0.0 <= f1 <= 1.0):
            raise ConfigError(f"statement {st!r}: edge F1 {f1!r}, expected a number in [0, 1] or None (undefined)")
    scored = [(st, bool(right), float(f1)) for st, right, f1 in rows if f1 is not None]
    out: dict[str, Any] = {"items": len(rows), "scored": len(scored), "undefined": len(rows) - len(scored),
                           "right_graph": RIGHT_GRAPH}
    cells = {"right_answer_right_graph": 0, "right_answer_wrong_graph": 0, "wrong_answer_right_graph": 0,
             "wrong_answer_wrong_graph": 0}
    for _, right, f1 in scored:
        cells[f"{'right' if right else 'wrong'}_answer_{'right' if f1 == 1.0 else 'wrong'}_graph"] += 1
    out.update(cells)
    # The items left out, by their answer: a model that answers without writing a graph shows here.
    out["right_answer_no_graph"] = sum(1 for _, right, f1 in rows if f1 is None and right)
    out["wrong_answer_no_graph"] = sum(1 for _, right, f1 in rows if f1 is None and not right)
    groups: dict[Any, list[int]] = {}
    for i, (st, _, _) in enumerate(scored):
        groups.setdefault(st, []).append(i)
    out["statements"] = len(groups)
    if not scored:
        out.update({k: None for k in ("accuracy", "edge_f1", "gap", "accuracy_ci95", "edge_f1_ci95", "gap_ci95")})
        return out
    right = np.array([r for _, r, _ in scored], dtype=float)
    f1 = np.array([f for _, _, f in scored], dtype=float)
    n = len(scored)
    out.update(accuracy=float(right.sum() / n), edge_f1=float(f1.sum() / n))
    out["gap"] = float((right.sum() - f1.sum()) / n)
    # Per statement: items, right answers and summed F1; a resample's figure is a ratio of weighted sums.
    if n_boot == 0:
        out.update(accuracy_ci95=None, edge_f1_ci95=None, gap_ci95=None)
        return out
    per = np.array([[len(ix), right[ix].sum(), f1[ix].sum()] for ix in groups.values()])
    w = statement_weights(len(groups), n_boot, seed).astype(float)
    tot = w @ per
    acc_b, f1_b = tot[:, 1] / tot[:, 0], tot[:, 2] / tot[:, 0]
    for name, values, bounds in (("accuracy", acc_b, (0.0, 1.0)), ("edge_f1", f1_b, (0.0, 1.0)),
                                 ("gap", acc_b - f1_b, (-1.0, 1.0))):
        lo, hi = cluster_interval(values, out[name], len(groups), level=level, bounds=bounds)
        out[f"{name}_ci95"] = None if math.isnan(lo) else [lo, hi]
    return out


def graph_records(records: Sequence[RunRecord], task) -> list[RunRecord]:
    """The records of ``records`` whose variant writes a graph before it answers (``task.graph_first.parse``)."""
    gf = getattr(task, "graph_first", None)
    if gf is None:
        return []
    writes: dict[str, bool] = {}
    out = []
    for r in records:
        v = str(r.variant)
        if v not in writes:
            writes[v] = gf.parse("", v) is not None
        if writes[v]:
            out.append(r)
    return out


@functools.lru_cache(maxsize=1)
def _shared_embedder():
    """The packaged encoder, loaded once per process: every graph of every arm aligns with it (seconds to load)."""
    return load_embedder()


class _LazyEmbedder:
    """The shared encoder, loaded only when an alignment gets past the token rule (most mock graphs never do)."""

    def cosine(self, a, b):
        return _shared_embedder().cosine(a, b)


def answer_graph_scores(records: Sequence[RunRecord], task, *, rule: str = DEFAULT_RULE,
                        n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> Optional[dict[str, Any]]:
    """:func:`answer_graph_summary` of the graph-writing records of one variant (``None`` when none writes a graph).

    Each record's correctness is :meth:`~causalgraph.tasks.Task.is_correct`, its edge F1
    ``task.graph_first.scores(record, rule=rule, embedder=…)`` (events aligned by ``rule``; under
    ``embedding`` every graph shares one encoder, loaded once per process when first needed).  The summary adds
    ``rule``, ``edge_precision`` and ``edge_recall`` (means over the items where each is defined:
    a graph without edges has no precision), ``failed`` (requests that failed: no answer and no
    graph, so counted in ``items`` and ``undefined`` but in neither ``*_answer_no_graph``) and
    ``notes`` saying why items were left out.
    """
    if rule not in ALIGN_RULES:
        raise ConfigError(f"unknown alignment rule {rule!r}; expected one of {', '.join(ALIGN_RULES)}")
    recs = graph_records(records, task)
    if not recs:
        return None
    cache: dict[tuple, dict] = {}
    embedder = _LazyEmbedder() if rule == "embedding" else None
    rows, notes, prec, rec_ = [], {}, [], []
    failed = 0
    for r in recs:
        if r.error:
            # a failed request has neither answer nor graph: not a wrong answer without a graph (counted apart)
            failed += 1
            continue
        meta = r.meta or {}
        sid = meta.get("statement_id", r.item_id)
        # Items of one statement often write the same graph: it is aligned and scored once.
        key = (str(sid), bool(r.error), json.dumps(r.graph, sort_keys=True, default=str),
               json.dumps(meta.get("gold_graph"), sort_keys=True, default=str))
        if key not in cache:
            cache[key] = task.graph_first.scores(r, rule=rule, embedder=embedder)
        s = cache[key]
        rows.append((sid, task.is_correct(r), s.get("edge_f1")))
        if s.get("edge_f1") is None and s.get("note"):
            notes[s["note"]] = notes.get(s["note"], 0) + 1
        if s.get("edge_precision") is not None:
            prec.append(s["edge_precision"])
        if s.get("edge_recall") is not None:
            rec_.append(s["edge_recall"])
    out = answer_graph_summary(rows, n_boot=n_boot, seed=seed, level=level)
    out["items"] += failed
    out["undefined"] += failed
    out["failed"] = failed
    if failed:
        notes["the request failed"] = failed
    out["rule"] = rule
    out["edge_precision"] = float(np.mean(prec)) if prec else None
    out["edge_recall"] = float(np.mean(rec_)) if rec_ else None
    if notes:
        out["notes"] = [f"edge F1 undefined for {k} item{'s' if k != 1 else ''} ({why}); left out of accuracy, "
                        f"edge F1 and gap alike" for why, k in sorted(notes.items())]
    if out["scored"] and len(prec) < out["scored"]:
        # a graph read without edges has recall and F1 (0) but no precision: the mean is over fewer items
        out.setdefault("notes", []).append(
            f"edge precision is the mean over {len(prec)} of {out['scored']} scored items (a graph without edges "
            f"has no precision)" if prec else "edge precision undefined: no scored graph has an edge")
    return out
