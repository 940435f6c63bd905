"""Fixtures of the runner tests: the stand-in OpenAI server and an isolated response cache."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_helpers  # noqa: E402,F401  (registers the yn-test task)


@pytest.fixture
def standin():
    from llm_standin import Standin

    s = Standin().start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A fresh response cache for one test."""
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"
