"""``matrix``: a numbered event legend, then the adjacency matrix, rows causing columns (prefix ``MX``).

``Events:`` and one legend line per event in node order (the event as it is; as a JSON string when
it holds a line end or starts with ``"``), then the matrix: ``1``/``0``, or with signs
``+ - ~ ?`` (positive, negative, conflicting, unknown) and ``0``.  The decoder is exact.

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> print(encode([("a", "b")], "matrix"))
Events:
1. a
2. b
Adjacency matrix (row event causes column event; 1 = yes, 0 = no):
  1 2
1 0 1
2 0 0
>>> decode(encode([("a", "b")], "matrix"), "matrix").pairs
[('a', 'b')]
"""

from __future__ import annotations

import json
from typing import Optional, Sequence

from ..errors import ParseError
from .base import Edge, Encoding

__all__ = ["ENCODING"]

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



def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return _decode_matrix(text)


ENCODING = Encoding("matrix", _matrix, prefix="MX", decoder=_decode, rank=60)
