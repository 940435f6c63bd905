"""Counts in words: ``1 item``, ``2 items``, ``1,973 rows`` — one rule for every message and page; and a
value found in a file as a message shows it (:func:`describe_found`).

Messages used to write ``{n} items`` whatever ``n`` was ("1 items", "1 configurations"); every count
a message or page prints goes through :func:`plural` instead.
"""

from __future__ import annotations

import math
from typing import Optional

__all__ = ["plural", "describe_found"]


def plural(n: int, singular: str, plural_form: Optional[str] = None) -> str:
    """``n`` with thousands separators and the noun in the number ``n`` asks for.

    Parameters
    ----------
    n
        The count.
    singular
        The noun for one (``"item"``, ``"distinct edge"``).
    plural_form
        The noun for any other count (default: ``singular + "s"``; pass it
        for irregular nouns, ``"batches"``, ``"cache hits"``).

    Examples
    --------
    >>> plural(1, "item"), plural(0, "item"), plural(1973, "row"), plural(2, "batch", "batches")
    ('1 item', '0 items', '1,973 rows', '2 batches')
    """
    return f"{n:,} {singular if n == 1 else (plural_form or singular + 's')}"


def describe_found(value: object) -> str:
    """A value found in a file as a message shows it: its JSON type, then the value (cut at 60 characters).

    Examples
    --------
    >>> describe_found(5), describe_found(True), describe_found([1, 2, 3]), describe_found(None)
    ('the number 5', 'the boolean true', 'a list [1, 2, 3]', 'null')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"the number {value!r}".replace("nan", "NaN").replace("inf", "Infinity")
    kind = {int: "the number", float: "the number", str: "the text", list: "a list", dict: "an object"}
    for t, word in kind.items():
        if type(value) is t:
            shown = repr(value)
            return f"{word} {shown if len(shown) <= 60 else shown[:57] + '...'}"
    return f"a {type(value).__name__} ({value!r})"
