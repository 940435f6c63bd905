"""A doctest that sets an environment variable puts it back: ``pytest --doctest-modules causalgraph`` runs
every example in one process, so a leaked ``CAUSALGRAPH_CACHE`` would move every later example's cache."""

from __future__ import annotations

import doctest
import importlib
import os
import re

import pytest

from conftest import ROOT

# Modules whose examples write os.environ, found by reading the sources (not a hand-kept list).
_SETS_ENV = re.compile(r"^\s*(?:>>>|\.\.\.).*\bos\.environ\b", re.M)
_MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for p in (ROOT / "causalgraph").rglob("*.py")
    if _SETS_ENV.search(p.read_text(encoding="utf-8"))
)


def test_the_search_finds_the_modules_known_to_set_the_environment():
    assert {"causalgraph.datasets.causenet_sources", "causalgraph.llm.convert"} <= set(_MODULES)


@pytest.mark.parametrize("name", _MODULES)
def test_examples_leave_the_environment_as_they_found_it(name, tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CAUSALGRAPH_MODELS", str(tmp_path / "models"))
    before = dict(os.environ)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(importlib.import_module(name)):
        runner.run(test)
        assert dict(os.environ) == before, f"{test.name} changed the environment"
    assert runner.tries > 0 and runner.failures == 0
