"""End to end against a real OpenAI-compatible server: llama-cpp-python's, on 127.0.0.1, with SmolLM2-135M.

The fixture starts ``python -m llama_cpp.server`` on a free port, waits for
it to answer, and always stops it.  The run goes through the ``openai/``
backend with ``base_url``, exactly as a user would point it at vLLM or
Ollama.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.store import load_run

pytestmark = [pytest.mark.network_local, pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(600)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server] (scripts/install-test-deps.sh)")
    from causalgraph.llm.local import smollm2_path

    model = smollm2_path()
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                                 "--n_threads", "2", "--model_alias", "smollm2"],
                                stdout=fh, stderr=subprocess.STDOUT, env=dict(os.environ, HF_HUB_OFFLINE="1"))
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
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
                pytest.fail(f"llama_cpp.server did not answer within 120 s:\n{log.read_text()[-2000:]}")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_run_benchmark_against_the_llama_cpp_server_then_from_the_cache(llama_server, climatecause_path, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    opts = dict(data=str(climatecause_path), limit=3, max_tokens=12, model_options={"base_url": llama_server},
                concurrency=2, request_timeout=120)
    res = run_benchmark("ccr-member", ["A_5"], "openai/smollm2", out=tmp_path / "a", **opts)
    run = load_run(res.path)
    assert res.requests_sent == 3 and res.errors == 0 and len(run.responses) == 3
    for r in run.responses:
        assert r["response"] and r["usage"]["prompt_tokens"] > 100 and 0 < r["usage"]["completion_tokens"] <= 12
        assert r["finish_reason"] in ("stop", "length") and r["latency_s"] > 0
        assert r["rule"] in ("tag", "answer_colon", "mask", "exact", "last_label", "unparsed")
    m = run.metrics["variants"]["A_5"]
    assert m["items"] == 3 and m["answered"] == 3
    # The same command into a new folder: every answer from the cache, zero requests.
    again = run_benchmark("ccr-member", ["A_5"], "openai/smollm2", out=tmp_path / "b", **opts)
    assert (again.requests_sent, again.cache_hits) == (0, 3)
    assert [r["response"] for r in load_run(again.path).responses] == [r["response"] for r in run.responses]
    assert Counter(r["source"] for r in load_run(again.path).responses) == {"cache": 3}
