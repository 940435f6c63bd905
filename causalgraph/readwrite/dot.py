"""Graphviz DOT files: ``digraph { "a" -> "b" [correlation="negative"]; }``, every id quoted by
:func:`quote_id`, read back by :func:`read_dot` (pydot's parse, subgraphs included, ids unquoted by
:func:`unquote_id`).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SchemaError
from ._digraph import edge_labels

__all__ = ["quote_id", "unquote_id", "to_dot", "read_dot"]


def quote_id(name: str) -> str:
    """A DOT (and dagitty) quoted id: a backslash or a quote inside escaped, a line break written as ``\\n``.

    :func:`unquote_id` reads it back; it is the one escaping rule of the DOT and dagitty files.

    Examples
    --------
    >>> print(quote_id('say "hi"'))
    "say \\"hi\\""
    """
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r").replace("\n", "\\n") + '"'


def to_dot(graph) -> str:
    """Graphviz DOT text: ``digraph { "a" -> "b" [correlation="negative"]; }``, every id quoted.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> print(to_dot(compile_graph([Relation("a", "b")])), end="")
    digraph {
      "a";
      "b";
      "a" -> "b";
    }
    """
    lines = ["digraph {"]
    lines += [f"  {quote_id(n)};" for n in graph.nodes]
    for e in graph.edges:
        labels = edge_labels(e)
        attrs = (" [" + ", ".join(f"{k}={quote_id(v)}" for k, v in labels.items()) + "]") if labels else ""
        lines.append(f"  {quote_id(e.cause)} -> {quote_id(e.effect)}{attrs};")
    return "\n".join(lines) + "\n}\n"


def unquote_id(raw):
    """A DOT id as pydot returns it (raw, quotes and escapes kept) as the event name it spells.

    A quoted id loses its quotes and the escapes causalgraph's writer makes (``\\"``, ``\\\\``,
    ``\\n``, ``\\r``; any other backslash stays as written); a port (``"a":p``, ``a:p:n``) is no
    part of the name.  An unquoted or HTML id is the name as written.

    Examples
    --------
    >>> unquote_id('"say \\\\"hi\\\\""'), unquote_id('"a\\\\\\\\"'), unquote_id("node_1:port")
    ('say "hi"', 'a\\\\', 'node_1')
    """
    if not isinstance(raw, str):
        return raw
    if not raw.startswith('"'):
        # an unquoted id cannot hold ':', so what follows one is a port
        return raw.split(":", 1)[0] if not raw.startswith("<") else raw
    out, i = [], 1
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw) and raw[i + 1] in '"\\nr':
            out.append({"n": "\n", "r": "\r"}.get(raw[i + 1], raw[i + 1]))
            i += 2
            continue
        if ch == '"':
            break  # the closing quote; a port may follow
        out.append(ch)
        i += 1
    return "".join(out)


# Unquoted ``node``, ``graph`` and ``edge`` are DOT keywords (a default-attribute statement), which
# pydot lists as nodes of those names; a quoted "node" is an event.
_DOT_KEYWORDS = ("node", "graph", "edge")


def read_dot(path: "str | Path"):
    """A DOT file as a networkx graph, walked from pydot's parse (subgraphs included, names unescaped).

    networkx's ``read_dot`` strips every leading and trailing quote character from a name
    (``"say \\"hi\\""`` reads as ``say \\"hi\\``), drops edges inside subgraphs and skips a node
    named ``node``; and pydot prints a parse error to stdout.  So the parse is made here, its
    printout kept for the message, and the graph built from pydot's raw ids.
    """
    import contextlib
    import io

    import networkx as nx

    p = Path(path)
    try:
        import pydot
    except ImportError:
        raise SchemaError(f"{p}: reading DOT needs pydot (pip install pydot)") from None
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        graphs = pydot.graph_from_dot_data(text)
    if not graphs:
        # pydot printed the offending line, a caret and pyparsing's message; the message is the last line
        said = [line.strip() for line in printed.getvalue().splitlines() if line.strip()]
        raise SchemaError(f"{p}: cannot read as DOT ({said[-1] if said else 'no graph in the file'})")
    if len(graphs) > 1:
        raise SchemaError(f"{p}: the file holds {len(graphs)} graphs; expected one graph per file")
    top = graphs[0]
    if top.get_type() != "digraph":
        return nx.Graph()  # refused by the caller as undirected
    g = nx.DiGraph() if top.get_strict() else nx.MultiDiGraph()

    def ends(x) -> list:
        # an edge end is an id, or a subgraph ({a b}) standing for each of its nodes
        if isinstance(x, str):
            return [unquote_id(x)]
        return [unquote_id(n) for n in x.get("nodes", {})]

    def walk(graph) -> None:
        parts = [(n.obj_dict.get("sequence", 0), 0, n) for n in graph.get_node_list()]
        parts += [(e.obj_dict.get("sequence", 0), 1, e) for e in graph.get_edge_list()]
        parts += [(s.obj_dict.get("sequence", 0), 2, s) for s in graph.get_subgraph_list()]
        for _, kind, obj in sorted(parts, key=lambda t: (t[0], t[1])):
            if kind == 0:
                if obj.get_name() not in _DOT_KEYWORDS:
                    g.add_node(unquote_id(obj.get_name()), **{k: unquote_id(v) for k, v in obj.get_attributes().items()})
            elif kind == 1:
                attrs = {k: unquote_id(v) for k, v in obj.get_attributes().items()}
                for u in ends(obj.get_source()):
                    for v in ends(obj.get_destination()):
                        g.add_edge(u, v, **attrs)
            else:
                walk(obj)

    walk(top)
    return g
