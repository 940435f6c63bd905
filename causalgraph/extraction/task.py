"""PubMedCausal tasks on the benchmark runner: registration, scoring, ``run_extraction``.

Two tasks join the runner's registry (:mod:`causalgraph.bench.registry`):

* ``pubmedcausal-extract`` (custom scoring): a response is parsed by
  :func:`~causalgraph.extraction.parse.parse_tuples`; its label is the list
  of pairs (``None`` for a null prediction, which the runner counts as a
  parse failure) and the rule says how it was read.  ``metrics.json`` holds,
  per strategy, the paper-mode token and exact scores over the answered rows.
* ``pubmedcausal-detect`` (binary, positive class ``"1"``): a response is
  parsed by :func:`~causalgraph.extraction.parse.parse_detection`.

The variants of both tasks are the six strategy ids of App. E.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from .catalog import (DETECT_TASK, EXTRACT_TASK, _check_task, detection_items, extraction_items, get_strategy,
                      strategies)
from .parse import pair_from_dict, parse_detection, parse_tuples
from .predictions import PREDICTIONS_FILE, PredictionSet, RowPrediction, write_predictions

__all__ = ["register_tasks", "run_extraction", "score_extraction_records", "records_to_predictions"]


def _parse_extraction(text: str, variant: str) -> tuple[Any, str]:
    parsed = parse_tuples(text)
    return (None if parsed.null else [p.to_dict() for p in parsed.pairs]), parsed.rule


def _parse_detection(text: str, variant: str) -> tuple[Any, str]:
    ans = parse_detection(text)
    return ans.label, ans.rule


def records_to_predictions(records: Sequence[dict], source: str = "run",
                           order: Optional[Sequence[str]] = None) -> tuple[PredictionSet, PredictionSet]:
    """(predictions, gold) of answered extraction records, from their labels and ``meta``.

    Records that failed (``error``) are left out of both: they were never
    answered.  Rows follow ``order`` (s/n values, e.g. the corpus order) when
    given, else the order of the records; concurrent runs write records in
    completion order, so pass ``order`` for a file that does not depend on it.
    """
    if order is not None:
        rank = {str(sn): i for i, sn in enumerate(order)}
        records = sorted(records, key=lambda r: rank.get(str((r.get("meta") or {}).get("s/n")), len(rank)))
    preds: dict[str, RowPrediction] = {}
    gold: dict[str, RowPrediction] = {}
    for n, rec in enumerate(records, start=1):
        if rec.get("error"):
            continue
        meta = rec.get("meta") or {}
        sn = str(meta.get("s/n", meta.get("statement_id", n)))
        label = rec.get("label")
        pairs = tuple(p for j, d in enumerate(label or [], start=1)
                      if (p := pair_from_dict(d, [], j, clean=False)) is not None)
        preds[sn] = RowPrediction(sn, meta.get("sentence"), pairs, label is None, rec.get("rule"))
        gold[sn] = RowPrediction(sn, meta.get("sentence"), tuple(
            p for j, g in enumerate(meta.get("pairs") or [], start=1)
            if (p := pair_from_dict(g, [], j, clean=False)) is not None))
    return PredictionSet(preds, source, "run"), PredictionSet(gold, source, "rows")


def score_extraction_records(records: list[dict]) -> dict[str, Any]:
    """Paper-mode token and exact scores of one strategy's records (the task's ``score``)."""
    from .evaluate import evaluate_extraction

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


def register_tasks() -> None:
    """Add the two PubMedCausal tasks to the runner's registry (idempotent).

    Examples
    --------
    >>> register_tasks()
    >>> from causalgraph.bench.registry import get_task
    >>> get_task("pubmedcausal-detect").positive
    '1'
    """
    from ..bench.registry import TaskSpec, register_task

    ids = lambda: [s.id for s in strategies(EXTRACT_TASK)]  # noqa: E731
    strategy_of = lambda v: get_strategy(EXTRACT_TASK, v).paper  # noqa: E731
    register_task(TaskSpec(
        name=EXTRACT_TASK, build_items=lambda corpus, variant: extraction_items(corpus, variant),
        list_variants=ids, kind="custom", parse=_parse_extraction, score=score_extraction_records,
        strategy=strategy_of, default_data="pubmedcausal:test",
        description="PubMedCausal span-level cause-effect pair extraction (App. E.1, six strategies)"),
        replace=True)
    register_task(TaskSpec(
        name=DETECT_TASK, build_items=lambda corpus, variant: detection_items(corpus, variant),
        list_variants=ids, labels=("1", "0"), positive="1", kind="binary", parse=_parse_detection,
        answer_words=lambda v: {"1": "1", "0": "0"}, strategy=strategy_of, default_data="pubmedcausal:test",
        description="PubMedCausal causal detection, 1 = causal (App. E.2, six strategies)"),
        replace=True)


def run_extraction(model: str, strategy: str | Sequence[str] = "zero-shot", *, task: str = EXTRACT_TASK,
                   split: str = "test", data: Optional[str] = None, limit: Optional[int] = None,
                   out: Optional[str | Path] = None, progress: bool = False, backend=None, **options: Any):
    """Run extraction (or detection) prompts over PubMedCausal rows on the benchmark runner.

    Cache, resume, retries and progress are the runner's.  For extraction
    the run directory also gets ``predictions.json`` in the authors' format
    (one entry per answered row, with the parse rule), which
    ``causalgraph evaluate-extraction RUN`` reads.

    Parameters
    ----------
    model
        ``provider/model`` (``llamacpp/FILE.gguf``, ``hf/DIR``, ``openai/…``,
        ``mock/…``).
    strategy
        A strategy id, a list of them, or ``"all"``.
    task
        ``pubmedcausal-extract`` or ``pubmedcausal-detect``.
    split
        ``test`` or ``train`` (ignored when ``data`` is given).
    data
        A PubMedCausal file or folder instead of the split.
    limit
        First ``limit`` rows only.
    out
        Run directory (default: the runner's ``runs/<task>__<model>__<variants>``).
    **options
        Further runner options (``concurrency``, ``max_tokens``,
        ``temperature``, ``model_options``, ``cache`` …).

    Returns
    -------
    RunResult
        The runner's result (``.path``, ``.metrics``).

    Examples
    --------
    >>> r = run_extraction("mock/constant", "few-shot", limit=3, out="runs/demo",
    ...                    model_options={"text": "No relations extracted."})  # doctest: +SKIP
    >>> r.metrics["variants"]["few-shot"]["token_pair_f1"]                     # doctest: +SKIP
    0.0
    """
    from ..bench.runner import run_benchmark

    register_tasks()
    task = _check_task(task)
    if split not in ("test", "train"):
        raise ConfigError(f"--split {split!r}: expected test or train")
    if isinstance(strategy, str):
        names = [s.strip() for s in strategy.split(",") if s.strip()]
    else:
        names = list(strategy)
    if names == ["all"]:
        variants = [s.id for s in strategies(task)]
    else:
        variants = [get_strategy(task, s).id for s in names]
    result = run_benchmark(task, variants, model, backend=backend, progress=progress,
                           data=data or f"pubmedcausal:{split}", limit=limit,
                           out=None if out is None else str(out), **options)
    if task == EXTRACT_TASK:
        from ..datasets import load_corpus

        order = [str(st.meta.get("s/n")) for st in load_corpus(data or f"pubmedcausal:{split}")]
        run = result.load()
        for v in variants:
            preds, _ = records_to_predictions(run.records(v), str(result.path), order)
            name = PREDICTIONS_FILE if len(variants) == 1 else f"predictions.{v}.json"
            write_predictions(preds, Path(result.path) / name, model=model, strategy=v, task=task,
                              split=None if data else split)
    return result
