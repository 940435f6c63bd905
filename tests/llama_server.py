"""One ``python -m llama_cpp.server`` with the bundled SmolLM2-135M on 127.0.0.1, for the tests that need it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def llama_server(log_dir: Path, *, alias: str = "smollm2", start_timeout: float = 120,
                 extra: tuple[str, ...] = ()) -> Iterator[str]:
    """Start the server, wait until ``/models`` answers, yield its base URL, stop it (killed if it hangs).

    ``extra``: further server arguments (``("--logits_all", "true")`` for prompt log-probabilities).
    """
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server] (scripts/install-test-deps.sh)")
    from causalgraph.llm.local import smollm2_path

    port = free_port()
    log = Path(log_dir) / "server.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_path()),
                                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                                 "--n_threads", "2", "--model_alias", alias, *extra],
                                stdout=fh, stderr=subprocess.STDOUT, env=dict(os.environ, HF_HUB_OFFLINE="1"))
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited early:\n{log.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within {start_timeout:.0f} s:\n{log.read_text()[-2000:]}")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
