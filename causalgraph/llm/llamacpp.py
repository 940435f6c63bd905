"""``llamacpp/<file.gguf>``: a GGUF model run in process by llama-cpp-python.

``llamacpp/smollm2`` is the bundled SmolLM2-135M-Instruct.  The chat
template stored in the GGUF file formats the messages.  llama.cpp is not
thread-safe, so requests run one at a time in a worker thread (the event
loop stays free); temperature 0 is greedy decoding.

Load options: ``n_ctx`` (context length, default 4096), ``n_threads``
(default: llama.cpp's choice), ``seed`` (default 0), ``n_gpu_layers``
(default 0), ``chat_format`` (override the template), ``default_max_tokens``
(when the run sets none, default 512).

Generation parameters, given as options (``--model-option top_p=0.9``) or
in :attr:`Request.params` (which wins), are passed to
``create_chat_completion``: ``top_p``, ``top_k``, ``min_p``, ``typical_p``,
``repeat_penalty``, ``presence_penalty``, ``frequency_penalty``, ``tfs_z``,
``mirostat_mode``, ``mirostat_tau``, ``mirostat_eta``, ``logit_bias`` and
``response_format``.  ``response_format`` accepts llama-cpp-python's
``{"type": "json_object"[, "schema": …]}`` and OpenAI's
``{"type": "json_schema", "json_schema": {"schema": …}}``, which is
translated to the former, so the answer is constrained by a grammar built
from the schema.  A schema llama.cpp cannot turn into a grammar is refused
(llama-cpp-python itself would fall back to unconstrained JSON).  Any other
option or parameter is a :class:`~causalgraph.errors.ConfigError`: nothing
is dropped silently.

Log-likelihood scoring (``--method loglik``, :meth:`LlamaCppBackend.score`):
the messages go through the GGUF file's chat template, or the chat format
named by the ``chat_format`` option (Gemma 3 270M's GGUF holds no template:
``chat_format=gemma``), as ``create_chat_completion`` formats them with the
assistant turn opened; the context
is evaluated once, and each continuation is evaluated after it token by
token from the context's key/value cache (llama.cpp keeps the logits of the
last evaluated token), so the shared prompt is computed once per item; the
longest token prefix a context shares with the tokens evaluated for the
previous item (the graph part of items built from one statement) is taken
from the cache rather than evaluated again, as ``create_chat_completion``
does for generation.

Choice probabilities (``--method choice-logprobs``): a request with
``logprobs: true`` and ``top_logprobs: k`` goes to ``create_chat_completion``
unchanged, which returns each generated token's log-probability and its
``k`` likeliest alternatives in OpenAI's chat format; the runner reads the
choices from them with :mod:`causalgraph.llm.choice_logprobs`, as for a chat
server.  llama-cpp-python computes them only for a model loaded with
``logits_all`` (every prompt token's logits are kept: ``n_ctx`` × vocabulary
floats, 0.8 GB for SmolLM2 at the default ``n_ctx``), so the model is loaded
that way for the first such request (and without it again for a request
that does not ask for them).  The ``top_logprobs`` option sets ``k``
(default 20, as for ``openai/``, so a run here and one against a chat server
read the same alternatives).  Its alternatives are keyed by their text, so
tokens that decode to the same text (only partial UTF-8 characters and
special tokens, never a choice's ASCII token) are merged into one.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Optional

from ..errors import BackendError, ConfigError
from .base import Backend, Completion, Request
from .choice_logprobs import DEFAULT_TOP_LOGPROBS
from .local import resolve_model_file
from .loglik import ChoiceScores, LoglikRequest

__all__ = ["LlamaCppBackend", "LOAD_OPTIONS", "GENERATION_PARAMS", "llama_response_format"]

#: Options that configure the loaded model (or the backend itself).
LOAD_OPTIONS = ("n_ctx", "n_threads", "seed", "n_gpu_layers", "chat_format", "default_max_tokens", "top_logprobs")
#: Parameters of ``Llama.create_chat_completion`` the backend passes through, with their types.
GENERATION_PARAMS: dict[str, type] = {
    "top_p": float, "top_k": int, "min_p": float, "typical_p": float, "repeat_penalty": float,
    "presence_penalty": float, "frequency_penalty": float, "tfs_z": float, "mirostat_mode": int,
    "mirostat_tau": float, "mirostat_eta": float, "logit_bias": dict, "response_format": dict,
    # --method choice-logprobs (request parameters; the top_logprobs option sets how many).
    "logprobs": bool, "top_logprobs": int,
}


def llama_response_format(value: Any) -> dict[str, Any]:
    """An OpenAI or llama-cpp-python ``response_format`` in llama-cpp-python's form.

    OpenAI's ``{"type": "json_schema", "json_schema": {"schema": S, ...}}``
    becomes ``{"type": "json_object", "schema": S}``; ``{"type": "json_object"}``
    (optionally with ``schema``) and ``{"type": "text"}`` pass unchanged.
    The schema is compiled to a grammar here, so that a schema llama.cpp
    cannot express is an error instead of a silent fallback to any JSON.

    Examples
    --------
    >>> llama_response_format({"type": "json_schema",
    ...                        "json_schema": {"name": "a", "schema": {"type": "object"}}})
    {'type': 'json_object', 'schema': {'type': 'object'}}
    """
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ConfigError(f"llamacpp response_format {value!r}: expected an object with a 'type' "
                          "(json_object, json_schema or text)")
    kind = value["type"]
    if kind == "text":
        return {"type": "text"}
    if kind == "json_schema":
        js = value.get("json_schema")
        if not isinstance(js, dict) or not isinstance(js.get("schema"), dict):
            raise ConfigError(f"llamacpp response_format {value!r}: type json_schema needs "
                              "json_schema.schema (an object)")
        out: dict[str, Any] = {"type": "json_object", "schema": js["schema"]}
    elif kind == "json_object":
        out = {"type": "json_object"}
        if "schema" in value:
            if not isinstance(value["schema"], dict):
                raise ConfigError(f"llamacpp response_format schema {value['schema']!r}: expected an object")
            out["schema"] = value["schema"]
    else:
        raise ConfigError(f"llamacpp response_format type {kind!r}: expected json_object, json_schema or text")
    extra = sorted(set(value) - {"type", "json_schema", "schema"})
    if extra:
        raise ConfigError(f"llamacpp response_format keys {extra} cannot be honoured; expected type and "
                          "json_schema (OpenAI) or schema (llama-cpp-python)")
    if "schema" in out:
        import json

        from llama_cpp.llama_grammar import json_schema_to_gbnf

        try:
            json_schema_to_gbnf(json.dumps(out["schema"]))
        except Exception as exc:  # llama-cpp-python raises several types here
            raise ConfigError(f"llamacpp response_format: llama.cpp cannot build a grammar from the schema "
                              f"({type(exc).__name__}: {exc})") from None
    return out


def _plain_logprobs(out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the log-probabilities of ``choices[*].logprobs.content`` as Python floats.

    llama-cpp-python hands them over as NumPy ``float32`` scalars, which neither JSON (the cache, the
    records) nor the reader of :mod:`~causalgraph.llm.choice_logprobs` takes; each converts exactly.

    Examples
    --------
    >>> import numpy as np
    >>> out = {"choices": [{"logprobs": {"content": [{"token": "No", "logprob": np.float32(-0.5),
    ...                                               "top_logprobs": [{"token": "No", "logprob": np.float32(-0.5)}]}]}}]}
    >>> type(_plain_logprobs(out)["choices"][0]["logprobs"]["content"][0]["top_logprobs"][0]["logprob"])
    <class 'float'>
    """
    def plain(entry: dict[str, Any]) -> dict[str, Any]:
        e = dict(entry)
        if e.get("logprob") is not None:
            e["logprob"] = float(e["logprob"])
        if isinstance(e.get("top_logprobs"), list):
            e["top_logprobs"] = [plain(t) for t in e["top_logprobs"]]
        return e

    choices = []
    for c in out.get("choices") or []:
        lp = c.get("logprobs")
        if isinstance(lp, dict) and isinstance(lp.get("content"), list):
            c = {**c, "logprobs": {**lp, "content": [plain(e) for e in lp["content"]]}}
        choices.append(c)
    return {**out, "choices": choices}


