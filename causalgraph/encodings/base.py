"""The :class:`Encoding` record and the edge lists every encoder is handed.

An encoder never sees a :class:`~causalgraph.graph.CausalGraph`: :func:`causalgraph.encodings.encode`
hands it the events in node order and the edges as ``(cause, effect, sign)`` triples in the
asked edge order (:data:`ORDERS`), ``sign`` being ``positive``, ``negative``, ``conflicting``
or ``unknown`` (:data:`SIGN_WORDS`).  A decoder hands back the same shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..errors import ConfigError
from ..graph import CausalGraph
from ..model import is_blank

__all__ = ["Encoding", "Edge", "Encoder", "Decoder", "ORDERS", "SIGN_WORDS", "check_order", "ordered_edges",
           "graph_edges", "graph_nodes", "in_order"]

#: Edge orders: the ClimateCause authors' (networkx adjacency iteration) and data order.
ORDERS = ("paper", "data")

#: The correlation of an edge as encoders write it.
SIGN_WORDS = ("positive", "negative", "conflicting", "unknown")

#: One edge: (cause, effect, sign).
Edge = tuple[str, str, str]

#: ``encoder(nodes, edges, signs) -> text``: the events in node order, the edges in the asked order.
Encoder = Callable[[list[str], list[Edge], bool], str]

#: ``decoder(text, *, signs, nodes) -> (nodes or None, edges)``: the events in the text's own order
#: (``None`` to take the order edges mention them in) and the edges in text order.
Decoder = Callable[..., tuple[Optional[list[str]], list[Edge]]]


@dataclass(frozen=True)
class Encoding:
    """One text encoding of causal graphs: what :func:`~causalgraph.encodings.encode`, the prompts
    and the tasks need to know of it.

    Attributes
    ----------
    name
        What callers pass (``encode(graph, "matrix")``, ``--encoding matrix``).
    encoder
        ``encoder(nodes, edges, signs) -> str``: the events in node order, the ``(cause,
        effect, sign)`` edges in the asked edge order, and whether to write each edge's sign.
    prefix
        The variant-id prefix of prompts holding the graph in this encoding (``MX``: ``A_5``
        with a matrix is ``MX_5``); letters and digits, no ``_``.
    decoder
        ``decoder(text, *, signs, nodes) -> (nodes or None, edges)``, or ``None`` when the
        text cannot be read back.  ``nodes`` (given) are the known events, for encodings whose
        text is ambiguous without them; the returned nodes keep the document's order, and
        every one of them must have an edge.
    punctuation
        What goes before and after the text where a prompt inserts the graph
        (:func:`~causalgraph.encodings.prompt_graph`): the ClimateCause tables go on with
        ``". "`` after adjacency text, so adjacency has ``("", ".")``; text spanning lines
        stands on lines of its own, ``("\\n", "\\n")`` (the default).
    rank
        Place in listings (``ENCODINGS``, the structure tasks' variants, ``--encoding``
        choices): by rank, then name.  The built-ins take 10, 20, …; the default 1000 puts a
        new one after them.
    title
        How messages name the encoding (``GraphML``); default: ``name``.

    Examples
    --------
    >>> e = Encoding("pairs", lambda nodes, edges, signs: ";".join(f"{c}>{e}" for c, e, _ in edges), prefix="PR")
    >>> e.encoder(["a", "b"], [("a", "b", "unknown")], False), e.decodable
    ('a>b', False)
    """

    name: str
    encoder: Encoder
    prefix: str
    decoder: Optional[Decoder] = None
    punctuation: tuple[str, str] = ("\n", "\n")
    rank: int = 1000
    title: Optional[str] = None

    @property
    def decodable(self) -> bool:
        """Whether the text can be read back (:func:`~causalgraph.encodings.decode`)."""
        return self.decoder is not None

    @property
    def shown_name(self) -> str:
        """The name messages use."""
        return self.title or self.name


def _sign(edge) -> str:
    if edge.correlation is not None:
        return edge.correlation.value
    return "conflicting" if edge.conflicting_correlation else "unknown"


def graph_edges(graph) -> list[Edge]:
    """(cause, effect, sign) in data order, from a CausalGraph or (cause, effect[, sign]) tuples."""
    if isinstance(graph, CausalGraph):
        return [(e.cause, e.effect, _sign(e)) for e in graph.edges]
    out = []
    for i, pair in enumerate(graph, start=1):
        c, e = pair[0], pair[1]
        for role, value in (("cause", c), ("effect", e)):
            # compile_graph refuses blank events; pairs given directly must not slip past it
            if not isinstance(value, str) or is_blank(value):
                raise ConfigError(f"edge {i} ({c!r}, {e!r}), {role}: found {value!r}; expected an event name "
                                  f"(text that shows something)")
        out.append((c, e, pair[2] if len(pair) > 2 else "unknown"))
    return out


def graph_nodes(graph, edges: Sequence[Edge]) -> list[str]:
    """The events in node order: the graph's, or those of ``edges`` in order of first appearance."""
    if isinstance(graph, CausalGraph):
        return list(graph.nodes)
    seen: dict = {}
    for c, e, _ in edges:
        seen.setdefault(c, None)
        seen.setdefault(e, None)
    return list(seen)


def check_order(order: str) -> None:
    """Raise :class:`~causalgraph.errors.ConfigError` unless ``order`` is one of :data:`ORDERS`.

    Examples
    --------
    >>> check_order("data")
    >>> check_order("pap")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown edge order 'pap'; expected one of paper, data
    """
    if order not in ORDERS:
        raise ConfigError(f"unknown edge order {order!r}; expected one of {', '.join(ORDERS)}")


def in_order(edges: list[Edge], nodes: list[str], order: str) -> list[Edge]:
    """``edges`` (in data order) in edge order ``order``."""
    check_order(order)
    if order == "data":
        return edges
    # networkx keeps one adjacency dict per node in insertion order, so its edge
    # iteration is a stable sort of the data-order edges by the cause's node position.
    pos = {n: i for i, n in enumerate(nodes)}
    return sorted(edges, key=lambda edge: pos[edge[0]])


def ordered_edges(graph, order: str = "paper") -> list[tuple[str, str]]:
    """The (cause, effect) pairs of a graph in the given edge order.

    Parameters
    ----------
    graph
        A :class:`~causalgraph.graph.CausalGraph`, or a sequence of
        ``(cause, effect)`` tuples.
    order
        ``"paper"`` (node by node in order of first appearance, each node's
        effects in data order: what the ClimateCause authors' prompts list) or
        ``"data"`` (order of first appearance of each pair).

    Examples
    --------
    >>> ordered_edges([("a", "b"), ("c", "a"), ("a", "d")])
    [('a', 'b'), ('a', 'd'), ('c', 'a')]
    >>> ordered_edges([("a", "b"), ("c", "a"), ("a", "d")], "data")
    [('a', 'b'), ('c', 'a'), ('a', 'd')]
    """
    edges = graph_edges(graph)
    return [(c, e) for c, e, _ in in_order(edges, graph_nodes(graph, edges), order)]
