"""``llamacpp/<file.gguf>``: a GGUF model run in process by llama-cpp-python.

``llamacpp/smollm2`` is the bundled SmolLM2-135M-Instruct.  The chat
template stored in the GGUF file formats the messages.  llama.cpp is not
thread-safe, so requests run one at a time in a worker thread (the event
loop stays free); temperature 0 is greedy decoding.

Options: ``n_ctx`` (context length, default 4096), ``n_threads`` (default:
llama.cpp's choice), ``seed`` (default 0), ``n_gpu_layers`` (default 0),
``chat_format`` (override the template), ``default_max_tokens`` (when the
run sets none, default 512).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Optional

from ..errors import BackendError
from .base import Backend, Completion, Request
from .local import resolve_model_file

__all__ = ["LlamaCppBackend"]


class LlamaCppBackend(Backend):
    """A GGUF file through llama-cpp-python.

    Examples
    --------
    >>> from causalgraph.llm import get_backend
    >>> b = get_backend("llamacpp/smollm2", n_ctx=2048)   # doctest: +SKIP
    """

    provider = "llamacpp"
    identity_options = ("chat_format", "n_ctx")

    def __init__(self, model: str, **options: Any):
        import llama_cpp  # noqa: F401  (fail early, with the install hint, when missing)

        super().__init__(model, **options)
        self.path = resolve_model_file(model)
        if not self.path.is_file():
            raise BackendError(f"llamacpp/{model}: {self.path} is not a file; expected a .gguf model file")
        self._llm = None
        self._lock: Optional[asyncio.Lock] = None
        self._lock_loop: Optional[asyncio.AbstractEventLoop] = None

    def identity(self) -> dict[str, Any]:
        ident = super().identity()
        # The file, not the way it was named, identifies the model.
        ident["model"] = self.path.name
        ident["file_size"] = self.path.stat().st_size
        return ident

    def default_concurrency(self) -> int:
        return 1

    def _load(self):
        if self._llm is None:
            from llama_cpp import Llama

            kw: dict[str, Any] = {"model_path": str(self.path), "n_ctx": int(self.options.get("n_ctx", 4096)),
                                  "seed": int(self.options.get("seed", 0)), "verbose": False,
                                  "n_gpu_layers": int(self.options.get("n_gpu_layers", 0))}
            if self.options.get("n_threads"):
                kw["n_threads"] = int(self.options["n_threads"])
            if self.options.get("chat_format"):
                kw["chat_format"] = str(self.options["chat_format"])
            try:
                self._llm = Llama(**kw)
            except (ValueError, RuntimeError) as exc:
                raise BackendError(f"llama.cpp could not load {self.path}: {exc}") from None
        return self._llm

    def _generate(self, request: Request) -> Completion:
        llm = self._load()
        t0 = time.perf_counter()
        try:
            out = llm.create_chat_completion(
                messages=[dict(m) for m in request.messages],
                temperature=0.0 if request.temperature is None else float(request.temperature),
                max_tokens=int(request.max_tokens or self.options.get("default_max_tokens", 512)),
                seed=int(request.seed if request.seed is not None else self.options.get("seed", 0)),
                stop=list(request.stop) if request.stop else None,
            )
        except ValueError as exc:  # e.g. the prompt does not fit the context
            raise BackendError(f"llama.cpp: {exc}") from None
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(text=choice["message"].get("content") or "", prompt_tokens=usage.get("prompt_tokens"),
                          completion_tokens=usage.get("completion_tokens"), latency_s=time.perf_counter() - t0,
                          finish_reason=choice.get("finish_reason"), model=self.path.name, raw=dict(out))

    async def complete(self, request: Request) -> Completion:
        loop = asyncio.get_running_loop()
        if self._lock_loop is not loop:  # a lock belongs to one event loop; the model outlives it
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            return await asyncio.to_thread(self._generate, request)

    async def aclose(self) -> None:
        llm, self._llm = self._llm, None
        if llm is not None:
            close = getattr(llm, "close", None)
            if close is not None:
                close()
