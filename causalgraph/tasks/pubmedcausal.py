"""The PubMedCausal tasks (App. E): extraction and detection, declared for the benchmark runner.

Two tasks (see :mod:`causalgraph.tasks`):

* ``pubmedcausal-extract`` (kind ``pairs``, scored by its own scorer): a response is parsed by
  :func:`~causalgraph.extraction.tuples.parse_tuples`; its label is the list
  of pairs (``None`` for a null prediction, which the runner counts as a
  parse failure) and the rule says how it was read.  ``metrics.json`` holds,
  per strategy, the paper-mode token and exact scores over the answered rows.
* ``pubmedcausal-detect`` (binary, positive class ``"1"``): a response is
  parsed by :func:`~causalgraph.extraction.tuples.parse_detection`.

The variants of both tasks are the six strategy ids of App. E.
"""

from __future__ import annotations

from typing import Any

from ..extraction.catalog import DETECT_TASK, EXTRACT_TASK, detection_items, extraction_items, get_strategy, strategies
from ..extraction.evaluate import evaluate_extraction
from ..extraction.tuples import parse_detection, parse_tuples, pair_from_dict
from ..extraction.predictions import records_to_predictions
from .base import Task
from .kinds import Binary, ItemView, Pairs
from .continuations import answer_continuations
from ..runlog.record import RunRecord

__all__ = ["tasks", "score_extraction_records", "reference_extraction", "EXTRACTION_VIEW"]


def _parse_extraction(text: str, variant: str) -> tuple[Any, str]:
    parsed = parse_tuples(text)
    return (None if parsed.null else [p.to_dict() for p in parsed.pairs]), parsed.rule


def _parse_detection(text: str, variant: str) -> tuple[Any, str]:
    ans = parse_detection(text)
    return ans.label, ans.rule


#: How the prompts (App. E.1, the few-shot examples) write the two labels of a tuple.
_CAUSALITY_WORDS = {"explicit": "Explicit", "implicit": "Implicit"}
_SENTENTIALITY_WORDS = {"intra": "Intra-sentential", "inter": "Inter-sentential"}


def wrong_extraction(item) -> str:
    """A wrong answer to an extraction item (``mock/noisy``): no relation where the row holds one, else one it does not.

    Examples
    --------
    >>> from causalgraph.taskkit.item import Item
    >>> wrong_extraction(Item("y", "pubmedcausal-extract", "zero-shot", "…", None, meta={"pairs": []}))
    'Output:\\nTuple 1: {Cause: an unrelated event, Effect: another unrelated event}'
    """
    if (item.meta or {}).get("pairs"):
        return "Output: No relations extracted."
    return "Output:\nTuple 1: {Cause: an unrelated event, Effect: another unrelated event}"


def reference_extraction(item) -> str:
    """The answer that scores full marks: the item's gold pairs as the few-shot examples write tuples.

    Examples
    --------
    >>> from causalgraph.taskkit.item import Item
    >>> it = Item("x", "pubmedcausal-extract", "zero-shot", "…", None, meta={"pairs": [
    ...     {"cause": "Smoking", "effect": "cancer", "causality": "explicit", "sententiality": "intra"}]})
    >>> print(reference_extraction(it))
    Output:
    Tuple 1: {Cause: Smoking, Effect: cancer, Causality_Type: Explicit, Sententiality: Intra-sentential}
    >>> reference_extraction(Item("y", "pubmedcausal-extract", "zero-shot", "…", None, meta={"pairs": []}))
    'Output: No relations extracted.'
    """
    pairs = (item.meta or {}).get("pairs") or []
    if not pairs:
        return "Output: No relations extracted."
    lines = ["Output:"]
    for n, p in enumerate(pairs, start=1):
        fields = [f"Cause: {p['cause']}", f"Effect: {p['effect']}"]
        if p.get("causality") in _CAUSALITY_WORDS:
            fields.append(f"Causality_Type: {_CAUSALITY_WORDS[p['causality']]}")
        if p.get("sententiality") in _SENTENTIALITY_WORDS:
            fields.append(f"Sententiality: {_SENTENTIALITY_WORDS[p['sententiality']]}")
        lines.append(f"Tuple {n}: {{{', '.join(fields)}}}")
    return "\n".join(lines)


