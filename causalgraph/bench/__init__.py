"""The engine: the runner (call path, retries, the run writer), Batch, answer parsing and scoring.

It runs the tasks of :mod:`causalgraph.tasks` on the backends of
:mod:`causalgraph.llm` and writes run folders through :mod:`causalgraph.runlog`.
``Item`` (:mod:`causalgraph.taskkit`) and ``Run``/``RunStore``/``load_run``
(:mod:`causalgraph.runlog`) are re-exported here for code written before they
had packages of their own.
"""

from __future__ import annotations

from .batch import collect_batch, submit_batch
from ..taskkit.item import Item
from .reparse import parse
from .runner import run_benchmark
from .config import RunConfig, RunResult
from ..runlog.store import Run, RunStore, load_run

__all__ = ["Item", "parse", "RunConfig", "RunResult", "run_benchmark", "Run", "RunStore", "load_run", "submit_batch", "collect_batch"]
