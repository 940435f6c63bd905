"""The one writer of run folders: prepare the folder, append lines, finish (manifest and ``metrics.json``).

Every way answers reach a run folder goes through :class:`RunWriter`:

* a live run (:func:`~causalgraph.bench.runner.arun_benchmark`): cache hits
  and answers as they come, synced to disk every couple of seconds;
* a Batch job (:mod:`causalgraph.bench.batch`): the cache hits at
  submission, the job's results at collection (:meth:`RunWriter.reopen`);
* an inspect import (:mod:`causalgraph.interop.inspect_log`): one line per
  sample of the log.

:func:`make_record` builds the line itself, so all of them write the same
fields parsed by the same task parser.
"""

from __future__ import annotations

import dataclasses

import hashlib
import time
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from ..errors import BackendError, CausalGraphError
from ..llm.base import Backend, Completion, canonical_json
from ..llm.choice_logprobs import generated_tokens, read_choices
from ..llm.loglik import ChoiceScores, choose, record_fields
from ..tasks import Task
from .clock import utc_now
from .config import RunConfig
from ..taskkit.item import Item
from .prepare import PreparedRun, prepare_run
from .progress import Progress
from ..runlog.files import Manifest, Metrics
from ..runlog.record import RunRecord
from .scoring import compute_metrics
from ..runlog.store import RunStore

__all__ = ["RunWriter", "make_record", "prompt_sha256", "SYNC_INTERVAL"]

#: Seconds between two syncs of ``responses.jsonl`` to disk in a live run: a line handed to the OS survives the
#: process being killed; only a power cut needs the sync, so it is not paid on every line.
SYNC_INTERVAL = 2.0


def prompt_sha256(item: Item) -> str:
    """The sha256 of an item's canonical messages (a line's ``prompt_sha256``)."""
    return hashlib.sha256(canonical_json(item.messages()).encode("utf-8")).hexdigest()


_prompt_sha = prompt_sha256
_now = utc_now


def make_record(item: Item, spec: Task, *, completion: Optional[Completion], key: str, source: str,
                attempts: int, error: Optional[str], cost: float = 0.0,
                epoch: Optional[int] = None, prompt_sha256: Optional[str] = None,
                choices: Optional[dict[str, str]] = None, method: Optional[str] = None) -> RunRecord:
    """One line of ``responses.jsonl`` (``epoch``: the sample's epoch, in runs with several).

    ``prompt_sha256``: the sha256 of the item's canonical messages, when the caller has it already.
    With ``choices`` (``--method loglik``) ``completion`` holds log-likelihood
    scores (:meth:`~causalgraph.llm.loglik.ChoiceScores.to_completion`): the
    label is the ``acc`` choice, ``response`` its continuation, and the line
    keeps every continuation, summed log-probability and normalised
    probability.  With ``method="choice-logprobs"`` ``completion`` is a chat
    reply with generated-token log-probabilities, read at the choices' answer
    position (:func:`~causalgraph.llm.choice_logprobs.read_choices`) or, when
    the reply departed from them, parsed.
    """
    if choices is not None and method == "choice-logprobs":
        return _choice_record(item, spec, completion=completion, key=key, source=source, attempts=attempts,
                              error=error, choices=choices, cost=cost, prompt_sha256=prompt_sha256)
    if choices is not None:
        return _loglik_record(item, spec, completion=completion, key=key, source=source, attempts=attempts,
                              error=error, choices=choices)
    if completion is not None:
        try:
            label, rule = spec.parse_answer(completion.text, item.variant)
        except CausalGraphError as exc:
            # A parser that rejects an answer must not end the run: the answer is kept,
            # counted as a parse failure, and `bench parse` can read it again later.
            label, rule = None, f"parse_error: {' '.join(str(exc).split())[:200]}"
        usage = {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens}
    else:
        label, rule, usage = None, None, {"prompt_tokens": None, "completion_tokens": None}
    # A graph-first variant's answer writes a graph before it answers: the record keeps both.
    gf = getattr(spec, "graph_first", None)  # a task-like object without it writes no graph
    parse_graph = gf.parse if gf is not None else None
    graph = parse_graph(completion.text, item.variant) if parse_graph is not None and completion is not None else None
    return RunRecord(
        task=item.task, variant=item.variant, item_id=item.id, epoch=epoch, gold=item.gold, meta=item.meta,
        prompt_sha256=prompt_sha256 if prompt_sha256 is not None else _prompt_sha(item), request_key=key,
        response=completion.text if completion is not None else None, label=label, rule=rule, graph=graph,
        usage=usage,
        cost_usd=cost, latency_s=None if completion is None else round(completion.latency_s, 6),
        finish_reason=None if completion is None else completion.finish_reason, source=source,
        attempts=attempts, error=error, time=_now(),
    )


