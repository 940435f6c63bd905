"""causalgraph: causal-graph analysis of text.

The public library calls are re-exported here; ``import causalgraph`` stays
light (no torch, transformers or openai at import time).

Examples
--------
>>> import causalgraph as cg
>>> corpus = cg.load_climatecause()            # doctest: +SKIP
>>> graph = cg.compile_graph(corpus["cc-007"])  # doctest: +SKIP
"""

from __future__ import annotations

from ._version import __version__

from .datasets import load_climatecause, load_corpus, load_pubmedcausal
from .describe import describe
from .errors import (
    BackendError,
    BackendUnavailable,
    BackendUnreachable,
    CausalGraphError,
    ChecksumError,
    ConfigError,
    CycleLimitExceeded,
    DataNotFound,
    ParseError,
    SchemaError,
    TransientBackendError,
)
from .encodings import decode, encode
from .graph import BelongsEdge, CausalEdge, CausalGraph, compile_graph
from .extraction import corpus_from_extraction, evaluate_extraction, parse_detection, parse_tuples, run_extraction
from .metrics.chains import ChainStats, Position, chain_labels, chain_membership, chain_stats, chain_table
from .metrics.analysis import complex_in_counts, complexity_summary, cooccurrence, length_correlation
from .metrics.complexity import Complexity, complexity, complexity_table
from .metrics.readability import Readability, readability, readability_summary, readability_table
from .model import Corpus, Correlation, Explicitness, Polarity, Problem, Relation, Sententiality, Statement
from . import stats
from .stats import consistency, dunn, kruskal, kruskal_runs, mcnemar, mcnemar_runs
from .annotation import annotate, evaluate_annotation, score_statement, score_text
from . import viz
from .report import write_report
from .bench import load_run, parse as parse_answer, run_benchmark
from .bench.scoring import compute_metrics
from .llm import get_backend

__all__ = [
    "__version__",
    # data
    "load_climatecause",
    "load_pubmedcausal",
    "load_corpus",
    "describe",
    # model
    "Corpus",
    "Statement",
    "Relation",
    "Problem",
    "Correlation",
    "Polarity",
    "Explicitness",
    "Sententiality",
    # graphs
    "compile_graph",
    "CausalGraph",
    "CausalEdge",
    "BelongsEdge",
    # chains and encodings
    "chain_labels",
    "chain_membership",
    "chain_stats",
    "chain_table",
    "ChainStats",
    "Position",
    "encode",
    "decode",
    # statistics (McNemar, Kruskal-Wallis with epsilon2, Dunn/Holm; the paper's analyses over runs)
    "stats",
    "mcnemar",
    "kruskal",
    "dunn",
    "mcnemar_runs",
    "kruskal_runs",
    "consistency",
    # complexity and readability
    "complexity",
    "complexity_table",
    "Complexity",
    "complexity_summary",
    "length_correlation",
    "complex_in_counts",
    "cooccurrence",
    "readability",
    "readability_table",
    "readability_summary",
    "Readability",
    # errors
    "CausalGraphError",
    "SchemaError",
    "DataNotFound",
    "ChecksumError",
    "CycleLimitExceeded",
    "BackendError",
    "ParseError",
    "ConfigError",
    "TransientBackendError",
    "BackendUnreachable",
    "BackendUnavailable",
    # LLM benchmarks (backends, cached resumable runner, answer parsing, scoring)
    "get_backend",
    "run_benchmark",
    "load_run",
    "parse_answer",
    "compute_metrics",
    # PubMedCausal extraction
    "corpus_from_extraction",
    "evaluate_extraction",
    "parse_tuples",
    "parse_detection",
    "run_extraction",
    # annotator (text -> relations, C(s) beyond the corpus)
    "annotate",
    "score_text",
    "score_statement",
    "evaluate_annotation",
    # viewer and report
    "viz",
    "write_report",
]
