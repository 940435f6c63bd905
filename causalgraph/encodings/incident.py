"""``incident``: GraphQA's incident lists for a causal graph (variant prefix ``INC``).

``In this causal graph:``, then one line per event in node order, ``Event "x" causes "a", "b".``
or ``Event "x" causes nothing.`` (with signs ``"a" (positive)``), events written as JSON strings
so that commas inside them stay apart.  The decoder is exact.

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> print(encode([("a", "b")], "incident"))
In this causal graph:
Event "a" causes "b".
Event "b" causes nothing.
>>> decode(encode([("a, b", "c")], "incident"), "incident").pairs
[('a, b', 'c')]
"""

from __future__ import annotations

import json
from typing import Optional, Sequence

from ..errors import ParseError
from .base import Edge, Encoding

__all__ = ["ENCODING"]

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



def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return _decode_incident(text)


ENCODING = Encoding("incident", _incident, prefix="INC", decoder=_decode, rank=80)
