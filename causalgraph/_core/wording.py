"""Counts in words: ``1 item``, ``2 items``, ``1,973 rows`` — one rule for every message and page.

Messages used to write ``{n} items`` whatever ``n`` was ("1 items", "1 configurations"); every count
a message or page prints goes through :func:`plural` instead.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["plural"]


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