def _loglik_record(item: Item, spec: Task, *, completion: Optional[Completion], key: str, source: str,
                   attempts: int, error: Optional[str], choices: dict[str, str]) -> RunRecord:
    labels, texts = list(choices), list(choices.values())
    fields: dict[str, Any] = {"continuations": dict(choices), "logprobs": None, "probs": None}
    label = rule = response = None
    usage = {"prompt_tokens": None, "completion_tokens": None}
    if completion is not None:
        try:
            scores = ChoiceScores.from_completion(completion)
            fields = record_fields(labels, texts, scores)
        except BackendError as exc:  # a wrong-sized or malformed answer is this item's error, not the run's
            completion, error = None, f"{type(exc).__name__}: {exc}"
        else:
            label = choose(labels, scores.logprobs, texts, "acc")
            rule, response = "loglik-acc", choices[label]
            usage = {"prompt_tokens": scores.prompt_tokens, "completion_tokens": 0}
    return RunRecord(
        task=item.task, variant=item.variant, item_id=item.id, gold=item.gold, meta=item.meta,
        prompt_sha256=_prompt_sha(item), request_key=key, response=response, label=label, rule=rule,
        method="loglik", **fields, usage=usage, cost_usd=0.0,
        latency_s=None if completion is None else round(completion.latency_s, 6),
        finish_reason=None if completion is None else completion.finish_reason, source=source,
        attempts=attempts, error=error, time=_now(),
    )

def _choice_record(item: Item, spec: Task, *, completion: Optional[Completion], key: str, source: str,
                   attempts: int, error: Optional[str], choices: dict[str, str], cost: float,
                   prompt_sha256: Optional[str]) -> RunRecord:
    labels, texts = list(choices), list(choices.values())
    label = rule = scoring = read = logprobs = probs = None
    usage = {"prompt_tokens": None, "completion_tokens": None}
    if completion is not None:
        usage = {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens}
        try:
            reading = read_choices(generated_tokens(completion.raw or {}), labels, texts)
        except BackendError as exc:  # a malformed reply is this item's error, not the run's
            completion, error = None, f"{type(exc).__name__}: {exc}"
        else:
            scoring, read = reading.mode, reading.record_field()
            if reading.mode == "logprobs":
                label, rule = reading.label, "choice-logprobs"
                logprobs = dict(zip(labels, reading.logprobs or []))
                probs = dict(zip(labels, reading.probs or []))
            else:  # departed, ended or unresolved: the answer is parsed as --method generate parses it
                try:
                    label, rule = spec.parse_answer(completion.text, item.variant)
                except CausalGraphError as exc:
                    label, rule = None, f"parse_error: {' '.join(str(exc).split())[:200]}"
    return RunRecord(
        task=item.task, variant=item.variant, item_id=item.id, gold=item.gold, meta=item.meta,
        prompt_sha256=prompt_sha256 if prompt_sha256 is not None else _prompt_sha(item), request_key=key,
        response=completion.text if completion is not None else None, label=label, rule=rule,
        method="choice-logprobs", continuations=dict(choices), logprobs=logprobs, probs=probs, scoring=scoring,
        choice_read=read, usage=usage, cost_usd=cost,
        latency_s=None if completion is None else round(completion.latency_s, 6),
        finish_reason=None if completion is None else completion.finish_reason, source=source,
        attempts=attempts, error=error, time=_now(),
    )


