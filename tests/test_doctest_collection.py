"""The package's doctests (``make test`` runs ``pytest --doctest-modules causalgraph``) skip what needs a
missing optional package, naming it, and fail otherwise (causalgraph/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

# Runs pytest on some modules of the package with inspect_ai and pyarrow made unimportable.
_BLOCKED = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("inspect_ai", "pyarrow"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
import pytest
sys.exit(pytest.main(["--doctest-modules", "-q", "-p", "no:cacheprovider", "-rs", *sys.argv[1:]]))
"""


def _doctests(*paths):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", _BLOCKED, *paths], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_doctests_skip_a_module_and_examples_whose_optional_package_is_missing():
    done = _doctests("causalgraph/interop/inspect.py", "causalgraph/interop/export.py", "causalgraph/encodings/base.py")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "causalgraph.interop.inspect needs the optional package 'inspect_ai', which is not installed" in out
    assert "causalgraph.interop.export.write_items_parquet needs the optional package 'pyarrow'" in out
    assert " passed" in out  # encodings/base.py's examples ran


def test_only_a_missing_package_outside_causalgraph_excuses_an_error():
    from causalgraph.conftest import _missing_package
    from causalgraph.errors import ConfigError

    def hinted():
        try:
            raise ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")
        except ImportError:
            raise ConfigError("Parquet output needs pyarrow") from None

    try:
        hinted()
    except ConfigError as exc:
        assert _missing_package(exc) == "pyarrow"  # also behind a re-raise `from None`
    assert _missing_package(ModuleNotFoundError("x", name="causalgraph.nothing")) is None
    assert _missing_package(ImportError("cannot import name 'x'")) is None
    assert _missing_package(ValueError("wrong")) is None
