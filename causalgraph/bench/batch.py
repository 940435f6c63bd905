"""The OpenAI Batch API path: submit a run's requests as a Batch job, collect the results later.

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
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from ..errors import BackendError, ConfigError
from .item import Item
from ..tasks import get_task
from .runner import (RunConfig, _now, build_request, cache_key_for, make_record, open_cache, prepare_run, redact,
                     request_cost)
from .store import RunStore, record_key, write_atomic

__all__ = ["submit_batch", "collect_batch", "batch_status", "BatchSubmission", "BatchCollection",
           "MAX_BATCH_LINES", "MAX_BATCH_BYTES"]

#: OpenAI's limits on one batch input file: 50,000 requests and 200 MB.
MAX_BATCH_LINES = 50_000
MAX_BATCH_BYTES = 190 * 1024 * 1024
_FINAL = ("completed", "expired", "cancelled", "failed")
_ENDPOINT = "/v1/chat/completions"


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
    metrics: Optional[dict[str, Any]] = None


def _openai_backend(model: str, options: dict[str, Any]):
    from ..llm.openai import OpenAIBackend
    from ..llm.registry import split_spec

    provider, name = split_spec(model)
    if provider != "openai":
        raise ConfigError(f"the Batch API needs an openai/<model>; got {model!r}")
    return OpenAIBackend(name, **options)


def _login_url(stored: str) -> str:
    """The server URL to collect from: ``$OPENAI_BASE_URL`` when it is the stored URL plus a login.

    The manifest keeps the URL without user info; a server that needs the
    login it carried gets it back from the environment, never from a file.
    """
    from ..llm.base import public_url

    env = os.environ.get("OPENAI_BASE_URL")
    if env and public_url(env).rstrip("/") == stored.rstrip("/"):
        return env
    return stored


def _client(backend):
    return backend.new_client(sync=True)


@contextmanager
def _api_errors(backend) -> Iterator[None]:
    """Raise an openai SDK error as a BackendError whose message carries no credential (others pass through).

    The server's message may repeat the key that was sent (a 401 does); the
    ledger keeps what was done so far, so the same command can be run again.
    """
    import openai  # the backend was built, so the SDK is there

    try:
        yield
    except openai.OpenAIError as exc:
        status = getattr(exc, "status_code", None)
        msg = f"{'HTTP ' + str(status) + ': ' if status else ''}{getattr(exc, 'message', None) or exc}"
        raise BackendError(redact(f"Batch API: {msg}; the ledger keeps what was done, run the same command again",
                                  backend.secrets())) from None


def _run_token(store: RunStore, manifest: dict[str, Any]) -> str:
    """An id for this run directory, put into batch metadata to find lost batches again."""
    raw = f"{store.path.resolve()}|{manifest.get('started')}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _find_batch(client, token: str, local_id: str) -> Optional[Any]:
    """A batch created for this run and local id (after a crash before the ledger was written)."""
    try:
        page = client.batches.list(limit=100)
    except Exception:  # listing is a convenience; the caller creates the batch when it fails
        return None
    for b in getattr(page, "data", []) or []:
        meta = getattr(b, "metadata", None) or {}
        if meta.get("causalgraph_run") == token and meta.get("causalgraph_batch") == local_id:
            return b
    return None


def _advance(client, store: RunStore, ledger: dict[str, Any], entry: dict[str, Any], token: str) -> None:
    """Take a ledger entry from ``prepared`` through ``uploaded`` to ``submitted``, saving each step."""
    if entry["state"] == "prepared":
        with open(store.path / entry["input_path"], "rb") as fh:
            f = client.files.create(file=fh, purpose="batch")
        entry["input_file_id"] = f.id
        entry["state"] = "uploaded"
        store.write_ledger(ledger)
    if entry["state"] == "uploaded":
        found = _find_batch(client, token, entry["local_id"])
        if found is None:
            found = client.batches.create(
                input_file_id=entry["input_file_id"], endpoint=_ENDPOINT, completion_window="24h",
                metadata={"causalgraph_run": token, "causalgraph_batch": entry["local_id"]})
        entry["batch_id"] = found.id
        entry["status"] = getattr(found, "status", None)
        entry["state"] = "submitted"
        entry["submitted"] = _now()
        store.write_ledger(ledger)


def submit_batch(config: RunConfig, *, items: Optional[Sequence[Item]] = None,
                 dataset: Optional[dict[str, Any]] = None, max_lines: int = MAX_BATCH_LINES,
                 max_bytes: int = MAX_BATCH_BYTES) -> BatchSubmission:
    """Submit the run's unanswered items as OpenAI Batch jobs.

    Parameters
    ----------
    config
        As for ``bench run`` (``model`` must be ``openai/<model>``).
    items, dataset
        Hand-built items instead of the task's builder.
    max_lines, max_bytes
        Split the requests into files within OpenAI's limits.

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
    backend = _openai_backend(config.model, config.model_options)
    prep = prepare_run(config, backend, items=items, dataset=dataset, mode="batch-submit")
    try:
        return _submit_locked(prep, config, backend, max_lines, max_bytes)
    finally:
        prep.store.release()


