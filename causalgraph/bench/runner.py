"""The benchmark runner: items → requests → responses.jsonl, cached, resumable, concurrent.

``run_benchmark`` (and ``causalgraph bench run``) builds the items of a task
for each variant, skips the items the run directory has already answered,
answers the rest from the response cache or by asking the backend with at
most ``concurrency`` requests in flight, and appends one line per item to
``responses.jsonl`` as soon as it is done.  Failures worth retrying (HTTP 429
and 5xx, timeouts, dropped connections) are retried with exponential
backoff and full jitter, honouring ``Retry-After``, up to ``max_attempts``
attempts; what still fails is recorded on the item's line and the run goes
on.  When the server cannot be reached ``max_connection_failures`` times in
a row, the run stops instead, naming the endpoint, and the items it did not
finish stay pending for the next invocation.  At the end it scores the run
into ``metrics.json``.

The parts, each a module of its own:

* :mod:`~causalgraph.bench.config` — :class:`RunConfig`, :class:`RunResult`;
* :mod:`~causalgraph.bench.prepare` — the folder checked, locked, its manifest written;
* :mod:`~causalgraph.bench.writer` — :class:`~causalgraph.bench.writer.RunWriter`
  (prepare, append, finish) and :func:`make_record`, the one way lines reach a folder;
* :mod:`~causalgraph.bench.retry` — the retry policy and the circuit breaker;
* this module — the call path every answer takes (:func:`plan_requests`,
  :func:`write_cache_hits`, :func:`ask_backend`, together :func:`answer_samples`)
  into a writer, or into memory for one text (:func:`aanswer_items`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional, Protocol, Sequence

from .._core.sync import close_quietly, run_sync
from .._core.wording import plural
from ..errors import (BackendError, BackendProtocolError, BackendUnavailable, BackendUnreachable, CausalGraphError,
                      ConfigError)
from ..llm import pricing
from ..llm.base import (Backend, Completion, Request, canonical_json, is_secret_option, key_of_parts, option_secrets,
                        redact, request_key)
from ..llm.cache import ResponseCache
from ..llm.choice_logprobs import CHOICE_METHOD, choice_max_tokens, generated_tokens, missing_logprobs
from ..llm.loglik import LoglikRequest
from ..llm.registry import backend_class, get_backend
from ..tasks import Task, get_task
from .config import (DEFAULT_MAX_CONNECTION_FAILURES, DEFAULT_MAX_FAILED_ITEMS, MAX_EPOCHS, METHODS, RunConfig,
                     RunResult, check_method_backend, default_run_dir)
from ..taskkit.item import Item
from .prepare import (PreparedRun, items_by_variant, loglik_choices, loglik_variants, prepare_run,  # noqa: F401
                      resolve_variants, run_prompts)
from .progress import PROGRESS_INTERVAL, progress_interval
from .retry import CircuitBreaker, RetryPolicy, backoff_delay, call_with_retries
from .writer import RunWriter, make_record
from ..runlog.record import RunRecord

__all__ = ["run_benchmark", "arun_benchmark", "build_request", "cache_key_for", "open_cache", "request_cost",
           "plan_requests", "write_cache_hits", "ask_backend", "answer_samples", "aanswer_items", "stopped_error",
           "choice_request", "probe_logprobs", "Planned", "Sink"]

@dataclass(frozen=True, slots=True)
class Planned:
    """One sample's request, planned before anything is sent (:func:`plan_requests`)."""

    item: Item
    epoch: int
    request: Request
    #: The response-cache key (samples with one key share one request).
    key: str
    #: The request's messages as canonical JSON (the key's and the line's prompt sha256 input).
    messages_json: str


class Sink(Protocol):
    """Where the call path writes its lines: a :class:`~causalgraph.bench.writer.RunWriter` (a run folder),
    or memory (:func:`aanswer_items`)."""

    #: ``requests_sent``, ``cache_hits``, ``written``, ``errors``, ``asked``, ``shared_failures`` (and ``probes``).
    counters: dict[str, int]
    #: The choice-logprobs probe's tokens and USD, set by the runner when it sent one.
    probe_usage: Optional[dict[str, Any]]

    def append(self, records: Sequence[RunRecord], *, sync: bool = True) -> None: ...

    def sync_now_and_then(self) -> None: ...

    def sync(self) -> None: ...


