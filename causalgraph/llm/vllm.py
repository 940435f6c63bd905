"""``vllm/<model folder>``: vLLM's offline engine in process, fed whole batches of items.

The runner calls :meth:`VLLMBackend.complete` once per item, many at a time
(:meth:`~VLLMBackend.default_concurrency` is 256); a
:class:`~causalgraph.llm.batching.MicroBatcher` gathers the requests waiting
while the engine is busy into one ``LLM.generate`` call of up to
``batch_size`` prompts, run in a worker thread, and answers each request on
its own.  Records, cache and resume stay the runner's: a run killed during a
batch loses only the answers of that batch, which the next invocation asks
again, and never asks an item already written.

The model is a Hugging Face folder (``config.json``, safetensors, tokenizer
with a chat template), read from local files only; ``vllm/smollm2`` is the
bundled SmolLM2-135M-Instruct converted once to float32 safetensors
(:func:`~causalgraph.llm.convert.smollm2_safetensors`).  Each request's
messages are formatted with the tokenizer's chat template and tokenised here
(exactly as the ``hf/`` backend does), and the token ids go to the engine, so
the two backends see the same prompt tokens.  Prefix caching is on: items of
one task share their long instructions and few-shot examples.

Decoding is greedy unless the run sets a temperature above 0 (a request
without a temperature is greedy too); ``seed`` of the run seeds each request's
sampling.  Options (``--model-option KEY=VALUE``):

* engine: ``tensor_parallel_size``, ``pipeline_parallel_size``,
  ``data_parallel_size``, ``distributed_executor_backend`` (``ray`` to span
  nodes of a Ray cluster, ``mp``), ``dtype`` (default ``float32`` on a CPU,
  vLLM's ``auto`` elsewhere), ``quantization``, ``kv_cache_dtype``,
  ``max_model_len``, ``gpu_memory_utilization``, ``enforce_eager`` (default
  true on a CPU, where compiling takes minutes), ``enable_prefix_caching``
  (default true), ``max_num_seqs``, ``max_num_batched_tokens``, ``seed``
  (engine seed, default 0), ``structured_outputs_config`` (default
  ``{"backend": "guidance", "disable_any_whitespace": true}``: compact JSON);
* backend: ``batch_size`` (most prompts in one ``generate`` call, default
  256), ``batch_wait`` (seconds a batch waits to fill, default 0.05),
  ``default_max_tokens`` (when the run sets none, default 512);
* sampling, also accepted in :attr:`Request.params` (which wins): ``top_p``,
  ``top_k``, ``min_p``, ``presence_penalty``, ``frequency_penalty``,
  ``repetition_penalty``, ``min_tokens``, ``logit_bias``,
  ``structured_outputs`` (vLLM's ``{"json": schema}``, ``{"regex": …}``,
  ``{"choice": […]}``, ``{"grammar": …}`` or ``{"json_object": true}``) and
  ``response_format`` (OpenAI's ``json_schema``/``json_object`` form,
  translated to ``structured_outputs``).

Anything else is a :class:`~causalgraph.errors.ConfigError` before the engine
loads: nothing is dropped silently.  Backends of one process with the same
folder and engine options share one engine (it holds the weights and the KV
cache; two would not fit on one GPU), so the annotator and the runner, or
several runs of a script, load the model once.

On a CPU, vLLM reads ``VLLM_CPU_KVCACHE_SPACE`` (GiB of KV cache),
``VLLM_CPU_OMP_THREADS_BIND`` and ``VLLM_CPU_NUM_OF_RESERVED_CPU``; a script
that starts the engine must keep its top level under
``if __name__ == "__main__":`` (vLLM starts its engine in a new process).

Choice probabilities (``--method choice-logprobs``): a request with
``logprobs: true`` and ``top_logprobs: k`` generates with
``SamplingParams(logprobs=k)``, and the reply's ``raw`` gets a
``choices[0].logprobs.content`` in OpenAI's chat format built from vLLM's
``Logprob`` objects as ``vllm serve`` builds it (:func:`chat_logprobs`: the
token's decoded text and its UTF-8 bytes, the log-probability floored at
-9999, the first ``k`` entries of each position's dictionary: the generated
token, then the likeliest others), so the runner reads it with
:mod:`causalgraph.llm.choice_logprobs` as a served model's reply.  vLLM takes
them from the raw logits (``logprobs_mode="raw_logprobs"``, its default).
The ``top_logprobs`` option sets ``k`` (default 20, vLLM's default
``max_logprobs``; raise that engine option to ask for more).
"""

