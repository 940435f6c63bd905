"""``run_extraction``: PubMedCausal extraction or detection prompts on the benchmark runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from ..extraction.catalog import EXTRACT_TASK, _check_task, get_strategy, strategies
from ..extraction.predictions import PREDICTIONS_FILE, records_to_predictions, write_predictions
from ..bench.runner import run_benchmark

__all__ = ["run_extraction"]


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
    >>> r.metrics.variants["few-shot"]["token_pair_f1"]                     # doctest: +SKIP
    0.0
    """
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
        run = result.load()
        for v in variants:
            # Rows in the order of the corpus (the items' order), whatever order the answers came in.
            by_id = {r.item_id: r for r in run.records(v)}
            order = [str(by_id[i].meta.get("s/n")) for i in result.item_ids.get(v, []) if i in by_id]
            preds, _ = records_to_predictions(run.records(v), str(result.path), order)
            name = PREDICTIONS_FILE if len(variants) == 1 else f"predictions.{v}.json"
            write_predictions(preds, Path(result.path) / name, model=model, strategy=v, task=task,
                              split=None if data else split)
    return result
