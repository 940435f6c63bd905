"""The parameters of a run (:class:`RunConfig`), what an invocation did (:class:`RunResult`), and the folder a run
gets when none is named (:func:`default_run_dir`).

A module of its own so that every part of the runner (the retry policy, the
run writer, Batch and inspect imports) reads one definition without
importing the runner itself.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from .._core.outputs import safe_name
from ..runlog.files import Metrics
from ..runlog.store import Run, load_run

__all__ = ["RunConfig", "RunResult", "default_run_dir", "METHODS", "MAX_EPOCHS", "DEFAULT_MAX_CONNECTION_FAILURES",
           "DEFAULT_MAX_FAILED_ITEMS", "check_method_backend"]


#: Connection failures in a row after which a run stops (``RunConfig.max_connection_failures``).
DEFAULT_MAX_CONNECTION_FAILURES = 5

#: Items in a row whose attempts all failed alike after which a run stops (``RunConfig.max_failed_items``).
DEFAULT_MAX_FAILED_ITEMS = 5

#: ``--method`` values: generate an answer and parse it, or score each label's continuation.
METHODS = ("generate", "loglik", "choice-logprobs")

#: Per method that reads log-probabilities: the backend attribute that declares it, and what a model
#: without it is told (``bench run`` and ``bench plan`` alike).
_METHOD_NEEDS = {
    "loglik": ("loglik", "cannot score continuations by log-likelihood (it returns no log-probabilities of given "
                         "text); --method loglik needs hf/, vllm/, llamacpp/, a server with prompt log-probabilities "
                         "(openai-compatible/) or a mock; use --method generate"),
    "choice-logprobs": ("choice_logprobs", "returns no log-probabilities of generated tokens; --method choice-logprobs "
                                           "needs a chat backend that does (openai/ against OpenAI or any "
                                           "OpenAI-compatible server through --base-url: vllm serve, the llama.cpp "
                                           "server; llamacpp/ and vllm/ in process); use --method generate or "
                                           "loglik"),
}


def check_method_backend(model: str, method: str, backend: Any) -> None:
    """Refuse in one line a backend (class or instance; ``None``: not known yet) that cannot serve ``method``.

    Examples
    --------
    >>> from causalgraph.llm.mock import MockBackend
    >>> check_method_backend("mock/oracle", "generate", MockBackend)
    >>> check_method_backend("x/y", "loglik", None)
    >>> class NoLogprobs:
    ...     loglik = choice_logprobs = False
    >>> check_method_backend("x/y", "choice-logprobs", NoLogprobs)
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: x/y returns no log-probabilities of generated tokens; --method choice-logprobs ...
    """
    need = _METHOD_NEEDS.get(method)
    if need is not None and backend is not None and not getattr(backend, need[0]):
        raise ConfigError(f"{model} {need[1]}")


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
    max_failed_items
        Stop the run after this many items in a row failed with the same
        failure class after all their attempts (a server answering HTTP 500
        to everything, a backend whose ``complete`` always raises); the
        items of that streak stay pending, so the same command resumes
        them.  Failed items fewer in a row are recorded with their error.
        ``0`` never stops.  Default 5.
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
        (:mod:`causalgraph.graph.edits`; the variant ids get ``.<edit>``, the
        manifest records ``graph_edit``); ``None`` or ``real``: the variants as given.
    method
        ``generate`` (default): the model writes an answer, which the task's
        parser reads.  ``loglik``: nothing is generated; each label's
        continuation (:meth:`~causalgraph.tasks.Task.choices`) is scored by
        its summed log-probability and the highest wins (see
        :mod:`causalgraph.llm.loglik`).  Needs a backend that declares
        :attr:`~causalgraph.llm.base.Backend.loglik`, a task with declared
        continuations, and no ``max_tokens``, temperature above 0 or epochs.
        ``choice-logprobs``: the chat model answers (greedy, ``max_tokens`` just
        enough to write the longest choice unless given) with generated-token
        log-probabilities, and the choices' probabilities are read at the
        position where they diverge (:mod:`causalgraph.llm.choice_logprobs`);
        an item whose answer departs from the choices is parsed.  Needs a
        backend that declares :attr:`~causalgraph.llm.base.Backend.choice_logprobs`.
    scoring_metrics
        Registered scoring metrics (:mod:`causalgraph.scoring.scoring_metrics`) that
        ``metrics.json`` adds beside the built-in scores (none by default); checked
        before anything is asked.  A run's ``metrics.json`` keeps those it was last
        scored with when it is written again (a resumed run, ``bench parse``).
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
    max_failed_items: int = DEFAULT_MAX_FAILED_ITEMS
    cache: bool = True
    cache_path: Optional[str] = None
    prices: Optional[dict[str, dict[str, float]]] = None
    epochs: int = 1
    prompts: Optional[str] = None
    graph_edit: Optional[str] = None
    method: str = "generate"
    scoring_metrics: Sequence[str] = ()

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
            raise ConfigError(f"--max-attempts {self.max_attempts}: expected an integer >= 1")
        if self.request_timeout is not None and not self.request_timeout >= 0:
            raise ConfigError(f"--timeout {self.request_timeout}: expected a number of seconds > 0 (0: no limit)")
        for name, value in (("--retry-base", self.retry_base), ("--retry-cap", self.retry_cap)):
            if not value >= 0:
                raise ConfigError(f"{name} {value}: expected a number of seconds >= 0")
        if self.max_connection_failures < 0:
            raise ConfigError(f"--max-connection-failures {self.max_connection_failures}: expected an integer >= 0 "
                              "(0: never stop)")
        if isinstance(self.max_failed_items, bool) or not isinstance(self.max_failed_items, int) \
                or self.max_failed_items < 0:
            raise ConfigError(f"--max-failed-items {self.max_failed_items!r}: expected an integer >= 0 (0: never stop)")
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
        if self.method == "choice-logprobs":
            # The answer position is read on the greedy path; sampling would make the prefix check a lottery.
            if self.temperature is None or float(self.temperature) != 0.0:
                raise ConfigError(f"--temperature {'default' if self.temperature is None else self.temperature} "
                                  "cannot be honoured under --method choice-logprobs, which reads the choices' "
                                  "log-probabilities on the greedy path; leave it out or use 0")
            opt = (self.model_options or {}).get("temperature")
            if opt is not None and (isinstance(opt, bool) or not isinstance(opt, (int, float)) or float(opt) != 0.0):
                # A backend's own option is sent after the request's temperature 0 and would override it.
                raise ConfigError(f"--model-option temperature={opt!r:.40} cannot be honoured under --method "
                                  "choice-logprobs, which reads the choices' log-probabilities on the greedy path; "
                                  "leave it out or use 0")
            if self.epochs != 1:
                raise ConfigError(f"--epochs {self.epochs} would read every item {self.epochs} times identically "
                                  "under --method choice-logprobs; leave it out")
        if self.epochs > MAX_EPOCHS:
            raise ConfigError(f"--epochs {self.epochs}: at most {MAX_EPOCHS} samples per item (pass@k studies use "
                              "up to a few hundred)")


@dataclass
class RunResult:
    """What a run invocation did (``metrics``: the typed ``metrics.json`` it wrote)."""

    path: Path
    metrics: Metrics
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
    #: Requests that got a line (``requests_sent`` counts their attempts, retries included); ``written`` is
    #: ``asked + cache_hits + shared_failures``.
    asked: int = 0
    #: Lines of samples that waited on another sample's identical request, which failed (single flight).
    shared_failures: int = 0
    #: Requests sent before the first item to check the backend (``--method choice-logprobs``: one), counted in
    #: ``requests_sent``.
    probes: int = 0

    def load(self) -> Run:
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