def _submit_locked(prep, config: RunConfig, backend, max_lines: int, max_bytes: int) -> BatchSubmission:
    """The part of :func:`submit_batch` that runs while this process holds the run directory."""
    store, spec = prep.store, prep.spec
    client = _client(backend)
    token = _run_token(store, prep.manifest)
    ledger = store.read_ledger()
    result = BatchSubmission(path=store.path, skipped=prep.skipped)
    try:
        with _api_errors(backend):
            # Finish what an interrupted submit left half done.
            for entry in ledger["batches"]:
                if entry["state"] in ("prepared", "uploaded"):
                    _advance(client, store, ledger, entry, token)
                    result.batch_ids.append(entry["batch_id"])

            cache = open_cache(config)
            lines: list[dict[str, Any]] = []
            hits = []
            try:
                backend.prepare(prep.todo, spec)
                for it in prep.todo:
                    req = build_request(it, spec, config)
                    key = cache_key_for(backend, req, it)
                    hit = cache.get(key) if cache is not None else None
                    if hit is not None:
                        hits.append(make_record(it, spec, completion=hit, key=key, source="cache", attempts=0,
                                                error=None))
                        continue
                    lines.append({"request_key": key, "item": it.to_dict(), "body": backend.body(req)})
            finally:
                if cache is not None:
                    cache.close()
            if hits:
                store.append(hits)
            result.cache_hits = len(hits)

            # Group into files within the limits.
            groups: list[list[dict[str, Any]]] = []
            cur: list[dict[str, Any]] = []
            size = 0
            for rec in lines:
                n = len(json.dumps(rec["body"], ensure_ascii=False).encode()) + 200
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
                    req_lines.append(json.dumps({"custom_id": cid, "method": "POST", "url": _ENDPOINT,
                                                 "body": rec["body"]}, ensure_ascii=False))
                    item_lines.append(json.dumps({"custom_id": cid, "request_key": rec["request_key"],
                                                  "item": rec["item"]}, ensure_ascii=False))
                write_atomic(store.path / input_name, ("\n".join(req_lines) + "\n").encode("utf-8"))
                write_atomic(store.path / items_name, ("\n".join(item_lines) + "\n").encode("utf-8"))
                entry = {"local_id": local_id, "state": "prepared", "input_path": input_name, "items_path": items_name,
                         "requests": len(group), "created": _now()}
                ledger["batches"].append(entry)
                store.write_ledger(ledger)
                _advance(client, store, ledger, entry, token)
                result.batch_ids.append(entry["batch_id"])
                result.requests += len(group)
    finally:
        client.close()
    prep.invocation.update({"finished": _now(), "batch_requests": result.requests, "cache_hits": result.cache_hits,
                            "batches": list(result.batch_ids)})
    store.write_manifest(prep.manifest)
    return result


