"""Fixtures of the runner tests: the yn-test task (the stand-in server and isolated_cache are in tests/conftest.py)."""

from __future__ import annotations

import bench_helpers  # noqa: F401  (registers the yn-test task; tests/ is on sys.path via tests/conftest.py)