def _generation_params(source: str, params: dict[str, Any]) -> dict[str, Any]:
    """Checked, typed generation parameters (``source`` names where they came from, for the error)."""
    unknown = sorted(k for k in params if k not in GENERATION_PARAMS)
    if unknown:
        raise ConfigError(f"llamacpp backend cannot honour {source} {', '.join(unknown)}; it passes "
                          f"{', '.join(sorted(GENERATION_PARAMS))} to llama.cpp and loads with "
                          f"{', '.join(LOAD_OPTIONS)}")
    out: dict[str, Any] = {}
    for k in sorted(params):
        v, want = params[k], GENERATION_PARAMS[k]
        if k == "response_format":
            out[k] = llama_response_format(v)
        elif want is bool:
            if not isinstance(v, bool):
                raise ConfigError(f"llamacpp {source} {k}={v!r}: expected true or false")
            out[k] = v
        elif want is dict:
            if not isinstance(v, dict):
                raise ConfigError(f"llamacpp {source} {k}={v!r}: expected an object")
            try:
                out[k] = {int(t): float(b) for t, b in v.items()}
            except (TypeError, ValueError):
                raise ConfigError(f"llamacpp {source} {k}={v!r}: expected token id -> bias numbers") from None
        else:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (want is int and v != int(v)):
                raise ConfigError(f"llamacpp {source} {k}={v!r}: expected {'an integer' if want is int else 'a number'}")
            out[k] = want(v)
    return out