def build_request(item: Item, spec: Task, config: RunConfig, epoch: int = 1) -> Request:
    """The :class:`Request` for one item (``meta`` names the item; it is never sent, and holds no gold).

    Epoch ``e`` of repeated sampling sends ``seed + e - 1`` (a provider that
    honours the seed would otherwise repeat the same answer) and names the
    epoch in ``meta`` from the second on.
    """
    meta: dict[str, Any] = {"item_id": item.id, "task": item.task, "variant": item.variant}
    if epoch > 1:
        meta["epoch"] = epoch
    if config.method == "loglik":
        # Scoring samples and generates nothing: the request is the messages alone.
        return Request(messages=tuple(item.messages()), meta=meta)
    return Request(
        messages=tuple(item.messages()),
        temperature=None if config.temperature is None else float(config.temperature),
        max_tokens=config.max_tokens,
        seed=None if config.seed is None else config.seed + epoch - 1,
        meta=meta,
    )


def cache_key_for(backend: Backend, request: Request, item: Item, epoch: int = 1,
                  choices: Optional[dict[str, str]] = None, *, messages_json: Optional[str] = None) -> str:
    """The response-cache key of an item's request.

    At temperature 0 the answer is taken to be a function of the request, so
    items with the same prompt (a question asked of the same events in
    several statements) share one entry and
    one request.  When the model samples (temperature above 0, or the
    provider's default, as in the paper's GPT-5.1 run), every item gets its
    own entry, so duplicates are asked independently, as they were in the
    paper, while re-running the same item still hits the cache.  Each epoch
    of repeated sampling after the first is its own entry (``epoch``), so
    re-running a run with epochs is free too; epoch 1 keeps the key of a run
    without epochs.  ``messages_json`` (``canonical_json(request.messages)``,
    when the caller has it) saves encoding the messages again; the key is the same.

    ``choices`` (label → continuation) makes it the key of log-likelihood
    scores (``--method loglik``): the method and the continuations are part
    of it, so scores never meet generated answers, and a variant that asks
    for another answer form gets its own entry.  Scores are deterministic:
    items with the same prompt and continuations share one entry.
    """
    if choices is not None:
        extra = {**backend.request_identity(request), **backend.loglik_identity(), "method": "loglik",
                 "continuations": [[lab, text] for lab, text in choices.items()]}
        return request_key(backend.identity(), request, extra)
    return request_key(backend.identity(), request, _generation_extra(backend, request, item, epoch) or None,
                       messages_json=messages_json)


def _generation_extra(backend: Backend, request: Request, item: Item, epoch: int) -> dict[str, Any]:
    """What a generation key adds to the backend's identity (the one rule of :func:`cache_key_for` and the run's
    :class:`_KeyMaker`): the mocks' request identity, the item when the model samples, the epoch after the first."""
    extra = dict(backend.request_identity(request))
    if request.temperature is None or request.temperature > 0:
        extra["sample_of"] = item.id
    if epoch > 1:
        extra["epoch"] = int(epoch)
    return extra


def request_cost(backend: Backend, completion: Completion, prices: Optional[dict] = None, *,
                 batch: bool = False) -> float:
    """USD of one answered request: priced when the backend is billed (OpenAI) or a price table was given."""
    if not backend.billed and prices is None:
        return 0.0
    return pricing.cost_usd(backend.model, completion.prompt_tokens, completion.completion_tokens,
                            prices if prices is not None else pricing.DEFAULT_PRICES, batch=batch)



class _KeyMaker:
    """:func:`cache_key_for` over the items of one run, the parts every item shares encoded once.

    The backend's identity is the run's (the manifest records it once), and the
    generation parameters and the mocks' request identities take a handful of
    values: their canonical JSON is kept by value, so an item costs the
    encoding of its messages and one sha256.  The key is the same
    (:func:`causalgraph.llm.base.key_of_parts`).
    """

    def __init__(self, backend: Backend):
        self._backend = backend
        self._identity = backend.identity()
        self._json: dict[Any, str] = {}

    @staticmethod
    def _frozen(value: Any) -> Any:
        # Hashable and exact: the type goes with every scalar (1, 1.0 and True are equal keys but not equal JSON).
        if isinstance(value, dict):
            return ("dict", tuple((k, _KeyMaker._frozen(v)) for k, v in value.items()))
        if isinstance(value, (list, tuple)):
            return (type(value).__name__, tuple(_KeyMaker._frozen(v) for v in value))
        return (type(value), value)

    def _encoded(self, value: dict[str, Any]) -> str:
        try:
            memo = self._frozen(value)
            hash(memo)
        except TypeError:  # a value of another kind: encoded every time
            return canonical_json(value)
        got = self._json.get(memo)
        if got is None:
            got = canonical_json(value)
            if len(self._json) < 10_000:
                self._json[memo] = got
        return got

    def key(self, request: Request, item: Item, epoch: int, messages_json: str) -> str:
        extra = _generation_extra(self._backend, request, item, epoch)
        backend = {**self._identity, "request": extra} if extra else self._identity
        return key_of_parts(self._encoded(backend), messages_json, self._encoded(request.generation_params()))


