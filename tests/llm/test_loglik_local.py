"""--method loglik on the local backends (hf/, llamacpp/) with the bundled SmolLM2-135M-Instruct.

The hf/ scores are checked against a transformers forward pass written here,
independently of the backend: one unpadded sequence per choice (context and
continuation concatenated), no key/value cache, no batching, float32.
"""

from __future__ import annotations

import asyncio
import math

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.llm import get_backend

from loglik_reference import reference_logprobs  # noqa: E402  (tests/ is on sys.path via tests/conftest.py)

pytestmark = [pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(2400)]

#: Two variants: single-token continuations (Yes/No) and multi-token ones (<Answer>start</Answer> …).
VARIANTS = (("ccr-member", "A_5"), ("ccr-eci-position", "0_4"))


def test_hf_loglik_scores_equal_an_independent_forward_pass_on_24_items_of_two_variants(climatecause_path, tmp_path,
                                                                                         monkeypatch):
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    from causalgraph.tasks import get_task

    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    backend = get_backend("hf/smollm2", batch_size=4, threads=2)
    runs = []
    try:
        for task, variant in VARIANTS:
            runs.append(run_benchmark(task, [variant], "hf/smollm2", data=str(climatecause_path), limit=12,
                                      method="loglik", backend=backend, out=tmp_path / task))
    finally:
        asyncio.run(backend.aclose())
    pairs, recs = [], []
    for res in runs:
        run = load_run(res.path)
        spec = get_task(run.task)
        items = {it.id: it for it in spec.build_items(__import__("causalgraph").datasets.load_corpus(
            str(climatecause_path)), run.variants[0])}
        assert len(run.responses) == 12 and not any(r.error for r in run.responses)
        for r in run.responses:
            pairs.append((items[r.item_id].messages(), r.continuations))
            recs.append(r)
    assert len(recs) == 24
    # The multi-token variant really has continuations of several tokens (the second pass is exercised).
    assert recs[-1].continuations["start"] == "<Answer>start</Answer>"
    ref = reference_logprobs(pairs)
    worst = max(abs(r.logprobs[k] - ref_i[k]) for r, ref_i in zip(recs, ref) for k in ref_i)
    assert worst < 1e-4, worst
    for r, ref_i in zip(recs, ref):
        # The label is the acc choice, the probabilities a softmax over the choices.
        assert r.label == max(ref_i, key=lambda k: ref_i[k])
        z = math.fsum(math.exp(v) for v in ref_i.values())
        for k, v in ref_i.items():
            assert r.probs[k] == pytest.approx(math.exp(v) / z, abs=1e-4)
        assert r.method == "loglik" and r.rule == "loglik-acc" and r.usage["completion_tokens"] == 0


def test_hf_loglik_gives_the_same_scores_alone_as_in_a_padded_batch(tmp_path):
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    from causalgraph.llm import Request
    from causalgraph.llm.loglik import LoglikRequest

    b = get_backend("hf/smollm2", batch_size=3, batch_wait=0.5, threads=2)
    prompts = ["Is 2 even? Answer Yes or No.", "Is the sky green on a clear day, yes or no? Think of a typical day.",
               "7?"]
    reqs = [LoglikRequest(Request(messages=({"role": "user", "content": p},)), ("yes", "no"),
                          ("<Answer>Yes</Answer>", "No")) for p in prompts]

    async def go():
        together = await asyncio.gather(*[b.score(r) for r in reqs])
        alone = [await b.score(r) for r in reqs]
        return together, alone

    try:
        together, alone = asyncio.run(go())
    finally:
        asyncio.run(b.aclose())
    assert [s.raw["batch_size"] for s in together] == [3, 3, 3] and alone[0].raw["batch_size"] == 1
    for t, a in zip(together, alone):
        assert t.token_counts == a.token_counts and t.token_counts[0] > 1 and t.prompt_tokens == a.prompt_tokens
        assert max(abs(x - y) for x, y in zip(t.logprobs, a.logprobs)) < 1e-4


