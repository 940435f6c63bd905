"""The Batch path of a run: submit its requests as batch jobs, collect the results later.

The ledger here is provider-neutral; the job itself goes through the backend's
batch client (:mod:`causalgraph.llm.batch`; OpenAI's in :mod:`causalgraph.llm.openai_batch`).

``submit_batch`` builds the run's items exactly as ``bench run`` does, answers
what the response cache already holds, writes the remaining requests as
JSONL into the run directory, uploads the file, creates the batch and
records each step in the run's ledger (``batches.json``, replaced
atomically) before it returns.  ``collect_batch`` polls the batches of the
ledger, downloads their output and error files into the run directory and
appends one line per item to ``responses.jsonl``.

Nothing is lost or doubled when either is interrupted and run again:

* the ledger names every batch as soon as it exists (and the batch carries
  the run's token in its metadata, so one created just before a crash is
  found again instead of being created twice);
* downloaded files are kept, so a second collect reads them from disk;
* an item with an answer, or with a line from this batch already, is never
  written again;
* items waiting in an open batch are left alone by ``bench run`` and by a
  second ``submit``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import BackendError, ConfigError
from ..llm.batch import BatchClient, batch_client_class, batch_client_for
from ..llm.registry import backend_class, get_backend
from .._core.outputs import write_atomic
from ..tasks import get_task
from ..taskkit.item import Item
from .clock import utc_now
from .config import RunConfig
from ..runlog.files import Ledger, Manifest, Metrics
from .runner import open_cache, plan_requests, request_cost, write_cache_hits
from ..llm.base import redact
from ..runlog.store import RunStore, record_key
from .prepare import run_scoring_metrics
from .writer import RunWriter, make_record

__all__ = ["submit_batch", "collect_batch", "batch_status", "BatchSubmission", "BatchCollection"]

#: Notes of a collection (jobs still running when ``timeout`` ran out): log records the command line shows.
logger = logging.getLogger(__name__)


@dataclass
class BatchSubmission:
    """What ``submit_batch`` did."""

    path: Path
    batch_ids: list[str] = field(default_factory=list)
    requests: int = 0
    cache_hits: int = 0
    skipped: int = 0


@dataclass
class BatchCollection:
    """What ``collect_batch`` did."""

    path: Path
    statuses: dict[str, str] = field(default_factory=dict)
    ingested: int = 0
    errors: int = 0
    pending: int = 0
    metrics: Optional[Metrics] = None


def _batch_backend(model: str, options: dict[str, Any], *, stored: bool = False):
    """The backend of ``model`` and its batch client class (``stored``: options read back from a manifest)."""
    cls = backend_class(model)
    if cls is None or not cls.batch_client:
        raise ConfigError(f"the Batch API needs a backend with batch support (openai/<model>); got {model!r}")
    client_cls = batch_client_class(cls, model)
    return get_backend(model, **(client_cls.restore_options(options) if stored else options))


def _offline_guard(backend, what: str) -> None:
    """Refuse to contact a server other than this machine while ``CAUSALGRAPH_OFFLINE`` is set.

    The Batch commands reach a hosted API (``api.openai.com``); offline, they
    say so in one line before anything is sent, rather than a bare
    "Connection error".  A server on the loopback interface (127.0.0.1,
    ``localhost``, ``::1``) is this machine and stays allowed.
    """
    if os.environ.get("CAUSALGRAPH_OFFLINE", "").strip() in ("", "0"):
        return
    endpoint = getattr(backend, "endpoint", None) or ""
    host = endpoint.rsplit(":", 1)[0].strip("[]").lower() if endpoint else ""
    if host in ("localhost", "::1") or host.startswith("127."):
        return
    raise ConfigError(f"CAUSALGRAPH_OFFLINE is set: {what} would contact {endpoint or backend.name}; nothing was "
                      "sent (unset CAUSALGRAPH_OFFLINE to reach it)")


def _never_submitted(entries: Sequence[dict[str, Any]]) -> list[str]:
    """Local ids of ledger entries that never became a job on the server (``prepared`` or ``uploaded``)."""
    return [e["local_id"] for e in entries if e.get("state") in ("prepared", "uploaded")]


def _run_token(store: RunStore, manifest: Manifest) -> str:
    """An id for this run directory, put into batch metadata to find lost batches again."""
    raw = f"{store.path.resolve()}|{manifest.started}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _advance(client: BatchClient, store: RunStore, ledger: dict[str, Any], entry: dict[str, Any],
             token: str) -> None:
    """Take a ledger entry from ``prepared`` through ``uploaded`` to ``submitted``, saving each step."""
    if entry["state"] == "prepared":
        entry["input_file_id"] = client.upload(store.path / entry["input_path"])
        entry["state"] = "uploaded"
        store.write_ledger(ledger)
    if entry["state"] == "uploaded":
        metadata = {"causalgraph_run": token, "causalgraph_batch": entry["local_id"]}
        # A job created just before a crash carries the run's token: find it instead of creating a second.
        found = client.find(metadata) or client.create(entry["input_file_id"], metadata)
        entry["batch_id"] = found.id
        entry["status"] = found.status
        entry["state"] = "submitted"
        entry["submitted"] = utc_now()
        store.write_ledger(ledger)


def submit_batch(config: RunConfig, *, items: Optional[Sequence[Item]] = None,
                 dataset: Optional[dict[str, Any]] = None, max_lines: Optional[int] = None,
                 max_bytes: Optional[int] = None) -> BatchSubmission:
    """Submit the run's unanswered items as batch jobs (the backend's batch client; OpenAI's for ``openai/…``).

    Parameters
    ----------
    config
        As for ``bench run`` (``model`` must be ``openai/<model>``).
    items, dataset
        Hand-built items instead of the task's builder.
    max_lines, max_bytes
        Split the requests into files within these limits (default: the
        batch client's, OpenAI's 50,000 requests and 190 MB).

    Returns
    -------
    BatchSubmission
        The batch ids (also in ``<run>/batches.json``) and counts.

    Examples
    --------
    >>> from causalgraph.bench.runner import RunConfig
    >>> cfg = RunConfig(task="demo-yesno", variants=["all"], model="openai/gpt-5.1-2025-11-13",
    ...                 temperature=None, out="runs/gpt51-demo")
    >>> submit_batch(cfg).batch_ids   # doctest: +SKIP
    ['batch_…']
    """
    backend = _batch_backend(config.model, config.model_options)
    _offline_guard(backend, "bench batch submit")
    with RunWriter.prepare(config, backend, items=items, dataset=dataset, mode="batch-submit") as writer:
        return _submit_locked(writer, config, backend, max_lines, max_bytes)


def _submit_locked(writer: RunWriter, config: RunConfig, backend, max_lines: Optional[int],
                   max_bytes: Optional[int]) -> BatchSubmission:
    """The part of :func:`submit_batch` that runs while this process holds the run directory."""
    prep = writer.prep
    store, spec = prep.store, prep.spec
    client = batch_client_for(backend)
    max_lines = max_lines or client.max_lines
    max_bytes = max_bytes or client.max_bytes
    token = _run_token(store, prep.manifest)
    ledger = store.read_ledger()
    result = BatchSubmission(path=store.path, skipped=prep.skipped)
    try:
        with client.errors():
            # Finish what an interrupted submit left half done.
            for entry in ledger["batches"]:
                if entry["state"] in ("prepared", "uploaded"):
                    _advance(client, store, ledger, entry, token)
                    result.batch_ids.append(entry["batch_id"])

            cache = open_cache(config)
            try:
                backend.prepare(prep.todo, spec)
                # The runner's own path: the same keys and cache lines as a live run (a Batch job has no epochs,
                # and asks for generated answers: no loglik continuations; its client checks the requests).
                planned = plan_requests(prep.todo_samples, spec, config, backend, {}, check=False)
                misses = write_cache_hits(planned, cache, spec, writer, choices_of={})
            finally:
                if cache is not None:
                    cache.close()
            lines = [{"request_key": p.key, "item": p.item.to_dict(), "request": p.request} for p in misses]
            result.cache_hits = writer.counters["cache_hits"]

            # Group into files within the limits.
            groups: list[list[dict[str, Any]]] = []
            cur: list[dict[str, Any]] = []
            size = 0
            for rec in lines:
                rec["line"] = client.request_line("", rec.pop("request"))
                n = len(json.dumps(rec["line"], ensure_ascii=False).encode()) + 200
                if cur and (len(cur) >= max_lines or size + n > max_bytes):
                    groups.append(cur)
                    cur, size = [], 0
                cur.append(rec)
                size += n
            if cur:
                groups.append(cur)

            for group in groups:
                local_id = f"b{len(ledger['batches']) + 1:04d}"
                input_name, items_name = f"batch_{local_id}_input.jsonl", f"batch_{local_id}_items.jsonl"
                req_lines, item_lines = [], []
                for i, rec in enumerate(group):
                    cid = f"{local_id}-{i:06d}"
                    req_lines.append(json.dumps({**rec["line"], "custom_id": cid}, ensure_ascii=False))
                    item_lines.append(json.dumps({"custom_id": cid, "request_key": rec["request_key"],
                                                  "item": rec["item"]}, ensure_ascii=False))
                write_atomic(store.path / input_name, ("\n".join(req_lines) + "\n").encode("utf-8"))
                write_atomic(store.path / items_name, ("\n".join(item_lines) + "\n").encode("utf-8"))
                entry = {"local_id": local_id, "state": "prepared", "input_path": input_name, "items_path": items_name,
                         "requests": len(group), "created": utc_now()}
                ledger["batches"].append(entry)
                store.write_ledger(ledger)
                _advance(client, store, ledger, entry, token)
                result.batch_ids.append(entry["batch_id"])
                result.requests += len(group)
    finally:
        client.close()
    writer.finish({"finished": utc_now(), "batch_requests": result.requests, "cache_hits": result.cache_hits,
                   "batches": list(result.batch_ids)}, score=False)
    return result


def _read_items(store: RunStore, entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    with open(store.path / entry["items_path"], encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                out[rec["custom_id"]] = rec
    return out


def _ingest(writer: RunWriter, entry: dict[str, Any], backend, client: BatchClient, prices,
            cache) -> tuple[int, int]:
    """Append the batch's results for items that have no answer and no line from this batch yet."""
    store, spec = writer.store, writer.spec
    items = _read_items(store, entry)
    done = set()
    for rec in store.checked_lines(writer.manifest, quiet=True):
        if not rec.error or rec.batch_id == entry["batch_id"]:
            done.add(record_key(rec))
    results: dict[str, dict[str, Any]] = {}
    for name in ("output_path", "error_path"):
        if entry.get(name):
            with open(store.path / entry[name], encoding="utf-8") as fh:
                for n, line in enumerate(fh, start=1):
                    if not line.strip():
                        continue
                    try:
                        obj = json.loads(line)
                    except json.JSONDecodeError:
                        raise BackendError(f"{store.path / entry[name]}, line {n}: not JSON") from None
                    cid = obj.get("custom_id")
                    if cid not in items:
                        raise BackendError(f"{store.path / entry[name]}, line {n}: custom_id {cid!r} was not sent "
                                           f"in batch {entry['batch_id']}")
                    # An output line beats an error line for the same request.
                    if cid not in results or name == "output_path":
                        results[cid] = obj
    records, errors = [], 0
    for cid, info in items.items():
        it = Item(**info["item"])
        if (it.task, it.variant, it.id) in done:
            continue
        obj = results.get(cid)
        completion, error = None, None
        if obj is None:
            error = f"missing from the output of batch {entry['batch_id']} (status {entry.get('status')})"
        else:
            res = client.read_result(obj, entry["batch_id"])
            completion, error = res.completion, res.error
        cost = 0.0
        if completion is not None:
            cost = request_cost(backend, completion, prices, batch=True)
            if cache is not None:
                cache.put(info["request_key"], completion, backend=backend.name)
        else:
            errors += 1
        rec = make_record(it, spec, completion=completion, key=info["request_key"], source="batch", attempts=1,
                          error=None if error is None else redact(error, backend.secrets()), cost=cost)
        rec.batch_id = entry["batch_id"]
        records.append(rec)
    if records:
        writer.append(records)
    return len(records), errors