def _read_items(store: RunStore, entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    with open(store.path / entry["items_path"], encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                out[rec["custom_id"]] = rec
    return out


def _download(client, file_id: str, path: Path) -> None:
    resp = client.files.content(file_id)
    data = resp.read() if hasattr(resp, "read") else (resp.content if hasattr(resp, "content") else bytes(resp))
    write_atomic(path, data)


def _ingest(store: RunStore, entry: dict[str, Any], spec, backend, prices, cache) -> tuple[int, int]:
    """Append the batch's results for items that have no answer and no line from this batch yet."""
    from ..llm.openai import completion_from_body

    items = _read_items(store, entry)
    done = set()
    for rec in store.iter_lines():
        if not rec.get("error") or rec.get("batch_id") == entry["batch_id"]:
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
            resp = obj.get("response") or {}
            if obj.get("error") or resp.get("status_code") != 200:
                err = obj.get("error") or (resp.get("body") or {}).get("error") or resp
                error = f"batch {entry['batch_id']}: HTTP {resp.get('status_code')}: {json.dumps(err)[:300]}"
            else:
                try:
                    completion = completion_from_body(resp.get("body") or {})
                except BackendError as exc:
                    error = str(exc)
        cost = 0.0
        if completion is not None:
            cost = request_cost(backend, completion, prices, batch=True)
            if cache is not None:
                cache.put(info["request_key"], completion, backend=backend.name)
        else:
            errors += 1
        rec = make_record(it, spec, completion=completion, key=info["request_key"], source="batch", attempts=1,
                          error=None if error is None else redact(error, backend.secrets()), cost=cost)
        rec["batch_id"] = entry["batch_id"]
        records.append(rec)
    if records:
        store.append(records)
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
    options = dict((manifest.get("parameters") or {}).get("model_options") or {})
    if options.get("base_url"):
        options["base_url"] = _login_url(options["base_url"])
    backend = _openai_backend(manifest["model"], options)
    spec = get_task(manifest["task"])
    client = _client(backend)
    token = _run_token(store, manifest)
    result = BatchCollection(path=store.path)
    cfg = RunConfig(task=manifest["task"], variants=manifest.get("variants") or ["-"], model=manifest["model"],
                    cache=cache, cache_path=cache_path)
    rcache = open_cache(cfg)
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        with _api_errors(backend):
            while True:
                for entry in ledger["batches"]:
                    if entry["state"] in ("prepared", "uploaded"):
                        _advance(client, store, ledger, entry, token)
                    if entry["state"] != "submitted":
                        continue
                    b = client.batches.retrieve(entry["batch_id"])
                    entry["status"] = b.status
                    counts = getattr(b, "request_counts", None)
                    if counts is not None:
                        entry["request_counts"] = counts.model_dump() if hasattr(counts, "model_dump") else dict(counts)
                    if b.status not in _FINAL:
                        continue
                    for attr, name in (("output_file_id", "output_path"), ("error_file_id", "error_path")):
                        fid = getattr(b, attr, None)
                        if fid and not entry.get(name):
                            fname = f"batch_{entry['local_id']}_{name.split('_')[0]}.jsonl"
                            _download(client, fid, store.path / fname)
                            entry[attr] = fid
                            entry[name] = fname
                            store.write_ledger(ledger)
                    n, errs = _ingest(store, entry, spec, backend, prices, rcache)
                    result.ingested += n
                    result.errors += errs
                    entry["state"] = "collected"
                    entry["collected"] = _now()
                    store.write_ledger(ledger)
                result.statuses = {e.get("batch_id") or e["local_id"]: e.get("status") or e["state"]
                                   for e in ledger["batches"]}
                result.pending = sum(1 for e in ledger["batches"] if e["state"] != "collected")
                if not wait or result.pending == 0:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    print(f"causalgraph: {result.pending} batch(es) still running after {timeout} s; run collect again",
                          file=sys.stderr)
                    break
                time.sleep(poll_interval)
    finally:
        client.close()
        if rcache is not None:
            rcache.close()
    manifest.setdefault("invocations", []).append({"started": _now(), "mode": "batch-collect",
                                                   "ingested": result.ingested, "errors": result.errors,
                                                   "pending_batches": result.pending})
    store.write_manifest(manifest)
    if result.pending == 0:
        from .scoring import compute_metrics

        metrics = compute_metrics(store.load(), spec=spec)
        metrics["requests_sent"] = 0
        metrics["cache_hits"] = 0
        metrics["batch_requests"] = sum(int(e.get("requests", 0)) for e in ledger["batches"])
        store.write_metrics(metrics)
        result.metrics = metrics
    return result


def batch_status(run_dir: str | os.PathLike) -> list[dict[str, Any]]:
    """The ledger's batches (local id, state, OpenAI status, request counts) without contacting the API."""
    store = RunStore(run_dir)
    store.read_manifest()  # a folder that is not a run (or lost its manifest) is an error, not an empty table
    return [{k: e.get(k) for k in ("local_id", "batch_id", "state", "status", "requests", "created", "collected")}
            for e in store.read_ledger()["batches"]]
