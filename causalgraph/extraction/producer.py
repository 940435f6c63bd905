"""Extracted pairs as causal graphs: PubMedCausal rows through the graph pipeline.

:func:`corpus_from_extraction` turns predicted (or gold) pairs into a
:class:`~causalgraph.model.Corpus` whose statements are PubMedCausal rows
and whose relations are the pairs, so :func:`~causalgraph.compile_graph`
and everything built on it (chains, encoders, items, viewer) works on them.

Spans name graph nodes.  Within a row, spans are merged into one node by

* ``exact``: the same string (after trimming);
* ``normalized``: the same normalised span (lowercase, one leading article
  and edge punctuation removed);
* ``fuzzy``: token F1 (or, with ``similarity="cosine"``, embedding cosine) at
  or above a threshold.

so that A → B and B′ → C link into a chain A → B → C when B ≈ B′.  Merging is
greedy in order of appearance: each span joins the first earlier node whose
first span it matches, else starts a node; a node is named by its first
span.  The span as written stays in ``cause_np``/``effect_np``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import ConfigError, SchemaError
from ..graph import compile_graph
from ..model import Corpus, Relation, Statement, is_blank
from .predictions import PredictionSet, load_predictions, predictions_from_corpus
from .spans import normalize_span, token_f1
from ..metrics.chains import chain_labels, chain_stats
from ..graph.merged import merge_pairs
from ..metrics.graph_chains import graph_chain_stats, graph_positions
from ..datasets import load_corpus
from .embed import load_embedder

__all__ = ["MERGE_RULES", "SpanMerger", "corpus_from_extraction", "chain_statistics", "merged_chain_statistics",
           "chain_rows", "DEFAULT_THRESHOLDS"]

MERGE_RULES = ("exact", "normalized", "fuzzy")
#: Default fuzzy thresholds per similarity.
DEFAULT_THRESHOLDS = {"token": 0.5, "cosine": 0.75}


@dataclass
class SpanMerger:
    """Maps the spans of one row to node names.

    Examples
    --------
    >>> m = SpanMerger("fuzzy", threshold=0.5)
    >>> m.node("the inflammation of the liver"), m.node("liver inflammation")
    ('the inflammation of the liver', 'the inflammation of the liver')
    """

    rule: str = "exact"
    similarity: str = "token"
    threshold: Optional[float] = None
    embedder: object = None

    def __post_init__(self):
        if self.rule not in MERGE_RULES:
            raise ConfigError(f"merge rule {self.rule!r}: expected one of {', '.join(MERGE_RULES)}")
        if self.similarity not in DEFAULT_THRESHOLDS:
            raise ConfigError(f"similarity {self.similarity!r}: expected token or cosine")
        if self.threshold is None:
            self.threshold = DEFAULT_THRESHOLDS[self.similarity]
        if not 0.0 < float(self.threshold) <= 1.0:
            raise ConfigError(f"merge threshold {self.threshold!r}: expected a number in (0, 1]")
        if self.rule == "fuzzy" and self.similarity == "cosine" and self.embedder is None:
            self.embedder = load_embedder()
        self.reset()

    def reset(self) -> None:
        """Start a new row (nodes never merge across rows)."""
        self._leaders: list[str] = []
        self._by_key: dict[str, str] = {}

    def _sim(self, a: str, b: str) -> float:
        if self.similarity == "token":
            return token_f1(a, b)
        return float(self.embedder.cosine([a], [b])[0][0])

    def node(self, span: str) -> str:
        """The node name of ``span`` in the current row."""
        s = str(span).strip()
        if self.rule == "exact":
            return s
        key = normalize_span(s)
        if key in self._by_key:
            return self._by_key[key]
        name = s
        if self.rule == "fuzzy":
            for leader in self._leaders:
                if self._sim(s, leader) >= self.threshold:
                    name = leader
                    break
        if name == s:
            self._leaders.append(s)
        self._by_key[key] = name
        return name


def _prediction_set(source) -> tuple[PredictionSet, str]:
    if isinstance(source, Corpus):
        return predictions_from_corpus(source), "gold"
    if isinstance(source, PredictionSet):
        return source, source.kind
    s = str(source)
    if s in ("test", "train") or s.startswith("pubmedcausal"):
        name = s if s.startswith("pubmedcausal") else f"pubmedcausal:{s}"
        return predictions_from_corpus(load_corpus(name)), "gold"
    ps = load_predictions(source)
    return ps, ("gold" if ps.kind == "rows" else "predicted")


def corpus_from_extraction(source, *, merge: str = "exact", similarity: str = "token",
                           threshold: Optional[float] = None, embedder=None) -> Corpus:
    """A corpus of PubMedCausal rows whose relations are extracted (or gold) pairs.

    Parameters
    ----------
    source
        A run directory or predictions file (predicted pairs); a prepared
        PubMedCausal file, ``"pubmedcausal:test"``/``"test"``, or a loaded
        PubMedCausal :class:`~causalgraph.model.Corpus` (gold pairs).
    merge
        ``exact``, ``normalized`` or ``fuzzy`` node merging (see module doc).
    similarity
        ``token`` (token F1) or ``cosine`` for fuzzy merging.
    threshold
        Fuzzy threshold (default 0.5 for token F1, 0.75 for cosine).
    embedder
        Encoder for cosine merging (default: the packaged all-MiniLM-L6-v2).

    Returns
    -------
    Corpus
        Statements ``pmc-<s/n>`` in source order, one relation per pair
        (cause/effect: the node names; cause_np/effect_np: the spans as
        written; explicitness and sententiality from the pair).
        ``corpus.report`` counts rows, pairs, merged spans, self-loops (a
        pair whose two spans merged) and rows holding a chain.

    Examples
    --------
    >>> from causalgraph import corpus_from_extraction, compile_graph
    >>> gold = corpus_from_extraction("pubmedcausal:test", merge="normalized")  # doctest: +SKIP
    >>> compile_graph(gold["pmc-8084"]).pairs()                                 # doctest: +SKIP
    [('high insulin level', 'An increase risk of endometrial cancer')]
    """
    ps, side = _prediction_set(source)
    merger = SpanMerger(merge, similarity, threshold, embedder)
    if merger.rule == "fuzzy" and merger.similarity == "cosine":
        # One batched pass over every distinct span; the merger then reads the cache.
        spans = [s.strip() for r in ps.rows.values() for p in r.pairs for s in (p.cause, p.effect)]
        merger.embedder.encode(list(dict.fromkeys(spans)))
    statements = []
    merged = self_loops = 0
    for sn, row in ps.rows.items():
        merger.reset()
        rels = []
        for j, p in enumerate(row.pairs, start=1):
            for which, span in (("cause", p.cause), ("effect", p.effect)):
                # Parsed and loaded pairs never hold a blank span; a PredictionSet or Corpus built by hand
                # can, and its blank node would print as nothing in every encoding.
                if not isinstance(span, str) or is_blank(span):
                    raise SchemaError(f"{ps.source}: row s/n {sn}, pair {j} ({p.cause!r} -> {p.effect!r}): "
                                      f"found {span!r} as the {which}; expected a span that shows something")
            c, e = merger.node(p.cause), merger.node(p.effect)
            merged += (c != p.cause.strip()) + (e != p.effect.strip())
            self_loops += c == e
            rels.append(Relation(cause=c, effect=e, cause_np=p.cause, effect_np=p.effect,
                                 explicitness=p.causality, sententiality=p.sententiality,
                                 source_file=ps.source))
        statements.append(Statement(id=f"pmc-{sn}", text=row.sentence or "", causal=bool(rels), relations=tuple(rels),
                                    meta={"s/n": sn, "side": side, "merge": merge, "null": row.null,
                                          "rule": row.rule}, source_file=ps.source))
    corpus = Corpus(name=f"pubmedcausal-{side}", statements=statements, source=ps.source)
    corpus.report = {"side": side, "merge": merge, "similarity": similarity if merge == "fuzzy" else None,
                     "threshold": merger.threshold if merge == "fuzzy" else None, "rows": len(statements),
                     "pairs": sum(len(s.relations) for s in statements), "merged_spans": merged,
                     "self_loops": self_loops, **chain_statistics(corpus)}
    return corpus


def chain_statistics(corpus: Corpus, rule: str = "path") -> dict:
    """How many rows hold a causal chain, and how many chains and chain events there are.

    Chains are those of :mod:`causalgraph.metrics.chains` (a directed path of
    at least three distinct events): a row holds one when some event of its
    graph is a chain ``middle``; ``chains`` sums the rows' chain counts
    (counted by dynamic programming, never listed) and ``chain_events``
    the events whose position is not ``none``.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement, Corpus
    >>> row = Statement("r", "t", True, (Relation("A", "B"), Relation("B", "C")))
    >>> chain_statistics(Corpus("x", [row]))
    {'rows_with_chain': 1, 'chains': 1, 'chain_events': 3}
    """
    rows_with_chain = chains = events = 0
    for st in corpus:
        if not st.relations:
            continue
        g = compile_graph(st)
        labels = chain_labels(g, rule)
        if any(str(p) == "middle" for p in labels.values()):
            rows_with_chain += 1
            chains += chain_stats(g).n_chains
            events += sum(1 for p in labels.values() if p.member)
    return {"rows_with_chain": rows_with_chain, "chains": chains, "chain_events": events}


def merged_chain_statistics(corpus: Corpus, rule: str = "path") -> dict:
    """Chain statistics of every row's graph merged into one corpus-level graph.

    Rows that name the same (merged) span share one node, as CauseNet's
    concepts do across sentences; the graph is labelled and counted by
    :mod:`causalgraph.metrics.graph_chains` (per weakly connected component,
    cycles on their condensation), so a corpus-scale graph never raises.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement, Corpus
    >>> rows = [Statement("a", "t", True, (Relation("A", "B"),)), Statement("b", "u", True, (Relation("B", "C"),))]
    >>> merged_chain_statistics(Corpus("x", rows))["chains"]
    1
    """
    import numpy as np

    g = merge_pairs(p for st in corpus if st.relations for p in compile_graph(st).pairs)
    st_ = graph_chain_stats(g)
    counts = np.bincount(graph_positions(g, rule), minlength=4).tolist()
    return {"nodes": g.n_nodes, "edges": g.n_edges, "components": st_.n_components, "depth": st_.total.depth,
            "breadth": st_.total.breadth, "chains": st_.total.n_chains, "acyclic": "yes" if st_.total.acyclic else "no",
            "cyclic_nodes": int(st_.cyclic_nodes.sum()), "start": counts[0], "middle": counts[1], "end": counts[2]}


def chain_rows(corpus: Corpus, rule: str = "path") -> Corpus:
    """The rows of ``corpus`` whose graph holds a causal chain (same order).

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement, Corpus
    >>> rows = [Statement("a", "t", True, (Relation("A", "B"), Relation("B", "C"))),
    ...         Statement("b", "t", True, (Relation("X", "Y"),))]
    >>> [s.id for s in chain_rows(Corpus("x", rows))]
    ['a']
    """
    keep = [st for st in corpus
            if st.relations and any(str(p) == "middle" for p in chain_labels(compile_graph(st), rule).values())]
    return Corpus(name=f"{corpus.name}-chains", statements=keep, source=corpus.source, sha256=corpus.sha256,
                  report={**corpus.report, "rows": len(keep), "filter": f"rows with a chain ({rule} rule)"})