class _ParseOnce:
    """A task whose ``parse_answer`` parses each distinct (answer, variant) once.

    A cached re-run parses thousands of answers, most of them the same few
    texts ("<Answer>yes</Answer>"); a parser is a function of the answer and
    the variant, so its result (or its refusal) is reused.
    """

    def __init__(self, spec: Task):
        self._spec = spec
        self._seen: dict[tuple[str, str], tuple[Any, Any]] = {}
        # the graph a graph-first answer writes is parsed by the task itself (each record once); a task-like
        # object without the hook has no graph-first variant (the writer reads it the same way)
        gf = getattr(spec, "graph_first", None)
        self.parse_graph = gf.parse if gf is not None else None

    def parse_answer(self, text: str, variant: str):
        key = (text, variant)
        got = self._seen.get(key)
        if got is None:
            try:
                got = (self._spec.parse_answer(text, variant), None)
            except CausalGraphError as exc:
                got = (None, exc)
            if len(self._seen) < 100_000:  # bounded: long free-text answers rarely repeat
                self._seen[key] = got
        if got[1] is not None:
            raise got[1].with_traceback(None)
        return got[0]


def open_cache(config: RunConfig):
    """The response cache a run uses, or ``None`` when caching is off (``--no-cache``, ``CAUSALGRAPH_NO_CACHE=1``)."""
    if not config.cache or os.environ.get("CAUSALGRAPH_NO_CACHE", "").lower() in ("1", "true", "yes"):
        return None
    return ResponseCache(config.cache_path)



def plan_requests(samples: Sequence[tuple[Item, int]], spec: Task, config: RunConfig, backend: Backend,
                  choices_of: dict[str, dict[str, str]], *, check: bool = True) -> list[Planned]:
    """The request and cache key of every ``(item, epoch)`` to answer.

    ``check``: the backend checks the first request before anything is sent
    (every request of a run carries the same parameters).  ``choices_of``:
    variant → continuations under ``--method loglik`` (empty for generation).
    """
    keys = _KeyMaker(backend)
    planned: list[Planned] = []
    for it, epoch in samples:
        req = build_request(it, spec, config, epoch)
        # The messages encoded once, for both the cache key and the line's prompt sha256.
        msgs = canonical_json(req.messages)
        ch = choices_of.get(it.variant)
        if ch is not None and config.method == CHOICE_METHOD:
            # A generated answer with log-probabilities: its key is a generation key (the parameters hold
            # logprobs, top_logprobs and max_tokens, so it never meets a plain generated answer).
            req = choice_request(req, ch, backend, config)
            ch = None
        if check and not planned:
            backend.check_request(req)
        key = (keys.key(req, it, epoch, msgs) if ch is None
               else cache_key_for(backend, req, it, epoch, ch, messages_json=msgs))
        planned.append(Planned(it, epoch, req, key, msgs))
    return planned


def choice_request(request: Request, choices: dict[str, str], backend: Backend, config: RunConfig) -> Request:
    """The request of ``--method choice-logprobs``: the item's chat request, greedy, with ``logprobs``, the
    backend's largest ``top_logprobs`` and ``max_tokens`` just enough to write the longest choice
    unless ``--max-tokens`` says otherwise (:func:`~causalgraph.llm.choice_logprobs.choice_max_tokens`)."""
    if not backend.choice_logprobs:
        backend.top_logprobs()  # raises the one-line refusal
    max_tokens = choice_max_tokens(list(choices.values()), config.max_tokens)
    return replace(request, temperature=0.0, max_tokens=max_tokens,
                   params={**request.params, "logprobs": True, "top_logprobs": backend.top_logprobs()})


