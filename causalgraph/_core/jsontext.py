"""Finding JSON inside free text, such as a model's answer.

Models wrap the JSON they are asked for in prose, code fences or reasoning,
and small ones break it.  Two scans serve every parser of the package
(the annotation answer in :mod:`causalgraph.annotation.answer`, extraction
tuples in :mod:`causalgraph.extraction.tuples`):

:func:`json_values`
    every JSON object or array that parses, left to right.  A value that
    parses is taken whole (the values nested in it are not listed again);
    where nothing parses the scan moves on by one character, so a value
    nested inside broken JSON, or written after an unmatched quote in the
    prose, is still found.
:func:`balanced_spans`
    the top-level ``{…}`` (or ``[…]``) substrings, balanced outside JSON
    strings, whether or not they parse: the pieces a repair step (trailing
    commas, Python literals) can work on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["JsonValue", "json_values", "balanced_spans"]

_CLOSERS = {"{": "}", "[": "]"}
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class JsonValue:
    """One JSON value found in a text.

    Attributes
    ----------
    value
        The parsed value: a ``dict`` for an object, a ``list`` for an array.
    start, end
        Where it was written: ``text[start:end]`` is its JSON text.
    """

    value: Any
    start: int
    end: int


def json_values(text: str, openers: str = "{[") -> list[JsonValue]:
    """Every JSON object or array written in ``text``, in the order they start.

    Parameters
    ----------
    text
        Any text.
    openers
        Which values to look for: ``"{"`` objects, ``"["`` arrays, or both
        (default).  A value of the other kind is not looked into: with
        ``openers="["`` an array inside an object is found on its own.

    Returns
    -------
    list of JsonValue
        Values that parse as strict JSON.  One that parses is taken whole,
        so values nested in it are not listed separately; a position where
        nothing parses is passed by one character, so a value nested in
        broken JSON is still found.

    Examples
    --------
    >>> [v.value for v in json_values('Answer: {"a": [1, 2]} and [3] but {broken {"b": null}')]
    [{'a': [1, 2]}, [3], {'b': None}]
    >>> [v.value for v in json_values('{"a": [1, 2]} and [3]', "[")]
    [[1, 2], [3]]
    """
    found: list[JsonValue] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in openers:
            try:
                value, end = _DECODER.raw_decode(text, i)
            except ValueError:  # JSONDecodeError, or a number too long to convert
                i += 1
                continue
            found.append(JsonValue(value, i, end))
            i = end
            continue
        i += 1
    return found


def balanced_spans(text: str, opener: str = "{") -> list[str]:
    """Top-level balanced ``{…}`` (or ``[…]``) substrings, skipping brackets inside JSON strings.

    The spans need not be JSON (``{'a': True,}`` is one), which is what a
    repair step needs; use :func:`json_values` for values that parse.
    Only the chosen kind of bracket is counted, and a span left open at the
    end of the text is not returned.

    Examples
    --------
    >>> balanced_spans("x {'a': True,} y {\\"b\\": \\"}\\"} {open")
    ["{'a': True,}", '{"b": "}"}']
    >>> balanced_spans("[1, [2]] and [3", "[")
    ['[1, [2]]']
    """
    closer = _CLOSERS[opener]
    out, depth, start, in_str, esc = [], 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == opener:
            if depth == 0:
                start = i
            depth += 1
        elif ch == closer and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start:i + 1])
    return out
