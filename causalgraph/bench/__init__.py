"""Benchmarks: items (prompt + gold + meta), runner, answer parsing and scoring."""

from __future__ import annotations

from .batch import collect_batch, submit_batch
from .item import Item
from .reparse import parse
from .registry import TaskSpec, get_task, list_tasks, register_task
from .runner import RunConfig, RunResult, run_benchmark
from .store import Run, RunStore, load_run
from .tasks import TASK_NAMES, items

__all__ = ["Item", "items", "TASK_NAMES", "parse", "TaskSpec", "get_task", "list_tasks", "register_task",
           "RunConfig", "RunResult", "run_benchmark", "Run", "RunStore", "load_run", "submit_batch", "collect_batch"]
