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
``matrix``
    ``Events:`` and a numbered legend (one event a line, written as it is;
    as a JSON string when it holds a line end or starts with ``"``), then the
    adjacency matrix, rows causing columns (``1``/``0``; with signs ``+ - ~ ?``),
    events in node order.
``dot``
    Graphviz DOT: ``digraph {`` one ``"event";`` line per event, one
    ``"cause" -> "effect";`` line per edge, ``}``.  Every event is a quoted
    ID (so ``graph``, ``node`` or ``-1`` are events, not keywords) with its
    ``"`` escaped; an event Graphviz cannot read back from any quoted string
    (an odd run of backslashes before a ``"``, a line feed or its end; NUL; a
    lone surrogate) is refused.  (Graphviz's library, not the grammar, also
    takes any ID starting with ``%`` for an anonymous node of its own.)
``incident``
    GraphQA's incident lists for a causal graph: ``In this causal graph:``,
    then one line per event in node order, ``Event "x" causes "a", "b".`` or
    ``Event "x" causes nothing.``, events written as JSON strings so that
    commas inside them stay apart.

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

import bisect
import heapq
import json
import math
import re
from dataclasses import replace
from typing import Callable, Iterable, Optional, Sequence

from .errors import ConfigError, ParseError
from .graph import CausalGraph, compile_graph
from .model import Correlation, Relation, is_blank, unprintable_char

__all__ = ["ENCODINGS", "DECODABLE", "ORDERS", "PAPER_ENCODINGS", "encode", "decode", "ordered_edges", "check_order",
           "prompt_graph"]

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


# -- matrix: a numbered event legend, then the adjacency matrix (rows cause columns) -----------------

_MATRIX_MARKS = {"positive": "+", "negative": "-", "conflicting": "~", "unknown": "?"}
_MATRIX_KEY = {False: "1 = yes, 0 = no", True: "+ positive, - negative, ~ conflicting, ? unknown correlation, 0 no edge"}


def _legend_name(name: str) -> str:
    # Events are written as they are; one holding a line end (which would split its legend line) or
    # starting with a double quote (which would read as such a quoted name) is written as a JSON string.
    if "\n" in name or "\r" in name or name.startswith('"'):
        return json.dumps(name, ensure_ascii=False)
    return name


def _matrix(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if not nodes:
        return "Events: none"
    cell = {(c, e): (_MATRIX_MARKS[s] if signs else "1") for c, e, s in edges}
    w = len(str(len(nodes)))
    lines = ["Events:"]
    lines += [f"{i}. {_legend_name(x)}" for i, x in enumerate(nodes, start=1)]
    lines.append(f"Adjacency matrix (row event causes column event; {_MATRIX_KEY[signs]}):")
    lines.append(" " * w + " " + " ".join(str(j).rjust(w) for j in range(1, len(nodes) + 1)))
    for i, a in enumerate(nodes, start=1):
        lines.append(str(i).rjust(w) + " " + " ".join(cell.get((a, b), "0").rjust(w) for b in nodes))
    return "\n".join(lines)


# -- dot: Graphviz DOT, every event a double-quoted ID ------------------------------------------------
#
# Graphviz's scanner reads a quoted string as: \" -> ", \\ -> \\ (kept as two characters), backslash +
# line feed -> nothing (a continuation), any other character as itself (checked against Graphviz 2.43's
# `dot -Tjson` in tests/test_encoders_more.py).  Writing an event as it is with
# each " escaped is therefore exact, except where an odd run of backslashes meets a ", a line feed or
# the end of the event: no quoted string reads as that event, and it is refused.

_DOT_ODD_BACKSLASHES = re.compile(r'(?<!\\)(?:\\\\)*\\(?=["\n]|\Z)')


def _dot_id(name: str) -> str:
    if "\x00" in name:
        raise ConfigError(f"event {name!r} holds a NUL character (U+0000), which Graphviz ends a string at, "
                          f"so it has no DOT encoding")
    surrogate = next((ch for ch in name if "\ud800" <= ch <= "\udfff"), None)
    if surrogate is not None:
        raise ConfigError(f"event {name!r} holds a lone surrogate (U+{ord(surrogate):04X}), which no UTF-8 DOT "
                          f"file can hold, so it has no DOT encoding")
    if _DOT_ODD_BACKSLASHES.search(name):
        raise ConfigError(f"event {name!r} has an odd run of backslashes before a quote, a line feed or its "
                          f"end; a DOT quoted string keeps \\\\ as two characters and cannot hold it, so it has "
                          f"no DOT encoding")
    return '"' + name.replace('"', '\\"') + '"'


def _dot(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    lines = ["digraph {"]
    lines += [f"  {_dot_id(n)};" for n in nodes]
    for c, e, s in edges:
        attrs = f' [correlation="{s}"]' if signs else ""
        lines.append(f"  {_dot_id(c)} -> {_dot_id(e)}{attrs};")
    lines.append("}")
    return "\n".join(lines)


# -- incident: one line per event listing the events it causes (GraphQA's incident lists) -------------

_INCIDENT_HEAD = "In this causal graph:"
_INCIDENT_EMPTY = "In this causal graph there are no events."


def _incident(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if not nodes:
        return _INCIDENT_EMPTY
    q = lambda x: json.dumps(x, ensure_ascii=False)  # noqa: E731 -- quoted, so commas in events stay apart
    effects: dict[str, list[str]] = {n: [] for n in nodes}
    for c, e, s in edges:
        effects[c].append(f"{q(e)} ({s})" if signs else q(e))
    lines = [_INCIDENT_HEAD]
    for n in nodes:
        said = ", ".join(effects[n]) if effects[n] else "nothing"
        lines.append(f"Event {q(n)} causes {said}.")
    return "\n".join(lines)


_ENCODERS: dict[str, Callable[[list[str], list[Edge], bool], str]] = {
    "adjacency": _adjacency,
    "single-node": _single_node,
    "graphml": _graphml,
    "json": _json,
    "multinode": _multinode,
    "matrix": _matrix,
    "dot": _dot,
    "incident": _incident,
}

#: Names of the encodings, in registry order.
ENCODINGS = tuple(_ENCODERS)
DECODABLE = ("adjacency", "single-node", "graphml", "matrix", "dot", "incident")


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


#: The encodings of the ClimateCause paper's prompts (the others are causalgraph's).
PAPER_ENCODINGS = ("adjacency", "single-node", "graphml")


def prompt_graph(graph, encoding: str = "adjacency", *, order: str = "paper", signs: bool = False) -> str:
    """The graph text as prompts insert it for ``${graph}``.

    The paper's encodings keep the ClimateCause authors' punctuation: their
    prompts go on with ``". "`` after adjacency and GraphML text (GraphML
    keeps the writer's final newline, so ``"</graphml>\\n. "``), while
    single-node text already ends with a period.  Every other encoding spans
    lines or ends in a sentence of its own, so it stands on its own lines.

    Examples
    --------
    >>> prompt_graph([("a", "b")])
    '(a, b).'
    >>> prompt_graph([("a", "b")], "incident")
    '\\nIn this causal graph:\\nEvent "a" causes "b".\\nEvent "b" causes nothing.\\n'
    """
    text = encode(graph, encoding, order=order, signs=signs)
    if encoding in ("adjacency", "graphml"):
        return text + "."
    if encoding == "single-node":
        return text
    return "\n" + text + "\n"


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


# -- decoding matrix, DOT and incident text: exact by construction ----------------------------------

_MATRIX_READ = {"1": "unknown", **{mark: word for word, mark in _MATRIX_MARKS.items()}}


def _read_name(raw: str, where: str) -> str:
    """A legend name: a JSON string when it starts with a double quote, else as written."""
    if raw.startswith('"'):
        try:
            value, end = json.JSONDecoder().raw_decode(raw)
        except ValueError:
            raise ParseError(f"{where}: {raw!r} starts with a double quote but is not a JSON string") from None
        if end != len(raw) or not isinstance(value, str):
            raise ParseError(f"{where}: found {raw!r}; expected one JSON string and nothing after it")
        return value
    return raw


def _decode_matrix(text: str) -> tuple[list[str], list[Edge]]:
    lines = text.strip().split("\n")
    if lines == ["Events: none"]:
        return [], []
    if lines[0] != "Events:":
        raise ParseError(f"not matrix text: line 1 is {lines[0][:80]!r}, expected 'Events:'")
    nodes: list[str] = []
    i = 1
    while i < len(lines) and lines[i].startswith(f"{len(nodes) + 1}. "):
        nodes.append(_read_name(lines[i][len(f"{len(nodes) + 1}. "):], f"matrix legend line {i + 1}"))
        i += 1
    if i >= len(lines) or not lines[i].startswith("Adjacency matrix"):
        found = lines[i][:80] if i < len(lines) else "the end of the text"
        raise ParseError(f"matrix text line {i + 1}: found {found!r}; expected legend entry "
                         f"'{len(nodes) + 1}. <event>' or the 'Adjacency matrix (…):' line")
    header, rows = lines[i + 1:i + 2], lines[i + 2:]
    n = len(nodes)
    if not header or header[0].split() != [str(j) for j in range(1, n + 1)]:
        raise ParseError(f"matrix text line {i + 2}: found {header[0][:80] if header else ''!r}; expected the "
                         f"column numbers 1 to {n}")
    if len(rows) != n:
        raise ParseError(f"matrix text has {len(rows)} rows after its column numbers; expected {n}, one per event")
    edges: list[Edge] = []
    for r, row in enumerate(rows, start=1):
        cells = row.split()
        if len(cells) != n + 1 or cells[0] != str(r):
            raise ParseError(f"matrix text line {i + 2 + r}: found {row[:80]!r}; expected row number {r} "
                             f"and {n} cells")
        for c, cell in enumerate(cells[1:]):
            if cell == "0":
                continue
            if cell not in _MATRIX_READ:
                raise ParseError(f"matrix row {r}, column {c + 1}: found {cell!r}; expected 0, 1, +, -, ~ or ?")
            edges.append((nodes[r - 1], nodes[c], _MATRIX_READ[cell]))
    return nodes, edges


def _decode_incident(text: str) -> tuple[list[str], list[Edge]]:
    body = text.strip()
    if body == _INCIDENT_EMPTY:
        return [], []
    lines = body.split("\n")
    if lines[0] != _INCIDENT_HEAD:
        raise ParseError(f"not incident text: line 1 is {lines[0][:80]!r}, expected {_INCIDENT_HEAD!r}")
    dec = json.JSONDecoder()
    # Every event has its own line, in node order; an effect without one (text not written here) follows.
    subjects: dict[str, None] = {}
    nodes: dict[str, None] = {}
    edges: list[Edge] = []

    def string_at(line: str, pos: int, where: str) -> tuple[str, int]:
        try:
            value, end = dec.raw_decode(line, pos)
        except ValueError:
            value, end = None, pos
        if not isinstance(value, str):
            raise ParseError(f"{where}: expected a quoted event at character {pos + 1} of {line[:80]!r}")
        return value, end

    for k, line in enumerate(lines[1:], start=2):
        where = f"incident text line {k}"
        if not line.startswith("Event "):
            raise ParseError(f"{where}: found {line[:80]!r}; expected 'Event \"<event>\" causes …'")
        cause, pos = string_at(line, len("Event "), where)
        subjects.setdefault(cause, None)
        rest = line[pos:]
        if rest == " causes nothing.":
            continue
        if not rest.startswith(" causes ") or not rest.endswith("."):
            raise ParseError(f"{where}: found {rest[:80]!r} after the event; expected ' causes ….'")
        pos += len(" causes ")
        while True:
            effect, pos = string_at(line, pos, where)
            sign = "unknown"
            if line.startswith(" (", pos):
                close = line.find(")", pos)
                if close == -1:
                    raise ParseError(f"{where}: a correlation opened at character {pos + 2} is never closed")
                sign, pos = line[pos + 2:close], close + 1
            nodes.setdefault(effect, None)
            edges.append((cause, effect, sign))
            if line.startswith(", ", pos):
                pos += 2
                continue
            if pos == len(line) - 1:
                break
            raise ParseError(f"{where}: found {line[pos:pos + 40]!r} after an effect; expected ', ' or '.'")
    return list(subjects) + [n for n in nodes if n not in subjects], edges


# DOT tokens other than strings: blanks and comments, the edge operators, punctuation, names, numerals.
_DOT_TOKEN = re.compile(
    r"(?P<ws>\s+|//[^\n]*|/\*.*?\*/|^\#[^\n]*)"
    r"|(?P<edge>->|--)"
    r"|(?P<punct>[{}\[\];,=:+])"
    r"|(?P<num>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))"
    r"|(?P<name>[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*)",
    re.DOTALL | re.MULTILINE)
_DOT_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _dot_quoted(text: str, i: int) -> tuple[str, int]:
    """The value of the quoted string opening at ``text[i]`` and where it ends, read as Graphviz's
    scanner reads it: \\" is a quote, \\\\ stays two backslashes, a backslash before a line feed drops
    both, every other character is itself."""
    buf, j, n = [], i + 1, len(text)
    while True:
        if j >= n:
            raise ParseError(f"DOT text: a quoted string opened at character {i + 1} is never closed")
        c = text[j]
        if c == '"':
            return "".join(buf), j + 1
        if c == "\\" and j + 1 < n:
            nxt = text[j + 1]
            if nxt in '"\\':
                buf.append('"' if nxt == '"' else "\\\\")
                j += 2
                continue
            if nxt == "\n":
                j += 2
                continue
        buf.append(c)
        j += 1


def _dot_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value) tokens: ``id`` (quoted, HTML-like, name or numeral), ``kw`` (a keyword), or the mark."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    joining = False  # after "a" +, the next quoted string is joined to it
    while i < n:
        ch = text[i]
        if ch == '"':
            value, i = _dot_quoted(text, i)
            if joining:
                out[-1] = ("id", out[-1][1] + value)
                joining = False
            else:
                out.append(("id", value))
            continue
        if ch == "<":
            depth, j = 0, i
            while j < n:
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            if depth:
                raise ParseError(f"DOT text: an HTML-like string opened at character {i + 1} is never closed")
            out.append(("id", text[i + 1:j - 1]))
            i = j
            continue
        m = _DOT_TOKEN.match(text, i)
        if m is None:
            raise ParseError(f"DOT text: unexpected character {ch!r} at character {i + 1}")
        kind, value = m.lastgroup, m.group()
        i = m.end()
        if kind == "ws":
            continue
        if value == "+" and out and out[-1][0] == "id":
            joining = True
            continue
        if kind == "name" and value.lower() in _DOT_KEYWORDS:
            out.append(("kw", value.lower()))
        elif kind in ("name", "num"):
            out.append(("id", value))
        else:
            out.append((value, value))
    return out


def _decode_dot(text: str) -> tuple[list[str], list[Edge]]:
    toks = _dot_tokens(text)
    pos = 0

    def peek() -> tuple[str, str]:
        return toks[pos] if pos < len(toks) else ("end", "")

    def take(kind: str) -> str:
        nonlocal pos
        k, v = peek()
        if k != kind:
            raise ParseError(f"DOT text: found {v or 'the end'!r}; expected {kind}")
        pos += 1
        return v

    def attrs() -> dict[str, str]:
        nonlocal pos
        out: dict[str, str] = {}
        while peek()[0] == "[":
            pos += 1
            while peek()[0] != "]":
                key = take("id")
                take("=")
                out[key] = take("id")
                if peek()[0] in (",", ";"):
                    pos += 1
            pos += 1
        return out

    if peek() == ("kw", "strict"):
        pos += 1
    kind = take("kw")
    if kind == "graph":
        raise ParseError("DOT graph is undirected ('graph'); a causal graph is a 'digraph'")
    if kind != "digraph":
        raise ParseError(f"DOT text starts with {kind!r}; expected 'digraph'")
    if peek()[0] == "id":
        pos += 1
    take("{")
    nodes: dict[str, None] = {}
    edges: list[Edge] = []
    while peek()[0] != "}":
        k, v = peek()
        if k == "end":
            raise ParseError("DOT text ends before the closing '}'")
        if k in (";", ","):
            pos += 1
            continue
        if k == "kw" and v in ("graph", "node", "edge"):
            pos += 1
            attrs()
            continue
        if k in ("kw", "{"):
            raise ParseError("DOT text holds a subgraph; only node and edge statements are read")
        first = take("id")
        if peek()[0] == "=":  # a graph attribute: ID = ID
            pos += 1
            take("id")
            continue
        if peek()[0] == ":":
            raise ParseError(f"DOT text: node {first!r} has a port; ports are not read")
        chain = [first]
        while peek()[0] in ("->", "--"):
            if peek()[0] == "--":
                raise ParseError("DOT text holds an undirected edge '--'; a causal graph has directed edges '->'")
            pos += 1
            chain.append(take("id"))
        sign = attrs().get("correlation", "unknown")
        for x in chain:
            nodes.setdefault(x, None)
        edges.extend((a, b, sign) for a, b in zip(chain, chain[1:]))
    pos += 1
    if pos != len(toks):
        raise ParseError(f"DOT text continues after the closing '}}': {peek()[1]!r}")
    return list(nodes), edges


_EXACT_DECODERS = {"matrix": _decode_matrix, "dot": _decode_dot, "incident": _decode_incident}


def decode(text: str, encoding: str = "adjacency", *, signs: bool = False,
           nodes: Optional[Sequence[str]] = None, statement_id: Optional[str] = None) -> CausalGraph:
    """Read an adjacency, single-node, GraphML, matrix, DOT or incident encoding back into a graph.

    Parameters
    ----------
    text
        The encoded graph.
    encoding
        One of :data:`DECODABLE`.
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
    elif encoding in _EXACT_DECODERS:
        order, edges = _EXACT_DECODERS[encoding](text)
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
        if len(kept) != len(order):
            isolated = [n for n in order if n not in g]
            raise ParseError(f"{'GraphML' if encoding == 'graphml' else encoding} nodes {isolated!r} have no "
                             f"causal edge; a causal graph has no isolated events")
        changes["nodes"] = tuple(kept)
        changes["_index"] = {**g._index, "pos": {n: i for i, n in enumerate(kept)}}
    return replace(g, **changes) if changes else g