from __future__ import annotations

import copy
import threading
import time
from pathlib import Path
from typing import Any, Optional

from ..errors import BackendError, ConfigError
from .base import Backend, Completion, Request, canonical_json
from .batching import MicroBatcher
from .choice_logprobs import DEFAULT_TOP_LOGPROBS
from .convert import smollm2_safetensors
from .loglik import ChoiceScores

__all__ = ["VLLMBackend", "ENGINE_OPTIONS", "BACKEND_OPTIONS", "GENERATION_PARAMS", "engine_kwargs",
           "sampling_kwargs", "structured_outputs_of", "resolve_model_folder", "cpu_env", "chat_logprobs"]

#: Options passed to ``vllm.LLM`` (engine arguments), with their types.
ENGINE_OPTIONS: dict[str, type] = {
    "tensor_parallel_size": int, "pipeline_parallel_size": int, "data_parallel_size": int,
    "distributed_executor_backend": str, "dtype": str, "quantization": str, "kv_cache_dtype": str,
    "max_model_len": int, "gpu_memory_utilization": float, "enforce_eager": bool,
    "enable_prefix_caching": bool, "max_num_seqs": int, "max_num_batched_tokens": int, "seed": int,
    "structured_outputs_config": dict, "max_logprobs": int,
}
#: Options of the backend itself.
BACKEND_OPTIONS: dict[str, type] = {"batch_size": int, "batch_wait": float, "default_max_tokens": int,
                                    "top_logprobs": int}
#: Fields of ``vllm.SamplingParams`` passed through (as options or request parameters), with their types.
GENERATION_PARAMS: dict[str, type] = {
    "top_p": float, "top_k": int, "min_p": float, "presence_penalty": float, "frequency_penalty": float,
    "repetition_penalty": float, "min_tokens": int, "logit_bias": dict, "structured_outputs": dict,
    "response_format": dict,
    # --method choice-logprobs, as OpenAI's chat API names them: logprobs=true with top_logprobs=k is vLLM's
    # SamplingParams(logprobs=k).
    "logprobs": bool, "top_logprobs": int,
}
# The engine options that change answers (the others change speed or memory only).
_IDENTITY_ENGINE = ("dtype", "quantization", "kv_cache_dtype", "seed", "structured_outputs_config")
# One constraint kind per request, as vLLM's StructuredOutputsParams requires.  Its whitespace settings are
# left out: vLLM 0.32's grammar backends read them from the engine (structured_outputs_config) only.
_CONSTRAINTS = ("json", "regex", "choice", "grammar", "json_object")


def _typed(source: str, key: str, value: Any, want: type) -> Any:
    """``value`` checked against ``want`` (int, float, bool, str, dict); ``source`` names it in the error."""
    if want is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"vllm {source} {key}={value!r}: expected true or false")
        return value
    if want is str:
        if not isinstance(value, str) or not value:
            raise ConfigError(f"vllm {source} {key}={value!r}: expected a name")
        return value
    if want is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"vllm {source} {key}={value!r}: expected a JSON object")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (want is int and value != int(value)):
        raise ConfigError(f"vllm {source} {key}={value!r}: expected {'an integer' if want is int else 'a number'}")
    return want(value)


