"""Structured output on the wire: an OpenAI-compatible server on 127.0.0.1 sees the JSON schema, never leaks the key."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from causalgraph.annotation import ANNOTATION_SCHEMA
from causalgraph.apps import annotate

pytest.importorskip("openai")

ANSWER = {"causal": True, "abbreviations": None, "relations": [
    {"target": "melts", "explicitness": "E", "cause_np": "warming", "cause_context": None,
     "cause_no_quantifier": "warming", "cause_belongs_to": None, "effect_np": "melting of glaciers",
     "effect_context": None, "effect_no_quantifier": "glaciers", "effect_belongs_to": None,
     "combined": None, "nested": None, "relation_type": "positive", "correlation": "negative"}]}
KEY = "sk-test-secret-0123456789"


@pytest.fixture
def server(monkeypatch):
    bodies, auth = [], []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's naming)
            n = int(self.headers.get("content-length") or 0)
            bodies.append(json.loads(self.rfile.read(n)))
            auth.append(self.headers.get("authorization"))
            out = json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": "fake-model",
                              "choices": [{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": json.dumps(ANSWER)}}],
                              "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1", bodies, auth
    srv.shutdown()
    srv.server_close()


def test_annotate_sends_the_json_schema_to_an_openai_compatible_server(server):
    url, bodies, auth = server
    st = annotate("Warming melts glaciers.", "openai/fake-model", model_options={"base_url": url, "api_key": KEY},
                  cache=False)
    (body,) = bodies
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == ANNOTATION_SCHEMA
    assert body["temperature"] == 0.0 and body["messages"][0]["role"] == "system"
    assert auth == [f"Bearer {KEY}"]
    assert [(r.cause, r.effect) for r in st.relations] == [("warming", "glaciers")]
    assert KEY not in json.dumps(st.meta, default=str)


def test_annotate_without_structured_output_sends_no_response_format(server):
    url, bodies, _ = server
    annotate("Warming melts glaciers.", "openai/fake-model", model_options={"base_url": url, "api_key": KEY},
             cache=False, structured=False)
    assert "response_format" not in bodies[0]


def test_structured_backend_lets_the_inner_backend_judge_the_request_with_its_schema():
    """The runner's pre-flight check must see the parameters the wrapper adds (here a mock refuses them)."""
    import pytest

    from causalgraph.llm.structured import StructuredBackend
    from causalgraph.errors import ConfigError
    from causalgraph.llm.base import Request
    from causalgraph.llm.registry import get_backend

    inner = get_backend("mock/constant", text="{}")
    req = Request(messages=({"role": "user", "content": "x"},))
    inner.check_request(req)  # a plain request is fine for the mock
    wrapped = StructuredBackend(inner, {"response_format": {"type": "json_object"}})
    with pytest.raises(ConfigError):
        wrapped.check_request(req)