async def probe_logprobs(backend: Backend, request: Request, model: str) -> Completion:
    """Refuse, in one line and before any item is asked, a model or server that returns no log-probabilities.

    One request of one generated token (``request``'s parameters, a one-line prompt: about ten prompt
    tokens) is sent; a reply without ``choices[0].logprobs.content[*].top_logprobs`` is a
    :class:`~causalgraph.errors.ConfigError` naming the model and what was missing.  Returns the probe's
    completion, whose tokens (and price) the run's totals include.
    """
    probe = replace(request, messages=({"role": "user", "content": "Answer with one word: is water wet?"},),
                    max_tokens=1)
    got = await backend.complete(probe)
    what = missing_logprobs(got.raw or {})
    if what is not None:
        raise ConfigError(f"{model} returned no log-probabilities of its generated tokens (a probe request with "
                          f"logprobs=true, top_logprobs={probe.params.get('top_logprobs')} came back without "
                          f"{what}); --method choice-logprobs needs a model and server that return them (reasoning "
                          "models refuse them; some servers ignore the field); use --method generate")
    return got


def write_cache_hits(planned: Sequence[Planned], cache: Optional[ResponseCache], spec: Task, sink: Sink, *,
                     choices_of: dict[str, dict[str, str]], epochs: int = 1, method: str = "loglik") -> list[Planned]:
    """Append a ``cache`` line for every planned request the cache answers; return the others.

    Lines go to ``sink`` (a :class:`~causalgraph.bench.writer.RunWriter`, or
    memory) in groups of 2,000, so a cached re-run costs a few disk writes;
    each distinct answer is parsed once.
    """
    # The cache asked for every key at once, not one row at a time.
    hits = cache.get_many([p.key for p in planned]) if cache is not None else {}
    parser = _ParseOnce(spec)
    misses: list[Planned] = []
    group: list[RunRecord] = []
    for p in planned:
        it, epoch, key, msgs = p.item, p.epoch, p.key, p.messages_json
        hit = hits.get(key)
        if hit is None:
            misses.append(p)
            continue
        sink.counters["cache_hits"] += 1
        group.append(make_record(it, parser, completion=hit, key=key, source="cache", attempts=0, error=None,
                                 cost=0.0, epoch=_line_epoch(epoch, epochs),
                                 prompt_sha256=hashlib.sha256(msgs.encode("utf-8")).hexdigest(),
                                 choices=choices_of.get(it.variant), method=method))
        if len(group) >= 2000:
            sink.append(group)
            group = []
    if group:
        sink.append(group)
    return misses


def _line_epoch(epoch: int, epochs: int) -> Optional[int]:
    # Lines name their epoch only in a run with several (a run without keeps its bytes).
    return epoch if epochs > 1 else None