def structured_outputs_of(value: Any, *, source: str = "structured_outputs") -> Optional[dict[str, Any]]:
    """A ``structured_outputs`` or ``response_format`` value as vLLM's ``StructuredOutputsParams`` fields.

    OpenAI's ``{"type": "json_schema", "json_schema": {"schema": S}}`` and
    llama-cpp-python's ``{"type": "json_object", "schema": S}`` become
    ``{"json": S}``; ``{"type": "json_object"}`` becomes ``{"json_object": True}``;
    ``{"type": "text"}`` is no constraint (``None``).  A ``structured_outputs``
    value must name exactly one constraint.

    Examples
    --------
    >>> structured_outputs_of({"type": "json_schema", "json_schema": {"name": "a", "schema": {"type": "object"}}},
    ...                       source="response_format")
    {'json': {'type': 'object'}}
    >>> structured_outputs_of({"choice": ["yes", "no"]})
    {'choice': ['yes', 'no']}
    """
    if not isinstance(value, dict):
        raise ConfigError(f"vllm {source} {value!r}: expected a JSON object")
    if source == "response_format":
        kind = value.get("type")
        extra = sorted(set(value) - {"type", "json_schema", "schema"})
        if extra:
            raise ConfigError(f"vllm response_format keys {extra} cannot be honoured; expected type and "
                              "json_schema (OpenAI) or schema")
        if kind == "text":
            return None
        if kind == "json_schema":
            js = value.get("json_schema")
            if not isinstance(js, dict) or not isinstance(js.get("schema"), dict):
                raise ConfigError(f"vllm response_format {value!r}: type json_schema needs json_schema.schema "
                                  "(an object)")
            return {"json": js["schema"]}
        if kind == "json_object":
            if "schema" in value:
                if not isinstance(value["schema"], dict):
                    raise ConfigError(f"vllm response_format schema {value['schema']!r}: expected an object")
                return {"json": value["schema"]}
            return {"json_object": True}
        raise ConfigError(f"vllm response_format type {kind!r}: expected json_schema, json_object or text")
    unknown = sorted(set(value) - set(_CONSTRAINTS))
    if unknown:
        raise ConfigError(f"vllm structured_outputs keys {unknown} cannot be honoured; expected one of "
                          f"{', '.join(_CONSTRAINTS)} (whitespace settings belong to the engine option "
                          "structured_outputs_config)")
    kinds = [k for k in _CONSTRAINTS if value.get(k) is not None]
    if len(kinds) != 1:
        raise ConfigError(f"vllm structured_outputs {value!r}: expected exactly one of {', '.join(_CONSTRAINTS)}, "
                          f"found {len(kinds)}")
    kind = kinds[0]
    want = {"json": (dict, str), "regex": str, "choice": list, "grammar": str, "json_object": bool}[kind]
    if not isinstance(value[kind], want) or (kind == "choice" and not all(isinstance(c, str) for c in value[kind])):
        expected = {"json": "a schema object", "regex": "a pattern", "choice": "a list of strings",
                    "grammar": "a grammar", "json_object": "true"}[kind]
        raise ConfigError(f"vllm structured_outputs {kind}={value[kind]!r}: expected {expected}")
    return dict(value)


def sampling_kwargs(request: Request, generation_options: Optional[dict[str, Any]] = None, *,
                    default_max_tokens: int = 512) -> dict[str, Any]:
    """Keyword arguments of ``vllm.SamplingParams`` for ``request`` (checked; ConfigError on any it cannot honour).

    ``generation_options`` are the backend's sampling options; the request's
    parameters win over them.  A request without a temperature is greedy.
    ``structured_outputs`` is returned as a plain dict (the backend makes
    vLLM's ``StructuredOutputsParams`` of it).

    Examples
    --------
    >>> r = Request(messages=(), max_tokens=8, params={"top_k": 5})
    >>> sampling_kwargs(r, {"top_p": 0.9})
    {'top_k': 5, 'top_p': 0.9, 'temperature': 0.0, 'max_tokens': 8}
    >>> sampling_kwargs(Request(messages=(), params={"response_format": {"type": "json_object"}}))["structured_outputs"]
    {'json_object': True}
    """
    params = {**(generation_options or {}), **dict(request.params)}
    unknown = sorted(k for k in params if k not in GENERATION_PARAMS)
    if unknown:
        raise ConfigError(f"vllm backend cannot honour {', '.join(unknown)}; it passes "
                          f"{', '.join(sorted(GENERATION_PARAMS))} to vLLM's sampling and loads with "
                          f"{', '.join(sorted(ENGINE_OPTIONS))}")
    if "structured_outputs" in params and "response_format" in params:
        raise ConfigError("vllm backend: give structured_outputs or response_format, not both")
    out: dict[str, Any] = {}
    for k in sorted(params):
        v = params[k]
        if k in ("logprobs", "top_logprobs"):
            _typed("parameter", k, v, GENERATION_PARAMS[k])
            if k == "top_logprobs" and v < 0:
                raise ConfigError(f"vllm parameter top_logprobs={v!r}: expected an integer >= 0")
            if k == "logprobs" and v:
                out["logprobs"] = int(params.get("top_logprobs", 0))
        elif k in ("structured_outputs", "response_format"):
            so = structured_outputs_of(v, source=k)
            if so is not None:
                out["structured_outputs"] = so
        elif k == "logit_bias":
            v = _typed("parameter", k, v, dict)
            try:
                out[k] = {int(t): float(b) for t, b in v.items()}
            except (TypeError, ValueError):
                raise ConfigError(f"vllm parameter logit_bias={v!r}: expected token id -> bias numbers") from None
        else:
            out[k] = _typed("parameter", k, v, GENERATION_PARAMS[k])
    out["temperature"] = 0.0 if request.temperature is None else float(request.temperature)
    out["max_tokens"] = int(request.max_tokens or default_max_tokens)
    if request.seed is not None:
        out["seed"] = int(request.seed)
    if request.stop:
        out["stop"] = list(request.stop)
    return out


