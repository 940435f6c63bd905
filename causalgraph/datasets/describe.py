"""Corpus statistics: counts of statements, relations and every label value."""

from __future__ import annotations

import enum
from collections import Counter

from ..model import Corpus

__all__ = ["describe"]


def _count(values) -> dict:
    # Missing labels are counted under "none" so the counts add up to the total.
    c = Counter()
    for v in values:
        if v is None:
            c["none"] += 1
        elif isinstance(v, bool):
            c["yes" if v else "no"] += 1
        elif isinstance(v, enum.Enum):
            c[v.value] += 1
        else:
            c[str(v)] += 1
    return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def describe(corpus: Corpus) -> dict:
    """Counts that summarise a corpus (what ``causalgraph info`` prints).

    Returns a dict with ``statements``, ``causal_statements``, ``relations``,
    ``unique_relations`` (distinct cause/effect no-quantifier pairs over the
    corpus), the count of every label value, and the loader's
    normalisation and problem counts (and ``blank_rows``, the entirely
    blank spreadsheet rows skipped, for ClimateCause).  For PubMedCausal ``rows`` and
    ``pairs`` are given as well, and the labels are sententiality and
    causality type.

    Examples
    --------
    >>> from causalgraph.model import Corpus, Relation, Statement
    >>> c = Corpus("demo", [Statement("s1", "A causes B.", True, (Relation("a", "b"),))])
    >>> describe(c)["relations"]
    1
    """
    rels = corpus.relations
    out: dict = {
        "dataset": corpus.name,
        "source": corpus.source,
        "sha256": corpus.sha256,
        "statements": len(corpus),
        "causal_statements": sum(1 for s in corpus if s.causal),
        "relations": len(rels),
        # Distinct (cause, effect) pairs over the whole corpus: the paper's "unique relations".
        "unique_relations": len({(r.cause, r.effect) for r in rels}),
    }
    labels: dict = {}
    if corpus.name == "pubmedcausal":
        out["rows"] = len(corpus)
        out["pairs"] = len(rels)
        labels["sententiality"] = _count(r.sententiality for r in rels)
        labels["causality_type"] = _count(r.explicitness for r in rels)
    else:
        labels["correlation"] = _count(r.correlation for r in rels)
        labels["polarity"] = _count(r.polarity for r in rels)
        labels["explicitness"] = _count(r.explicitness for r in rels)
        labels["combined"] = _count(r.combined for r in rels)
        labels["nested"] = _count(r.nested for r in rels)
        labels["confidence"] = _count(r.confidence for r in rels)
    out["labels"] = labels
    rep = corpus.report
    out["labels_normalised"] = rep.get("labels_normalised", 0)
    out["labels_unknown"] = rep.get("labels_unknown", 0)
    out["labels_empty"] = rep.get("labels_empty", 0)
    if "blank_rows" in rep:
        # Blank spreadsheet rows hold nothing to load, but a row someone emptied
        # by mistake must still show up somewhere.
        out["blank_rows"] = rep["blank_rows"]
    out["problems"] = len(corpus.problems)
    return out
