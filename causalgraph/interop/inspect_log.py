"""An inspect_ai eval log as a causalgraph run folder (``causalgraph bench import-inspect LOG``).

The log must come from one of causalgraph's inspect tasks
(:mod:`causalgraph.interop.inspect`): each sample's metadata names its item (task,
variant, item id, gold, provenance) and its input holds the messages that
were sent.  The import goes through the run writer every run uses
(:class:`~causalgraph.bench.writer.RunWriter`) — the manifest of its
``prepare``, one :func:`~causalgraph.bench.writer.make_record` line per
sample (the answer parsed by the task's parser, exactly as in a live run)
and the ``metrics.json`` of its ``finish`` — so the
folder is a run like any other: ``bench report``, ``bench parse``,
``stats`` and the viewer read it, and its scores are those a live run would
get from the same answers.

The model of the run is inspect's model name (``openai/gpt-4o``,
``openai-api/vllm/…``); its backend identity is ``{"provider": "inspect",
…}``, so an imported run never shares a folder or cache key with a run
causalgraph asked itself.  A sample that failed in inspect becomes a failed
line (counted as wrong, like a run's failed request).  Importing the same
log again into the same folder writes nothing new; another log of the same
task, model and parameters (other variants, or the samples a ``--limit``
left out) adds its items to the folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from ..bench.config import RunConfig, RunResult, default_run_dir
from ..bench.runner import build_request, cache_key_for
from ..bench.writer import RunWriter, make_record, prompt_sha256 as _prompt_sha
from ..errors import BackendError, ConfigError, SchemaError
from ..llm.base import Backend, Completion, Request, public_url
from ..tasks import get_task
from ..runlog.store import RunStore
from ..runlog.record import RunRecord

__all__ = ["import_inspect_log", "InspectLogModel", "FINISH_REASONS"]

#: inspect's stop reasons in the words causalgraph's backends use for ``finish_reason``.
FINISH_REASONS = {"stop": "stop", "max_tokens": "length", "model_length": "length", "tool_calls": "tool_calls",
                  "content_filter": "content_filter"}


class InspectLogModel(Backend):
    """The model an inspect log recorded: it names the run's answers, it is never asked.

    Its identity (``provider`` ``inspect``, inspect's model name and base URL)
    goes into the manifest and the records' cache keys.
    """

    provider = "inspect"

    def __init__(self, model: str, base_url: Optional[str] = None):
        super().__init__(model)
        self.base_url = public_url(base_url) if base_url else None

    async def complete(self, request: Request) -> Completion:
        raise BackendError(f"inspect/{self.model}: the answers of an imported inspect log come from the log; "
                           "run the task again with `inspect eval` and import the new log")


def _read_log(path: Path):
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ConfigError("reading an inspect log needs inspect_ai: pip install 'causalgraph[inspect]'") from None
    if not path.is_file():
        raise ConfigError(f"{path}: no such inspect log file (expected a .eval or .json log written by inspect eval)")
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # inspect raises what its readers raise (zip, JSON, pydantic errors)
        msg = " ".join(str(exc).split())[:300]
        raise SchemaError(f"{path}: not a readable inspect eval log ({type(exc).__name__}: {msg})") from None


def _pick_epoch(log, path: Path, epoch: Optional[int]) -> list:
    samples = list(log.samples or [])
    if not samples:
        raise ConfigError(f"{path}: the log holds no samples (status {log.status!r}); nothing to import")
    epochs = sorted({s.epoch for s in samples})
    if epoch is None:
        # Several epochs become a run with epochs (bench run --epochs), every sample kept.
        return samples
    if epoch not in epochs:
        raise ConfigError(f"--epoch {epoch}: {path} holds epochs {', '.join(map(str, epochs))}")
    return [s for s in samples if s.epoch == epoch]


def _old_inspect(out: Path) -> dict[str, Any]:
    """The ``inspect`` entry of the manifest already in ``out`` (``{}`` for a new folder or a run of causalgraph's)."""
    store = RunStore(out)
    return dict(store.read_manifest().inspect or {}) if store.exists() else {}


def _check_epoch_mix(out: Path, old: dict[str, Any], epochs: Optional[list[int]], single: int) -> None:
    """Refuse to mix a one-epoch import with an all-epochs import (or two different epochs) in one folder.

    A one-epoch import stores inspect's epoch N as the run's only answer (no
    ``epoch`` on the lines); an all-epochs import stores inspect's epoch e as
    the run's epoch e.  Mixed, inspect's epoch N would stand in for epoch 1.
    ``old`` is the folder's ``inspect`` entry (:func:`_old_inspect`).
    """
    if not old:
        return
    if epochs is not None and "epoch" in old:
        raise ConfigError(f"{out} holds inspect's epoch {old['epoch']} alone, as a run with one answer per item; "
                          f"importing every epoch ({', '.join(map(str, epochs))}) beside it would mix the two. "
                          "Choose another --out, or import one epoch with --epoch")
    if epochs is None and "epochs" in old:
        raise ConfigError(f"{out} holds inspect's epochs {', '.join(map(str, old['epochs']))} as a run with epochs; "
                          f"epoch {single} alone cannot join it. Import the whole log, or choose another --out")
    if epochs is None and "epoch" in old and old["epoch"] != single:
        raise ConfigError(f"{out} holds inspect's epoch {old['epoch']}; epoch {single} would not be added (a run "
                          "with one answer per item holds one epoch). Choose another --out")


def _completion(sample) -> tuple[Optional[Completion], Optional[str], float]:
    """The answer of a sample (``None`` and why when it has none) and its cost."""
    if sample.error is not None:
        return None, " ".join(str(sample.error.message).split())[:500] or "inspect sample error", 0.0
    out = sample.output
    if out is None or not out.choices:
        return None, "the log holds no answer for this sample (it did not finish)", 0.0
    usage = out.usage
    completion = Completion(
        text=out.completion,
        prompt_tokens=None if usage is None else usage.input_tokens,
        completion_tokens=None if usage is None else usage.output_tokens,
        latency_s=float(out.time or 0.0),
        finish_reason=FINISH_REASONS.get(out.stop_reason, out.stop_reason),
        model=out.model,
    )
    cost = float(usage.total_cost) if usage is not None and usage.total_cost else 0.0
    return completion, None, cost


def _check_log_names_the_samples(path: Path, data, meta: dict[str, Any], spec, variants: list[str]) -> None:
    """Refuse a log whose own task or task arguments name another task or variant than its samples do.

    A log is the record of one ``inspect eval``: its task (``causalgraph/ccr_member``), its task
    arguments (``-T variant=A_5``) and the causalgraph metadata of its task say what was asked.
    Samples that disagree come from somewhere else (an edited or merged log), and a run built
    from them would be labelled with the wrong task or variant.
    """
    from .inspect import inspect_name, resolve_variants

    name = str(data.eval.task or "")
    if name.startswith("causalgraph/") and name != f"causalgraph/{inspect_name(spec.name)}":
        raise ConfigError(f"{path}: the log is of task {name}, but its samples are items of {spec.name} "
                          f"(causalgraph/{inspect_name(spec.name)}); a run must not mix the two")
    if meta.get("task") not in (None, spec.name):
        raise ConfigError(f"{path}: the log's causalgraph metadata names task {meta['task']!r}, but its samples are "
                          f"items of {spec.name!r}")
    asked: Optional[list[str]] = None
    args = dict(data.eval.task_args or {})
    if "variant" in args:
        try:
            asked = resolve_variants(spec, args["variant"])
        except ConfigError as exc:
            raise ConfigError(f"{path}: the log's task_args variant={args['variant']!r} names no variant of "
                              f"{spec.name} ({exc})") from None
    elif meta.get("variants"):
        asked = [str(v) for v in meta["variants"]]
    if asked is not None:
        other = [v for v in variants if v not in asked]
        if other:
            where = "task_args" if "variant" in args else "causalgraph metadata"
            raise ConfigError(f"{path}: samples of variant {', '.join(other)}, but the log's {where} name "
                              f"{', '.join(asked)}; a run must not label answers with a variant that was not asked")


def _answer_text(answer) -> tuple:
    completion, error, _ = answer
    return (None if completion is None else completion.text), error


def _check_same_items(path: Path, out: Path, items, first: dict) -> None:
    """Refuse log items that the folder already holds under the same id with another prompt or gold.

    The folder then holds other items than the log (other item options, another corpus file of
    the same name): counting them "already there" would hide that the log's answers were never read.
    """
    store = RunStore(out)
    if not store.exists():
        return
    manifest = store.read_manifest()
    held: dict[tuple[str, str], RunRecord] = {}
    for r in store.checked_lines(manifest, int(manifest.epochs or 1), quiet=True):
        held.setdefault((r.variant, r.item_id), r)
    for it in items:
        rec = held.get((it.variant, it.id))
        if rec is None:
            continue
        what = ("prompt" if rec.prompt_sha256 not in (None, _prompt_sha(it)) else
                "gold" if rec.gold != it.gold else None)
        if what:
            sample = next((sid for (iid, _), sid in first.items() if iid == it.id), None)
            raise ConfigError(f"{path}: sample {sample!r} (item {it.id}) has another {what} than the item of that id "
                              f"in {out}; the log holds other items than the run: choose another --out")


def import_inspect_log(log: str | os.PathLike, out: Optional[str | os.PathLike] = None, *,
                       epoch: Optional[int] = None) -> RunResult:
    """Turn an inspect eval log of a causalgraph task into a run folder.

    Parameters
    ----------
    log
        A ``.eval`` or ``.json`` log written by ``inspect eval
        causalgraph/<task>`` (or ``inspect_ai.eval`` of
        :func:`causalgraph.interop.inspect.inspect_task`).
    out
        The run folder (default ``runs/<task>__<model>__<variants>``, as
        ``bench run`` names it).  A folder holding a run of the same task,
        model and parameters gets the log's items it does not have yet.
    epoch
        Import only this epoch, as a run with one answer per item.  By
        default every epoch is imported: a log of ``inspect eval --epochs N``
        becomes a run with ``N`` epochs, as ``bench run --epochs N`` writes
        (reduced by ``bench report --reducer``).

    Returns
    -------
    RunResult
        ``path``, ``metrics`` (``metrics.json``), ``written`` (lines added),
        ``skipped`` (items the folder already had) and ``errors`` (samples
        that failed in inspect).

    Raises
    ------
    ConfigError
        For a log that is missing, holds no samples, holds samples of no
        causalgraph task or of two tasks; for a folder holding another run.
    SchemaError
        For a file inspect cannot read.

    Examples
    --------
    >>> res = import_inspect_log("logs/2026-01-01_ccr-member_abc.eval", "runs/ccr-member-inspect")  # doctest: +SKIP
    >>> res.metrics.variants["A_5"]["f1"]                                                          # doctest: +SKIP
    0.5
    """
    path = Path(log)
    data = _read_log(path)
    try:
        from .inspect import sample_item
    except ImportError:  # _read_log found inspect_ai.log; a partial install may still lack the rest
        raise ConfigError("reading an inspect log needs inspect_ai: pip install 'causalgraph[inspect]'") from None
    samples = _pick_epoch(data, path, epoch)
    epochs = sorted({int(s.epoch) for s in samples})
    several = len(epochs) > 1
    items, answers, seen, first = [], {}, set(), {}
    for s in samples:
        item = sample_item(s.metadata, s.input, where=f"{path}: sample {s.id!r}")
        if item.id not in seen:  # an item once, however many epochs answered it
            seen.add(item.id)
            items.append(item)
        # One run epoch per inspect epoch; a single epoch (or --epoch) is the run's only answer.
        key = (item.id, int(s.epoch) if several else 1)
        answer = _completion(s), s.completed_at
        if key in answers:
            # One answer per sample: a second one would replace the first without a word.
            same = _answer_text(answers[key][0]) == _answer_text(answer[0])
            raise ConfigError(f"{path}: sample {s.id!r} epoch {s.epoch} (item {item.id}) appears twice in the log "
                              f"(first as sample {first[key]!r}), {'with the same answer' if same else 'with different answers'}; "
                              "a run holds one answer per sample: import a log with each sample once")
        answers[key] = answer
        first[key] = s.id
    tasks = sorted({it.task for it in items})
    if len(tasks) != 1:
        raise ConfigError(f"{path}: samples of {len(tasks)} tasks ({', '.join(tasks)}); a run holds one task")
    spec = get_task(tasks[0])
    order = {v: i for i, v in enumerate(spec.list_variants())}
    variants = sorted({it.variant for it in items}, key=lambda v: (order.get(v, len(order)), v))

    meta = (data.eval.metadata or {}).get("causalgraph") or {}
    _check_log_names_the_samples(path, data, meta, spec, variants)
    gen = data.plan.config if data.plan is not None else data.eval.model_generate_config
    model = data.eval.model
    config = RunConfig(task=spec.name, variants=variants, model=model, data=meta.get("data"),
                       out=str(out) if out is not None else str(default_run_dir(spec.name, model, variants)),
                       temperature=gen.temperature, max_tokens=gen.max_tokens, seed=gen.seed, max_attempts=1,
                       cache=False, epochs=max(epochs) if several else 1)
    backend = InspectLogModel(model, data.eval.model_base_url)
    dataset = meta.get("dataset") or {"name": meta.get("data"), "source": None, "sha256": None}
    old_inspect = _old_inspect(Path(config.out))
    _check_epoch_mix(Path(config.out), old_inspect, epochs if several else None, samples[0].epoch)
    _check_same_items(path, Path(config.out), items, first)
    writer = RunWriter.prepare(config, backend, items=items, dataset=dataset, mode="import-inspect")
    prep = writer.prep
    try:
        prep.manifest.inspect = {
            "log": str(path.resolve()), "eval_id": data.eval.eval_id, "run_id": data.eval.run_id,
            "task": data.eval.task, "task_args": dict(data.eval.task_args or {}), "status": data.status,
            "created": data.eval.created,
            # A log of several epochs adds its epochs to those the folder holds; one epoch stands alone.
            **({"epochs": sorted(set(epochs) | set(old_inspect.get("epochs") or []))} if several
               else {"epoch": samples[0].epoch}),
            "inspect_version": (data.eval.packages or {}).get("inspect_ai"),
        }
        records: list[RunRecord] = []
        errors = 0
        for item, e in prep.todo_samples:
            if (item.id, e) not in answers:
                continue  # an epoch the log lacks for this item (it stays pending)
            (completion, error, cost), completed_at = answers[(item.id, e)]
            request = build_request(item, spec, config, e)
            rec = make_record(item, spec, completion=completion, key=cache_key_for(backend, request, item, e),
                              source="inspect", attempts=1, error=error, cost=cost,
                              epoch=e if prep.epochs > 1 else None)
            if completed_at:
                # When inspect got the answer, not when it was imported.
                rec.time = str(completed_at)
            records.append(rec)
            errors += error is not None
        writer.append(records)
        writer.counters["errors"] = errors
        metrics = writer.finish_counts()
    finally:
        writer.release()
    item_ids = {v: [it.id for it in prep.by_variant[v]] for v in prep.variants}
    return RunResult(path=prep.path, metrics=metrics, requests_sent=0, cache_hits=0, skipped=prep.skipped,
                     written=len(records), errors=errors, item_ids=item_ids, epochs=prep.epochs)
