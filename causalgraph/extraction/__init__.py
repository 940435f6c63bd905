"""PubMedCausal extraction: prompts, tuple parsing, span metrics, graph producer.

The benchmark tasks built on it are declared in :mod:`causalgraph.tasks.pubmedcausal`.
"""

from __future__ import annotations

from .catalog import (
    DETECT_TASK,
    EXTRACT_TASK,
    PromptStrategy,
    detection_items,
    extraction_items,
    get_strategy,
    render_prompt,
    strategies,
)
from .evaluate import ExtractionReport, error_buckets, evaluate_extraction, label_scores
from .tuples import DetectionAnswer, ExtractedPair, ParsedTuples, parse_detection, parse_tuples
from .predictions import PredictionSet, RowPrediction, load_predictions, predictions_from_corpus, write_predictions
from .producer import MERGE_RULES, SpanMerger, chain_statistics, corpus_from_extraction
from .spans import normalize_span, pair_score, span_tokens, token_f1

__all__ = [
    "EXTRACT_TASK",
    "DETECT_TASK",
    "PromptStrategy",
    "strategies",
    "get_strategy",
    "render_prompt",
    "extraction_items",
    "detection_items",
    "ExtractedPair",
    "ParsedTuples",
    "DetectionAnswer",
    "parse_tuples",
    "parse_detection",
    "normalize_span",
    "span_tokens",
    "token_f1",
    "pair_score",
    "PredictionSet",
    "RowPrediction",
    "load_predictions",
    "predictions_from_corpus",
    "write_predictions",
    "ExtractionReport",
    "evaluate_extraction",
    "label_scores",
    "error_buckets",
    "MERGE_RULES",
    "SpanMerger",
    "corpus_from_extraction",
    "chain_statistics",
]