class LlamaCppBackend(Backend):
    """A GGUF file through llama-cpp-python.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("llamacpp/smollm2", n_ctx=2048)   # doctest: +SKIP
    """

    provider = "llamacpp"
    # llama.cpp turns the json_schema response format into a grammar that constrains decoding.
    structured_output = True
    identity_options = ("chat_format", "n_ctx")
    loglik = True
    # create_chat_completion returns logprobs/top_logprobs of generated tokens in OpenAI's format.
    choice_logprobs = True

    def __init__(self, model: str, **options: Any):
        import llama_cpp  # noqa: F401  (fail early, with the install hint, when missing)

        super().__init__(model, **options)
        self.path = resolve_model_file(model)
        if not self.path.is_file():
            raise BackendError(f"llamacpp/{model}: {self.path} is not a file; expected a .gguf model file")
        # Generation options are checked now, so a typo fails before the model loads.
        self.generation_options = _generation_params(
            "option", {k: v for k, v in options.items() if k not in LOAD_OPTIONS})
        self.top_logprobs()  # a bad top_logprobs option fails now, not at the first item
        self._llm = None
        self._logits_all = False
        # Held by the worker thread while it uses the model: a request the runner gave up on
        # (timeout) leaves its thread running, and the next one must wait for it, not join it.
        self._thread_lock = threading.Lock()
        self._lock: Optional[asyncio.Lock] = None
        self._lock_loop: Optional[asyncio.AbstractEventLoop] = None

    def identity(self) -> dict[str, Any]:
        ident = super().identity()
        # The file, not the way it was named, identifies the model.
        ident["model"] = self.path.name
        ident["file_size"] = self.path.stat().st_size
        # Decides the length of an answer whenever a request sets no max_tokens.
        ident["default_max_tokens"] = int(self.options.get("default_max_tokens", 512))
        if self.generation_options:  # they change the answers, so they belong in the cache key
            ident["params"] = self.generation_options
        return ident

    def top_logprobs(self) -> int:
        """``top_logprobs`` of a choice-logprobs request: the ``top_logprobs`` option, else 20 (as ``openai/``).

        Examples
        --------
        >>> LlamaCppBackend("smollm2", top_logprobs=5).top_logprobs()   # doctest: +SKIP
        5
        """
        k = self.options.get("top_logprobs", DEFAULT_TOP_LOGPROBS)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ConfigError(f"llamacpp option top_logprobs={k!r}: expected an integer >= 1")
        return k

    def call_params(self, request: Request) -> dict[str, Any]:
        """Keyword arguments of ``create_chat_completion`` for ``request`` (raises ConfigError on any it cannot honour).

        Examples
        --------
        >>> b = LlamaCppBackend("smollm2", top_k=1)   # doctest: +SKIP
        >>> b.call_params(Request(messages=(), max_tokens=4))["top_k"]   # doctest: +SKIP
        1
        """
        kw: dict[str, Any] = dict(self.generation_options)
        kw.update(_generation_params("request parameter", dict(request.params)))
        kw.update(
            messages=[dict(m) for m in request.messages],
            temperature=0.0 if request.temperature is None else float(request.temperature),
            max_tokens=int(request.max_tokens or self.options.get("default_max_tokens", 512)),
            seed=int(request.seed if request.seed is not None else self.options.get("seed", 0)),
            stop=list(request.stop) if request.stop else None,
        )
        return kw

    def check_request(self, request: Request) -> None:
        self.call_params(request)

    def default_concurrency(self) -> int:
        return 1

    def _load(self, logits_all: bool = False):
        if self._llm is not None and self._logits_all != logits_all:
            # Generated-token log-probabilities need every position's logits kept; log-likelihood scoring
            # reads the context's last logits row, which only a model loaded without logits_all holds there.
            llm, self._llm = self._llm, None
            close = getattr(llm, "close", None)
            if close is not None:
                close()
        if self._llm is None:
            from llama_cpp import Llama

            kw: dict[str, Any] = {"model_path": str(self.path), "n_ctx": int(self.options.get("n_ctx", 4096)),
                                  "seed": int(self.options.get("seed", 0)), "verbose": False,
                                  "n_gpu_layers": int(self.options.get("n_gpu_layers", 0)),
                                  "logits_all": logits_all}
            if self.options.get("n_threads"):
                kw["n_threads"] = int(self.options["n_threads"])
            if self.options.get("chat_format"):
                kw["chat_format"] = str(self.options["chat_format"])
            try:
                self._llm = Llama(**kw)
            except (ValueError, RuntimeError) as exc:
                raise BackendError(f"llama.cpp could not load {self.path}: {exc}") from None
            self._logits_all = logits_all
        return self._llm

    def _generate(self, request: Request) -> Completion:
        kw = self.call_params(request)
        with self._thread_lock:
            llm = self._load(logits_all=bool(kw.get("logprobs")))
            t0 = time.perf_counter()
            try:
                out = llm.create_chat_completion(**kw)
            except ValueError as exc:  # e.g. the prompt does not fit the context
                raise BackendError(f"llama.cpp: {exc}") from None
        out = _plain_logprobs(out)
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(text=choice["message"].get("content") or "", prompt_tokens=usage.get("prompt_tokens"),
                          completion_tokens=usage.get("completion_tokens"), latency_s=time.perf_counter() - t0,
                          finish_reason=choice.get("finish_reason"), model=self.path.name, raw=dict(out))

    def _prompt_tokens(self, llm, request: Request) -> list[int]:
        """The messages through the GGUF chat template with the assistant turn opened, as token ids."""
        import inspect

        from llama_cpp.llama_chat_format import (Jinja2ChatFormatter, LlamaChatCompletionHandlerNotFoundException,
                                                 LlamaChatCompletionHandlerRegistry)

        name = self.options.get("chat_format")
        if name:
            # The formatter behind the named handler, as create_chat_completion(chat_format=name) applies it.
            try:
                handler = LlamaChatCompletionHandlerRegistry().get_chat_completion_handler_by_name(str(name))
            except LlamaChatCompletionHandlerNotFoundException:
                raise ConfigError(f"llamacpp option chat_format={name!r}: llama-cpp-python knows no such chat "
                                  "format") from None
            fmt = inspect.getclosurevars(handler).nonlocals.get("chat_formatter")
            if not callable(fmt):
                raise ConfigError(f"llamacpp option chat_format={name!r} is a chat handler without a prompt "
                                  "template (it formats requests itself); --method loglik needs a plain chat format "
                                  "(gemma, chatml, llama-2 …) or the GGUF file's own template")
        else:
            template = (llm.metadata or {}).get("tokenizer.chat_template")
            if not template:
                raise BackendError(f"{self.path.name} holds no chat template (tokenizer.chat_template); --method "
                                   "loglik needs one to open the assistant turn, or the option chat_format")
            model = llm._model  # the token texts the chat handler of llama-cpp-python passes to the template too

            def text_of(tid: int) -> str:
                return model.token_get_text(tid) if tid >= 0 else ""

            fmt = Jinja2ChatFormatter(template=template, eos_token=text_of(llm.token_eos()),
                                      bos_token=text_of(llm.token_bos()), add_generation_prompt=True)
        res = fmt(messages=[dict(m) for m in request.messages])
        return list(llm.tokenize(res.prompt.encode("utf-8"), add_bos=not getattr(res, "added_special", False),
                                 special=True))

    def _score(self, request: LoglikRequest) -> ChoiceScores:
        import numpy as np

        def log_softmax(row) -> "np.ndarray":
            row = np.asarray(row, dtype=np.float64)
            top = row.max()
            return row - top - np.log(np.exp(row - top).sum())

        with self._thread_lock:
            llm = self._load()
            t0 = time.perf_counter()
            ctx = self._prompt_tokens(llm, request.request)
            conts = [list(llm.tokenize(c.encode("utf-8"), add_bos=False, special=False)) for c in request.continuations]
            if any(not c for c in conts):
                raise BackendError(f"a continuation of {list(request.continuations)!r} has no tokens")
            if len(ctx) + max(len(c) for c in conts) > llm.n_ctx():
                raise BackendError(f"llama.cpp: the prompt ({len(ctx)} tokens) and its answer do not fit the context "
                                   f"of {llm.n_ctx()} tokens (option n_ctx)")
            def last_logits():
                # llama-cpp-python 0.3 keeps no `scores` row unless logits_all; the context's output buffer
                # holds the logits of the last evaluated token (the only one a batch asks logits for).
                return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).copy()

            # The key/value cache of the tokens evaluated last (the previous item's context and a
            # continuation) serves the longest common prefix with this context: items built from one
            # statement share the graph part of the prompt, and create_chat_completion reuses a cached
            # prefix the same way.  At least one token is evaluated, for its logits.
            keep = 0
            for a, b in zip(llm.input_ids[: llm.n_tokens].tolist(), ctx[:-1]):
                if a != b:
                    break
                keep += 1
            if keep and llm._ctx.kv_cache_seq_rm(-1, keep, -1):
                llm.n_tokens = keep
            else:  # nothing shared, or a cache that cannot drop a tail: from the start
                llm.reset()
            llm.eval(ctx[llm.n_tokens:])
            first = log_softmax(last_logits())
            per_token = []
            for c in conts:
                llm.n_tokens = len(ctx)  # back to the context: eval() drops the cache past it
                lps = [float(first[c[0]])]
                for k in range(len(c) - 1):
                    llm.eval([c[k]])
                    lps.append(float(log_softmax(last_logits())[c[k + 1]]))
                per_token.append(lps)
            if hasattr(llm, "_requires_eval"):
                llm._requires_eval = True  # the logits are of a continuation's token, not of a live decode
        return ChoiceScores(logprobs=tuple(float(sum(t)) for t in per_token), token_counts=tuple(len(c) for c in conts),
                            prompt_tokens=len(ctx), latency_s=time.perf_counter() - t0, model=self.path.name,
                            raw={"token_logprobs": per_token})

    async def score(self, request: LoglikRequest) -> ChoiceScores:
        loop = asyncio.get_running_loop()
        if self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            return await asyncio.to_thread(self._score, request)

    async def complete(self, request: Request) -> Completion:
        loop = asyncio.get_running_loop()
        if self._lock_loop is not loop:  # a lock belongs to one event loop; the model outlives it
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            return await asyncio.to_thread(self._generate, request)

    async def aclose(self) -> None:
        # Wait for a generation still running in a worker thread before freeing the model.
        await asyncio.to_thread(self._thread_lock.acquire)
        try:
            llm, self._llm = self._llm, None
        finally:
            self._thread_lock.release()
        if llm is not None:
            close = getattr(llm, "close", None)
            if close is not None:
                close()
