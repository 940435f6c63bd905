"""Hand-written run directories in the format the benchmark runner writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pytest


def write_run(path: Path, task: str, rows: list[tuple], *, variants: Optional[list[str]] = None) -> Path:
    """Write ``manifest.json`` and ``responses.jsonl``.

    ``rows`` are ``(variant, key, statement_id, gold, label)``; the item id is
    ``task/variant/key`` as the item builders write it.  A label ``"ERROR"``
    writes a failed request (``error`` set, no label).
    """
    path.mkdir(parents=True, exist_ok=True)
    seen = []
    for r in rows:
        if r[0] not in seen:
            seen.append(r[0])
    manifest = {"task": task, "variants": variants or seen, "model": "mock/hand", "dataset": "test"}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with open(path / "responses.jsonl", "w", encoding="utf-8") as fh:
        for variant, key, sid, gold, label in rows:
            failed = label == "ERROR"
            rec = {"task": task, "variant": variant, "item_id": f"{task}/{variant}/{key}", "gold": gold,
                   "meta": {"statement_id": sid, "event": key.split("/")[-1]}, "prompt_sha256": "0" * 64,
                   "response": None if failed else str(label), "label": None if failed else label,
                   "rule": None if failed else "exact", "error": "HTTP 500" if failed else None}
            fh.write(json.dumps(rec) + "\n")
    return path


@pytest.fixture
def make_run(tmp_path):
    def _make(name: str, task: str, rows: list[tuple], **kw) -> Path:
        return write_run(tmp_path / name, task, rows, **kw)
    return _make
