"""``--method choice-logprobs`` against a real chat endpoint: llama-cpp-python's server with SmolLM2-135M.

The server is started with ``--logits_all true`` so that it serves both ways: chat completions with
``top_logprobs`` (the new method, through ``openai/``) and completions with echoed prompt log-probabilities
(true log-likelihood, through ``openai-compatible/``).  For one-token choices (``Yes`` / ``No``) read at the
first generated position, the two are the same quantity, the log-probability of that token after the chat
template's assistant turn, so their probabilities must agree.
"""

from __future__ import annotations

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run

pytestmark = [pytest.mark.network_local, pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from llama_server import llama_server as start

    with start(tmp_path_factory.mktemp("llama"), extra=("--logits_all", "true")) as url:
        yield url


@pytest.mark.parametrize("task,variant", [("ccr-member", "A_5"), ("reachability", "A_1"), ("corri", "0_1")])
def test_three_tasks_are_read_from_a_real_chat_endpoint_and_agree_with_true_loglik(server, climatecause_path,
                                                                                  tmp_path, monkeypatch, task,
                                                                                  variant):
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    opts = dict(data=str(climatecause_path), limit=4, concurrency=1, request_timeout=300)
    ch = run_benchmark(task, [variant], "openai/smollm2", method="choice-logprobs", out=tmp_path / "ch",
                       model_options={"base_url": server}, **opts)
    ll = run_benchmark(task, [variant], "openai-compatible/smollm2", method="loglik", out=tmp_path / "ll",
                       model_options={"base_url": server, "tokenizer": "smollm2"}, **opts)
    # The same model in process, no server (llamacpp/, create_chat_completion with logprobs), same n_ctx.
    ip = run_benchmark(task, [variant], "llamacpp/smollm2", method="choice-logprobs", out=tmp_path / "ip",
                       model_options={"n_ctx": 2048, "n_threads": 2}, **opts)
    chr_ = {r.item_id: r for r in load_run(ch.path).responses}
    llr = {r.item_id: r for r in load_run(ll.path).responses}
    ipr = {r.item_id: r for r in load_run(ip.path).responses}
    assert set(chr_) == set(llr) == set(ipr) and len(chr_) == 4
    for i, r in ipr.items():
        # Read the same way as the server's reply: same scoring, label and (same llama.cpp build) probabilities.
        assert not r.error and (r.scoring, r.label) == (chr_[i].scoring, chr_[i].label), (r, chr_[i])
        assert r.choice_read.get("reason") == chr_[i].choice_read.get("reason")
        if r.scoring == "logprobs":
            for lab, p in r.probs.items():
                assert p == pytest.approx(chr_[i].probs[lab], abs=1e-6)
    for i, r in chr_.items():
        assert r.method == "choice-logprobs" and not r.error, r
        assert r.scoring in ("logprobs", "parsed") and r.usage["completion_tokens"] >= 1
        # max_tokens: the longest choice's bytes (3 for Yes / No, 8 for positive / negative).
        assert r.usage["completion_tokens"] <= max(len(c) for c in r.continuations.values())
        if r.scoring == "logprobs":
            assert r.choice_read["position"] == 0 and r.choice_read["top_k"] >= 20
            assert abs(sum(r.probs.values()) - 1) < 1e-9
    m = ch.metrics.variants[variant]["choice_logprobs"]
    read = [i for i, r in chr_.items() if r.scoring == "logprobs"]
    assert m["read"] == len(read) and m["reached"] == pytest.approx(len(read) / 4)
    if task in ("ccr-member", "reachability"):
        # Yes / No: one SmolLM2 token each, the answer position is the first generated token, and both choices
        # are among the top 20 there; the new method reads what true log-likelihood computes.
        assert len(read) == 4
        for i in read:
            assert chr_[i].label == llr[i].label
            for lab, p in chr_[i].probs.items():
                assert p == pytest.approx(llr[i].probs[lab], abs=2e-3), (i, chr_[i].probs, llr[i].probs)