async def ask_backend(misses: Sequence[Planned], spec: Task, config: RunConfig, backend: Backend,
                      cache: Optional[ResponseCache], sink: Sink, breaker: CircuitBreaker, *,
                      choices_of: dict[str, dict[str, str]], epochs: int = 1, secrets: Sequence[str] = ()) -> None:
    """Ask the backend for the requests the cache did not answer, at most ``concurrency`` at a time.

    Samples with the same cache key share one request (single flight); each
    request is retried under the run's :class:`~causalgraph.bench.retry.RetryPolicy`,
    and its items' lines are appended to ``sink`` as soon as it is done.  A
    request the open ``breaker`` abandons writes no line.
    """
    policy = RetryPolicy.from_config(config)
    sem = asyncio.Semaphore(config.concurrency or backend.default_concurrency())
    rng = random.Random()

    def count_attempt() -> None:
        sink.counters["requests_sent"] += 1

    async def send(it: Item, req: Request) -> Completion:
        ch = choices_of.get(it.variant)
        try:
            if ch is None or config.method == CHOICE_METHOD:
                got = await backend.complete(req)
                what = missing_logprobs(got.raw or {}) if ch is not None else None
                if what is not None:
                    # Mid-run: this item's error (never cached, never a silent fall-back to parsing).
                    raise BackendError(f"{config.model}: the reply holds no {what} (asked with logprobs=true); "
                                       "the server stopped returning log-probabilities")
                if ch is not None:
                    # A malformed reply (a NaN or +inf log-probability, a token that is no text) is refused here
                    # too, so that it is counted as a failed request and never cached.
                    try:
                        generated_tokens(got.raw or {})
                    except BackendError as exc:
                        raise BackendError(f"{config.model}: {exc}") from None
                return got
            scores = await backend.score(LoglikRequest(req, tuple(ch), tuple(ch.values())))
        except SystemExit as exc:
            # A backend (a plugin's) that calls sys.exit() fails its request like any error, which the
            # breaker counts; let through, it would end the command mid-write with asyncio's tracebacks.
            raise BackendError(f"{backend.name}: the backend called sys.exit({exc.code!r})") from None
        return scores.to_completion()  # the form the cache stores

    # The failed items of the current streak (same failure class, in a row), held back: when the streak
    # reaches the breaker's item limit the run stops and they stay pending; else they are written.
    streak: list[tuple[list[Planned], Any]] = []

    def write(group: list[Planned], got: Any) -> None:
        sink.append(_lines(group, spec, config, backend, cache, sink, got, choices_of, epochs, secrets), sync=False)
        sink.counters["asked"] = sink.counters.get("asked", 0) + 1

    def flush_streak() -> None:
        for g, failed in streak:
            write(g, failed)
        streak.clear()

    async def one(group: list[Planned]) -> None:
        it, req = group[0].item, group[0].request
        async with sem:
            if not breaker.may_start():
                return
            got = await call_with_retries(lambda: send(it, req), policy, breaker, backend=backend, secrets=secrets,
                                          rng=rng, on_attempt=count_attempt)
            if got.abandoned or (got.completion is None and breaker.is_open):
                return  # no line: the item stays pending for the next invocation
            if got.completion is not None:
                breaker.item_answered()
                flush_streak()
                write(group, got)
            elif breaker.refused is not None or not breaker.item_limit:
                write(group, got)  # a refusal is its own line (and stops the run); no limit: nothing held back
            else:
                if streak and streak[-1][1].failure != got.failure:
                    flush_streak()  # another failure: the streak so far is not one backend failing alike
                if breaker.item_failed(got.failure or "error", redact(got.error or "", secrets),
                                       backend.endpoint or backend.name):
                    streak.clear()  # the run stops: the whole streak stays pending
                    return
                streak.append((group, got))
            sink.sync_now_and_then()

    groups: dict[str, list[Planned]] = {}
    for p in misses:
        groups.setdefault(p.key, []).append(p)
    tasks = [asyncio.ensure_future(one(g)) for g in groups.values()]
    try:
        if tasks:
            await asyncio.gather(*tasks)
        if not breaker.is_open:
            flush_streak()  # fewer failed items in a row than the limit: each is recorded with its error
    finally:
        for t in tasks:
            t.cancel()
        sink.sync()


def _lines(group: list[Planned], spec: Task, config: RunConfig, backend: Backend, cache: Optional[ResponseCache],
           sink: Sink, got: Any, choices_of: dict[str, dict[str, str]], epochs: int,
           secrets: Sequence[str]) -> list[RunRecord]:
    """The lines of one request's samples: the first ``live``, the others served by its answer (``cache``)."""
    key, recs = group[0].key, []
    if got.completion is not None:
        if cache is not None:
            cache.put(key, got.completion, backend=backend.name)
        for n, g in enumerate(group):
            g_it, g_epoch = g.item, g.epoch
            recs.append(make_record(g_it, spec, completion=got.completion, key=key,
                                    source="live" if n == 0 else "cache", attempts=got.attempts if n == 0 else 0,
                                    error=None,
                                    cost=request_cost(backend, got.completion, config.prices) if n == 0 else 0.0,
                                    epoch=_line_epoch(g_epoch, epochs), choices=choices_of.get(g_it.variant),
                                    method=config.method))
        sink.counters["cache_hits"] += len(group) - 1
    else:
        sink.counters["errors"] += len(group)
        # The others waited on the same request (single flight): its failure is theirs, no request of their own.
        sink.counters["shared_failures"] = sink.counters.get("shared_failures", 0) + len(group) - 1
        for g in group:
            g_it, g_epoch = g.item, g.epoch
            recs.append(make_record(g_it, spec, completion=None, key=key, source="live", attempts=got.attempts,
                                    error=redact(got.error or "unknown error", secrets),
                                    epoch=_line_epoch(g_epoch, epochs), choices=choices_of.get(g_it.variant),
                                    method=config.method))
    return recs