def engine_kwargs(options: dict[str, Any], *, on_cpu: bool) -> dict[str, Any]:
    """Keyword arguments of ``vllm.LLM`` from the backend's options (checked), with this backend's defaults.

    Prefix caching is on, the engine seed is 0, and structured outputs
    write no whitespace between JSON tokens unless set (a small model left
    free to write it spends its tokens on blank lines, ``{\n\n"answer"\n\n:``;
    vLLM takes that setting for the engine only, and with a named grammar
    backend only: llguidance, which reads the widest range of JSON schemas);
    on a CPU the dtype is float32 (bfloat16 has no fast path without
    AVX-512) and eager mode is on (compiling the model takes minutes there).

    Examples
    --------
    >>> engine_kwargs({"tensor_parallel_size": 2}, on_cpu=False)["tensor_parallel_size"]
    2
    >>> engine_kwargs({}, on_cpu=True)["dtype"]
    'float32'
    """
    out: dict[str, Any] = {"enable_prefix_caching": True, "seed": 0,
                           "structured_outputs_config": {"backend": "guidance", "disable_any_whitespace": True}}
    if on_cpu:
        out.update(dtype="float32", enforce_eager=True)
    for k in sorted(options):
        if k in ENGINE_OPTIONS:
            out[k] = _typed("option", k, options[k], ENGINE_OPTIONS[k])
    for k in ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "max_model_len",
              "max_num_seqs", "max_num_batched_tokens"):
        if k in out and out[k] < 1:
            raise ConfigError(f"vllm option {k}={out[k]}: expected an integer >= 1")
    return dict(sorted(out.items()))


def resolve_model_folder(model: str) -> Path:
    """The model folder of ``vllm/<model>``: ``smollm2`` (converted on first use) or an existing folder.

    Examples
    --------
    >>> resolve_model_folder("smollm2").name   # doctest: +SKIP
    'smollm2-135m-instruct-f32'
    """
    if model.lower() in ("smollm2", "smollm2-135m"):
        return smollm2_safetensors()
    p = Path(model).expanduser()
    if not p.exists():
        raise BackendError(f"model folder {model!r} does not exist (models are read from local files only)")
    if p.is_file():
        raise BackendError(f"vllm/{model}: {p} is a file; vLLM reads a model folder (config.json, safetensors, "
                           "tokenizer). A GGUF file can be converted with causalgraph.llm.convert.gguf_to_safetensors")
    if not (p / "config.json").is_file():
        raise BackendError(f"vllm/{model}: {p} has no config.json; expected a Hugging Face model folder")
    return p.resolve()


