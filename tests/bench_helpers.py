"""Shared by the runner tests: a yes/no task registered with hand-built items."""

from __future__ import annotations

from causalgraph.bench import Item
from causalgraph.bench.registry import TaskSpec, register_task

YN_TASK = "yn-test"


def yn_items(n: int = 12, variants=("v_1", "v_2")) -> list[Item]:
    """``n`` items per variant, three per statement, gold yes for even numbers."""
    return [Item(id=f"{YN_TASK}/{v}/q{i:03d}", task=YN_TASK, variant=v,
                 prompt=f"[{v}] Is {i} an even number? Answer Yes or No.", gold="yes" if i % 2 == 0 else "no",
                 meta={"statement_id": f"s{i // 3}", "event": f"number {i}"})
            for v in variants for i in range(n)]


def prompt_of(item: Item) -> str:
    """The text the stand-in server keys its fault script on."""
    return " ".join(m["content"] for m in item.messages())


register_task(TaskSpec(name=YN_TASK, labels=("yes", "no"), positive="yes",
                       build_items=lambda corpus, variant: [it for it in yn_items() if it.variant == variant],
                       list_variants=lambda: ["v_1", "v_2"],
                       answer_words=lambda v: {"yes": "Yes", "no": "No"},
                       description="test task"), replace=True)
