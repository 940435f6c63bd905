"""Language-model backends addressed as ``provider/model``.

>>> from causalgraph.llm import get_backend, Request
>>> backend = get_backend("mock/constant", text="same")
>>> import asyncio
>>> asyncio.run(backend.complete(Request(messages=({"role": "user", "content": "?"},)))).text
'same'

Providers: ``openai/<model>`` (also any OpenAI-compatible server through
``base_url``), ``hf/<local dir or file.gguf>`` (transformers),
``llamacpp/<file.gguf>`` (llama-cpp-python), ``vllm/<model folder>`` and ``mock/oracle|noisy|constant|flaky``.
The SDKs are imported only when a backend is created.
"""

from __future__ import annotations

from .base import Backend, Completion, Request, request_key
from .cache import ResponseCache
from .registry import get_backend, list_providers, parse_model_options, register_provider

__all__ = ["Backend", "Request", "Completion", "request_key", "ResponseCache", "get_backend", "register_provider",
           "list_providers", "parse_model_options"]
