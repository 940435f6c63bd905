"""Benchmarks: items (prompt + gold + meta), runner, answer parsing and scoring."""

from __future__ import annotations

from .item import Item
from .tasks import TASK_NAMES, items

__all__ = ["Item", "items", "TASK_NAMES"]
