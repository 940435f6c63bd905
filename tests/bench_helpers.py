"""Shared by the runner and statistics tests: a yes/no task registered with hand-built items, and
hand-written run directories."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

from causalgraph.bench import Item
from causalgraph.tasks import Binary, Task, register_task

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


#: The repository root (put on the subprocess's PYTHONPATH).
ROOT = Path(__file__).resolve().parents[1]

# A finder that refuses the named top-level packages, as if they were not installed.
_BLOCK = """
import sys
class _Missing:
    def __init__(self, names):
        self.names = names
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError("No module named " + repr(name), name=name)
        return None
sys.meta_path.insert(0, _Missing({names!r}))
from causalgraph.cli import main
sys.exit(main({argv!r}))
"""


def run_without(names, argv, cwd, **env_changes) -> subprocess.CompletedProcess:
    """``causalgraph ARGV`` in a subprocess where the top-level packages ``names`` cannot be imported.

    ``env_changes`` set environment variables (``None`` removes one).
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", _BLOCK.format(names=set(names), argv=argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


register_task(Task(name=YN_TASK, answers=Binary(labels=("yes", "no"), positive="yes",
                                              answer_words=lambda v: {"yes": "Yes", "no": "No"}),
                       build_items=lambda corpus, variant: [it for it in yn_items() if it.variant == variant],
                       list_variants=lambda: ["v_1", "v_2"], default_data="climatecause",
                       description="test task"), replace=True)


def write_records(path: Path, records: list[dict], *, task: str, variants: Optional[list[str]] = None,
                  model: str = "mock/hand", dataset="test", **manifest) -> Path:
    """The one toy-run builder of the tests: ``manifest.json`` and ``responses.jsonl`` written through
    :class:`~causalgraph.runlog.store.RunStore`, the store the runner writes with.

    ``variants`` defaults to the records' variants in order of first appearance; ``manifest`` adds
    keys (``epochs``, ``record_schema`` …).  Every other helper that writes a run builds its records
    and calls this.
    """
    from causalgraph.runlog.store import RunStore

    store = RunStore(path)
    store.write_manifest({"task": task, "variants": variants or list(dict.fromkeys(r["variant"] for r in records)),
                          "model": model, "dataset": dataset, **manifest})
    store.append(records)
    return path


def write_run(path: Path, task: str, rows: list[tuple], *, variants: Optional[list[str]] = None) -> Path:
    """A run of ``task`` from rows ``(variant, key, statement_id, gold, label)`` (:func:`write_records`).

    The item id is ``task/variant/key`` as the item builders write it.  A label ``"ERROR"`` writes a
    failed request (``error`` set, no label).
    """
    records = []
    for variant, key, sid, gold, label in rows:
        failed = label == "ERROR"
        records.append({"task": task, "variant": variant, "item_id": f"{task}/{variant}/{key}", "gold": gold,
                        "meta": {"statement_id": sid, "event": key.split("/")[-1]}, "prompt_sha256": "0" * 64,
                        "response": None if failed else str(label), "label": None if failed else label,
                        "rule": None if failed else "exact", "error": "HTTP 500" if failed else None})
    return write_records(path, records, task=task, variants=variants)
