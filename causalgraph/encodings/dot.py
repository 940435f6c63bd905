"""``dot``: Graphviz DOT, every event a double-quoted ID (variant prefix ``DOT``).

``digraph {``, one ``"event";`` line per event, one ``"cause" -> "effect";`` line per edge
(with signs ``[correlation="positive"]``), ``}``.  Every event is a quoted ID (so ``graph``,
``node`` or ``-1`` are events, not keywords) with its ``"`` escaped; an event Graphviz cannot
read back from any quoted string (an odd run of backslashes before a ``"``, a line feed or its
end; NUL; a lone surrogate) is refused.  (Graphviz's library, not the grammar, also takes any
ID starting with ``%`` for an anonymous node of its own.)  The decoder reads node and edge
statements of any DOT digraph.

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> print(encode([("a", "b")], "dot"))
digraph {
  "a";
  "b";
  "a" -> "b";
}
>>> decode('digraph { x -> y -> z }', "dot").pairs
[('x', 'y'), ('y', 'z')]
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from ..errors import ParseError
from ..readwrite.dot import quote_id, read_quoted
from .base import Edge, Encoding

__all__ = ["ENCODING"]

# -- dot: Graphviz DOT, every event a double-quoted ID ------------------------------------------------
#
# The ids are written and read by DOT's one escaping rule, Graphviz's own, which lives with the DOT
# files (causalgraph.readwrite.dot: quote_id, read_quoted): each " escaped, and an event no quoted
# string spells is refused (checked against Graphviz 2.43's `dot -Tjson` in
# tests/encodings/test_matrix_dot_incident.py).


def _dot(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    lines = ["digraph {"]
    lines += [f"  {quote_id(n)};" for n in nodes]
    for c, e, s in edges:
        attrs = f' [correlation="{s}"]' if signs else ""
        lines.append(f"  {quote_id(c)} -> {quote_id(e)}{attrs};")
    lines.append("}")
    return "\n".join(lines)



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
    read = read_quoted(text, i)
    if read is None:
        raise ParseError(f"DOT text: a quoted string opened at character {i + 1} is never closed")
    return read


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


def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return _decode_dot(text)


ENCODING = Encoding("dot", _dot, prefix="DOT", decoder=_decode, rank=70)
