"""The annotator: raw text → ClimateCause-style relations, so C(s) works beyond the corpus.

* :func:`annotate` – one text → :class:`~causalgraph.model.Statement` (any backend);
* :func:`annotate_texts`, :func:`annotate_corpus` – many, into a resumable run directory;
* :func:`score_text`, :func:`score_statement` – C^com … C^pol, C(s) against the
  ClimateCause ranges, classic readability;
* :func:`evaluate_annotation` – an annotate run against the gold it carries.

The prompt (guidelines of paper §4 and App. B, worked examples of App. B)
lives in ``causalgraph/prompts/annotation/``; docs/annotate.md explains
every choice.
"""

from __future__ import annotations

from .annotator import DEFAULT_MAX_TOKENS, annotate, annotate_corpus, annotate_texts, statements_from_run
from .evaluate import AnnotationReport, evaluate_annotation, evaluate_records, evaluate_statements
from .answer import ParsedAnnotation, parse_annotation, statement_to_answer, to_statement
from .prompt import VARIANTS, render_messages, select_exemplars
from .reference import PAPER_RANGES, ReferenceRanges, climatecause_ranges, corpus_ranges, normalized_complexity
from .schema import ANNOTATION_SCHEMA, annotation_schema
from .text_scores import TextScore, score_statement, score_text

__all__ = [
    "annotate", "annotate_texts", "annotate_corpus", "statements_from_run", "DEFAULT_MAX_TOKENS",
    "parse_annotation", "ParsedAnnotation", "to_statement", "statement_to_answer",
    "render_messages", "select_exemplars", "VARIANTS",
    "ANNOTATION_SCHEMA", "annotation_schema",
    "ReferenceRanges", "PAPER_RANGES", "corpus_ranges", "climatecause_ranges", "normalized_complexity",
    "TextScore", "score_text", "score_statement",
    "AnnotationReport", "evaluate_annotation", "evaluate_records", "evaluate_statements",
]
