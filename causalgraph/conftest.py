"""pytest's hooks for the doctests of the package: ``pytest --doctest-modules causalgraph`` (``make test`` runs it).

A module that needs an optional package which is not installed (``causalgraph.interop.inspect`` without
inspect_ai, …) is reported as skipped, naming the package, instead of failing to import; so is an
example that fails only because a function it calls imports such a package (Parquet output without
pyarrow).  Any other error still fails.  pytest reads this file only when it collects this folder (as networkx's
own ``networkx/conftest.py``); the library never imports it.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Optional

import pytest

_PACKAGE = Path(__file__).resolve().parent


def _module_name(path: Path) -> Optional[str]:
    try:
        parts = path.resolve().relative_to(_PACKAGE.parent).with_suffix("").parts
    except ValueError:
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _missing_package(exc: BaseException) -> Optional[str]:
    """The package outside causalgraph whose absence caused ``exc`` (also through a re-raise with an install hint)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name and exc.name.split(".")[0] != "causalgraph":
            return exc.name
        exc = exc.__cause__ or exc.__context__
    return None


def _not_installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name.split(".")[0]) is None
    except (ImportError, ValueError):
        return True


class _NeedsPackage(pytest.File):
    """A module whose doctests cannot run here: collecting it skips, saying which package is missing."""

    def __init__(self, *, missing: str, **kwargs):
        super().__init__(**kwargs)
        self.missing = missing

    def collect(self):
        pytest.skip(f"{_module_name(self.path)} needs the optional package {self.missing!r}, which is not installed")


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent):
    collected = yield
    if not parent.config.option.doctestmodules or file_path.suffix != ".py":
        return collected
    name = _module_name(file_path)
    if name is None or name.endswith(".conftest") or name.endswith(".__main__"):
        return collected
    try:
        importlib.import_module(name)
    except ImportError as exc:
        missing = _missing_package(exc)
        if missing is None:
            return collected  # the doctest module reports the error when it imports the module
        return [_NeedsPackage.from_parent(parent, path=file_path, missing=missing)]
    return collected


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    try:
        return (yield)
    except Exception as exc:
        # pytest's doctest runner raises doctest.UnexpectedException carrying the example's exc_info
        # (with --doctest-continue-on-failure, MultipleDoctestFailures holding a list of them).
        failures = getattr(exc, "failures", None) or [exc]
        names = {_missing_package(f.exc_info[1]) if hasattr(f, "exc_info") else None for f in failures}
        if len(names) == 1 and None not in names and _not_installed(next(iter(names))):
            pytest.skip(f"{item.name} needs the optional package {next(iter(names))!r}, which is not installed")
        raise
