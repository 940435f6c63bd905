"""Text encodings of causal graphs for prompts, and decoders back to graphs.

Encodings (``encode(graph, name, order=…)``):

``adjacency``
    every edge as ``(cause, effect)``, joined by single spaces.
``single-node``
    every edge as ``cause causes effect.``, joined by single spaces.
``graphml``
    a GraphML document, byte for byte what networkx's ElementTree writer
    (``networkx.write_graphml_xml``) writes for a ``DiGraph`` holding the
    nodes and edges (XML-escaped, indented by two spaces, ending with a
    newline), written by causalgraph itself so that the bytes never depend on
    whether lxml is installed and so that data order can be kept.
``json``
    ``{event: {"causes": [effects…]}}`` for every event, in node order.
``multinode``
    ``X causes A, B.`` per cause, joined by single spaces.

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

:func:`decode` reads adjacency, single-node and GraphML text back into a
:class:`~causalgraph.graph.CausalGraph`.  Adjacency and single-node text is
ambiguous when events contain the separators (``", "``, ``" causes "``,
``") ("``, ``". "``); the decoder parses by dynamic programming over the
separator positions, keeps the parse with the most edges and raises
:class:`~causalgraph.errors.ParseError` if several parses remain.  Passing
the known events (``nodes=``) resolves such text exactly: every reading
between them counts, whatever its number of edges, and the text is decoded
only when it has one (else ``ParseError``; GraphML keeps any events apart).  Decoding takes
O(n log n) steps for a text of n characters (whatever the events hold), on
counts of at most n bits; with ``nodes=`` it looks only a few event lengths
ahead of each position (see :func:`decode`).
"""

from __future__ import annotations

import bisect
import heapq
import json
import math
from dataclasses import replace
from typing import Callable, Iterable, Optional, Sequence

from .errors import ConfigError, ParseError
from .graph import CausalGraph, compile_graph
from .model import Correlation, Relation, is_blank, unprintable_char

__all__ = ["ENCODINGS", "DECODABLE", "ORDERS", "encode", "decode", "ordered_edges", "check_order"]

#: Edge orders: the ClimateCause authors' (networkx adjacency iteration) and data order.
ORDERS = ("paper", "data")

_SIGN_WORDS = ("positive", "negative", "conflicting", "unknown")

Edge = tuple[str, str, str]


def _sign(edge) -> str:
    if edge.correlation is not None:
        return edge.correlation.value
    return "conflicting" if edge.conflicting_correlation else "unknown"


def _edges(graph) -> list[Edge]:
    """(cause, effect, sign) in data order, from a CausalGraph or (cause, effect) pairs."""
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


def _nodes(graph, edges) -> list[str]:
    if isinstance(graph, CausalGraph):
        return list(graph.nodes)
    seen: dict = {}
    for c, e, _ in edges:
        seen.setdefault(c, None)
        seen.setdefault(e, None)
    return list(seen)


def check_order(order: str) -> None:
    """Raise :class:`~causalgraph.errors.ConfigError` unless ``order`` is one of :data:`ORDERS`."""
    if order not in ORDERS:
        raise ConfigError(f"unknown edge order {order!r}; expected one of {', '.join(ORDERS)}")


def _in_order(edges: list[Edge], nodes: list[str], order: str) -> list[Edge]:
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
    edges = _edges(graph)
    return [(c, e) for c, e, _ in _in_order(edges, _nodes(graph, edges), order)]


# -- the encoders: one function per encoding, registered in _ENCODERS ----------------------

