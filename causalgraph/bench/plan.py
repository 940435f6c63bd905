"""Plan a run before paying for it: requests, prompt size and an estimate of the cost.

Input tokens are estimated from characters (4 characters per token, the
usual rule of thumb for English with OpenAI tokenizers) unless a
``count_tokens`` function is given; output tokens are an assumption the
caller states (the default, 288 per request, is the paper's own figure:
9,880,620 completion tokens over 34,303 requests, App. G.2).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from ..tasks import get_task

__all__ = ["plan_run", "PAPER_OUTPUT_TOKENS_PER_REQUEST", "CHARS_PER_TOKEN"]

PAPER_OUTPUT_TOKENS_PER_REQUEST = 9_880_620 / 34_303
CHARS_PER_TOKEN = 4.0


def plan_run(tasks: Sequence[str], model: str, *, variants: Optional[Sequence[str]] = None, data=None,
             output_tokens: float = PAPER_OUTPUT_TOKENS_PER_REQUEST, batch: bool = False,
             prices: Optional[dict] = None, count_tokens: Optional[Callable[[str], int]] = None,
             epochs: int = 1, prompts: Optional[str] = None) -> list[dict]:
    """One row per task and variant: requests (items × ``epochs``), prompt characters, estimated tokens and cost.

    ``epochs`` is ``bench run --epochs``: every item asked that many times
    (the response cache serves none of the first run's samples).  ``prompts``
    is ``bench run --prompts``: the prompt catalog of tasks that offer one
    (``None``: each task's default).

    Examples
    --------
    >>> rows = plan_run(["demo-yesno"], "openai/gpt-5.1-2025-11-13", variants=["v1"])   # doctest: +SKIP
    >>> rows[0]["requests"]                                                           # doctest: +SKIP
    874
    """
    from ..datasets import load_corpus
    from ..llm.pricing import DEFAULT_PRICES, cost_usd
    from ..errors import ConfigError
    from ..llm.registry import split_spec

    if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 1:
        raise ConfigError(f"--epochs {epochs!r}: expected an integer >= 1")

    _, model_name = split_spec(model)
    prices = prices if prices is not None else DEFAULT_PRICES
    corpora: dict = {}
    rows = []
    for task in tasks:
        spec = get_task(task)
        key = data if data is not None else spec.default_data
        if key not in corpora:
            corpora[key] = load_corpus(key)
        vs = list(variants) if variants else spec.list_variants()
        for v in vs:
            items = spec.items(corpora[key], spec.variant_id(v), prompts=prompts)
            chars = epochs * sum(len(m["content"]) for it in items for m in it.messages())
            tok_in = epochs * sum(count_tokens(m["content"]) for it in items for m in it.messages()) \
                if count_tokens else chars / CHARS_PER_TOKEN
            tok_out = output_tokens * len(items) * epochs
            rows.append({"task": task, "variant": spec.variant_id(v), "requests": len(items) * epochs,
                         "prompt_chars": chars,
                         "input_tokens_est": round(tok_in), "output_tokens_est": round(tok_out),
                         "cost_usd_est": cost_usd(model_name, round(tok_in), round(tok_out), prices, batch=batch)})
    return rows
