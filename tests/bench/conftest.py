"""Fixtures of the runner tests: the yn-test task and an isolated response cache (the stand-in server is in tests/conftest.py)."""

from __future__ import annotations

import bench_helpers  # noqa: F401  (registers the yn-test task; tests/ is on sys.path via tests/conftest.py)
import pytest


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A fresh response cache for one test."""
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"
