"""Applications: jobs built on the engine, above the tasks and the backends.

* :mod:`causalgraph.apps.annotator` — raw text → ClimateCause-style
  relations with a language model (:func:`annotate`, :func:`annotate_texts`,
  :func:`annotate_corpus`, :func:`statements_from_run`);
* :mod:`causalgraph.apps.text_score` — :func:`score_text`: annotate, then
  C^com … C^pol, C(s) and readability;
* :mod:`causalgraph.apps.extraction_run` — :func:`run_extraction`:
  PubMedCausal extraction or detection prompts on the runner, with the
  authors' ``predictions.json``.

The domain parts they use (prompts, parsers, evaluation, the graph
producer) sit lower, in :mod:`causalgraph.annotation` and
:mod:`causalgraph.extraction`, which import nothing of the engine.

Examples
--------
>>> from causalgraph.apps import annotate
>>> annotate("Warming reduces sea ice.", "mock/empty").relations   # doctest: +SKIP
()
"""

from __future__ import annotations

from .annotator import DEFAULT_MAX_TOKENS, annotate, annotate_corpus, annotate_texts, statements_from_run
from .extraction_run import run_extraction
from .text_score import score_text

__all__ = ["annotate", "annotate_texts", "annotate_corpus", "statements_from_run", "DEFAULT_MAX_TOKENS",
           "score_text", "run_extraction"]
