"""Graphviz DOT files: ``digraph { "a" -> "b" [correlation="negative"]; }``, every id quoted by
:func:`quote_id`, read back by :func:`read_dot` (pydot's parse, subgraphs included, ids unquoted by
:func:`unquote_id`).

One escaping rule, Graphviz's own, serves every DOT text causalgraph writes or reads: these files, the
dagitty files (whose ids are quoted as DOT's) and the ``dot`` prompt encoding
(:mod:`causalgraph.encodings`), which writes its ids with :func:`quote_id` and reads them with
:func:`read_quoted`.  Graphviz's scanner reads a quoted string as: ``\\"`` a quote, ``\\\\`` kept as
two characters, a backslash before a line feed dropped with it (a continuation), every other
character as itself (line breaks included).  So an id is the name with each ``"`` escaped, and a name
that no quoted string spells (an odd run of backslashes before a quote, a line feed or its end; a NUL,
which ends Graphviz's C string; a lone surrogate, which UTF-8 cannot hold) is refused in one line.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import ConfigError, SchemaError
from ._digraph import edge_labels

__all__ = ["quote_id", "unquote_id", "read_quoted", "to_dot", "read_dot"]

_ODD_BACKSLASHES = re.compile(r'(?<!\\)(?:\\\\)*\\(?=["\n]|\Z)')


def quote_id(name: str) -> str:
    """A DOT (and dagitty) quoted id that Graphviz reads as ``name``: each ``"`` escaped, nothing else.

    The one escaping rule of DOT text (files, dagitty files and the ``dot`` prompt encoding);
    :func:`unquote_id` and :func:`read_quoted` read it back.  A name no quoted string spells is
    refused (:class:`~causalgraph.errors.ConfigError`, naming the character and why).

    Examples
    --------
    >>> print(quote_id('say "hi"'), quote_id("two\\nlines"), quote_id("C:\\\\temp"))
    "say \\"hi\\"" "two
    lines" "C:\\temp"
    >>> quote_id("C:\\\\")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: event 'C:\\\\' has an odd run of backslashes before a quote, a line feed or its end; a DOT quoted string keeps \\\\ as two characters and cannot hold it, so it has no DOT encoding
    """
    if "\x00" in name:
        raise ConfigError(f"event {name!r} holds a NUL character (U+0000), which Graphviz ends a string at, "
                          f"so it has no DOT encoding")
    surrogate = next((ch for ch in name if "\ud800" <= ch <= "\udfff"), None)
    if surrogate is not None:
        raise ConfigError(f"event {name!r} holds a lone surrogate (U+{ord(surrogate):04X}), which no UTF-8 DOT "
                          f"text can hold, so it has no DOT encoding")
    if _ODD_BACKSLASHES.search(name):
        raise ConfigError(f"event {name!r} has an odd run of backslashes before a quote, a line feed or its "
                          f"end; a DOT quoted string keeps \\\\ as two characters and cannot hold it, so it has no "
                          f"DOT encoding")
    return '"' + name.replace('"', '\\"') + '"'


def read_quoted(text: str, i: int) -> "tuple[str, int] | None":
    """The value of the quoted string opening at ``text[i]`` (a ``"``) and the index after its closing
    quote, read as Graphviz's scanner reads it; ``None`` when the string is never closed.

    Examples
    --------
    >>> read_quoted('"a \\\\"b\\\\\\\\" -> x', 0)
    ('a "b\\\\\\\\', 9)
    """
    buf, j, n = [], i + 1, len(text)
    while j < n:
        c = text[j]
        if c == '"':
            return "".join(buf), j + 1
        if c == "\\" and j + 1 < n:
            nxt = text[j + 1]
            if nxt == '"':
                buf.append('"')
                j += 2
                continue
            if nxt == "\\":
                buf.append("\\\\")
                j += 2
                continue
            if nxt == "\n":
                j += 2
                continue
        buf.append(c)
        j += 1
    return None


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
    """A DOT id as pydot returns it (raw, quotes and escapes kept) as the event name Graphviz reads.

    A quoted id is read by :func:`read_quoted` (``\\"`` a quote, ``\\\\`` two characters, a
    backslash-newline nothing); a port after it (``"a":p``, ``a:p:n``) is no part of the name.  An
    unquoted or HTML id is the name as written.

    Examples
    --------
    >>> unquote_id('"say \\\\"hi\\\\""'), unquote_id('"a\\\\\\\\"'), unquote_id("node_1:port")
    ('say "hi"', 'a\\\\\\\\', 'node_1')
    """
    if not isinstance(raw, str):
        return raw
    if not raw.startswith('"'):
        # an unquoted id cannot hold ':', so what follows one is a port
        return raw.split(":", 1)[0] if not raw.startswith("<") else raw
    read = read_quoted(raw, 0)
    # pydot hands over whole quoted strings; one left open is kept without its opening quote
    return read[0] if read is not None else raw[1:]


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
        # newline="": a carriage return inside a quoted id is part of the name, as Graphviz reads it
        with p.open(encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
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
