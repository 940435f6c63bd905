"""Parsing the answers of a task: one answer (:func:`parse`), or every stored answer of a run again
(:func:`reparse_run`, ``causalgraph bench parse``).

The rules themselves are in :mod:`causalgraph.taskkit.labels` (``parse_labels``); this module looks the
task up, which that one must not do (the registry uses the rules).
"""

from __future__ import annotations

import dataclasses

import json
from typing import Any, Optional

from ..tasks import get_task
from .prepare import run_scoring_metrics
from .scoring import compute_metrics
from .._core.outputs import write_atomic
from ..runlog.store import RunStore

__all__ = ["parse", "reparse_run"]


def parse(text: Optional[str], task: str, variant: str) -> tuple[Any, str]:
    """Parse a model answer for a registered task and variant.

    Parameters
    ----------
    text
        The model's answer.
    task
        A task of :func:`causalgraph.tasks.list_tasks`.
    variant
        Prompt variant id; it decides the answer words
        (``same``/``opposite``, ``increase``/``decrease`` …).

    Returns
    -------
    (label, rule)
        Canonical label or ``None``, and the rule that matched.

    Examples
    --------
    >>> parse("Answer: yes", "demo-yesno", "v1")   # doctest: +SKIP
    ('positive', 'answer_colon')
    """
    return get_task(task).parse_answer(text, variant)


def reparse_run(path, *, dry_run: bool = False) -> list[dict[str, Any]]:
    """Parse the stored answers of a run again (after a parser change) and rescore it.

    Every line of ``responses.jsonl`` keeps its answer; ``label`` and ``rule``
    are recomputed.  The file is replaced atomically (do not run this while
    the run itself is running) and ``metrics.json`` is rewritten.

    Returns
    -------
    list of dict
        Per variant: lines, labels changed, parse failures before and after.

    Examples
    --------
    >>> reparse_run("runs/demo-yesno__mock-oracle__v1")   # doctest: +SKIP
    [{'variant': '0_1', 'lines': 874, 'changed': 0, 'parse_failures_before': 0, 'parse_failures_after': 0}]
    """
    store = RunStore(path)
    spec = get_task(store.read_manifest().task)
    run_scoring_metrics(store, spec)  # metrics.json can be scored again: checked before a line is rewritten
    if not dry_run:  # rewriting the file while a run appends to it would lose the appended lines
        store.acquire("bench parse")
    try:
        return _reparse_locked(store, spec, dry_run)
    finally:
        store.release()


def _reparse_locked(store, spec, dry_run: bool) -> list[dict[str, Any]]:
    if not dry_run:
        store.repair_tail()  # the file is rewritten without it: say so as what it is, a removal
    # Read as records (the schema's defaults filled in) and written back as the runner writes them.
    lines = store.checked_lines(store.read_manifest())
    summary: dict[str, dict[str, Any]] = {}
    for rec in lines:
        v = rec.variant
        row = summary.setdefault(v, {"variant": v, "lines": 0, "changed": 0, "parse_failures_before": 0,
                                     "parse_failures_after": 0})
        row["lines"] += 1
        if rec.error or rec.method == "loglik" or (
                rec.method == "choice-logprobs" and rec.scoring != "parsed"):
            # A scored line has no text to parse (or, read from top_logprobs, needs none): its label is the
            # likeliest continuation, kept as it is.  A choice-logprobs line scored by parsing is parsed again.
            continue
        before = rec.label
        label, rule = spec.parse_answer(rec.response or "", v)
        row["parse_failures_before"] += before is None
        row["parse_failures_after"] += label is None
        if label != before or rule != rec.rule:
            row["changed"] += label != before
            rec.label, rec.rule = label, rule
        if spec.graph_first is not None:
            graph = spec.graph_first.parse(rec.response or "", v)
            if graph is not None:  # a graph-first answer's graph is read again with its answer
                rec.graph = graph
    if not dry_run:
        text = "".join(json.dumps(rec.to_dict(), ensure_ascii=False, allow_nan=False) + "\n" for rec in lines)
        write_atomic(store.responses_path, text.encode("utf-8"))
        run = store.load()
        # The scoring metrics the run was scored with stay (bench run --scoring-metric).
        metrics = compute_metrics(run, spec=spec, scoring_metrics=run_scoring_metrics(store, spec))
        # What the invocations did is not a score: kept from the metrics the run had.
        metrics = dataclasses.replace(metrics, **{k: getattr(run.metrics, k) for k in (
            "requests_sent", "cache_hits", "skipped", "batch_requests") if getattr(run.metrics, k) is not None})
        store.write_metrics(metrics)
    return [summary[v] for v in summary]
