"""Gold against predicted cause–effect pairs of one item: the matching, the scores, the error buckets.

Runs of a task whose answers are pairs are shown the same way: the task's
:class:`~causalgraph.tasks.ItemView` reads each record's gold and predicted
pairs (:attr:`~causalgraph.tasks.Pairs.item_view`).  The counting comes from :mod:`causalgraph.extraction.evaluate`:
:func:`~causalgraph.extraction.evaluate.align` builds the row,
:func:`~causalgraph.extraction.evaluate.exact_hits` counts the exact hits
under each mode's rule (:data:`~causalgraph.extraction.evaluate.EXACT_RULES`)
and :func:`~causalgraph.extraction.evaluate.error_buckets` puts every
predicted pair in its bucket.  What the evaluation keeps to itself — which
gold pair each predicted pair was matched with — is recomputed here with the
same similarity (:func:`~causalgraph.extraction.spans.pair_score`) so that
the page can draw it: ``paper`` pairs every predicted pair with its best gold
pair and every gold pair with its best prediction; ``hungarian`` is the
optimal one-to-one assignment (cost 1 − S).  Summed over the items of a run,
these scores are the evaluation's own (the tests check it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence
from ..tasks import Pairs, legacy_item_view
from ..extraction.evaluate import MODES, align, error_buckets, exact_hits
from ..runlog.record import RunRecord
from ..extraction.predictions import PredictionSet, RowPrediction
from ..extraction.spans import exact_key, pair_score
from ..extraction.tuples import ExtractedPair
from ..scoring.scores import prf

__all__ = ["PairItem", "record_pairs", "match_pairs", "pair_view_of"]


@dataclass(frozen=True)
class PairItem:
    """The gold and predicted pairs of one record, as ``(cause, effect)`` tuples, in their order."""

    gold: tuple[tuple[str, str], ...]
    predicted: tuple[tuple[str, str], ...]
    #: The model's answer could not be read (a null prediction), or the request failed.
    unread: bool


def pair_view_of(records: Sequence[RunRecord], task: Any = None) -> Optional[Any]:
    """The :class:`~causalgraph.tasks.ItemView` of a run's records: its task's, or ``None`` to show labels.

    A registered task says it (:attr:`~causalgraph.tasks.Pairs.item_view`);
    for a run whose task is not registered here (``task`` is ``None``), the
    view is read from the records by :func:`causalgraph.tasks.legacy_item_view`,
    so old run folders still show their pairs.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> pair_view_of([], get_task("pubmedcausal-extract")).name, pair_view_of([], get_task("corri"))
    ('extraction', None)
    """
    if task is not None:
        return task.answers.item_view if isinstance(task.answers, Pairs) else None

    return legacy_item_view(records)


def record_pairs(record: "RunRecord", view: Any) -> PairItem:
    """The gold and predicted pairs of one record, as its :class:`~causalgraph.tasks.ItemView` reads them.

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> from causalgraph.runlog import RunRecord
    >>> rec = RunRecord("pubmedcausal-extract", "v", "i", meta={"pairs": [{"cause": "smoking", "effect": "cancer"}]},
    ...                 label=[{"cause": "Smoking", "effect": "lung cancer"}])
    >>> record_pairs(rec, get_task("pubmedcausal-extract").answers.item_view)
    PairItem(gold=(('smoking', 'cancer'),), predicted=(('Smoking', 'lung cancer'),), unread=False)
    """
    gold, pred, unread = view.pairs(record)
    return PairItem(tuple(tuple(p) for p in gold), tuple(tuple(p) for p in pred), bool(unread))


def match_pairs(item: PairItem, row_id: str = "item") -> dict[str, Any]:
    """How the predicted pairs of one item meet its gold pairs, under both modes.

    Returns
    -------
    dict
        ``S`` (similarity matrix, predicted × gold), ``paper`` (for each
        predicted pair its best gold pair ``[j, S]``, for each gold pair its
        best predicted pair ``[i, S]``, ``-1`` when there is none),
        ``hungarian`` (the assignment as ``[i, j, S]``), ``scores``
        (per mode: token P/R/F1 and exact P/R/F1 with the hits), ``buckets``
        (the bucket of each predicted pair), ``gold_unaligned``, and
        ``exact`` (for each side, whether the pair's normalised form occurs on
        the other side: the overlay's matched edges).

    Examples
    --------
    >>> m = match_pairs(PairItem((("smoking", "cancer"),), (("Smoking", "cancer."),), False))
    >>> m["scores"]["paper"]["exact"]["f1"], m["buckets"]
    (1.0, ['exact'])
    """
    gold = [ExtractedPair(c, e) for c, e in item.gold]
    pred = [ExtractedPair(c, e) for c, e in item.predicted]
    sn = str(row_id)
    rows = align(PredictionSet({sn: RowPrediction(sn, None, tuple(pred), item.unread)}, "viewer", "run"),
                 PredictionSet({sn: RowPrediction(sn, None, tuple(gold))}, "viewer", "rows"))
    n, m = len(pred), len(gold)
    s = [[pair_score((p.cause, p.effect), (g.cause, g.effect)) for g in gold] for p in pred]
    pred_best = [[max(range(m), key=lambda j: (s[i][j], -j)), max(s[i])] if m else [-1, 0.0] for i in range(n)]
    gold_best = [[max(range(n), key=lambda i: (s[i][j], -i)), max(s[i][j] for i in range(n))] if n else [-1, 0.0]
                 for j in range(m)]
    assignment: list[list] = []
    if n and m:
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        ri, ci = linear_sum_assignment(1.0 - np.asarray(s, dtype=float))
        assignment = [[int(i), int(j), s[int(i)][int(j)]] for i, j in zip(ri, ci)]
    soft = {"paper": (sum(b[1] for b in pred_best), sum(b[1] for b in gold_best)),
            "hungarian": (sum(a[2] for a in assignment),) * 2}
    scores = {}
    for mode in MODES:
        hits = exact_hits(rows, mode)
        scores[mode] = {"token": prf(soft[mode][0], n, soft[mode][1], m),
                        "exact": {**prf(hits["precision_hits"], n, hits["recall_hits"], m), "hits": hits["precision_hits"]}}
    # One row: every predicted pair is noted in its bucket; identical pairs land in the same bucket.
    b = error_buckets(rows, examples=n + m + 1)
    bucket_of: dict[str, str] = {}
    for name, shown in b["examples"].items():
        for ex in shown:
            if ex["predicted"] is not None:
                bucket_of[ex["predicted"]] = name
    buckets = [bucket_of.get(f"{p.cause} → {p.effect}", "") for p in pred]
    gold_keys = {exact_key(g.cause, g.effect) for g in gold}
    pred_keys = {exact_key(p.cause, p.effect) for p in pred}
    return {
        "S": [[round(x, 4) for x in row] for row in s],
        "paper": {"predicted": [[j, round(v, 4)] for j, v in pred_best], "gold": [[i, round(v, 4)] for i, v in gold_best]},
        "hungarian": [[i, j, round(v, 4)] for i, j, v in assignment],
        "scores": scores,
        "buckets": buckets,
        "missed": b["counts"]["missed"],
        "gold_unaligned": b["gold_unaligned"],
        "exact": {"gold": [exact_key(g.cause, g.effect) in pred_keys for g in gold],
                  "predicted": [exact_key(p.cause, p.effect) in gold_keys for p in pred]},
        "keys": {"gold": [list(exact_key(g.cause, g.effect)) for g in gold],
                 "predicted": [list(exact_key(p.cause, p.effect)) for p in pred]},
    }