async def answer_samples(config: RunConfig, spec: Task, backend: Backend, samples: Sequence[tuple[Item, int]],
                         sink: Sink, *, cache: Optional[ResponseCache], choices_of: dict[str, dict[str, str]],
                         epochs: int = 1, secrets: Sequence[str] = ()) -> CircuitBreaker:
    """The call path of every answer: plan the requests, write the cache hits, ask the backend for the rest.

    Returns the run's :class:`~causalgraph.bench.retry.CircuitBreaker`:
    whether connection failures stopped it, or the backend refused (see
    :func:`stopped_error`).
    """
    planned = plan_requests(samples, spec, config, backend, choices_of)
    misses = write_cache_hits(planned, cache, spec, sink, choices_of=choices_of, epochs=epochs, method=config.method)
    if misses and config.method == CHOICE_METHOD:
        # The probe reaches the server like any item (tokens, a billed request): it is a request sent.
        sink.counters["requests_sent"] += 1
        sink.counters["probes"] = sink.counters.get("probes", 0) + 1
        probe = await probe_logprobs(backend, misses[0].request, config.model)
        # Its tokens and price belong to the run's totals (billed like any item), not to a variant's.
        sink.probe_usage = {"prompt_tokens": probe.prompt_tokens, "completion_tokens": probe.completion_tokens,
                            "cost_usd": request_cost(backend, probe, config.prices)}
    breaker = CircuitBreaker(limit=config.max_connection_failures, item_limit=config.max_failed_items)
    await ask_backend(misses, spec, config, backend, cache, sink, breaker, choices_of=choices_of, epochs=epochs,
                      secrets=secrets)
    return breaker


def stopped_error(config: RunConfig, breaker: CircuitBreaker, pending: int, unit: str,
                  out: Optional[Path]) -> Optional[BackendError]:
    """The error that ends a run the breaker stopped (``None`` when it was not stopped).

    ``out``: the run folder, which the same command resumes (``None``: answers kept in memory only);
    ``unit``: what ``pending`` counts, in the singular (``"item"``, ``"sample"``).
    """
    left = plural(pending, unit)
    again = f"run the same command again: {out} resumes" if out is not None else "call again"
    if breaker.is_open:
        where = breaker.endpoint or config.model
        them = " them" if out is not None else ""
        if breaker.failing:
            # Every item failing alike after its retries: a server answering 5xx, a plugin that always raises.
            return BackendError(
                f"{config.model}: {breaker.failed_items} items in a row failed with {breaker.failure} from "
                f"{where} each after up to {plural(config.max_attempts, 'attempt')} (last: {breaker.failure_last}); "
                f"the run stopped with {left} not answered, left pending. Fix the backend and {again}{them} "
                f"(--max-failed-items sets how many failed items in a row stop a run)")
        if breaker.protocol:
            # The server is there but is not the API: an HTML page, a proxy, a wrong path in the URL.
            return BackendProtocolError(
                f"{config.model}: {breaker.count} replies in a row from {where} that are not the "
                f"backend's protocol (last: {breaker.last}); the run stopped with {left} not "
                f"answered, left pending. Point --base-url at the API itself (e.g. http://HOST:PORT/v1) and "
                f"{again}{them}", endpoint=breaker.endpoint)
        return BackendUnreachable(
            f"{config.model}: {breaker.count} connection failures in a row to {where} "
            f"(last: {breaker.last}); the run stopped with {left} not answered, left pending. "
            f"Start the server (or fix the base URL) and {again}{them}", endpoint=breaker.endpoint)
    if breaker.refused is not None:
        return BackendUnavailable(
            f"{config.model} refuses every request ({breaker.refused}); the run stopped with {left} not "
            f"asked. Fix the cause and {again}")
    return None


