"""dagitty model text: ``dag { "a" -> "b" }``, ids quoted as DOT quotes them (:func:`.dot.quote_id`).

dagitty has no edge attributes, so the edge labels are not written; a graph with a cycle is refused,
naming it.  :func:`read_dagitty` reads the ``dag`` models of dagitty's syntax: node statements and
chains of ``->``/``<-`` edges between quoted or bare ids, ``;`` or line breaks between statements,
``[...]`` attribute lists (positions, exposure, outcome) skipped; a bidirected (``<->``) or undirected
(``--``) edge is refused, as it is no cause-to-effect edge.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import SchemaError
from ._digraph import check_dag
from .dot import quote_id, unquote_id

__all__ = ["to_dagitty", "dagitty_text", "read_dagitty"]


def to_dagitty(graph) -> str:
    """dagitty model text: ``dag { "a" -> "b" }``; a graph with a cycle is refused, naming it.

    dagitty's syntax follows DOT's, with quoted variable ids; it has no edge attributes, so the
    labels are not written (use GML or GraphML to keep them).

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> print(to_dagitty(compile_graph([Relation("smoking", "tar"), Relation("tar", "cancer")])), end="")
    dag {
      "smoking"
      "tar"
      "cancer"
      "smoking" -> "tar"
      "tar" -> "cancer"
    }
    """
    check_dag(graph, "dagitty's dag")
    return dagitty_text(graph)


def dagitty_text(graph) -> str:
    """:func:`to_dagitty` without its cycle check: the writer of the ``dagitty`` format record, which
    :func:`causalgraph.readwrite.graph_text` checks (as every format marked ``dag``) before writing."""
    lines = ["dag {"] + [f"  {quote_id(n)}" for n in graph.nodes]
    lines += [f"  {quote_id(e.cause)} -> {quote_id(e.effect)}" for e in graph.edges]
    return "\n".join(lines) + "\n}\n"


_TOKEN = re.compile(
    r'(?P<ws>\s+|//[^\n]*|/\*.*?\*/)'
    r'|(?P<str>"(?:[^"\\]|\\.)*")'
    r'|(?P<arrow><->|->|<-|--)'
    r'|(?P<punct>[{}\[\];,=])'
    r'|(?P<id>[A-Za-z0-9_.\u0080-\U0010ffff]+)',
    re.DOTALL)


def _tokens(p: Path, text: str):
    """``(kind, text, line, column)`` of every token but blanks and comments."""
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        line = text.count("\n", 0, i) + 1
        column = i - (text.rfind("\n", 0, i) + 1) + 1
        if m is None:
            raise SchemaError(f"{p}: line {line}, column {column}: found {text[i]!r}; expected an id, a quoted "
                              "id, '->', '<-', a bracket or a separator of dagitty's syntax")
        if m.lastgroup != "ws":
            yield m.lastgroup, m.group(), line, column
        i = m.end()


def read_dagitty(path: "str | Path"):
    """A dagitty ``dag { … }`` file as a networkx ``MultiDiGraph``: nodes in order of first mention.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "m.dagitty"
    >>> _ = f.write_text('dag {\\n  x [exposure,pos="0,0"]\\n  "y z" <- x -> w\\n}\\n', encoding="utf-8")
    >>> g = read_dagitty(f)
    >>> list(g.nodes), [(u, v) for u, v, _ in g.edges]
    (['x', 'y z', 'w'], [('x', 'y z'), ('x', 'w')])
    """
    import networkx as nx

    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    toks = list(_tokens(p, text))

    def where(k: int) -> str:
        return f"line {toks[k][2]}, column {toks[k][3]}" if k < len(toks) else "the end of the file"

    def found(k: int) -> str:
        return repr(toks[k][1]) if k < len(toks) else "nothing"

    if len(toks) < 2 or toks[0][:2] != ("id", "dag") or toks[1][1] != "{":
        kind = toks[0][1] if toks else "nothing"
        raise SchemaError(f"{p}: found {kind!r} at the start; expected a dagitty model 'dag {{ … }}' (pdag, mag "
                          "and pag models hold edges that are not cause-to-effect)")
    g = nx.MultiDiGraph()
    prev, arrow, k = None, None, 2
    while k < len(toks):
        kind, tok, _, _ = toks[k]
        if kind in ("id", "str"):
            name = unquote_id(tok) if kind == "str" else tok
            g.add_node(name)
            if arrow is not None:
                g.add_edge(*((prev, name) if arrow == "->" else (name, prev)))
                arrow = None
            prev = name
        elif kind == "arrow":
            if tok in ("<->", "--"):
                raise SchemaError(f"{p}: {where(k)}: found {tok!r}; expected '->' or '<-' (a bidirected or undirected "
                                  "edge is not a cause-to-effect edge)")
            if prev is None or arrow is not None:
                raise SchemaError(f"{p}: {where(k)}: found {tok!r} with no id before it; expected an id")
            arrow = tok
        elif tok == "[":
            depth = 1
            while depth:
                k += 1
                if k >= len(toks):
                    raise SchemaError(f"{p}: the attribute list opened at {where(k)} is not closed; expected ']'")
                depth += {"[": 1, "]": -1}.get(toks[k][1], 0)
        elif tok in (";", ","):
            if arrow is not None:
                raise SchemaError(f"{p}: {where(k)}: found {tok!r} after {arrow!r}; expected an id")
            prev = None
        elif tok == "}":
            if arrow is not None:
                raise SchemaError(f"{p}: {where(k)}: found '}}' after {arrow!r}; expected an id")
            if k != len(toks) - 1:
                raise SchemaError(f"{p}: {where(k + 1)}: found {found(k + 1)} after the model's closing '}}'; "
                                  "expected one model per file")
            return g
        else:
            raise SchemaError(f"{p}: {where(k)}: found {tok!r}; expected an id, '->', '<-' or '}}'")
        k += 1
    raise SchemaError(f"{p}: the model is not closed; expected '}}' at the end of the file")
