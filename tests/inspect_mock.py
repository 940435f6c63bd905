"""inspect's ``mockllm`` answering causalgraph items with answers chosen per prompt (tests only).

An answer is fixed by the prompt's hash: the gold label's word (6 in 10),
another label's word (3 in 10) or ``?`` (nothing readable, 1 in 10), so a
test knows the label every answer means without causalgraph's parser.  Every
output carries its token usage: mockllm would otherwise count tokens with a
tokenizer it downloads.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Optional


def choice(prompt: str) -> int:
    """0–9, fixed by the prompt: 0–5 answer gold, 6–8 another label, 9 nothing readable."""
    return int(hashlib.sha256(prompt.encode("utf-8")).hexdigest(), 16) % 10


def planned_answer(task, item) -> tuple[str, Optional[str]]:
    """The answer text the mock gives for a label item, and the label it means (``None``: unreadable)."""
    c = choice(item.prompt)
    if c == 9:
        return "?", None
    if c <= 5:
        label = item.gold
    else:
        others = [lab for lab in task.labels if lab != item.gold]
        label = others[c % len(others)]
    return f"<Answer>{task.words(item.variant)[label]}</Answer>", label


def mock_model(answer_of_prompt: Callable[[str], str]):
    """``mockllm/model`` answering ``answer_of_prompt(prompt)`` (raise in it to make the sample fail)."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def generate(messages, tools, tool_choice, config):
        prompt = messages[-1].text
        out = ModelOutput.from_content(model="mockllm", content=answer_of_prompt(prompt))
        out.usage = ModelUsage(input_tokens=len(prompt) // 4, output_tokens=3, total_tokens=len(prompt) // 4 + 3)
        return out

    return get_model("mockllm/model", custom_outputs=generate)


def run_eval(task_obj, model, log_dir, **kwargs):
    """One inspect eval, no display; the log (its status checked unless ``fail_on_error`` is given)."""
    from inspect_ai import eval as inspect_eval

    log, = inspect_eval(task_obj, model=model, log_dir=str(log_dir), display="none", **kwargs)
    assert log.status == "success", log.error
    return log


def metrics_of(log) -> dict[str, float]:
    """The causalgraph scorer's figures in an inspect log."""
    (scores,) = log.results.scores
    return {k: m.value for k, m in scores.metrics.items()}
