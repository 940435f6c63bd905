"""The SQLite response cache."""

from __future__ import annotations

from causalgraph.llm.base import Completion
from causalgraph.llm.cache import ResponseCache, default_cache_path


def test_response_cache_round_trips_a_completion_across_connections(tmp_path):
    path = tmp_path / "r.sqlite"
    c = Completion(text="same", prompt_tokens=12, completion_tokens=1, latency_s=0.25, finish_reason="stop",
                   model="m", raw={"id": "x"})
    with ResponseCache(path) as cache:
        assert cache.get("k1") is None
        cache.put("k1", c, backend="mock/oracle")
        cache.put("k1", c, backend="mock/oracle")  # replacing, not doubling
        assert len(cache) == 1
    with ResponseCache(path) as again:
        got = again.get("k1")
    assert got == c


def test_default_cache_path_follows_causalgraph_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "c"))
    assert default_cache_path() == tmp_path / "c" / "responses.sqlite"
