"""causalgraph: causal-graph analysis of text.

The public library calls are re-exported here.  The package is the top of
the layers (docs/architecture.md): every name below is imported on first
use (PEP 562), so ``import causalgraph`` runs no module of the package but
``_version`` and stays light, and importing ``causalgraph.errors`` (which imports this
package first) does not pull in the rest of causalgraph.

Examples
--------
>>> import causalgraph as cg
>>> cg.compile_graph.__module__
'causalgraph.graph'
>>> corpus = cg.load_climatecause()            # doctest: +SKIP
>>> graph = cg.compile_graph(corpus["cc-007"])  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

#: Public name → ``"module"`` (the name is the module's attribute of that name) or ``"module:attr"``;
#: a module itself where the name is a subpackage (``stats``, ``viz``).
_EXPORTS: dict[str, str] = {
    # data
    "load_climatecause": "causalgraph.datasets", "load_pubmedcausal": "causalgraph.datasets",
    "load_corpus": "causalgraph.datasets", "describe": "causalgraph.datasets.describe",
    # model
    **dict.fromkeys(["Corpus", "Statement", "Relation", "Problem", "Correlation", "Polarity", "Explicitness",
                     "Sententiality"], "causalgraph.model"),
    # graphs
    **dict.fromkeys(["compile_graph", "CausalGraph", "CausalEdge", "BelongsEdge"], "causalgraph.graph"),
    # chains and encodings
    **dict.fromkeys(["chain_labels", "chain_membership", "chain_stats", "chain_table", "ChainStats", "Position"],
                    "causalgraph.metrics.chains"),
    "encode": "causalgraph.encodings", "decode": "causalgraph.encodings",
    # statistics
    "stats": "causalgraph.stats:",
    **dict.fromkeys(["mcnemar", "kruskal", "dunn", "mcnemar_runs", "kruskal_runs", "consistency"],
                    "causalgraph.stats"),
    # complexity and readability
    **dict.fromkeys(["complexity", "complexity_table", "Complexity"], "causalgraph.metrics.complexity"),
    **dict.fromkeys(["complexity_summary", "length_correlation", "complex_in_counts", "cooccurrence"],
                    "causalgraph.metrics.analysis"),
    **dict.fromkeys(["readability", "readability_table", "readability_summary", "Readability"],
                    "causalgraph.metrics.readability"),
    # errors
    **dict.fromkeys(["CausalGraphError", "SchemaError", "DataNotFound", "ChecksumError", "CycleLimitExceeded",
                     "BackendError", "ParseError", "ConfigError", "TransientBackendError", "BackendUnreachable",
                     "BackendUnavailable"], "causalgraph.errors"),
    # LLM benchmarks
    "get_backend": "causalgraph.llm", "run_benchmark": "causalgraph.bench", "load_run": "causalgraph.runlog",
    "parse_answer": "causalgraph.bench:parse", "compute_metrics": "causalgraph.bench.scoring",
    # PubMedCausal extraction
    **dict.fromkeys(["corpus_from_extraction", "evaluate_extraction", "parse_tuples", "parse_detection"],
                    "causalgraph.extraction"),
    "run_extraction": "causalgraph.apps",
    # annotator
    "annotate": "causalgraph.apps", "score_text": "causalgraph.apps",
    "score_statement": "causalgraph.annotation", "evaluate_annotation": "causalgraph.annotation",
    # viewer and report
    "viz": "causalgraph.html.graph_page:", "write_report": "causalgraph.viewer.report",
}

#: ``__version__`` and every name of the table above, in its order.
__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """Import the module behind a public name on first use, and keep the value here."""
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'causalgraph' has no attribute {name!r}")
    module, colon, attr = target.partition(":")
    value = importlib.import_module(module)
    if not colon or attr:
        value = getattr(value, attr or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # what type checkers and IDEs read; never run
    from . import stats
    from .html import graph_page as viz
    from .annotation import evaluate_annotation, score_statement
    from .apps import annotate, run_extraction, score_text
    from .bench import parse as parse_answer, run_benchmark
    from .bench.scoring import compute_metrics
    from .datasets import load_climatecause, load_corpus, load_pubmedcausal
    from .datasets.describe import describe
    from .encodings import decode, encode
    from .errors import (BackendError, BackendUnavailable, BackendUnreachable, CausalGraphError, ChecksumError,
                         ConfigError, CycleLimitExceeded, DataNotFound, ParseError, SchemaError,
                         TransientBackendError)
    from .extraction import corpus_from_extraction, evaluate_extraction, parse_detection, parse_tuples
    from .graph import BelongsEdge, CausalEdge, CausalGraph, compile_graph
    from .llm import get_backend
    from .metrics.analysis import complex_in_counts, complexity_summary, cooccurrence, length_correlation
    from .metrics.chains import ChainStats, Position, chain_labels, chain_membership, chain_stats, chain_table
    from .metrics.complexity import Complexity, complexity, complexity_table
    from .metrics.readability import Readability, readability, readability_summary, readability_table
    from .model import Corpus, Correlation, Explicitness, Polarity, Problem, Relation, Sententiality, Statement
    from .viewer.report import write_report
    from .runlog import load_run
    from .stats import consistency, dunn, kruskal, kruskal_runs, mcnemar, mcnemar_runs
