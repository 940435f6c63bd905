"""The annotator's domain: ClimateCause-style annotation as prompts, an answer format and scores.

* :func:`render_messages`, :func:`select_exemplars` – the prompt (guidelines of
  paper §4 and App. B, worked examples of App. B, in
  ``causalgraph/prompts/annotation/``);
* :func:`parse_annotation`, :func:`to_statement` – the tolerant parser of the
  answer format, and its statement;
* :func:`score_statement` – C^com … C^pol, C(s) against the ClimateCause
  ranges, classic readability;
* :func:`evaluate_annotation` – an annotate run against the gold it carries.

Asking a model (:func:`causalgraph.annotate`, :func:`causalgraph.score_text`)
is an application of the engine: :mod:`causalgraph.apps`.  docs/annotate.md
explains every choice.
"""

from __future__ import annotations

from .evaluate import AnnotationReport, evaluate_annotation, evaluate_records, evaluate_statements
from .answer import ParsedAnnotation, parse_annotation, statement_to_answer, to_statement
from .prompt import VARIANTS, render_messages, select_exemplars
from .reference import PAPER_RANGES, ReferenceRanges, climatecause_ranges, corpus_ranges, normalized_complexity
from .schema import ANNOTATION_SCHEMA, annotation_schema
from .text_scores import TextScore, score_statement

__all__ = [
    "parse_annotation", "ParsedAnnotation", "to_statement", "statement_to_answer",
    "render_messages", "select_exemplars", "VARIANTS",
    "ANNOTATION_SCHEMA", "annotation_schema",
    "ReferenceRanges", "PAPER_RANGES", "corpus_ranges", "climatecause_ranges", "normalized_complexity",
    "TextScore", "score_statement",
    "AnnotationReport", "evaluate_annotation", "evaluate_records", "evaluate_statements",
]