def _adjacency(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if signs:
        return " ".join(f"({c}, {e}, {s})" for c, e, s in edges)
    return " ".join(f"({c}, {e})" for c, e, _ in edges)


def _single_node(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if signs:
        return " ".join(f"{c} causes {e} ({s} correlation)." for c, e, s in edges)
    return " ".join(f"{c} causes {e}." for c, e, _ in edges)


def _multinode(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    grouped: dict[str, list[str]] = {}
    for c, e, s in edges:
        grouped.setdefault(c, []).append(f"{e} ({s} correlation)" if signs else e)
    return " ".join(f"{c} causes {', '.join(effects)}." for c, effects in grouped.items())


def _json(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    obj: dict[str, dict] = {n: {"causes": []} for n in nodes}
    for c, e, s in edges:
        obj[c]["causes"].append(e)
        if signs:
            obj[c].setdefault("correlations", []).append(s)
    if signs:
        for n in nodes:
            obj[n].setdefault("correlations", [])
    return json.dumps(obj, ensure_ascii=False)


def _xml_attr(value: str) -> str:
    bad = unprintable_char(value)
    if bad:
        raise ConfigError(f"event {value!r} holds {bad!r} (U+{ord(bad):04X}), a character XML "
                          f"cannot hold, so it has no GraphML encoding")
    # ElementTree's attribute escaping, in its order, so the bytes equal networkx's writer
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#09;"))


_GRAPHML_HEAD = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')


def _graphml(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    # Written here rather than through networkx: its writer always groups edges by cause (no
    # data order) and writes lxml's slightly different bytes whenever lxml is installed.
    out = [_GRAPHML_HEAD]
    if signs and edges:
        out.append('  <key id="d0" for="edge" attr.name="correlation" attr.type="string" />\n')
    if not nodes:
        out.append('  <graph edgedefault="directed" />\n</graphml>\n')
        return "".join(out)
    out.append('  <graph edgedefault="directed">\n')
    for n in nodes:
        out.append(f'    <node id="{_xml_attr(n)}" />\n')
    for c, e, s in edges:
        head = f'    <edge source="{_xml_attr(c)}" target="{_xml_attr(e)}"'
        if signs:
            out.append(f'{head}>\n      <data key="d0">{s}</data>\n    </edge>\n')
        else:
            out.append(f"{head} />\n")
    out.append("  </graph>\n</graphml>\n")
    return "".join(out)


_ENCODERS: dict[str, Callable[[list[str], list[Edge], bool], str]] = {
    "adjacency": _adjacency,
    "single-node": _single_node,
    "graphml": _graphml,
    "json": _json,
    "multinode": _multinode,
}

#: Names of the encodings, in registry order.
ENCODINGS = tuple(_ENCODERS)
DECODABLE = ("adjacency", "single-node", "graphml")


def encode(graph, encoding: str = "adjacency", *, signs: bool = False, order: str = "paper") -> str:
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
    fn = _ENCODERS.get(encoding)
    if fn is None:
        raise ConfigError(f"unknown encoding {encoding!r}; expected one of {', '.join(ENCODINGS)}")
    edges = _edges(graph)
    nodes = _nodes(graph, edges)
    return fn(nodes, _in_order(edges, nodes, order), signs)


# -- decoding ----------------------------------------------------------------
#
# An edge of adjacency text is ``(`` cause ``, `` effect [``, `` sign] ``)``, one of single-node text
# cause `` causes `` effect [`` (`` sign `` correlation)``] ``.``; edges are separated by one space.
# Events may hold the separators themselves, so the text is read by dynamic programming over the
# positions where an edge can start (the beginning and every position after a space), from the end
# of the text back to its beginning: best[i] = (most edges that read text[i:], number of readings
# with that many edges, how the first edge of one of them ends).  A reading of one edge from i is a
# pair (k, m): a separator at k ends the cause, a closing mark at m ends the effect.

_FORMS = {"adjacency": ("(", ", ", ")"), "single-node": ("", " causes ", ".")}


def _sign_tail(fmt: str, word: str) -> str:
    return f", {word}" if fmt == "adjacency" else f" ({word} correlation)"


def _find_all(text: str, sub: str) -> list[int]:
    """Every start of ``sub`` in ``text``, overlapping ones included (" causes causes " holds two)."""
    out = []
    i = text.find(sub)
    while i != -1:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def _edge_ends(text: str, fmt: str, signs: bool) -> list[tuple[int, int, str, int]]:
    """Every closing mark that can end an edge: (position m, length of the sign tail before it, sign,
    where the next edge starts).  The mark must be followed by a space or the end of the text and,
    with ``signs``, preceded by a sign tail."""
    close = _FORMS[fmt][2]
    n = len(text)
    tails = [(w, _sign_tail(fmt, w)) for w in _SIGN_WORDS] if signs else [("unknown", "")]
    out = []
    for m in _find_all(text, close):
        after = m + len(close)
        if after != n and text[after] != " ":
            continue
        # No tail is a suffix of another, so at most one of them ends at m.
        found = next(((w, t) for w, t in tails if text.endswith(t, 0, m)), None)
        if found is not None:
            out.append((m, len(found[1]), found[0], after + 1 if after < n else n))
    return out


def _edge_starts(text: str) -> list[int]:
    """Positions where an edge may start, descending: the beginning and every position after a space."""
    n = len(text)
    return sorted({0} | {j + 1 for j in _find_all(text, " ") if j + 1 < n}, reverse=True)


def _best_without_nodes(text: str, fmt: str, signs: bool) -> tuple[dict, dict]:
    """best[i] for every edge start i when any text may be an event.

    Any non-empty text is a cause, so reading one edge from a start i
    (cause from s = i + len(prefix)) with its effect closed at m is possible
    once some separator k has s < k <= T(m), where T(m) = m - len(sign tail)
    - len(separator) - 1 leaves a non-empty effect; and then every such k
    gives a different reading.  The number of readings of text[i:] with the
    most edges is therefore Σ cnt(m)·(Q(T(m)) - Q(s)) over the ends m with
    the best tail, Q(x) being the number of separators at or before x.  Ends
    are kept in one running aggregate (best score, Σ cnt·Q(T), Σ cnt): the
    sweep runs from the end of the text, an end joins a heap once the start
    after it is solved, and joins the aggregate once the first separator
    after s, which only moves left, is at or before its T(m).  Each start
    and each end is handled once: O(n log n) steps for a text of n
    characters, on integers of at most n bits.
    """
    prefix, sep, _ = _FORMS[fmt]
    n = len(text)
    seps = _find_all(text, sep)
    by_next: dict[int, list[tuple[int, int, str]]] = {}
    for m, tail, sign, nxt in _edge_ends(text, fmt, signs):
        by_next.setdefault(nxt, []).append((m, tail, sign))
    best: dict[int, tuple] = {n: (0, 1, None)}
    waiting: list[tuple[int, int]] = []  # heap of (-T(m), m): ends whose tail is solved
    # m -> (T(m), edges read from m's start on, readings of its tail, next start, sign tail length, sign)
    info: dict[int, tuple[int, int, int, int, int, str]] = {}
    top = [0, 0, 0, None]  # best score among joined ends, Σ cnt·Q(T), Σ cnt over those ends, one of them

    def solved(p: int) -> None:
        for m, tail, sign in by_next.get(p, ()):
            t = m - tail - len(sep) - 1
            info[m] = (t, best[p][0] + 1, best[p][1], p, tail, sign)
            heapq.heappush(waiting, (-t, m))

    solved(n)
    for i in _edge_starts(text):
        if text.startswith(prefix, i):
            s = i + len(prefix)
            j = bisect.bisect_left(seps, s + 1)
            first = seps[j] if j < len(seps) else n
            while waiting and -waiting[0][0] >= first:
                _, m = heapq.heappop(waiting)
                t, score, cnt = info[m][:3]
                if score > top[0]:
                    top[:] = [score, cnt * bisect.bisect_right(seps, t), cnt, m]
                elif score == top[0]:
                    top[1] += cnt * bisect.bisect_right(seps, t)
                    top[2] += cnt
            if top[3] is not None:
                # every joined end m has T(m) >= first > s, so each adds cnt·(Q(T(m)) - Q(s)) >= cnt
                best[i] = (top[0], top[1] - bisect.bisect_right(seps, s) * top[2], (first, top[3]))
                solved(i)
    return best, info


def _edge_at(text: str, fmt: str, i: int, first: int, m: int, info: dict) -> tuple[tuple, int]:
    """The one reading of an edge from i when its count is 1: the first separator, the kept end."""
    prefix, sep, _ = _FORMS[fmt]
    _, _, _, nxt, tail, sign = info[m]
    return (text[i + len(prefix):first], text[first + len(sep):m - tail], sign), nxt


def _best_with_nodes(text: str, fmt: str, signs: bool, known: set) -> dict:
    """best[i] for every edge start i when only the given events may be read.

    Here every reading counts, whatever its number of edges: the events are
    known, so an event holding ``") ("`` is as likely as two edges, and the
    text's own reading (always one of them when the events are the graph's)
    is returned only when it is the only one.  A cause read from s ends at a
    separator at most ``L`` characters later (L = the longest event) and an
    effect ends within L plus a sign tail, so
    each start looks at separators and ends inside that window only, and
    the effects after each separator are found once: O(n · w · L) steps for
    a text of n characters with at most w separators or closing marks in a
    window of L characters.
    """
    prefix, sep, _ = _FORMS[fmt]
    n = len(text)
    known = {x for x in known if x}  # an empty cause or effect is never read
    longest = max(map(len, known), default=0)
    seps = _find_all(text, sep)
    ends = _edge_ends(text, fmt, signs)
    end_pos = [e[0] for e in ends]
    reach = longest + max((len(_sign_tail(fmt, w)) for w in _SIGN_WORDS), default=0)
    effects: dict[int, list[tuple[int, str, str]]] = {}

    def effects_from(e: int) -> list[tuple[int, str, str]]:
        if e not in effects:
            found = []
            for x in range(bisect.bisect_right(end_pos, e), bisect.bisect_right(end_pos, e + reach)):
                m, tail, sign, nxt = ends[x]
                if m - tail > e and text[e:m - tail] in known:
                    found.append((nxt, text[e:m - tail], sign))
            effects[e] = found
        return effects[e]

    best: dict[int, tuple] = {n: (0, 1, None)}
    for i in _edge_starts(text):
        if not text.startswith(prefix, i):
            continue
        s = i + len(prefix)
        cand = None
        for x in range(bisect.bisect_right(seps, s), bisect.bisect_right(seps, s + longest)):
            k = seps[x]
            cause = text[s:k]
            if cause not in known:
                continue
            for nxt, effect, sign in effects_from(k + len(sep)):
                tail = best.get(nxt)
                if tail is None:
                    continue
                if cand is None:
                    cand = (tail[0] + 1, tail[1], ((cause, effect, sign), nxt))
                else:
                    cand = (max(cand[0], tail[0] + 1), cand[1] + tail[1], cand[2])
        if cand is not None:
            best[i] = cand
    return best


def _how_many(count: int) -> str:
    """A count of readings for a message: its exact digits, or its order of magnitude where Python
    refuses to print them (integers of more than 4,300 digits by default)."""
    try:
        return str(count)
    except ValueError:
        shift = count.bit_length() - 60
        exponent = math.log10(count >> shift) + shift * math.log10(2)
        return f"about {10 ** (exponent % 1):.2f}e{int(exponent)}"


def _decode_text(text: str, fmt: str, signs: bool, nodes: Optional[Iterable[str]]) -> list[tuple]:
    if not text.strip():
        return []
    n = len(text)
    if nodes is None:
        best, info = _best_without_nodes(text, fmt, signs)
    else:
        best = _best_with_nodes(text, fmt, signs, set(nodes))
    if 0 not in best:
        where = "" if nodes is None else " between the given nodes"
        shown = text if len(text) <= 80 else text[:80] + "…"
        expected = "'(cause, effect)' groups" if fmt == "adjacency" else "'cause causes effect.' sentences"
        raise ParseError(f"cannot read {fmt} text as edges{where}: found {shown!r}, expected {expected} "
                         f"separated by single spaces")
    if best[0][1] > 1 and nodes is None:
        raise ParseError(f"{fmt} text can be read in {_how_many(best[0][1])} ways (events contain separators); "
                         f"pass nodes= with the known events to decode it exactly")
    if best[0][1] > 1:
        raise ParseError(f"{fmt} text can be read in {_how_many(best[0][1])} ways between the given nodes "
                         f"(their events contain separators); encode such graphs as GraphML, which keeps "
                         f"every event apart")
    # One reading in all: every start along it has exactly one reading too.
    out, i = [], 0
    while i < n:
        if nodes is None:
            edge, i = _edge_at(text, fmt, i, *best[i][2], info)
        else:
            edge, i = best[i][2]
        out.append(edge)
    return out


_GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"


def _decode_graphml(text: str) -> tuple[list[str], list[Edge]]:
    """Nodes and edges in document order (networkx's reader would regroup edges by cause)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ParseError(f"not valid GraphML: {exc}") from None
    ns = _GRAPHML_NS if root.tag.startswith(_GRAPHML_NS) else ""
    if root.tag != f"{ns}graphml":
        raise ParseError(f"not valid GraphML: the root element is <{root.tag}>, expected <graphml>")
    graph = root.find(f"{ns}graph")
    if graph is None:
        raise ParseError("not valid GraphML: no <graph> element")
    if graph.get("edgedefault") != "directed":
        raise ParseError(f"GraphML graph is undirected (edgedefault={graph.get('edgedefault')!r}); "
                         f"expected edgedefault=\"directed\"")
    corr_keys = {k.get("id") for k in root.iter(f"{ns}key")
                 if k.get("attr.name") == "correlation" and k.get("for") in ("edge", "all")}
    nodes: dict[str, None] = {}
    for n in graph.findall(f"{ns}node"):
        if n.get("id") is None:
            raise ParseError("not valid GraphML: a <node> has no id")
        nodes.setdefault(n.get("id"), None)
    edges: list[Edge] = []
    for e in graph.findall(f"{ns}edge"):
        c, t = e.get("source"), e.get("target")
        if c is None or t is None:
            raise ParseError("not valid GraphML: an <edge> lacks its source or target")
        if e.get("directed") == "false":
            raise ParseError(f"GraphML edge ({c!r}, {t!r}) is undirected; a causal graph has directed edges")
        sign = next(((d.text or "") for d in e.findall(f"{ns}data") if d.get("key") in corr_keys), "unknown")
        nodes.setdefault(c, None)
        nodes.setdefault(t, None)
        edges.append((c, t, sign))
    return list(nodes), edges


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