def collect_batch(run_dir: str | os.PathLike, *, wait: bool = False, poll_interval: float = 30.0,
                  timeout: Optional[float] = None, prices: Optional[dict] = None,
                  cache: bool = True, cache_path: Optional[str] = None) -> BatchCollection:
    """Poll the run's batches; download and ingest those that have finished.

    Parameters
    ----------
    run_dir
        A run directory with a ``batches.json`` ledger.
    wait
        Keep polling every ``poll_interval`` seconds until every batch has
        finished (or ``timeout`` seconds passed).

    Returns
    -------
    BatchCollection
        Batch statuses, lines ingested, errors, batches still pending, and
        the run's metrics once nothing is pending.

    Examples
    --------
    >>> collect_batch("runs/gpt51-demo", wait=True).pending   # doctest: +SKIP
    0
    """
    store = RunStore(run_dir)
    store.read_manifest()  # a folder that is not a run is an error before anything is created in it
    store.acquire("batch-collect")
    try:
        return _collect_locked(store, wait, poll_interval, timeout, prices, cache, cache_path)
    finally:
        store.release()


def _collect_locked(store: RunStore, wait: bool, poll_interval: float, timeout: Optional[float],
                    prices: Optional[dict], cache: bool, cache_path: Optional[str]) -> BatchCollection:
    """The part of :func:`collect_batch` that runs while this process holds the run directory."""
    manifest = store.read_manifest()
    ledger = store.read_ledger()
    if not ledger["batches"]:
        raise ConfigError(f"{store.path}: the run has no Batch job (no {store.ledger_path.name})")
    options = dict((manifest.parameters or {}).get("model_options") or {})
    backend = _batch_backend(manifest.model, options, stored=True)
    unsent = _never_submitted(ledger["batches"])
    _offline_guard(backend, "bench batch collect" + (f" (which submits batch {', '.join(unsent)}, never submitted)"
                                                     if unsent else ""))
    spec = get_task(manifest.task)
    scoring = run_scoring_metrics(store, spec)  # before anything is ingested: the metrics can then be written
    writer = RunWriter.reopen(store, spec, manifest, mode="batch-collect")
    writer.scoring_metrics = scoring
    client = batch_client_for(backend)
    token = _run_token(store, manifest)
    result = BatchCollection(path=store.path)
    cfg = RunConfig(task=manifest.task, variants=manifest.variants or ["-"], model=manifest.model,
                    cache=cache, cache_path=cache_path)
    rcache = open_cache(cfg)
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        with client.errors():
            while True:
                for entry in ledger["batches"]:
                    if entry["state"] in ("prepared", "uploaded"):
                        try:
                            with client.errors():
                                _advance(client, store, ledger, entry, token)
                        except BackendError as exc:
                            # Said as what it is: the job was never created, there is nothing to collect yet.
                            raise BackendError(f"batch {entry['local_id']} of {store.path} was never submitted and "
                                               f"submitting it failed: {exc}") from None
                    if entry["state"] != "submitted":
                        continue
                    b = client.retrieve(entry["batch_id"])
                    entry["status"] = b.status
                    if b.request_counts is not None:
                        entry["request_counts"] = b.request_counts
                    if b.status not in client.final_statuses:
                        continue
                    for attr, name in (("output_file_id", "output_path"), ("error_file_id", "error_path")):
                        fid = getattr(b, attr)
                        if fid and not entry.get(name):
                            fname = f"batch_{entry['local_id']}_{name.split('_')[0]}.jsonl"
                            client.download(fid, store.path / fname)
                            entry[attr] = fid
                            entry[name] = fname
                            store.write_ledger(ledger)
                    n, errs = _ingest(writer, entry, backend, client, prices, rcache)
                    result.ingested += n
                    result.errors += errs
                    entry["state"] = "collected"
                    entry["collected"] = utc_now()
                    store.write_ledger(ledger)
                result.statuses = {e.get("batch_id") or e["local_id"]: e.get("status") or e["state"]
                                   for e in ledger["batches"]}
                result.pending = sum(1 for e in ledger["batches"] if e["state"] != "collected")
                if not wait or result.pending == 0:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    logger.warning(f"{result.pending} batch(es) still running after {timeout} s; run collect again")
                    break
                time.sleep(poll_interval)
    finally:
        client.close()
        if rcache is not None:
            rcache.close()
    # Scored only once every batch is in: a partial score would read as the run's.
    result.metrics = writer.finish(
        {"ingested": result.ingested, "errors": result.errors, "pending_batches": result.pending},
        {"requests_sent": 0, "cache_hits": 0,
         "batch_requests": sum(int(e.get("requests", 0)) for e in ledger["batches"])},
        score=result.pending == 0)
    return result


