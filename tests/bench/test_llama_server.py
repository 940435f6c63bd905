"""End to end against a real OpenAI-compatible server: llama-cpp-python's, on 127.0.0.1, with SmolLM2-135M.

The fixture starts ``python -m llama_cpp.server`` on a free port, waits for
it to answer, and always stops it.  The run goes through the ``openai/``
backend with ``base_url``, exactly as a user would point it at vLLM or
Ollama.
"""

from __future__ import annotations

from collections import Counter

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run

pytestmark = [pytest.mark.network_local, pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """``python -m llama_cpp.server`` with SmolLM2-135M on a free port (tests/llama_server.py)."""
    from llama_server import llama_server as start

    with start(tmp_path_factory.mktemp("llama")) as url:
        yield url


def test_run_benchmark_against_the_llama_cpp_server_then_from_the_cache(llama_server, climatecause_path, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    opts = dict(data=str(climatecause_path), limit=3, max_tokens=12, model_options={"base_url": llama_server},
                concurrency=2, request_timeout=120)
    res = run_benchmark("ccr-member", ["A_5"], "openai/smollm2", out=tmp_path / "a", **opts)
    run = load_run(res.path)
    assert res.requests_sent == 3 and res.errors == 0 and len(run.responses) == 3
    for r in run.responses:
        assert r.response and r.usage["prompt_tokens"] > 100 and 0 < r.usage["completion_tokens"] <= 12
        assert r.finish_reason in ("stop", "length") and r.latency_s > 0
        assert r.rule in ("tag", "answer_colon", "mask", "exact", "last_label", "unparsed")
    m = run.metrics.variants["A_5"]
    assert m["items"] == 3 and m["answered"] == 3
    # The same command into a new folder: every answer from the cache, zero requests.
    again = run_benchmark("ccr-member", ["A_5"], "openai/smollm2", out=tmp_path / "b", **opts)
    assert (again.requests_sent, again.cache_hits) == (0, 3)
    assert [r.response for r in load_run(again.path).responses] == [r.response for r in run.responses]
    assert Counter(r.source for r in load_run(again.path).responses) == {"cache": 3}