def test_llamacpp_loglik_scores_the_same_items_as_hf_with_nearly_the_same_labels(climatecause_path, tmp_path,
                                                                                 monkeypatch):
    pytest.importorskip("llama_cpp")
    pytest.importorskip("transformers")
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    opts = dict(data=str(climatecause_path), limit=12, method="loglik")
    ll = run_benchmark("ccr-eci-position", ["0_4"], "llamacpp/smollm2", model_options={"n_threads": 2, "n_ctx": 4096},
                       out=tmp_path / "l", **opts)
    hf = run_benchmark("ccr-eci-position", ["0_4"], "hf/smollm2", model_options={"threads": 2}, out=tmp_path / "h",
                       **opts)
    a, b = load_run(ll.path).responses, load_run(hf.path).responses
    assert len(a) == len(b) == 12 and not any(r.error for r in a)
    for x, y in zip(a, b):
        assert x.continuations == y.continuations and x.usage["prompt_tokens"] == y.usage["prompt_tokens"]
        assert all(v < 0 for v in x.logprobs.values())
        # The same weights, quantised (Q4_1, 8-bit activations) against dequantised float32: close, not equal.
        assert max(abs(x.logprobs[k] - y.logprobs[k]) for k in x.logprobs) < 1.5
    assert sum(x.label == y.label for x, y in zip(a, b)) >= 10


def test_the_llama_cpp_server_scores_continuations_like_the_in_process_backend(climatecause_path, tmp_path,
                                                                               monkeypatch):
    pytest.importorskip("llama_cpp.server")
    pytest.importorskip("transformers")
    from llama_server import llama_server

    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "not-needed")
    opts = dict(data=str(climatecause_path), limit=6, method="loglik")
    with llama_server(tmp_path, extra=("--logits_all", "true")) as url:
        srv = run_benchmark("ccr-member", ["A_5"], "openai-compatible/smollm2",
                            model_options={"base_url": url, "tokenizer": "smollm2"}, out=tmp_path / "s", **opts)
    local = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", model_options={"n_threads": 2, "n_ctx": 2048},
                          out=tmp_path / "l", **opts)
    a, b = load_run(srv.path).responses, load_run(local.path).responses
    assert len(a) == 6 and not any(r.error for r in a)
    for x, y in zip(a, b):
        assert x.label == y.label
        assert max(abs(x.logprobs[k] - y.logprobs[k]) for k in x.logprobs) < 0.05


def test_openai_compatible_refuses_the_openai_api_and_a_missing_tokenizer():
    from causalgraph.errors import ConfigError

    with pytest.raises(ConfigError, match="returns no log-probabilities"):
        get_backend("openai-compatible/gpt-5.1", tokenizer="smollm2", api_key="x", base_url="https://api.openai.com/v1")
    with pytest.raises(ConfigError, match="needs --base-url"):
        get_backend("openai-compatible/gpt-5.1", tokenizer="smollm2", api_key="x")
    with pytest.raises(ConfigError, match="tokenizer=PATH is required"):
        get_backend("openai-compatible/m", base_url="http://127.0.0.1:9/v1", api_key="x")


def test_the_continuation_is_found_at_the_end_of_the_echoed_prompt_or_refused():
    from causalgraph.errors import BackendError
    from causalgraph.llm.server_loglik import continuation_logprob

    toks = ["<|im_start|>", "assistant", "\n", "<", "Answer", ">", "start", "</", "Answer", ">", "!"]
    lps = [None, -1.0, -0.5, -0.1, -0.2, -0.3, -2.0, -0.4, -0.05, -0.01, -9.0]
    assert continuation_logprob(toks, lps, 10, "<Answer>start</Answer>") == pytest.approx((-3.06, 7))
    with pytest.raises(BackendError, match="merged"):
        continuation_logprob(["a", "bc"], [None, -1.0], 2, "c")
    # The llama.cpp server leaves out special tokens with no text: fewer tokens than it counted.
    assert continuation_logprob(toks[1:10], lps[1:10], 12, "<Answer>start</Answer>", 1) == pytest.approx((-3.06, 7))


