"""Benchmarks: items (prompt + gold + meta), runner, answer parsing and scoring."""

from __future__ import annotations

from .batch import collect_batch, submit_batch
from ..taskkit.item import Item
from .reparse import parse
from .runner import RunConfig, RunResult, run_benchmark
from ..runlog.store import Run, RunStore, load_run

__all__ = ["Item", "parse", "RunConfig", "RunResult", "run_benchmark", "Run", "RunStore", "load_run", "submit_batch", "collect_batch"]
