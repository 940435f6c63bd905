"""Every benchmark script imports: a change of an API they call fails here, not when someone measures."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_benchmark_script_imports_without_running(path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import their shared _common
    spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)  # module level only: each script runs under `if __name__ == "__main__"`
    assert module.__doc__, f"{path.name} says what it measures in its docstring"