async def _open_backend(config: RunConfig, backend: Optional[Backend], progress: bool | str) -> tuple[Backend, bool]:
    """Check the configuration against the backend (made here unless given); ``(backend, made here)``."""
    config.validate()
    if progress == "auto":
        progress_interval()  # a bad CAUSALGRAPH_PROGRESS_INTERVAL is refused before the run folder is made
    if config.epochs > 1 and config.temperature is not None and float(config.temperature) == 0.0:
        # Checked where items are asked: an imported log may hold epochs of any temperature.
        raise ConfigError(f"--epochs {config.epochs} asks every item {config.epochs} times, which only samples "
                          "different answers above temperature 0: give --temperature T > 0 (or 'default' for the "
                          "provider's own)")
    own_backend = backend is None
    # Before anything is loaded or asked: a backend without the log-probabilities the method reads fails in
    # one line; a factory's backend is known only once made.
    check_method_backend(config.model, config.method,
                         type(backend) if backend is not None else backend_class(config.model))
    if backend is None:
        backend = get_backend(config.model, **config.model_options)
    try:
        check_method_backend(config.model, config.method, backend)
    except ConfigError:
        if own_backend:
            await backend.aclose()
        raise
    if backend.greedy_only and (config.temperature not in (None, 0, 0.0) or config.epochs > 1):
        if own_backend:
            await backend.aclose()
        if config.epochs > 1:
            raise ConfigError(f"{config.model} decodes greedily; --epochs {config.epochs} would ask for "
                              f"{config.epochs} identical answers")
        raise ConfigError(f"{config.model} decodes greedily; --temperature {config.temperature} cannot be honoured "
                          "(use 0)")
    return backend, own_backend


def _secrets(config: RunConfig, backend: Backend) -> list[str]:
    # Credential values to scrub from every message a line or an error keeps.
    out = [str(v) for k, v in config.model_options.items() if is_secret_option(k) and v]
    return out + option_secrets(config.model_options) + [s for s in backend.secrets() if s]


class _MemorySink:
    """Where :func:`aanswer_items` appends lines: a list, each line as a run folder would read it back."""

    def __init__(self) -> None:
        self.records: list[RunRecord] = []
        self.counters = {"requests_sent": 0, "cache_hits": 0, "written": 0, "errors": 0, "asked": 0,
                         "shared_failures": 0}
        self.probe_usage: Optional[dict[str, Any]] = None

    def append(self, records: Sequence[RunRecord], *, sync: bool = True) -> None:
        # Through JSON, as responses.jsonl would give it back (tuples become lists).
        self.records.extend(RunRecord.from_dict(json.loads(json.dumps(r.to_dict(), ensure_ascii=False, allow_nan=False)))
                            for r in records)
        self.counters["written"] += len(records)

    def sync_now_and_then(self) -> None:
        pass

    def sync(self) -> None:
        pass


async def aanswer_items(config: RunConfig, items: Sequence[Item], *,
                        backend: Optional[Backend] = None) -> list[RunRecord]:
    """The lines a run would write for ``items`` (:class:`~causalgraph.runlog.record.RunRecord` objects), by the run's own call path, kept in memory (no run folder).

    Shares with :func:`arun_benchmark` the checks, the response cache, the
    retries and the parsing; what it does not do is keep a folder, so
    nothing is resumed and ``config.out`` is ignored.  Lines come in the
    order their answers arrive.

    Raises
    ------
    BackendUnreachable, BackendUnavailable
        When the breaker stopped the call (:func:`stopped_error`).
    """
    backend, own_backend = await _open_backend(config, backend, False)
    try:
        spec = get_task(config.task)
        variants = resolve_variants(config, spec, given_items=True)
        choices = loglik_choices(spec, variants) if config.method != "generate" else {}
        by_variant = items_by_variant(config, variants, items)
        todo = [it for v in variants for it in by_variant[v]]
        samples = [(it, e) for it in todo for e in range(1, config.epochs + 1)]
        backend.prepare(todo, spec)
        cache, sink = open_cache(config), _MemorySink()
        try:
            breaker = await answer_samples(config, spec, backend, samples, sink, cache=cache, choices_of=choices,
                                           epochs=config.epochs, secrets=_secrets(config, backend))
        finally:
            if cache is not None:
                cache.close()
        error = stopped_error(config, breaker, len(samples) - sink.counters["written"],
                              "sample" if config.epochs > 1 else "item", None)
        if error is not None:
            raise error
        return sink.records
    finally:
        if own_backend:
            await close_quietly(backend.aclose)