class RunWriter:
    """A run folder held by this process: lines go in through :meth:`append`, the invocation ends in :meth:`finish`.

    Make one with :meth:`prepare` (a new invocation of a run: items built,
    folder checked and locked, manifest written) or :meth:`reopen` (Batch
    collection: a locked folder whose invocation is recorded when it
    finishes); :meth:`release` (or ``with``) gives the folder back.

    Attributes
    ----------
    store
        The run folder.
    spec
        The run's task.
    manifest
        The :class:`~causalgraph.runlog.files.Manifest` being written (the caller may set its fields
        before :meth:`finish`; it is serialised once, by the store).
    prep
        What :meth:`prepare` found (``None`` after :meth:`reopen`).
    counters
        ``requests_sent``, ``cache_hits``, ``written`` and ``errors`` of this
        invocation; :meth:`append` counts ``written``, the caller the rest.
    """

    def __init__(self, store: RunStore, spec: Task, manifest: Manifest, *,
                 prep: Optional[PreparedRun] = None, mode: str = "live", progress: Optional[Progress] = None):
        self.store, self.spec, self.manifest, self.prep, self.mode = store, spec, manifest, prep, mode
        self.progress = progress
        self.counters = {"requests_sent": 0, "cache_hits": 0, "written": 0, "errors": 0, "asked": 0,
                         "shared_failures": 0}
        # The choice-logprobs probe's tokens and USD (the runner sets them): no record holds them, so the
        # invocation does, and the run's totals add them.
        self.probe_usage: Optional[dict[str, Any]] = None
        # The scoring metrics metrics.json adds (RunConfig.scoring_metrics); () keeps those it holds.
        self.scoring_metrics: tuple[str, ...] = ()
        self._last_sync = time.monotonic()

    @classmethod
    def prepare(cls, config: RunConfig, backend: Backend, *, items: Optional[Sequence[Item]] = None,
                dataset: Optional[dict[str, Any]] = None, mode: str = "live") -> "RunWriter":
        """Prepare the run folder for a new invocation (:func:`~causalgraph.bench.prepare.prepare_run`)."""
        prep = prepare_run(config, backend, items=items, dataset=dataset, mode=mode)
        writer = cls(prep.store, prep.spec, prep.manifest, prep=prep, mode=mode)
        writer.scoring_metrics = tuple(config.scoring_metrics or ())
        return writer

    @classmethod
    def reopen(cls, store: RunStore, spec: Task, manifest: Manifest, mode: str) -> "RunWriter":
        """A writer for a folder this process holds already, whose invocation :meth:`finish` records."""
        return cls(store, spec, manifest, mode=mode)

    @property
    def path(self) -> Path:
        return self.store.path

    def show_progress(self, total: int, enabled: bool | str, desc: str) -> None:
        """Report every appended line on stderr (:class:`~causalgraph.bench.progress.Progress`)."""
        self.progress = Progress(total, enabled, desc)

    def append(self, records: Iterable[RunRecord], *, sync: bool = True) -> None:
        """Append lines to ``responses.jsonl`` (``sync``: flushed to disk now), count and report them."""
        records = [RunRecord.of(r, str(self.store.responses_path)) for r in records]
        self.store.append(records, sync=sync)
        self.counters["written"] += len(records)
        if self.progress is not None:
            for rec in records:
                self.progress.update(rec)

    def sync_now_and_then(self) -> None:
        """Sync ``responses.jsonl`` if :data:`SYNC_INTERVAL` seconds passed since the last sync."""
        now = time.monotonic()
        if now - self._last_sync > SYNC_INTERVAL:
            self._last_sync = now
            self.store.sync()

    def sync(self) -> None:
        self.store.sync()

    def finish(self, invocation: dict[str, Any], metrics: Optional[dict[str, Any]] = None, *,
               score: bool = True) -> Optional[Metrics]:
        """Record the invocation in the manifest and, with ``score``, score the run into ``metrics.json``.

        Parameters
        ----------
        invocation
            Fields added to this invocation's entry of ``manifest["invocations"]``
            (after :meth:`reopen`, the entry is made now: ``started``, ``mode``, then these).
        metrics
            Fields added to the computed metrics (what the invocation did).
        score
            Compute and write ``metrics.json`` (``False``: the manifest only).

        Returns
        -------
        Metrics or None
            The metrics written, or ``None`` without ``score``.
        """
        if self.prep is not None:
            self.prep.invocation.update(invocation)
        else:
            if self.manifest.invocations is None:
                self.manifest.invocations = []
            self.manifest.invocations.append({"started": utc_now(), "mode": self.mode, **invocation})
        self.store.write_manifest(self.manifest)
        if not score:
            return None
        # The lines kept since prepare (store.keep_lines) and appended since: the folder is not read again.
        run = self.store.load()
        out = compute_metrics(run, spec=self.spec,
                              scoring_metrics=self.scoring_metrics or list(run.metrics.scoring_metrics or ()))
        out = dataclasses.replace(out, **(metrics or {}))
        self.store.write_metrics(out)
        return out

    def finish_counts(self) -> Optional[Metrics]:
        """:meth:`finish` with this invocation's counters (a live run, an inspect import)."""
        c, skipped = self.counters, self.prep.skipped if self.prep is not None else 0
        probe = {} if self.probe_usage is None else {"probe_usage": dict(self.probe_usage)}
        return self.finish({"finished": utc_now(), "requests_sent": c["requests_sent"], "cache_hits": c["cache_hits"],
                            "skipped": skipped, "written": c["written"], "errors": c["errors"], **probe},
                           {"requests_sent": c["requests_sent"], "cache_hits": c["cache_hits"], "skipped": skipped})

    def close_progress(self) -> None:
        if self.progress is not None:
            self.progress.close()

    def release(self) -> None:
        """Give the folder back (its lock), whatever happened."""
        self.store.release()

    def __enter__(self) -> "RunWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()
