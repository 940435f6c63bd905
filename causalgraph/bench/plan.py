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
from ..datasets import load_corpus
from ..llm.choice_logprobs import choice_max_tokens
from ..llm.pricing import DEFAULT_PRICES, cost_usd
from ..errors import ConfigError
from ..graph.edits import check_edit
from ..llm.registry import split_spec, backend_class
from .config import check_method_backend
from .prepare import _with_edit, loglik_choices, loglik_variants

__all__ = ["plan_run", "PAPER_OUTPUT_TOKENS_PER_REQUEST", "CHARS_PER_TOKEN"]

PAPER_OUTPUT_TOKENS_PER_REQUEST = 9_880_620 / 34_303
CHARS_PER_TOKEN = 4.0


def plan_run(tasks: Sequence[str], model: str, *, variants: Optional[Sequence[str]] = None, data=None,
             output_tokens: float = PAPER_OUTPUT_TOKENS_PER_REQUEST, batch: bool = False,
             prices: Optional[dict] = None, count_tokens: Optional[Callable[[str], int]] = None,
             epochs: int = 1, prompts: Optional[str] = None, method: str = "generate",
             graph_edit: Optional[str] = None, named: bool = True, statement_sizes: bool = False,
             max_tokens: Optional[int] = None) -> list[dict]:
    """One row per task and variant: requests (items × ``epochs``), prompt characters, estimated tokens and cost.

    ``epochs`` is ``bench run --epochs``: every item asked that many times
    (the response cache serves none of the first run's samples).  ``prompts``
    is ``bench run --prompts``: the prompt catalog of tasks that offer one
    (``None``: each task's default).

    ``method="loglik"`` plans ``bench run --method loglik``: one request per
    item, whose input is the prompt plus every label's continuation and
    whose output is nothing; variants that ask for reasoning first are
    refused as the run refuses them (``variants=None`` plans the others), and
    so is a model that cannot score continuations.

    ``method="choice-logprobs"`` plans ``bench run --method choice-logprobs``:
    one chat request per item whose output is at most the longest choice's
    bytes in tokens (its ``max_tokens``); the run's probe request (one token, a
    one-line prompt) is not counted.

    ``max_tokens`` is ``bench run --max-tokens``: under ``choice-logprobs`` each
    request's ``max_tokens`` is then that, as the run sends it
    (:func:`~causalgraph.llm.choice_logprobs.choice_max_tokens`); under
    ``generate`` no request writes more, so ``output_tokens`` is capped at it;
    ``loglik`` refuses it, as the run does.

    ``graph_edit`` is ``bench run --graph-edit``: the variants are planned under
    that edit (``A_5`` → ``A_5.reverse``), their prompts showing the edited
    graphs; a task or variant that cannot take it is refused in the line
    ``bench run`` would print.  With ``named=False`` (the tasks were not
    named, ``--task all``) a task whose prompts hold no graph is left out
    instead, as ``export-dataset`` leaves it out.

    ``statement_sizes=True`` adds ``statement_sizes`` to each row: the planned
    items per statement (an item without a ``statement_id`` is its own
    statement), statements sorted by id; ``bench plan --power``
    sizes a paired comparison with them (``stats.power.plan_power``).

    Examples
    --------
    >>> rows = plan_run(["demo-yesno"], "openai/gpt-5.1-2025-11-13", variants=["v1"])   # doctest: +SKIP
    >>> rows[0]["requests"]                                                           # doctest: +SKIP
    874
    """
    if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 1:
        raise ConfigError(f"--epochs {epochs!r}: expected an integer >= 1")
    if method not in ("generate", "loglik", "choice-logprobs"):
        raise ConfigError(f"--method {method!r}: expected generate, loglik or choice-logprobs")
    if max_tokens is not None and (isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1):
        raise ConfigError(f"--max-tokens {max_tokens!r}: expected an integer >= 1")
    if max_tokens is not None and method == "loglik":
        raise ConfigError(f"--max-tokens {max_tokens} has no meaning under --method loglik, which generates nothing; "
                          "leave it out")
    edit = graph_edit if graph_edit is not None else "real"
    check_edit(edit)
    if method != "generate":
        if epochs != 1:
            raise ConfigError(f"--epochs {epochs} would {'score' if method == 'loglik' else 'read'} every item "
                              f"{epochs} times identically under --method {method}; leave it out")
        check_method_backend(model, method, backend_class(model))

    _, model_name = split_spec(model)
    prices = prices if prices is not None else DEFAULT_PRICES
    corpora: dict = {}
    rows = []
    for task in tasks:
        spec = get_task(task)
        key = spec.data_source(data)
        if key not in corpora:
            corpora[key] = load_corpus(key)
        if variants:
            vs = [spec.variant_id(v) for v in variants]
        elif method != "generate":
            vs = list(loglik_variants(spec))
        else:
            vs = list(spec.list_variants())
        if edit != "real":
            if "graph_edit" not in spec.item_options and not named:
                continue
            vs = _with_edit(spec, vs, edit)
        choices = loglik_choices(spec, vs) if method != "generate" else {}
        task_rows = []
        for v in vs:
            try:
                items = spec.items(corpora[key], spec.variant_id(v), prompts=prompts)
            except ConfigError as exc:
                if edit != "real" and not named and not task_rows and "graph edit" in str(exc):
                    break  # --task all: a task whose prompts show no graph (CorrI, CCR+ECI) is left out
                raise
            texts = [m["content"] for it in items for m in it.messages()] + \
                [c for c in choices.get(v, {}).values() for _ in items if method == "loglik"]
            chars = epochs * sum(len(t) for t in texts)
            tok_in = epochs * sum(count_tokens(t) for t in texts) if count_tokens else chars / CHARS_PER_TOKEN
            if method == "choice-logprobs":  # at most the max_tokens each request carries, by the run's own rule
                tok_out = choice_max_tokens(list(choices[v].values()), max_tokens) * len(items)
            elif method == "loglik":
                tok_out = 0
            else:
                per = output_tokens if max_tokens is None else min(output_tokens, max_tokens)
                tok_out = per * len(items) * epochs
            row = {"task": task, "variant": spec.variant_id(v), "requests": len(items) * epochs,
                   "prompt_chars": chars,
                   "input_tokens_est": round(tok_in), "output_tokens_est": round(tok_out),
                   "cost_usd_est": cost_usd(model_name, round(tok_in), round(tok_out), prices, batch=batch)}
            if statement_sizes:
                row["statement_sizes"] = _statement_sizes(items)
            task_rows.append(row)
        rows += task_rows
    if not rows and edit != "real":
        raise ConfigError(f"no task asked can show graph edit {edit!r} (their prompts hold no graph); nothing to plan")
    return rows


def _statement_sizes(items) -> list[int]:
    """Items per statement, statements sorted by id as ``stats power``'s pilots order them (the order in which
    ``statements_needed`` cycles the sizes); an item without a ``statement_id`` is its own statement."""
    counts: dict = {}
    for it in items:
        sid = (getattr(it, "meta", None) or {}).get("statement_id")
        key = str(sid) if sid is not None else str(it.id)
        counts[key] = counts.get(key, 0) + 1
    return [counts[k] for k in sorted(counts)]