async def arun_benchmark(config: RunConfig, *, items: Optional[Sequence[Item]] = None,
                         backend: Optional[Backend] = None, progress: bool | str = True,
                         dataset: Optional[dict[str, Any]] = None) -> RunResult:
    """Run (or resume) a benchmark; the coroutine behind :func:`run_benchmark`.

    Parameters
    ----------
    config
        The run's parameters.
    items
        Items to ask instead of building them from the corpus (all must
        belong to ``config.task``; their variants must be in ``config.variants``).
    backend
        A backend object to use instead of ``get_backend(config.model, ...)``.
    progress
        Show a progress bar on stderr (``True``); ``"auto"`` (what the
        commands pass): the bar on a terminal, else one line at most every
        :data:`PROGRESS_INTERVAL` seconds (stderr redirected to a file).
    dataset
        Provenance to record when ``items`` are given (name, source, sha256).
    """
    backend, own_backend = await _open_backend(config, backend, progress)
    secrets = _secrets(config, backend)
    writer: Optional[RunWriter] = None
    try:
        writer = RunWriter.prepare(config, backend, items=items, dataset=dataset)
        prep = writer.prep
        backend.prepare(prep.todo, prep.spec)
        cache = open_cache(config)
        writer.show_progress(len(prep.todo_samples), progress, f"{config.task} {config.model}")
        try:
            breaker = await answer_samples(config, prep.spec, backend, prep.todo_samples, writer, cache=cache,
                                           choices_of=prep.choices or {}, epochs=prep.epochs, secrets=secrets)
        finally:
            writer.close_progress()
            if cache is not None:
                cache.close()
        metrics, done = writer.finish_counts(), writer.counters
        error = stopped_error(config, breaker, len(prep.todo_samples) - done["written"],
                              "sample" if prep.epochs > 1 else "item", prep.path)
        if error is not None:
            raise error
        return RunResult(path=prep.path, metrics=metrics, requests_sent=done["requests_sent"],
                         cache_hits=done["cache_hits"], skipped=prep.skipped, written=done["written"],
                         errors=done["errors"], waiting_in_batch=prep.waiting_in_batch,
                         asked=done.get("asked", 0), shared_failures=done.get("shared_failures", 0),
                         probes=done.get("probes", 0),
                         item_ids={v: [it.id for it in its] for v, its in prep.by_variant.items()},
                         epochs=prep.epochs)
    finally:
        if writer is not None:
            writer.release()
        if own_backend:
            # A cancel (a notebook's stop button) must not cut the close short: a model engine
            # would keep its memory, an HTTP pool its connections.
            await close_quietly(backend.aclose)


def run_benchmark(task: str, variants: Sequence[str] | str, model: str, *, items: Optional[Sequence[Item]] = None,
                  backend: Optional[Backend] = None, progress: bool | str = False,
                  dataset: Optional[dict[str, Any]] = None, **options: Any) -> RunResult:
    """Run (or resume) a benchmark and score it.

    Parameters
    ----------
    task
        A task of :func:`causalgraph.tasks.list_tasks`.
    variants
        Variant ids (a list or ``"0_1,F_2"``; ``"all"`` for every variant).
    model
        ``provider/model`` (``openai/gpt-5.1-2025-11-13``, ``llamacpp/m.gguf``,
        ``mock/oracle`` …).
    items
        Hand-built items instead of the task's item builder.
    backend
        A ready backend object instead of ``model``'s.
    progress
        Show a progress bar on stderr (``True``); ``"auto"`` (what the
        commands pass): the bar on a terminal, else one line at most every
        :data:`PROGRESS_INTERVAL` seconds (stderr redirected to a file).
    dataset
        Provenance recorded in the manifest when ``items`` are given.
    **options
        Any :class:`RunConfig` field (``out``, ``data``, ``concurrency``,
        ``limit``, ``temperature``, ``max_tokens``, ``model_options``,
        ``prompts`` …); ``prompts="tables"`` asks a ClimateCause paper task
        in the printed tables' wording instead of the authors' (the default).

    Returns
    -------
    RunResult
        The run directory, its metrics and what this invocation did.

    Examples
    --------
    >>> from causalgraph.bench import Item
    >>> items = [Item("q1", "demo-yesno", "v1", "Is it?", "yes")]   # doctest: +SKIP
    >>> r = run_benchmark("demo-yesno", ["v1"], "mock/oracle", items=items, out="runs/demo")  # doctest: +SKIP
    >>> r.metrics.variants["v1"]["f1"]   # doctest: +SKIP
    1.0
    """
    if isinstance(variants, str):
        variants = [v.strip() for v in variants.split(",") if v.strip()]
    config = RunConfig(task=task, variants=list(variants), model=model, **options)
    # run_sync: also from a notebook cell, where an event loop is already running.
    return run_sync(arun_benchmark(config, items=items, backend=backend, progress=progress, dataset=dataset))