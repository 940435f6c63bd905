"""Hand-made runs for the viewer tests: a toy task registered here (not a ClimateCause task), and runs of it
written by the tests' one toy-run builder (``bench_helpers.write_records``) with the outcomes each item was
given."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from causalgraph.taskkit.item import Item, item_id
from causalgraph.datasets import load_corpus
from causalgraph.tasks import Binary, Task, register_task

from bench_helpers import write_records


TOY = "viewer-toy"
VARIANTS = ("a", "b")


def toy_items(corpus, variant: str) -> list[Item]:
    """One item per statement: "is it causal?", asking about its first event."""
    out = []
    for s in corpus:
        event = s.relations[0].cause if s.relations else None
        out.append(Item(id=item_id(TOY, variant, s.id), task=TOY, variant=variant,
                        prompt=f"[{variant}] Is this statement causal? {s.text}", gold="yes" if s.causal else "no",
                        meta={"statement_id": s.id, **({"event": event} if event else {})},
                        system="Answer yes or no." if variant == "b" else None))
    return out


TOY_TASK = register_task(Task(name=TOY, answers=Binary(labels=("yes", "no"), positive="yes"), build_items=toy_items,
                              list_variants=lambda: list(VARIANTS), default_data="sample",
                              description="viewer test task"), replace=True)


def sample_corpus():
    return load_corpus("sample")


def record(item: Item, outcome: str, *, response: Optional[str] = None, sha: bool = True) -> dict:
    """The run line of ``item`` answered so that its outcome is ``outcome``.

    ``correct``/``wrong``: a parsed label equal to / different from gold; ``unparsed``: an answer
    no rule reads; ``error``: a failed request.
    """
    from causalgraph.llm.base import canonical_json
    import hashlib

    other = {"yes": "no", "no": "yes"}
    label = {"correct": item.gold, "wrong": other.get(item.gold, "no"), "unparsed": None, "error": None}[outcome]
    text = response if response is not None else (None if outcome == "error" else
                                                  "I cannot tell." if label is None else f"<Answer>{label}</Answer>")
    return {"task": item.task, "variant": item.variant, "item_id": item.id, "gold": item.gold, "meta": item.meta,
            "prompt_sha256": hashlib.sha256(canonical_json(item.messages()).encode()).hexdigest() if sha else None,
            "response": text, "label": label, "rule": "tag" if label is not None else None,
            "usage": {"prompt_tokens": 10, "completion_tokens": 2}, "cost_usd": 0.001 if outcome != "error" else None,
            "error": "HTTP 500: server error" if outcome == "error" else None, "attempts": 1}


def write_toy_run(path: Path, outcomes: dict, *, responses: Optional[dict] = None, model: str = "hand/made") -> Path:
    """A run of the toy task: ``outcomes[variant][statement id] = correct|wrong|unparsed|error``."""
    corpus = sample_corpus()
    recs = []
    for v, per in outcomes.items():
        for it in toy_items(corpus, v):
            if it.meta["statement_id"] in per:
                recs.append(record(it, per[it.meta["statement_id"]], response=(responses or {}).get((v, it.id))))
    return write_records(path, recs, task=TOY, variants=list(outcomes), model=model, dataset=_dataset(corpus))


def _dataset(corpus) -> dict:
    return {"name": "sample", "source": corpus.source, "sha256": corpus.sha256}


# Run A and run B over the same eight items; B differs from A on three items of variant a.
RUN_A = {"a": {"sample-001": "correct", "sample-002": "wrong", "sample-003": "unparsed", "sample-004": "correct"},
         "b": {"sample-001": "correct", "sample-002": "correct", "sample-003": "error", "sample-004": "wrong"}}
RUN_B = {"a": {"sample-001": "correct", "sample-002": "correct", "sample-003": "correct", "sample-004": "wrong"},
         "b": {"sample-001": "correct", "sample-002": "correct", "sample-003": "error", "sample-004": "wrong"}}




def write_toy_epoch_run(path: Path, outcomes: dict) -> Path:
    """A run of the toy task with epochs: ``outcomes[statement id] = [outcome of epoch 1, 2, …]`` (variant a)."""
    corpus = sample_corpus()
    epochs = max(len(v) for v in outcomes.values())
    recs = []
    for it in toy_items(corpus, "a"):
        for e, outcome in enumerate(outcomes.get(it.meta["statement_id"], []), start=1):
            recs.append({**record(it, outcome, response=f"epoch {e}: " + ("yes" if outcome == "correct" else "?")),
                         "epoch": e})
    return write_records(path, list(reversed(recs)), task=TOY, variants=["a"], model="hand/made",
                         dataset=_dataset(corpus), epochs=epochs, record_schema=2)
