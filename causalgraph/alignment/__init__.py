"""Aligning the events of a predicted causal graph to those of a gold graph, and scoring the aligned graph.

A model that writes "rising temperatures" where the gold says "warming" loses the node and every
edge through it when events match by exact name.  :mod:`~causalgraph.alignment.events` pairs the
predicted events with gold ones (exact, normalised, token overlap, embedding similarity; one-to-one),
and :mod:`~causalgraph.alignment.scores` renames the predicted graph accordingly and scores it:
the graph scores of :mod:`causalgraph.metrics.graph_scores` plus edge precision, recall and F1,
per statement and pooled with bootstrap intervals over statements.

The package holds no code of its own; each module is imported by name.
"""

__all__: list[str] = []
