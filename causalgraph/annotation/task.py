"""The ``annotate`` task on the benchmark runner: items, structured output, parser, scorer.

Annotating runs on :mod:`causalgraph.bench.runner` like every benchmark, so
it gets the runner's response cache, resume, retries and progress bar.  An
item asks for the annotation of one statement; its ``gold`` is the gold
annotation in the answer format (a JSON string) when the corpus is
annotated, and ``None`` for free text.  The parsed answer is the record's
``label`` (a dict; ``None`` when no rule could read the answer, which the
runner counts as a parse failure) and the parse rule its ``rule``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Iterable, Optional, Sequence

from ..bench.item import Item
from ..errors import ConfigError
from ..bench.registry import TaskSpec, get_task, register_task
from ..llm.base import Backend, Completion, Request, canonical_json
from ..model import Statement
from .parse import statement_to_answer
from .records import input_order, parse_for_run, parsed_from_label
from .prompt import DEFAULT_VARIANT, VARIANTS, render_messages, select_exemplars
from .schema import ANNOTATION_SCHEMA, structured_output_params

__all__ = ["TASK", "annotation_items", "text_items", "parse_for_run", "parsed_from_label", "StructuredBackend",
           "structured_backend", "ensure_registered", "input_order"]

TASK = "annotate"


def _item(st_id: str, text: str, variant: str, gold: Optional[str], shots: Optional[int], index: int) -> Item:
    msgs = render_messages(text, variant, shots)
    system = next((m["content"] for m in msgs if m["role"] == "system"), None)
    user = msgs[-1]["content"]
    # ``index``: the statement's position in its input, so readers restore input order whatever order
    # concurrent requests finished in.
    meta = {"statement_id": st_id, "index": index, "text": text,
            "exemplars": [e.id for e in select_exemplars(text, variant, shots)]}
    return Item(id=f"{TASK}/{variant}/{st_id}", task=TASK, variant=variant, prompt=user, gold=gold, meta=meta,
                system=system)


def annotation_items(statements: Iterable[Statement], variant: str = DEFAULT_VARIANT, *, gold: bool = True,
                     shots: Optional[int] = None) -> list[Item]:
    """One item per statement, in corpus order.

    Parameters
    ----------
    statements
        A corpus or statements.
    variant
        ``few-shot`` or ``zero-shot``.
    gold
        Put the statement's annotation (answer format, JSON) in ``gold``;
        False for texts without annotation.
    shots
        At most this many worked examples.

    Examples
    --------
    >>> from causalgraph.model import Statement
    >>> it = annotation_items([Statement("d1", "Warming melts glaciers.", False)], "zero-shot", gold=False)[0]
    >>> it.id, it.gold, it.meta["statement_id"]
    ('annotate/zero-shot/d1', None, 'd1')
    """
    out = []
    for i, s in enumerate(statements):
        g = json.dumps(statement_to_answer(s), ensure_ascii=False) if gold else None
        out.append(_item(s.id, s.text, variant, g, shots, i))
    return out


def text_items(texts: Sequence[str], variant: str = DEFAULT_VARIANT, *, ids: Optional[Sequence[str]] = None,
               shots: Optional[int] = None) -> list[Item]:
    """Items for free texts (no gold); ids ``text-1``, ``text-2`` … unless given."""
    ids = list(ids) if ids is not None else [f"text-{i}" for i in range(1, len(texts) + 1)]
    return annotation_items([Statement(i, t, False) for i, t in zip(ids, texts)], variant, gold=False, shots=shots)


def _score(records: list[dict]) -> dict:
    from .evaluate import evaluate_records

    from ..errors import DataNotFound
    from .reference import PAPER_RANGES, climatecause_ranges

    if not any(r.get("gold") for r in records):
        return {"evaluated": False}
    try:
        ref = climatecause_ranges()
    except DataNotFound:
        # A run must not fail at its last step because the reference corpus is missing:
        # the ranges printed in the paper are the same (tests/annotation/test_reference.py).
        ref = PAPER_RANGES
    return {"evaluated": True, **evaluate_records(records, reference=ref).summary()}


class StructuredBackend(Backend):
    """A backend that adds the provider's structured-output parameters to every request.

    The runner builds requests without task-specific parameters; wrapping
    the backend keeps the runner generic.  ``identity()`` names the schema,
    so answers with and without structured output never share a cache entry.
    """

    def __init__(self, inner: Backend, params: dict[str, Any]):
        self.inner = inner
        self.provider = inner.provider
        self.model = inner.model
        self.options = inner.options
        self.base_url = inner.base_url
        self.endpoint = getattr(inner, "endpoint", None)
        self.billed = getattr(inner, "billed", False)
        self.params = params
        self._schema_sha = hashlib.sha256(canonical_json(ANNOTATION_SCHEMA).encode("utf-8")).hexdigest()[:16]

    def identity(self) -> dict[str, Any]:
        return {**self.inner.identity(), "structured_output": self._schema_sha}

    def default_concurrency(self) -> int:
        return self.inner.default_concurrency()

    def secrets(self) -> list[str]:
        return list(getattr(self.inner, "secrets", lambda: [])())

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


def structured_backend(model: str, model_options: Optional[dict] = None, *, structured: bool = True) -> Backend:
    """The backend of ``model``, wrapped for structured output where its provider has a mode for it."""
    from ..llm.registry import get_backend, split_spec

    backend = get_backend(model, **(model_options or {}))
    params = structured_output_params(split_spec(model)[0]) if structured else {}
    return StructuredBackend(backend, params) if params else backend


def ensure_registered() -> TaskSpec:
    """Register the ``annotate`` task (once) and return its spec."""
    try:
        return get_task(TASK)
    except ConfigError:
        pass
    spec = TaskSpec(
        name=TASK,
        build_items=lambda corpus, variant: annotation_items(corpus, variant, gold=True),
        list_variants=lambda: list(VARIANTS),
        labels=(),
        kind="custom",
        parse=parse_for_run,
        score=_score,
        strategy=lambda v: v,
        description="annotate statements into ClimateCause-style relations (issue 9)",
    )
    return register_task(spec, replace=True)