def cpu_env(kv_cache_gib: float = 1.0) -> dict[str, str]:
    """The environment vLLM's CPU build reads, set for this process: every CPU it may use, none reserved.

    ``VLLM_CPU_KVCACHE_SPACE`` is the KV cache in GiB (1 GiB holds about
    23,000 tokens of SmolLM2-135M); ``VLLM_CPU_OMP_THREADS_BIND`` lists the
    CPUs of this process's affinity (vLLM's ``auto`` keeps one back, half of
    a 2-core machine); ``VLLM_CPU_NUM_OF_RESERVED_CPU`` is 0.  Set them
    before the engine starts, e.g. ``os.environ.update(cpu_env())``.

    Examples
    --------
    >>> sorted(cpu_env())
    ['VLLM_CPU_KVCACHE_SPACE', 'VLLM_CPU_NUM_OF_RESERVED_CPU', 'VLLM_CPU_OMP_THREADS_BIND']
    """
    import os

    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(range(os.cpu_count() or 1))
    ranges: list[list[int]] = []
    for c in cpus:  # "0-3,8-11": runs of consecutive CPU numbers
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    bind = ",".join(f"{a}-{b}" if a != b else str(a) for a, b in ranges)
    return {"VLLM_CPU_KVCACHE_SPACE": f"{kv_cache_gib:g}", "VLLM_CPU_OMP_THREADS_BIND": bind,
            "VLLM_CPU_NUM_OF_RESERVED_CPU": "0"}


def chat_logprobs(token_ids: Any, logprobs: Any, top_logprobs: int, decode: Any = None) -> dict[str, Any]:
    """``choices[0].logprobs`` in OpenAI's chat format from a vLLM ``CompletionOutput``'s tokens and logprobs.

    As ``vllm serve`` writes it: each generated token's ``decoded_token`` and its UTF-8 bytes, its
    log-probability floored at -9999, and as ``top_logprobs`` the first ``top_logprobs`` entries of the
    position's dictionary (vLLM puts the generated token first, then the likeliest tokens by rank).
    ``decode(token_id)`` gives the text of an entry vLLM did not decode.

    Examples
    --------
    >>> from types import SimpleNamespace as L
    >>> lp = chat_logprobs([7], [{7: L(logprob=-0.25, decoded_token="No"), 3: L(logprob=-1.5, decoded_token="Yes")}], 2)
    >>> lp["content"][0]["token"], [(t["token"], t["logprob"]) for t in lp["content"][0]["top_logprobs"]]
    ('No', [('No', -0.25), ('Yes', -1.5)])
    """
    def entry(tid: int, lp: Any) -> dict[str, Any]:
        text = lp.decoded_token
        if text is None:
            if decode is None:
                raise BackendError(f"vLLM returned no text for token {tid} and no tokenizer decodes it")
            text = decode(tid)
        return {"token": text, "logprob": max(float(lp.logprob), -9999.0),
                "bytes": list(text.encode("utf-8", errors="replace"))}

    if logprobs is None:
        return {"content": None}
    content = []
    for n, tid in enumerate(token_ids):
        step = logprobs[n] if n < len(logprobs) else None
        if not step or tid not in step:  # no log-probability for it: the reader names what is missing
            content.append({"token": decode(tid) if decode else str(tid), "bytes": None})
            continue
        top = [entry(t, lp) for i, (t, lp) in enumerate(step.items()) if i < top_logprobs]
        content.append({**entry(tid, step[tid]), "top_logprobs": top})
    return {"content": content}


class _Engine:
    """One loaded ``vllm.LLM`` and the number of backends using it."""

    def __init__(self, llm: Any):
        self.llm = llm
        self.tokenizer = llm.get_tokenizer()
        self.max_model_len = int(llm.llm_engine.model_config.max_model_len)
        self.users = 0


# Engines of this process by (folder, engine arguments); guarded by _ENGINES_LOCK.
_ENGINES: dict[str, _Engine] = {}
_ENGINES_LOCK = threading.Lock()


