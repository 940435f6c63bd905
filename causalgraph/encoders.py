"""Text encodings of causal graphs for prompts, and decoders back to graphs.

Encodings (``encode(graph, name)``; edges in data order):

``adjacency``
    every edge as ``(cause, effect)``, joined by single spaces.
``single-node``
    every edge as ``cause causes effect.``, joined by single spaces.
``graphml``
    the output of networkx's GraphML writer for a ``DiGraph`` holding the
    nodes and edges in data order (XML-escaped by the writer), without the
    writer's final newline.  The writer lists edges grouped by cause.
``json``
    ``{event: {"causes": [effects…]}}`` for every event, in node order.
``multinode``
    ``X causes A, B.`` per cause, joined by single spaces.

With ``signs=True`` every edge also carries its correlation
(``positive``/``negative``; ``conflicting`` when the relations of a pair
disagree, ``unknown`` when unannotated): ``(cause, effect, positive)``,
``cause causes effect (positive correlation).``, a GraphML edge attribute
``correlation``, a parallel ``"correlations"`` list in JSON, and
``X causes A (positive correlation), B (negative correlation).``

:func:`decode` reads adjacency, single-node and GraphML text back into a
:class:`~causalgraph.graph.CausalGraph`.  Adjacency and single-node text is
ambiguous when events contain the separators (``", "``, ``" causes "``,
``") ("``, ``". "``); the decoder parses by dynamic programming over the
separator positions, keeps the parse with the most edges and raises
:class:`~causalgraph.errors.ParseError` if several parses remain.  Passing
the known events (``nodes=``) resolves such text exactly.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Iterable, Optional, Sequence

from .errors import ConfigError, ParseError
from .graph import CausalGraph, compile_graph
from .model import Correlation, Relation

__all__ = ["ENCODINGS", "DECODABLE", "encode", "decode"]

ENCODINGS = ("adjacency", "single-node", "graphml", "json", "multinode")
DECODABLE = ("adjacency", "single-node", "graphml")

_SIGN_WORDS = ("positive", "negative", "conflicting", "unknown")


def _sign(edge) -> str:
    if edge.correlation is not None:
        return edge.correlation.value
    return "conflicting" if edge.conflicting_correlation else "unknown"


def _edges(graph) -> list[tuple[str, str, str]]:
    """(cause, effect, sign) in data order, from a CausalGraph or (cause, effect) pairs."""
    if isinstance(graph, CausalGraph):
        return [(e.cause, e.effect, _sign(e)) for e in graph.edges]
    out = []
    for pair in graph:
        c, e = pair[0], pair[1]
        out.append((c, e, pair[2] if len(pair) > 2 else "unknown"))
    return out


def _nodes(graph, edges) -> list[str]:
    if isinstance(graph, CausalGraph):
        return list(graph.nodes)
    seen: dict = {}
    for c, e, _ in edges:
        seen.setdefault(c, None)
        seen.setdefault(e, None)
    return list(seen)


def encode(graph, encoding: str = "adjacency", *, signs: bool = False) -> str:
    """Encode a causal graph as prompt text.

    Parameters
    ----------
    graph
        A :class:`~causalgraph.graph.CausalGraph`, or a sequence of
        ``(cause, effect)`` / ``(cause, effect, sign)`` tuples.
    encoding
        One of :data:`ENCODINGS`.
    signs
        Add each edge's correlation label.

    Examples
    --------
    >>> encode([("a", "b"), ("b", "c")])
    '(a, b) (b, c)'
    >>> encode([("a", "b"), ("b", "c")], "single-node")
    'a causes b. b causes c.'
    >>> encode([("a", "b"), ("a", "c")], "multinode")
    'a causes b, c.'
    >>> encode([("a", "b", "negative")], "adjacency", signs=True)
    '(a, b, negative)'
    """
    edges = _edges(graph)
    if encoding == "adjacency":
        if signs:
            return " ".join(f"({c}, {e}, {s})" for c, e, s in edges)
        return " ".join(f"({c}, {e})" for c, e, _ in edges)
    if encoding == "single-node":
        if signs:
            return " ".join(f"{c} causes {e} ({s} correlation)." for c, e, s in edges)
        return " ".join(f"{c} causes {e}." for c, e, _ in edges)
    if encoding == "multinode":
        grouped: dict[str, list[str]] = {}
        for c, e, s in edges:
            grouped.setdefault(c, []).append(f"{e} ({s} correlation)" if signs else e)
        return " ".join(f"{c} causes {', '.join(effects)}." for c, effects in grouped.items())
    if encoding == "json":
        nodes = _nodes(graph, edges)
        obj: dict[str, dict] = {n: {"causes": []} for n in nodes}
        for c, e, s in edges:
            obj[c]["causes"].append(e)
            if signs:
                obj[c].setdefault("correlations", []).append(s)
        if signs:
            for n in nodes:
                obj[n].setdefault("correlations", [])
        return json.dumps(obj, ensure_ascii=False)
    if encoding == "graphml":
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(_nodes(graph, edges))
        for c, e, s in edges:
            if signs:
                g.add_edge(c, e, correlation=s)
            else:
                g.add_edge(c, e)
        buf = io.BytesIO()
        nx.write_graphml(g, buf, encoding="utf-8")
        # The writer ends the document with a newline; drop it so that prompt
        # text can continue right after the closing tag ("</graphml>. Based …").
        return buf.getvalue().decode("utf-8").rstrip("\n")
    raise ConfigError(f"unknown encoding {encoding!r}; expected one of {', '.join(ENCODINGS)}")


# -- decoding ----------------------------------------------------------------

def _find_all(text: str, sub: str, start: int = 0) -> list[int]:
    out = []
    i = text.find(sub, start)
    while i != -1:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def _edge_parses(text: str, pos: int, fmt: str, signs: bool, known: Optional[set]) -> list[tuple[int, tuple]]:
    """Every way one edge can be read starting at ``pos``: (end position, (cause, effect, sign))."""
    if fmt == "adjacency":
        prefix, sep, close = "(", ", ", ")"
    else:
        prefix, sep, close = "", " causes ", "."
    if not text.startswith(prefix, pos):
        return []
    start = pos + len(prefix)
    out = []
    for k in _find_all(text, sep, start):
        cause = text[start:k]
        if not cause or (known is not None and cause not in known):
            continue
        estart = k + len(sep)
        for m in _find_all(text, close, estart):
            body = text[estart:m]
            after = m + len(close)
            if after != len(text) and not text.startswith(" ", after):
                continue
            sign = "unknown"
            if signs:
                tail = next((w for w in _SIGN_WORDS
                             if body.endswith((f", {w}" if fmt == "adjacency" else f" ({w} correlation)"))), None)
                if tail is None:
                    continue
                sign = tail
                body = body[: -len(f", {tail}" if fmt == "adjacency" else f" ({tail} correlation)")]
            if not body or (known is not None and body not in known):
                continue
            out.append((after, (cause, body, sign)))
    return out


def _decode_text(text: str, fmt: str, signs: bool, nodes: Optional[Iterable[str]]) -> list[tuple]:
    known = set(nodes) if nodes is not None else None
    n = len(text)
    # best[i] = (max edges parsable from i to the end, number of parses reaching that max, choice)
    best: list[Optional[tuple[int, int, Optional[tuple]]]] = [None] * (n + 1)
    best[n] = (0, 1, None)
    for i in range(n - 1, -1, -1):
        if i > 0 and text[i - 1] != " ":
            continue  # an edge starts at the beginning or after a space
        cand = None
        for end, edge in _edge_parses(text, i, fmt, signs, known):
            nxt = end + 1 if end < n else end
            tail = best[nxt]
            if tail is None:
                continue
            score = tail[0] + 1
            if cand is None or score > cand[0]:
                cand = (score, tail[1], (edge, nxt))
            elif score == cand[0]:
                cand = (score, cand[1] + tail[1], cand[2])
        best[i] = cand
    if not text.strip():
        return []
    if best[0] is None:
        where = "" if known is None else " between the given nodes"
        shown = text if len(text) <= 80 else text[:80] + "…"
        expected = "'(cause, effect)' groups" if fmt == "adjacency" else "'cause causes effect.' sentences"
        raise ParseError(f"cannot read {fmt} text as edges{where}: found {shown!r}, expected {expected} "
                         f"separated by single spaces")
    if best[0][1] > 1:
        raise ParseError(f"{fmt} text can be read in {best[0][1]} ways (events contain separators); "
                         f"pass nodes= with the known events to decode it exactly")
    out, i = [], 0
    while i < n:
        edge, i = best[i][2]
        out.append(edge)
    return out


def _decode_graphml(text: str) -> list[tuple]:
    import networkx as nx

    try:
        g = nx.parse_graphml(text)
    except Exception as exc:  # networkx raises several XML / networkx error types
        raise ParseError(f"not valid GraphML: {exc}") from None
    if not g.is_directed():
        raise ParseError("GraphML graph is undirected; expected edgedefault=\"directed\"")
    return list(g.nodes), [(c, e, d.get("correlation", "unknown")) for c, e, d in g.edges(data=True)]


def decode(text: str, encoding: str = "adjacency", *, signs: bool = False,
           nodes: Optional[Sequence[str]] = None, statement_id: Optional[str] = None) -> CausalGraph:
    """Read an adjacency, single-node or GraphML encoding back into a graph.

    Parameters
    ----------
    text
        The encoded graph.
    encoding
        ``"adjacency"``, ``"single-node"`` or ``"graphml"``.
    signs
        The text carries correlation signs (as written by ``encode(…, signs=True)``).
        GraphML signs are read from the ``correlation`` edge attribute whenever present.
    nodes
        Known events; makes adjacency and single-node text with separators
        inside events decodable.
    statement_id
        Stored on the returned graph.

    Returns
    -------
    CausalGraph
        Nodes in order of first appearance, one relation per edge (with its
        correlation when known).

    Examples
    --------
    >>> decode("(a, b) (b, c)").pairs
    [('a', 'b'), ('b', 'c')]
    >>> decode("x, y causes z.", "single-node").pairs
    [('x, y', 'z')]
    """
    order = None
    if encoding == "graphml":
        order, edges = _decode_graphml(text)
    elif encoding in ("adjacency", "single-node"):
        edges = _decode_text(text, encoding, signs, nodes)
    else:
        raise ConfigError(f"cannot decode encoding {encoding!r}; expected one of {', '.join(DECODABLE)}")
    relations = []
    for c, e, s in edges:
        if s == "conflicting":
            # Both signs, so the rebuilt edge is flagged conflicting again.
            relations.append(Relation(cause=c, effect=e, correlation=Correlation.POSITIVE))
            relations.append(Relation(cause=c, effect=e, correlation=Correlation.NEGATIVE))
        elif s in ("positive", "negative"):
            relations.append(Relation(cause=c, effect=e, correlation=Correlation(s)))
        elif s == "unknown":
            relations.append(Relation(cause=c, effect=e))
        else:
            raise ParseError(f"edge ({c!r}, {e!r}) has correlation {s!r}; expected one of {', '.join(_SIGN_WORDS)}")
    g = compile_graph(relations)
    changes: dict = {}
    if statement_id is not None:
        changes["statement_id"] = statement_id
    if order is not None:
        # GraphML lists nodes before edges (and edges grouped by source), so the
        # document's node order is kept rather than the order edges mention them.
        kept = [n for n in order if n in g]
        if len(kept) != len(g.nodes):
            isolated = [n for n in order if n not in g]
            raise ParseError(f"GraphML nodes {isolated!r} have no causal edge; a causal graph has no isolated events")
        changes["nodes"] = tuple(kept)
        changes["_index"] = {**g._index, "pos": {n: i for i, n in enumerate(kept)}}
    return replace(g, **changes) if changes else g