def score_extraction_records(records: list[RunRecord]) -> dict[str, Any]:
    """Paper-mode token and exact scores of one strategy's records (the task's ``score``)."""
    preds, gold = records_to_predictions(records)
    if not gold.rows:
        return {"rows": 0}
    rep = evaluate_extraction(preds, gold, mode="paper")
    out: dict[str, Any] = {"rows": rep.summary["gold_rows"], "predicted_pairs": rep.summary["predicted_pairs"],
                           "gold_pairs": rep.summary["gold_pairs"], "null_predictions": rep.summary["null_predictions"]}
    for m in rep.metrics:
        for k in ("precision", "recall", "f1"):
            out[f"{m['measure']}_{m['part']}_{k}"] = m[k]
    # The headline (what `bench report` shows): paper-mode token pair scores (Table 5's "Token Overlap P-F1").
    head = rep.metric("token", "pair")
    out.update({"precision": head["precision"], "recall": head["recall"], "f1": head["f1"]})
    return out


def _detection_continuations(variant: str) -> dict[str, str]:
    """``"1"`` / ``"0"``, quoted as the detection prompts write their verdicts (``Output: "1" or "0"``)."""
    s = get_strategy(DETECT_TASK, variant)
    return answer_continuations(s.template, {"1": "1", "0": "0"}, f"{DETECT_TASK} variant {s.id}", quoted=True)


def _pairs_from_dicts(rows: Any) -> tuple[tuple[str, str], ...]:
    out = []
    for j, d in enumerate(rows or [], start=1):
        if isinstance(d, dict):
            p = pair_from_dict(d, [], j, clean=False)
            if p is not None:
                out.append((p.cause, p.effect))
    return tuple(out)


def _extraction_pairs(record) -> tuple:
    """Gold pairs from ``meta["pairs"]``, predicted pairs from the label (a list of pair dicts)."""
    meta = record.meta or {}
    label = record.label
    failed = bool(record.error)
    gold = _pairs_from_dicts(meta.get("pairs"))
    pred = () if failed or not isinstance(label, list) else _pairs_from_dicts(label)
    return gold, pred, failed or label is None


def _extraction_display(value: Any):
    if isinstance(value, list):
        return f"{len(value)} pair{'s' if len(value) != 1 else ''}"
    return None


#: How the viewer shows an extraction item: gold and predicted pairs side by side.
EXTRACTION_VIEW = ItemView("extraction", _extraction_pairs, _extraction_display)


def tasks() -> list[Task]:
    """The two PubMedCausal tasks.

    Examples
    --------
    >>> [t.name for t in tasks()], tasks()[1].positive
    (['pubmedcausal-extract', 'pubmedcausal-detect'], '1')
    """
    ids = lambda: [s.id for s in strategies(EXTRACT_TASK)]  # noqa: E731
    strategy_of = lambda v: get_strategy(EXTRACT_TASK, v).paper  # noqa: E731
    return [
        Task(name=EXTRACT_TASK, build_items=lambda corpus, variant: extraction_items(corpus, variant),
             list_variants=ids, parse=_parse_extraction,
             answers=Pairs(score=score_extraction_records, reference_answer=reference_extraction,
                           wrong_answer=wrong_extraction, item_view=EXTRACTION_VIEW),
             strategy=strategy_of, default_data="pubmedcausal:test", requires=("text",),
             description="PubMedCausal span-level cause-effect pair extraction (App. E.1, six strategies)"),
        Task(name=DETECT_TASK, build_items=lambda corpus, variant: detection_items(corpus, variant),
             list_variants=ids, parse=_parse_detection,
             answers=Binary(labels=("1", "0"), positive="1", answer_words=lambda v: {"1": "1", "0": "0"},
                            continuations=_detection_continuations),
             strategy=strategy_of, default_data="pubmedcausal:test", requires=("text",),
             description="PubMedCausal causal detection, 1 = causal (App. E.2, six strategies)"),
    ]
