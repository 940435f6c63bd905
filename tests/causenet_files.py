"""CauseNet-shaped JSON Lines written by the tests (the public release's line layout, README of CauseNet)."""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path
from typing import Iterable, Optional, Sequence


def relation(cause: str, effect: str, sources: Sequence[tuple[str, Optional[str]]] = (), *,
             support: Optional[int] = None, sentence_as_object: bool = True) -> dict:
    """One line: ``sources`` are ``(type, sentence or None)``; sentences go in the release's payload object."""
    obj: dict = {"causal_relation": {"cause": {"concept": cause}, "effect": {"concept": effect}}}
    if support is not None:
        obj["support"] = support
    srcs = []
    for t, s in sources:
        payload: dict = {"wikipedia_page_id": "13109"}
        if s is not None:
            payload["sentence"] = {"surface": s, "tokens": s.split()} if sentence_as_object else s
        srcs.append({"type": t, "payload": payload})
    if sources:
        obj["sources"] = srcs
    return obj


def write(path: Path, lines: Iterable, compression: Optional[str] = None) -> Path:
    """Write objects (dumped) or raw strings one a line, plain, ``gzip`` or ``bz2``."""
    text = "".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines)
    opener = {None: open, "gzip": gzip.open, "bz2": bz2.open}[compression]
    with opener(path, "wt", encoding="utf-8") as f:
        f.write(text)
    return path