class VLLMBackend(Backend):
    """A local model folder run by vLLM's offline engine, in batches.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("vllm/smollm2", max_model_len=4096)   # doctest: +SKIP
    """

    provider = "vllm"
    # vLLM constrains decoding to a JSON schema (structured outputs; xgrammar or guidance underneath).
    structured_output = True
    greedy_only = False
    # Decode-step log-probabilities of given tokens (SamplingParams.logprob_token_ids) score continuations.
    loglik = True
    # SamplingParams(logprobs=k) returns the generated tokens' log-probabilities and the k likeliest others.
    choice_logprobs = True
    accepted_options = tuple(sorted({**ENGINE_OPTIONS, **BACKEND_OPTIONS, **GENERATION_PARAMS}))

    def __init__(self, model: str, **options: Any):
        # get_backend has refused any option outside accepted_options (Backend.create) before this runs.
        import vllm  # noqa: F401  (fail early, with the install hint, when missing)
        from vllm.platforms import current_platform

        super().__init__(model, **options)
        self.folder = resolve_model_folder(model)
        self.engine_kwargs = engine_kwargs(options, on_cpu=current_platform.is_cpu())
        backend = {k: _typed("option", k, options[k], t) for k, t in BACKEND_OPTIONS.items() if k in options}
        self.batch_size = int(backend.get("batch_size", 256))
        self.default_max_tokens = int(backend.get("default_max_tokens", 512))
        if self.batch_size < 1 or self.default_max_tokens < 1:
            raise ConfigError(f"vllm options batch_size={self.batch_size}, default_max_tokens="
                              f"{self.default_max_tokens}: expected integers >= 1")
        self.top_logprobs()  # a bad top_logprobs option fails now
        # Checked now, so that a typo fails before the engine loads.
        self.generation_options = {k: v for k, v in options.items() if k in GENERATION_PARAMS}
        sampling_kwargs(Request(messages=()), self.generation_options)
        self._engine_key = canonical_json({"folder": str(self.folder), **self.engine_kwargs})
        self._engine: Optional[_Engine] = None
        self._batcher = MicroBatcher(self._generate_batch, max_size=self.batch_size,
                                     wait=float(backend.get("batch_wait", 0.05)))
        self._scorer = MicroBatcher(self._score_batch, max_size=self.batch_size,
                                    wait=float(backend.get("batch_wait", 0.05)))

    def top_logprobs(self) -> int:
        """``top_logprobs`` of a choice-logprobs request: the ``top_logprobs`` option, else 20 (vLLM's default
        ``max_logprobs``)."""
        k = self.options.get("top_logprobs", DEFAULT_TOP_LOGPROBS)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"vllm option top_logprobs={k!r}: expected an integer >= 1")
        return k

    def identity(self) -> dict[str, Any]:
        ident: dict[str, Any] = {"provider": self.provider, "model": {"folder": str(self.folder)}, "base_url": None,
                                 # decides the length of an answer whenever a request sets no max_tokens
                                 "default_max_tokens": self.default_max_tokens}
        for k in _IDENTITY_ENGINE:
            if k in self.engine_kwargs:
                ident[k] = self.engine_kwargs[k]
        if self.generation_options:  # they change the answers, so they belong in the cache key
            ident["params"] = sampling_kwargs(Request(messages=()), self.generation_options)
            for k in ("temperature", "max_tokens"):
                ident["params"].pop(k)
        return ident

    def structured_params(self, schema: dict[str, Any], name: str) -> dict[str, Any]:
        """vLLM's own form: ``{"structured_outputs": {"json": schema}}`` (``name`` is not used by vLLM).

        Examples
        --------
        >>> VLLMBackend.structured_params(None, {"type": "object"}, "demo")
        {'structured_outputs': {'json': {'type': 'object'}}}
        """
        # A copy: the request must not share (and a caller must not mutate) the task's schema object.
        return {"structured_outputs": {"json": copy.deepcopy(schema)}}

    def check_request(self, request: Request) -> None:
        sampling_kwargs(request, self.generation_options, default_max_tokens=self.default_max_tokens)

    def default_concurrency(self) -> int:
        # Enough requests in flight that every generate call gets a full batch.
        return self.batch_size

    def _load(self) -> _Engine:
        """The engine, loaded or shared (called in the worker thread)."""
        if self._engine is not None:
            return self._engine
        with _ENGINES_LOCK:
            engine = _ENGINES.get(self._engine_key)
            if engine is None:
                import os

                from vllm import LLM

                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                try:
                    llm = LLM(model=str(self.folder), **self.engine_kwargs)
                except (OSError, ValueError, RuntimeError) as exc:
                    hint = ""
                    if self.engine_kwargs.get("data_parallel_size", 1) > 1:
                        hint = (" (vLLM's offline engine runs data parallelism only as one process per rank: "
                                "serve the model with `vllm serve FOLDER --data-parallel-size N` and use the "
                                "openai backend with base_url; see docs/benchmarks.md, section vLLM)")
                    raise BackendError(f"vLLM could not load {self.folder}: {type(exc).__name__}: {exc}{hint}") \
                        from None
                engine = _Engine(llm)
                if not getattr(engine.tokenizer, "chat_template", None):
                    _shutdown(llm)
                    raise BackendError(f"{self.folder}: the tokenizer has no chat template; vllm/ backends need an "
                                       "instruction-tuned model with one")
                _ENGINES[self._engine_key] = engine
            engine.users += 1
            self._engine = engine
        return engine

    def _prompt_ids(self, engine: _Engine, request: Request) -> list[int]:
        tok = engine.tokenizer
        text = tok.apply_chat_template([dict(m) for m in request.messages], tokenize=False,
                                       add_generation_prompt=True)
        # The template writes the special tokens itself (as the hf backend and `vllm serve` read it).
        return list(tok(text, add_special_tokens=False)["input_ids"])

    def _generate(self, engine: _Engine, requests: list[Request]) -> list[Any]:
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        outcomes: list[Any] = [None] * len(requests)
        prompts, params, where = [], [], []
        for i, r in enumerate(requests):
            try:
                ids = self._prompt_ids(engine, r)
                if len(ids) >= engine.max_model_len:
                    raise BackendError(f"the prompt has {len(ids)} tokens; the engine's max_model_len is "
                                       f"{engine.max_model_len}")
                kw = sampling_kwargs(r, self.generation_options, default_max_tokens=self.default_max_tokens)
                if "structured_outputs" in kw:
                    kw["structured_outputs"] = StructuredOutputsParams(**kw["structured_outputs"])
                sp = SamplingParams(**kw)
            except Exception as exc:  # this request alone fails
                outcomes[i] = exc
                continue
            prompts.append({"prompt_token_ids": ids})
            params.append(sp)
            where.append(i)
        if not prompts:
            return outcomes
        t0 = time.perf_counter()
        results = engine.llm.generate(prompts, params, use_tqdm=False)
        latency = time.perf_counter() - t0
        for i, res in zip(where, results):
            out = res.outputs[0]
            raw = {"batch_size": len(prompts), "generated_token_ids": list(out.token_ids),
                   "stop_reason": out.stop_reason, "cached_prompt_tokens": getattr(res, "num_cached_tokens", None)}
            r = requests[i]
            if r.params.get("logprobs"):
                # The reply as `vllm serve` would write it, for the reader of choice_logprobs.
                raw["choices"] = [{"index": 0, "message": {"role": "assistant", "content": out.text},
                                   "finish_reason": out.finish_reason,
                                   "logprobs": chat_logprobs(out.token_ids, out.logprobs,
                                                             int(r.params.get("top_logprobs", 0)),
                                                             lambda t: engine.tokenizer.decode([t]))}]
            outcomes[i] = Completion(
                text=out.text, prompt_tokens=len(res.prompt_token_ids), completion_tokens=len(out.token_ids),
                latency_s=latency, finish_reason=out.finish_reason, model=self.folder.name, raw=raw)
        return outcomes

    def _generate_batch(self, requests: list[Request]) -> list[Any]:
        engine = self._load()
        try:
            return self._generate(engine, requests)
        except Exception as exc:
            if len(requests) == 1:
                raise
            # One request the engine refuses (vLLM checks each while adding the batch) must not fail the
            # others: each is asked alone, and only the ones that fail alone get an error.
            outcomes = []
            for r in requests:
                try:
                    outcomes.extend(self._generate(engine, [r]))
                except Exception as one:
                    outcomes.append(one)
            if all(isinstance(o, BaseException) for o in outcomes):
                raise exc
            return outcomes

    def _score_batch(self, requests: list) -> list[Any]:
        """Log-likelihood scores of a batch of LoglikRequests, read from decode-step log-probabilities.

        The continuation's token t is scored given the context and the continuation's tokens before it.
        Asking that as a prompt (``prompt_logprobs``) would be the plain way, but vLLM does not read its
        prefix cache for such a request (``SamplingParams`` sets ``skip_reading_prefix_cache``: cached
        positions would have no log-probabilities), so each (item, choice) prompt was computed in full,
        the whole context again for every choice: below 0.14 items/s on two CPU cores, 20 times slower
        than generating.  Instead, one request per distinct prefix of the item's continuations (one per
        item when every choice is one token, as ``Yes``/``No``): the prompt is the context followed by
        that prefix, one token is generated, and ``logprob_token_ids`` returns the log-probabilities of
        every choice's next token at that position.  vLLM takes them from the raw logits, before any
        sampling step (its default ``logprobs_mode="raw_logprobs"``), so they are the model's own
        next-token distribution; and the requests of one item share the context through the prefix cache.
        """
        from vllm import SamplingParams

        engine = self._load()
        tok = engine.tokenizer
        outcomes: list[Any] = [None] * len(requests)
        prompts, params, where = [], [], []
        plans: dict[int, tuple[int, list[list[int]]]] = {}
        for i, r in enumerate(requests):
            try:
                ctx = self._prompt_ids(engine, r.request)
                conts = [list(tok(c, add_special_tokens=False)["input_ids"]) for c in r.continuations]
                if any(not c for c in conts):
                    raise BackendError(f"a continuation of {list(r.continuations)!r} has no tokens")
                if len(ctx) + max(len(c) for c in conts) >= engine.max_model_len:
                    raise BackendError(f"the prompt and its answer have {len(ctx) + max(len(c) for c in conts)} "
                                       f"tokens; the engine's max_model_len is {engine.max_model_len}")
            except Exception as exc:  # this item alone fails
                outcomes[i] = exc
                continue
            # The next tokens wanted after each prefix of a continuation, in first-seen order.
            wanted: dict[tuple[int, ...], list[int]] = {}
            for c in conts:
                for t, tid in enumerate(c):
                    nxt = wanted.setdefault(tuple(c[:t]), [])
                    if tid not in nxt:
                        nxt.append(tid)
            plans[i] = (len(ctx), conts)
            for prefix, nxt in wanted.items():
                prompts.append({"prompt_token_ids": ctx + list(prefix)})
                params.append(SamplingParams(max_tokens=1, temperature=0.0, logprob_token_ids=nxt))
                where.append((i, prefix))
        if not prompts:
            return outcomes
        t0 = time.perf_counter()
        results = engine.llm.generate(prompts, params, use_tqdm=False)
        latency = time.perf_counter() - t0
        at: dict[tuple[int, tuple[int, ...]], dict[int, float]] = {}
        cached: dict[int, int] = {}
        for (i, prefix), res in zip(where, results):
            step = res.outputs[0].logprobs[0]  # token id -> Logprob at the first generated position
            at[(i, prefix)] = {tid: float(lp.logprob) for tid, lp in step.items()}
            cached[i] = cached.get(i, 0) + int(getattr(res, "num_cached_tokens", 0) or 0)
        for i, (n_ctx, conts) in plans.items():
            tokens = [[at[(i, tuple(c[:t]))][tid] for t, tid in enumerate(c)] for c in conts]
            outcomes[i] = ChoiceScores(logprobs=tuple(sum(t) for t in tokens),
                                       token_counts=tuple(len(t) for t in tokens), prompt_tokens=n_ctx,
                                       latency_s=latency, model=self.folder.name,
                                       raw={"batch_size": len(requests), "token_logprobs": tokens,
                                            "cached_prompt_tokens": cached.get(i, 0)})
        return outcomes

    async def score(self, request: Any) -> Any:
        return await self._scorer.submit(request)

    async def complete(self, request: Request) -> Completion:
        self.check_request(request)
        return await self._batcher.submit(request)

    async def aclose(self) -> None:
        await self._batcher.aclose()  # a batch still running finishes before the engine may go
        await self._scorer.aclose()
        engine, self._engine = self._engine, None
        if engine is None:
            return
        with _ENGINES_LOCK:
            engine.users -= 1
            if engine.users > 0:
                return  # another backend of this process still uses it
            _ENGINES.pop(self._engine_key, None)
        _shutdown(engine.llm)


def _shutdown(llm: Any) -> None:
    """Stop an engine's processes now (vLLM would otherwise wait for the garbage collector or the exit)."""
    client = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
    shutdown = getattr(client, "shutdown", None)
    if shutdown is not None:
        shutdown()
