"""Gold against predicted cause–effect pairs of one item: the matching, the scores, the error buckets.

Extraction runs (``meta["pairs"]`` holds the gold pairs, the record's
``label`` the predicted ones) and annotation runs (the gold annotation as a
JSON answer in ``gold``, the parsed answer in ``label``) are shown the same
way.  The counting comes from :mod:`causalgraph.extraction.evaluate`:
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

import json
from dataclasses import dataclass
from typing import Any, Optional, Sequence

__all__ = ["PairItem", "record_pairs", "match_pairs", "pair_view_of"]


@dataclass(frozen=True)
class PairItem:
    """The gold and predicted pairs of one record, as ``(cause, effect)`` tuples, in their order."""

    gold: tuple[tuple[str, str], ...]
    predicted: tuple[tuple[str, str], ...]
    #: The model's answer could not be read (a null prediction), or the request failed.
    unread: bool


def _pairs_from_dicts(rows: Any) -> tuple[tuple[str, str], ...]:
    from ..extraction.tuples import pair_from_dict

    out = []
    for j, d in enumerate(rows or [], start=1):
        if isinstance(d, dict):
            p = pair_from_dict(d, [], j, clean=False)
            if p is not None:
                out.append((p.cause, p.effect))
    return tuple(out)


def _annotation_pairs(answer: Any, text: str, rule: Optional[str], stored: bool) -> tuple[tuple[str, str], ...]:
    from ..annotation.answer import parse_annotation, to_statement
    from ..annotation.evaluate import distinct_pairs
    from ..annotation.records import parsed_from_label

    if stored:
        parsed = parsed_from_label(answer, rule)
    else:
        parsed = parse_annotation(answer)
        if parsed.failed:
            return ()
    st = to_statement(parsed, text, strict=False)
    # The no-quantifier events of each distinct pair, as the annotation evaluation counts them.
    return tuple((rel.cause, rel.effect) for _, rel in distinct_pairs(st))


def pair_view_of(records: Sequence[dict]) -> Optional[str]:
    """``"extraction"``, ``"annotation"`` or ``None``: how a run's records hold pairs, read from their shape.

    Extraction records carry the gold pairs in ``meta["pairs"]``; annotation
    records a gold answer (JSON with ``relations``) or a parsed answer dict
    with ``relations``.  No task name is consulted, so a new task of either
    shape is shown the same way.

    Examples
    --------
    >>> pair_view_of([{"meta": {"pairs": [{"cause": "a", "effect": "b"}]}, "label": None}])
    'extraction'
    >>> pair_view_of([{"meta": {}, "gold": "yes", "label": "no"}]) is None
    True
    """
    for r in records:
        meta = r.get("meta") or {}
        if isinstance(meta.get("pairs"), list) and (r.get("label") is None or isinstance(r.get("label"), list)):
            return "extraction"
        label = r.get("label")
        if isinstance(label, dict) and "relations" in label:
            return "annotation"
        gold = r.get("gold")
        if isinstance(gold, str) and gold.lstrip().startswith("{"):
            try:
                obj = json.loads(gold)
            except ValueError:
                continue
            if isinstance(obj, dict) and "relations" in obj:
                return "annotation"
    return None


def record_pairs(record: dict, view: str) -> PairItem:
    """The gold and predicted pairs of one record of an ``extraction`` or ``annotation`` run.

    Examples
    --------
    >>> rec = {"meta": {"pairs": [{"cause": "smoking", "effect": "cancer"}]},
    ...        "label": [{"cause": "Smoking", "effect": "lung cancer"}], "error": None}
    >>> record_pairs(rec, "extraction")
    PairItem(gold=(('smoking', 'cancer'),), predicted=(('Smoking', 'lung cancer'),), unread=False)
    """
    meta = record.get("meta") or {}
    label = record.get("label")
    failed = bool(record.get("error"))
    if view == "extraction":
        gold = _pairs_from_dicts(meta.get("pairs"))
        pred = () if failed or not isinstance(label, list) else _pairs_from_dicts(label)
        return PairItem(gold, pred, failed or label is None)
    text = str(meta.get("text") or "")
    gold_answer = record.get("gold")
    gold = _annotation_pairs(gold_answer, text, None, False) if isinstance(gold_answer, str) else ()
    pred = () if failed or not isinstance(label, dict) else _annotation_pairs(label, text, record.get("rule"), True)
    return PairItem(gold, pred, failed or not isinstance(label, dict))


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
    from ..extraction.evaluate import MODES, align, error_buckets, exact_hits
    from ..extraction.predictions import PredictionSet, RowPrediction
    from ..extraction.spans import exact_key, pair_score
    from ..extraction.tuples import ExtractedPair
    from ..scores import prf

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
