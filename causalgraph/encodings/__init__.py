"""Text encodings of causal graphs for prompts, and decoders back to graphs: one module each.

Every encoding is one module of this package holding an :class:`Encoding` record: its encoder,
its decoder (if the text can be read back), its variant-id prefix and the punctuation prompts put
around it.  The built-ins, in listing order (``encode(graph, name, order=…)``):

``adjacency`` (:mod:`~causalgraph.encodings.adjacency`, prefix ``A``)
    every edge as ``(cause, effect)``, joined by single spaces.
``single-node`` (:mod:`~causalgraph.encodings.single_node`, ``SN``)
    every edge as ``cause causes effect.``, joined by single spaces.
``graphml`` (:mod:`~causalgraph.encodings.graphml`, ``ML``)
    a GraphML document, byte for byte what networkx's ElementTree writer
    (``networkx.write_graphml_xml``) writes for a ``DiGraph`` holding the
    nodes and edges (XML-escaped, indented by two spaces, ending with a
    newline), written by causalgraph itself so that the bytes never depend on
    whether lxml is installed and so that data order can be kept.
``json`` (:mod:`~causalgraph.encodings.json`, ``J``)
    ``{event: {"causes": [effects…]}}`` for every event, in node order.
``multinode`` (:mod:`~causalgraph.encodings.multinode`, ``MN``)
    ``X causes A, B.`` per cause, joined by single spaces.
``matrix`` (:mod:`~causalgraph.encodings.matrix`, ``MX``)
    ``Events:`` and a numbered legend (one event a line, written as it is;
    as a JSON string when it holds a line end or starts with ``"``), then the
    adjacency matrix, rows causing columns (``1``/``0``; with signs ``+ - ~ ?``),
    events in node order.
``dot`` (:mod:`~causalgraph.encodings.dot`, ``DOT``)
    Graphviz DOT: ``digraph {`` one ``"event";`` line per event, one
    ``"cause" -> "effect";`` line per edge, ``}``; events Graphviz cannot read
    back from any quoted string are refused.
``incident`` (:mod:`~causalgraph.encodings.incident`, ``INC``)
    GraphQA's incident lists for a causal graph: ``In this causal graph:``,
    then one line per event in node order, ``Event "x" causes "a", "b".`` or
    ``Event "x" causes nothing.``, events written as JSON strings so that
    commas inside them stay apart.

A new encoding is one more module here defining ``ENCODING = Encoding(...)`` (found when the
package is imported), or, from code outside causalgraph, one call of :func:`register_encoding`.
``encode``, ``decode``, ``prompt_graph``, the variant ids (``A_5`` with a new encoding's prefix),
``get_task("ccr-member").items(…, encoding=…)`` and the structure tasks then take it up.

Edge order
    ``order="paper"`` (default) lists edges as the ClimateCause authors'
    prompts did: the iteration order of a networkx ``DiGraph`` built by
    calling ``add_edge(cause, effect)`` for every relation in data order,
    i.e. node by node in order of first appearance (as cause or effect), and
    for each node its effects in the order the pairs first appeared.
    ``order="data"`` lists edges in order of first appearance of each pair.
    Nodes are in order of first appearance under both.  The two orders differ
    for 16 of the 63 causal ClimateCause statements (docs/reproduction.md).

With ``signs=True`` every edge also carries its correlation
(``positive``/``negative``; ``conflicting`` when the relations of a pair
disagree, ``unknown`` when unannotated): ``(cause, effect, positive)``,
``cause causes effect (positive correlation).``, a GraphML edge attribute
``correlation``, a parallel ``"correlations"`` list in JSON, and
``X causes A (positive correlation), B (negative correlation).``

:func:`decode` reads adjacency, single-node, GraphML, matrix, DOT and incident text back into a
:class:`~causalgraph.graph.CausalGraph`.  Adjacency and single-node text is
ambiguous when events contain the separators (``", "``, ``" causes "``,
``") ("``, ``". "``); the decoder parses by dynamic programming over the
separator positions, keeps the parse with the most edges and raises
:class:`~causalgraph.errors.ParseError` if several parses remain.  Passing
the known events (``nodes=``) resolves such text exactly: every reading
between them counts, whatever its number of edges, and the text is decoded
only when it has one (else ``ParseError``; GraphML, matrix, DOT and incident
text keep any events apart).  Decoding takes
O(n log n) steps for a text of n characters (whatever the events hold), on
counts of at most n bits; with ``nodes=`` it looks only a few event lengths
ahead of each position (see :func:`decode`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

from ..errors import ConfigError, ParseError
from ..graph import CausalGraph, compile_graph
from ..model import Correlation, Relation
from .base import ORDERS, SIGN_WORDS, Edge, Encoding, check_order, graph_edges, graph_nodes, in_order, ordered_edges
from .._core.registry import did_you_mean
from .registry import (ENCODING_PREFIXES, ENCODINGS_REGISTRY, decodable_names, encoding_for_prefix, encoding_names,
                       get_encoding, register_encoding, unregister_encoding)

__all__ = ["Encoding", "Edge", "ENCODINGS", "DECODABLE", "ORDERS", "ENCODING_PREFIXES", "encode", "decode",
           "prompt_graph", "ordered_edges", "check_order", "register_encoding", "unregister_encoding",
           "get_encoding", "encoding_names", "decodable_names", "encoding_for_prefix"]


def __getattr__(name: str):
    # ENCODINGS and DECODABLE are read from the registry when asked, so that encodings registered
    # after this package was imported are in them.
    if name == "ENCODINGS":
        return encoding_names()
    if name == "DECODABLE":
        return decodable_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def encode(graph, encoding: str = "adjacency", *, signs: bool = False, order: str = "paper") -> str:
    """Encode a causal graph as prompt text.

    Parameters
    ----------
    graph
        A :class:`~causalgraph.graph.CausalGraph`, or a sequence of
        ``(cause, effect)`` / ``(cause, effect, sign)`` tuples.
    encoding
        One of :data:`ENCODINGS` (:func:`encoding_names`).
    signs
        Add each edge's correlation label.
    order
        ``"paper"`` (default: the edge order of the ClimateCause authors'
        prompts, see the module docstring) or ``"data"``.

    Examples
    --------
    >>> encode([("a", "b"), ("b", "c")])
    '(a, b) (b, c)'
    >>> encode([("a", "b"), ("b", "c")], "single-node")
    'a causes b. b causes c.'
    >>> encode([("a", "b"), ("c", "a"), ("a", "d")], "multinode")
    'a causes b, d. c causes a.'
    >>> encode([("a", "b"), ("c", "a"), ("a", "d")], order="data")
    '(a, b) (c, a) (a, d)'
    >>> encode([("a", "b", "negative")], "adjacency", signs=True)
    '(a, b, negative)'
    """
    enc = get_encoding(encoding)
    edges = graph_edges(graph)
    nodes = graph_nodes(graph, edges)
    text = ENCODINGS_REGISTRY.call(enc.name, "encoder", enc.encoder, nodes, in_order(edges, nodes, order), signs)
    if not isinstance(text, str):
        # A prompt is text: anything else (a plugin's list, None) is refused, naming the encoding.
        raise ENCODINGS_REGISTRY.refuse(enc.name, "encoder", text, "the graph as text (str)")
    return text


def prompt_graph(graph, encoding: str = "adjacency", *, order: str = "paper", signs: bool = False,
                 full_stop: bool = True) -> str:
    """The graph text as prompts insert it for ``${graph}``: the encoding's text within its punctuation.

    One rule for every task and catalog (docs/prompts.md, "Graph text in a
    prompt"): the encoding's :attr:`Encoding.punctuation` decides the line
    breaks, and the full stop after the graph comes from the template when
    the template has one.  The paper's encodings keep the ClimateCause
    authors' punctuation: their prompts go on with ``". "`` after adjacency
    and GraphML text (GraphML keeps the writer's final newline, so
    ``"</graphml>\\n. "``), while single-node text already ends with a
    period.  Every other encoding spans lines or ends in a sentence of its
    own, so it stands on its own lines.

    ``full_stop=False`` is for templates that write the full stop after
    ``${graph}`` themselves (the authors' ``are- ${graph}. Based on``): a
    trailing ``"."`` of the punctuation is left out and the line breaks are
    kept, so a matrix stands on its own lines there too
    (``"are- \\n<matrix>\\n. Based"``, as the authors' GraphML text does).

    Examples
    --------
    >>> prompt_graph([("a", "b")])
    '(a, b).'
    >>> prompt_graph([("a", "b")], full_stop=False)
    '(a, b)'
    >>> prompt_graph([("a", "b")], "incident")
    '\\nIn this causal graph:\\nEvent "a" causes "b".\\nEvent "b" causes nothing.\\n'
    >>> prompt_graph([("a", "b")], "incident", full_stop=False) == prompt_graph([("a", "b")], "incident")
    True
    """
    text = encode(graph, encoding, order=order, signs=signs)
    before, after = get_encoding(encoding).punctuation
    if not full_stop and after.endswith("."):
        after = after[:-1]
    return before + text + after


def decode(text: str, encoding: str = "adjacency", *, signs: bool = False,
           nodes: Optional[Sequence[str]] = None, statement_id: Optional[str] = None) -> CausalGraph:
    """Read an adjacency, single-node, GraphML, matrix, DOT or incident encoding back into a graph.

    Parameters
    ----------
    text
        The encoded graph.
    encoding
        One of :data:`DECODABLE` (:func:`decodable_names`).
    signs
        The text carries correlation signs (as written by ``encode(…, signs=True)``).
        GraphML signs are read from the ``correlation`` edge attribute whenever present.
    nodes
        Known events; makes adjacency and single-node text with separators
        inside events decodable.  Every reading between them counts, not
        only those with the most edges, so the text is returned as written
        or refused, never read as a different graph.
    statement_id
        Stored on the returned graph.

    Returns
    -------
    CausalGraph
        Nodes in order of first appearance, one relation per edge (with its
        correlation when known).

    Raises
    ------
    ParseError
        When the text cannot be read as edges (between the given nodes), or
        can be read in several ways with the most edges: the message gives
        their exact number (its order of magnitude beyond the 4,300 digits
        Python prints) and asks for ``nodes=``.

    Notes
    -----
    Without ``nodes=`` the work is O(n log n) for a text of n characters,
    also when events are full of separators; counting readings adds integer
    arithmetic on numbers of at most n bits.  With ``nodes=`` each position
    where an edge may start looks at the separators and closing marks within
    the longest event's length, O(n · w · L) for at most w of them in a
    window of L characters (linear for ordinary events).

    Examples
    --------
    >>> decode("(a, b) (b, c)").pairs
    [('a', 'b'), ('b', 'c')]
    >>> decode("x, y causes z.", "single-node").pairs
    [('x, y', 'z')]
    """
    known = decodable_names()
    if encoding not in known:
        raise ConfigError(f"cannot decode encoding {encoding!r}; expected one of {', '.join(known)}"
                          f"{did_you_mean(encoding, known)}")
    enc = get_encoding(encoding)
    order, edges = enc.decoder(text, signs=signs, nodes=nodes)
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
            raise ParseError(f"edge ({c!r}, {e!r}) has correlation {s!r}; expected one of {', '.join(SIGN_WORDS)}")
    g = compile_graph(relations)
    changes: dict = {}
    if statement_id is not None:
        changes["statement_id"] = statement_id
    if order is not None:
        # GraphML lists nodes before edges (and edges grouped by source), so the
        # document's node order is kept rather than the order edges mention them.
        kept = [n for n in order if n in g]
        if len(kept) != len(order):
            isolated = [n for n in order if n not in g]
            raise ParseError(f"{enc.shown_name} nodes {isolated!r} have no causal edge; a causal graph has no "
                             f"isolated events")
        changes["nodes"] = tuple(kept)
        changes["_index"] = {**g._index, "pos": {n: i for i, n in enumerate(kept)}}
    return replace(g, **changes) if changes else g
