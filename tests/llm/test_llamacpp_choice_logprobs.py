"""``--method choice-logprobs`` with ``llamacpp/`` in process (no server), SmolLM2-135M Q4_1.

``create_chat_completion`` returns the generated tokens' log-probabilities with ``top_logprobs``; the runner reads
them with the same reader as a chat server's reply.  For ``Yes`` / ``No`` (one SmolLM2 token each, empty common
prefix) the answer position is the first generated token, whose alternatives hold the log-probabilities that
``--method loglik`` computes from the raw logits of the context (a separate code path: ``Llama.eval`` and a
log-softmax here); the two must agree to float32 rounding.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.errors import ConfigError
from causalgraph.llm import get_backend
from causalgraph.llm.base import Request
from causalgraph.runlog.store import load_run

pytestmark = [pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(900)]


def test_inprocess_choice_logprobs_equal_true_loglik_for_one_token_choices_and_come_back_from_the_cache(
        smollm2_gguf, climatecause_path, tmp_path, monkeypatch):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    backend = get_backend("llamacpp/smollm2", n_ctx=2048, n_threads=2)
    opts = dict(data=str(climatecause_path), limit=6, concurrency=1, backend=backend)
    try:
        ch = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", method="choice-logprobs", out=tmp_path / "ch",
                           **opts)
        # The same backend object scores next: the model loaded with logits_all is reloaded without it.
        ll = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", method="loglik", out=tmp_path / "ll", **opts)
        again = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", method="choice-logprobs",
                              out=tmp_path / "again", **opts)
    finally:
        asyncio.run(backend.aclose())
    chr_ = {r.item_id: r for r in load_run(ch.path).responses}
    llr = {r.item_id: r for r in load_run(ll.path).responses}
    agr = {r.item_id: r for r in load_run(again.path).responses}
    assert len(chr_) == 6 and set(chr_) == set(llr) == set(agr)
    for i, r in chr_.items():
        assert not r.error and r.scoring == "logprobs", r
        assert r.choice_read == {"position": 0, "choices_seen": 2, "bounded": [], "top_k": 20}
        assert 1 <= r.usage["completion_tokens"] <= 3  # max_tokens = len("Yes")
        assert r.label == llr[i].label
        for lab in ("yes", "no"):
            assert r.logprobs[lab] == pytest.approx(llr[i].logprobs[lab], abs=1e-4), (i, r, llr[i])
            assert r.probs[lab] == pytest.approx(llr[i].probs[lab], abs=1e-5)
        # The reply was cached as JSON (plain floats) and reads the same offline.
        assert agr[i].source == "cache" and agr[i].probs == r.probs
    assert json.loads(json.dumps(ch.metrics.to_dict()))["variants"]["A_5"]["choice_logprobs"]["reached"] == 1.0


def test_inprocess_choice_logprobs_options_and_parameters_are_checked(smollm2_gguf):
    for bad in (0, -3, True, "20"):
        with pytest.raises(ConfigError, match="top_logprobs"):
            get_backend("llamacpp/smollm2", top_logprobs=bad)
    b = get_backend("llamacpp/smollm2", top_logprobs=5)
    assert b.choice_logprobs and b.top_logprobs() == 5
    with pytest.raises(ConfigError, match="logprobs='yes': expected true or false"):
        b.check_request(Request(messages=({"role": "user", "content": "x"},), params={"logprobs": "yes"}))
    with pytest.raises(ConfigError, match="top_logprobs=2.5: expected an integer"):
        b.check_request(Request(messages=({"role": "user", "content": "x"},), params={"top_logprobs": 2.5}))
    kw = b.call_params(Request(messages=({"role": "user", "content": "x"},),
                               params={"logprobs": True, "top_logprobs": 5}))
    assert kw["logprobs"] is True and kw["top_logprobs"] == 5
