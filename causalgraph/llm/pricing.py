"""Prices in USD per million tokens, to put a cost on a run.

The built-in table holds OpenAI's list prices for the models this project
uses (standard tier; the Batch API costs half).  Prices change: pass your own
table with ``--prices FILE`` (JSON ``{"model prefix": {"input": USD, "output":
USD}}`` per million tokens) or :func:`load_prices`.  The longest matching
prefix of the model name wins.  Local servers, transformers, llama.cpp and
mocks cost nothing unless a table you pass names their model.
"""

from __future__ import annotations

import json
import os
from typing import Mapping, Optional

from ..errors import ConfigError

__all__ = ["DEFAULT_PRICES", "BATCH_DISCOUNT", "load_prices", "price_for", "cost_usd"]

#: USD per 1M tokens (input, output), standard tier, as listed by OpenAI in 2025.
DEFAULT_PRICES: dict[str, dict[str, float]] = {
    "gpt-5.1": {"input": 1.25, "output": 10.00},
    "gpt-5": {"input": 1.25, "output": 10.00},
    "gpt-5-mini": {"input": 0.25, "output": 2.00},
    "gpt-5-nano": {"input": 0.05, "output": 0.40},
    "gpt-4.1": {"input": 2.00, "output": 8.00},
    "gpt-4.1-mini": {"input": 0.40, "output": 1.60},
    "gpt-4o": {"input": 2.50, "output": 10.00},
    "gpt-4o-mini": {"input": 0.15, "output": 0.60},
}

#: Share of the standard price the Batch API charges.
BATCH_DISCOUNT = 0.5


def load_prices(path: Optional[str | os.PathLike] = None, *, base: Optional[Mapping] = None) -> dict[str, dict[str, float]]:
    """The default table updated with the entries of a JSON file.

    Examples
    --------
    >>> load_prices()["gpt-5.1"]
    {'input': 1.25, 'output': 10.0}
    """
    table = {k: dict(v) for k, v in (base or DEFAULT_PRICES).items()}
    if path is None:
        return table
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:  # ValueError: invalid JSON, or bytes that are not UTF-8
        raise ConfigError(f"price table {path}: cannot read it ({' '.join(str(exc).split())})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"price table {path}: expected a JSON object of model prefix -> {{input, output}}")
    for model, entry in data.items():
        if not isinstance(entry, dict) or not {"input", "output"} <= set(entry):
            raise ConfigError(f"price table {path}: entry {model!r} is {entry!r}; expected {{\"input\": USD per 1M "
                              "tokens, \"output\": USD per 1M tokens}")
        try:
            table[model] = {"input": float(entry["input"]), "output": float(entry["output"])}
        except (TypeError, ValueError):
            raise ConfigError(f"price table {path}: entry {model!r} has non-numeric prices {entry!r}") from None
    return table


def price_for(model: str, prices: Mapping[str, Mapping[str, float]]) -> Optional[Mapping[str, float]]:
    """The entry of the longest prefix of ``model`` in ``prices``, or ``None``."""
    best = None
    for prefix in prices:
        if model.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return prices[best] if best is not None else None


def cost_usd(model: str, prompt_tokens: Optional[int], completion_tokens: Optional[int],
             prices: Mapping[str, Mapping[str, float]], *, batch: bool = False) -> float:
    """Cost of one request in USD (0 when the model has no price).

    Examples
    --------
    >>> round(cost_usd("gpt-5.1-2025-11-13", 1_000_000, 100_000, DEFAULT_PRICES), 4)
    2.25
    >>> round(cost_usd("gpt-5.1-2025-11-13", 1_000_000, 100_000, DEFAULT_PRICES, batch=True), 4)
    1.125
    """
    entry = price_for(model, prices)
    if entry is None:
        return 0.0
    c = ((prompt_tokens or 0) * entry["input"] + (completion_tokens or 0) * entry["output"]) / 1e6
    return c * BATCH_DISCOUNT if batch else c