def test_llamacpp_loglik_formats_the_prompt_with_a_named_chat_format_as_generation_does(climatecause_path, tmp_path,
                                                                                      monkeypatch):
    # A GGUF file without a chat template (Gemma's) is scored through the chat_format that generation uses;
    # here SmolLM2 under chatml, whose prompt is written out by hand and counted by the transformers tokenizer.
    pytest.importorskip("llama_cpp")
    pytest.importorskip("transformers")
    from transformers import AutoTokenizer

    from causalgraph.datasets import load_corpus
    from causalgraph.llm.local import smollm2_path
    from causalgraph.tasks import get_task

    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    opts = dict(data=str(climatecause_path), limit=3, model_options={"n_threads": 2, "n_ctx": 4096, "chat_format": "chatml"})
    ll = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", method="loglik", out=tmp_path / "l", **opts)
    gen = run_benchmark("ccr-member", ["A_5"], "llamacpp/smollm2", max_tokens=2, out=tmp_path / "g", **opts)
    a, g = load_run(ll.path).responses, load_run(gen.path).responses
    assert len(a) == 3 and not any(r.error for r in a + g)
    path = smollm2_path()
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name, local_files_only=True)
    items = {it.id: it for it in get_task("ccr-member").build_items(load_corpus(str(climatecause_path)), "A_5")}
    for r, q in zip(a, g):
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in items[r.item_id].messages())
        text = "<|im_start|>system\n<|im_end|>\n" * (items[r.item_id].messages()[0]["role"] != "system") + text
        text += "<|im_start|>assistant\n"
        n = len(tok(text, add_special_tokens=False)["input_ids"])
        assert r.usage["prompt_tokens"] == q.usage["prompt_tokens"] == n
        assert set(r.logprobs) == {"yes", "no"} and all(v < 0 for v in r.logprobs.values())


def _member_requests(climatecause_path, n):
    from causalgraph.bench.prepare import loglik_choices
    from causalgraph.datasets import load_corpus
    from causalgraph.llm import Request
    from causalgraph.llm.loglik import LoglikRequest
    from causalgraph.tasks import get_task

    spec = get_task("ccr-member")
    ch = loglik_choices(spec, ["A_5"])["A_5"]
    items = spec.items(load_corpus(str(climatecause_path)), "A_5")[:n]
    return [LoglikRequest(Request(messages=tuple(it.messages())), tuple(ch), tuple(ch.values())) for it in items]


def test_llamacpp_loglik_reuses_the_previous_items_prefix_without_changing_the_scores(climatecause_path):
    pytest.importorskip("llama_cpp")
    from causalgraph.llm import Request
    from causalgraph.llm.loglik import LoglikRequest

    reqs = _member_requests(climatecause_path, 6)  # one statement: the graph part of the prompt is shared
    other = LoglikRequest(Request(messages=({"role": "user", "content": "Unrelated?"},)), ("y", "n"), ("Yes", "No"))
    shared, alone = get_backend("llamacpp/smollm2", n_threads=2), get_backend("llamacpp/smollm2", n_threads=2)

    async def go():
        a = [await shared.score(r) for r in reqs]
        b = []
        for r in reqs:
            await alone.score(other)  # shares no more than the chat template's opening with r
            b.append(await alone.score(r))
        return a, b

    try:
        a, b = asyncio.run(go())
        evaluated = shared._llm.n_tokens
    finally:
        asyncio.run(shared.aclose())
        asyncio.run(alone.aclose())
    assert evaluated <= a[-1].prompt_tokens  # the cache ends at the last context, not past a 6-item concatenation
    for x, y in zip(a, b):
        assert x.prompt_tokens == y.prompt_tokens
        assert max(abs(p - q) for p, q in zip(x.logprobs, y.logprobs)) < 2e-3


def test_llamacpp_loglik_formats_prompts_with_the_chat_format_option(tmp_path):
    pytest.importorskip("llama_cpp")
    from causalgraph.errors import ConfigError
    from causalgraph.llm import Request
    from causalgraph.llm.loglik import LoglikRequest

    req = LoglikRequest(Request(messages=({"role": "user", "content": "Is 2 even?"},)), ("yes", "no"), ("Yes", "No"))
    b = get_backend("llamacpp/smollm2", n_threads=2, chat_format="gemma")
    try:
        got = asyncio.run(b.score(req))
        # Gemma's turns as written out by hand (what Gemma 3 270M, whose GGUF has no template, is scored with).
        text = "<start_of_turn>user\nIs 2 even?<end_of_turn>\n<start_of_turn>model\n"
        ids = b._llm.tokenize(text.encode("utf-8"), add_bos=True, special=True)
    finally:
        asyncio.run(b.aclose())
    assert got.prompt_tokens == len(ids)
    own = get_backend("llamacpp/smollm2", n_threads=2)
    try:
        assert asyncio.run(own.score(req)).prompt_tokens != got.prompt_tokens  # SmolLM2's own ChatML template
    finally:
        asyncio.run(own.aclose())
    for name, words in (("no-such-format", "knows no such chat format"), ("functionary", "without a prompt template")):
        bad = get_backend("llamacpp/smollm2", n_threads=2, chat_format=name)
        try:
            with pytest.raises(ConfigError, match=words):
                asyncio.run(bad.score(req))
        finally:
            asyncio.run(bad.aclose())