def batch_status(run_dir: str | os.PathLike) -> list[dict[str, Any]]:
    """The ledger's batches (local id, state, OpenAI status, request counts) without contacting the API.

    Raises
    ------
    ConfigError
        For a folder that is not a run, and for a run that has no Batch job
        (as :func:`collect_batch` does: an empty table would read as "nothing
        submitted yet").

    Examples
    --------
    >>> [b["state"] for b in batch_status("runs/gpt51-batch")]   # doctest: +SKIP
    ['collected']
    """
    store = RunStore(run_dir)
    store.read_manifest()  # a folder that is not a run (or lost its manifest) is an error, not an empty table
    ledger = Ledger.from_dict(store.read_ledger(), str(store.ledger_path))
    if not ledger.batches:
        raise ConfigError(f"{store.path}: the run has no Batch job (no {store.ledger_path.name})")
    return [{"local_id": b.local_id, "batch_id": b.batch_id, "state": b.state,
             "status": b.status or _UNSENT.get(b.state), "requests": b.requests, "created": b.created,
             "collected": b.collected} for b in ledger.batches]


#: What the status column says of a batch that never became a job (no id, no server status).
_UNSENT = {"prepared": "never submitted: `bench batch collect` submits it",
           "uploaded": "file uploaded, never submitted: collect submits it"}
