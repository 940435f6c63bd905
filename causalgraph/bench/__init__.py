"""Benchmarks: items (prompt + gold + meta), runner, answer parsing and scoring."""

from __future__ import annotations

from .item import Item

__all__ = ["Item"]
