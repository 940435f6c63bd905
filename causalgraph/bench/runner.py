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
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from .._sync import close_quietly, run_sync
from ..errors import (BackendError, BackendProtocolError, BackendUnavailable, BackendUnreachable, CausalGraphError,
                      ConfigError, TransientBackendError)
from ..llm.base import (Backend, Completion, Request, canonical_json, is_secret_option, option_secrets, public_url,
                        redact, redact_options)
from .item import Item
from ..outputs import safe_name
from ..tasks import Task, get_task
from .record import RunRecord
from .epochs import sample_key
from .store import Run, RunStore

__all__ = ["RunConfig", "RunResult", "PreparedRun", "run_benchmark", "arun_benchmark", "prepare_run", "run_prompts",
           "default_run_dir", "redact", "backoff_delay", "build_request", "cache_key_for", "make_record", "open_cache",
           "finish_run", "request_cost", "loglik_choices", "loglik_variants", "METHODS", "DEFAULT_MAX_CONNECTION_FAILURES",
           "PROGRESS_INTERVAL"]


#: Connection failures in a row after which a run stops (``RunConfig.max_connection_failures``).
DEFAULT_MAX_CONNECTION_FAILURES = 5


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Backend options safe to write down: anything named like a credential is dropped, a URL
    (``base_url``) loses its user info (``http://user:KEY@host`` carries a login) and its key, and
    a credential header (``extra_headers={"api-key": …}``) or a value shaped like a key is
    ``[redacted]`` (:func:`~causalgraph.llm.base.redact_options`)."""
    return redact_options({k: v for k, v in sorted(options.items()) if not is_secret_option(k)})


#: ``--method`` values: generate an answer and parse it, or score each label's continuation.
METHODS = ("generate", "loglik")

#: Samples per item ``--epochs`` accepts: every sample is a request and a line, planned up front.
MAX_EPOCHS = 1000


@dataclass
class RunConfig:
    """Every parameter of a run (what ``manifest.json`` records).

    Attributes
    ----------
    task, variants, model
        Task name, variant ids (``["all"]`` for every variant) and
        ``provider/model``.
    data
        ``--data NAME|PATH`` (``None``: the task's default corpus).
    out
        Run directory (``None``: :func:`default_run_dir`).
    concurrency
        Requests in flight at most (``None``: the backend's default).
    limit
        Only the first ``limit`` items of each variant.
    temperature, max_tokens, seed
        Generation parameters (``None``: the provider's default).
    model_options
        Backend options (``--model-option``); credentials among them are never
        written to disk.
    max_attempts
        Attempts per item, retries included.
    retry_base, retry_cap
        Backoff: attempt *n* waits ``uniform(0, min(cap, base·2^(n-1)))``.
    request_timeout
        Seconds before an attempt counts as timed out (``None`` or 0: no limit here).
    max_connection_failures
        Stop the run after this many attempts in a row, over all items, could
        not reach the server (connection refused or reset): it is gone, and
        retrying every remaining item to exhaustion would only take time.
        Any answer from the server (an HTTP error included) resets the count;
        a timeout leaves it as it is.  ``0`` never stops.  Default 5.
    cache
        Use the response cache; ``cache_path`` overrides its file.
    epochs
        Samples asked per item (repeated sampling; needs a temperature above
        0 or the provider's default).  Epoch ``e`` sends ``seed + e - 1`` when
        a seed is given, and is its own cache entry (epoch 1 shares the entry
        of a run without epochs).  A run directory keeps the largest number
        of epochs it was ever asked for.
    prices
        Price table (``None``: :data:`causalgraph.llm.pricing.DEFAULT_PRICES`).
    prompts
        The prompt catalog of a task that offers several (``Task.prompt_catalogs``;
        ClimateCause: ``authors`` or ``tables``).  ``None``: the catalog of the
        run directory when it already holds a run (a run resumes with the
        prompts it started with), else the task's default.  The manifest
        records it; a directory holding a run of another catalog is refused.
    graph_edit
        ``reverse`` or ``shuffle``: every variant's items on the edited graphs
        (:mod:`causalgraph.graph_edits`; the variant ids get ``.<edit>``, the
        manifest records ``graph_edit``); ``None`` or ``real``: the variants as given.
    method
        ``generate`` (default): the model writes an answer, which the task's
        parser reads.  ``loglik``: nothing is generated; each label's
        continuation (:meth:`~causalgraph.tasks.Task.choices`) is scored by
        its summed log-probability and the highest wins (see
        :mod:`causalgraph.llm.loglik`).  Needs a backend that declares
        :attr:`~causalgraph.llm.base.Backend.loglik`, a task with declared
        continuations, and no ``max_tokens``, temperature above 0 or epochs.
    """

    task: str
    variants: Sequence[str]
    model: str
    data: Optional[str] = None
    out: Optional[str] = None
    concurrency: Optional[int] = None
    limit: Optional[int] = None
    temperature: Optional[float] = 0.0
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    model_options: dict[str, Any] = field(default_factory=dict)
    max_attempts: int = 6
    retry_base: float = 1.0
    retry_cap: float = 60.0
    request_timeout: Optional[float] = 600.0
    max_connection_failures: int = DEFAULT_MAX_CONNECTION_FAILURES
    cache: bool = True
    cache_path: Optional[str] = None
    prices: Optional[dict[str, dict[str, float]]] = None
    epochs: int = 1
    prompts: Optional[str] = None
    graph_edit: Optional[str] = None
    method: str = "generate"

    def validate(self) -> None:
        if self.concurrency is not None and self.concurrency < 1:
            raise ConfigError(f"--concurrency {self.concurrency}: expected an integer >= 1")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit {self.limit}: expected an integer >= 1")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise ConfigError(f"--max-tokens {self.max_tokens}: expected an integer >= 1")
        if self.temperature is not None and not (0.0 <= float(self.temperature) <= 2.0):
            raise ConfigError(f"--temperature {self.temperature}: expected a number in [0, 2] or 'default'")
        if self.max_attempts < 1:
            raise ConfigError(f"max_attempts {self.max_attempts}: expected an integer >= 1")
        if self.request_timeout is not None and not self.request_timeout >= 0:
            raise ConfigError(f"--timeout {self.request_timeout}: expected a number of seconds > 0 (0: no limit)")
        for name, value in (("--retry-base", self.retry_base), ("--retry-cap", self.retry_cap)):
            if not value >= 0:
                raise ConfigError(f"{name} {value}: expected a number of seconds >= 0")
        if self.max_connection_failures < 0:
            raise ConfigError(f"--max-connection-failures {self.max_connection_failures}: expected an integer >= 0 "
                              "(0: never stop)")
        if not self.variants:
            raise ConfigError("no variant given; pass --variant V[,V…] or --variant all")
        if isinstance(self.epochs, bool) or not isinstance(self.epochs, int) or self.epochs < 1:
            raise ConfigError(f"--epochs {self.epochs!r}: expected an integer >= 1")
        if self.method not in METHODS:
            raise ConfigError(f"--method {self.method!r}: expected one of {', '.join(METHODS)}")
        if self.method == "loglik":
            # Scoring given continuations generates nothing: these settings would be recorded and ignored.
            if self.max_tokens is not None:
                raise ConfigError(f"--max-tokens {self.max_tokens} has no meaning under --method loglik, which "
                                  "generates nothing; leave it out")
            if self.temperature not in (None, 0, 0.0):
                raise ConfigError(f"--temperature {self.temperature} has no meaning under --method loglik, which "
                                  "samples nothing (the scores are deterministic); leave it out or use 0")
            if self.epochs != 1:
                raise ConfigError(f"--epochs {self.epochs} would score every item {self.epochs} times identically "
                                  "under --method loglik; leave it out")
        if self.epochs > MAX_EPOCHS:
            raise ConfigError(f"--epochs {self.epochs}: at most {MAX_EPOCHS} samples per item (pass@k studies use "
                              "up to a few hundred)")


@dataclass
class RunResult:
    """What a run invocation did."""

    path: Path
    metrics: dict[str, Any]
    requests_sent: int
    cache_hits: int
    skipped: int
    written: int
    errors: int
    #: Items left alone because an uncollected Batch job holds them (counted in ``skipped``).
    waiting_in_batch: int = 0
    #: Variant → the ids of its items in the order the task built them (records are written in
    #: completion order; this is the order to report them in).
    item_ids: dict[str, list[str]] = field(default_factory=dict)
    #: Samples per item of the run directory (its largest ``--epochs``); counts above are of samples when > 1.
    epochs: int = 1

    def load(self) -> Run:
        from .store import load_run

        return load_run(self.path)


def _slug(text: str) -> str:
    return safe_name(text, replace="-", collapse=True, max_len=80, default="run")


def default_run_dir(task: str, model: str, variants: Sequence[str]) -> Path:
    """``runs/<task>__<model>__<variants>``: the same command always names the same folder.

    Examples
    --------
    >>> default_run_dir("demo-yesno", "mock/oracle", ["v1", "v2"]).as_posix()
    'runs/demo-yesno__mock-oracle__v1-v2'
    """
    v = "-".join(variants)
    if len(v) > 40:
        v = "v" + hashlib.sha256(",".join(variants).encode()).hexdigest()[:10]
    return Path("runs") / f"{_slug(task)}__{_slug(model.replace('/', '-'))}__{_slug(v)}"


def backoff_delay(attempt: int, base: float, cap: float, retry_after: Optional[float] = None,
                  rng: Optional[random.Random] = None) -> float:
    """Seconds to wait before attempt ``attempt + 1``.

    Full jitter: ``uniform(0, min(cap, base * 2**(attempt-1)))``; when the
    server sent ``Retry-After`` the wait is at least that (plus up to 10 %
    jitter so that clients do not return in lockstep), capped at ``cap``.

    Examples
    --------
    >>> backoff_delay(3, base=1.0, cap=60.0, rng=random.Random(0)) <= 4.0
    True
    >>> 2.0 <= backoff_delay(1, base=1.0, cap=60.0, retry_after=2.0) <= 2.2
    True
    """
    rng = rng or random
    expo = min(cap, base * (2 ** max(0, attempt - 1)))
    delay = rng.uniform(0, expo)
    if retry_after is not None and retry_after > 0:
        delay = min(cap, max(delay, retry_after * (1 + 0.1 * rng.random())))
    return delay


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
    from ..llm.base import request_key

    if choices is not None:
        extra = {**backend.request_identity(request), **backend.loglik_identity(), "method": "loglik",
                 "continuations": [[lab, text] for lab, text in choices.items()]}
        return request_key(backend.identity(), request, extra)
    extra = dict(backend.request_identity(request))
    if request.temperature is None or request.temperature > 0:
        extra["sample_of"] = item.id
    if epoch > 1:
        extra["epoch"] = int(epoch)
    return request_key(backend.identity(), request, extra or None, messages_json=messages_json)


def request_cost(backend: Backend, completion: Completion, prices: Optional[dict] = None, *,
                 batch: bool = False) -> float:
    """USD of one answered request: priced when the backend is billed (OpenAI) or a price table was given."""
    from ..llm import pricing

    if not backend.billed and prices is None:
        return 0.0
    return pricing.cost_usd(backend.model, completion.prompt_tokens, completion.completion_tokens,
                            prices if prices is not None else pricing.DEFAULT_PRICES, batch=batch)


_clock: list = [None, ""]  # the last second _now formatted, and its text


def _now() -> str:
    # Whole seconds: formatted once per second rather than once per line (a cached re-run writes thousands a second).
    second = int(time.time())
    if second != _clock[0]:
        _clock[1] = _dt.datetime.fromtimestamp(second, _dt.timezone.utc).isoformat(timespec="seconds")
        _clock[0] = second
    return _clock[1]


def _prompt_sha(item: Item) -> str:
    from ..llm.base import canonical_json

    return hashlib.sha256(canonical_json(item.messages()).encode("utf-8")).hexdigest()


def make_record(item: Item, spec: Task, *, completion: Optional[Completion], key: str, source: str,
                attempts: int, error: Optional[str], cost: float = 0.0,
                epoch: Optional[int] = None, prompt_sha256: Optional[str] = None,
                choices: Optional[dict[str, str]] = None) -> dict[str, Any]:
    """One line of ``responses.jsonl`` (``epoch``: the sample's epoch, in runs with several).

    ``prompt_sha256``: the sha256 of the item's canonical messages, when the caller has it already.
    With ``choices`` (``--method loglik``) ``completion`` holds log-likelihood
    scores (:meth:`~causalgraph.llm.loglik.ChoiceScores.to_completion`): the
    label is the ``acc`` choice, ``response`` its continuation, and the line
    keeps every continuation, summed log-probability and normalised
    probability.
    """
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
    return RunRecord(
        task=item.task, variant=item.variant, item_id=item.id, epoch=epoch, gold=item.gold, meta=item.meta,
        prompt_sha256=prompt_sha256 if prompt_sha256 is not None else _prompt_sha(item), request_key=key,
        response=completion.text if completion is not None else None, label=label, rule=rule, usage=usage,
        cost_usd=cost, latency_s=None if completion is None else round(completion.latency_s, 6),
        finish_reason=None if completion is None else completion.finish_reason, source=source,
        attempts=attempts, error=error, time=_now(),
    ).to_dict()


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
        from ..llm.base import key_of_parts

        # The same extra as cache_key_for builds, in the same order.
        extra = dict(self._backend.request_identity(request))
        if request.temperature is None or request.temperature > 0:
            extra["sample_of"] = item.id
        if epoch > 1:
            extra["epoch"] = int(epoch)
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
def loglik_choices(spec: Task, variants: Sequence[str]) -> dict[str, dict[str, str]]:
    """Variant → label → continuation for ``--method loglik`` (:meth:`Task.choices` of each variant).

    Raises
    ------
    ConfigError
        For a task without declared continuations, or a variant that asks
        for reasoning before its answer (the message names it and why).

    Examples
    --------
    >>> from causalgraph.tasks import get_task
    >>> loglik_choices(get_task("ccr-member"), ["A_5"])
    {'A_5': {'yes': 'Yes', 'no': 'No'}}
    """
    return {v: spec.choices(v) for v in variants}


def loglik_variants(spec: Task) -> dict[str, dict[str, str]]:
    """What ``--variant all`` means under ``--method loglik``: every variant of the task that declares
    continuations (those that ask for reasoning first are left out), with its choices.

    Raises
    ------
    ConfigError
        When the task has no closed label set, or no variant can be scored.
    """
    out: dict[str, dict[str, str]] = {}
    for v in spec.list_variants():
        try:
            out[v] = spec.choices(v)
        except ConfigError:
            if spec.continuations is None or spec.kind == "custom":
                raise
    if not out:
        raise ConfigError(f"task {spec.name!r}: every variant asks for reasoning before its answer; --method loglik "
                          "can score none of them")
    return out


def _loglik_record(item: Item, spec: Task, *, completion: Optional[Completion], key: str, source: str,
                   attempts: int, error: Optional[str], choices: dict[str, str]) -> dict[str, Any]:
    from ..llm.loglik import ChoiceScores, choose, record_fields

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
    ).to_dict()


def _dataset_info(corpus) -> dict[str, Any]:
    sha = getattr(corpus, "sha256", None)
    src = getattr(corpus, "source", None)
    if sha is None and src and Path(str(src)).is_file():
        from ..datasets.fetch import sha256_file

        sha = sha256_file(src)
    return {"name": getattr(corpus, "name", None), "source": None if src is None else str(src), "sha256": sha}


def _fingerprint(manifest: dict[str, Any], spec: Task) -> dict[str, Any]:
    """What must not change between two invocations writing into one run directory."""
    p = manifest.get("parameters", {})
    return {"task": manifest.get("task"), "model": manifest.get("model"),
            "dataset_sha256": (manifest.get("dataset") or {}).get("sha256"),
            "temperature": p.get("temperature"), "max_tokens": p.get("max_tokens"), "seed": p.get("seed"),
            "backend": p.get("backend_identity"), "method": p.get("method", "generate"),
            # A manifest without it predates the choice of catalog: the task says which one it used.
            "prompts": spec.manifest_prompts(manifest)}


#: Seconds between two progress lines when stderr is not a terminal (``progress="auto"``); the
#: environment variable ``CAUSALGRAPH_PROGRESS_INTERVAL`` overrides it (a batch job that wants fewer lines).
PROGRESS_INTERVAL = 10.0


def _progress_interval() -> float:
    raw = os.environ.get("CAUSALGRAPH_PROGRESS_INTERVAL")
    if raw is None:
        return PROGRESS_INTERVAL
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise ConfigError(f"CAUSALGRAPH_PROGRESS_INTERVAL={raw!r}: expected a number of seconds, 0 or more")
    return value


class _Progress:
    """Progress on stderr: a tqdm bar with tokens and cost, or one line at most every interval.

    ``enabled``: ``False`` (silent), ``True`` (the tqdm bar) or ``"auto"`` (what
    the commands pass): the bar on a terminal, else — stderr redirected to a
    file, as under a batch scheduler — plain lines (a bar's carriage returns
    make no lines a log can show): at most one every
    :data:`PROGRESS_INTERVAL` seconds, and one where the job ends if any was
    written (a job shorter than the interval prints none: its closing summary
    says it all).
    """

    def __init__(self, total: int, enabled: bool | str, desc: str, *, stream=None, clock=None,
                 interval: Optional[float] = None):
        self.bar = None
        self.lines = False
        self.total, self.desc, self.done, self.errors = total, desc, 0, 0
        self.tok_in = self.tok_out = 0
        self.cost = 0.0
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock or time.monotonic
        if not (enabled and total):
            return
        if enabled == "auto" and not getattr(self.stream, "isatty", lambda: False)():
            self.lines = True
            self.interval = _progress_interval() if interval is None else interval
            self.start = self.last = self.clock()
            self.shown = None
            return
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc=desc, unit="item", file=self.stream, dynamic_ncols=True, smoothing=0.1)

    def _line(self) -> None:
        elapsed = self.clock() - self.start
        self.stream.write(f"{self.desc}: {self.done:,}/{self.total:,} ({100 * self.done / self.total:.1f} %), "
                          f"{self.errors:,} failed, {elapsed:.0f} s; tokens in {self.tok_in:,} out {self.tok_out:,}, "
                          f"${self.cost:.4f}\n")
        self.stream.flush()
        self.shown = self.done

    def update(self, rec: dict[str, Any]) -> None:
        u = rec.get("usage") or {}
        self.tok_in += u.get("prompt_tokens") or 0
        self.tok_out += u.get("completion_tokens") or 0
        self.cost += rec.get("cost_usd") or 0.0
        self.done += 1
        self.errors += bool(rec.get("error"))
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(f"tok in {self.tok_in:,} out {self.tok_out:,} ${self.cost:.4f}", refresh=False)
        elif self.lines and self.clock() - self.last >= self.interval:
            self.last = self.clock()
            self._line()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.lines and self.shown is not None and self.done != self.shown:
            self._line()  # where the job ended, after the periodic lines


def _load_items(spec: Task, config: RunConfig, variants: list[str], prompts: Optional[str] = None):
    from ..datasets import load_corpus

    corpus = load_corpus(config.data if config.data is not None else spec.default_data)
    items: dict[str, list[Item]] = {}
    for v in variants:
        built = spec.items(corpus, v, prompts=prompts)  # Task.items: refuses a corpus lacking what the task needs
        items[v] = built[: config.limit] if config.limit else built
    return corpus, items


def run_prompts(spec: Task, config: RunConfig, store: Optional[RunStore] = None,
                items: Optional[Sequence[Item]] = None) -> Optional[str]:
    """The prompt catalog a run's items are built from (``None`` for a task without a choice).

    ``config.prompts`` when given (checked against the task); else, for given
    ``items``, the catalog their meta names (``Task.unrecorded_prompts`` where
    it names none); else the catalog of the run already in ``store`` (a run
    resumes with its own prompts); else the task's default.

    Raises :class:`~causalgraph.errors.ConfigError` for a catalog the task
    does not have, or items of two catalogs.
    """
    asked = spec.prompt_catalog(config.prompts) if config.prompts is not None else None
    if not spec.prompt_catalogs:
        return None
    if items is not None:
        found = sorted({str(it.meta.get("prompts") or spec.unrecorded_prompts) for it in items})
        if len(found) > 1:
            raise ConfigError(f"task {spec.name!r}: the items were built from the prompt catalogs {', '.join(found)}; "
                              "a run holds the items of one")
        if found and asked is not None and found[0] != asked:
            raise ConfigError(f"task {spec.name!r}: the items were built from the {found[0]!r} prompts, not "
                              f"{asked!r} (--prompts)")
        return found[0] if found else (asked or spec.prompt_catalog())
    if asked is not None:
        return asked
    if store is not None and store.manifest_path.is_file():
        try:
            old = store.read_manifest()
        except CausalGraphError:
            old = None  # reported where the manifest is checked, before anything is written
        if old is not None and old.get("task") == spec.name:
            return spec.manifest_prompts(old)
    return spec.prompt_catalog()


@dataclass
class PreparedRun:
    """A run directory ready for answers: its items, what is left to do, the manifest written."""

    spec: Task
    variants: list[str]
    by_variant: dict[str, list[Item]]
    store: RunStore
    manifest: dict[str, Any]
    invocation: dict[str, Any]
    todo: list[Item]
    skipped: int
    #: Items left alone because an uncollected Batch job holds them (counted in ``skipped``).
    waiting_in_batch: int = 0
    #: Samples per item (the largest the directory was ever asked for).
    epochs: int = 1
    #: ``(item, epoch)`` of every sample still to answer (``todo`` lists their items once).
    todo_samples: list[tuple[Item, int]] = field(default_factory=list)
    #: ``--method loglik``: variant → label → continuation (``None`` for generation).
    choices: Optional[dict[str, dict[str, str]]] = None

    @property
    def path(self) -> Path:
        return self.store.path


def _with_edit(spec: Task, variants: list[str], edit: str) -> list[str]:
    """The variant ids under a graph edit (``A_5`` → ``A_5.reverse``); a variant with another edit is refused."""
    from ..graph_edits import check_edit, join_edit, split_edit

    check_edit(edit)
    if "graph_edit" not in spec.item_options:
        raise ConfigError(f"task {spec.name!r} takes no graph edit (--graph-edit {edit}): its prompts hold no graph")
    out = []
    for v in variants:
        rest, had = split_edit(v)
        if had not in ("real", edit):
            raise ConfigError(f"variant {v!r} edits the graph ({had!r}) but --graph-edit {edit} was asked")
        out.append(spec.variant_id(join_edit(rest, edit)))
    return out


def prepare_run(config: RunConfig, backend: Backend, *, items: Optional[Sequence[Item]] = None,
                dataset: Optional[dict[str, Any]] = None, mode: str = "live") -> PreparedRun:
    """Build the items, create or check the run directory and list the items still to answer.

    Raises :class:`~causalgraph.errors.ConfigError` when the directory holds a
    run of another task, model, dataset or generation parameters, or when
    another process is writing into it (the directory stays locked until
    ``prep.store.release()``).
    """
    config.validate()
    spec = get_task(config.task)
    variants = list(config.variants)
    if variants == ["all"] and config.method == "loglik":
        variants = list(loglik_variants(spec))
    elif variants == ["all"]:
        variants = list(spec.list_variants())
    elif items is None:
        variants = [spec.variant_id(v) for v in variants]
    if config.graph_edit not in (None, "real"):
        variants = _with_edit(spec, variants, config.graph_edit)
    if len(set(variants)) != len(variants):
        raise ConfigError(f"--variant lists a variant twice: {','.join(variants)}")
    # Every variant's continuations before any item is built or the folder touched: a variant that
    # asks for reasoning first is refused in one line.
    choices = loglik_choices(spec, variants) if config.method == "loglik" else None

    out = Path(config.out) if config.out else default_run_dir(config.task, config.model, variants)
    store = RunStore(out)
    prompts = run_prompts(spec, config, store, items)
    if items is None:
        corpus, by_variant = _load_items(spec, config, variants, prompts)
        ds = _dataset_info(corpus)
    else:
        by_variant = {v: [] for v in variants}
        for it in items:
            if it.task != config.task:
                raise ConfigError(f"item {it.id!r} belongs to task {it.task!r}, not {config.task!r}")
            if it.variant not in by_variant:
                raise ConfigError(f"item {it.id!r} has variant {it.variant!r}, not one of {variants}")
            by_variant[it.variant].append(it)
        if config.limit:
            by_variant = {v: its[: config.limit] for v, its in by_variant.items()}
        ds = dict(dataset or {"name": None, "source": None, "sha256": None})
    for v, its in by_variant.items():
        seen: set[str] = set()
        for it in its:
            if it.id in seen:
                raise ConfigError(f"task {config.task!r} variant {v!r}: item id {it.id!r} occurs twice")
            seen.add(it.id)

    # Before the lock: a refused folder must be left exactly as it was found.
    store.check_resumable()
    store.acquire(f"{mode} {config.task} {config.model}")
    try:
        prep = _prepare_locked(config, backend, spec, variants, by_variant, ds, out, store, mode, prompts)
        prep.choices = choices
        return prep
    except BaseException:
        store.release()
        raise


def _prepare_locked(config: RunConfig, backend: Backend, spec: Task, variants: list[str],
                    by_variant: dict[str, list[Item]], ds: dict[str, Any], out: Path, store: RunStore,
                    mode: str, prompts: Optional[str] = None) -> PreparedRun:
    """The part of :func:`prepare_run` that runs while this process holds the run directory."""
    from .._version import __version__

    manifest = {
        "task": config.task,
        "variants": variants,
        "model": config.model,
        "parameters": {
            "temperature": config.temperature, "max_tokens": config.max_tokens, "seed": config.seed,
            "limit": config.limit, "concurrency": config.concurrency, "max_attempts": config.max_attempts,
            "retry_base": config.retry_base, "retry_cap": config.retry_cap,
            "request_timeout": config.request_timeout, "max_connection_failures": config.max_connection_failures,
            "cache": config.cache,
            "model_options": _public_options(config.model_options),
            "backend_identity": backend.identity(),
            # Written only for loglik, so generated runs keep their manifest bytes.
            **({"method": config.method} if config.method != "generate" else {}),
        },
        "dataset": ds,
        **({"prompts": prompts} if prompts is not None else {}),
        "items": {v: len(its) for v, its in by_variant.items()},
        **({"graph_edit": config.graph_edit} if config.graph_edit not in (None, "real") else {}),
        "causalgraph_version": __version__,
        # The lowest schema that reads the lines: 3 for loglik lines, 2 for epochs, 1 otherwise.
        "record_schema": 3 if config.method == "loglik" else 1,
        "python": platform.python_version(),
        "started": _now(),
        "invocations": [],
    }
    old: dict[str, Any] = {}
    if store.exists():
        old = store.read_manifest()
        a, b = _fingerprint(old, spec), _fingerprint(manifest, spec)
        diff = sorted(k for k in a if a[k] != b[k])
        if diff:
            raise ConfigError(
                f"{out} holds a run with different " + ", ".join(f"{k} ({a[k]!r} there, {b[k]!r} now)" for k in diff)
                + "; choose another --out to start a new run")
        manifest["started"] = old.get("started", manifest["started"])
        manifest["invocations"] = list(old.get("invocations") or [])
        manifest["variants"] = list(old.get("variants") or []) + [v for v in variants if v not in (old.get("variants") or [])]
        items_count = dict(old.get("items") or {})
        items_count.update(manifest["items"])
        manifest["items"] = items_count
    epochs = max(int(config.epochs), int(old.get("epochs") or 1))
    if epochs > 1:
        if mode not in ("live", "import-inspect"):
            raise ConfigError(f"{out} asks every item {epochs} times (--epochs); {mode} answers each item once — "
                              "use `causalgraph bench run` for runs with epochs")
        if mode == "live" and config.temperature is not None and float(config.temperature) == 0.0:
            raise ConfigError(f"{out} asks every item {epochs} times, which only samples different answers above "
                              "temperature 0: give --temperature T > 0 (or 'default'), or choose another --out")
        manifest["epochs"] = epochs
        # Lines carry `epoch`: the lowest schema that reads them (older runs keep version 1).
        manifest["record_schema"] = max(2, manifest["record_schema"])
    # Every line checked before anything is asked or written: a broken folder stays as it is.
    lines = store.checked_lines(manifest, epochs, quiet=True)
    answered = {sample_key(r) for r in lines if not r.get("error")}
    # This process holds the folder: a torn last line is cut off now (and said so), whether or not
    # anything is asked, rather than reported as ignored and left.
    store.repair_tail()
    # finish_run scores these lines and the ones appended from now on without reading the folder again.
    store.keep_lines(lines)
    invocation = {"started": _now(), "mode": mode, "variants": variants, "limit": config.limit,
                  "concurrency": config.concurrency}
    if epochs > 1:
        invocation["epochs"] = epochs
        if config.epochs != epochs:
            invocation["epochs_asked"] = config.epochs
    manifest["invocations"].append(invocation)
    store.write_manifest(manifest)

    in_batch = _keys_in_open_batches(store)
    todo: list[Item] = []
    todo_samples: list[tuple[Item, int]] = []
    skipped = n_open = 0
    for v in variants:
        for it in by_variant[v]:
            key = (it.task, it.variant, it.id)
            missing = [e for e in range(1, epochs + 1) if (*key, e) not in answered]
            if missing and key in in_batch:  # (a run with epochs never has a Batch job)
                skipped += 1
                n_open += 1
                continue
            skipped += epochs - len(missing)
            if missing:
                todo.append(it)
                todo_samples.extend((it, e) for e in missing)
    return PreparedRun(spec=spec, variants=variants, by_variant=by_variant, store=store, manifest=manifest,
                       invocation=invocation, todo=todo, skipped=skipped, waiting_in_batch=n_open, epochs=epochs,
                       todo_samples=todo_samples)


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
    from ..llm.registry import get_backend

    config.validate()
    if progress == "auto":
        _progress_interval()  # a bad CAUSALGRAPH_PROGRESS_INTERVAL is refused before the run folder is made
    if config.epochs > 1 and config.temperature is not None and float(config.temperature) == 0.0:
        # Checked where items are asked: an imported log may hold epochs of any temperature.
        raise ConfigError(f"--epochs {config.epochs} asks every item {config.epochs} times, which only samples "
                          "different answers above temperature 0: give --temperature T > 0 (or 'default' for the "
                          "provider's own)")
    own_backend = backend is None
    if config.method == "loglik":
        from ..llm.registry import backend_class

        # Before anything is loaded or asked: a backend without log-probabilities fails in one line.
        cls = type(backend) if backend is not None else backend_class(config.model)
        if cls is not None and not cls.loglik:
            raise ConfigError(f"{config.model} cannot score continuations by log-likelihood (it returns no "
                              "log-probabilities of given text); --method loglik needs hf/, vllm/, llamacpp/, a "
                              "server with prompt log-probabilities (openai-compatible/) or a mock; use --method "
                              "generate")
    if backend is None:
        backend = get_backend(config.model, **config.model_options)
    if config.method == "loglik" and not backend.loglik:  # a factory's backend, known only once made
        if own_backend:
            await backend.aclose()
        raise ConfigError(f"{config.model} cannot score continuations by log-likelihood; use --method generate")
    secrets = [str(v) for k, v in config.model_options.items() if is_secret_option(k) and v]
    secrets += option_secrets(config.model_options) + [s for s in backend.secrets() if s]
    if backend.greedy_only and (config.temperature not in (None, 0, 0.0) or config.epochs > 1):
        if own_backend:
            await backend.aclose()
        if config.epochs > 1:
            raise ConfigError(f"{config.model} decodes greedily; --epochs {config.epochs} would ask for "
                              f"{config.epochs} identical answers")
        raise ConfigError(f"{config.model} decodes greedily; --temperature {config.temperature} cannot be honoured "
                          "(use 0)")
    prep: Optional[PreparedRun] = None
    try:
        prep = prepare_run(config, backend, items=items, dataset=dataset)
        spec, store = prep.spec, prep.store
        todo, skipped, out = prep.todo_samples, prep.skipped, prep.path
        # Lines name their epoch only in a run with several (a run without keeps its bytes).
        epoch_of = (lambda e: e) if prep.epochs > 1 else (lambda e: None)
        backend.prepare(prep.todo, spec)
        cache = open_cache(config)
        counters = {"requests_sent": 0, "cache_hits": 0, "written": 0, "errors": 0}
        bar = _Progress(len(todo), progress, f"{config.task} {config.model}")
        try:
            # Cache hits first, written in large groups: a cached re-run costs a few disk writes.
            misses: list[tuple[Item, Request, str, int]] = []
            group: list[dict] = []
            planned: list[tuple[Item, int, Request, str, str]] = []
            choices_of = prep.choices or {}
            keys = _KeyMaker(backend)
            for it, epoch in todo:
                req = build_request(it, spec, config, epoch)
                if not planned:  # every request of a run carries the same parameters: check one, before sending
                    backend.check_request(req)
                # The messages encoded once, for both the cache key and the line's prompt sha256.
                msgs = canonical_json(req.messages)
                ch = choices_of.get(it.variant)
                key = (keys.key(req, it, epoch, msgs) if ch is None
                       else cache_key_for(backend, req, it, epoch, ch, messages_json=msgs))
                planned.append((it, epoch, req, key, msgs))
            # The cache asked for every key at once, not one row at a time.
            hits = cache.get_many([p[3] for p in planned]) if cache is not None else {}
            parser = _ParseOnce(spec)
            for it, epoch, req, key, msgs in planned:
                hit = hits.get(key)
                if hit is not None:
                    counters["cache_hits"] += 1
                    rec = make_record(it, parser, completion=hit, key=key, source="cache", attempts=0, error=None,
                                      cost=0.0, epoch=epoch_of(epoch),
                                      prompt_sha256=hashlib.sha256(msgs.encode("utf-8")).hexdigest(),
                                      choices=choices_of.get(it.variant))
                    group.append(rec)
                    bar.update(rec)
                    if len(group) >= 2000:
                        store.append(group)
                        counters["written"] += len(group)
                        group = []
                else:
                    misses.append((it, req, key, epoch))
            if group:
                store.append(group)
                counters["written"] += len(group)

            concurrency = config.concurrency or backend.default_concurrency()
            sem = asyncio.Semaphore(concurrency)
            rng = random.Random()
            last_sync = [time.monotonic()]

            stop: list[str] = []  # set when the backend refuses everything: ask nothing more
            # Connection failures in a row, over all items; at the limit `down` is set and every item
            # still in progress leaves off without a line, so it stays pending for the next invocation.
            unreachable = {"count": 0, "endpoint": None, "last": "", "protocol": False}
            down = asyncio.Event()

            async def pause(delay: float) -> None:
                # A backoff that ends early when the run stops, so a stopped run does not wait out retries.
                try:
                    await asyncio.wait_for(down.wait(), delay)
                except asyncio.TimeoutError:
                    pass

            async def send(it: Item, req: Request) -> Completion:
                ch = choices_of.get(it.variant)
                if ch is None:
                    return await backend.complete(req)
                from ..llm.loglik import LoglikRequest

                scores = await backend.score(LoglikRequest(req, tuple(ch), tuple(ch.values())))
                return scores.to_completion()  # the form the cache stores

            async def one(group: list[tuple[Item, Request, str, int]]) -> None:
                # Items with the same cache key share one request (single flight).
                it, req, key, _ = group[0]
                async with sem:
                    if stop or down.is_set():
                        return
                    completion: Optional[Completion] = None
                    error: Optional[str] = None
                    attempt = 0
                    while attempt < config.max_attempts:
                        if down.is_set():
                            return  # the server is gone: no line, the item stays pending
                        attempt += 1
                        counters["requests_sent"] += 1
                        try:
                            if config.request_timeout:
                                completion = await asyncio.wait_for(send(it, req), config.request_timeout)
                            else:
                                completion = await send(it, req)
                            unreachable["count"] = 0
                            break
                        except BackendUnreachable as exc:
                            if down.is_set():
                                return
                            unreachable["count"] += 1
                            unreachable["protocol"] = isinstance(exc, BackendProtocolError)
                            unreachable["endpoint"] = exc.endpoint or unreachable["endpoint"]
                            unreachable["last"] = redact(str(exc), secrets)
                            if config.max_connection_failures and \
                                    unreachable["count"] >= config.max_connection_failures:
                                down.set()
                                return
                            error = f"{type(exc).__name__}: {exc} (attempt {attempt} of {config.max_attempts})"
                            if attempt < config.max_attempts:
                                await pause(backoff_delay(attempt, config.retry_base, config.retry_cap,
                                                          exc.retry_after, rng))
                        except (TransientBackendError, asyncio.TimeoutError) as exc:
                            if getattr(exc, "status", None) is not None:
                                unreachable["count"] = 0  # an HTTP status: the server is there
                            retry_after = getattr(exc, "retry_after", None)
                            msg = str(exc) or f"timed out after {config.request_timeout} s"
                            error = f"{type(exc).__name__}: {msg} (attempt {attempt} of {config.max_attempts})"
                            if attempt < config.max_attempts:
                                await pause(backoff_delay(attempt, config.retry_base, config.retry_cap,
                                                          retry_after, rng))
                        except BackendUnavailable as exc:
                            error = f"{type(exc).__name__}: {exc}"
                            if not stop:
                                stop.append(redact(str(exc), secrets))
                            break
                        except BackendError as exc:
                            unreachable["count"] = 0  # the server answered, with an error
                            error = f"{type(exc).__name__}: {exc}"
                            break
                        except (asyncio.CancelledError, ConfigError):
                            # A parameter the backend cannot honour fails every item alike: the run
                            # stops with that one error (what is written stays; the run resumes).
                            raise
                        except Exception as exc:  # a backend bug must not end the run; it is recorded
                            error = f"{type(exc).__name__}: {exc}"
                            break
                    recs = []
                    if completion is not None:
                        if cache is not None:
                            cache.put(key, completion, backend=backend.name)
                        for n, (g_it, _, _, g_epoch) in enumerate(group):
                            recs.append(make_record(g_it, spec, completion=completion, key=key,
                                                    source="live" if n == 0 else "cache",
                                                    attempts=attempt if n == 0 else 0, error=None,
                                                    cost=request_cost(backend, completion, config.prices) if n == 0
                                                    else 0.0, epoch=epoch_of(g_epoch),
                                                    choices=choices_of.get(g_it.variant)))
                        counters["cache_hits"] += len(group) - 1
                    else:
                        counters["errors"] += len(group)
                        for g_it, _, _, g_epoch in group:
                            recs.append(make_record(g_it, spec, completion=None, key=key, source="live",
                                                    attempts=attempt, error=redact(error or "unknown error", secrets),
                                                    epoch=epoch_of(g_epoch), choices=choices_of.get(g_it.variant)))
                    store.append(recs, sync=False)
                    counters["written"] += len(recs)
                    now = time.monotonic()
                    if now - last_sync[0] > 2.0:
                        last_sync[0] = now
                        store.sync()
                    for rec in recs:
                        bar.update(rec)

            groups: dict[str, list[tuple[Item, Request, str, int]]] = {}
            for it, req, key, epoch in misses:
                groups.setdefault(key, []).append((it, req, key, epoch))
            tasks = [asyncio.ensure_future(one(g)) for g in groups.values()]
            try:
                if tasks:
                    await asyncio.gather(*tasks)
            finally:
                for t in tasks:
                    t.cancel()
                store.sync()
        finally:
            bar.close()
            if cache is not None:
                cache.close()

        metrics = finish_run(prep, counters)
        unit = "samples" if prep.epochs > 1 else "items"  # what `todo` counts
        if down.is_set():
            pending = len(todo) - counters["written"]
            where = unreachable["endpoint"] or config.model
            if unreachable["protocol"]:
                # The server is there but is not the API: an HTML page, a proxy, a wrong path in the URL.
                raise BackendProtocolError(
                    f"{config.model}: {unreachable['count']} replies in a row from {where} that are not the "
                    f"backend's protocol (last: {unreachable['last']}); the run stopped with {pending} {unit} not "
                    f"answered, left pending. Point --base-url at the API itself (e.g. http://HOST:PORT/v1) and "
                    f"run the same command again: {out} resumes them", endpoint=unreachable["endpoint"])
            raise BackendUnreachable(
                f"{config.model}: {unreachable['count']} connection failures in a row to {where} "
                f"(last: {unreachable['last']}); the run stopped with {pending} {unit} not answered, left pending. "
                f"Start the server (or fix the base URL) and run the same command again: {out} resumes them",
                endpoint=unreachable["endpoint"])
        if stop:
            not_asked = len(todo) - counters["written"]
            raise BackendUnavailable(
                f"{config.model} refuses every request ({stop[0]}); the run stopped with {not_asked} {unit} not "
                f"asked. Fix the cause and run the same command again: {out} resumes")
        return RunResult(path=out, metrics=metrics, requests_sent=counters["requests_sent"],
                         cache_hits=counters["cache_hits"], skipped=skipped, written=counters["written"],
                         errors=counters["errors"], waiting_in_batch=prep.waiting_in_batch,
                         item_ids={v: [it.id for it in its] for v, its in prep.by_variant.items()},
                         epochs=prep.epochs)
    finally:
        if prep is not None:
            prep.store.release()
        if own_backend:
            # A cancel (a notebook's stop button) must not cut the close short: a model engine
            # would keep its memory, an HTTP pool its connections.
            await close_quietly(backend.aclose)


def open_cache(config: RunConfig):
    """The response cache a run uses, or ``None`` when caching is off (``--no-cache``, ``CAUSALGRAPH_NO_CACHE=1``)."""
    from ..llm.cache import ResponseCache

    if not config.cache or os.environ.get("CAUSALGRAPH_NO_CACHE", "").lower() in ("1", "true", "yes"):
        return None
    return ResponseCache(config.cache_path)


def finish_run(prep: PreparedRun, counters: dict[str, int]) -> dict[str, Any]:
    """Record the invocation in the manifest, score the run and write ``metrics.json``."""
    from .scoring import compute_metrics

    prep.invocation.update({"finished": _now(), "requests_sent": counters.get("requests_sent", 0),
                            "cache_hits": counters.get("cache_hits", 0), "skipped": prep.skipped,
                            "written": counters.get("written", 0), "errors": counters.get("errors", 0)})
    prep.store.write_manifest(prep.manifest)
    run = prep.store.load()
    metrics = compute_metrics(run, spec=prep.spec)
    metrics["requests_sent"] = counters.get("requests_sent", 0)
    metrics["cache_hits"] = counters.get("cache_hits", 0)
    metrics["skipped"] = prep.skipped
    prep.store.write_metrics(metrics)
    return metrics


def _keys_in_open_batches(store: RunStore) -> set[tuple[str, str, str]]:
    """Items sent in a Batch job that has not been collected yet (a live run leaves them alone)."""
    import json

    keys: set[tuple[str, str, str]] = set()
    for b in store.read_ledger().get("batches", []):
        if b.get("state") == "collected" or not b.get("items_path"):
            continue
        p = store.path / b["items_path"]
        if not p.is_file():
            continue
        with open(p, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    it = json.loads(line)["item"]
                    keys.add((it["task"], it["variant"], it["id"]))
    return keys


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
    >>> r.metrics["variants"]["v1"]["f1"]   # doctest: +SKIP
    1.0
    """
    if isinstance(variants, str):
        variants = [v.strip() for v in variants.split(",") if v.strip()]
    config = RunConfig(task=task, variants=list(variants), model=model, **options)
    # run_sync: also from a notebook cell, where an event loop is already running.
    return run_sync(arun_benchmark(config, items=items, backend=backend, progress=progress, dataset=dataset))
