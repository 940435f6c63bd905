"""Structured output for any backend that declares it: a wrapper that adds the schema to every request.

The runner builds requests without task-specific parameters; wrapping the
backend keeps the runner generic.  Which backends can constrain their answer
is their own declaration (:attr:`~causalgraph.llm.base.Backend.structured_output`),
never a table of provider names.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Optional, Sequence

from .base import Backend, Completion, Request, canonical_json
from .registry import get_backend

__all__ = ["StructuredBackend", "structured_backend"]


class StructuredBackend(Backend):
    """A backend that adds structured-output parameters to every request.

    The runner builds requests without task-specific parameters; wrapping
    the backend keeps the runner generic.  ``identity()`` names the schema,
    so answers with and without structured output never share a cache entry.
    """

    def __init__(self, inner: Backend, params: dict[str, Any], schema: Optional[dict[str, Any]] = None):
        self.inner = inner
        self.provider = inner.provider
        self.model = inner.model
        self.options = inner.options
        self.base_url = inner.base_url
        self.endpoint = inner.endpoint
        for name in Backend.CAPABILITIES:  # the wrapped backend's declarations hold for the wrapper
            setattr(self, name, getattr(inner, name))
        self.params = params
        # The cache identity names the schema (the one inside ``params`` unless given).
        self._schema_sha = hashlib.sha256(canonical_json(schema if schema is not None else params)
                                          .encode("utf-8")).hexdigest()[:16]

    def identity(self) -> dict[str, Any]:
        return {**self.inner.identity(), "structured_output": self._schema_sha}

    def default_concurrency(self) -> int:
        return self.inner.default_concurrency()

    def secrets(self) -> list[str]:
        return self.inner.secrets()

    def prepare(self, items: Sequence[Any], task: Any) -> None:
        self.inner.prepare(items, task)

    def _with_params(self, request: Request) -> Request:
        return dataclasses.replace(request, params={**request.params, **self.params})

    def check_request(self, request: Request) -> None:
        # The inner backend judges the request it will really receive, schema included.
        self.inner.check_request(self._with_params(request))

    def request_identity(self, request: Request) -> dict[str, Any]:
        return self.inner.request_identity(self._with_params(request))

    async def complete(self, request: Request) -> Completion:
        return await self.inner.complete(self._with_params(request))

    async def aclose(self) -> None:
        await self.inner.aclose()


def structured_backend(model: str, model_options: Optional[dict], schema: dict[str, Any], name: str, *,
                       structured: bool = True) -> Backend:
    """The backend of ``model``, wrapped to answer in ``schema`` where it declares structured output.

    Examples
    --------
    >>> structured_backend("mock/constant", {"text": "{}"}, {"type": "object"}, "demo").name
    'mock/constant'
    """
    backend = get_backend(model, **(model_options or {}))
    if not (structured and backend.structured_output):
        return backend
    return StructuredBackend(backend, backend.structured_params(schema, name), schema)
