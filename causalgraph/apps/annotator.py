"""Annotate raw text with a language model: ``annotate(text, model=…) -> Statement``.

Every call goes through the benchmark runner's call path
(:mod:`causalgraph.bench.runner`), so single texts and whole corpora share
the response cache, retries and parsing.  :func:`annotate_corpus` and
:func:`annotate_texts` write a run folder (resumable); a single
:func:`annotate` call keeps its one line in memory
(:func:`~causalgraph.bench.runner.aanswer_items`): no folder is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence, Union

from ..errors import BackendError, ConfigError, ParseError
from ..model import Corpus, Statement
from ..annotation.answer import ParsedAnnotation, to_statement
from ..annotation.prompt import DEFAULT_VARIANT
from ..annotation.records import input_order, parsed_from_label
from ..llm.structured import structured_backend
from ..tasks.annotation import annotation_items, text_items
from ..annotation.records import TASK
from ..annotation.schema import ANNOTATION_SCHEMA, SCHEMA_NAME
from .._core.sync import close_quietly, run_sync
from ..bench.runner import aanswer_items, arun_benchmark
from ..bench.config import RunConfig
from ..runlog.store import load_run

__all__ = ["annotate", "annotate_texts", "annotate_corpus", "statements_from_run", "statements_from_records",
           "DEFAULT_MAX_TOKENS"]

#: Generated tokens allowed per statement: the longest ClimateCause annotation (32 relations)
#: takes about 4,000 tokens in the answer format.
DEFAULT_MAX_TOKENS = 4096


def _run(items, model: str, *, out: Optional[Union[str, Path]], variant: str, model_options: Optional[dict],
         structured: bool, backend=None, progress: bool = False, dataset: Optional[dict] = None,
         **run_options: Any):
    """A run of ``items`` into ``out`` (the runner's ``RunResult``), or, with ``out=None``, their lines in memory."""
    run_options.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    config = RunConfig(task=TASK, variants=[variant], model=model, out=None if out is None else str(out),
                       model_options=dict(model_options or {}), **run_options)
    own = backend is None
    if own:
        backend = structured_backend(model, model_options, ANNOTATION_SCHEMA, SCHEMA_NAME, structured=structured)

    async def run_and_close():
        # One event loop for the run and the close: an HTTP client opened in one loop cannot be
        # closed from another ("Event loop is closed").
        try:
            if out is None:
                return await aanswer_items(config, items, backend=backend)
            return await arun_benchmark(config, items=items, backend=backend, progress=progress, dataset=dataset)
        finally:
            if own:  # a backend the caller passed in stays theirs to close
                await close_quietly(backend.aclose)

    return run_sync(run_and_close())


def annotate_texts(texts: Sequence[str], model: str, *, out: Union[str, Path], variant: str = DEFAULT_VARIANT,
                   ids: Optional[Sequence[str]] = None, shots: Optional[int] = None,
                   model_options: Optional[dict] = None, structured: bool = True, backend=None,
                   progress: bool = False, **run_options: Any):
    """Annotate free texts into a run directory (resumable); returns the runner's ``RunResult``.

    ``run_options`` are :class:`~causalgraph.bench.config.RunConfig` fields
    (``temperature``, ``max_tokens``, ``concurrency``, ``max_attempts`` …).
    """
    if not texts:
        raise ConfigError("annotate: no text given")
    items = text_items(list(texts), variant, ids=ids, shots=shots)
    return _run(items, model, out=out, variant=variant, model_options=model_options, structured=structured,
                backend=backend, progress=progress, dataset={"name": "text", "source": None, "sha256": None},
                **run_options)


def annotate_corpus(corpus: Union[Corpus, Sequence[Statement]], model: str, *, out: Union[str, Path],
                    variant: str = DEFAULT_VARIANT, shots: Optional[int] = None, limit: Optional[int] = None,
                    model_options: Optional[dict] = None, structured: bool = True, backend=None,
                    progress: bool = False, **run_options: Any):
    """Annotate the statements of an annotated corpus; each record keeps its gold for evaluation."""
    statements = list(corpus)[:limit] if limit else list(corpus)
    items = annotation_items(statements, variant, gold=True, shots=shots)
    ds = {"name": getattr(corpus, "name", None), "source": getattr(corpus, "source", None),
          "sha256": getattr(corpus, "sha256", None)}
    return _run(items, model, out=out, variant=variant, model_options=model_options, structured=structured,
                backend=backend, progress=progress, dataset=ds, **run_options)


def statements_from_run(run, *, ids: Optional[Sequence[str]] = None, strict: bool = False) -> list[Statement]:
    """The annotated statements of an ``annotate`` run, in input order.

    Parameters
    ----------
    run
        A run directory or a loaded run.
    ids
        Only these statement ids, in this order (all of the run when ``None``).
    strict
        Raise on a failed item instead of returning a non-causal statement
        whose ``meta["annotation"]["failed"]`` is true.
    """
    r = load_run(run) if isinstance(run, (str, Path)) else run
    records = input_order(r.responses)
    if ids is not None:
        by_id = {str(rec.meta.get("statement_id")): rec for rec in records}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise ConfigError(f"{r.path}: no answer for statement(s) {', '.join(missing[:5])}")
        records = [by_id[i] for i in ids]
    return statements_from_records(records, r.model, strict=strict)


def statements_from_records(records, model: Optional[str], *, strict: bool = False) -> list[Statement]:
    """The annotated statements of ``annotate`` lines (one per record, in the order given).

    ``model`` is the run's model, recorded in each statement's ``meta["annotation"]``.
    """
    out = []
    for rec in records:
        meta = dict(rec.meta)
        sid, text = str(meta.get("statement_id") or rec.item_id), meta.get("text", "")
        info = {"model": model, "variant": rec.variant, "exemplars": meta.get("exemplars", []),
                "response": rec.response}
        if rec.error:
            if strict:
                raise BackendError(f"annotation of {sid} failed: {rec.error}")
            out.append(Statement(sid, text, False, meta={"annotation": {**info, "rule": "error", "failed": True,
                                                                        "issues": [rec.error]}}))
            continue
        label = rec.label
        if isinstance(label, dict):
            parsed = parsed_from_label(label, rec.rule)
        else:
            parsed = ParsedAnnotation(None, (), None, rec.rule or "unparsed",
                                      (f"no annotation found in the answer {str(rec.response)[:80]!r}",))
        out.append(to_statement(parsed, text, id=sid, strict=strict, meta={"annotation": info}))
    return out


def annotate(text: str, model: str, *, variant: str = DEFAULT_VARIANT, shots: Optional[int] = None,
             id: str = "text-1", model_options: Optional[dict] = None, structured: bool = True,
             strict: bool = True, backend=None, **run_options: Any) -> Statement:
    """Annotate one text into ClimateCause-style relations.

    Parameters
    ----------
    text
        The statement (one or more sentences).
    model
        ``provider/model``: ``openai/gpt-5.1-2025-11-13``, ``llamacpp/smollm2``,
        ``hf/<dir>``, ``mock/constant`` …
    variant
        ``few-shot`` (guidelines and the paper's worked examples, default) or ``zero-shot``.
    shots
        At most this many worked examples.
    model_options
        Backend options (``base_url``, ``n_ctx``, ``text`` for ``mock/constant`` …).
    structured
        Ask for schema-constrained JSON where the provider supports it (OpenAI, llama.cpp).
    strict
        Raise :class:`ParseError` when the answer cannot be read (else return
        a non-causal statement marked as failed in ``meta["annotation"]``).
    backend
        A ready backend object (tests).
    **run_options
        Runner options: ``temperature`` (default 0), ``max_tokens`` (default
        :data:`DEFAULT_MAX_TOKENS`), ``max_attempts``, ``cache`` …

    Returns
    -------
    Statement
        ``relations`` with cause/effect as no-quantifier forms and every
        label; ``meta["annotation"]`` holds the model, variant, exemplars
        shown, parse rule, issues and the raw response.

    Raises
    ------
    BackendError
        The model could not be reached after the runner's retries.
    ParseError
        ``strict`` and no rule could read the answer.

    Examples
    --------
    >>> answer = '{"causal": true, "abbreviations": null, "relations": [{"cause_np": "warming", ' \\
    ...          '"cause_no_quantifier": "warming", "effect_np": "less sea ice", "effect_no_quantifier": "sea ice", ' \\
    ...          '"correlation": "negative", "relation_type": "positive", "explicitness": "E", "target": "reduces"}]}'
    >>> st = annotate("Warming reduces sea ice.", "mock/constant", model_options={"text": answer}, cache=False)
    >>> [(r.cause, r.effect, r.correlation.value) for r in st.relations]
    [('warming', 'sea ice', 'negative')]
    """
    # The runner's call path (cache, retries, parsing) with the one line kept in memory: no run folder.
    records = _run(text_items([text], variant, ids=[id], shots=shots), model, out=None, variant=variant,
                   model_options=model_options, structured=structured, backend=backend, **run_options)
    st = statements_from_records(input_order(records), model, strict=False)[0]
    info = st.meta.get("annotation", {})
    if info.get("rule") == "error":
        raise BackendError(f"annotation of {id} with {model} failed: {'; '.join(info.get('issues', []))}")
    if strict and info.get("failed"):
        raise ParseError(f"annotation of {id} with {model}: {'; '.join(info.get('issues', []))} "
                         f"(rule {info.get('rule')})")
    return st
