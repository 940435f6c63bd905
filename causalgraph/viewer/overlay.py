"""The overlay graph of one pair item: predicted events drawn on the gold events they align to.

An extraction or annotation item has gold and predicted cause–effect pairs.  Each side's spans
become events as ``evaluate-extraction --graphs`` makes them
(:class:`causalgraph.extraction.producer.SpanMerger` with the ``normalized`` rule: spans that
normalise alike are one event, named by its first span), and the predicted events are aligned to
the gold ones by :func:`causalgraph.alignment.events.align_events` — the alignment that
``compare-graphs --align`` and ``--alignment FILE`` report.  The overlay then holds

* one node per gold event: ``aligned`` (a predicted event is drawn on it, with the rule and score
  that aligned them), ``missing`` (no predicted event) or ``split`` (no predicted event of its own,
  but close to one another gold event holds);
* one node per predicted event left unaligned: ``unaligned`` (no gold event near it) or ``merge``
  (as close to a gold event another predicted event holds);
* the edges: a gold edge is ``matched`` when the aligned predicted graph has it, else ``gold``; a
  predicted edge the gold graph lacks is ``predicted``; a ``merge`` or ``split`` link joins a
  merged or split event to the node it would have aligned to.

Merges and splits never rename anything (the aligned graph is the one the graph scores score);
they are drawn so that the reader sees them.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..alignment.events import DEFAULT_RULE, EMBEDDING_THRESHOLD, TOKEN_THRESHOLD, align_events
from ..extraction.producer import SpanMerger

__all__ = ["NODE_KINDS", "EDGE_KINDS", "pair_events", "aligned_overlay"]

#: Kinds of the overlay's nodes.
NODE_KINDS = ("aligned", "missing", "split", "unaligned", "merge")
#: Kinds of the overlay's edges.
EDGE_KINDS = ("matched", "gold", "predicted", "merge", "split")


def pair_events(pairs: Sequence[Sequence[str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The events of one side's pairs and the pairs as edges between them (spans merged when they normalise alike).

    Examples
    --------
    >>> pair_events([("Heat", "drought"), ("the drought.", "crop loss")])
    (['Heat', 'drought', 'crop loss'], [('Heat', 'drought'), ('drought', 'crop loss')])
    """
    merger = SpanMerger("normalized")
    events: list[str] = []
    edges: list[tuple[str, str]] = []
    for cause, effect in pairs:
        a, b = merger.node(cause), merger.node(effect)
        for e in (a, b):
            if e not in events:
                events.append(e)
        if (a, b) not in edges:
            edges.append((a, b))
    return events, edges


def aligned_overlay(gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]], *, rule: str = DEFAULT_RULE,
                    token_threshold: float = TOKEN_THRESHOLD, embedding_threshold: float = EMBEDDING_THRESHOLD,
                    embedder: Any = None) -> dict[str, Any]:
    """The overlay of one item: events, alignment, nodes and edges (see the module's notes).

    Parameters
    ----------
    gold, predicted
        The item's ``(cause, effect)`` pairs.
    rule, token_threshold, embedding_threshold, embedder
        As :func:`causalgraph.alignment.events.align_events` takes them.

    Returns
    -------
    dict
        ``rule``; ``events`` (``gold``, ``predicted``); ``alignment`` (one row per event:
        ``predicted``, ``gold``, ``rule``, ``score``, as ``--alignment FILE`` writes them);
        ``counts`` (:meth:`~causalgraph.alignment.events.EventAlignment.counts`); ``nodes`` (``id``,
        ``side``, ``event``, ``kind``, ``gold``, ``predicted``, ``rule``, ``score``); ``edges``
        (``from``, ``to``, ``kind``, ``cause``, ``effect``: the names as the aligned graph has them).

    Examples
    --------
    >>> o = aligned_overlay([("warming", "sea ice loss")], [("Warming.", "loss of sea ice"), ("ice", "albedo")])
    >>> [(n["event"], n["kind"], n["predicted"], n["rule"]) for n in o["nodes"]]   # doctest: +NORMALIZE_WHITESPACE
    [('warming', 'aligned', 'Warming.', 'normalized'), ('sea ice loss', 'aligned', 'loss of sea ice', 'token'),
     ('ice', 'merge', 'ice', 'merge:token'), ('albedo', 'unaligned', 'albedo', None)]
    >>> [(e["cause"], e["effect"], e["kind"]) for e in o["edges"]]
    [('warming', 'sea ice loss', 'matched'), ('ice', 'albedo', 'predicted'), ('ice', 'sea ice loss', 'merge')]
    """
    g_events, g_edges = pair_events(gold)
    p_events, p_edges = pair_events(predicted)
    al = align_events(p_events, g_events, rule=rule, token_threshold=token_threshold,
                      embedding_threshold=embedding_threshold, embedder=embedder)
    held = {m.gold: m for m in al.matches}
    splits = {m.gold: m for m in al.splits}
    merges = {m.predicted: m for m in al.merges}
    mapping = al.mapping
    nodes: list[dict[str, Any]] = []
    gold_id: dict[str, int] = {}
    for g in g_events:
        m: Optional[Any] = held.get(g) or splits.get(g)
        kind = "aligned" if g in held else ("split" if g in splits else "missing")
        gold_id[g] = len(nodes)
        nodes.append({"id": len(nodes), "side": "gold", "event": g, "kind": kind, "gold": g,
                      "predicted": m.predicted if m is not None else None,
                      "rule": m.rule if m is not None else None, "score": m.score if m is not None else None})
    pred_id: dict[str, int] = {}
    for p in p_events:
        if p in mapping:
            pred_id[p] = gold_id[mapping[p]]
            continue
        m = merges.get(p)
        pred_id[p] = len(nodes)
        nodes.append({"id": len(nodes), "side": "predicted", "event": p, "kind": "merge" if m is not None else "unaligned",
                      "gold": m.gold if m is not None else None, "predicted": p,
                      "rule": m.rule if m is not None else None, "score": m.score if m is not None else None})
    renamed = [(mapping.get(a, a), mapping.get(b, b)) for a, b in p_edges]
    renamed_set, gold_set = set(renamed), set(g_edges)
    edges: list[dict[str, Any]] = []
    for a, b in g_edges:
        edges.append({"from": gold_id[a], "to": gold_id[b], "kind": "matched" if (a, b) in renamed_set else "gold",
                      "cause": a, "effect": b})
    seen: set = set()
    for (a, b), (ra, rb) in zip(p_edges, renamed):
        if (ra, rb) in gold_set or (ra, rb) in seen:
            continue
        seen.add((ra, rb))
        edges.append({"from": pred_id[a], "to": pred_id[b], "kind": "predicted", "cause": ra, "effect": rb})
    # The near misses, drawn as links: a merged predicted event to the gold event it would align to,
    # a split gold event to the node holding the predicted event it would align to.
    for m in al.merges:
        edges.append({"from": pred_id[m.predicted], "to": gold_id[m.gold], "kind": "merge", "cause": m.predicted,
                      "effect": m.gold})
    for m in al.splits:
        edges.append({"from": gold_id[m.gold], "to": pred_id[m.predicted], "kind": "split", "cause": m.gold,
                      "effect": m.predicted})
    rows = [{k: r[k] for k in ("predicted", "gold", "rule", "score")} for r in al.rows()]
    return {"rule": al.rule, "thresholds": dict(al.thresholds), "events": {"gold": g_events, "predicted": p_events},
            "alignment": rows, "counts": al.counts(), "nodes": nodes, "edges": edges}
