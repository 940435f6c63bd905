"""Fixtures of the viewer tests; the toy task and hand-made runs are in toy_runs.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Appended, not put first: "conftest" must keep meaning tests/conftest.py for the other test modules.
sys.path.append(str(Path(__file__).resolve().parent))

from toy_runs import RUN_A, RUN_B, write_toy_run  # noqa: E402


@pytest.fixture
def toy_runs(tmp_path):
    """Run A and run B of the toy task over the same eight items (B flips three of variant a)."""
    return write_toy_run(tmp_path / "run-a", RUN_A), write_toy_run(tmp_path / "run-b", RUN_B, model="hand/other")
