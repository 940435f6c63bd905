"""Hand-written run directories in the format the benchmark runner writes (``bench_helpers.write_run``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_helpers import write_run


@pytest.fixture
def make_run(tmp_path):
    def _make(name: str, task: str, rows: list[tuple], **kw) -> Path:
        return write_run(tmp_path / name, task, rows, **kw)
    return _make
