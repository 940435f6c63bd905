"""``adjacency``: every edge as ``(cause, effect)``, joined by single spaces.

With signs, ``(cause, effect, positive)``.  One of the ClimateCause paper's encodings (variant
prefix ``A``); its prompts go on with ``". "`` after the graph.  The decoder reads the text by
dynamic programming over the separators (:mod:`causalgraph.encodings._text`).

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> encode([("a", "b"), ("b", "c")], "adjacency")
'(a, b) (b, c)'
>>> decode("(a, b) (b, c)").pairs
[('a', 'b'), ('b', 'c')]
"""

from __future__ import annotations

from typing import Optional, Sequence

from ._text import decode_text
from .base import Edge, Encoding

__all__ = ["ENCODING"]


def _encode(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if signs:
        return " ".join(f"({c}, {e}, {s})" for c, e, s in edges)
    return " ".join(f"({c}, {e})" for c, e, _ in edges)


def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return None, decode_text(text, "adjacency", signs, nodes)


ENCODING = Encoding("adjacency", _encode, prefix="A", decoder=_decode, punctuation=("", "."), rank=10)
