"""CCR items over graphs of extracted (or gold) PubMedCausal pairs.

The ClimateCause chain tasks asked of another corpus: the extraction's
graph producer (:func:`causalgraph.extraction.producer.corpus_from_extraction`)
turns rows of cause–effect pairs into statements, and the CCR tasks of
:mod:`causalgraph.tasks.climatecause` build their items over them.  It
lives with the tasks because it builds items; the producer below it knows
no task.
"""

from __future__ import annotations

from ..extraction.producer import chain_rows, corpus_from_extraction
from ..model import Corpus
from .climatecause import items

__all__ = ["chain_items"]


def chain_items(source, task: str = "ccr-position", variant: str = "A_4", *, merge: str = "normalized",
                only_chain_rows: bool = True, rule: str = "path", **merge_options) -> list:
    """CCR items (chain membership or position) over graphs of extracted or gold PubMedCausal pairs.

    The items are the ClimateCause CCR tasks' (``ccr-member``,
    ``ccr-position``, ``ccr-eci-member``, ``ccr-eci-position``) with their
    prompt variants, built by :func:`causalgraph.tasks.climatecause.items` over the
    corpus of :func:`corpus_from_extraction`; ``only_chain_rows`` keeps the
    rows that hold a chain (most PubMedCausal rows hold a single pair).

    Examples
    --------
    >>> its = chain_items("pubmedcausal:test", "ccr-member", "A_4")  # doctest: +SKIP
    >>> sum(i.gold == "yes" for i in its), len(its)                  # doctest: +SKIP
    (117, 149)
    """
    corpus = source if isinstance(source, Corpus) and merge == "exact" and not merge_options \
        else corpus_from_extraction(source, merge=merge, **merge_options)
    if only_chain_rows:
        corpus = chain_rows(corpus, rule)
    return items(corpus, task, variant, rule=rule)
