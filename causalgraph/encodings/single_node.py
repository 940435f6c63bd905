"""``single-node``: every edge as ``cause causes effect.``, joined by single spaces.

With signs, ``cause causes effect (positive correlation).``.  One of the ClimateCause paper's
encodings (variant prefix ``SN``); the text already ends with a period, so prompts add nothing.
The decoder reads the text by dynamic programming over the separators
(:mod:`causalgraph.encodings._text`).

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> encode([("a", "b"), ("b", "c")], "single-node")
'a causes b. b causes c.'
>>> decode("x, y causes z.", "single-node").pairs
[('x, y', 'z')]
"""

from __future__ import annotations

from typing import Optional, Sequence

from ._text import decode_text
from .base import Edge, Encoding

__all__ = ["ENCODING"]


def _encode(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    if signs:
        return " ".join(f"{c} causes {e} ({s} correlation)." for c, e, s in edges)
    return " ".join(f"{c} causes {e}." for c, e, _ in edges)


def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return None, decode_text(text, "single-node", signs, nodes)


ENCODING = Encoding("single-node", _encode, prefix="SN", decoder=_decode, punctuation=("", ""), rank=20)
